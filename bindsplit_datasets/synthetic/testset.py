"""The synthetic test benchmark: 2 x 2 attribute-swap samples stratified by the project's labels.

A sample is a scene (``image_0``, ``caption_0``) and its attribute-swapped twin (``image_1``,
``caption_1``): same layout and shapes, the two colours exchanged, so each caption is the other
image's hard negative (the structure of ARO's attribute swaps and of BiVLC/VisMin's 2 x 2 samples).

Stratification: candidates are proposed by *intent* (:func:`~.corpus.intent_of`, from the world's
held-out set) from pools balanced so that the strata differ in familiarity only (the same shape
pairs, drawn uniformly, in every stratum: :func:`~.corpus.balanced_pools`), then labelled by
:func:`bindsplit_datasets.labels.annotate_sample` against the reference index built from the
training corpus by the project's parser (the labelling every real benchmark gets). A candidate
fills the stratum of its computed *label*; one whose label differs from its intent is dropped and
counted in the report, and the tests assert there are none.

Layout of a written benchmark (:func:`write_test_benchmark`)::

    OUT/README.md                              card with a ``configs:`` block (load_dataset(OUT))
    OUT/world.json                             the world (SyntheticWorld.to_dict)
    OUT/reference.parquet                      the reference index of the training corpus
    OUT/generation.json                        seed, sizes, stratum counts, label mismatches
    OUT/test/test-00000-of-00001.parquet       the attribute samples
    OUT/relations/test-00000-of-00001.parquet  the relation samples (:mod:`.relation_testset`)
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import datasets

from ..atomic import atomic_directory
from ..errors import BindsplitValueError
from ..progress import progress as progress_bar
from .corpus import (
    SceneSpec,
    balanced_pools,
    reference_index,
    scene_bindings,
    scene_rng,
    swap_pair,
)
from .limits import MAX_N_PER_STRATUM, check_at_most
from .relation_testset import (
    RELATION_FEATURES,
    RELATIONS_FOLDER,
    RelationReport,
    generate_relation_samples,
    relation_rows,
)
from .render import render_scene
from .shards import encode_png, shard_name, write_shard
from .world import SyntheticWorld

if TYPE_CHECKING:
    from ..labels import BindingCounts
    from ..parsing import Binding

__all__ = [
    "DEFAULT_N_PER_STRATUM",
    "DEFAULT_TEST_SEED",
    "STRATA",
    "TEST_FEATURES",
    "GenerationReport",
    "SwapSample",
    "generate_test_samples",
    "sample_rows",
    "write_test_benchmark",
]

logger = logging.getLogger(__name__)

STRATA: tuple[str, ...] = ("seen", "partial", "unseen")
DEFAULT_N_PER_STRATUM = 500
DEFAULT_TEST_SEED = 1
_MAX_ATTEMPTS_PER_SAMPLE = 20

TEST_FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "image_0": datasets.Image(),
        "caption_0": datasets.Value("string"),
        "image_1": datasets.Image(),
        "caption_1": datasets.Value("string"),
        "objects": datasets.List(datasets.Value("string")),
        "attributes_0": datasets.List(datasets.Value("string")),
        "attributes_1": datasets.List(datasets.Value("string")),
        "boxes": datasets.List(datasets.List(datasets.Value("float32"))),
        "stratum": datasets.Value("string"),
    }
)


@dataclass(frozen=True)
class SwapSample:
    """One 2 x 2 sample: ``specs[i]`` is scene i with its caption; ``label`` the computed label."""

    id: str
    stratum: str
    label: str
    specs: tuple[SceneSpec, SceneSpec]

    @property
    def captions(self) -> tuple[str, str]:
        return self.specs[0].caption, self.specs[1].caption

    @property
    def bindings(self) -> list[list[Binding]]:
        """Bindings of caption 0 and caption 1 (what the adapter's ``caption_bindings`` returns)."""
        return [scene_bindings(spec.scene) for spec in self.specs]


@dataclass
class GenerationReport:
    """Counts of a generation run: samples per stratum and label/intent disagreements."""

    n_per_stratum: int
    seed: int
    counts: Counter[str] = field(default_factory=Counter)
    mismatches: Counter[str] = field(default_factory=Counter)  # "intent->label" -> count
    #: stratum -> "shape|shape" (unordered) -> samples, and the same for colour pairs
    shape_pairs: dict[str, Counter[str]] = field(default_factory=dict)
    colour_pairs: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, sample: SwapSample) -> None:
        """Count ``sample`` in its stratum."""
        scene = sample.specs[0].scene
        self.counts[sample.stratum] += 1
        for tally, names in ((self.shape_pairs, scene.shapes), (self.colour_pairs, scene.colours)):
            tally.setdefault(sample.stratum, Counter())["|".join(sorted(names))] += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_per_stratum": self.n_per_stratum,
            "seed": self.seed,
            "counts": dict(self.counts),
            "mismatches": dict(self.mismatches),
            "shape_pairs": {k: dict(sorted(v.items())) for k, v in self.shape_pairs.items()},
            "colour_pairs": {k: dict(sorted(v.items())) for k, v in self.colour_pairs.items()},
        }


def generate_test_samples(
    world: SyntheticWorld,
    index: BindingCounts,
    n_per_stratum: int = DEFAULT_N_PER_STRATUM,
    seed: int = DEFAULT_TEST_SEED,
    *,
    report: GenerationReport | None = None,
) -> Iterator[SwapSample]:
    """``n_per_stratum`` samples of each stratum in :data:`STRATA` order (module docstring).

    Attempt ``a`` of stratum ``s`` is seeded with ``(seed, "test", s * 10**7 + a)``, so the output
    is a deterministic function of the arguments. Each attempt draws a shape pair uniformly from
    the balanced pools (:func:`~.corpus.balanced_pools`), then a quadruple of its stratum with
    those shapes.

    Raises:
        ValueError: the world has no candidate for a stratum, or its labels keep disagreeing with
            the intent (an index that is not this world's reference).
    """
    from ..labels import annotate_sample

    if n_per_stratum < 1:
        raise BindsplitValueError(f"n_per_stratum must be at least 1; got {n_per_stratum}")
    report = report if report is not None else GenerationReport(n_per_stratum, seed)
    pools = balanced_pools(world)
    for s, stratum in enumerate(STRATA):
        by_shapes = list(pools[stratum].values())
        made = attempts = 0
        while made < n_per_stratum:
            if attempts >= _MAX_ATTEMPTS_PER_SAMPLE * n_per_stratum:
                raise BindsplitValueError(
                    f"only {made} of {n_per_stratum} {stratum} samples after {attempts} attempts: "
                    f"labels disagree with the world ({dict(report.mismatches)}); is the index "
                    "this world's reference index (synthetic.reference_index(world))?"
                )
            rng = scene_rng(seed, "test", s * 10**7 + attempts)
            attempts += 1
            pool = by_shapes[int(rng.integers(len(by_shapes)))]
            specs = swap_pair(world, rng, pool[int(rng.integers(len(pool)))])
            label = annotate_sample([scene_bindings(spec.scene) for spec in specs], index).label
            if label != stratum:
                report.mismatches[f"{stratum}->{label}"] += 1
                continue
            sample = SwapSample(f"{stratum}-{made:05d}", stratum, label, specs)
            report.add(sample)
            yield sample
            made += 1
    if report.mismatches:
        logger.warning(
            "dropped candidates whose label differs from their intent: %s", dict(report.mismatches)
        )


def sample_rows(samples: Iterator[SwapSample], image_size: int) -> Iterator[dict[str, Any]]:
    """Encoded rows in the schema of :data:`TEST_FEATURES`."""
    for sample in samples:
        first, second = sample.specs
        yield {
            "id": sample.id,
            "image_0": encode_png(render_scene(first.scene, image_size)),
            "caption_0": first.caption,
            "image_1": encode_png(render_scene(second.scene, image_size)),
            "caption_1": second.caption,
            "objects": first.scene.shapes,
            "attributes_0": first.scene.colours,
            "attributes_1": second.scene.colours,
            "boxes": [o.box(image_size) for o in first.scene.objects],
            "stratum": sample.stratum,
        }


def _card(world: SyntheticWorld, report: GenerationReport, relations: RelationReport) -> str:
    held_out = ", ".join(f"{c} {s}" for c, s in world.held_out_pairs)
    counts = ", ".join(f"{k}: {report.counts[k]}" for k in STRATA)
    relation_counts = ", ".join(f"{k}: {relations.counts[k]}" for k in STRATA)
    held_relations = ", ".join(
        f"{a} {'left of' if axis == 'horizontal' else 'above'} {b}"
        for a, axis, b in world.configurations
        if (a, axis, b) in world.held_out_relations
    )
    return f"""---
license: apache-2.0
pretty_name: BindSplit synthetic test benchmark
configs:
- config_name: default
  data_files:
  - split: test
    path: test/*.parquet
- config_name: relations
  data_files:
  - split: test
    path: relations/*.parquet
---
# BindSplit synthetic test benchmark

Attribute-swap samples of a synthetic world of {len(world.shapes)} shapes x {len(world.colours)}
colours ({world.image_size} px), stratified by the BindSplit label of their bindings against the
world's training corpus (`reference.parquet`): {counts}.

Each row holds a scene (`image_0`, `caption_0`) and the same scene with the two colours swapped
(`image_1`, `caption_1`); `objects`, `attributes_0`, `attributes_1` give the bindings of each
caption in caption order and `stratum` the label the sample was generated for.

The strata differ in familiarity only: every stratum pairs the same shapes (the shape pairs of the
held-out blocks, drawn uniformly), and the seen stratum also the same colour pairs as the unseen
one. A partial sample cannot use a held-out block's colour pair with that block's shapes (it would
be unseen), so it pairs one of the block's colours with another colour; `generation.json` lists the
shape and colour pairs of every stratum.

Held-out bindings (never in training): {held_out}. World fingerprint: `{world.fingerprint}`.
Generation: seed {report.seed}, {report.n_per_stratum} samples per stratum (`generation.json`).

## Relations (configuration `relations`)

Relation-swap samples ({relation_counts}): a scene whose caption states a spatial triple ("a red
circle to the left of a blue square") and a twin whose caption is false of the first image, its
arguments exchanged (`negative` = `swap`) or its relation changed to the converse (`relation`);
`triple_0`/`triple_1` give each caption's triple, `boxes_0`/`boxes_1` the tight pixel boxes of
the two shapes (`objects` order) in each image, from which every relation can be checked.
Every colour is seen with its shape; the strata are those of the two triples: held-out
configurations (never stated by a training caption, in any wording): {held_relations}.
"""


def write_test_benchmark(
    world: SyntheticWorld,
    out: str | Path,
    n_per_stratum: int = DEFAULT_N_PER_STRATUM,
    seed: int = DEFAULT_TEST_SEED,
    *,
    index: Any | None = None,
    overwrite: bool = False,
    progress: bool = True,
) -> Path:
    """Write the test benchmark in the layout of the module docstring and return ``out``.

    ``index`` defaults to :func:`~.corpus.reference_index` of ``world``; it is saved beside the
    samples so that a build labels them against exactly the corpus they were stratified by.
    """
    if n_per_stratum < 1:
        raise BindsplitValueError(f"n_per_stratum must be at least 1, got {n_per_stratum}")
    check_at_most(
        n_per_stratum, MAX_N_PER_STRATUM, "n_per_stratum", "samples per label of a test set"
    )
    out = Path(out)
    index = index if index is not None else reference_index(world, progress=progress)
    report = GenerationReport(n_per_stratum, seed)
    relations = RelationReport(n_per_stratum, seed)
    with atomic_directory(out, overwrite=overwrite) as tmp:
        world.save(tmp / "world.json")
        index.save(tmp / "reference.parquet")
        (tmp / "test").mkdir()
        samples = generate_test_samples(world, index, n_per_stratum, seed, report=report)
        total = n_per_stratum * len(STRATA)
        bar = progress_bar(
            samples, total=total, unit=" samples", desc="synthetic test set", disable=not progress
        )
        write_shard(
            sample_rows(iter(bar), world.image_size),
            TEST_FEATURES,
            tmp / "test" / shard_name("test", 0, 1),
        )
        (tmp / RELATIONS_FOLDER).mkdir()
        relation_samples = generate_relation_samples(
            world, index, n_per_stratum, seed, report=relations
        )
        bar = progress_bar(
            relation_samples,
            total=total,
            unit=" samples",
            desc="synthetic relation test set",
            disable=not progress,
        )
        write_shard(
            relation_rows(iter(bar), world.image_size),
            RELATION_FEATURES,
            tmp / RELATIONS_FOLDER / shard_name("test", 0, 1),
        )
        generation = {**report.to_dict(), "relations": relations.to_dict()}
        (tmp / "generation.json").write_text(
            json.dumps(generation, indent=2) + "\n", encoding="utf-8"
        )
        (tmp / "README.md").write_text(_card(world, report, relations), encoding="utf-8")
    return out
