"""Benchmarks as data: the typed form of a benchmark spec file, read and checked.

A benchmark is declared by one YAML (or JSON) file: where its rows come from (a Hub id with a
pinned revision and split, and/or a local layout), which columns hold its id, images and captions,
the role of every caption column (positive, hard positive, negative), its categories, how images
and captions pair, its licence, image sources, citation, the paper's figures and the name of its
BindSplit dataset on the Hub. The package ships one file per benchmark in ``benchmarks/specs/``
(:func:`shipped_specs`); ``bindsplit build custom --spec FILE`` reads a user's file in the same
format (:func:`read_spec`).

The file format (every key not listed is refused, so a typo never passes silently)::

    name: winoground                 # registry name: letters, digits, _ . -
    pretty_name: Winoground          # on cards and leaderboards (default: name)
    aliases: []                      # other names accepted wherever name is
    adapter: null                    # module of benchmarks/ whose code reads the source
    source:
      hub_id: facebook/winoground    # the canonical Hub dataset, or null
      revision: b400e1...            # pinned revision of hub_id (null: the default branch)
      split: test                    # split of the Hub dataset that holds the benchmark
      layout: null                   # the local layout(s) read, in words (cards, docs)
    columns:
      id: id                         # the source's unique row id, or null (rows are numbered)
      images: [image_0, image_1]
      captions:                      # in this order: positives, hard positives, negatives
        positive: [caption_0, caption_1]   # one per image: caption i describes image i
        hard_positive: []            # more captions true of image 0, worded differently
        negative: []                 # captions of image 0 that are false
      categories: [collapsed_tag]    # per-category breakdowns ("a/b" of several)
      required: null                 # the columns a source must have (default: all above)
    pairing: index                   # image i <-> positive caption i; see PAIRINGS
    license: other                   # the annotations' licence (a Hub licence id)
    image_sources: [...]             # where the images come from, under which terms
    citation: |                      # BibTeX (omitted: none; shipped: the BindSplit paper's)
      @inproceedings{...}
    paper_figures: {}                # the BindSplit paper's figures, keyed like the composition
    hub_name: winoground             # repository name of its BindSplit dataset (bindsplit/NAME)
    leakage_guard: true              # refuse a reference holding the positive captions
    schema:                          # what the spec's column names rest on (docs, cards)
      verified: ...
      assumed: ...

A spec's caption columns are the build's caption columns in the contract of
:class:`~bindsplit_datasets.builds.manifest.BuildColumns`: the positives (image ``i`` pairs with
positive ``i``), then the hard positives, then the negatives (both of image 0).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import BindsplitFileNotFoundError, SpecError
from ..input_files import check_input_file
from ..names import PAPER_CITATION, is_hub_id, is_path_name

__all__ = [
    "PAIRINGS",
    "SPEC_SUFFIXES",
    "BenchmarkSpec",
    "CaptionRoles",
    "SpecSource",
    "parse_spec",
    "read_spec",
    "shipped_spec",
    "shipped_specs",
    "spec_folder",
]

#: How images and captions pair. ``index``: image ``i`` pairs with positive caption ``i`` (the
#: one convention every build is stored in); ``solution``: the source stores the pairing
#: elsewhere (VisMin's ``sim_solution.csv``) and its adapter stores the rows by ``index``.
PAIRINGS: tuple[str, ...] = ("index", "solution")
#: File name endings of spec files.
SPEC_SUFFIXES: tuple[str, ...] = (".yaml", ".yml", ".json")
#: Written at the end of every spec error.
_FORMAT_HINT = "see the spec format in bindsplit_datasets/benchmarks/spec.py"


@dataclass(frozen=True)
class CaptionRoles:
    """The caption columns by role, each in its order."""

    positive: tuple[str, ...]
    hard_positive: tuple[str, ...] = ()
    negative: tuple[str, ...] = ()

    @property
    def columns(self) -> tuple[str, ...]:
        """Every caption column in the build's order: positives, hard positives, negatives."""
        return (*self.positive, *self.hard_positive, *self.negative)

    def role(self, column: str) -> str:
        """``"positive"``, ``"hard_positive"`` or ``"negative"``."""
        for name in ("positive", "hard_positive", "negative"):
            if column in getattr(self, name):
                return name
        raise KeyError(column)


@dataclass(frozen=True)
class SpecSource:
    """Where a benchmark's rows come from."""

    hub_id: str | None = None
    revision: str | None = None
    split: str = "test"
    layout: str | None = None


@dataclass(frozen=True)
class BenchmarkSpec:
    """One benchmark, declared (module docstring). ``path`` is the file it was read from."""

    name: str
    pretty_name: str
    source: SpecSource
    image_columns: tuple[str, ...]
    captions: CaptionRoles
    id_column: str | None = None
    category_columns: tuple[str, ...] = ()
    required_columns: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    adapter: str | None = None
    pairing: str = "index"
    license: str = "other"
    image_sources: tuple[str, ...] = ()
    citation: str = ""
    paper_figures: Mapping[str, float] = field(default_factory=dict)
    hub_name: str = ""
    leakage_guard: bool = True
    verified: str = ""
    assumed: str = ""
    path: str = ""

    @property
    def caption_columns(self) -> tuple[str, ...]:
        return self.captions.columns

    def class_variables(self) -> dict[str, Any]:
        """The class variables of :class:`~bindsplit_datasets.benchmarks.base.BenchmarkAdapter`
        this spec declares (what an adapter class takes from its spec)."""
        return {
            "spec": self,
            "name": self.name,
            "pretty_name": self.pretty_name,
            "aliases": self.aliases,
            "id_column": self.id_column,
            "hub_id": self.source.hub_id,
            "hub_revision": self.source.revision,
            "hub_split": self.source.split,
            "image_columns": self.image_columns,
            "caption_columns": self.caption_columns,
            "hard_positive_columns": self.captions.hard_positive,
            "required_columns": self.required_columns,
            "category_columns": self.category_columns,
            "license": self.license,
            "image_sources": self.image_sources,
            "citation": self.citation,
            "paper_figures": dict(self.paper_figures),
            "leakage_guard": self.leakage_guard,
        }


# ------------------------------------------------------------------------------------ reading
def spec_folder() -> Path:
    """The folder of the shipped spec files."""
    return Path(str(resources.files(__package__) / "specs"))


@cache
def shipped_specs() -> dict[str, BenchmarkSpec]:
    """Every shipped spec by name, in file name order (read once)."""
    specs: dict[str, BenchmarkSpec] = {}
    for path in sorted(spec_folder().iterdir()):
        if path.suffix in SPEC_SUFFIXES:
            spec = read_spec(path, shipped=True)
            if spec.name in specs:
                raise SpecError(
                    f"{path}: benchmark {spec.name!r} is declared twice; {_FORMAT_HINT}"
                )
            specs[spec.name] = spec
    return specs


def shipped_spec(name: str) -> BenchmarkSpec:
    """The shipped spec of ``name`` (a registry name, not an alias).

    Raises:
        SpecError: no shipped spec declares ``name`` (an adapter module naming a missing file).
    """
    try:
        return shipped_specs()[name]
    except KeyError:
        raise SpecError(
            f"no shipped benchmark spec declares {name!r} (in {spec_folder()}); add "
            f"specs/{name}.yaml"
        ) from None


def read_spec(path: str | os.PathLike[str], *, shipped: bool = False) -> BenchmarkSpec:
    """The spec in the file ``path`` (YAML, or JSON for ``.json``), checked (:func:`parse_spec`).

    Raises:
        BindsplitFileNotFoundError: no such file.
        SpecError: not a readable spec file, or not a valid spec (the message names the field).
    """
    path = check_input_file(path, "benchmark spec")
    if not path.is_file():
        raise BindsplitFileNotFoundError(
            f"benchmark spec {path} not found; pass a {'/'.join(SPEC_SUFFIXES)} file"
        )
    try:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            data = json.loads(text)
        else:
            import yaml

            data = yaml.safe_load(text)
    except (UnicodeDecodeError, ValueError, ImportError) as error:
        raise SpecError(f"{path} is not a readable spec file ({error}); {_FORMAT_HINT}") from None
    except Exception as error:  # yaml's own errors (YAMLError) carry the line and column
        raise SpecError(f"{path} is not valid YAML ({error}); {_FORMAT_HINT}") from None
    return parse_spec(data, str(path), shipped=shipped)


class _Fields:
    """Reads one mapping of a spec file, each value checked; remembers which keys were read so
    that :meth:`done` refuses every other key."""

    def __init__(self, data: Any, where: str, prefix: str) -> None:
        self.where, self.prefix = where, prefix
        if not isinstance(data, Mapping):
            self.fail("", f"must be a mapping of field to value, got {type(data).__name__}")
        self.data: Mapping[str, Any] = data
        self.read: set[str] = set()

    def fail(self, key: str, problem: str, fix: str = "") -> None:
        name = f"{self.prefix}{key}" if key else self.prefix.rstrip(".") or "the file"
        raise SpecError(f"{self.where}: field {name!r} {problem}; {fix or _FORMAT_HINT}")

    def get(self, key: str, default: Any = None, *, required: bool = False) -> Any:
        self.read.add(key)
        if key not in self.data or self.data[key] is None:
            if required:
                self.fail(key, "is missing", f"add it ({_FORMAT_HINT})")
            return default
        return self.data[key]

    def text(self, key: str, default: str | None = None, *, required: bool = False) -> Any:
        value = self.get(key, None, required=required)
        if value is None:
            return default
        if not isinstance(value, str) or not value.strip():
            self.fail(key, f"must be a non-empty text, got {value!r}")
        return value

    def names(self, key: str, *, required: bool = False) -> tuple[str, ...]:
        value = self.get(key, [], required=required)
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.fail(key, f"must be a list of column or file names, got {value!r}")
        if len(set(value)) != len(value):
            self.fail(key, f"names a column twice: {value!r}")
        return tuple(value)

    def flag(self, key: str, default: bool) -> bool:
        value = self.get(key, default)
        if not isinstance(value, bool):
            self.fail(key, f"must be true or false, got {value!r}")
        return bool(value)

    def section(self, key: str, *, required: bool = False) -> _Fields:
        return _Fields(self.get(key, {}, required=required), self.where, f"{self.prefix}{key}.")

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.read)
        if unknown:
            known = ", ".join(sorted(self.read))
            self.fail(
                unknown[0],
                "is not a field of a benchmark spec",
                f"remove it or correct its name (fields here: {known})",
            )


def parse_spec(data: Any, where: str = "the spec", *, shipped: bool = False) -> BenchmarkSpec:
    """The spec ``data`` (a parsed spec file) describes, checked: every field's type, the
    caption roles (one positive per image), no column with two roles, no unknown key.

    ``shipped`` also requires what a shipped benchmark must declare: its licence, citation and
    Hub name. ``where`` names the file in messages.

    Raises:
        SpecError: naming ``where``, the field and the fix.
    """
    top = _Fields(data, where, "")
    name = top.text("name", required=True)
    if not is_path_name(name):
        top.fail("name", f"{name!r} is not a benchmark name", "use letters, digits, _ . and -")
    source = top.section("source", required=shipped)
    spec_source = SpecSource(
        hub_id=source.text("hub_id"),
        revision=source.text("revision"),
        split=source.text("split", "test"),
        layout=source.text("layout"),
    )
    if spec_source.hub_id is not None and not is_hub_id(spec_source.hub_id):
        source.fail("hub_id", f"{spec_source.hub_id!r} is not a Hub dataset id", "write org/name")
    source.done()
    columns = top.section("columns", required=True)
    images = columns.names("images", required=True)
    captions = columns.section("captions", required=True)
    roles = CaptionRoles(
        positive=captions.names("positive", required=True),
        hard_positive=captions.names("hard_positive"),
        negative=captions.names("negative"),
    )
    captions.done()
    if len(roles.positive) != len(images):
        captions.fail(
            "positive",
            f"has {len(roles.positive)} column(s) for {len(images)} image column(s)",
            "list one positive caption per image (caption i describes image i); a further true "
            "caption of image 0 is a hard_positive",
        )
    shared = sorted(
        set(roles.columns) & set(images) | {c for c in roles.columns if roles.columns.count(c) > 1}
    )
    if shared:
        columns.fail("captions", f"gives column(s) {shared} two roles", "give each column one role")
    id_column = columns.text("id")
    categories = columns.names("categories")
    declared = tuple(
        dict.fromkeys([*([id_column] if id_column else []), *images, *roles.columns, *categories])
    )
    required = columns.names("required") or declared
    missing = [c for c in (*images, *roles.columns) if c not in required]
    if missing:
        columns.fail("required", f"leaves out the image/caption column(s) {missing}")
    columns.done()
    pairing = top.text("pairing", "index")
    if pairing not in PAIRINGS:
        top.fail("pairing", f"is {pairing!r}", f"use one of {', '.join(PAIRINGS)}")
    figures = top.get("paper_figures", {})
    if not isinstance(figures, Mapping) or not all(
        isinstance(k, str) and isinstance(v, int | float) and not isinstance(v, bool)
        for k, v in figures.items()
    ):
        top.fail("paper_figures", f"must map figure names to numbers, got {figures!r}")
    schema = top.section("schema")
    verified, assumed = schema.text("verified", ""), schema.text("assumed", "")
    schema.done()
    spec = BenchmarkSpec(
        name=name,
        pretty_name=top.text("pretty_name", name),
        source=spec_source,
        image_columns=images,
        captions=roles,
        id_column=id_column,
        category_columns=categories,
        required_columns=required,
        aliases=top.names("aliases"),
        adapter=top.text("adapter"),
        pairing=pairing,
        license=top.text("license", "other", required=shipped),
        image_sources=top.names("image_sources"),
        citation=_citation(top, shipped),
        paper_figures=dict(figures),
        hub_name=top.text("hub_name", name.replace("_", "-"), required=shipped),
        leakage_guard=top.flag("leakage_guard", True),
        verified=verified,
        assumed=assumed,
        path=where,
    )
    top.done()
    return spec


def _citation(top: _Fields, shipped: bool) -> str:
    """The ``citation`` field: BibTeX. Omitted: in a shipped spec, the BindSplit paper's (a
    benchmark of the paper itself, the synthetic world); in a user's spec, none."""
    citation = top.text("citation")
    if citation is None:
        return PAPER_CITATION if shipped else ""
    if not citation.lstrip().startswith("@"):
        top.fail("citation", "is not a BibTeX entry", "give the benchmark's BibTeX, starting '@'")
    return str(citation).strip()
