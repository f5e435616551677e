"""The synthetic relation benchmark: 2 x 2 relation-swap samples stratified by triple familiarity.

A sample is a scene stating a triple (``image_0``, ``caption_0``: "a red circle to the left of a
blue square") and a twin scene (``image_1``, ``caption_1``) whose caption is false of ``image_0``:

* ``swap``: the arguments exchanged ("a blue square to the left of a red circle"), the shapes'
  places exchanged in ``image_1``;
* ``relation``: the relation changed to its converse (left <-> right, above <-> below, "on top
  of" -> "below"), ``image_1`` showing that.

Both images have the same two coloured shapes, every (colour, shape) binding seen, so the
sample's familiarity is that of its two triples, which name the two directions of one shape pair
on one axis (:mod:`.relations`). Strata: ``seen`` (both directions seen), ``partial`` (one
held out), ``unseen`` (both held out), each drawn from the pair-axes of that status, uniformly,
then the relation, the order of the shapes and the kind of negative uniformly. Every sample is
labelled by :func:`bindsplit_datasets.labels.annotate_sample` over its triples against the
world's reference index (``binding_kind="relation"``), as any relation build labels it; a
candidate whose label differs from its stratum is dropped and counted (the tests assert none).

Written by :func:`~.testset.write_test_benchmark` into ``OUT/relations/`` beside the attribute
samples; read by the ``synthetic_relation`` benchmark.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import datasets

from ..errors import BindsplitValueError
from .corpus import SceneSpec, relation_scene, scene_bindings, scene_rng, seen_colours
from .relations import AXES, CONVERSE, ON_TOP_OF, RELATIONS, Triple
from .render import render_scene
from .shards import encode_png
from .world import SyntheticWorld

if TYPE_CHECKING:
    from ..labels import BindingCounts, RelationCounts
    from ..parsing import Binding, Relation

__all__ = [
    "NEGATIVES",
    "RELATION_FEATURES",
    "RELATIONS_FOLDER",
    "RelationReport",
    "RelationSample",
    "generate_relation_samples",
    "relation_pools",
    "relation_rows",
]

logger = logging.getLogger(__name__)

#: The kinds of negative caption: arguments exchanged, or the relation changed.
NEGATIVES: tuple[str, ...] = ("swap", "relation")
#: The folder of a written test benchmark that holds the relation samples.
RELATIONS_FOLDER = "relations"
_STRATA: tuple[str, ...] = ("seen", "partial", "unseen")
_MAX_ATTEMPTS_PER_SAMPLE = 20
_RELATIONS_BY_AXIS: dict[str, tuple[str, ...]] = {
    "horizontal": RELATIONS[:2],
    "vertical": RELATIONS[2:],
}

RELATION_FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "image_0": datasets.Image(),
        "caption_0": datasets.Value("string"),
        "image_1": datasets.Image(),
        "caption_1": datasets.Value("string"),
        "objects": datasets.List(datasets.Value("string")),
        "attributes": datasets.List(datasets.Value("string")),
        "triple_0": datasets.List(datasets.Value("string")),
        "triple_1": datasets.List(datasets.Value("string")),
        "negative": datasets.Value("string"),
        "boxes_0": datasets.List(datasets.List(datasets.Value("float32"))),
        "boxes_1": datasets.List(datasets.List(datasets.Value("float32"))),
        "stratum": datasets.Value("string"),
    }
)


@dataclass(frozen=True)
class RelationSample:
    """One 2 x 2 relation sample: ``specs[i]`` is scene i with its caption; ``triples[i]`` the
    triple caption i states; ``label`` the computed label."""

    id: str
    stratum: str
    label: str
    negative: str
    triples: tuple[Triple, Triple]
    specs: tuple[SceneSpec, SceneSpec]

    @property
    def captions(self) -> tuple[str, str]:
        return self.specs[0].caption, self.specs[1].caption

    @property
    def shapes(self) -> tuple[str, str]:
        """The two shapes in caption-0 order (subject, object)."""
        return self.triples[0][0], self.triples[0][2]

    @property
    def bindings(self) -> list[list[Binding]]:
        """Bindings of caption 0 and caption 1 (each names both coloured shapes)."""
        return [scene_bindings(spec.scene) for spec in self.specs]

    @property
    def relations(self) -> list[list[Relation]]:
        """The triple of caption 0 and of caption 1, as the relation parser states them."""
        from ..parsing import Relation

        return [[Relation(*triple)] for triple in self.triples]


@dataclass
class RelationReport:
    """Counts of a generation run: samples per stratum, relation and negative, and mismatches."""

    n_per_stratum: int
    seed: int
    counts: Counter[str] = field(default_factory=Counter)
    mismatches: Counter[str] = field(default_factory=Counter)  # "intent->label" -> count
    #: stratum -> "relation/negative" -> samples, and -> "shape|shape/axis" -> samples
    kinds: dict[str, Counter[str]] = field(default_factory=dict)
    pair_axes: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, sample: RelationSample, axis: str) -> None:
        self.counts[sample.stratum] += 1
        kind = f"{sample.triples[0][1]}/{sample.negative}"
        self.kinds.setdefault(sample.stratum, Counter())[kind] += 1
        pair = "|".join(sorted(sample.shapes)) + f"/{axis}"
        self.pair_axes.setdefault(sample.stratum, Counter())[pair] += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_per_stratum": self.n_per_stratum,
            "seed": self.seed,
            "counts": dict(self.counts),
            "mismatches": dict(self.mismatches),
            "kinds": {k: dict(sorted(v.items())) for k, v in self.kinds.items()},
            "pair_axes": {k: dict(sorted(v.items())) for k, v in self.pair_axes.items()},
        }


@lru_cache(maxsize=8)
def relation_pools(world: SyntheticWorld) -> dict[str, tuple[tuple[str, str, str], ...]]:
    """Stratum -> the ``(shape, shape, axis)`` whose two directions have that status: both seen,
    one held out (partial), both held out (unseen)."""
    pools: dict[str, list[tuple[str, str, str]]] = {stratum: [] for stratum in _STRATA}
    for axis in AXES:
        for i, a in enumerate(world.shapes):
            for b in world.shapes[i + 1 :]:
                held = len({(a, axis, b), (b, axis, a)} & world.held_out_relations)
                pools[_STRATA[held]].append((a, b, axis))
    return {stratum: tuple(pool) for stratum, pool in pools.items()}


def _negative_triple(triple: Triple, negative: str) -> Triple:
    subject, relation, obj = triple
    if negative == "swap":
        return (obj, relation, subject)
    return (subject, CONVERSE[relation], obj)


def generate_relation_samples(
    world: SyntheticWorld,
    index: BindingCounts | RelationCounts,
    n_per_stratum: int,
    seed: int,
    *,
    report: RelationReport | None = None,
) -> Iterator[RelationSample]:
    """``n_per_stratum`` relation samples of each stratum (seen, partial, unseen), as the module
    docstring describes; attempt ``a`` of stratum ``s`` is seeded with ``(seed,
    "relation_test", s * 10**7 + a)``.

    Raises:
        BindsplitValueError: the world has no pair-axis for a stratum (no held-out
            configurations), or the labels keep disagreeing with the strata (an index that is
            not this world's reference).
    """
    from ..labels import annotate_sample

    if n_per_stratum < 1:
        raise BindsplitValueError(f"n_per_stratum must be at least 1; got {n_per_stratum}")
    report = report if report is not None else RelationReport(n_per_stratum, seed)
    pools = relation_pools(world)
    empty = [stratum for stratum in _STRATA if not pools[stratum]]
    if empty:
        raise BindsplitValueError(
            f"the world has no {' or '.join(empty)} relation samples (held-out configurations: "
            f"{len(world.held_out_relations)}); a world of three or more shapes has them"
        )
    for s, stratum in enumerate(_STRATA):
        pool = pools[stratum]
        made = attempts = 0
        while made < n_per_stratum:
            if attempts >= _MAX_ATTEMPTS_PER_SAMPLE * n_per_stratum:
                raise BindsplitValueError(
                    f"only {made} of {n_per_stratum} {stratum} relation samples after {attempts} "
                    f"attempts: labels disagree with the world ({dict(report.mismatches)}); is "
                    "the index this world's reference index (synthetic.reference_index(world))?"
                )
            rng = scene_rng(seed, "relation_test", s * 10**7 + attempts)
            attempts += 1
            a, b, axis = pool[int(rng.integers(len(pool)))]
            relations = _RELATIONS_BY_AXIS[axis]
            relation = relations[int(rng.integers(len(relations)))]
            subject, obj = (a, b) if rng.integers(2) else (b, a)
            negative = NEGATIVES[int(rng.integers(len(NEGATIVES)))]
            first: Triple = (subject, relation, obj)
            second = _negative_triple(first, negative)
            contact = relation == ON_TOP_OF
            colours = seen_colours(world, rng, (subject, obj))
            specs = (
                relation_scene(rng, colours, first, contact=contact),
                relation_scene(rng, colours, second, contact=contact),
            )
            candidate = RelationSample(
                f"{stratum}-{made:05d}", stratum, "", negative, (first, second), specs
            )
            label = annotate_sample(
                candidate.bindings,
                index,
                caption_relations=candidate.relations,
                binding_kind="relation",
            ).label
            if label != stratum:
                report.mismatches[f"{stratum}->{label}"] += 1
                continue
            sample = RelationSample(candidate.id, stratum, label, negative, (first, second), specs)
            report.add(sample, axis)
            yield sample
            made += 1
    if report.mismatches:
        logger.warning(
            "dropped relation candidates whose label differs from their intent: %s",
            dict(report.mismatches),
        )


def _boxes(spec: SceneSpec, shapes: tuple[str, str], image_size: int) -> list[list[float]]:
    by_shape = {o.shape: o for o in spec.scene.objects}
    return [by_shape[shape].box(image_size) for shape in shapes]


def relation_rows(samples: Iterator[RelationSample], image_size: int) -> Iterator[dict[str, Any]]:
    """Encoded rows in the schema of :data:`RELATION_FEATURES`; ``objects``, ``attributes`` and
    both images' ``boxes`` (tight, in pixels) follow caption 0's order (subject, object)."""
    for sample in samples:
        first, second = sample.specs
        shapes = sample.shapes
        colours = {o.shape: o.colour for o in first.scene.objects}
        yield {
            "id": sample.id,
            "image_0": encode_png(render_scene(first.scene, image_size)),
            "caption_0": first.caption,
            "image_1": encode_png(render_scene(second.scene, image_size)),
            "caption_1": second.caption,
            "objects": list(shapes),
            "attributes": [colours[shape] for shape in shapes],
            "triple_0": list(sample.triples[0]),
            "triple_1": list(sample.triples[1]),
            "negative": sample.negative,
            "boxes_0": _boxes(first, shapes, image_size),
            "boxes_1": _boxes(second, shapes, image_size),
            "stratum": sample.stratum,
        }
