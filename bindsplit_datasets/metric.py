"""The BindSplit evaluate metric as shipped in the package (protocol section 5).

The metric folder ``metrics/bindsplit`` is shipped as package data
(``bindsplit_datasets/_metric/bindsplit/``), so that :func:`load_metric` works offline from any
directory after ``pip install``. The functional core is :mod:`bindsplit_datasets.metric_core`;
its names are re-exported here for code that imports them from the metric.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from .errors import BindsplitFileNotFoundError
from .metric_core import (
    CONFIGURATIONS,
    METRICS,
    SPLIT_LABELS,
    BindsplitStatistics,
    accumulate,
    compute_metrics,
    sample_outcome,
)

if TYPE_CHECKING:  # pragma: no cover
    import evaluate

__all__ = [
    "CONFIGURATIONS",
    "METRICS",
    "METRIC_DIR",
    "SPLIT_LABELS",
    "BindsplitStatistics",
    "accumulate",
    "compute_metrics",
    "load_metric",
    "sample_outcome",
]

METRIC_DIR: Final[Path] = Path(__file__).parent / "_metric" / "bindsplit"
"""The metric folder shipped in the package (the repository's ``metrics/bindsplit``)."""


def load_metric(config_name: str | None = None, **kwargs: Any) -> evaluate.EvaluationModule:
    """``evaluate.load`` of the shipped metric folder; works offline and from any directory.

    ``config_name``: "default", or the optional inputs the metric takes joined by "+" ("category",
    "macro_group", "balanced", e.g. "category+balanced"); ``kwargs`` go to ``evaluate.load``
    (``num_process``, ``process_id``, ``experiment_id``, ``cache_dir``, ...).
    """
    import evaluate

    script = METRIC_DIR / "bindsplit.py"
    if not script.is_file():
        raise BindsplitFileNotFoundError(
            f"the BindSplit metric is missing from the installed package (expected {script}); "
            "reinstall bindsplit-datasets (`pip install --force-reinstall bindsplit-datasets`)"
        )
    return evaluate.load(str(METRIC_DIR), config_name, **kwargs)
