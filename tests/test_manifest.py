"""A build is used only while its files match its manifest: rewritten labels, edited manifests,
truncated or corrupt shards are refused with one clear error, locally, from the Hub and by
`bindsplit eval`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from fixtures_sources import (
    BIVLC_FEATURES,
    fixture_colour,
    label_names,
    make_bivlc_source,
    png_bytes,
)

from bindsplit_datasets import cli
from bindsplit_datasets.builds.builder import build_benchmark
from bindsplit_datasets.builds.features import LABEL_FEATURE
from bindsplit_datasets.builds.manifest import (
    VERIFY_FIX,
    BuildColumns,
    BuildManifest,
    config_files,
    read_manifest,
    verify_build,
)
from bindsplit_datasets.errors import (
    BindsplitFileNotFoundError,
    BuildVerificationError,
    SchemaError,
)
from bindsplit_datasets.loading import load_bindsplit

REFERENCE = ["a red car on the road", "a white dog on the grass", "a blue car parked"]
ROWS = [
    ("a red car", "a white dog"),  # seen
    ("a purple car", "a golden dog"),  # unseen
    ("a red car", "a purple dog"),  # partial
    ("a golden dog", "a purple car"),  # unseen
    ("a white dog", "a blue car"),  # seen
]
LABELS = ["seen", "unseen", "partial", "unseen", "seen"]


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("manifest")
    (work / "reference.txt").write_text("\n".join(REFERENCE) + "\n", encoding="utf-8")
    return work


@pytest.fixture(scope="module")
def pristine(work) -> Path:
    rows = [{"caption": c, "negative_caption": n} for c, n in ROWS]
    source = make_bivlc_source(work / "bivlc.parquet", rows)
    reference = work / "reference.txt"
    result = build_benchmark("bivlc", out=work / "build", source=source, reference=reference)
    assert result.manifest["configs"] == {
        "full": 5,
        "seen": 2,
        "unseen": 2,
        "partial": 1,
        "balanced": 2,
    }
    return result.path


@pytest.fixture
def build(pristine, tmp_path) -> Path:
    """A fresh copy of the build, to tamper with."""
    return Path(shutil.copytree(pristine, tmp_path / "build"))


def rewrite_column(shard: Path, column: str, row: int, value: str) -> None:
    """Rewrite one cell of a Parquet shard in place (schema and metadata kept), as a hand edit
    would; a ``bindsplit_label`` as the build stores it, the class index of the name ``value``."""
    table = pq.read_table(shard)
    values = table.column(column).to_pylist()
    values[row] = LABEL_FEATURE.str2int(value) if column == "bindsplit_label" else value
    index = table.schema.get_field_index(column)
    field = table.schema.field(index)
    table = table.set_column(index, field, pa.array(values, field.type))
    pq.write_table(table, shard)


def error_lines(stderr: str) -> list[str]:
    """The error lines the command printed (progress bars aside); no traceback allowed."""
    assert "Traceback" not in stderr
    return [line for line in stderr.splitlines() if line.startswith("bindsplit ")]


def shard(build: Path, config: str) -> Path:
    (only,) = config_files(build, config)
    return only


def test_an_untouched_build_verifies_and_loads(build):
    manifest = json.loads((build / "bindsplit.json").read_text(encoding="utf-8"))
    assert verify_build(build) == manifest
    data = load_bindsplit(build, "unseen")
    assert data.dataset["caption"] == ["a purple car", "a golden dog"]
    assert data.fingerprint == manifest["fingerprint"]


def test_a_build_from_images_stored_as_files_verifies(work):
    cells = {"image": [], "negative_image": []}
    for i in range(len(ROWS)):
        for slot, column in enumerate(cells):
            path = work / f"{i}_{slot}.png"
            path.write_bytes(png_bytes(fixture_colour(i, slot)))
            cells[column].append({"bytes": None, "path": str(path)})
    columns = {
        "caption": [c for c, _ in ROWS],
        "negative_caption": [n for _, n in ROWS],
        "type": ["replace"] * len(ROWS),
        "subtype": ["att"] * len(ROWS),
    }
    source = work / "by_path.parquet"
    dataset = datasets.Dataset.from_dict({**columns, **cells}, features=BIVLC_FEATURES)
    dataset.to_parquet(str(source))
    result = build_benchmark(
        "bivlc", out=work / "by_path", source=source, reference=work / "reference.txt"
    )
    assert verify_build(result.path)["fingerprint"] == result.manifest["fingerprint"]


def test_a_label_rewritten_after_the_build_is_refused(build):
    rewrite_column(shard(build, "full"), "bindsplit_label", 1, "seen")  # unseen -> seen
    with pytest.raises(BuildVerificationError) as error:
        load_bindsplit(build)
    message = str(error.value)
    assert f"the rows of {build}/full do not match its bindsplit.json" in message
    assert message.endswith(VERIFY_FIX) and "--no-verify" in message
    # the check is what refuses it: unchecked, the rewritten label is what would be scored
    unchecked = load_bindsplit(build, verify=False)
    assert label_names(unchecked.dataset) == ["seen", "seen", "partial", "unseen", "seen"]


def _swap_metadata_names(shard: Path) -> None:
    """Swap ``seen`` and ``unseen`` in the ClassLabel names of a shard's ``datasets`` metadata
    (the stored indexes untouched): every ``seen`` row then reads as ``unseen``."""
    table = pq.read_table(shard)
    metadata = dict(table.schema.metadata)
    info = json.loads(metadata[b"huggingface"])
    names = info["info"]["features"]["bindsplit_label"]["names"]
    assert names[:2] == ["seen", "unseen"]
    names[:2] = ["unseen", "seen"]
    metadata[b"huggingface"] = json.dumps(info).encode()
    pq.write_table(table.replace_schema_metadata(metadata), shard)


def test_swapped_label_names_in_the_parquet_metadata_are_refused(build):
    _swap_metadata_names(shard(build, "full"))
    with pytest.raises(BuildVerificationError, match="bindsplit_label's class names are"):
        verify_build(build)


def test_swapped_label_names_in_the_card_are_refused(build, capsys):
    card = (build / "README.md").read_text(encoding="utf-8")
    assert "'0': seen" in card and "'1': unseen" in card
    swapped = card.replace("'0': seen", "'0': SWAP").replace("'1': unseen", "'1': seen")
    (build / "README.md").write_text(swapped.replace("'0': SWAP", "'0': unseen"), "utf-8")
    with pytest.raises(BuildVerificationError, match="the card names bindsplit_label's classes"):
        verify_build(build)
    assert cli.main(["push-dataset", str(build), "--repo", "org/x"]) == 2
    assert "the card names bindsplit_label's classes" in capsys.readouterr().err


@pytest.mark.slow  # imports the model stack
def test_eval_refuses_a_tampered_build_before_loading_a_model(build, tmp_path, capsys):
    rewrite_column(shard(build, "full"), "bindsplit_label", 1, "seen")
    out = tmp_path / "results.json"
    argv = ["eval", "--model", "no-such-model", "--data", str(build), "--out", str(out)]
    assert cli.main(argv) == 2 and not out.exists()
    (line,) = error_lines(capsys.readouterr().err)
    assert line.startswith(f"bindsplit eval: error: the rows of {build}/full do not match")
    path = shard(build, "full")
    path.write_bytes(path.read_bytes()[:100])
    assert cli.main(argv) == 2
    (line,) = error_lines(capsys.readouterr().err)
    assert f"{path} is not a readable Parquet file" in line


def test_the_push_dry_run_refuses_a_tampered_build(build, capsys):
    # a fixture build, not the canonical one: published in another namespace
    argv = ["push-dataset", str(build), "--org", "my-lab"]
    assert cli.main(argv) == 0  # an untouched build plans (dry run: nothing is sent)
    assert "my-lab/bivlc" in capsys.readouterr().out
    rewrite_column(shard(build, "full"), "bindsplit_label", 1, "seen")
    assert cli.main(argv) == 2
    (line,) = error_lines(capsys.readouterr().err)
    assert line.startswith(f"bindsplit push-dataset: error: the rows of {build}/full do not match")
    assert "--no-verify" in line
    # skipping verification is explicit
    assert cli.main([*argv, "--no-verify"]) == 0


def test_a_configuration_that_differs_from_full_is_refused(build):
    rewrite_column(shard(build, "unseen"), "bindsplit_label", 0, "seen")
    with pytest.raises(BuildVerificationError, match="holds rows labelled|exactly the 'unseen'"):
        load_bindsplit(build, "unseen")
    # any other column counts too, and so does loading another configuration of the build
    fresh = build.parent / "fresh"
    shutil.copytree(build.parent / "build", fresh)
    rewrite_column(shard(fresh, "unseen"), "bindsplit_label", 0, "unseen")
    rewrite_column(shard(fresh, "seen"), "caption", 1, "a white cat")
    with pytest.raises(
        BuildVerificationError, match=f"{fresh}/seen does not hold exactly the 'seen' rows"
    ):
        load_bindsplit(fresh, "full")


def test_an_edited_manifest_is_refused(build):
    path = build / "bindsplit.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**manifest, "configs": {**manifest["configs"], "full": 6}}))
    with pytest.raises(BuildVerificationError, match=r"full holds 5 rows, its bindsplit.json"):
        verify_build(build)
    counts = {**manifest["composition"]["counts"], "seen": 1, "unseen": 3}
    composition = {**manifest["composition"], "counts": counts}
    path.write_text(json.dumps({**manifest, "composition": composition}))
    with pytest.raises(BuildVerificationError, match="do not match the composition"):
        verify_build(build)
    configs = {k: v for k, v in manifest["configs"].items() if k != "partial"}
    path.write_text(json.dumps({**manifest, "configs": configs}))
    with pytest.raises(BuildVerificationError, match=r"Parquet files for \['partial'\]"):
        verify_build(build)


def test_a_build_of_the_string_label_format_is_refused(build):
    """Builds of format 1 stored ``bindsplit_label`` as strings; they are refused by the format
    tag, with the command that rebuilds them, before any row is read."""
    path = build / "bindsplit.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**manifest, "format": "bindsplit-build/1"}))
    expected = (
        f"{build} is not a BindSplit build: its bindsplit.json has format 'bindsplit-build/1', "
        "expected 'bindsplit-build/2'; make one with `bindsplit build BENCHMARK --out DIR`."
    )
    for load in (verify_build, load_bindsplit):
        with pytest.raises(SchemaError) as error:
            load(build)
        assert str(error.value) == expected


def test_a_missing_card_or_shard_is_refused(build):
    shard(build, "seen").unlink()
    with pytest.raises(BuildVerificationError, match=f"{build / 'seen'} has no Parquet files"):
        verify_build(build)
    (build / "README.md").unlink()
    with pytest.raises(BuildVerificationError, match="has no README.md"):
        verify_build(build)


@pytest.mark.parametrize("verify", [True, False])
def test_a_truncated_shard_is_one_clear_error(build, verify):
    path = shard(build, "full")
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(BuildVerificationError, match=f"{path} is not a readable Parquet file"):
        load_bindsplit(build, verify=verify)


def test_a_corrupt_data_page_is_refused(build):
    path = shard(build, "full")
    data = bytearray(path.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little") + 8  # metadata length + length + magic
    for i in range(8, len(data) - footer, 7):  # scramble the pages, keep the footer intact
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(BuildVerificationError, match=str(path.parent)):
        load_bindsplit(build)


def test_a_folder_without_manifest_is_not_a_build(build):
    (build / "bindsplit.json").unlink()
    with pytest.raises(SchemaError, match="not a BindSplit build: it has no bindsplit.json"):
        verify_build(build)


def test_an_unreachable_hub_is_not_reported_as_a_missing_manifest(monkeypatch):
    import huggingface_hub
    from huggingface_hub.errors import EntryNotFoundError, LocalEntryNotFoundError

    def offline(*args, **kwargs):
        raise LocalEntryNotFoundError("offline and not cached")

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", offline)
    with pytest.raises(BindsplitFileNotFoundError, match="the Hub is not reachable") as raised:
        read_manifest("some-org/some-build")
    assert "no bindsplit.json" not in str(raised.value)

    def absent(*args, **kwargs):
        raise EntryNotFoundError("no such file")

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", absent)
    with pytest.raises(SchemaError, match="it has no bindsplit.json"):
        read_manifest("some-org/some-build")


def test_hub_builds_are_verified_after_download(build, monkeypatch):
    real_load = datasets.load_dataset

    def fake_download(repo_id, filename, *, repo_type, revision):
        return str(build / filename)

    def fake_load(path, name, *, split, revision, cache_dir):
        files = [str(p) for p in config_files(build, name)]
        return real_load("parquet", data_files={split: files}, split=split)

    monkeypatch.setattr("huggingface_hub.hf_hub_download", fake_download)
    monkeypatch.setattr(datasets, "load_dataset", fake_load)
    assert len(load_bindsplit("someone/bivlc-bindsplit").dataset) == 5
    rewrite_column(shard(build, "full"), "bindsplit_label", 0, "unseen")
    with pytest.raises(BuildVerificationError, match="someone/bivlc-bindsplit/full do not match"):
        load_bindsplit("someone/bivlc-bindsplit")
    rewrite_column(shard(build, "unseen"), "bindsplit_label", 1, "seen")
    with pytest.raises(BuildVerificationError, match=r"unseen holds rows labelled \['seen'\]"):
        load_bindsplit("someone/bivlc-bindsplit", "unseen")
    assert len(load_bindsplit("someone/bivlc-bindsplit", "unseen", verify=False).dataset) == 2


def test_the_typed_manifest_writes_reads_and_verifies(build, tmp_path):
    manifest = BuildManifest.read(build)
    assert manifest.to_dict() == json.loads((build / "bindsplit.json").read_text())
    assert manifest.columns.image == ("image", "negative_image")
    manifest.verify(build)  # the folder holds what it describes
    copy = tmp_path / "copy"
    copy.mkdir()
    assert manifest.write(copy).read_text() == (build / "bindsplit.json").read_text()
    other = BuildManifest.from_dict({**manifest.to_dict(), "min_count": 2})
    with pytest.raises(BuildVerificationError, match="is not the manifest expected"):
        other.verify(build)
    with pytest.raises(SchemaError, match=r"lacks \['columns'\]"):
        BuildManifest.from_dict({k: v for k, v in manifest.to_dict().items() if k != "columns"})


def test_a_build_verifies_without_its_adapter_and_from_another_version(build, monkeypatch):
    """Verification reads only the build: with its adapter gone from the registry, and for a
    manifest of another BindSplit version without the ``columns`` block, the fingerprint still
    decides (the image columns then are the rows' Image columns)."""
    from bindsplit_datasets import benchmarks

    benchmarks.list_benchmarks()  # discovered now, so that the removal below sticks
    monkeypatch.delitem(benchmarks._REGISTRY, "bivlc")
    path = build / "bindsplit.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    assert verify_build(build) == manifest
    assert load_bindsplit(build, "unseen").columns.image == ("image", "negative_image")
    older = {k: v for k, v in manifest.items() if k not in ("columns", "pretty_name", "provenance")}
    path.write_text(json.dumps({**older, "bindsplit_version": "0.1.0"}), encoding="utf-8")
    assert verify_build(build)["bindsplit_version"] == "0.1.0"
    with pytest.raises(SchemaError, match="does not describe its columns.*rebuild"):
        _ = load_bindsplit(build, "unseen").columns
    rewrite_column(shard(build, "full"), "caption", 0, "a green car")
    with pytest.raises(BuildVerificationError, match="fingerprint"):
        verify_build(build)


def test_hard_positive_columns_round_trip_and_follow_the_positives():
    columns = BuildColumns(
        image=("image",),
        caption=("caption", "caption2", "negative_caption"),
        hard_positive=("caption2",),
    )
    assert columns.to_dict()["hard_positive"] == ["caption2"]
    assert BuildColumns.from_dict(columns.to_dict()) == columns
    plain = BuildColumns(image=("image",), caption=("caption", "negative_caption"))
    assert "hard_positive" not in plain.to_dict()
    assert BuildColumns.from_dict(plain.to_dict()).hard_positive == ()
    with pytest.raises(SchemaError, match="must follow the 1 positive"):
        BuildColumns(image=("image",), caption=("caption", "neg", "hp"), hard_positive=("hp",))
