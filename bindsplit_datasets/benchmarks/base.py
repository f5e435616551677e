"""The contract every benchmark adapter fulfils.

An adapter knows one benchmark's *source*: where it lives (a Hub id with a pinned revision and/or a
local layout), how its raw rows are read, which columns hold the images and captions and how they
pair, how the (attribute, object) bindings of each caption are obtained, and the benchmark's licence
and citation. Everything downstream (builder, cards, scorer, metric) works from this description
alone, so adding a benchmark means writing one module that defines a subclass and registers it.

Pairing convention (docs/protocol.md, section 5): ``image_columns[i]`` pairs with
``caption_columns[i]``; captions beyond the number of images are, first, the *hard positives* of
image 0 (``hard_positive_columns``: more captions true of it, worded differently) and then its
*negatives* (ARO: one image, ``true_caption`` then ``false_caption``). Caption 0 and the hard
positives are the sample's *positive* captions, all others its *negatives*, for the familiarity
statistics (docs/protocol.md, section 3).

What a benchmark is (its source, columns, roles, licence, citation) is declared in its spec file
(``benchmarks/specs/<name>.yaml``, :mod:`.spec`); an adapter class takes those class variables
from the spec (:func:`~bindsplit_datasets.benchmarks.from_spec`) and adds only the code that
reading its source needs.
"""

from __future__ import annotations

import abc
import io
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import datasets

from ..downloads import files_digest
from ..errors import (
    BindsplitError,
    BindsplitFileNotFoundError,
    BindsplitValueError,
    SchemaError,
)
from ..names import MAX_CAPTION_CHARS, is_hub_id
from ..parquet_files import load_parquet_files
from ..parsing import (
    Binding,
    Relation,
    parse_bindings,
    parse_bindings_and_relations_many,
    parse_many,
    parse_relations,
    parse_relations_many,
)
from ..progress import progress as progress_bar
from .caption_rows import parse_caption_rows, read_row_by_row
from .spec import BenchmarkSpec

__all__ = [
    "BenchmarkAdapter",
    "LoadedSource",
    "ParsedCaptionsAdapter",
    "SourceReport",
    "check_captions",
    "check_images",
    "drop_rows",
    "image_problem",
    "read_dataset_source",
    "resolve_hub_commit",
]

logger = logging.getLogger(__name__)


@dataclass
class SourceReport:
    """What happened while reading a source: counts of every problem, and notes for the build log.

    ``problems`` maps a short problem name (``"unreadable_image"``, ``"template_mismatch"``, ...) to
    how many rows had it; ``notes`` are human-readable lines (for example the outcome of a pairing
    check) that the builder logs and writes into the dataset card.
    """

    n_rows: int = 0
    problems: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"n_rows": self.n_rows, "problems": dict(self.problems), "notes": list(self.notes)}

    def describe(self) -> str:
        """The report as a sentence, for messages.

        >>> SourceReport(3, Counter(missing_caption=2, unreadable_image=1)).describe()
        '3 rows read, of which 2 had a missing caption and 1 an unreadable image'
        """
        read = f"{self.n_rows:,} row{'s' if self.n_rows != 1 else ''} read"
        if not self.problems:
            return f"{read}, none with a problem"
        counts = [
            f"{count:,} {'had ' if k == 0 else ''}{'an' if name[0] in 'aeiou' else 'a'} "
            f"{name.replace('_', ' ')}"
            for k, (name, count) in enumerate(sorted(self.problems.items()))
        ]
        listed = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " and " + counts[-1]
        return f"{read}, of which {listed}"


@dataclass
class LoadedSource:
    """Raw benchmark rows plus where they came from.

    ``dataset`` holds the source benchmark's own columns (images as ``datasets.Image``);
    ``identity`` describes the source for the build fingerprint: ``{"hub_id", "revision", "sha"}``
    for the Hub or ``{"path", "files", "sha256"}`` for local files (``path`` is the file or folder
    name, never a local absolute path: manifests and cards are published).
    """

    dataset: datasets.Dataset
    report: SourceReport
    identity: dict[str, Any]


class BenchmarkAdapter(abc.ABC):
    """One benchmark's source description. Subclasses set the class variables and implement
    :meth:`load` and :meth:`caption_bindings`, then decorate themselves with
    :func:`bindsplit_datasets.benchmarks.register`."""

    #: Registry name used on the command line (``bindsplit build NAME``).
    name: ClassVar[str]
    #: Human-readable name used in dataset cards.
    pretty_name: ClassVar[str]
    #: Other names accepted wherever ``name`` is (``aro`` for ``aro_vga``).
    aliases: ClassVar[tuple[str, ...]] = ()
    #: The source's own per-row id column (unique), carried into score files and results records
    #: so that per-sample outcomes join back to the source; ``None``: rows are numbered.
    id_column: ClassVar[str | None] = None
    #: Hub dataset id of the canonical source, or ``None`` if it has none.
    hub_id: ClassVar[str | None] = None
    #: Revision of ``hub_id`` to read (``None``: the default branch); the commit it resolves to
    #: is recorded in the build (:func:`resolve_hub_commit`), so every build says what it read.
    hub_revision: ClassVar[str | None] = None
    #: Split of the Hub dataset that holds the benchmark.
    hub_split: ClassVar[str] = "test"
    #: Image columns, in image order.
    image_columns: ClassVar[tuple[str, ...]]
    #: Caption columns, in caption order (caption j is the correct caption of image j), then
    #: the hard positives, then the negatives.
    caption_columns: ClassVar[tuple[str, ...]]
    #: The caption columns that are hard positives of image 0 (they follow the positives in
    #: ``caption_columns``); empty for a benchmark without any.
    hard_positive_columns: ClassVar[tuple[str, ...]] = ()
    #: Columns the source must have; a missing one is an error that names it.
    required_columns: ClassVar[tuple[str, ...]]
    #: Columns that give per-category breakdowns in the metric (BiVLC ``type``/``subtype``).
    category_columns: ClassVar[tuple[str, ...]] = ()
    #: SPDX-style licence identifier of the source benchmark (for the card's YAML).
    license: ClassVar[str]
    #: Where the images come from and under which terms, named on the dataset card beside the
    #: annotations' ``license``.
    image_sources: ClassVar[tuple[str, ...]] = ()
    #: BibTeX of the source benchmark.
    citation: ClassVar[str]
    #: The paper's figures for this benchmark (docs/protocol.md, section 6), keyed like the
    #: composition stats.
    paper_figures: ClassVar[Mapping[str, float]] = {}
    #: The spec the class variables come from (``None``: an adapter declared in code only).
    spec: ClassVar[BenchmarkSpec | None] = None

    @abc.abstractmethod
    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """Read the raw rows from ``source`` (``None``: the pinned Hub source).

        ``source`` is a Hub id or a local path in the adapter's documented layout. Problems are
        counted in the report; with ``strict=True`` the first problem raises instead.
        """

    @abc.abstractmethod
    def caption_bindings(self, row: Mapping[str, Any]) -> list[list[Binding]]:
        """Bindings of each caption of ``row``, in ``caption_columns`` order."""

    def caption_relations(self, row: Mapping[str, Any]) -> list[list[Relation]]:
        """Relation triples of each caption of ``row``, in ``caption_columns`` order (SPEC
        section 1b). Default: the relation parser on each caption's text; a benchmark whose
        records name the relation and its objects (ARO VG-Relation) overrides it."""
        return [parse_relations(row[column] or "") for column in self.caption_columns]

    def category(self, row: Mapping[str, Any]) -> str | None:
        """Category of ``row`` for per-category breakdowns (``None``: no breakdown)."""
        if not self.category_columns:
            return None
        return "/".join(str(row[column]) for column in self.category_columns)

    def macro_group(self, row: Mapping[str, Any]) -> str | None:
        """Group for a macro accuracy (ARO: the attribute pair); ``None`` when not defined."""
        return None

    @property
    def n_images(self) -> int:
        return len(self.image_columns)

    @property
    def n_captions(self) -> int:
        return len(self.caption_columns)

    @property
    def positive_captions(self) -> tuple[int, ...]:
        """Positions of the captions on the positive side of the familiarity statistics: caption
        0 and the hard positives (docs/protocol.md, section 3)."""
        return (0, *range(self.n_images, self.n_images + len(self.hard_positive_columns)))

    def check_columns(self, column_names: Sequence[str], where: str) -> None:
        """Raise a :class:`SchemaError` naming every required column missing from ``where``."""
        missing = [c for c in self.required_columns if c not in column_names]
        if missing:
            raise SchemaError(
                f"{where} is not a {self.pretty_name} source: missing column(s) {missing}; "
                f"expected at least {list(self.required_columns)} (the source has the columns "
                f"{list(column_names)})."
            )

    # -- shared reading and batch helpers -----------------------------------------------------

    #: Options :meth:`load` accepts besides ``source`` and ``strict`` (``bindsplit build`` passes
    #: them as ``source_options``); anything else is rejected by :meth:`check_options`.
    load_options: ClassVar[tuple[str, ...]] = ()
    #: Whether a build refuses a reference that contains this benchmark's positive captions
    #: verbatim (docs/protocol.md, section 2). Off only for benchmarks whose reference is by
    #: design their own
    #: training corpus (the synthetic world).
    leakage_guard: ClassVar[bool] = True

    @property
    def positive_caption_columns(self) -> tuple[str, ...]:
        """Captions that correctly describe one of the sample's images (caption j of image j):
        the benchmark's own positive captions, which the leakage guard looks for in a reference."""
        return self.caption_columns[: self.n_images]

    def default_reference(self, source: str | Path | None = None) -> str | Path:
        """The reference a build of ``source`` uses when none is named: ``"coco2017"`` (COCO
        train2017 captions, docs/protocol.md, section 2); a benchmark with its own training corpus
        returns
        that."""
        return "coco2017"

    def check_source(self, source: str | Path | None) -> None:
        """Raise :class:`BindsplitFileNotFoundError` when ``source`` names neither an existing
        path nor a Hub dataset id: called before the reference is resolved, so a mistyped path
        is reported as such, not as whatever the reference would fail on first."""
        if source is None or Path(source).expanduser().exists():
            return
        if not _looks_like_hub_id(str(source)):
            raise BindsplitFileNotFoundError(
                f"source {str(source)!r} not found: it is neither an existing path nor a Hub "
                "dataset id of the form 'org/name'; pass the benchmark's files or its Hub id"
            )

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Raise a :class:`BindsplitValueError` naming any option this adapter's :meth:`load`
        lacks."""
        unknown = sorted(set(options) - set(self.load_options))
        if unknown:
            accepted = ", ".join(self.load_options) or "none"
            raise BindsplitValueError(
                f"{self.name} does not accept the source option(s) {unknown}; accepted: {accepted}"
            )

    def all_caption_bindings(
        self, dataset: datasets.Dataset, *, progress: bool = False
    ) -> list[list[list[Binding]]]:
        """:meth:`caption_bindings` of every row of ``dataset``, in row order.

        The default calls :meth:`caption_bindings` row by row without decoding any image;
        adapters that parse caption text override it to parse each distinct caption once.
        """
        return read_row_by_row(
            dataset, self.image_columns, self.caption_bindings, desc="bindings", progress=progress
        )

    def all_caption_relations(
        self, dataset: datasets.Dataset, *, progress: bool = False
    ) -> list[list[list[Relation]]]:
        """:meth:`caption_relations` of every row of ``dataset``, in row order. The default
        parses each distinct caption once (:func:`~bindsplit_datasets.parsing.
        parse_relations_many`) unless the adapter overrides :meth:`caption_relations`, which
        is then asked row by row without decoding any image."""
        if type(self).caption_relations is not BenchmarkAdapter.caption_relations:
            return read_row_by_row(
                dataset,
                self.image_columns,
                self.caption_relations,
                desc="relations",
                progress=progress,
            )
        return parse_caption_rows(
            dataset, self.caption_columns, parse_relations_many, progress=progress
        )

    def all_caption_bindings_and_relations(
        self, dataset: datasets.Dataset, *, progress: bool = False
    ) -> tuple[list[list[list[Binding]]], list[list[list[Relation]]]]:
        """(:meth:`all_caption_bindings`, :meth:`all_caption_relations`): what a build of both
        kinds needs (an adapter that parses caption text reads each caption once for both)."""
        bindings = self.all_caption_bindings(dataset, progress=progress)
        return bindings, self.all_caption_relations(dataset, progress=progress)

    def read_rows(self, source: str | Path | None) -> tuple[datasets.Dataset, dict[str, Any]]:
        """The raw rows and identity of the Hub source (``source=None``), another Hub id or a
        local Parquet copy with the Hub's columns, read by :func:`read_dataset_source`; required
        columns are checked and image columns typed ``datasets.Image``."""
        if source is None:
            if self.hub_id is None:
                raise BindsplitValueError(
                    f"{self.pretty_name} has no Hub source; pass a local source (--source)"
                )
            source = self.hub_id
        dataset, identity = read_dataset_source(
            source, hub_revision=self.hub_revision, split=self.hub_split
        )
        self.check_columns(dataset.column_names, str(source))
        for column in self.image_columns:
            if not isinstance(dataset.features[column], datasets.Image):
                dataset = dataset.cast_column(column, datasets.Image())
        return dataset, identity

    def read_table(
        self, source: str | Path | None, *, strict: bool, progress: bool = True
    ) -> LoadedSource:
        """:meth:`read_rows`, then :func:`check_images` (rows with a bad image are dropped)."""
        dataset, identity = self.read_rows(source)
        return self.checked_source(dataset, identity, strict=strict, progress=progress)

    def checked_source(
        self,
        dataset: datasets.Dataset,
        identity: dict[str, Any],
        *,
        strict: bool,
        progress: bool = True,
    ) -> LoadedSource:
        """A :class:`LoadedSource` of ``dataset`` after :func:`check_captions` and
        :func:`check_images` (rows with a missing caption or a bad image are dropped)."""
        report = SourceReport()
        dataset = check_captions(dataset, self.caption_columns, report, strict=strict)
        dataset = check_images(
            dataset, self.image_columns, report, strict=strict, progress=progress
        )
        report.n_rows = len(dataset)
        return LoadedSource(dataset=dataset, report=report, identity=identity)


class ParsedCaptionsAdapter(BenchmarkAdapter):
    """An adapter whose captions are free text: bindings come from the caption parser."""

    def caption_bindings(self, row: Mapping[str, Any]) -> list[list[Binding]]:
        return [parse_bindings(row[column] or "") for column in self.caption_columns]

    def all_caption_bindings(
        self, dataset: datasets.Dataset, *, progress: bool = False
    ) -> list[list[list[Binding]]]:
        """Parse every caption with :func:`~bindsplit_datasets.parsing.parse_many` (which parses
        each distinct caption once: benchmarks repeat captions across samples)."""
        return parse_caption_rows(dataset, self.caption_columns, parse_many, progress=progress)

    def all_caption_bindings_and_relations(
        self, dataset: datasets.Dataset, *, progress: bool = False
    ) -> tuple[list[list[list[Binding]]], list[list[list[Relation]]]]:
        """Both kinds from one run of the parser over each distinct caption (tokenised and tagged
        once), unless the adapter reads either kind another way."""
        readers = (type(self).caption_relations, type(self).all_caption_relations,
                   type(self).all_caption_bindings)  # fmt: skip
        if readers != (BenchmarkAdapter.caption_relations, BenchmarkAdapter.all_caption_relations,
                       ParsedCaptionsAdapter.all_caption_bindings):  # fmt: skip
            return super().all_caption_bindings_and_relations(dataset, progress=progress)
        both = parse_caption_rows(
            dataset, self.caption_columns, parse_bindings_and_relations_many, progress=progress
        )
        return [[b for b, _ in row] for row in both], [[r for _, r in row] for row in both]


#: Local data files, never Hub ids even where they have the form ``name/file``.
_DATA_FILE_SUFFIXES = (".parquet", ".json", ".jsonl", ".ndjson", ".csv")


def _looks_like_hub_id(text: str) -> bool:
    return is_hub_id(text) and not text.endswith(_DATA_FILE_SUFFIXES)


def read_dataset_source(
    source: str | Path, *, hub_revision: str | None, split: str
) -> tuple[datasets.Dataset, dict[str, Any]]:
    """Read ``source`` with :func:`datasets.load_dataset`: a local Parquet file or a folder of
    Parquet files (found recursively, read in sorted path order), or else a Hub dataset id.

    Returns the ``split`` and the source's identity for the build fingerprint: ``{"path",
    "files", "sha256"}`` for local files (``path``: the file or folder name, no local directory),
    ``{"hub_id", "revision", "sha"}`` for the Hub, where ``sha`` is the commit ``revision``
    resolved to (:func:`resolve_hub_commit`) and the rows are read at that commit. A Hub dataset
    with a single split is accepted whatever that split is called.

    Raises:
        BindsplitFileNotFoundError: neither an existing path nor a Hub id; a folder without
            Parquet files.
        SchemaError: a local file that is not Parquet (an image, text, a truncated download),
            or files without any row.
    """
    path = Path(source).expanduser()
    if path.exists():
        files = [path] if path.is_file() else sorted(path.rglob("*.parquet"))
        if not files:
            raise BindsplitFileNotFoundError(
                f"{path} holds no Parquet files; pass a Parquet file, a folder of Parquet files "
                "or a Hub dataset id"
            )
        dataset = load_parquet_files(
            files,
            split,
            where=str(path),
            fix="pass the benchmark as a Parquet file, a folder of Parquet files or a Hub dataset "
            "id, with the columns of its Hub release",
        )
        identity: dict[str, Any] = {
            "path": path.resolve().name,
            "files": [f.name if f == path else f.relative_to(path).as_posix() for f in files],
            "sha256": files_digest(files),
        }
        return dataset, identity
    if not _looks_like_hub_id(str(source)):
        raise BindsplitFileNotFoundError(
            f"source {str(source)!r} not found: it is neither an existing path nor a Hub dataset "
            "id of the form 'org/name'"
        )
    commit = resolve_hub_commit(str(source), hub_revision)
    loaded = datasets.load_dataset(str(source), revision=commit or hub_revision)
    if split in loaded:
        dataset = loaded[split]
    elif len(loaded) == 1:
        dataset = next(iter(loaded.values()))
    else:
        raise SchemaError(f"Hub dataset {source} has no split {split!r} (splits: {list(loaded)})")
    return dataset, {"hub_id": str(source), "revision": hub_revision or "main", "sha": commit}


def resolve_hub_commit(hub_id: str, revision: str | None) -> str | None:
    """The commit SHA that ``revision`` (``None``: the default branch) of the Hub dataset
    ``hub_id`` resolves to, so that a build records exactly which data it read.

    Returns ``None`` (and logs a warning) when it cannot be resolved, e.g. offline with the
    dataset in the local cache: the build then records no commit. Any failure counts (offline
    mode, no network, errors of whichever HTTP client ``huggingface_hub`` uses): resolving is a
    best effort, and a source that does not exist fails next, when its rows are read.
    """
    from huggingface_hub import HfApi

    try:
        return HfApi().dataset_info(hub_id, revision=revision).sha
    except Exception as error:  # a best effort: see the docstring
        logger.warning(
            "could not resolve the commit of Hub dataset %s (%s); the build records none",
            hub_id,
            error,
        )
        return None


def drop_rows(
    dataset: datasets.Dataset,
    problems: Iterable[tuple[int, str, str]],
    report: SourceReport,
    *,
    strict: bool,
    what: str = "a missing or unreadable image",
    unit: str = "row",
    fix: str = "fix the source",
) -> datasets.Dataset:
    """Drop the rows ``problems`` names, or fail on the first one with ``strict=True``.

    ``problems`` yields ``(position, location, problem)`` in row order, at most once a row:
    ``location`` says where for messages (``"row 3, column 'caption'"``), ``problem`` is the short
    name counted in ``report.problems`` (``"missing_caption"``). The dropped rows are summarised in
    ``report.notes`` (``"dropped 2 row(s) with {what} (first: ...)"``); with ``strict=True`` the
    first one raises :class:`~bindsplit_datasets.errors.BindsplitError` naming ``fix`` instead.
    ``problems`` is read lazily, so a strict check stops at the first bad row.
    """
    bad: list[int] = []
    first: str | None = None
    for position, location, problem in problems:
        where = f"{location}: {problem.replace('_', ' ')}"
        if strict:
            raise BindsplitError(f"{where}; {fix}, or build without --strict to skip such {unit}s")
        report.problems[problem] += 1
        first = first or where
        bad.append(position)
    if not bad:
        return dataset
    report.notes.append(f"dropped {len(bad)} {unit}(s) with {what} (first: {first})")
    dropped = set(bad)
    return dataset.select([i for i in range(len(dataset)) if i not in dropped]).flatten_indices()


def _first_problems(
    rows: Iterable[Mapping[str, Any]],
    columns: Sequence[str],
    problem_of: Callable[[Any], str | None],
) -> Iterator[tuple[int, str, str]]:
    """``(position, location, problem)`` of each row's first cell in ``columns`` with a problem."""
    for position, row in enumerate(rows):
        for column in columns:
            problem = problem_of(row[column])
            if problem is not None:
                yield position, f"row {position}, column {column!r}", problem
                break


def _caption_problem(text: Any) -> str | None:
    missing = text is None or (isinstance(text, str) and not text.strip())
    return "missing_caption" if missing else None


def _long_caption(text: Any) -> str | None:
    return "long_caption" if isinstance(text, str) and len(text) > MAX_CAPTION_CHARS else None


def check_captions(
    dataset: datasets.Dataset,
    columns: Sequence[str],
    report: SourceReport,
    *,
    strict: bool,
) -> datasets.Dataset:
    """Drop the rows with a missing caption (``None``, or empty after stripping) in ``columns``,
    then those with a caption longer than :data:`~bindsplit_datasets.names.MAX_CAPTION_CHARS`:
    the one check every source's captions go through before anything parses or matches them.

    A row without a caption cannot be labelled (its bindings are unknown, not absent), so it is
    never kept as ``none``; a longer caption is no benchmark caption (one hostile record must not
    stall a build). Each dropped row is counted in ``report.problems`` (``missing_caption``,
    ``long_caption``) and summarised in ``report.notes`` (the first row, and the limit); with
    ``strict=True`` the first one raises :class:`~bindsplit_datasets.errors.BindsplitError`.
    """
    captions = dataset.select_columns(list(columns)).to_dict()
    rows = ({c: captions[c][i] for c in columns} for i in range(len(dataset)))
    problems = _first_problems(rows, columns, _caption_problem)
    dataset = drop_rows(
        dataset, problems, report, strict=strict, what="a missing (None or empty) caption"
    )
    limit = f"{MAX_CAPTION_CHARS:,} characters"
    rows = iter(dataset.select_columns(list(columns)).with_format(None))
    problems = _first_problems(rows, columns, _long_caption)
    fix = f"shorten or remove it (BindSplit reads captions of at most {limit})"
    return drop_rows(
        dataset, problems, report, strict=strict, what=f"a caption over {limit}", fix=fix
    )


def image_problem(value: Any) -> str | None:
    """``None`` if ``value`` (an undecoded ``datasets.Image`` cell: ``{"bytes", "path"}``) holds a
    decodable image, otherwise the problem: ``"missing_image"`` or ``"unreadable_image"``."""
    from PIL import Image as PILImage

    if value is None or (not value.get("bytes") and not value.get("path")):
        return "missing_image"
    if not value.get("bytes") and not Path(value["path"]).is_file():
        return "missing_image"
    try:
        image = PILImage.open(io.BytesIO(value["bytes"]) if value.get("bytes") else value["path"])
        with image:
            image.draft("RGB", (64, 64))  # JPEG: decode at reduced scale, still reads every byte
            image.load()
    except Exception:  # PIL raises many types for corrupt data; each means "unreadable"
        return "unreadable_image"
    return None


def check_images(
    dataset: datasets.Dataset,
    columns: Sequence[str],
    report: SourceReport,
    *,
    strict: bool,
    progress: bool = True,
) -> datasets.Dataset:
    """Decode every image of ``columns``; drop the rows with a missing or unreadable image.

    ``progress`` shows a progress bar when the output is a terminal.

    Each dropped row is counted in ``report.problems`` (``missing_image``/``unreadable_image``)
    and summarised in ``report.notes``; with ``strict=True`` the first one raises
    :class:`~bindsplit_datasets.errors.BindsplitError` instead.
    """
    raw = dataset.select_columns(list(columns))
    for column in columns:
        raw = raw.cast_column(column, datasets.Image(decode=False))
    rows = progress_bar(
        raw, total=len(raw), desc="checking images", unit="row", disable=not progress
    )
    problems = _first_problems(rows, columns, image_problem)
    return drop_rows(dataset, problems, report, strict=strict)
