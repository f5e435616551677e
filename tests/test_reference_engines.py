"""The counting code both engines share, and the two engines themselves: the Ray engine (two
local workers) gives exactly the local engine's index."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from reference_corpus import (
    CAPTIONS,
    EXPECTED,
    naive_counts,
    naive_relation_counts,
    write_shards,
)

from bindsplit_datasets.parsing import Binding, Relation
from bindsplit_datasets.reference import Captions, ReferenceIndex, caption_digest
from bindsplit_datasets.reference.counting import count_block
from bindsplit_datasets.reference.digests import DigestPartitions
from bindsplit_datasets.reference.engines import count_corpus


def as_bindings(table) -> dict[Binding, int]:
    """A block's count table as ``{Binding: count}``."""
    columns = (table.column(name).to_pylist() for name in ("attribute", "object", "count"))
    return {Binding(a, o): n for a, o, n in zip(*columns, strict=True)}


def as_relations(table) -> dict[Relation, int]:
    """A block's triple table as ``{Relation: count}``."""
    names = ("subject", "relation", "object", "count")
    columns = (table.column(name).to_pylist() for name in names)
    return {Relation(s, r, o): n for s, r, o, n in zip(*columns, strict=True)}


# ----------------------------------------------------------------------------- counting code
def test_count_block_checks_digests_and_counts():
    block = count_block([CAPTIONS[0], None, 3, " ", *CAPTIONS[1:]])
    assert as_bindings(block.counts) == EXPECTED
    assert as_relations(block.relations) == dict(naive_relation_counts(CAPTIONS))
    assert count_block(CAPTIONS, relations=False).relations is None
    assert (block.n_captions, block.n_skipped, block.n_values, block.problem) == (5, 3, 8, None)
    expected_digests = sorted({caption_digest(c) for c in CAPTIONS})
    assert block.digests.tolist() == expected_digests and len(expected_digests) == 4
    strict = count_block([CAPTIONS[0], CAPTIONS[1], None], strict=True)
    assert strict.problem == (2, "None") and strict.counts.num_rows == 0 and strict.n_values == 0


def test_units_add_up_to_one_block_whatever_their_size(monkeypatch):
    captions = CAPTIONS * 3 + ["a green car", "a red apple"]
    whole = count_block(captions)
    for rows in (1, 4, 100):
        monkeypatch.setattr("bindsplit_datasets.reference.engines.UNIT_ROWS", rows)
        result = count_corpus(Captions(captions), num_proc=1, progress=False)
        assert result.counts == as_bindings(whole.counts) == dict(naive_counts(captions))
        assert result.relations == as_relations(whole.relations)
        assert result.relations == dict(naive_relation_counts(captions))
        assert result.digests.array.tolist() == whole.digests.tolist()
        assert (result.n_captions, result.n_skipped) == (len(captions), 0)


def test_digest_partitions_merge_to_numpy_unique(tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    arrays = [rng.integers(0, 2**64, size=n, dtype=np.uint64) for n in (0, 7, 100, 3, 250, 1)]
    arrays.append(arrays[2][:50])  # duplicates across appends
    expected = np.unique(np.concatenate(arrays))
    for limit in (10**6, 16):  # in memory; spilled to a Parquet file of row groups of 32
        monkeypatch.setattr("bindsplit_datasets.reference.digests.IN_MEMORY_DIGESTS", limit)
        monkeypatch.setattr("bindsplit_datasets.reference.digests.ROW_GROUP_DIGESTS", 32)
        partitions = DigestPartitions(tmp_path / f"p{limit}")
        for array in arrays:
            partitions.append(array)
        merged = partitions.merge(tmp_path)
        assert np.concatenate(list(merged.chunks())).tolist() == expected.tolist()
        assert merged.size == expected.size
        query = np.concatenate([expected[::7], rng.integers(0, 2**64, 40, dtype=np.uint64)])
        assert merged.overlap(query) == int(np.isin(query, expected).sum())


# ----------------------------------------------------------------------------- the engines
@pytest.fixture(scope="module")
def ray_instance():
    """One local Ray instance with two CPUs for the module's tests, shut down after them."""
    ray = pytest.importorskip("ray")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def coco_shards(shared_data, tmp_path_factory) -> Path:
    """The real COCO sample with unusable values mixed in, as four Parquet shards."""
    path = shared_data / "coco_mini" / "captions_train2017.json"
    captions = [a["caption"] for a in json.loads(path.read_text())["annotations"]]
    captions[7:7] = [None, "", "  "]
    return write_shards(
        tmp_path_factory.mktemp("engines") / "coco_shards", captions, n_shards=4, row_group_size=25
    )


@pytest.mark.slow
def test_ray_and_local_engines_give_identical_indexes_on_parquet_shards(
    ray_instance, coco_shards, tmp_path
):
    by_local = ReferenceIndex.from_parquet(coco_shards, num_proc=1, progress=False)
    by_ray = ReferenceIndex.from_parquet(coco_shards, engine="ray", num_proc=2, progress=False)
    assert ray_instance.is_initialized()  # a running instance is used and left running
    assert dict(by_ray.items()) == dict(by_local.items())
    assert by_local.has_relations and by_local.n_relations > 50
    assert dict(by_ray.relation_items()) == dict(by_local.relation_items())
    assert (by_ray.n_captions, by_ray.n_skipped) == (by_local.n_captions, 3) == (400, 3)
    assert by_ray.fingerprint == by_local.fingerprint
    assert by_ray.content_sha256() == by_local.content_sha256()
    assert [(i.build["engine"], i.build["num_proc"]) for i in (by_local, by_ray)] == [
        ("local", 1),
        ("ray", 2),
    ]
    # the files differ only in the build record that names the engine
    saved = [i.save(tmp_path / f"{i.build['engine']}.parquet") for i in (by_local, by_ray)]
    tables = [pq.read_table(path) for path in saved]
    assert tables[0].equals(tables[1])
    metadata = [dict(pq.read_metadata(path).metadata) for path in saved]
    for meta in metadata:
        del meta[b"bindsplit.build"]
    assert metadata[0] == metadata[1]


@pytest.mark.slow
def test_ray_engine_streams_what_only_the_driver_reads(ray_instance, monkeypatch):
    captions = CAPTIONS * 5 + [None] + CAPTIONS
    monkeypatch.setattr("bindsplit_datasets.reference.engines.UNIT_ROWS", 4)  # 8 units

    def result_of(engine, **options):
        return count_corpus(
            Captions(captions), engine=engine, num_proc=2, progress=False, **options
        )

    by_ray, by_local = result_of("ray"), result_of("local")
    assert by_ray.counts == by_local.counts == {b: 6 * n for b, n in EXPECTED.items()}
    assert by_ray.relations == by_local.relations == dict(naive_relation_counts(captions))
    assert by_ray.digests.array.tolist() == by_local.digests.array.tolist()
    assert (by_ray.n_captions, by_ray.n_skipped) == (30, 1)
    with pytest.raises(ValueError, match=r"captions: caption #25 is None"):
        result_of("ray", strict=True)
