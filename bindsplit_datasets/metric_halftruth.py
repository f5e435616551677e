"""The half-truth metrics (seed 004: AccHT, the similarity gap Δ, refinement accuracy), importable
without evaluate: ``metrics/bindsplit/bindsplit_halftruth.py`` (numpy only) under a stable name,
as :mod:`~bindsplit_datasets.metric_core` imports the rest of the metric.

``halftruth_metrics(scores, splits, categories, *, confidence)`` -> flat results dict (keys
``{config}/acc_ht``, ``{config}/delta``, ``{config}/ref_acc`` with ``_ci``, per ``kind/{kind}``
and ``category/{kind}/{edit}``, and the ``gap/...`` of each); ``halftruth_outcomes(scores)`` the
per-sample outcomes, ``halftruth_samples(outcomes, categories)`` as a results record keeps them,
and ``halftruth_outcome_metrics(outcomes_from_samples(samples), ...)`` the metrics again from a
record's samples (``reports.consistency.rederive``).
"""

from __future__ import annotations

from ._metric.bindsplit.bindsplit_halftruth import (
    ACCURACIES,
    CATEGORY,
    DELTA,
    HALFTRUTH_CONFIGURATIONS,
    HALFTRUTH_METRICS,
    HALFTRUTH_SETTINGS,
    HalfTruthOutcomes,
    halftruth_metrics,
    halftruth_outcome_metrics,
    halftruth_outcomes,
    halftruth_results,
    halftruth_samples,
    outcomes_from_samples,
    t_interval,
    welch_interval,
)

__all__ = [
    "ACCURACIES",
    "CATEGORY",
    "DELTA",
    "HALFTRUTH_CONFIGURATIONS",
    "HALFTRUTH_METRICS",
    "HALFTRUTH_SETTINGS",
    "HalfTruthOutcomes",
    "halftruth_metrics",
    "halftruth_outcome_metrics",
    "halftruth_outcomes",
    "halftruth_results",
    "halftruth_samples",
    "outcomes_from_samples",
    "t_interval",
    "welch_interval",
]
