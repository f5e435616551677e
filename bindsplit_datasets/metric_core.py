"""The BindSplit metric's functional core (protocol section 5), importable without evaluate.

The metric lives in ``metrics/bindsplit/`` of the repository, a self-contained folder that is also
published as a Hugging Face Space; the package ships it as package data
(``bindsplit_datasets/_metric/bindsplit/``). Its numpy-only core (``bindsplit_core.py``, and
``bindsplit_outcomes.py`` for one sample's outcomes, ``bindsplit_bootstrap.py`` for
``compute_metrics``, ``bindsplit_intervals.py`` for the intervals and the names of the settings
a result records) is imported here under stable module names
(``_metric`` and ``_metric/bindsplit`` are namespace packages), so
that the scorer, the command line and the tests use exactly the code of the published metric
without loading evaluate, datasets or torch, and its objects pickle.

The labels, configurations and citation the metric restates are the library's ``names.py``'s
(a test checks they agree); import them from there.

``accumulate(scores, splits, categories, macro_groups, *, balanced, hard_positives)`` ->
``BindsplitStatistics`` (mergeable across batches and processes) -> ``compute_metrics(stats,
...)`` -> flat results dict; ``sample_outcomes(scores, hard_positives)`` gives each sample's
outcomes (the record's ``samples``), and ``outcome_statistics(splits, i2t, t2i, *,
i2t_original, balanced)`` the statistics of those outcomes (a record re-derived).
:func:`count_ties` (the package's own) counts the samples an exact tie decides, so that the
evaluation can state them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._metric.bindsplit.bindsplit_bootstrap import compute_metrics
from ._metric.bindsplit.bindsplit_core import (
    BALANCED,
    GAPS,
    HARD_POSITIVE_METRICS,
    LABEL_POOLS,
    METRICS,
    BindsplitStatistics,
    Outcome,
    Result,
    accumulate,
    outcome_statistics,
    sample_outcome,
    sample_outcomes,
)
from ._metric.bindsplit.bindsplit_intervals import (
    BOOTSTRAP,
    CLOPPER_PEARSON,
    CONFIDENCE_KEY,
    DEFAULT_CONFIDENCE,
    DEFAULT_INTERVAL_METHOD,
    DROP_INTERVAL_METHOD_KEY,
    GAP_INTERVAL_METHOD_KEY,
    HARD_POSITIVE_SETTINGS_KEYS,
    INTERVAL_METHOD_KEY,
    INTERVAL_METHOD_OPTIONS,
    INTERVAL_METHODS,
    MACRO_INTERVAL_METHOD_KEY,
    N_BOOTSTRAP_KEY,
    NEWCOMBE,
    SEED_KEY,
    SETTINGS_KEYS,
    SMALL_N,
    SMALL_N_INTERVAL_METHOD_KEY,
    WILSON,
    interval_method_name,
    is_small_sample,
    newcombe_interval,
    proportion_interval,
    regularized_beta,
)

__all__ = [
    "GAP_NAMES",
    "BALANCED",
    "BOOTSTRAP",
    "CLOPPER_PEARSON",
    "CONFIDENCE_KEY",
    "DEFAULT_CONFIDENCE",
    "DEFAULT_INTERVAL_METHOD",
    "DROP_INTERVAL_METHOD_KEY",
    "GAPS",
    "GAP_INTERVAL_METHOD_KEY",
    "HARD_POSITIVE_METRICS",
    "HARD_POSITIVE_SETTINGS_KEYS",
    "INTERVAL_METHODS",
    "INTERVAL_METHOD_KEY",
    "INTERVAL_METHOD_OPTIONS",
    "LABEL_POOLS",
    "MACRO_INTERVAL_METHOD_KEY",
    "NEWCOMBE",
    "N_BOOTSTRAP_KEY",
    "SEED_KEY",
    "SETTINGS_KEYS",
    "SMALL_N_INTERVAL_METHOD_KEY",
    "SMALL_N",
    "WILSON",
    "METRICS",
    "BindsplitStatistics",
    "Outcome",
    "Result",
    "accumulate",
    "count_ties",
    "compute_metrics",
    "interval_method_name",
    "is_small_sample",
    "newcombe_interval",
    "outcome_statistics",
    "proportion_interval",
    "regularized_beta",
    "sample_outcome",
    "sample_outcomes",
]

#: How Hub tasks, the results table, model cards and figures name each gap of the metric
#: (``gap`` -> ``gap_seen_unseen``, ``gap_partial`` -> ``gap_seen_partial``).
GAP_NAMES: dict[str, str] = {gap: f"gap_{first}_{second}" for gap, (first, second) in GAPS.items()}


def count_ties(scores: Any, hard_positives: Sequence[int] | None = None) -> int:
    """How many samples have a caption (or image) scored exactly as high as the right one: a
    tie, which the metric counts as wrong (strict ``>``, SPEC section 5). With
    ``hard_positives`` (per-sample counts h), image 0's right captions are caption 0 and its h
    hard positives (the columns after the positives), and a tie is one of them scored exactly
    as high as another caption (a tie between two right captions decides nothing). Scores are
    compared in the precision given (float64)."""
    tied = 0
    for index, matrix in enumerate(scores):
        array = np.asarray(matrix, dtype=np.float64)
        n_images = array.shape[0]
        hard = 0 if hard_positives is None else hard_positives[index]
        for i in range(n_images):
            right = [i, *range(n_images, n_images + hard)] if i == 0 else [i]
            own = array[i, right]
            rivals = np.delete(array[i], right)
            column = np.delete(array[:, i], i) if n_images > 1 else np.empty(0)
            if np.isin(own, rivals).any() or (column == array[i, i]).any():
                tied += 1
                break
    return tied
