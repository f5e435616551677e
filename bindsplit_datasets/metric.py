"""The BindSplit evaluate metric as shipped in the package, and its functional core (protocol
section 5).

The metric lives in ``metrics/bindsplit/`` of the repository, a self-contained folder that is
also published as a Hugging Face Space. The package ships the same folder as package data
(``bindsplit_datasets/_metric/bindsplit/``), so that :func:`load_metric` works offline from any
directory after ``pip install``, and so that package code (scorer, command line) can use the
functional core (``accumulate`` -> ``BindsplitStatistics`` -> ``compute_metrics``) directly,
without going through evaluate's module cache.
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

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
    "core",
    "load_metric",
    "sample_outcome",
]

METRIC_DIR: Final[Path] = Path(__file__).parent / "_metric" / "bindsplit"
"""The metric folder shipped in the package (the repository's ``metrics/bindsplit``)."""

# `_metric` and `_metric/bindsplit` have no __init__.py: they import as namespace packages, which
# gives the core a stable module name (so its objects pickle) without a second copy of the file.
_CORE_MODULE: Final[str] = f"{__package__}._metric.bindsplit.bindsplit"


def _metric_file() -> Path:
    path = METRIC_DIR / "bindsplit.py"
    if not path.is_file():
        raise FileNotFoundError(
            f"the BindSplit metric is missing from the installed package (expected {path}); "
            "reinstall bindsplit-datasets (`pip install --force-reinstall bindsplit-datasets`)"
        )
    return path


@functools.cache
def core() -> ModuleType:
    """The metric file imported as a plain module (imported once, then cached)."""
    _metric_file()
    return importlib.import_module(_CORE_MODULE)


def load_metric(config_name: str | None = None, **kwargs: Any) -> evaluate.EvaluationModule:
    """``evaluate.load`` of the shipped metric folder; works offline and from any directory.

    ``config_name``: "default", "category", "macro_group" or "category+macro_group" (which
    optional inputs the metric takes); ``kwargs`` go to ``evaluate.load`` (``num_process``,
    ``process_id``, ``experiment_id``, ``cache_dir``, ...).
    """
    import evaluate

    return evaluate.load(str(_metric_file().parent), config_name, **kwargs)


_core = core()
SPLIT_LABELS: tuple[str, ...] = _core.SPLIT_LABELS
CONFIGURATIONS: dict[str, tuple[str, ...]] = _core.CONFIGURATIONS
METRICS: tuple[str, ...] = _core.METRICS
BindsplitStatistics = _core.BindsplitStatistics
accumulate = _core.accumulate
compute_metrics = _core.compute_metrics
sample_outcome = _core.sample_outcome
