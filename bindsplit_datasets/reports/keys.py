"""The key format of a results record's ``metrics``: ``"{config}/{metric}"`` (an accuracy),
``"{config}/{metric}_ci"`` (its interval), ``"{config}/n"`` (its sample count), and the gaps'
``"gap/{metric}"`` / ``"gap_partial/{metric}"``; every module that reads or writes a record makes
and reads its keys here. ``metric`` is one of :data:`METRICS` (``i2t``, ``t2i``, ``group``) or,
in a record of a build with hard positives, of :data:`HARD_POSITIVE_METRICS` (``i2t_original``:
I2T with the hard positives left out; ``i2t_drop``: it minus ``i2t``); :data:`REPORTED_METRICS`
is both, in report order.

>>> metric_key("unseen", "i2t"), interval_key("unseen", "i2t"), count_key("unseen")
('unseen/i2t', 'unseen/i2t_ci', 'unseen/n')
>>> record_configs({"full/n": 4, "seen/n": 2, "gap/i2t": 0.1, "full/i2t": 0.5})
['full', 'seen']
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..metric_core import GAPS, HARD_POSITIVE_METRICS, METRICS
from ..names import CONFIGURATIONS

__all__ = [
    "GAP",
    "GAPS",
    "DROP_METRIC",
    "GAP_PARTIAL",
    "HARD_POSITIVE_METRICS",
    "METRICS",
    "ORIGINAL_METRIC",
    "REFERENCE_CONFIG",
    "REPORTED_METRICS",
    "count_key",
    "gap_key",
    "interval_key",
    "key_config",
    "metric_key",
    "record_configs",
]

#: The configuration every other one is compared against when ranks move (``full``).
REFERENCE_CONFIG: str = CONFIGURATIONS[0]
#: The prefixes of the metric's differences (not configurations): seen minus unseen
#: (``gap/i2t``) and seen minus partial (``gap_partial/i2t``); ``GAPS[prefix]`` names the two.
GAP, GAP_PARTIAL = GAPS
#: Every metric a record may report, in report order: the accuracies, then (builds with hard
#: positives only) the original I2T and the drop.
REPORTED_METRICS: tuple[str, ...] = (*METRICS, *HARD_POSITIVE_METRICS)
#: The original I2T (hard positives left out) and the drop to I2T with them (also the names of
#: the per-sample outcome list ``samples["i2t_original"]``).
ORIGINAL_METRIC, DROP_METRIC = HARD_POSITIVE_METRICS
#: A configuration's sample count key: ``"{config}/n"`` with no further ``/`` (breakdown keys have).
_COUNT_KEY = re.compile(r"^([^/]+)/n$")


def metric_key(config: str, metric: str) -> str:
    """The key of an accuracy: ``metric_key("unseen", "i2t") == "unseen/i2t"``."""
    return f"{config}/{metric}"


def interval_key(config: str, metric: str) -> str:
    """The key of an accuracy's interval: ``"unseen/i2t_ci"``."""
    return f"{metric_key(config, metric)}_ci"


def count_key(config: str) -> str:
    """The key of a configuration's sample count: ``"unseen/n"``."""
    return metric_key(config, "n")


def gap_key(metric: str, gap: str = GAP) -> str:
    """The key of a difference of ``metric``: seen minus unseen (``"gap/i2t"``), or with
    ``gap=GAP_PARTIAL`` seen minus partial (``"gap_partial/i2t"``)."""
    return metric_key(gap, metric)


def key_config(key: str) -> str:
    """The configuration (or ``gap``) a metrics key belongs to: ``key_config("seen/i2t_ci")``
    and ``key_config("seen/category/swap/att/n")`` are ``"seen"``."""
    return key.split("/", 1)[0]


def record_configs(metrics: Mapping[str, Any]) -> list[str]:
    """Configurations a record's metrics report (they have ``{config}/n``): the known ones in
    :data:`~bindsplit_datasets.names.CONFIGURATIONS` order, then any others in record order.
    ``gap`` (seen minus unseen) is not a configuration."""
    found = [
        match.group(1)
        for key in metrics
        if (match := _COUNT_KEY.match(key)) and match.group(1) not in GAPS
    ]
    known = [config for config in CONFIGURATIONS if config in found]
    return known + [config for config in dict.fromkeys(found) if config not in CONFIGURATIONS]
