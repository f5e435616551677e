"""BindSplit's synthetic world (docs/protocol.md, section 7): seen and unseen known exactly.

Objects (shapes) x attributes (colours) are rendered with PIL as 64 x 64 two-object scenes; a
seeded third of the (colour, shape) pairs (three disjoint 2 x 2 blocks) is held out of training,
and so are 18 of the 60 spatial configurations of two shapes (:mod:`.relations`: left of, right
of, above, below, on top of when touching). The training corpus holds only seen bindings and
seen configurations and is the world's reference index; the test benchmark (registered as the
benchmark ``synthetic``) holds attribute-swap samples stratified ``seen`` / ``partial`` /
``unseen`` by the project's own labels, and its relation samples (the benchmark
``synthetic_relation``) relation-swap samples stratified by their triples. Two tiny CLIPs trained
on the corpus ship inside the package.

World (:mod:`.world`)
    ``SyntheticWorld(shapes, colours, held_out, seed, held_out_fraction, image_size, templates)``
    with ``.pairs``, ``.seen_pairs``, ``.held_out_pairs``, ``.is_seen(colour, shape)``,
    ``.vocabulary``, ``.fingerprint``, ``.to_dict()`` / ``from_dict(d)``, ``.save(path)`` /
    ``load(path)``; ``make_world(shapes, colours, *, held_out_fraction, seed, image_size,
    templates)``; ``default_world()`` (6 shapes x 6 colours, 12 of 36 pairs held out, seed 0).
Scenes (:mod:`.render`, :mod:`.corpus`)
    ``render_scene(scene, image_size) -> PIL.Image``; ``training_scene(world, seed, index) ->
    SceneSpec`` (``.scene``, ``.template``, ``.caption``); ``training_scenes(world, n, seed,
    start)``; ``training_captions(world, n, seed)``; ``seen_swap_pair(world, seed, index)``;
    ``reference_index(world, n_captions=2_000, seed=0, *, num_proc) -> ReferenceIndex`` (the
    training captions indexed by the project's parser).
Training set (:mod:`.trainset`)
    ``write_training_set(world, out, n_train, seed, *, shard_size, num_proc, overwrite)``: the
    ``bindsplit synth`` output (``world.json``, ``reference.parquet``, ``README.md``,
    ``train/train-0000K-of-0000N.parquet``), readable with ``datasets.load_dataset``.
Relations (:mod:`.relations`, :mod:`.relation_testset`)
    ``RELATIONS``; ``configuration_of(triple)``, ``wordings(configuration, contact=)``;
    ``relation_holds(subject_box, relation, object_box, image_size)`` (the geometric truth);
    ``seen_relation_swap_pair(world, seed, index)``; ``generate_relation_samples(world, index,
    n_per_stratum, seed) -> Iterator[RelationSample]``.
Test benchmark (:mod:`.testset`)
    ``generate_test_samples(world, index, n_per_stratum=500, seed=1) -> Iterator[SwapSample]``;
    ``write_test_benchmark(world, out, n_per_stratum=500, seed=1, *, index, overwrite)`` (the
    folder the ``synthetic`` adapter loads, ``reference.parquet`` included, which the adapter's
    ``default_reference`` names to the builder); ``STRATA = ("seen", "partial", "unseen")``.
Models (:mod:`.models`, :mod:`.train`)
    ``CHECKPOINTS = {"clip": Path, "negclip": Path}``; ``checkpoint_path(name)``: a Hugging Face
    folder that ``AutoModel`` / ``AutoProcessor.from_pretrained`` load, with
    ``training_report.json``/``.md`` beside it. ``python -m bindsplit_datasets.synthetic.train``
    (``bindsplit train-synthetic``) retrains them.

Heavy modules (torch, transformers, the parser) are imported only when the names that need them are
used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

# public name -> module that defines it (imported on first access)
_EXPORTS: dict[str, str] = {
    "SyntheticWorld": "world",
    "RELATIONS": "relations",
    "configuration_of": "relations",
    "relation_holds": "relations",
    "wordings": "relations",
    "seen_relation_swap_pair": "corpus",
    "RelationSample": "relation_testset",
    "generate_relation_samples": "relation_testset",
    "default_world": "world",
    "make_world": "world",
    "render_scene": "render",
    "Scene": "render",
    "PlacedObject": "render",
    "SceneSpec": "corpus",
    "training_scene": "corpus",
    "training_scenes": "corpus",
    "training_captions": "corpus",
    "seen_swap_pair": "corpus",
    "reference_index": "corpus",
    "write_training_set": "trainset",
    "STRATA": "testset",
    "DEFAULT_N_PER_STRATUM": "testset",
    "DEFAULT_TEST_SEED": "testset",
    "SwapSample": "testset",
    "generate_test_samples": "testset",
    "write_test_benchmark": "testset",
    "CHECKPOINTS": "models",
    "checkpoint_path": "models",
}

__all__ = [
    "CHECKPOINTS",
    "DEFAULT_N_PER_STRATUM",
    "DEFAULT_TEST_SEED",
    "RELATIONS",
    "STRATA",
    "PlacedObject",
    "RelationSample",
    "Scene",
    "SceneSpec",
    "SwapSample",
    "SyntheticWorld",
    "checkpoint_path",
    "configuration_of",
    "default_world",
    "generate_relation_samples",
    "generate_test_samples",
    "make_world",
    "reference_index",
    "relation_holds",
    "render_scene",
    "seen_relation_swap_pair",
    "seen_swap_pair",
    "training_captions",
    "training_scene",
    "training_scenes",
    "wordings",
    "write_test_benchmark",
    "write_training_set",
]

if TYPE_CHECKING:  # pragma: no cover
    from .corpus import (
        SceneSpec,
        reference_index,
        seen_relation_swap_pair,
        seen_swap_pair,
        training_captions,
        training_scene,
        training_scenes,
    )
    from .models import CHECKPOINTS, checkpoint_path
    from .relation_testset import RelationSample, generate_relation_samples
    from .relations import RELATIONS, configuration_of, relation_holds, wordings
    from .render import PlacedObject, Scene, render_scene
    from .testset import (
        DEFAULT_N_PER_STRATUM,
        DEFAULT_TEST_SEED,
        STRATA,
        SwapSample,
        generate_test_samples,
        write_test_benchmark,
    )
    from .trainset import write_training_set
    from .world import SyntheticWorld, default_world, make_world


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
