"""VisMin (Awal et al., 2024): visual minimal-change understanding, two images and two captions per
sample that differ in one object, attribute, count or relation.

Source: the Hub dataset ``mair-lab/vismin-bench``, split ``test`` (2,084 rows), or a local Parquet
copy with the Hub's columns (``image_0``, ``text_0``, ``image_1``, ``text_1``, ``category`` and
question columns, all kept). Bindings come from the caption parser, each distinct caption parsed
once; ``text_0`` is the positive caption of the familiarity statistics.

Pairing. VisMin is a hidden-answer benchmark: a row does not say which text describes which
image. Its own evaluation computes the four scores ``T0_I0, T0_I1, T1_I0, T1_I1`` of every row and
compares them with ``solutions/sim_solution.csv`` (columns ``idx``, ``Text``, ``Image``,
``category``; ``idx`` restarts at 0 in every category), matched to the rows by position: row k of
the split with row k of the file. For 1,020 of the 2,084 rows the file says that ``text_0``
describes ``image_1`` (the row is *crossed*).

By default the adapter applies that file, shipped with the package (``data/
vismin_sim_solution.csv``, CC BY 4.0, see ``data/NOTICE``): it checks that the file belongs to the
source (as many rows, the same category in every row, ``idx`` restarting in every category),
swaps ``image_0`` and ``image_1`` of every crossed row so that ``text_i`` describes ``image_i`` in
every built row, and adds the boolean column ``pairing_crossed`` (the source row was crossed).
A source that does not match (another release) is refused. ``sim_solution=PATH``
(``--sim-solution``) applies another release's file instead; ``pairing="as-stored"``
(``--vismin-pairing as-stored``) keeps the rows as stored, assuming ``text_i`` describes
``image_i`` without any check (no ``pairing_crossed`` column); the dataset card states which.
Question columns are kept as stored.

Categories: ``"{category}/crossed"`` or ``"{category}/straight"`` for rows with
``pairing_crossed`` (so evaluation reports crossed and straight rows apart: a model whose
accuracy differs sharply between them points to a pairing problem), plain ``category``
otherwise.
"""

from __future__ import annotations

import csv
import logging
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

import datasets

from ..downloads import file_digest
from ..errors import BindsplitFileNotFoundError, SchemaError
from ..input_files import check_input_file
from ..pairing import PAIRING_COLUMN
from . import from_spec
from .base import LoadedSource, ParsedCaptionsAdapter

logger = logging.getLogger(__name__)

__all__ = [
    "OFFICIAL_SOLUTION",
    "PAIRING_COLUMN",
    "PAIRINGS",
    "SimSolution",
    "VisMin",
    "official_solution_path",
    "read_sim_solution",
]

#: Columns of ``sim_solution.csv``.
SOLUTION_COLUMNS: tuple[str, ...] = ("idx", "Text", "Image", "category")
#: Pairing modes: apply a ``sim_solution.csv`` (default), or keep the rows as stored.
PAIRINGS: tuple[str, ...] = ("solution", "as-stored")
#: The origin recorded for a ``--sim-solution`` that is not the official file.
_UNOFFICIAL = (
    "NOT the official sim_solution.csv: its SHA-256 differs from that of the official file "
    "shipped with BindSplit, so the pairing follows this file, not VisMin's release"
)
#: The official ground truth shipped with the package: file name, origin and SHA-256.
OFFICIAL_SOLUTION: dict[str, str] = {
    "file": "vismin_sim_solution.csv",
    "origin": "mair-lab/vismin-bench solutions/sim_solution.csv (CC BY 4.0, shipped unmodified)",
    "sha256": "20ce74b5e9b904d3f9de2a5e201fe34fb3bc62001ebb7a98b6f7ddeeb0847f9e",
}

_CLAUSE = re.compile(r"^T(\d)_I(\d)>T(\d)_I(\d)$")
_STRAIGHT = frozenset({(0, 0), (1, 1)})
_CROSSED = frozenset({(0, 1), (1, 0)})
_REFUSAL_FIX = (
    "pass the sim_solution.csv of the release you read with --sim-solution PATH, or build with "
    "--vismin-pairing as-stored to keep the rows as stored (the dataset card then says the "
    "pairing is unchecked)"
)


@dataclass(frozen=True)
class SimSolution:
    """A ``sim_solution.csv`` read in file order: the category of every row and whether the row
    is crossed (``text_0`` describes ``image_1``)."""

    categories: tuple[str, ...]
    crossed: tuple[bool, ...]

    def __len__(self) -> int:
        return len(self.categories)


def official_solution_path() -> Path:
    """The shipped ``vismin_sim_solution.csv`` (see ``data/NOTICE``)."""
    return Path(str(resources.files(__package__) / "data" / OFFICIAL_SOLUTION["file"]))


def _matching_pairs(expression: str) -> frozenset[tuple[int, int]]:
    """The (text, image) pairs an expression like ``"T0_I0 > T1_I0 & T1_I1 > T0_I1"`` declares
    as matching: the left side of every ``>`` clause."""
    pairs = set()
    for clause in expression.split("&"):
        match = _CLAUSE.match(re.sub(r"\s+", "", clause))
        if match is None:
            raise ValueError(f"cannot read the relation {clause.strip()!r}")
        text, image, other_text, other_image = (int(g) for g in match.groups())
        if (text == other_text) == (image == other_image):
            raise ValueError(f"the relation {clause.strip()!r} compares neither texts nor images")
        pairs.add((text, image))
    return frozenset(pairs)


def read_sim_solution(path: str | Path) -> SimSolution:
    """Read ``sim_solution.csv`` in file order.

    Raises :class:`~bindsplit_datasets.errors.SchemaError` for a missing column, an unreadable
    relation, ``Text`` and ``Image`` relations that disagree, or an ``idx`` that is not the row's
    position within its category (``idx`` restarts at 0 in every category).
    """
    path = check_input_file(path, "sim_solution file")
    if not path.is_file():
        raise BindsplitFileNotFoundError(f"sim_solution file {path} not found")
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in SOLUTION_COLUMNS if c not in (reader.fieldnames or [])]
            rows = list(reader)
    except (UnicodeDecodeError, csv.Error) as error:
        raise SchemaError(
            f"{path} is not a CSV text file ({error}); pass VisMin's sim_solution.csv "
            f"(columns {', '.join(SOLUTION_COLUMNS)})"
        ) from None
    if missing:
        raise SchemaError(
            f"{path} is not a VisMin sim_solution.csv: missing column(s) {missing}; "
            f"expected {list(SOLUTION_COLUMNS)}"
        )
    categories: list[str] = []
    crossed: list[bool] = []
    position: Counter[str] = Counter()
    for line, row in enumerate(rows, start=2):
        if any(row.get(column) is None for column in SOLUTION_COLUMNS):
            raise SchemaError(
                f"{path}, line {line}: the row has fewer than the {len(SOLUTION_COLUMNS)} columns "
                f"{', '.join(SOLUTION_COLUMNS)}; pass VisMin's sim_solution.csv unmodified"
            )
        try:
            text_pairs = _matching_pairs(row["Text"])
            image_pairs = _matching_pairs(row["Image"])
            idx = int(row["idx"])
        except ValueError as error:
            raise SchemaError(f"{path}, line {line}: {error}") from None
        if text_pairs != image_pairs or text_pairs not in (_STRAIGHT, _CROSSED):
            raise SchemaError(
                f"{path}, line {line}: the Text relation {row['Text']!r} and the Image relation "
                f"{row['Image']!r} do not describe one consistent pairing"
            )
        category = row["category"]
        if idx != position[category]:
            raise SchemaError(
                f"{path}, line {line}: idx {idx} of category {category!r} should be "
                f"{position[category]} (idx counts the rows of each category from 0, in order)"
            )
        position[category] += 1
        categories.append(category)
        crossed.append(text_pairs == _CROSSED)
    return SimSolution(tuple(categories), tuple(crossed))


def check_solution_matches(categories: Sequence[str], solution: SimSolution, where: str) -> None:
    """Raise :class:`SchemaError` unless row k of the source and row k of ``solution`` have the
    same category for every k (the official evaluation matches them by position)."""
    source_counts, solution_counts = Counter(categories), Counter(solution.categories)
    if source_counts != solution_counts:
        raise SchemaError(
            f"{where} does not belong to this source: it has rows per category "
            f"{dict(sorted(solution_counts.items()))}, the source has "
            f"{dict(sorted(source_counts.items()))}; {_REFUSAL_FIX}"
        )
    for row, (ours, theirs) in enumerate(zip(categories, solution.categories, strict=True)):
        if ours != theirs:
            raise SchemaError(
                f"{where} does not belong to this source: source row {row} has category "
                f"{ours!r}, the solution's row {row} {theirs!r} (rows are matched by position, "
                f"so their order must agree); {_REFUSAL_FIX}"
            )


def _uncross(
    batch: dict[str, list[Any]], *, image_columns: tuple[str, str]
) -> dict[str, list[Any]]:
    first, second = (batch[column] for column in image_columns)
    for offset, crossed in enumerate(batch[PAIRING_COLUMN]):
        if crossed:
            first[offset], second[offset] = second[offset], first[offset]
    return batch


@from_spec("vismin")
class VisMin(ParsedCaptionsAdapter):
    """VisMin: ``text_0``/``image_0`` and ``text_1``/``image_1`` (see the module docstring; its
    source, columns, licence and citation: ``specs/vismin.yaml``)."""

    load_options: ClassVar[tuple[str, ...]] = ("sim_solution", "pairing")

    def category(self, row: Mapping[str, Any]) -> str | None:
        """``"{category}/crossed"`` / ``"{category}/straight"`` when the row has
        ``pairing_crossed``, else ``category``."""
        category = str(row["category"])
        crossed = row.get(PAIRING_COLUMN)
        if crossed is None:
            return category
        return f"{category}/{'crossed' if crossed else 'straight'}"

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Besides the option names: a known ``pairing``, not both ``as-stored`` and a
        ``sim_solution``, and a given ``sim_solution`` read now, so that a file that is not
        VisMin's CSV is refused before the source and the reference are read."""
        super().check_options(options)
        pairing = options.get("pairing") or "solution"
        if pairing not in PAIRINGS:
            raise ValueError(
                f"unknown VisMin pairing {pairing!r}; valid pairings: {', '.join(PAIRINGS)}"
            )
        if pairing == "as-stored" and options.get("sim_solution") is not None:
            raise ValueError(
                "--vismin-pairing as-stored keeps the rows as stored, so --sim-solution would "
                "be ignored; pass one of them"
            )
        if options.get("sim_solution") is not None:
            read_sim_solution(options["sim_solution"])

    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """Read the source and apply the pairing (module docstring).

        Options: ``sim_solution`` (a ``sim_solution.csv``; default: the shipped official file),
        ``pairing`` (``"solution"``, the default, or ``"as-stored"``).
        """
        self.check_options(options)
        pairing = options.get("pairing") or "solution"
        sim_solution = options.get("sim_solution")
        dataset, identity = self.read_rows(source)
        if PAIRING_COLUMN in dataset.column_names:
            raise SchemaError(
                f"the source already has the column {PAIRING_COLUMN!r}: it looks like a built "
                "BindSplit dataset; build from the original benchmark instead"
            )
        if pairing == "as-stored":
            official = read_sim_solution(official_solution_path())
            note = (
                "pairing as stored (--vismin-pairing as-stored): text_i is assumed to describe "
                "image_i without any check; the official ground truth of "
                f"{self.hub_id} (sim_solution.csv) says that {sum(official.crossed):,} of its "
                f"{len(official):,} rows have text_0 describing image_1, so the scores of such "
                "rows measure the wrong pairs"
            )
            identity["pairing"] = {"mode": "as-stored"}
        else:
            # match before any row is dropped: the solution is positional
            path = Path(sim_solution) if sim_solution is not None else official_solution_path()
            sha256 = file_digest(path)
            if sim_solution is None and sha256 != OFFICIAL_SOLUTION["sha256"]:
                raise SchemaError(
                    f"the shipped {path} has SHA-256 {sha256}, not the official file's "
                    f"{OFFICIAL_SOLUTION['sha256']}; reinstall bindsplit-datasets"
                )
            solution = read_sim_solution(path)
            where = str(path.name) if sim_solution is not None else "the official sim_solution"
            check_solution_matches(list(dataset["category"]), solution, where)
            dataset = self._uncross(dataset, solution.crossed)
            n_crossed = sum(solution.crossed)
            is_official = sha256 == OFFICIAL_SOLUTION["sha256"]
            origin = OFFICIAL_SOLUTION["origin"] if is_official else "user file"
            note = (
                f"pairing from {path.name} ({origin}, SHA-256 {sha256[:12]}...): {n_crossed:,} of "
                f"{len(solution):,} rows have text_0 describing image_1; their image_0 and "
                "image_1 were swapped so that text_i describes image_i in every row "
                f"(column {PAIRING_COLUMN} marks them)"
            )
            if not is_official:
                note += f"; {path.name} is {_UNOFFICIAL}"
            identity["pairing"] = {
                "mode": "solution",
                "solution": path.name,
                "origin": origin,
                "sha256": sha256,
                "official": is_official,
                "crossed": n_crossed,
                "rows": len(solution),
            }
        loaded = self.checked_source(dataset, identity, strict=strict)
        loaded.report.notes.insert(0, note)
        return loaded

    def _uncross(self, dataset: datasets.Dataset, crossed: Sequence[bool]) -> datasets.Dataset:
        """``dataset`` with the ``pairing_crossed`` column and the images of crossed rows
        swapped (image cells moved as stored bytes, never decoded)."""
        dataset = dataset.add_column(PAIRING_COLUMN, list(crossed), feature=datasets.Value("bool"))
        if not any(crossed):
            return dataset
        image_features = {c: dataset.features[c] for c in self.image_columns}
        raw = dataset
        for column in image_features:
            raw = raw.cast_column(column, datasets.Image(decode=False))
        swapped = raw.map(
            _uncross,
            batched=True,
            fn_kwargs={"image_columns": tuple(self.image_columns)},
            desc="swapping crossed VisMin pairs",
        )
        for column, feature in image_features.items():
            swapped = swapped.cast_column(column, feature)
        return swapped
