"""Reference indexes at scale, scaled down: digests in row groups (no footer ceiling), a damaged
or altered index refused in one line, and a build interrupted after k shards resumed to the
same index."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from reference_corpus import CAPTIONS, write_shards

from bindsplit_datasets import cli
from bindsplit_datasets.errors import ResumeMismatchError, SchemaError
from bindsplit_datasets.reference import ReferenceIndex, local
from bindsplit_datasets.reference.tally import Tally

PLANTED = "A red apple on the grass."
N_FILLER = 3000


def filler(n: int) -> list[str]:
    """``n`` distinct captions that parse fast (no attribute-object binding)."""
    return [f"photo number {i}" for i in range(n)]


@pytest.fixture()
def small_groups(monkeypatch):
    """Digest row groups of 256 and at most 512 digests in memory: a 3,000-caption build takes
    the on-disk path a web-scale one takes."""
    monkeypatch.setattr("bindsplit_datasets.reference.digests.ROW_GROUP_DIGESTS", 256)
    monkeypatch.setattr("bindsplit_datasets.reference.digests.IN_MEMORY_DIGESTS", 512)


def test_digests_live_in_row_groups_and_the_planted_caption_is_found(small_groups, tmp_path):
    captions = filler(N_FILLER)
    captions.insert(1234, PLANTED)
    index = ReferenceIndex.from_captions(captions, num_proc=1, progress=False)
    assert index.n_caption_digests == N_FILLER + 1
    path = index.save(tmp_path / "big.parquet")
    metadata = pq.read_metadata(path)
    # bindings, the triple (apple, on, grass), then ceil(3001 / 256) digest groups
    assert metadata.num_row_groups == 1 + 1 + 12
    loaded = ReferenceIndex.load(path)
    assert loaded.contains_caption("a red apple on the grass")
    assert not loaded.contains_caption("a red apple on the sofa")
    benchmark = [PLANTED, "photo number 7", "photo number 2999", "photo number 3000", "a dog"]
    assert loaded.caption_overlap(benchmark) == 3
    assert loaded.content_sha256() == index.content_sha256()
    # the footer grows by a few hundred bytes a row group, never with the digests themselves
    assert metadata.serialized_size < 12 * 1024
    assert sum(len(v) for v in metadata.metadata.values()) < 2048


def _flip_byte(path: Path, offset: int, target: Path) -> Path:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0xFF
    target.write_bytes(bytes(data))
    return target


def test_damaged_truncated_and_altered_indexes_are_refused_in_one_line(tmp_path, capsys):
    index = ReferenceIndex.from_captions(CAPTIONS, num_proc=1, progress=False)
    good = index.save(tmp_path / "good.parquet")
    metadata = pq.read_metadata(good)
    # row groups: the bindings, the triples, the caption digests
    digests, counts = metadata.row_group(2).column(3), metadata.row_group(0).column(2)
    digest_end = digests.data_page_offset + digests.total_compressed_size
    counts_end = counts.data_page_offset + counts.total_compressed_size
    damaged_digests = _flip_byte(good, digest_end - 4, tmp_path / "d1.parquet")
    loaded = ReferenceIndex.load(damaged_digests)  # digests are read at lookup time
    with pytest.raises(SchemaError, match="d1.parquet: digest row group 2"):
        loaded.contains_caption("a large brown dog")
    damaged_counts = _flip_byte(good, counts_end - 2, tmp_path / "d2.parquet")
    with pytest.raises(SchemaError, match="d2.parquet"):
        ReferenceIndex.load(damaged_counts)
    truncated = tmp_path / "truncated.parquet"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    for argv in (
        ["reference", "info", str(truncated)],
        ["reference", "lookup", str(damaged_counts), "a red apple"],
        ["reference", "build", str(truncated), "--out", str(tmp_path / "x.parquet")],
    ):
        capsys.readouterr()
        assert cli.main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "Traceback" not in err, err
        assert "rebuild the index" in err


def _shards(tmp_path: Path) -> Path:
    captions = [*CAPTIONS, "a green car", "a small white cat", None, "a wooden table", "a red bus"]
    return write_shards(tmp_path / "shards", captions, n_shards=5, row_group_size=1)


class Interrupted(Exception):
    """The injected failure."""


def test_a_build_interrupted_after_two_shards_resumes_to_the_same_index(tmp_path, monkeypatch):
    shards = _shards(tmp_path)
    whole = ReferenceIndex.from_parquet(shards, num_proc=1, progress=False)
    work = tmp_path / "work"
    commit = Tally._commit
    committed: list[int] = []

    def failing_commit(self, number, shard):
        if len(committed) == 2:
            raise Interrupted(f"killed after {committed}")
        commit(self, number, shard)
        committed.append(number)

    monkeypatch.setattr(Tally, "_commit", failing_commit)
    with pytest.raises(Interrupted):
        ReferenceIndex.from_parquet(shards, num_proc=1, progress=False, work_dir=work)
    assert committed == [0, 1] and (work / "journal.jsonl").is_file()
    monkeypatch.setattr(Tally, "_commit", commit)
    counted: list[int] = []
    count_unit = local.count_unit

    def recording(unit, strict=False, relations=True):
        counted.append(unit.shard)
        return count_unit(unit, strict, relations)

    monkeypatch.setattr(local, "count_unit", recording)
    resumed = ReferenceIndex.from_parquet(
        shards, num_proc=1, progress=False, work_dir=work, resume=True
    )
    assert sorted(set(counted)) == [2, 3, 4]  # the finished shards were not counted again
    assert resumed.fingerprint == whole.fingerprint
    assert resumed.content_sha256() == whole.content_sha256()
    assert dict(resumed.items()) == dict(whole.items())
    assert dict(resumed.relation_items()) == dict(whole.relation_items())
    assert not work.exists()  # removed once the build succeeded


def test_resume_refuses_the_checkpoint_of_other_shards(tmp_path, monkeypatch):
    shards = _shards(tmp_path)
    work = tmp_path / "work"

    def failing_commit(self, number, shard):
        raise Interrupted

    monkeypatch.setattr(Tally, "_commit", failing_commit)
    with pytest.raises(Interrupted):
        ReferenceIndex.from_parquet(shards, num_proc=1, progress=False, work_dir=work)
    monkeypatch.undo()
    write_shards(shards, ["a blue car"], n_shards=1)  # part-00000 changed
    with pytest.raises(ResumeMismatchError, match="differs in corpus.*rerun without --resume"):
        ReferenceIndex.from_parquet(shards, num_proc=1, progress=False, work_dir=work, resume=True)


def test_the_command_resumes(tmp_path, monkeypatch, capsys):
    shards = _shards(tmp_path)
    out = tmp_path / "index.parquet"
    commit = Tally._commit
    calls: list[int] = []

    def failing_commit(self, number, shard):
        if calls:
            raise KeyboardInterrupt
        calls.append(number)
        commit(self, number, shard)

    monkeypatch.setattr(Tally, "_commit", failing_commit)
    argv = ["reference", "build", str(shards), "--out", str(out), "--num-workers", "1"]
    assert cli.main(argv) == 130
    assert not out.exists() and (tmp_path / ".index.parquet.build" / "journal.jsonl").is_file()
    monkeypatch.setattr(Tally, "_commit", commit)
    assert cli.main([*argv, "--resume"]) == 0
    uninterrupted = ReferenceIndex.from_parquet(shards, num_proc=1, progress=False)
    assert ReferenceIndex.load(out).content_sha256() == uninterrupted.content_sha256()
    assert ReferenceIndex.load(out).fingerprint == uninterrupted.fingerprint
    assert not (tmp_path / ".index.parquet.build").exists()


@pytest.mark.parametrize("bad", ["/proc/x.parquet", "FILE/x.parquet", "N" * 250 + ".parquet"])
def test_bad_out_paths_are_refused_before_any_work(bad, tmp_path, capsys, monkeypatch):
    (tmp_path / "FILE").write_text("a file", encoding="utf-8")
    out = bad if bad.startswith("/") else str(tmp_path / bad)
    monkeypatch.setattr(
        "bindsplit_datasets.commands.reference.resolve_reference",
        lambda *a, **k: pytest.fail("work started before the output check"),
    )
    assert cli.main(["reference", "build", "coco2017", "--out", out]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
