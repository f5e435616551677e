"""Views of the leaderboard Space over several boards (:func:`~.leaderboard_view.board`): the
models across benchmarks (:func:`across_benchmarks`) and one benchmark's binding kinds side by
side (:func:`kinds_side_by_side`).

Across benchmarks, a model gets its mean ``unseen`` accuracy, its mean gap (seen minus unseen)
and a Borda rank, each over the benchmarks it has (one board per benchmark, for one reference
corpus and binding kind, so that each is one build):

- Borda (:func:`borda_scores`): on each benchmark with two models or more, a model scores the
  share of the other models whose accuracy on :data:`BORDA_CONFIG` it beats, a tie counting
  half; its Borda score is the mean of those shares over its benchmarks. A benchmark it lacks
  counts neither for nor against it (its number of benchmarks is shown beside), and one it has
  alone ranks nothing.
- Ranks (:func:`borda_ranks`): by Borda score, best first; equal scores share a rank and the next
  rank skips ("1, 1, 3"), listed by model name; a model without a score has no rank and comes
  last.
- Means: of the accuracies and gaps in points over the model's benchmarks, with ``n`` the
  samples summed. A mean has no interval: the benchmarks differ in samples and difficulty, and
  each benchmark's accuracy is shown beside with its own interval and n.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .intervals import GAP_LABELS
from .leaderboard_cells import Table, cell_text, count_column
from .leaderboard_view import Board, benchmarks, binding_kinds, board
from .results import METRIC_LABELS, REFERENCE_CONFIG

__all__ = [
    "ACROSS_COLUMNS",
    "BORDA_CONFIG",
    "Across",
    "across_benchmarks",
    "borda_ranks",
    "borda_scores",
    "kinds_side_by_side",
]

#: The configuration the Borda rank and the mean accuracy are computed on.
BORDA_CONFIG = "unseen"
#: The gap the cross-benchmark view averages (seen minus unseen).
ACROSS_GAP = "gap"
#: The columns of the cross-benchmark view before the benchmarks' own.
ACROSS_COLUMNS: tuple[str, ...] = (
    "rank",
    "model",
    "borda",
    "benchmarks",
    BORDA_CONFIG,
    count_column(BORDA_CONFIG),
    ACROSS_GAP,
    count_column(ACROSS_GAP),
)
#: How far apart two numbers must be to differ (accuracies are stored fractions, not counts).
_TIE = 1e-9


def borda_scores(accuracies: Mapping[str, float]) -> dict[str, float]:
    """One benchmark's Borda shares: per model, the share of the other models it beats, a tie
    counting half; nothing for a benchmark of fewer than two models.

    >>> borda_scores({"a": 0.9, "b": 0.7, "c": 0.7, "d": 0.5})
    {'a': 1.0, 'b': 0.5, 'c': 0.5, 'd': 0.0}
    """
    others = len(accuracies) - 1
    if others < 1:
        return {}
    return {
        model: sum(
            1.0 if value - other > _TIE else 0.5 if abs(value - other) <= _TIE else 0.0
            for name, other in accuracies.items()
            if name != model
        )
        / others
        for model, value in accuracies.items()
    }


def borda_ranks(scores: Mapping[str, float | None]) -> dict[str, int | None]:
    """Ranks by score, best first: equal scores share a rank and the next skips ("1, 1, 3");
    None for a model without a score. In order: by rank, then model name, unranked last.

    >>> borda_ranks({"b": 0.5, "a": 0.5, "c": 1.0, "d": None})
    {'c': 1, 'a': 2, 'b': 2, 'd': None}
    """
    scored = {model: score for model, score in scores.items() if score is not None}
    ranks: dict[str, int | None] = {
        model: 1 + sum(other - score > _TIE for other in scored.values())
        for model, score in scored.items()
    }
    ordered = sorted(ranks, key=lambda model: (ranks[model], model))
    return {model: ranks[model] for model in ordered} | {
        model: None for model in sorted(scores) if model not in scored
    }


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _total(counts: Sequence[int | None]) -> int | None:
    return None if not counts or None in counts else sum(c for c in counts if c is not None)


@dataclass(frozen=True)
class Across:
    """The models across benchmarks: ``rows`` (one per model, in rank order: ``rank``,
    ``model``, ``borda``, ``benchmarks`` (how many it has), the mean ``unseen`` accuracy and
    mean ``gap`` with their summed ``unseen_n`` / ``gap_n`` and how many benchmarks each mean
    covers, and per benchmark its accuracy on :data:`BORDA_CONFIG` with interval, n and flag);
    ``benchmarks``: those ranked; ``left_out``: those that are not, and why; ``note``: how the
    rank and the means are made."""

    metric: str
    rows: list[dict[str, Any]]
    benchmarks: list[str]
    left_out: dict[str, str]
    note: str

    def table(self) -> Table:
        """The view as the Space shows it: :data:`ACROSS_COLUMNS`, then per ranked benchmark
        its accuracy on :data:`BORDA_CONFIG` with interval and flag (headed
        ``"{benchmark}: unseen"``)."""
        columns = [*ACROSS_COLUMNS, *self.benchmarks]
        values, texts, flagged = [], [], []
        for row in self.rows:
            values.append(
                [_rounded(row.get(column), 3 if column == "borda" else 1) for column in columns]
            )
            texts.append([self._text(row, column) for column in columns])
            flagged.append(
                [
                    column in self.benchmarks
                    and row[column] is not None
                    and row[f"{column}:flag"] is not None
                    for column in columns
                ]
            )
        headers = [*ACROSS_COLUMNS, *(f"{name}: {BORDA_CONFIG}" for name in self.benchmarks)]
        return Table(headers, values, texts, flagged)

    def _text(self, row: Mapping[str, Any], column: str) -> str:
        value = row.get(column)
        if column in self.benchmarks:
            return cell_text(
                value, row[f"{column}:low"], row[f"{column}:high"], row[f"{column}:flag"]
            )
        if value is None:
            return "-"
        if column == "borda":
            return f"{value:.2f}"
        if column in (BORDA_CONFIG, ACROSS_GAP):
            over = row[f"{column}:benchmarks"]
            share = f" ({over} of {row['benchmarks']})" if over != row["benchmarks"] else ""
            return f"{value:.1f}{share}"
        return f"{value:,}" if isinstance(value, int) else str(value)


def _rounded(value: Any, digits: int = 1) -> Any:
    return round(value, digits) if isinstance(value, float) else value


def across_benchmarks(
    records: Sequence[Mapping[str, Any]],
    metric: str = "i2t",
    *,
    reference: str | None = None,
    kind: str | None = None,
    family: Sequence[str] | None = None,
) -> Across:
    """Every model of ``records`` across the benchmarks it has (module docstring), for one
    ``reference`` corpus, binding ``kind`` and the model ``family`` s (None: all)."""
    boards: dict[str, Board] = {}
    left_out: dict[str, str] = {}
    for name in benchmarks(records):
        found = board(records, name, metric, reference=reference, family=family, kind=kind)
        if BORDA_CONFIG in found.rows:
            boards[name] = found
        else:
            left_out[name] = found.empty.get(BORDA_CONFIG) or found.note
    entries: dict[str, dict[str, dict[str, Any]]] = {}  # model -> benchmark -> its entry
    shares: dict[str, list[float]] = {}
    for name, found in boards.items():
        accuracies = {row["model"]: row["accuracy"] for row in found.rows[BORDA_CONFIG]}
        for label, share in borda_scores(accuracies).items():
            shares.setdefault(label, []).append(share)
        for entry in found.models:
            entries.setdefault(entry["model"], {})[name] = entry
    ranks = borda_ranks({label: _mean(shares.get(label, [])) for label in entries})
    rows = []
    for model, rank in ranks.items():
        per = entries[model]
        row: dict[str, Any] = {
            "rank": rank,
            "model": model,
            "borda": _mean(shares.get(model, [])),
            "benchmarks": sum(m[BORDA_CONFIG] is not None for m in per.values()),
        }
        for column in (BORDA_CONFIG, ACROSS_GAP):
            having = [m for m in per.values() if m[column] is not None]
            row[column] = _mean([m[column] for m in having])
            row[count_column(column)] = _total([m[count_column(column)] for m in having])
            row[f"{column}:benchmarks"] = len(having)
        for name in boards:
            cell = per.get(name, {})
            row[name] = cell.get(BORDA_CONFIG)
            for part in ("low", "high", "flag"):
                row[f"{name}:{part}"] = cell.get(f"{BORDA_CONFIG}_{part}")
        rows.append(row)
    return Across(metric, rows, list(boards), left_out, _across_note(metric, left_out))


def _across_note(metric: str, left_out: Mapping[str, str]) -> str:
    label = METRIC_LABELS[metric]
    note = (
        f"Borda rank on {BORDA_CONFIG} {label} accuracy over the benchmarks each model has: on "
        "each benchmark with two models or more, a model scores the share of the other models "
        "it beats (a tie counts half); borda is the mean of its shares (a benchmark it lacks "
        "counts neither for nor against it; benchmarks says how many it has); equal scores "
        f"share a rank (1, 1, 3). {BORDA_CONFIG} and {ACROSS_GAP} "
        f"({GAP_LABELS[ACROSS_GAP]}): means in points over the model's benchmarks "
        "(how many, where fewer), with n the samples summed; a mean over benchmarks has no "
        "interval (their samples differ in number and difficulty): each benchmark's accuracy "
        "is beside it with its own"
    )
    if left_out:
        note += "; left out: " + "; ".join(f"{name} ({why})" for name, why in left_out.items())
    return note


#: What the side-by-side view shows of each binding kind's board, from a model's entry.
KIND_COLUMNS: tuple[str, ...] = (
    "rank",
    REFERENCE_CONFIG,
    BORDA_CONFIG,
    count_column(BORDA_CONFIG),
    ACROSS_GAP,
)


def kinds_side_by_side(
    records: Sequence[Mapping[str, Any]],
    benchmark: str,
    metric: str = "i2t",
    *,
    reference: str | None = None,
    family: Sequence[str] | None = None,
) -> tuple[Table, list[str]]:
    """One benchmark's binding kinds side by side: one line per model, and per kind (each its
    own build, ranked apart) the model's ``full`` rank, ``full`` and ``unseen`` accuracies
    with interval, ``unseen`` n and gap, headed ``"{kind}: {column}"``; and one line per kind
    that has no board, saying why. A benchmark of one kind gives one kind's columns."""
    boards = {
        kind: board(records, benchmark, metric, reference=reference, family=family, kind=kind)
        for kind in binding_kinds(records, benchmark)
    }
    notes = [f"{kind}: {found.note}" for kind, found in boards.items() if not found.models]
    shown = {kind: found for kind, found in boards.items() if found.models}
    models = list(dict.fromkeys(m["model"] for found in shown.values() for m in found.models))
    headers = ["model", *(f"{kind}: {column}" for kind in shown for column in KIND_COLUMNS)]
    values, texts, flagged = [], [], []
    for model in models:
        line_values: list[Any] = [model]
        line_texts, line_flags = [model], [False]
        for found in shown.values():
            entry = next((m for m in found.models if m["model"] == model), None)
            for column in KIND_COLUMNS:
                value = None if entry is None else entry.get(column)
                line_values.append(_rounded(value))
                if entry is None or column in ("rank", count_column(BORDA_CONFIG)):
                    line_texts.append("-" if value is None else f"{value:,}")
                    line_flags.append(False)
                    continue
                flag = entry.get(f"{column}_flag")
                line_texts.append(
                    cell_text(
                        value,
                        entry.get(f"{column}_low"),
                        entry.get(f"{column}_high"),
                        flag,
                        missing=entry.get(f"{column}_why") or "-",
                    )
                )
                line_flags.append(value is not None and flag is not None)
        values.append(line_values)
        texts.append(line_texts)
        flagged.append(line_flags)
    return Table(headers, values, texts, flagged), notes
