"""The BindSplit metric's functional core (protocol section 5), importable without evaluate.

The metric lives in ``metrics/bindsplit/`` of the repository, a self-contained folder that is also
published as a Hugging Face Space; the package ships it as package data
(``bindsplit_datasets/_metric/bindsplit/``). Its numpy-only core (``bindsplit_core.py``, and
``bindsplit_bootstrap.py`` for ``compute_metrics``) is imported here under stable module names
(``_metric`` and ``_metric/bindsplit`` are namespace packages), so
that the scorer, the command line and the tests use exactly the code of the published metric
without loading evaluate, datasets or torch, and its objects pickle.

The labels, configurations and citation the metric restates are the library's ``names.py``'s
(a test checks they agree); import them from there.

``accumulate(scores, splits, categories, macro_groups, *, balanced)`` -> ``BindsplitStatistics``
(mergeable across batches and processes) -> ``compute_metrics(stats, ...)`` -> flat results dict.
"""

from __future__ import annotations

from ._metric.bindsplit.bindsplit_bootstrap import compute_metrics
from ._metric.bindsplit.bindsplit_core import (
    BALANCED,
    LABEL_POOLS,
    METRICS,
    BindsplitStatistics,
    Result,
    accumulate,
    sample_outcome,
)

__all__ = [
    "BALANCED",
    "LABEL_POOLS",
    "METRICS",
    "BindsplitStatistics",
    "Result",
    "accumulate",
    "compute_metrics",
    "sample_outcome",
]
