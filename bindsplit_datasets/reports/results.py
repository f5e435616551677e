"""The results record (``"format": "bindsplit-results/1"``): validation, loading and grouping.

A results record (written by :func:`bindsplit_datasets.evaluation.evaluate_model`) holds one
model's accuracy on one built benchmark, per configuration: ``metrics["{config}/{i2t,t2i,group}"]``
(fractions), ``"{config}/{metric}_ci"`` (95% bootstrap interval) and ``"{config}/n"``. T2I and
group are absent for 1 image x 2 captions benchmarks (ARO VG-Attribution); they are never reported
as 0. Newer records also carry the per-sample outcomes, ``samples = {"id": [...], "label": [...],
"i2t": [0/1, ...], "t2i": [0/1, ...]}`` plus optional boolean flag lists (``"balanced"``), which
the paired bootstrap of :mod:`~bindsplit_datasets.reports.significance` compares.

Records of different benchmarks are never ranked together: :func:`group_by_benchmark` groups them,
and refuses one benchmark's records from different builds (different dataset fingerprints, hence
different seen/unseen splits) unless ``allow_mixed_builds=True``.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import BindsplitFileNotFoundError, BindsplitValueError, SchemaError
from ..names import CONFIGURATIONS, RESULTS_FORMAT

__all__ = [
    "DEFAULT_CONFIGS",
    "METRICS",
    "METRIC_LABELS",
    "REFERENCE_CONFIG",
    "group_by_benchmark",
    "is_results_record",
    "load_results",
    "model_label",
    "record_configs",
    "single_benchmark",
    "unique_labels",
    "validate_record",
]

#: The accuracies of a record, in report order.
METRICS: tuple[str, ...] = ("i2t", "t2i", "group")
#: How each metric is written in tables, figures and model cards.
METRIC_LABELS: dict[str, str] = {"i2t": "I2T", "t2i": "T2I", "group": "group"}
#: The configuration every other one is compared against when ranks move (``full``).
REFERENCE_CONFIG: str = CONFIGURATIONS[0]
#: Configurations ranked and drawn unless others are asked for (``bindsplit compare``/``plot``).
DEFAULT_CONFIGS: tuple[str, ...] = (REFERENCE_CONFIG, "seen", "unseen")

#: A configuration's sample count key: ``"{config}/n"`` with no further ``/`` (breakdown keys have).
_COUNT_KEY = re.compile(r"^([^/]+)/n$")
#: Per-sample outcome lists of ``samples``; ``t2i`` is absent for 1-image samples.
_OUTCOME_KEYS: tuple[str, ...] = ("i2t", "t2i")


def _is_fraction(value: Any) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and 0.0 <= value <= 1.0
    )


def _is_binary(value: Any) -> bool:
    """0, 1, False or True (JSON writers differ on booleans)."""
    return isinstance(value, int) and value in (0, 1)


def record_configs(metrics: Mapping[str, Any]) -> list[str]:
    """Configurations a record's metrics report (they have ``{config}/n``): the known ones in
    :data:`~bindsplit_datasets.names.CONFIGURATIONS` order, then any others in record order.
    ``gap`` (seen minus unseen) is not a configuration."""
    found = [
        match.group(1)
        for key in metrics
        if (match := _COUNT_KEY.match(key)) and match.group(1) != "gap"
    ]
    known = [config for config in CONFIGURATIONS if config in found]
    return known + [config for config in dict.fromkeys(found) if config not in CONFIGURATIONS]


def _check_metrics(metrics: Mapping[str, Any], source: str) -> None:
    """Check the per-configuration keys this package reads; other keys (breakdowns) pass
    through."""
    configs = dict.fromkeys([*CONFIGURATIONS, *record_configs(metrics)])
    for config in configs:
        for metric in METRICS:
            key = f"{config}/{metric}"
            if key in metrics and not _is_fraction(metrics[key]):
                raise SchemaError(
                    f"{source}: metrics[{key!r}] = {metrics[key]!r} is not a fraction in [0, 1]; "
                    "results records store accuracies as fractions (0.75, not 75)"
                )
            interval = metrics.get(f"{key}_ci")
            if interval is not None and not (
                isinstance(interval, (list, tuple))
                and len(interval) == 2
                and all(_is_fraction(bound) for bound in interval)
                and interval[0] <= interval[1]
            ):
                raise SchemaError(
                    f"{source}: metrics[{key + '_ci'!r}] = {interval!r} is not an interval "
                    "[low, high] of fractions with low <= high"
                )
        n = metrics.get(f"{config}/n")
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
            raise SchemaError(f"{source}: metrics['{config}/n'] = {n!r} is not a sample count")


def _check_samples(samples: Any, source: str) -> None:
    """Check the optional per-sample outcomes: equal-length lists, unique string ids, string
    labels, 0/1 outcomes and flags."""
    if not isinstance(samples, dict) or not isinstance(samples.get("id"), list):
        raise SchemaError(f"{source}: samples must be an object with an 'id' list")
    n = len(samples["id"])
    for key, values in samples.items():
        if not isinstance(values, list) or len(values) != n:
            raise SchemaError(
                f"{source}: samples[{key!r}] is not a list of {n} values (one per sample id)"
            )
    if not all(isinstance(value, str) for value in samples["id"]):
        raise SchemaError(f"{source}: samples['id'] must hold strings")
    if len(set(samples["id"])) != n:
        raise SchemaError(f"{source}: samples['id'] holds duplicate ids; each sample once")
    if "label" not in samples or "i2t" not in samples:
        raise SchemaError(f"{source}: samples must have 'label' and 'i2t' lists")
    if not all(isinstance(value, str) for value in samples["label"]):
        raise SchemaError(f"{source}: samples['label'] must hold split labels (strings)")
    for key, values in samples.items():
        if key not in ("id", "label") and not all(_is_binary(value) for value in values):
            what = "0/1 outcomes" if key in _OUTCOME_KEYS else "true/false configuration flags"
            raise SchemaError(f"{source}: samples[{key!r}] must hold {what}")


def is_results_record(value: Any) -> bool:
    """Whether ``value`` claims to be a BindSplit results record (its format tag), valid or
    not: such a file was written by BindSplit and may be replaced by a new run."""
    return isinstance(value, dict) and value.get("format") == RESULTS_FORMAT


def validate_record(record: Any, source: str = "results record") -> dict[str, Any]:
    """Return ``record`` if it is a well-formed results record, else raise :class:`SchemaError`.

    ``source`` names the record in error messages (the file it came from).
    """
    if not is_results_record(record):
        found = record.get("format") if isinstance(record, dict) else type(record).__name__
        raise SchemaError(
            f'{source} is not a BindSplit results record (expected "format": '
            f'"{RESULTS_FORMAT}", found {found!r}); make one with `bindsplit eval`'
        )
    model, dataset, metrics = record.get("model"), record.get("dataset"), record.get("metrics")
    if not isinstance(model, dict) or not isinstance(model.get("id"), str) or not model["id"]:
        raise SchemaError(f"{source}: the record has no model.id")
    if not isinstance(dataset, dict) or not isinstance(dataset.get("benchmark"), str):
        raise SchemaError(f"{source}: the record has no dataset.benchmark")
    if not isinstance(metrics, dict):
        raise SchemaError(f"{source}: the record has no metrics dictionary")
    _check_metrics(metrics, source)
    if "samples" in record:
        _check_samples(record["samples"], source)
    return record


def load_results(paths: Iterable[str | os.PathLike[str]]) -> list[dict[str, Any]]:
    """Read and validate results records (JSON files), in the order given.

    A file holds one record (``bindsplit eval --out``) or a JSON list of records (a collection,
    such as ``demo_output/results.json``). Raises ``FileNotFoundError`` for a missing file and
    :class:`SchemaError` naming the file for anything that is not a results record.
    """
    records: list[dict[str, Any]] = []
    for raw in paths:
        path = Path(raw)
        if not path.is_file():
            raise BindsplitFileNotFoundError(f"results file not found: {path}")
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise SchemaError(
                f"{path} is not a BindSplit results record: not JSON ({error}); pass the "
                "RESULTS.json files written by `bindsplit eval`"
            ) from None
        if isinstance(record, list):
            if not record:
                raise SchemaError(f"{path} is an empty list: it holds no results records")
            records.extend(
                validate_record(item, source=f"{path}[{i}]") for i, item in enumerate(record)
            )
        else:
            records.append(validate_record(record, source=str(path)))
    if not records:
        raise BindsplitValueError("no results files given: pass one or more RESULTS.json files")
    return records


def model_label(record: Mapping[str, Any]) -> str:
    """The name a record's model is shown under: its ``model.id``."""
    return str(record["model"]["id"])


def unique_labels(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """Model labels of records of one benchmark; ``id@revision`` where one id has several.

    Raises :class:`SchemaError` when one model (id and revision) has several records.
    """
    ids = [model_label(record) for record in records]
    labels = [
        f"{model_id}@{record['model'].get('revision')}" if ids.count(model_id) > 1 else model_id
        for model_id, record in zip(ids, records, strict=True)
    ]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise SchemaError(
            f"model {duplicates[0]!r} has several results for benchmark "
            f"{records[0]['dataset']['benchmark']!r}; pass one results file per model"
        )
    return labels


def group_by_benchmark(
    records: Sequence[Mapping[str, Any]], *, allow_mixed_builds: bool = False
) -> dict[str, list[Mapping[str, Any]]]:
    """Records grouped by ``dataset.benchmark``, benchmarks in order of first appearance.

    Raises :class:`SchemaError` when one benchmark's records come from builds with different
    dataset fingerprints (their seen/unseen splits differ) unless ``allow_mixed_builds``.
    """
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        groups.setdefault(record["dataset"]["benchmark"], []).append(record)
    for benchmark, group in groups.items():
        fingerprints = sorted({str(record["dataset"].get("fingerprint")) for record in group})
        if len(fingerprints) > 1 and not allow_mixed_builds:
            shown = ", ".join(fingerprint[:12] for fingerprint in fingerprints)
            raise SchemaError(
                f"the results for benchmark {benchmark!r} come from different builds "
                f"(dataset fingerprints {shown}): their seen/unseen splits differ, so the models "
                "are not comparable; evaluate every model on the same build, or pass "
                "--allow-mixed-builds (allow_mixed_builds=True) to compare them anyway"
            )
    return groups


def single_benchmark(records: Sequence[Mapping[str, Any]]) -> str:
    """The one benchmark of ``records``; :class:`SchemaError` for a mix (or none)."""
    benchmarks = list(dict.fromkeys(record["dataset"]["benchmark"] for record in records))
    if len(benchmarks) != 1:
        raise SchemaError(
            f"records of {len(benchmarks)} benchmarks ({', '.join(benchmarks) or 'none'}) cannot "
            "be ranked together; group them with group_by_benchmark() first"
        )
    return benchmarks[0]
