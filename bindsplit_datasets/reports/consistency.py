"""A results record checked against itself, and against its build when that is at hand.

A record's digest shows it was not changed since it was sealed, but a record edited and sealed
again passes that test. What a forger cannot easily keep is internal consistency, so every
reader of records (:func:`~bindsplit_datasets.reports.results.validate_record`: compare, export,
push-results, plot, the leaderboard) checks:

- every name that becomes part of a path (the benchmark, each configuration) is a single path
  component (:func:`~bindsplit_datasets.names.is_path_name`);
- each accuracy (and gap) lies inside its interval;
- where the record keeps its per-sample outcomes, its numbers are re-derived from them
  (:func:`rederive`): each configuration's ``n`` is the number of its samples, each accuracy the
  share of them answered right, each gap the difference of its two configurations, and, where the
  intervals are closed-form (Wilson or Clopper-Pearson, gaps Newcombe), each interval what the
  metric makes of those counts at the record's level. A record of a build with hard positives is
  re-derived from its ``i2t`` (with them), ``i2t_original`` (without them) and ``t2i`` outcomes
  alike: the original I2T, the drop (the share right without them and wrong with them, its
  interval made by the record's ``drop_interval_method``) and their gaps; a sample right with
  its hard positives but wrong without them, or hard-positive numbers without the
  ``i2t_original`` outcomes they come from, are refused. A record of a half-truth build is
  re-derived from its ``acc_ht``, ``ref_acc`` and ``delta`` outcomes and each sample's
  ``category`` too: AccHT, refinement accuracy and the similarity gap Δ, per configuration, unit
  kind and edit, their seen - unseen gaps and every interval (all closed-form); half-truth
  numbers without those outcomes are refused. A record read from a file must keep them
  (:func:`require_samples`): without them nothing it reports can be re-derived.

:func:`check_against_build` adds, where the build's manifest is at hand, that each configuration's
``n`` is the build's row count and the record's fingerprint is the build's, and, where the build's
rows are at hand too, that the record's samples are the build's (ids and labels): a record whose
fingerprint was swapped for another build's is refused. Each refusal is one
:class:`~bindsplit_datasets.errors.SchemaError` line naming the record and the inconsistency.

What this does not catch: a record whose per-sample outcomes were edited consistently (outcomes,
then every number derived from them, then the digest) is a record of another model's answers, and
only scoring the model again tells; bootstrap intervals are checked to hold their value, not
re-drawn (numpy does not promise the same draws across versions); breakdowns by category or macro
group are not re-derived (the samples do not keep their groups; a half-truth build's do).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import SchemaError
from ..metric_core import (
    BALANCED,
    CLOPPER_PEARSON,
    CONFIDENCE_KEY,
    DEFAULT_CONFIDENCE,
    DROP_INTERVAL_METHOD_KEY,
    INTERVAL_METHOD_KEY,
    LABEL_POOLS,
    WILSON,
    BindsplitStatistics,
    compute_metrics,
    outcome_statistics,
)
from ..metric_halftruth import (
    CATEGORY,
    DELTA,
    HALFTRUTH_METRICS,
    halftruth_outcome_metrics,
    outcomes_from_samples,
)
from ..names import SPLIT_LABELS, is_path_name
from .keys import (
    DROP_METRIC,
    GAP,
    GAPS,
    HARD_POSITIVE_METRICS,
    ORIGINAL_METRIC,
    REFERENCE_CONFIG,
    REPORTED_METRICS,
    count_key,
    gap_key,
    interval_key,
    metric_key,
    record_configs,
)

__all__ = [
    "check_against_build",
    "check_build_samples",
    "check_consistency",
    "check_names",
    "rederive",
    "require_samples",
]

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
    hard = [key for key in metrics if key.partition("/")[2] in HARD_POSITIVE_METRICS]
    if hard and original is None:  # `bindsplit eval` keeps the outcomes they come from
        raise _refuse(
            source,
            f"it reports {hard[0]} but its samples have no {ORIGINAL_METRIC} outcomes (I2T "
            "without the hard positives) to re-derive it from",
        )
    _check_halftruth_samples(metrics, samples, source)
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


def _halftruth_metric(key: str) -> bool:
    """Whether ``key`` is a half-truth number or interval (``seen/kind/entity/acc_ht_ci``)."""
    return key.rpartition("/")[2].removesuffix("_ci") in HALFTRUTH_METRICS


def _check_halftruth_samples(
    metrics: Mapping[str, Any], samples: Mapping[str, Any], source: str
) -> None:
    """Refuse half-truth numbers without the per-sample outcomes they are re-derived from:
    ``acc_ht`` and ``delta`` (and each sample's ``category`` for the breakdowns by unit kind
    and edit)."""
    reported = [key for key in metrics if _halftruth_metric(key)]
    if not reported:
        return
    needed = ["acc_ht", DELTA]
    if any("/kind/" in key or "/category/" in key for key in reported):
        needed.append(CATEGORY)
    missing = [name for name in needed if name not in samples]
    if missing:
        raise _refuse(
            source,
            f"it reports {reported[0]} but its samples have no {' or '.join(missing)} lists (a "
            "half-truth build's per-sample outcomes) to re-derive it from",
        )


def _rederive_halftruths(samples: Mapping[str, Any], confidence: float) -> dict[str, Any]:
    """A half-truth build's numbers from its samples (empty for other builds): every one the
    metric reports, its intervals (closed-form) included, the settings left out."""
    if "acc_ht" not in samples or DELTA not in samples:
        return {}
    derived = halftruth_outcome_metrics(
        outcomes_from_samples(samples),
        samples["label"],
        samples.get(CATEGORY),
        confidence=confidence,
    )
    return {key: value for key, value in derived.items() if "/" in key}


#: Interval methods whose bounds are a function of the counts alone (re-derived exactly).
_CLOSED_FORM = frozenset({WILSON, CLOPPER_PEARSON})
#: The configurations and gaps whose numbers the samples determine (not the breakdowns).
_DERIVED_PREFIXES = (*LABEL_POOLS, BALANCED, *GAPS)


def _statistics(samples: Mapping[str, Any]) -> BindsplitStatistics:
    """The metric's statistics of a record's per-sample outcomes (labels, I2T, T2I, I2T without
    the hard positives, the ``balanced`` flags): what ``bindsplit eval`` reduced its score
    matrices to."""
    flags = samples.get(BALANCED)
    return outcome_statistics(
        samples["label"],
        samples["i2t"],
        samples.get("t2i"),
        i2t_original=samples.get(ORIGINAL_METRIC),
        balanced=None if flags is None else [bool(flag) for flag in flags],
    )


def _derive(stats: BindsplitStatistics, method: Any, confidence: float) -> dict[str, Any]:
    """The numbers of the configurations and gaps that ``stats`` give at ``method``: with their
    intervals where ``method`` is closed-form, without them otherwise (bootstrap intervals are
    not re-drawn)."""
    closed_form = method in _CLOSED_FORM
    derived = compute_metrics(
        stats,
        n_bootstrap=0,
        confidence=confidence,
        interval_method=method if closed_form else WILSON,
    )
    return {
        key: value
        for key, value in derived.items()
        if key.partition("/")[0] in _DERIVED_PREFIXES
        and key.partition("/")[2].removesuffix("_ci") in (*REPORTED_METRICS, "n")
        and (closed_form or not key.endswith("_ci"))
    }


def _is_drop_interval(key: str) -> bool:
    """A configuration's drop interval (``{config}/i2t_drop_ci``; a gap's is a difference's)."""
    config = key.partition("/")[0]
    return config not in GAPS and key == interval_key(config, DROP_METRIC)


def rederive(record: Mapping[str, Any]) -> dict[str, Any]:
    """The numbers of a record that its per-sample outcomes determine, as the metric computes
    them at the record's settings: ``{config}/n``, the accuracies and the gaps of every
    configuration the samples define (with hard positives, the original I2T and the drop too;
    of a half-truth build, AccHT, Δ and refinement accuracy with their breakdowns by unit kind
    and edit), and (closed-form methods only) their intervals, the drop's by
    ``drop_interval_method``, the half-truth ones always.
    Empty for a record without samples; a ValueError for outcomes no scores give (a sample
    right with its hard positives but wrong without them)."""
    samples, metrics = record.get("samples"), record["metrics"]
    if not isinstance(samples, Mapping):
        return {}
    stats = _statistics(samples)
    method = metrics.get(INTERVAL_METHOD_KEY)
    confidence = metrics.get(CONFIDENCE_KEY) or DEFAULT_CONFIDENCE
    kept = _derive(stats, method, confidence)
    drop_method = metrics.get(DROP_INTERVAL_METHOD_KEY) or method
    if stats.hard_positives and drop_method != method:  # the drop's own interval method
        kept = {key: value for key, value in kept.items() if not _is_drop_interval(key)}
        drops = _derive(stats, drop_method, confidence).items()
        kept.update({key: value for key, value in drops if _is_drop_interval(key)})
    if BALANCED not in samples:
        kept = {key: value for key, value in kept.items() if not key.startswith(f"{BALANCED}/")}
    kept.update(_rederive_halftruths(samples, confidence))
    return kept


def _differs(stored: Any, derived: Any) -> bool:
    if isinstance(derived, list):
        return not (
            isinstance(stored, (list, tuple))
            and len(stored) == len(derived)
            and not any(_differs(a, b) for a, b in zip(stored, derived, strict=True))
        )
    if isinstance(stored, bool) or not isinstance(stored, (int, float)):
        return True
    return abs(stored - derived) > _TOLERANCE


def _check_derived(record: Mapping[str, Any], source: str) -> None:
    """Every number the samples determine equals what they give (:func:`rederive`)."""
    metrics = record["metrics"]
    try:
        derived = rederive(record)
    except ValueError as error:
        raise _refuse(source, str(error)) from None
    for key, value in derived.items():
        if key in metrics and _differs(metrics[key], value):
            raise _refuse(
                source,
                f"{key} = {metrics[key]} but its per-sample outcomes give {value} (the numbers "
                "are re-derived from the outcomes)",
            )


def require_samples(record: Mapping[str, Any], source: str) -> None:
    """Refuse a record without per-sample outcomes: what it reports cannot be re-derived, so
    an edited and re-sealed record could not be told from the one ``bindsplit eval`` wrote
    (which always keeps them)."""
    if not isinstance(record.get("samples"), Mapping):
        raise SchemaError(
            f'{source} has no per-sample outcomes ("samples"), so its numbers cannot be '
            "re-derived and it cannot be trusted; `bindsplit eval` always writes them: use the "
            "record as it wrote it, or re-run `bindsplit eval`"
        )


def check_consistency(record: Mapping[str, Any], source: str) -> None:
    """Refuse a record whose names, values, intervals and counts disagree, or whose numbers are
    not what its per-sample outcomes give (module docstring)."""
    check_names(record, source)
    _check_intervals(record["metrics"], source)
    _check_counts(record, source)
    _check_derived(record, source)


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


def check_build_samples(
    record: Mapping[str, Any], ids: Sequence[str], labels: Sequence[str], source: str, where: str
) -> None:
    """Refuse a record whose per-sample outcomes are not of the build at hand: the samples of a
    record of the ``full`` configuration must be the build's rows, ``ids`` and ``labels`` in row
    order (a record of another configuration is checked by its counts). The fingerprint names a
    build, the samples show which build was scored, so a fingerprint swapped for another
    build's is caught here."""
    require_samples(record, source)
    if ((record.get("dataset") or {}).get("config") or REFERENCE_CONFIG) != REFERENCE_CONFIG:
        return
    samples = record["samples"]
    found = list(zip(samples["id"], samples["label"], strict=True))
    rows = list(zip(ids, labels, strict=True))
    if found != rows:
        first = next(
            (index for index, (a, b) in enumerate(zip(found, rows, strict=False)) if a != b),
            min(len(found), len(rows)),
        )
        raise SchemaError(
            f"{source} does not hold the samples of {where} ({len(found)} samples, {len(rows)} "
            f"rows; the first difference at sample {first}) although it names that build's "
            "fingerprint: it is a result of another build; re-run `bindsplit eval` on this build"
        )
