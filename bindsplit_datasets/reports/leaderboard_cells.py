"""How the leaderboard Space writes its numbers: an accuracy beside its interval and flag
(:func:`interval_text`, :func:`cell_text`), the search over model names (:func:`matches`), the
column picker (:func:`column_groups`, :func:`visible_columns`) and the typed table a view hands to
the app (:class:`Table`: the numbers a click on a header sorts, beside the text each cell shows).

An interval is written as the distance of its bounds from the value, in points: ``84.3 ±4.1``
where both sides round alike, else ``88.3 +5.9/-10.5`` (a Wilson interval near 100% is not
symmetric, and a ``±`` would claim values above 100). A value on few samples, or a degenerate
count (:func:`~.intervals.sample_flag`), ends in :data:`~.intervals.SMALL_FLAG`; a configuration
without samples says so instead of a number.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .intervals import NO_SAMPLES, SMALL_FLAG

__all__ = [
    "ALWAYS_SHOWN",
    "COUNT_SUFFIX",
    "N_GROUP",
    "Table",
    "cell_text",
    "column_groups",
    "count_column",
    "interval_text",
    "matches",
    "visible_columns",
]

#: The columns every view of a table keeps (the picker does not offer them).
ALWAYS_SHOWN: tuple[str, ...] = ("rank", "model")
#: How a value column's sample count column is named: ``unseen`` -> ``unseen_n``.
COUNT_SUFFIX = "_n"
#: The picker's entry that shows or hides every sample count column at once.
N_GROUP = "n"
#: What a cell without a value shows when nothing more specific is known.
NO_VALUE = "-"


def count_column(column: str) -> str:
    """The column of ``column``'s sample count: ``count_column("unseen") == "unseen_n"``."""
    return f"{column}{COUNT_SUFFIX}"


def _side(distance: float) -> str:
    return f"{abs(distance):.1f}"


def interval_text(value: float, low: float | None, high: float | None) -> str:
    """A value in points with its interval as distances from it (one decimal).

    >>> interval_text(84.31, 80.2, 88.39), interval_text(88.3, 77.8, 94.2)
    ('84.3 ±4.1', '88.3 +5.9/-10.5')
    >>> interval_text(50.0, None, None), interval_text(-10.0, -30.0, 10.0)
    ('50.0', '-10.0 ±20.0')
    """
    shown = f"{value:.1f}"
    if low is None or high is None:
        return shown
    up, down = _side(high - value), _side(value - low)
    return f"{shown} ±{up}" if up == down else f"{shown} +{up}/-{down}"


def cell_text(
    value: float | None,
    low: float | None = None,
    high: float | None = None,
    flag: str | None = None,
    *,
    missing: str = NO_VALUE,
) -> str:
    """What a value cell shows: :func:`interval_text`, then :data:`~.intervals.SMALL_FLAG` when
    ``flag`` says the value rests on a small or degenerate count; ``no samples`` where ``flag``
    says there were none; else ``missing`` for a cell without a value.

    >>> cell_text(100.0, 88.6, 100.0, "small n"), cell_text(None, flag="no samples")
    ('100.0 +0.0/-11.4 *', 'no samples')
    >>> cell_text(None, missing="no unseen samples"), cell_text(75.0, 70.0, 80.0)
    ('no unseen samples', '75.0 ±5.0')
    """
    if value is None:
        return NO_SAMPLES if flag == NO_SAMPLES else missing
    text = interval_text(value, low, high)
    return f"{text} {SMALL_FLAG}" if flag is not None else text


def matches(model: str, query: str | None) -> bool:
    """Whether a model's name answers a search: every word of ``query`` occurs in it, ignoring
    case (an empty query answers everything).

    >>> matches("openai/clip-vit-base-patch32", "CLIP b32"), matches("org/negclip", "siglip")
    (False, False)
    >>> matches("openai/clip-vit-base-patch32", "clip patch32"), matches("x", "  ")
    (True, True)
    """
    name = model.lower()
    return all(word in name for word in (query or "").lower().split())


def column_groups(columns: Sequence[str]) -> list[str]:
    """What the column picker offers for a table with ``columns``: each column but the
    :data:`ALWAYS_SHOWN` ones and the sample counts, in order, then :data:`N_GROUP` (all the
    sample counts) if there are any.

    >>> column_groups(["rank", "model", "full", "full_n", "gap", "gap_n", "scored_by"])
    ['full', 'gap', 'scored_by', 'n']
    """
    counts = {count_column(column) for column in columns}
    groups = [c for c in columns if c not in ALWAYS_SHOWN and c not in counts]
    return groups + ([N_GROUP] if counts & set(columns) else [])


def visible_columns(columns: Sequence[str], picked: Iterable[str] | None) -> list[str]:
    """The columns a view shows when the picker holds ``picked`` (None: everything): the
    :data:`ALWAYS_SHOWN` ones, each picked column, and a sample count where both its column and
    :data:`N_GROUP` are picked.

    >>> columns = ["rank", "model", "full", "full_n", "gap", "gap_n"]
    >>> visible_columns(columns, ["gap", "n"]), visible_columns(columns, ["full", "gap"])
    (['rank', 'model', 'gap', 'gap_n'], ['rank', 'model', 'full', 'gap'])
    """
    if picked is None:
        return list(columns)
    chosen = set(picked)
    counted = {count_column(column): column for column in columns}
    return [
        column
        for column in columns
        if column in ALWAYS_SHOWN
        or (column in counted and counted[column] in chosen and N_GROUP in chosen)
        or (column not in counted and column in chosen)
    ]


@dataclass(frozen=True)
class Table:
    """A table as the Space shows it: ``headers``; ``values``, one row per line, the numbers (or
    text) a click on a header sorts by, None where there is none; ``texts``, what each cell
    shows; ``flagged``, the cells whose value rests on a small or degenerate count."""

    headers: list[str]
    values: list[list[Any]]
    texts: list[list[str]]
    flagged: list[list[bool]]

    def columns(self, names: Sequence[str]) -> Table:
        """The same lines with only the columns ``names``, in that order."""
        at = [self.headers.index(name) for name in names]
        return Table(
            list(names),
            [[line[i] for i in at] for line in self.values],
            [[line[i] for i in at] for line in self.texts],
            [[line[i] for i in at] for line in self.flagged],
        )

    def lines(self, keep: Sequence[bool]) -> Table:
        """The same columns with only the lines whose ``keep`` is true."""
        return Table(
            self.headers,
            [line for line, kept in zip(self.values, keep, strict=True) if kept],
            [line for line, kept in zip(self.texts, keep, strict=True) if kept],
            [line for line, kept in zip(self.flagged, keep, strict=True) if kept],
        )
