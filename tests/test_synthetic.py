"""The synthetic world: held-out set, renderer, training corpus, stratified test benchmark, adapter
and the ``bindsplit synth`` command."""

from __future__ import annotations

import itertools
import json
import math

import datasets
import numpy as np
import pytest
from PIL import Image

from bindsplit_datasets import cli
from bindsplit_datasets.benchmarks import get_benchmark, list_benchmarks
from bindsplit_datasets.labels import annotate_sample
from bindsplit_datasets.parsing import Binding, parse_bindings
from bindsplit_datasets.reference import ReferenceIndex
from bindsplit_datasets.synthetic import (
    STRATA,
    PlacedObject,
    Scene,
    SyntheticWorld,
    default_world,
    generate_test_samples,
    make_world,
    reference_index,
    render_scene,
    seen_swap_pair,
    training_scene,
    training_scenes,
    write_test_benchmark,
)
from bindsplit_datasets.synthetic.corpus import intent_of, quadruples
from bindsplit_datasets.synthetic.render import BACKGROUND, DRAWERS
from bindsplit_datasets.synthetic.testset import GenerationReport
from bindsplit_datasets.synthetic.world import COLOURS, SHAPES, choose_held_out

# a small reference corpus: every one of the 25 seen pairs occurs in it (checked below)
N_REFERENCE = 300


@pytest.fixture(scope="module")
def world() -> SyntheticWorld:
    return default_world()


@pytest.fixture(scope="module")
def index(world: SyntheticWorld) -> ReferenceIndex:
    return reference_index(world, n_captions=N_REFERENCE)


@pytest.fixture(scope="module")
def bench_dir(tmp_path_factory: pytest.TempPathFactory, world, index):
    out = tmp_path_factory.mktemp("synthetic") / "bench"
    return write_test_benchmark(world, out, n_per_stratum=4, seed=7, index=index, progress=False)


def _pixels(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGB"))


def _blocks(cells: set[tuple[str, str]], world: SyntheticWorld) -> list[tuple[str, ...]]:
    return [
        (c1, c2, s1, s2)
        for c1, c2 in itertools.combinations(world.colours, 2)
        for s1, s2 in itertools.combinations(world.shapes, 2)
        if {(c1, s1), (c1, s2), (c2, s1), (c2, s2)} <= cells
    ]


# ------------------------------------------------------------------------------------ world


def test_default_world_held_out_set_meets_its_constraints(world):
    assert (len(world.shapes), len(world.colours), len(world.pairs)) == (6, 6, 36)
    assert len(world.held_out) == 12
    # three disjoint held-out blocks: every colour and every shape takes part in the unseen stratum
    held_blocks = _blocks(set(world.held_out), world)
    assert len(held_blocks) == 3
    assert sorted(c for b in held_blocks for c in b[:2]) == sorted(world.colours)
    assert sorted(s for b in held_blocks for s in b[2:]) == sorted(world.shapes)
    seen = set(world.seen_pairs)
    assert seen | world.held_out == set(world.pairs) and not seen & world.held_out
    assert {c for c, _ in seen} == set(world.colours)
    assert {s for _, s in seen} == set(world.shapes)
    assert _blocks(set(world.held_out), world), "no fully held-out 2 x 2 block"
    assert _blocks(seen, world), "no fully seen 2 x 2 block"


def test_held_out_choice_is_seeded():
    assert make_world(seed=3) == make_world(seed=3)
    draws = {make_world(seed=s).held_out for s in range(4)}
    assert len(draws) > 1


def test_world_round_trips_through_json(world, tmp_path):
    assert SyntheticWorld.from_dict(json.loads(json.dumps(world.to_dict()))) == world
    assert SyntheticWorld.load(world.save(tmp_path / "world.json")) == world
    assert SyntheticWorld.load(tmp_path).fingerprint == world.fingerprint
    other = make_world(
        ["circle", "star", "cross", "square"], ["red", "blue", "pink"], held_out_fraction=0.4
    )
    assert SyntheticWorld.from_dict(other.to_dict()) == other
    assert other.fingerprint != world.fingerprint


def test_world_rejects_bad_input(world):
    with pytest.raises(ValueError, match="unknown shape"):
        make_world(["circle", "blob"], ["red", "blue"])
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        make_world(held_out_fraction=1.0)
    with pytest.raises(ValueError, match="holds out a 2 x 2 block"):
        choose_held_out(["red", "blue"], ["circle", "square"], 0.5, seed=0)
    with pytest.raises(ValueError, match="leaves a fully seen 2 x 2 block"):
        choose_held_out(["red", "blue", "pink"], ["circle", "square", "star"], 0.5, seed=0)
    with pytest.raises(ValueError, match="format"):
        SyntheticWorld.from_dict({**world.to_dict(), "format": "other/1"})
    tampered = {**world.to_dict(), "seen": world.to_dict()["seen"][1:]}
    with pytest.raises(ValueError, match="inconsistent"):
        SyntheticWorld.from_dict(tampered)


def test_every_palette_entry_can_be_drawn_and_parsed():
    assert set(SHAPES) == set(DRAWERS)
    phrase = {c: ("an " if c[0] in "aeiou" else "a ") + c for c in COLOURS}
    for colour, shape in itertools.product(COLOURS, SHAPES):
        caption = (
            f"{phrase[colour]} {shape} and {phrase['red' if colour != 'red' else 'blue']} star"
        )
        assert parse_bindings(caption)[0] == Binding(colour, shape), caption


# ---------------------------------------------------------------------------------- renderer


def test_renderer_is_deterministic(world):
    first = [_pixels(render_scene(s.scene, 64)) for s in training_scenes(world, 5, seed=11)]
    again = [_pixels(render_scene(s.scene, 64)) for s in training_scenes(world, 5, seed=11)]
    other = [_pixels(render_scene(s.scene, 64)) for s in training_scenes(world, 5, seed=12)]
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not any(np.array_equal(a, b) for a, b in zip(first, other, strict=True))
    assert training_scene(world, 11, 3) == training_scene(world, 11, 3)


def test_renderer_draws_the_named_colour_on_the_background():
    scene = Scene(
        (
            PlacedObject("square", "blue", 0.3, 0.3, 0.15),
            PlacedObject("circle", "red", 0.7, 0.7, 0.15),
        )
    )
    pixels = _pixels(render_scene(scene, 64))
    assert pixels.shape == (64, 64, 3)
    assert tuple(pixels[19, 19]) == COLOURS["blue"]  # centre of the square (0.3 * 64)
    assert tuple(pixels[45, 45]) == COLOURS["red"]
    assert tuple(pixels[0, 63]) == tuple(pixels[63, 0]) == BACKGROUND
    assert _pixels(render_scene(scene, 128)).shape == (128, 128, 3)


def test_objects_never_overlap_and_stay_inside(world):
    for spec in training_scenes(world, 300, seed=5):
        a, b = spec.scene.objects
        if spec.template == world.templates[0]:  # anywhere: their bounding circles apart
            assert math.hypot(a.x - b.x, a.y - b.y) >= a.radius + b.radius
        else:  # in a spatial relation (test_synthetic_relations): apart or touching
            boxes = a.box(1), b.box(1)
            apart = [
                min(boxes[0][k + 2], boxes[1][k + 2]) - max(boxes[0][k], boxes[1][k])
                for k in (0, 1)
            ]
            assert min(apart) <= 0.005
        for o in (a, b):
            x0, y0, x1, y1 = o.box(1)
            assert 0.0 <= x0 and x1 <= 1.0 and 0.0 <= y0 and y1 <= 1.0


# ------------------------------------------------------------------------------ training corpus


def test_held_out_pairs_never_appear_in_the_training_corpus(world, index):
    scenes = list(training_scenes(world, 2000, seed=0))
    used = {(o.colour, o.shape) for spec in scenes for o in spec.scene.objects}
    assert used == set(world.seen_pairs)
    assert not used & world.held_out
    # the reference index, built by the parser from the captions alone, sees exactly those pairs
    assert {(b.attribute, b.object) for b, _ in index.items()} == set(world.seen_pairs)
    assert index.n_captions == N_REFERENCE
    for spec in scenes[:50]:
        assert parse_bindings(spec.caption) == [
            Binding(o.colour, o.shape) for o in spec.scene.objects
        ]
        a, b = spec.scene.objects
        assert a.colour != b.colour and a.shape != b.shape
    orders = {
        tuple(sorted((o.shape for o in s.scene.objects), key=world.shapes.index))
        == tuple(s.scene.shapes)
        for s in scenes[:200]
    }
    assert orders == {True, False}, "object order in captions must vary"


def test_seen_swap_pairs_are_attribute_swaps_of_seen_bindings(world):
    for index in range(30):
        first, second = seen_swap_pair(world, 0, index)
        assert second.scene.shapes == first.scene.shapes
        assert second.scene.colours == first.scene.colours[::-1]
        assert [(o.x, o.y, o.radius) for o in first.scene.objects] == [
            (o.x, o.y, o.radius) for o in second.scene.objects
        ]
        bindings = {(o.colour, o.shape) for spec in (first, second) for o in spec.scene.objects}
        assert len(bindings) == 4 and bindings <= set(world.seen_pairs)
        assert first.template == second.template


def test_quadruples_cover_every_swap_once_by_intent(world):
    by_intent = quadruples(world)
    everything = [q for qs in by_intent.values() for q in qs]
    assert len(everything) == len(set(everything)) == (6 * 5) * (6 * 5)
    assert all(intent_of(world, q) == intent for intent, qs in by_intent.items() for q in qs)
    # 3 fully held-out blocks in the default world, each giving 4 ordered quadruples
    assert len(by_intent["unseen"]) == 4 * len(_blocks(set(world.held_out), world))


# ------------------------------------------------------------------------------ test benchmark


def test_labels_of_generated_samples_match_their_strata(world, index):
    report = GenerationReport(25, 3)
    samples = list(generate_test_samples(world, index, 25, seed=3, report=report))
    assert [s.stratum for s in samples] == [s for s in STRATA for _ in range(25)]
    assert report.mismatches == {} and dict(report.counts) == {s: 25 for s in STRATA}
    for sample in samples:
        assert sample.label == sample.stratum
        # the project's labelling of the *parsed* captions agrees with the generator's intent
        parsed = [parse_bindings(caption) for caption in sample.captions]
        assert parsed == sample.bindings
        assert annotate_sample(parsed, index).label == sample.stratum
    assert len({s.id for s in samples}) == len(samples)


def test_generation_is_deterministic_and_refuses_a_foreign_index(world, index):
    first = [s.captions for s in generate_test_samples(world, index, 5, seed=9)]
    again = [s.captions for s in generate_test_samples(world, index, 5, seed=9)]
    assert first == again
    everything_seen = ReferenceIndex.from_captions(
        [f"a {c} {s}" for c, s in world.pairs if c[0] not in "aeiou"]
        + [f"an {c} {s}" for c, s in world.pairs if c[0] in "aeiou"],
        progress=False,
    )
    with pytest.raises(ValueError, match="labels disagree"):
        list(generate_test_samples(world, everything_seen, 3, seed=0))


def test_written_benchmark_loads_through_the_adapter(world, index, bench_dir):
    assert "synthetic" in list_benchmarks()
    adapter = get_benchmark("synthetic")
    assert adapter.hub_id is None and adapter.license == "Apache-2.0" and "Peng" in adapter.citation
    loaded = adapter.load(bench_dir)
    data = loaded.dataset
    assert len(data) == loaded.report.n_rows == 12
    assert data["stratum"] == [s for s in STRATA for _ in range(4)]
    assert loaded.identity["world"] == world.fingerprint and loaded.identity["sha256"]
    samples = list(generate_test_samples(world, index, 4, seed=7))
    for row, sample in zip(data, samples, strict=True):
        assert (row["caption_0"], row["caption_1"]) == sample.captions
        bindings = adapter.caption_bindings(row)
        assert bindings == [parse_bindings(row["caption_0"]), parse_bindings(row["caption_1"])]
        assert annotate_sample(bindings, index).label == row["stratum"]
        for i, spec in enumerate(sample.specs):  # PNG storage is lossless
            assert np.array_equal(_pixels(row[f"image_{i}"]), _pixels(render_scene(spec.scene, 64)))
    assert (
        adapter.load(bench_dir / "test" / "test-00000-of-00001.parquet").identity["sha256"]
        == (loaded.identity["sha256"])
    )
    saved = ReferenceIndex.load(adapter.default_reference(bench_dir))
    assert saved.fingerprint == index.fingerprint
    cache = str(bench_dir.parent / "cache")
    assert datasets.load_dataset(str(bench_dir), split="test", cache_dir=cache).num_rows == 12


def test_adapter_rejects_foreign_folders_and_options(bench_dir, tmp_path):
    adapter = get_benchmark("synthetic")
    with pytest.raises(FileNotFoundError, match="no test/ folder"):
        adapter.load(tmp_path)
    with pytest.raises(ValueError, match="only choose the generated default"):
        adapter.load(bench_dir, n_per_stratum=3)
    with pytest.raises(ValueError, match="does not accept"):
        adapter.load(None, flavour="x")
    lone = tmp_path / "lone" / "samples.parquet"
    lone.parent.mkdir()
    lone.write_bytes((bench_dir / "test" / "test-00000-of-00001.parquet").read_bytes())
    assert len(adapter.load(lone).dataset) == 12
    with pytest.raises(FileNotFoundError, match="--reference"):
        adapter.default_reference(lone)


def test_adapter_generates_the_default_benchmark_once(monkeypatch, tmp_path):
    monkeypatch.setenv("BINDSPLIT_CACHE", str(tmp_path))
    adapter = get_benchmark("synthetic")
    first = adapter.load(n_per_stratum=2, seed=5)
    again = adapter.load(n_per_stratum=2, seed=5)
    assert len(first.dataset) == 6 and first.identity["sha256"] == again.identity["sha256"]
    (folder,) = [p for p in (tmp_path / "synthetic").iterdir() if p.is_dir()]
    assert folder.name.endswith("-n2-seed5")
    # the default reference is the world's own index, cached once and shared by every default
    reference = adapter.default_reference(None)
    assert reference.parent == folder.parent
    assert (
        ReferenceIndex.load(reference).fingerprint == reference_index(default_world()).fingerprint
    )
    assert ReferenceIndex.load(folder / "reference.parquet").fingerprint == (
        ReferenceIndex.load(reference).fingerprint
    )


# --------------------------------------------------------------------------- bindsplit synth


def test_synth_command_writes_a_loadable_sharded_training_set(tmp_path, capsys):
    out = tmp_path / "world"
    args = ["synth", "--out", str(out), "--n-train", "25", "--shard-size", "10", "--seed", "4"]
    assert cli.main(args) == 0
    assert "wrote 25 training scenes" in capsys.readouterr().out
    shards = sorted(p.name for p in (out / "train").iterdir())
    assert shards == [f"train-0000{k}-of-00003.parquet" for k in range(3)]
    world = SyntheticWorld.load(out / "world.json")
    assert world == default_world()
    # the folder's README declares the split (a private cache: datasets caches a folder by name)
    train = datasets.load_dataset(str(out), split="train", cache_dir=str(tmp_path / "cache"))
    assert train["id"] == list(range(25))
    for row in train.select(range(3)):
        spec = training_scene(world, 4, row["id"])
        assert row["caption"] == spec.caption
        assert row["objects"] == spec.scene.shapes and row["attributes"] == spec.scene.colours
        assert np.array_equal(_pixels(row["image"]), _pixels(render_scene(spec.scene, 64)))
    reference = ReferenceIndex.load(out / "reference.parquet")
    assert reference.n_captions == 25
    assert {(b.attribute, b.object) for b, _ in reference.items()} <= set(world.seen_pairs)
    streamed = datasets.load_dataset(str(out), split="train", streaming=True)
    assert next(iter(streamed))["caption"] == train[0]["caption"]
    # an existing folder is kept unless --overwrite
    assert cli.main(args) == 2
    assert "--overwrite" in capsys.readouterr().err


def test_synth_command_parallel_shards_equal_serial_ones(tmp_path):
    common = ["--n-train", "12", "--shard-size", "5", "--image-size", "32", "--held-out", "0.25"]
    assert cli.main(["synth", "--out", str(tmp_path / "serial"), *common]) == 0
    assert cli.main(["synth", "--out", str(tmp_path / "parallel"), *common, "--num-proc", "2"]) == 0
    for k in range(3):
        name = f"train/train-0000{k}-of-00003.parquet"
        serial = datasets.Dataset.from_parquet(str(tmp_path / "serial" / name))
        parallel = datasets.Dataset.from_parquet(str(tmp_path / "parallel" / name))
        assert serial.to_dict() == parallel.to_dict()
    world = SyntheticWorld.load(tmp_path / "serial")
    assert world.image_size == 32 and len(world.held_out) == 9


def test_strata_share_shape_pairs_and_seen_shares_unseen_colour_pairs(world, index):
    report = GenerationReport(300, 2)
    samples = list(generate_test_samples(world, index, 300, seed=2, report=report))
    blocks = [((c1, c2), (s1, s2)) for c1, c2, s1, s2 in _blocks(set(world.held_out), world)]
    block_shapes = {"|".join(sorted(shapes)) for _, shapes in blocks}
    block_colours = {"|".join(sorted(colours)) for colours, _ in blocks}
    # every stratum draws from exactly the held-out blocks' shape pairs, about uniformly
    for stratum in STRATA:
        counts = report.shape_pairs[stratum]
        assert set(counts) == block_shapes
        assert sum(counts.values()) == 300 and min(counts.values()) >= 70
    # seen and unseen samples pair the same colours; partial ones mix a block colour with another
    assert set(report.colour_pairs["seen"]) == set(report.colour_pairs["unseen"]) == block_colours
    for sample in samples:
        if sample.stratum == "partial":
            colours = set(sample.specs[0].scene.colours)
            shapes = set(sample.specs[0].scene.shapes)
            (block,) = [c for c, s in blocks if set(s) == shapes]
            assert len(colours & set(block)) == 1
    assert report.to_dict()["shape_pairs"]["seen"] == dict(report.shape_pairs["seen"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["synth", "--image-size", "100000"],
            "--image-size 100,000 is more than the 1,024 accepted",
        ),
        (["synth", "--image-size", "4"], "--image-size 4 is below 8 pixels"),
        (["synth", "--n-train", "10000001"], "--n-train 10,000,001 is more than the 10,000,000"),
        (["synth", "--num-proc", "100000"], "--num-proc 100,000 is more than the"),
        (["train-synthetic", "--lr", "nan"], "--lr must be a finite number above zero, got nan"),
        (["train-synthetic", "--lr", "0"], "--lr must be a finite number above zero, got 0.0"),
        (["train-synthetic", "--max-minutes", "inf"], "--max-minutes must be a finite number"),
        (["train-synthetic", "--batch-size", "65537"], "--batch-size 65,537 is more than"),
        (["train-synthetic", "--steps", "10000001"], "--steps 10,000,001 is more than"),
        (["train-synthetic", "--eval-n", "100001"], "--eval-n 100,001 is more than"),
        (["train-synthetic", "--threads", "100000"], "--threads 100,000 is more than"),
    ],
)
def test_sizes_and_counts_beyond_the_machine_are_refused_up_front(tmp_path, capsys, argv, message):
    out = tmp_path / "out"
    assert cli.main([*argv, "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and message in error, error
    assert list(tmp_path.iterdir()) == []  # nothing written, not even a temporary


def test_rendering_memory_is_bounded_by_the_memory_available():
    from bindsplit_datasets.synthetic.limits import check_rendering_memory

    check_rendering_memory(64, 2, memory=2**30)  # 64 px: ~12 MB per process
    with pytest.raises(ValueError, match=r"needs about 3\.5 GiB of memory, more than half of"):
        check_rendering_memory(1024, 2, memory=4 * 2**30)


def test_test_set_size_is_bounded(world, index, tmp_path):
    with pytest.raises(ValueError, match="n_per_stratum 100,001 is more than the 100,000"):
        write_test_benchmark(world, tmp_path / "t", n_per_stratum=100_001, index=index)
    assert list(tmp_path.iterdir()) == []
