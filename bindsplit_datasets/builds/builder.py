"""Build BindSplit datasets: annotate a benchmark once, then write it as a Hub-ready folder.

:func:`prepare_benchmark` reads the source through its adapter, resolves the reference index,
applies the leakage guard and annotates every sample; :func:`build_benchmark` (and
:func:`write_build` for a prepared benchmark) writes the whole folder (docs/architecture.md)::

    DIR/README.md                               dataset card (cards.render_card)
    DIR/bindsplit.json                          build manifest
    DIR/<config>/test-0000K-of-0000N.parquet    rows, image bytes embedded

for every configuration (``names.CONFIGURATIONS``; one without samples is a single shard holding
the schema and 0 rows, so that loops over the configurations never miss one), into a temporary
sibling folder renamed into place when complete, so ``DIR`` either does not exist or holds a
finished build. The manifest and card name local inputs by file name and hash, never by a local
absolute path. The folder is what goes to the Hub: ``datasets.load_dataset(DIR, "unseen")`` reads
it locally, like the published copy, through ``datasets``' own packaged Parquet builder (no
loading script).

Rows keep the source benchmark's columns, in source order, and add the annotation columns of
:mod:`bindsplit_datasets.builds.features`; the same inputs give the same rows (and the same
``fingerprint`` in the manifest).
"""

from __future__ import annotations

import logging
import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import datasets
import pyarrow as pa
import pyarrow.compute as pc

from ..atomic import BUILD_OUTPUT, atomic_directory, check_output
from ..benchmarks import BenchmarkAdapter, LoadedSource, get_benchmark
from ..datasets_compat import (
    InMemoryTable,
    convert_file_size_to_int,
    embed_table_storage,
    progress_bars_off,
    require_storage_embed,
)
from ..errors import BindsplitError, BindsplitValueError, LeakageError, SchemaError
from ..labels import (
    CompositionStats,
    SampleAnnotation,
    annotate_sample,
    check_binding_kind,
    composition,
    config_includes,
)
from ..names import CONFIGURATIONS, DEFAULT_BINDING_KIND, REFERENCE_OPTION
from ..parsing import PARSER_VERSION
from ..reference import ReferenceIndex, resolve_reference
from .cards import render_card
from .features import (
    ANNOTATION_COLUMNS,
    BINDING_COLUMNS,
    CATEGORY_COLUMN,
    GROUP_COLUMNS,
    GROUP_FEATURE,
    LABEL_FEATURE,
    MACRO_GROUP_COLUMN,
    annotation_features,
)
from .manifest import CARD_NAME, BuildColumns, BuildManifest, rows_fingerprint

__all__ = [
    "BuildResult",
    "DEFAULT_MAX_LEAKAGE",
    "LabelledBy",
    "PreparedBenchmark",
    "build_benchmark",
    "compute_annotations",
    "leakage_overlap",
    "leakage_record",
    "prepare_benchmark",
    "row_groups",
    "write_build",
]

logger = logging.getLogger(__name__)

#: Largest Parquet shard written (uncompressed Arrow size), as in ``datasets.push_to_hub``.
DEFAULT_MAX_SHARD_SIZE = "500MB"
_ROW_BATCH = 1000
#: Share of a benchmark's positive captions found verbatim in the reference at which a build is
#: refused (docs/protocol.md, section 2): COCO captions repeat by chance, so a few are expected.
DEFAULT_MAX_LEAKAGE = 0.2


@runtime_checkable
class LabelledBy(Protocol):
    """An adapter whose samples are labelled by one binding kind, ``labelled_by``, whatever the
    build asks (``synthetic_relation``: its triples; every binding of its samples is seen)."""

    labelled_by: str


# ------------------------------------------------------------------------------ preparation
def compute_annotations(
    adapter: BenchmarkAdapter,
    loaded: LoadedSource,
    index: ReferenceIndex,
    *,
    progress: bool = False,
    binding_kind: str = DEFAULT_BINDING_KIND,
) -> list[SampleAnnotation]:
    """The annotation of every row of ``loaded``, in row order, labelled by the units of
    ``binding_kind`` (bindings and/or triples from the adapter); the adapter's hard positives are
    positive captions (docs/protocol.md, section 3)."""
    check_binding_kind(binding_kind)
    n = len(loaded.dataset)
    bindings: list[Any] = [None] * n
    relations: list[Any] = [None] * n
    if binding_kind == "both":  # one run of the parser per caption for both kinds
        bindings, relations = adapter.all_caption_bindings_and_relations(
            loaded.dataset, progress=progress
        )
    elif binding_kind == "attribute":
        bindings = adapter.all_caption_bindings(loaded.dataset, progress=progress)
    else:
        relations = adapter.all_caption_relations(loaded.dataset, progress=progress)
    positives = adapter.positive_captions  # caption 0 and the hard positives
    return [
        annotate_sample(
            b, index, caption_relations=r, binding_kind=binding_kind, positive_captions=positives
        )
        for b, r in zip(bindings, relations, strict=True)
    ]


def leakage_overlap(
    adapter: BenchmarkAdapter, loaded: LoadedSource, index: ReferenceIndex
) -> tuple[int, int]:
    """How many of the benchmark's positive captions occur verbatim in the reference, and how
    many positive captions there are (every cell of ``adapter.positive_caption_columns``)."""
    columns = loaded.dataset.select_columns(list(adapter.positive_caption_columns)).to_dict()
    texts = [text for values in columns.values() for text in values]
    return index.caption_overlap(texts), len(texts)


def row_groups(
    adapter: BenchmarkAdapter, dataset: datasets.Dataset
) -> tuple[list[str | None], list[str | None]]:
    """``adapter.category(row)`` and ``adapter.macro_group(row)`` of every row, in order (images
    are not read): asked once, at build time, and written as the group columns."""
    text = dataset.select_columns(
        [c for c in dataset.column_names if c not in adapter.image_columns]
    ).with_format(None)
    categories: list[str | None] = []
    macro_groups: list[str | None] = []
    for batch in text.iter(batch_size=_ROW_BATCH):
        columns = list(batch)
        for values in zip(*batch.values(), strict=True):
            row = dict(zip(columns, values, strict=True))
            categories.append(adapter.category(row))
            macro_groups.append(adapter.macro_group(row))
    return categories, macro_groups


@dataclass
class PreparedBenchmark:
    """A benchmark read, checked and annotated: everything a build or ``stats`` needs."""

    adapter: BenchmarkAdapter
    source: LoadedSource
    index: ReferenceIndex
    annotations: list[SampleAnnotation]
    leakage: dict[str, Any] = field(default_factory=dict)
    #: ``adapter.category(row)`` of every row (all ``None`` for a benchmark without categories).
    categories: list[str | None] = field(default_factory=list)
    #: ``adapter.macro_group(row)`` of every row (all ``None`` where groups are not defined).
    macro_groups: list[str | None] = field(default_factory=list)
    #: Folders of the local inputs, removed from every path the manifest would otherwise hold.
    local_folders: tuple[str, ...] = ()
    #: What the samples are labelled by (``names.BINDING_KINDS``).
    binding_kind: str = DEFAULT_BINDING_KIND

    @property
    def labels(self) -> list[str]:
        return [annotation.label for annotation in self.annotations]

    def composition(self) -> CompositionStats:
        """Composition of all rows, broken down by category when the benchmark has them."""
        categories = self.categories if any(c is not None for c in self.categories) else None
        return composition(self.annotations, categories)

    @property
    def annotation_features(self) -> datasets.Features:
        """The annotation columns of this build's binding kind (``features.py``)."""
        return annotation_features(self.binding_kind)

    def config_indices(self, config: str) -> list[int]:
        """Row positions of configuration ``config`` (all rows for ``full``)."""
        _check_configuration(config)
        return [i for i, a in enumerate(self.annotations) if config_includes(config, a)]

    def _groups(self) -> dict[str, list[str | None]]:
        """The group columns this build writes: those the benchmark defines for some row."""
        groups = {CATEGORY_COLUMN: self.categories, MACRO_GROUP_COLUMN: self.macro_groups}
        return {
            name: values for name, values in groups.items() if any(v is not None for v in values)
        }

    @property
    def features(self) -> datasets.Features:
        """Source features, the annotation features and the group columns written (declared in
        ``features.py``)."""
        return datasets.Features(
            {
                **self.source.dataset.features,
                **self.annotation_features,
                **dict.fromkeys(self._groups(), GROUP_FEATURE),
            }
        )

    def columns(self) -> BuildColumns:
        """Which columns of the built rows are what (recorded in the manifest)."""
        groups = self._groups()
        return BuildColumns(
            image=tuple(self.adapter.image_columns),
            caption=tuple(self.adapter.caption_columns),
            id=self.adapter.id_column,
            category=CATEGORY_COLUMN if CATEGORY_COLUMN in groups else None,
            macro_group=MACRO_GROUP_COLUMN if MACRO_GROUP_COLUMN in groups else None,
            hard_positive=tuple(self.adapter.hard_positive_columns),
        )

    def annotated_dataset(self) -> datasets.Dataset:
        """The source rows with the annotation columns and the group columns appended."""
        added = datasets.Features(
            {**self.annotation_features, **dict.fromkeys(self._groups(), GROUP_FEATURE)}
        )
        rows = [annotation.to_row() for annotation in self.annotations]
        for row in rows:  # stored as the class index of the ClassLabel
            row["bindsplit_label"] = LABEL_FEATURE.str2int(row["bindsplit_label"])
        for name, values in self._groups().items():
            for row, value in zip(rows, values, strict=True):
                row[name] = value
        table = pa.Table.from_pylist(rows, schema=added.arrow_schema)
        annotations = datasets.Dataset(
            InMemoryTable(table), info=datasets.DatasetInfo(features=added)
        )
        return datasets.concatenate_datasets([self.source.dataset, annotations], axis=1)


def _check_configuration(config: str) -> None:
    if config not in CONFIGURATIONS:
        raise ValueError(
            f"unknown configuration {config!r}; known configurations: {', '.join(CONFIGURATIONS)}"
        )


def prepare_benchmark(
    benchmark: str | BenchmarkAdapter,
    *,
    source: str | os.PathLike[str] | None = None,
    reference: str | os.PathLike[str] | ReferenceIndex | None = "coco2017",
    min_count: int = 1,
    strict: bool = False,
    allow_leakage: bool = False,
    max_leakage: float = DEFAULT_MAX_LEAKAGE,
    source_options: Mapping[str, Any] | None = None,
    progress: bool = False,
    binding_kind: str = DEFAULT_BINDING_KIND,
) -> PreparedBenchmark:
    """Read ``benchmark`` (a registry name, or an adapter: a custom table's,
    :func:`~bindsplit_datasets.benchmarks.custom.custom_adapter`) from ``source`` (``None``: its
    Hub source), label it against
    ``reference`` (``None``: the adapter's default, ``coco2017`` for the real benchmarks) and
    return everything a build needs. Writes nothing.

    ``binding_kind`` (``names.BINDING_KINDS``, ``--bindings``) chooses what labels the samples:
    the (attribute, object) bindings (default, the paper's), the (subject, relation, object)
    triples (SPEC section 1b), or both; a relation kind needs a reference with triples
    (:class:`~bindsplit_datasets.errors.RelationsMissingError` otherwise).

    Leakage guard: the share of the benchmark's positive captions found verbatim in the
    reference is measured and recorded; at ``max_leakage`` or above (and at least one caption)
    the reference evidently contains the benchmark's source and the build is refused, unless
    ``allow_leakage`` or the adapter has the guard off (``leakage_guard``).

    Raises:
        ValueError: unknown benchmark (the message lists the known ones) or source option, or
            ``max_leakage`` outside [0, 1].
        LeakageError: the guard refuses the reference (above).
    """
    try:
        check_binding_kind(binding_kind)
    except ValueError as error:
        raise BindsplitValueError(str(error)) from None
    if not 0.0 <= max_leakage <= 1.0:
        raise ValueError(
            f"max_leakage (--max-leakage) is a share between 0 and 1, got {max_leakage}; "
            f"the default is {DEFAULT_MAX_LEAKAGE}"
        )
    adapter = benchmark if isinstance(benchmark, BenchmarkAdapter) else get_benchmark(benchmark)
    if isinstance(adapter, LabelledBy):  # labelled by its own units (halftruth: the foil)
        binding_kind = adapter.labelled_by
    if not isinstance(source_options, Mapping | None):
        raise BindsplitValueError(
            f"source_options must be a mapping of option to value, got {source_options!r}; "
            f"{adapter.name} accepts: {', '.join(adapter.load_options) or 'none'}"
        )
    options = dict(source_options or {})
    adapter.check_options(options)
    if source is not None:
        source = os.fspath(source)  # adapters take a path or Hub id as text
    adapter.check_source(source)
    if reference is None:
        reference = adapter.default_reference(source)
    index = resolve_reference(reference, min_count=min_count)
    if binding_kind != "attribute":
        index.require_relations(f"a {binding_kind} build (--bindings {binding_kind})")
    if REFERENCE_OPTION in adapter.load_options:  # its rows are made against the reference
        options[REFERENCE_OPTION] = index
    loaded = adapter.load(source, strict=strict, **options)
    added = (*ANNOTATION_COLUMNS, *BINDING_COLUMNS, *GROUP_COLUMNS)
    clashes = [c for c in dict.fromkeys(added) if c in loaded.dataset.column_names]
    if clashes:
        raise SchemaError(
            f"the source already has the annotation column(s) {clashes}: it looks like a built "
            "BindSplit dataset; build from the original benchmark instead"
        )
    for note in loaded.report.notes:  # the report holds them; `build` / `stats` print them once
        logger.debug("%s: %s", adapter.name, note)
    leakage = leakage_record(adapter, loaded, index, max_leakage=max_leakage, allow=allow_leakage)
    annotations = compute_annotations(
        adapter, loaded, index, progress=progress, binding_kind=binding_kind
    )
    categories, macro_groups = row_groups(adapter, loaded.dataset)
    return PreparedBenchmark(
        adapter=adapter,
        source=loaded,
        index=index,
        annotations=annotations,
        leakage=leakage,
        categories=categories,
        macro_groups=macro_groups,
        local_folders=_local_folders([source, reference, *options.values()]),
        binding_kind=binding_kind,
    )


def leakage_record(
    adapter: BenchmarkAdapter,
    loaded: LoadedSource,
    index: ReferenceIndex,
    *,
    max_leakage: float = DEFAULT_MAX_LEAKAGE,
    allow: bool = False,
) -> dict[str, Any]:
    """The manifest's ``leakage`` record; raises :class:`LeakageError` when the guard refuses."""
    overlap, n_positive = leakage_overlap(adapter, loaded, index)
    share = overlap / n_positive if n_positive else None
    exceeded = share is not None and overlap > 0 and share >= max_leakage
    found = (
        f"the reference contains {overlap:,} of {adapter.pretty_name}'s {n_positive:,} positive "
        "captions verbatim"
    )
    percent = f"{100 * (share or 0):.1f}%"
    if exceeded and adapter.leakage_guard and not allow:
        raise LeakageError(
            f"{found} ({percent}, at or above the threshold of {100 * max_leakage:.1f}%): the "
            "reference evidently contains the benchmark's own source, so their bindings would "
            "count as seen (BiVLC and VisMin come from COCO val2017: use a train2017-only "
            "reference such as the default coco2017); to build anyway pass --allow-leakage "
            "(allow_leakage=True), which the dataset card will state, or raise --max-leakage"
        )
    if overlap and adapter.leakage_guard:
        (logger.warning if exceeded else logger.info)(
            "%s: %s (%s, %s)",
            adapter.name,
            found,
            percent,
            "leakage allowed" if exceeded else "below the threshold: chance duplicates",
        )
    leakage: dict[str, Any] = {
        "overlap": overlap,
        "n_positive": n_positive,
        "share": share,
        "threshold": max_leakage,
        "override": bool(exceeded and adapter.leakage_guard and allow),
    }
    if not adapter.leakage_guard:
        leakage["guard"] = False
    return leakage


def _local_folders(inputs: Sequence[Any]) -> tuple[str, ...]:
    """The folders holding the local files or folders among ``inputs`` (as given and resolved),
    longest first; the file system root is never one."""
    folders: set[str] = set()
    for value in inputs:
        if not isinstance(value, (str, os.PathLike)):
            continue
        path = Path(value).expanduser()
        if not path.exists():
            continue
        for parent in (path.absolute().parent, path.resolve().parent):
            if parent.parent != parent:
                folders.add(str(parent))
    return tuple(sorted(folders, key=len, reverse=True))


def _without_local_paths(value: Any, folders: Sequence[str]) -> Any:
    """``value`` (JSON-like) with every ``folder/`` prefix removed from its strings and every
    bare ``folder`` replaced by its name: what the build publishes names its inputs relative to
    where they were, never by where they were on this machine."""
    if isinstance(value, str):
        for folder in folders:
            value = value.replace(folder + os.sep, "")
            bare = re.compile(re.escape(folder) + r"(?![\w.-])")
            value = bare.sub(Path(folder).name.replace("\\", "\\\\"), value)
        return value
    if isinstance(value, Mapping):
        return {key: _without_local_paths(item, folders) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_without_local_paths(item, folders) for item in value]
    return value


# ---------------------------------------------------------------------------------- writing
@dataclass(frozen=True)
class BuildResult:
    """What :func:`build_benchmark` wrote: the folder, its manifest and the composition."""

    path: Path
    manifest: dict[str, Any]
    composition: CompositionStats


def _check_out(out: Path, overwrite: bool) -> None:
    check_output(out, BUILD_OUTPUT, overwrite=overwrite)


def build_benchmark(
    benchmark: str | BenchmarkAdapter,
    *,
    out: str | Path,
    source: str | Path | None = None,
    reference: str | Path | ReferenceIndex | None = "coco2017",
    min_count: int = 1,
    strict: bool = False,
    allow_leakage: bool = False,
    max_leakage: float = DEFAULT_MAX_LEAKAGE,
    overwrite: bool = False,
    source_options: dict[str, Any] | None = None,
    repo_id: str | None = None,
    max_shard_size: int | str = DEFAULT_MAX_SHARD_SIZE,
    progress: bool = False,
    binding_kind: str = DEFAULT_BINDING_KIND,
) -> BuildResult:
    """Annotate ``benchmark`` once and write the Hub-ready folder ``out`` (module docstring).

    ``reference=None`` uses the adapter's default reference (``coco2017`` for the real
    benchmarks, the world's training corpus for the synthetic one). ``binding_kind``:
    :func:`prepare_benchmark`'s (recorded in the manifest and its fingerprint, and on the card).

    ``out`` must not exist or be an empty folder; ``overwrite`` replaces a previous build (never
    anything else, :func:`~bindsplit_datasets.atomic.check_output`). It is written in a temporary
    sibling folder and renamed into place only when complete (on any error nothing is left).
    ``repo_id`` (``org/name``) is used in the card's loading instructions.
    """
    out = Path(out)
    _check_out(out, overwrite)
    prepared = prepare_benchmark(
        benchmark,
        source=source,
        reference=reference,
        min_count=min_count,
        strict=strict,
        allow_leakage=allow_leakage,
        max_leakage=max_leakage,
        source_options=source_options,
        progress=progress,
        binding_kind=binding_kind,
    )
    return write_build(
        prepared, out, overwrite=overwrite, repo_id=repo_id, max_shard_size=max_shard_size
    )


def write_build(
    prepared: PreparedBenchmark,
    out: str | Path,
    *,
    overwrite: bool = False,
    repo_id: str | None = None,
    max_shard_size: int | str = DEFAULT_MAX_SHARD_SIZE,
) -> BuildResult:
    """Write ``prepared`` as the folder ``out`` (all configurations, manifest, card)."""
    out = Path(out)
    _check_out(out, overwrite)
    with atomic_directory(out, BUILD_OUTPUT, overwrite=overwrite) as tmp:
        full = prepared.annotated_dataset()
        if len(full) == 0:
            raise BindsplitError(
                f"no {prepared.adapter.pretty_name} rows are left to build: "
                f"{prepared.source.report.describe()}; fix those rows of the source, or pass "
                "--strict to stop at the first one and see it"
            )
        limit = convert_file_size_to_int(max_shard_size)
        infos = {}
        sizes = {}
        for config in CONFIGURATIONS:  # every one, an empty one as a shard with the schema only
            indices = prepared.config_indices(config)
            if not indices:
                logger.warning("configuration %r has no samples: written with 0 rows", config)
            rows = full if config == "full" else full.select(indices)
            infos[config] = _write_config(rows, tmp / config, limit, full)
            sizes[config] = len(rows)
        stats = prepared.composition()
        recorded = BuildManifest(
            benchmark=prepared.adapter.name,
            pretty_name=prepared.adapter.pretty_name,
            configs=sizes,
            fingerprint=rows_fingerprint(
                full,
                prepared.adapter.image_columns,
                prepared.binding_kind,
                prepared.source.identity.get("mapping"),
            ),
            columns=prepared.columns(),
            source=prepared.source.identity,
            reference=prepared.index.fingerprint,
            min_count=prepared.index.min_count,
            parser_version=PARSER_VERSION,
            composition=stats.to_dict(),
            source_report=prepared.source.report.to_dict(),
            leakage=dict(prepared.leakage),
            binding_kind=prepared.binding_kind,
        )
        written = BuildManifest.from_dict(
            _without_local_paths(recorded.to_dict(), prepared.local_folders), str(out)
        )
        written.write(tmp)
        manifest = written.to_dict()  # its provenance digest that of the manifest written
        card = render_card(manifest, dataset_infos=infos, repo_id=repo_id, adapter=prepared.adapter)
        (tmp / CARD_NAME).write_text(card, encoding="utf-8")
    # the build's name, not its path: ``out`` may be a temporary folder of the caller's (the demo)
    shown = ", ".join(f"{c}: {n}" for c, n in sizes.items())
    logger.info("built %s (%s)", prepared.adapter.pretty_name, shown)
    return BuildResult(path=out, manifest=manifest, composition=stats)


def _write_config(
    rows: datasets.Dataset, folder: Path, limit: int, full: datasets.Dataset
) -> datasets.DatasetInfo:
    """Write ``rows`` as ``folder/test-0000K-of-0000N.parquet`` with image bytes embedded."""
    folder.mkdir()
    # Arrow size of these rows, estimated from the full table (rows are a selection of it)
    nbytes = full.data.nbytes * len(rows) // max(len(full), 1)
    n_shards = max(1, min(len(rows), math.ceil(nbytes / limit)))
    embed = _has_external_files(full)
    written = 0
    with progress_bars_off():  # the build shows its own progress
        for k in range(n_shards):
            shard = rows.shard(num_shards=n_shards, index=k, contiguous=True)
            if embed:  # image cells that hold a path, not bytes: put the bytes in the file
                shard = shard.with_format("arrow").map(
                    embed_table_storage, batched=True, keep_in_memory=True
                )
            path = folder / f"test-{k:05d}-of-{n_shards:05d}.parquet"
            shard.with_format(None).to_parquet(str(path))
            written += path.stat().st_size
    split = datasets.SplitInfo(name="test", num_bytes=nbytes, num_examples=len(rows))
    return datasets.DatasetInfo(
        features=full.features,
        splits=datasets.SplitDict({"test": split}),
        download_size=written,
        dataset_size=nbytes,
    )


def _has_external_files(dataset: datasets.Dataset) -> bool:
    """Whether an image (or other embeddable) cell of ``dataset`` refers to a file instead of
    holding its bytes; nested embeddable features are assumed to."""
    for name, feature in dataset.features.items():
        if isinstance(feature, (datasets.Image, datasets.Audio)):
            column = dataset.data.column(name)
            without_bytes = pc.and_(
                pc.is_null(pc.struct_field(column, "bytes")),
                pc.is_valid(pc.struct_field(column, "path")),
            )
            if pc.any(without_bytes).as_py():
                return True
        elif require_storage_embed(feature):
            return True
    return False
