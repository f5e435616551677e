"""Reports from results records: validation and loading, text tables and leaderboards, figures,
paired significance tests and the Hub's ``model-index``.

- :mod:`.results`: the results record: ``ResultsRecord`` (writing, reading, validation, digest)
  and the ``"{config}/{metric}"`` key format (``metric_key``, ``interval_key``, ``count_key``).
- :mod:`.grouping`: records grouped per benchmark (one build each), model labels.
- :mod:`.results_table`: the flat results table (Parquet, one row per model, configuration and
  metric) that the results dataset and the leaderboard Space read.
- :mod:`.eval_results`: the Hub's evaluation results (``.eval_results/*.yaml`` of a model,
  ``eval.yaml`` of a benchmark dataset).
- :mod:`.leaderboard_view`: what the leaderboard Space shows (sources, filters, compare's rows,
  the first table's cells and messages); :mod:`.leaderboard_cells`: how a cell is written
  (``84.3 ±4.1``, flags), search and the column picker; :mod:`.leaderboard_across`: the models
  across benchmarks (Borda rank, means) and a benchmark's binding kinds side by side.
- :mod:`.tables`: the one plain-text table renderer and the tables built on it.
- :mod:`.significance`: the exact McNemar test that decides whether two models really differ.
- :mod:`.leaderboards`: ranks per configuration and the rank moves from ``full``.
- :mod:`.figures`: grouped bar charts (needs matplotlib).
- :mod:`.model_index`: the ``model-index`` metadata of a model card.
"""

from __future__ import annotations

from .figures import FIGURE_FORMATS, panel_metrics, plot_results, results_figure
from .grouping import group_by_benchmark, model_label
from .leaderboards import RankChange, Row, format_comparison, leaderboard, rank_changes
from .results import (
    DEFAULT_CONFIGS,
    METRIC_LABELS,
    METRICS,
    ResultsRecord,
    count_key,
    interval_key,
    load_results,
    metric_key,
    validate_record,
    write_record,
    write_records,
)
from .significance import PairedTest, Separation, mcnemar_exact, separate
from .tables import format_record_table

__all__ = [
    "DEFAULT_CONFIGS",
    "FIGURE_FORMATS",
    "METRICS",
    "METRIC_LABELS",
    "PairedTest",
    "RankChange",
    "ResultsRecord",
    "Row",
    "Separation",
    "count_key",
    "format_comparison",
    "format_record_table",
    "group_by_benchmark",
    "interval_key",
    "leaderboard",
    "load_results",
    "mcnemar_exact",
    "metric_key",
    "model_label",
    "panel_metrics",
    "plot_results",
    "rank_changes",
    "results_figure",
    "separate",
    "validate_record",
    "write_record",
    "write_records",
]
