"""Scenes and captions of the synthetic world: the training corpus and swap pairs.

Every scene is a pure function of ``(world, seed, stream, index)``: its random generator is seeded
with exactly those numbers, so any row of any corpus can be regenerated alone (shards render in
parallel and a training run can resume anywhere) and two streams never share randomness.

The **training corpus** holds two-object scenes that use seen bindings only (distinct shapes and
distinct colours, so each caption states two different bindings); its captions are the world's
reference corpus (:func:`reference_index`). Half of them name the two objects anywhere in the
image ("a red circle and a blue square"); the other half place them in a seen spatial
configuration and state its relation ("a red circle to the left of a blue square",
:mod:`.relations`), so a held-out configuration's triples never occur. **Swap pairs** are a scene
and its attribute-swapped twin (same layout, colours exchanged between the two shapes) whose four
bindings are all seen, and **relation swap pairs** a scene and its twin with the two shapes'
places exchanged, both configurations seen: the batches of NegCLIP-style training, where each
caption's twin is an in-batch hard negative.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ..errors import BindsplitValueError
from .relations import AXES, Configuration, Triple, caption_wordings, configuration_of
from .render import PlacedObject, Scene, place_configuration, sample_layout
from .world import Pair, SyntheticWorld

if TYPE_CHECKING:
    from ..parsing import Binding
    from ..reference import ReferenceIndex

__all__ = [
    "CONTACT_SHARE",
    "DEFAULT_REFERENCE_SIZE",
    "DEFAULT_TRAIN_SEED",
    "RELATION_SHARE",
    "STREAMS",
    "Quadruple",
    "SceneSpec",
    "StratumPools",
    "balanced_pools",
    "caption_of",
    "intent_of",
    "object_phrase",
    "quadruples",
    "reference_index",
    "relation_caption",
    "relation_scene",
    "scene_bindings",
    "scene_rng",
    "fully_seen_pair_axes",
    "seen_colours",
    "seen_relation_swap_pair",
    "seen_swap_pair",
    "swap_pair",
    "training_captions",
    "training_scene",
    "training_scenes",
]

DEFAULT_TRAIN_SEED = 0
#: Number of training captions the default reference index is built from. Every seen pair occurs
#: hundreds of times in that many captions and every triple of a seen configuration dozens of
#: times, so the seen/unseen labels equal those of any larger corpus of the same world (only the
#: counts grow).
DEFAULT_REFERENCE_SIZE = 6_000
#: Share of the training scenes placed in a spatial configuration whose caption states it.
RELATION_SHARE = 0.5
#: Share of the vertical configurations of training scenes whose shapes touch ("on top of").
CONTACT_SHARE = 0.5

#: Independent random streams: a scene is seeded with (seed, STREAMS[kind], index).
STREAMS: dict[str, int] = {
    "train": 0,
    "swap": 1,
    "test": 2,
    "relation_swap": 3,
    "relation_test": 4,
}

#: (colour_a, colour_b, shape_a, shape_b): scene (colour_a shape_a, colour_b shape_b) and its
#: attribute swap (colour_b shape_a, colour_a shape_b).
Quadruple = tuple[str, str, str, str]


@dataclass(frozen=True)
class SceneSpec:
    """A scene with the caption template that describes it (objects named in scene order)."""

    scene: Scene
    template: str

    @property
    def caption(self) -> str:
        return caption_of(self.scene, self.template)


def scene_rng(seed: int, stream: str, index: int) -> np.random.Generator:
    """The generator of scene ``index`` of ``stream`` (see :data:`STREAMS`)."""
    return np.random.default_rng([seed, STREAMS[stream], index])


def object_phrase(colour: str, shape: str) -> str:
    """``"a red circle"``, ``"an orange star"``."""
    article = "an" if colour[0] in "aeiou" else "a"
    return f"{article} {colour} {shape}"


def caption_of(scene: Scene, template: str) -> str:
    """The caption naming the scene's objects in order: ``"a red circle and a blue square"``."""
    return template.format(*(object_phrase(o.colour, o.shape) for o in scene.objects))


def scene_bindings(scene: Scene) -> list[Binding]:
    """The (colour, shape) bindings a caption of ``scene`` states, in caption order."""
    from ..parsing import normalise_binding

    return [normalise_binding(o.colour, o.shape) for o in scene.objects]


def _place(rng: np.random.Generator, pairs: list[Pair]) -> Scene:
    layout = sample_layout(rng, len(pairs))
    return Scene(
        tuple(PlacedObject(s, c, x, y, r) for (c, s), (x, y, r) in zip(pairs, layout, strict=True))
    )


@lru_cache(maxsize=8)
def _compatible_seen(world: SyntheticWorld) -> dict[Pair, tuple[Pair, ...]]:
    """Seen pair -> the seen pairs with another colour and another shape."""
    seen = world.seen_pairs
    return {p: tuple(q for q in seen if q[0] != p[0] and q[1] != p[1]) for p in seen}


def relation_caption(relation: str) -> str:
    """The caption template of a relation: ``"{0} to the left of {1}"``."""
    return f"{{0}} {relation} {{1}}"


def relation_scene(
    rng: np.random.Generator,
    colours: dict[str, str],
    triple: Triple,
    *,
    contact: bool = False,
) -> SceneSpec:
    """A scene in which ``triple`` (subject shape, relation, object shape) holds, the shapes
    coloured by ``colours`` (shape -> colour), captioned by the triple (subject first)."""
    first, axis, second = configuration_of(triple)
    layout = dict(
        zip(
            (first, second),
            place_configuration(rng, (first, second), axis, contact=contact),
            strict=True,
        )
    )
    subject, relation, obj = triple
    objects = tuple(PlacedObject(shape, colours[shape], *layout[shape]) for shape in (subject, obj))
    return SceneSpec(Scene(objects), relation_caption(relation))


@lru_cache(maxsize=8)
def _seen_configurations_of(
    world: SyntheticWorld,
) -> dict[frozenset[str], tuple[Configuration, ...]]:
    """Unordered shape pair -> its seen configurations (either order, either axis)."""
    found: dict[frozenset[str], list[Configuration]] = {}
    for configuration in world.seen_configurations:
        found.setdefault(frozenset((configuration[0], configuration[2])), []).append(configuration)
    return {pair: tuple(found[pair]) for pair in found}


def training_scene(world: SyntheticWorld, seed: int, index: int) -> SceneSpec:
    """Scene ``index`` of the training corpus: two seen bindings, distinct shapes and colours.

    The first object is uniform over the seen pairs, the second uniform over the seen pairs that
    differ from it in colour and shape. With probability :data:`RELATION_SHARE` the two shapes
    are placed in a configuration drawn uniformly from their seen ones (touching, for a vertical
    one, with probability :data:`CONTACT_SHARE`) and the caption states one of its triples
    (:func:`~.relations.caption_wordings`, uniformly), subject first; otherwise they lie anywhere
    and the caption names them in drawn order.
    """
    rng = scene_rng(seed, "train", index)
    seen = world.seen_pairs
    first = seen[int(rng.integers(len(seen)))]
    partners = _compatible_seen(world)[first]
    if not partners:
        raise ValueError(f"seen pair {first} has no seen partner with another colour and shape")
    second = partners[int(rng.integers(len(partners)))]
    configurations = _seen_configurations_of(world).get(frozenset((first[1], second[1])), ())
    if configurations and rng.random() < RELATION_SHARE:
        configuration = configurations[int(rng.integers(len(configurations)))]
        contact = configuration[1] == "vertical" and bool(rng.random() < CONTACT_SHARE)
        stated = caption_wordings(configuration, contact=contact)
        triple = stated[int(rng.integers(len(stated)))]
        colours = {shape: colour for colour, shape in (first, second)}
        return relation_scene(rng, colours, triple, contact=contact)
    template = world.templates[int(rng.integers(len(world.templates)))]
    return SceneSpec(_place(rng, [first, second]), template)


def training_scenes(
    world: SyntheticWorld, n: int, seed: int = DEFAULT_TRAIN_SEED, start: int = 0
) -> Iterator[SceneSpec]:
    """Scenes ``start .. start + n - 1`` of the training corpus."""
    for index in range(start, start + n):
        yield training_scene(world, seed, index)


def training_captions(
    world: SyntheticWorld, n: int, seed: int = DEFAULT_TRAIN_SEED
) -> Iterator[str]:
    """The captions of the first ``n`` training scenes (nothing is rendered)."""
    for spec in training_scenes(world, n, seed):
        yield spec.caption


def intent_of(world: SyntheticWorld, quadruple: Quadruple) -> str:
    """The stratum a swap sample is meant for, from the world's held-out set alone.

    ``seen`` when all four bindings of the scene and its swap are seen, ``unseen`` when none is,
    ``partial`` otherwise.
    """
    ca, cb, sa, sb = quadruple
    flags = [world.is_seen(c, s) for c, s in ((ca, sa), (cb, sb), (cb, sa), (ca, sb))]
    if all(flags):
        return "seen"
    if not any(flags):
        return "unseen"
    return "partial"


@lru_cache(maxsize=8)
def quadruples(world: SyntheticWorld) -> dict[str, tuple[Quadruple, ...]]:
    """Every swap quadruple (two distinct colours, two distinct shapes, ordered) by intent."""
    by_intent: dict[str, list[Quadruple]] = {"seen": [], "partial": [], "unseen": []}
    for ca, cb in itertools.permutations(world.colours, 2):
        for sa, sb in itertools.permutations(world.shapes, 2):
            quadruple = (ca, cb, sa, sb)
            by_intent[intent_of(world, quadruple)].append(quadruple)
    return {k: tuple(v) for k, v in by_intent.items()}


#: Stratum -> unordered shape pair -> the stratum's quadruples with that shape pair.
StratumPools = dict[str, dict[tuple[str, str], tuple[Quadruple, ...]]]


def _unordered(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def balanced_pools(world: SyntheticWorld) -> StratumPools:
    """Candidate quadruples per stratum, restricted so that familiarity is the only difference.

    The fully unseen stratum can only use colour pairs and shape pairs that lie inside one
    held-out block, while the seen and partial strata could use any. Left unrestricted, the strata
    would differ in *which* shapes and colours they pair (harder shape pairs in one stratum than
    in another), and accuracy per stratum would measure that as well as familiarity. So:

    * every stratum uses exactly the unseen stratum's shape pairs, and a sampler draws the shape
      pair uniformly first (:func:`generate_test_samples`), so all strata share one shape-pair
      distribution;
    * within a shape pair, a stratum uses the unseen stratum's colour pairs when it has
      candidates with them (the seen stratum does: two blocks' colours with a third block's
      shapes) and any colour pair otherwise. The partial stratum never can: if both colours and
      both shapes of a quadruple lie in held-out blocks, its four bindings are all held out (one
      block) or none is (two blocks), so a partial sample must mix a held-out colour pair with
      other colours. Its colours stay balanced one by one: each block's colours take part as
      often as the shape pairs of that block are drawn.

    Raises:
        ValueError: the world has no fully unseen quadruple, or a stratum has no candidate for
            one of the unseen shape pairs (a world too small to balance).
    """
    by_intent = quadruples(world)
    if not by_intent["unseen"]:
        raise BindsplitValueError("the world has no unseen swap samples; change its held-out set")
    shape_pairs = sorted({_unordered(q[2], q[3]) for q in by_intent["unseen"]})
    colour_pairs = {_unordered(q[0], q[1]) for q in by_intent["unseen"]}
    pools: StratumPools = {}
    for stratum, candidates in by_intent.items():
        pools[stratum] = {}
        for shape_pair in shape_pairs:
            same_shapes = [q for q in candidates if _unordered(q[2], q[3]) == shape_pair]
            preferred = [q for q in same_shapes if _unordered(q[0], q[1]) in colour_pairs]
            chosen = tuple(preferred or same_shapes)
            if not chosen:
                raise BindsplitValueError(
                    f"the world has no {stratum} swap sample with the shapes {shape_pair} of the "
                    "unseen stratum; use more colours or shapes so that the strata can be balanced"
                )
            pools[stratum][shape_pair] = chosen
    return pools


def swap_pair(
    world: SyntheticWorld, rng: np.random.Generator, quadruple: Quadruple
) -> tuple[SceneSpec, SceneSpec]:
    """A scene of ``quadruple`` and its attribute swap (same layout, colours swapped)."""
    ca, cb, sa, sb = quadruple
    template = world.templates[int(rng.integers(len(world.templates)))]
    scene = _place(rng, [(ca, sa), (cb, sb)])
    return SceneSpec(scene, template), SceneSpec(scene.with_colours([cb, ca]), template)


def seen_swap_pair(world: SyntheticWorld, seed: int, index: int) -> tuple[SceneSpec, SceneSpec]:
    """Swap pair ``index`` of the NegCLIP training stream: all four bindings seen."""
    rng = scene_rng(seed, "swap", index)
    candidates = quadruples(world)["seen"]
    if not candidates:
        raise BindsplitValueError(
            "the world has no fully seen 2 x 2 block, so no seen swap pairs exist"
        )
    return swap_pair(world, rng, candidates[int(rng.integers(len(candidates)))])


@lru_cache(maxsize=8)
def _seen_colours(world: SyntheticWorld) -> dict[str, tuple[str, ...]]:
    """Shape -> the colours it has in seen pairs."""
    return {
        shape: tuple(c for c in world.colours if world.is_seen(c, shape)) for shape in world.shapes
    }


def seen_colours(
    world: SyntheticWorld, rng: np.random.Generator, shapes: tuple[str, str]
) -> dict[str, str]:
    """Two distinct colours, each seen with its shape, drawn uniformly (shape -> colour)."""
    options = _seen_colours(world)
    first = options[shapes[0]][int(rng.integers(len(options[shapes[0]])))]
    others = [c for c in options[shapes[1]] if c != first]
    if not others:
        raise BindsplitValueError(
            f"no seen colour of {shapes[1]} differs from {first}; use more colours"
        )
    return {shapes[0]: first, shapes[1]: others[int(rng.integers(len(others)))]}


@lru_cache(maxsize=8)
def fully_seen_pair_axes(world: SyntheticWorld) -> tuple[tuple[str, str, str], ...]:
    """``(shape, shape, axis)`` whose configurations are seen in both directions."""
    return tuple(
        (a, b, axis)
        for axis in AXES
        for i, a in enumerate(world.shapes)
        for b in world.shapes[i + 1 :]
        if not {(a, axis, b), (b, axis, a)} & world.held_out_relations
    )


def seen_relation_swap_pair(
    world: SyntheticWorld, seed: int, index: int
) -> tuple[SceneSpec, SceneSpec]:
    """Relation swap pair ``index`` of the NegCLIP training stream: a scene stating a triple and
    its twin stating the triple with subject and object exchanged (same colours, the shapes'
    places exchanged), both configurations seen."""
    rng = scene_rng(seed, "relation_swap", index)
    candidates = fully_seen_pair_axes(world)
    if not candidates:
        raise BindsplitValueError("the world has no configuration seen in both directions")
    a, b, axis = candidates[int(rng.integers(len(candidates)))]
    subject, obj = (a, b) if rng.integers(2) else (b, a)
    contact = axis == "vertical" and bool(rng.random() < CONTACT_SHARE)
    stated = caption_wordings((subject, axis, obj), contact=contact)
    relation = stated[int(rng.integers(len(stated)))][1]
    colours = seen_colours(world, rng, (subject, obj))
    return (
        relation_scene(rng, colours, (subject, relation, obj), contact=contact),
        relation_scene(rng, colours, (obj, relation, subject), contact=contact),
    )


def reference_index(
    world: SyntheticWorld,
    n_captions: int = DEFAULT_REFERENCE_SIZE,
    seed: int = DEFAULT_TRAIN_SEED,
    *,
    num_proc: int | None = None,
    progress: bool = False,
) -> ReferenceIndex:
    """The reference index of the world: the bindings of its first ``n_captions`` training captions.

    Built with the project's own parser (:meth:`ReferenceIndex.from_captions`), exactly as a
    reference index of any real caption corpus (``num_proc`` parser processes); its fingerprint
    names the world and the corpus.
    """
    from ..reference import ReferenceIndex

    corpus = {
        "kind": "synthetic",
        "id": "bindsplit-synthetic",
        "world": world.fingerprint,
        "seed": seed,
        "n_captions": n_captions,
    }
    return ReferenceIndex.from_captions(
        training_captions(world, n_captions, seed),
        corpus=corpus,
        total=n_captions,
        num_proc=num_proc,
        progress=progress,
    )
