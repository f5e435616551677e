"""The counting code both engines share, and the two engines themselves: the Ray engine (two
local workers) gives exactly the local engine's index."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from reference_corpus import CAPTIONS, EXPECTED, naive_counts, write_shards

from bindsplit_datasets.parsing import Binding
from bindsplit_datasets.reference import Captions, ReferenceIndex, caption_digest, local
from bindsplit_datasets.reference import ray as ray_engine
from bindsplit_datasets.reference.counting import DigestSet, Tally, count_block


def as_bindings(counts) -> dict[Binding, int]:
    return {Binding(*pair): n for pair, n in counts.items()}


# ----------------------------------------------------------------------------- counting code
def test_count_block_checks_digests_and_counts():
    block = count_block([CAPTIONS[0], None, 3, " ", *CAPTIONS[1:]])
    assert as_bindings(block.counts) == EXPECTED
    assert (block.n_captions, block.n_skipped, block.n_values, block.problem) == (5, 3, 8, None)
    expected_digests = sorted({caption_digest(c) for c in CAPTIONS})
    assert block.digests.tolist() == expected_digests and len(expected_digests) == 4
    strict = count_block([CAPTIONS[0], CAPTIONS[1], None], strict=True)
    assert strict.problem == (2, "None") and strict.counts == {} and strict.n_values == 0


def test_blocks_add_up_to_one_block_in_any_order():
    captions = CAPTIONS * 3 + ["a green car", "a red apple"]
    whole = count_block(captions)
    blocks = [count_block(captions[i : i + 4]) for i in range(0, len(captions), 4)]
    for order in (blocks, blocks[::-1]):
        tally = Tally()
        for block in order:
            tally.add(block)
        assert tally.bindings() == as_bindings(whole.counts) == dict(naive_counts(captions))
        assert tally.digests.array().tolist() == whole.digests.tolist()
        assert (tally.n_captions, tally.n_skipped) == (len(captions), 0)


def test_digest_set_equals_numpy_unique():
    rng = np.random.default_rng(0)
    arrays = [rng.integers(0, 500, size=n, dtype=np.uint64) for n in (0, 7, 100, 3, 250, 1)]
    digests = DigestSet(min_merge=8)
    for array in arrays:
        digests.add(array)
    assert digests.array().tolist() == np.unique(np.concatenate(arrays)).tolist()
    assert digests.array().dtype == np.uint64


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
    assert (by_ray.n_captions, by_ray.n_skipped) == (by_local.n_captions, 3) == (400, 3)
    assert by_ray.fingerprint == by_local.fingerprint
    assert (by_local.build, by_ray.build) == (
        {"engine": "local", "num_proc": 1},
        {"engine": "ray", "num_proc": 2},
    )
    # the files differ only in the build record that names the engine
    saved = [i.save(tmp_path / f"{i.build['engine']}.parquet") for i in (by_local, by_ray)]
    tables = [pq.read_table(path) for path in saved]
    assert tables[0].equals(tables[1])
    metadata = [dict(pq.read_metadata(path).metadata) for path in saved]
    for meta in metadata:
        del meta[b"bindsplit.build"]
    assert metadata[0] == metadata[1]


@pytest.mark.slow
def test_ray_engine_streams_what_only_the_driver_reads(ray_instance):
    captions = CAPTIONS * 5 + [None] + CAPTIONS

    def tally_of(count, values, **options):
        return count(Captions(values), num_proc=2, progress=False, **options)

    by_ray = tally_of(ray_engine.count, captions, batch_size=4)  # 8 tasks, 2 in flight each
    by_local = tally_of(local.count, captions)
    assert by_ray.bindings() == by_local.bindings() == {b: 6 * n for b, n in EXPECTED.items()}
    assert by_ray.digests.array().tolist() == by_local.digests.array().tolist()
    assert (by_ray.n_captions, by_ray.n_skipped) == (30, 1)
    with pytest.raises(ValueError, match=r"captions: caption #25 is None"):
        tally_of(ray_engine.count, captions, batch_size=4, strict=True)
