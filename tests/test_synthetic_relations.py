"""Relations in the synthetic world: held-out configurations, their triples in the training
corpus, the geometric truth of every relation, the relation test set and its benchmark."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import datasets
import pytest

from bindsplit_datasets.benchmarks import get_benchmark
from bindsplit_datasets.builds.builder import build_benchmark
from bindsplit_datasets.labels import annotate_sample
from bindsplit_datasets.parsing import Relation, parse_bindings, parse_relations
from bindsplit_datasets.synthetic import (
    SyntheticWorld,
    default_world,
    make_world,
    reference_index,
    training_scenes,
    write_test_benchmark,
)
from bindsplit_datasets.synthetic.corpus import seen_relation_swap_pair
from bindsplit_datasets.synthetic.relation_testset import (
    RelationReport,
    generate_relation_samples,
    relation_pools,
)
from bindsplit_datasets.synthetic.relations import (
    AXES,
    RELATIONS,
    TOUCH_TOLERANCE,
    choose_held_out_relations,
    configuration_of,
    matchings,
    relation_holds,
    wordings,
)


@pytest.fixture(scope="module")
def world() -> SyntheticWorld:
    return default_world()


@pytest.fixture(scope="module")
def index(world):
    return reference_index(world)


def _truths(scene) -> set[tuple[str, str, str]]:
    """Every triple that holds between the scene's two shapes, from their tight boxes."""
    return {
        (a.shape, relation, b.shape)
        for a, b in itertools.permutations(scene.objects, 2)
        for relation in RELATIONS
        if relation_holds(a.box(1), relation, b.box(1))
    }


def test_held_out_configurations_follow_three_matchings_of_the_shapes(world):
    rounds = matchings(world.shapes, world.seed)
    assert len(rounds) == 5 and all(len(r) == 3 for r in rounds)
    assert len({frozenset(p) for r in rounds for p in r}) == 15  # every pair once
    held = world.held_out_relations
    assert len(held) == 18 and len(world.seen_configurations) == 42
    pools = relation_pools(world)
    assert {k: len(v) for k, v in pools.items()} == {"seen": 18, "partial": 6, "unseen": 6}
    for stratum, pool in pools.items():  # every shape in every stratum, on both axes
        for axis in AXES:
            shapes = Counter(s for a, b, x in pool if x == axis for s in (a, b))
            assert set(shapes) == set(world.shapes) and len(set(shapes.values())) == 1, stratum


def test_a_world_round_trips_its_relations_and_reads_an_older_description(world, tmp_path):
    assert SyntheticWorld.from_dict(json.loads(json.dumps(world.to_dict()))) == world
    older = {k: v for k, v in world.to_dict().items() if k != "held_out_relations"}
    assert SyntheticWorld.from_dict(older).held_out_relations == frozenset()
    with pytest.raises(ValueError, match="held-out configurations"):
        SyntheticWorld.from_dict({**world.to_dict(), "held_out_relations": [["a", "b", "c"]]})
    assert choose_held_out_relations(["circle", "star"], seed=0) == frozenset()  # one matching
    small = make_world(["circle", "star", "cross", "square"], ["red", "blue", "pink"], seed=1)
    assert len(small.held_out_relations) == 2 * 2 * 2 + 2 * 2  # 2 pairs fully, 2 pairs half
    assert {"left", "right", "above", "below", "top"} <= set(world.vocabulary)


def test_training_captions_state_seen_configurations_only_and_their_truth(world, index):
    stated = Counter()
    for spec in training_scenes(world, 3000, seed=0):
        relations = parse_relations(spec.caption)
        truths = _truths(spec.scene)
        a, b = (o.box(1) for o in spec.scene.objects)
        assert all(0.0 <= v <= 1.0 for v in (*a, *b))
        if not relations:  # "x and y": anywhere (test_synthetic checks their spacing)
            continue
        overlap_x = min(a[2], b[2]) - max(a[0], b[0])
        overlap_y = min(a[3], b[3]) - max(a[1], b[1])
        assert overlap_x <= TOUCH_TOLERANCE or overlap_y <= TOUCH_TOLERANCE  # apart or touching
        (relation,) = relations
        triple = (relation.subject, relation.relation, relation.object)
        assert world.is_seen_relation(triple)
        configuration = configuration_of(triple)
        contact = any(r == "on top of" for _, r, _ in truths)
        assert truths == set(wordings(configuration, contact=contact)), spec.caption
        stated[triple] += 1
    seen = {t for c in world.seen_configurations for t in wordings(c, contact=True)}
    assert set(stated) == seen  # every wording of every seen configuration, nothing else
    counted = {(r.subject, r.relation, r.object) for r, _ in index.relation_items()}
    assert counted == seen
    for triple in itertools.product(world.shapes, RELATIONS, world.shapes):
        if triple[0] != triple[2] and not world.is_seen_relation(triple):
            assert index.relation_count(triple) == 0


def test_relation_swap_pairs_exchange_the_arguments_of_seen_configurations(world):
    for index in range(20):
        first, second = seen_relation_swap_pair(world, 0, index)
        (a,), (b,) = parse_relations(first.caption), parse_relations(second.caption)
        assert (b.subject, b.relation, b.object) == (a.object, a.relation, a.subject)
        assert world.is_seen_relation((a.subject, a.relation, a.object))
        assert world.is_seen_relation((b.subject, b.relation, b.object))
        assert sorted(first.scene.colours) == sorted(second.scene.colours)


def test_relation_samples_are_labelled_as_their_strata_and_true_of_their_images(world, index):
    report = RelationReport(40, 2)
    samples = list(generate_relation_samples(world, index, 40, 2, report=report))
    assert report.mismatches == {} and dict(report.counts) == {s: 40 for s in report.counts}
    negatives = Counter(s.negative for s in samples)
    assert set(negatives) == {"swap", "relation"}
    for sample in samples:
        parsed = [parse_relations(caption) for caption in sample.captions]
        assert parsed == sample.relations  # the parser reads each caption's triple
        assert [parse_bindings(c) for c in sample.captions] == sample.bindings
        label = annotate_sample(
            sample.bindings, index, caption_relations=parsed, binding_kind="relation"
        ).label
        assert label == sample.stratum
        for i, spec in enumerate(sample.specs):  # caption i is true of image i, not of the other
            truths = _truths(spec.scene)
            assert sample.triples[i] in truths and sample.triples[1 - i] not in truths


def test_the_relation_benchmark_builds_by_its_triples(world, index, tmp_path):
    source = write_test_benchmark(world, tmp_path / "bench", 6, seed=5, index=index, progress=False)
    adapter = get_benchmark("synthetic_relation")
    loaded = adapter.load(source)
    assert len(loaded.dataset) == 18 and loaded.identity["world"] == world.fingerprint
    for row in loaded.dataset.select_columns(
        ["caption_0", "caption_1", "triple_0", "triple_1", "objects", "attributes", "negative"]
    ):
        assert adapter.caption_relations(row) == [
            parse_relations(row["caption_0"]),
            parse_relations(row["caption_1"]),
        ]
        assert adapter.caption_bindings(row) == [
            parse_bindings(row["caption_0"]),
            parse_bindings(row["caption_1"]),
        ]
        assert adapter.category(row) == f"{row['negative']}/{row['triple_0'][1]}"
    built = build_benchmark(
        "synthetic_relation",
        out=tmp_path / "build",
        source=source,
        reference=index,
    )
    assert built.manifest["binding_kind"] == "relation"  # always labelled by its triples
    assert built.manifest["configs"] == {
        "full": 18,
        "seen": 6,
        "unseen": 6,
        "partial": 6,
        "balanced": 6,
    }
    rows = datasets.Dataset.from_parquet(
        str(tmp_path / "build" / "full" / "test-00000-of-00001.parquet")
    )
    assert set(rows["bindsplit_category"]) <= {
        f"{n}/{r}" for n in ("swap", "relation") for r in RELATIONS
    }
    assert [Relation(*t) for t in rows["triple_0"][:1]] == parse_relations(rows["caption_0"][0])
