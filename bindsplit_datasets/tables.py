"""Plain-text tables: the one renderer (:func:`render_table`) behind every table BindSplit
prints (composition tables of :mod:`~bindsplit_datasets.builds.cards`, results tables and
leaderboards of :mod:`~bindsplit_datasets.reports`), and :func:`percent`, how accuracies are
written in them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

__all__ = ["Align", "percent", "render_table"]

#: Left (``<``) or right (``>``) alignment of a column.
Align = Literal["<", ">"]


def render_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    align: Align | Sequence[Align] = "<",
    indent: str = "",
    rule: bool = False,
) -> str:
    """Columns padded to their widest cell and separated by two spaces, trailing spaces removed.

    Args:
        header: column titles (a table always has a header line).
        rows: cells as strings, as many per row as ``header``.
        align: ``"<"`` (left) or ``">"`` (right), for every column or one per column.
        indent: prefix of every line.
        rule: draw a line of dashes under the header.

    >>> print(render_table(("model", "n"), [("a", "10"), ("bb", "5")], align=("<", ">")))
    model   n
    a      10
    bb      5
    """
    aligns = [align] * len(header) if isinstance(align, str) else list(align)
    if len(aligns) != len(header) or any(len(row) != len(header) for row in rows):
        raise ValueError(
            f"a table of {len(header)} columns needs {len(header)} alignments and cells per row"
        )
    widths = [max(len(line[i]) for line in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        padded = (
            f"{cell:{side}{width}}" for cell, side, width in zip(cells, aligns, widths, strict=True)
        )
        return (indent + "  ".join(padded)).rstrip()

    lines = [line(header)]
    if rule:
        lines.append(indent + "  ".join("-" * width for width in widths))
    lines += [line(row) for row in rows]
    return "\n".join(lines)


def percent(value: float, *, signed: bool = False) -> str:
    """A fraction as percent with one decimal (``0.712`` -> ``71.2``; signed: ``+71.2``)."""
    return f"{100 * value:+.1f}" if signed else f"{100 * value:.1f}"
