"""Reports from results records: validation and loading, text tables and leaderboards, figures,
paired significance tests and the Hub's ``model-index``.

- :mod:`.results`: the results-record schema (``validate_record``, ``load_results``, grouping).
- :mod:`.tables`: the one plain-text table renderer and the tables built on it.
- :mod:`.significance`: the paired bootstrap that decides whether two models really differ.
- :mod:`.leaderboards`: ranks per configuration and the rank moves from ``full``.
- :mod:`.figures`: grouped bar charts (needs matplotlib).
- :mod:`.model_index`: the ``model-index`` metadata of a model card.
"""

from __future__ import annotations

from .figures import FIGURE_FORMATS, panel_metrics, plot_results
from .leaderboards import RankChange, Row, format_comparison, leaderboard, rank_changes
from .results import (
    DEFAULT_CONFIGS,
    METRIC_LABELS,
    METRICS,
    group_by_benchmark,
    load_results,
    model_label,
    validate_record,
)
from .significance import PairedDifference, Separation, paired_bootstrap, separate
from .tables import format_composition, format_record_table, render_table

__all__ = [
    "DEFAULT_CONFIGS",
    "FIGURE_FORMATS",
    "METRICS",
    "METRIC_LABELS",
    "PairedDifference",
    "RankChange",
    "Row",
    "Separation",
    "format_comparison",
    "format_composition",
    "format_record_table",
    "group_by_benchmark",
    "leaderboard",
    "load_results",
    "model_label",
    "paired_bootstrap",
    "panel_metrics",
    "plot_results",
    "rank_changes",
    "render_table",
    "separate",
    "validate_record",
]
