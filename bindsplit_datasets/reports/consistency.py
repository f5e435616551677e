"""A results record checked against itself, and against its build when that is at hand.

A record's digest shows it was not changed since it was sealed, but a record edited and sealed
again passes that test. What a forger cannot easily keep is internal consistency, so every
reader of records (:func:`~bindsplit_datasets.reports.results.validate_record`: compare, export,
push-results, plot, the leaderboard) checks:

- every name that becomes part of a path (the benchmark, each configuration) is a single path
  component (:func:`~bindsplit_datasets.names.is_path_name`);
- each accuracy (and gap) lies inside its interval;
- where the record keeps its per-sample outcomes, each configuration's ``n`` is the number of its
  samples and each accuracy is the share of them answered right (with hard positives, also the
  original I2T, and the drop: the share right without them and wrong with them).

:func:`check_against_build` adds, where the build's manifest is at hand, that each configuration's
``n`` is the build's row count and the record's fingerprint is the build's. Each refusal is one
:class:`~bindsplit_datasets.errors.SchemaError` line naming the record and the inconsistency.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import SchemaError
from ..names import SPLIT_LABELS, is_path_name
from .keys import (
    DROP_METRIC,
    GAP,
    ORIGINAL_METRIC,
    REFERENCE_CONFIG,
    REPORTED_METRICS,
    count_key,
    gap_key,
    interval_key,
    metric_key,
    record_configs,
)

__all__ = ["check_against_build", "check_consistency", "check_names"]

#: Rounding slack of a stored fraction (JSON keeps doubles exactly; other writers may not).
_TOLERANCE = 1e-9


def _refuse(source: str, problem: str) -> SchemaError:
    return SchemaError(
        f"{source} contradicts itself: {problem}; the record was edited after `bindsplit eval` "
        "made it, so it cannot be trusted: restore the original file or re-run `bindsplit eval`"
    )


def check_names(record: Mapping[str, Any], source: str) -> None:
    """Refuse a benchmark or configuration name that is not a single path component (it would
    name a file outside the folder a report is written to)."""
    dataset = record.get("dataset") or {}
    names = [("dataset.benchmark", dataset.get("benchmark"))]
    if dataset.get("config") is not None:
        names.append(("dataset.config", dataset.get("config")))
    names += [("the configuration", config) for config in record_configs(record["metrics"])]
    for what, name in names:
        if not is_path_name(name):
            raise SchemaError(
                f"{source}: {what} {name!r} is not a plain name (letters, digits, '_', '.', '-'; "
                "no path separator, no leading dot); a record names its benchmark and "
                "configurations as `bindsplit eval` wrote them"
            )


def _check_intervals(metrics: Mapping[str, Any], source: str) -> None:
    for config in [*record_configs(metrics), GAP]:
        for metric in REPORTED_METRICS:
            key = gap_key(metric) if config == GAP else metric_key(config, metric)
            interval = metrics.get(interval_key(config, metric))
            value = metrics.get(key)
            if value is None or not isinstance(interval, (list, tuple)) or len(interval) != 2:
                continue
            low, high = interval
            if not low - _TOLERANCE <= value <= high + _TOLERANCE:
                raise _refuse(source, f"{key} = {value} lies outside its interval [{low}, {high}]")


def _members(samples: Mapping[str, Any], config: str) -> list[bool] | None:
    """Which samples belong to ``config`` (``None``: the record cannot tell)."""
    if config == REFERENCE_CONFIG:
        return [True] * len(samples["id"])
    if config in samples:
        return [bool(flag) for flag in samples[config]]
    if config in SPLIT_LABELS:
        return [label == config for label in samples["label"]]
    return None


def _check_counts(record: Mapping[str, Any], source: str) -> None:
    samples, metrics = record.get("samples"), record["metrics"]
    if not isinstance(samples, Mapping):
        return
    i2t, t2i = samples.get("i2t"), samples.get("t2i")
    original = samples.get(ORIGINAL_METRIC)
    outcomes = {"i2t": i2t, "t2i": t2i, ORIGINAL_METRIC: original}
    if i2t is not None and t2i is not None:
        outcomes["group"] = [bool(a) and bool(b) for a, b in zip(i2t, t2i, strict=True)]
    if i2t is not None and original is not None:
        gained = [
            index for index, pair in enumerate(zip(original, i2t, strict=True)) if pair == (0, 1)
        ]
        if gained:  # right with the hard positives is right without them
            raise _refuse(
                source,
                f"sample {samples['id'][gained[0]]} is right with its hard positives (i2t) but "
                "wrong without them (i2t_original)",
            )
        dropped = zip(original, i2t, strict=True)
        outcomes[DROP_METRIC] = [bool(before) and not after for before, after in dropped]
    for config in record_configs(metrics):
        members = _members(samples, config)
        if members is None:
            continue
        n = sum(members)
        stored = metrics[count_key(config)]
        if stored != n:
            raise _refuse(
                source, f"{count_key(config)} = {stored} but its samples list {n} in {config}"
            )
        for metric, values in outcomes.items():
            key = metric_key(config, metric)
            if values is None or key not in metrics or not n:
                continue
            right = sum(bool(v) for v, member in zip(values, members, strict=True) if member)
            if abs(metrics[key] - right / n) > _TOLERANCE:
                raise _refuse(
                    source,
                    f"{key} = {metrics[key]} but its samples answer {right} of {n} right "
                    f"({right / n:.6g})",
                )


def check_consistency(record: Mapping[str, Any], source: str) -> None:
    """Refuse a record whose names, values, intervals and counts disagree (module docstring)."""
    check_names(record, source)
    _check_intervals(record["metrics"], source)
    _check_counts(record, source)


def check_against_build(
    record: Mapping[str, Any], manifest: Mapping[str, Any], source: str
) -> None:
    """Refuse a record that is not of the build whose manifest is ``manifest``: another
    fingerprint, or a configuration whose ``n`` is not the build's row count."""
    dataset = record.get("dataset") or {}
    fingerprint = manifest.get("fingerprint")
    if fingerprint and dataset.get("fingerprint") and dataset["fingerprint"] != fingerprint:
        raise SchemaError(
            f"{source} is a result of the build with fingerprint {dataset['fingerprint']}, not "
            f"of this {manifest.get('benchmark')} build ({fingerprint}); re-run `bindsplit eval` "
            "on this build"
        )
    sizes = manifest.get("configs") or {}
    for config in record_configs(record["metrics"]):
        n = record["metrics"][count_key(config)]
        if config in sizes and n and n != sizes[config]:
            raise _refuse(
                source,
                f"{count_key(config)} = {n} but the build's {config} configuration has "
                f"{sizes[config]} rows",
            )
