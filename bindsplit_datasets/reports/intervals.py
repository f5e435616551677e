"""How a record's numbers were made and how far they reach: the interval settings (with what an
older record that lacks them implies), their headings and notes, the small-sample flag, the gaps'
names and n, and what made the record (version, git commit, platform).

Tables, figures, the results table and the Hub exports read records through these, so that every
report names the same method and level and flags the same values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..metric_core import (
    BOOTSTRAP,
    CLOPPER_PEARSON,
    CONFIDENCE_KEY,
    DEFAULT_CONFIDENCE,
    DROP_INTERVAL_METHOD_KEY,
    GAP_INTERVAL_METHOD_KEY,
    GAP_NAMES,
    HARD_POSITIVE_SETTINGS_KEYS,
    INTERVAL_METHOD_KEY,
    N_BOOTSTRAP_KEY,
    NEWCOMBE,
    SEED_KEY,
    SETTINGS_KEYS,
    SMALL_N,
    SMALL_N_INTERVAL_METHOD_KEY,
    WILSON,
    is_small_sample,
)
from ..metric_halftruth import DELTA, HALFTRUTH_METRICS
from .keys import DROP_METRIC
from .results import GAPS, count_key, metric_key

__all__ = [
    "GAP_LABELS",
    "GAP_NAMES",
    "METHOD_LABELS",
    "NO_SAMPLES",
    "SMALL_FLAG",
    "SMALL_SAMPLE",
    "gap_count",
    "interval_label",
    "interval_method",
    "interval_method_key",
    "interval_note",
    "interval_settings",
    "is_small",
    "provenance",
    "sample_flag",
]

#: How each gap is written for people: "seen - unseen".
GAP_LABELS: dict[str, str] = {gap: " - ".join(pair) for gap, pair in GAPS.items()}
#: How each interval method is written for people.
METHOD_LABELS: dict[str, str] = {
    WILSON: "Wilson",
    CLOPPER_PEARSON: "Clopper-Pearson",
    BOOTSTRAP: "bootstrap",
    NEWCOMBE: "Newcombe",
}


def interval_settings(metrics: Mapping[str, Any]) -> dict[str, Any]:
    """How a record's intervals were made: ``interval_method``, ``gap_interval_method``,
    ``confidence``, ``n_bootstrap``, ``seed`` (the metric's settings keys), and
    ``drop_interval_method`` where the record has it (hard positives).

    A record written before they were recorded has percentile-bootstrap intervals at 95% (what
    ``bindsplit eval`` made then) with unknown resamples and seed (``None``); without any
    interval, every setting is ``None``.
    """
    if INTERVAL_METHOD_KEY in metrics:
        settings = {key: metrics.get(key) for key in SETTINGS_KEYS}
        settings.update(
            {key: metrics[key] for key in HARD_POSITIVE_SETTINGS_KEYS if key in metrics}
        )
        return settings
    bootstrapped = any(key.endswith("_ci") for key in metrics)
    implied = {
        INTERVAL_METHOD_KEY: BOOTSTRAP if bootstrapped else None,
        GAP_INTERVAL_METHOD_KEY: BOOTSTRAP if bootstrapped else None,
        CONFIDENCE_KEY: DEFAULT_CONFIDENCE if bootstrapped else None,
    }
    return {key: implied.get(key) for key in SETTINGS_KEYS}


def interval_label(metrics: Mapping[str, Any]) -> str:
    """How an interval of a record is headed: ``"95% CI"``, at the record's level (an older
    record's 95%)."""
    confidence = interval_settings(metrics)[CONFIDENCE_KEY] or DEFAULT_CONFIDENCE
    return f"{100 * confidence:g}% CI"


def interval_note(metrics: Mapping[str, Any]) -> str:
    """One line saying how a record's intervals were made and what the small-sample flag marks:
    ``"95% intervals: Wilson; gaps: Newcombe; * n < 30 or a degenerate count (0/n, n/n)"``."""
    legend = f"{SMALL_FLAG} n < {SMALL_N} or a degenerate count (0/n, n/n)"
    settings = interval_settings(metrics)
    method = settings[INTERVAL_METHOD_KEY]
    if method is None:
        return legend
    how = f"{interval_label(metrics).removesuffix(' CI')} intervals: {METHOD_LABELS[method]}"
    gap_method = settings[GAP_INTERVAL_METHOD_KEY]
    if gap_method is not None and gap_method != method:
        how += f"; gaps: {METHOD_LABELS[gap_method]}"
    if settings[N_BOOTSTRAP_KEY] is not None and BOOTSTRAP in (method, gap_method):
        how += f" ({settings[N_BOOTSTRAP_KEY]} resamples, seed {settings[SEED_KEY]})"
    fallback = settings[SMALL_N_INTERVAL_METHOD_KEY]
    if fallback is not None:
        how += f"; {METHOD_LABELS[fallback]} (gaps: Newcombe) where flagged {SMALL_FLAG}"
    return f"{how}; {legend}"


def interval_method_key(metric: str, *, gap: bool) -> str:
    """The metrics' setting that names how an interval of ``metric`` was made: a gap's, a
    hard-positive drop's, an accuracy's, or a half-truth metric's own (``metric_halftruth``:
    ``halftruth_interval_method``, ``delta_gap_interval_method``, ...)."""
    if metric in HALFTRUTH_METRICS:
        kind = "delta" if metric == DELTA else "halftruth"
        return f"{kind}_gap_interval_method" if gap else f"{kind}_interval_method"
    if gap:
        return GAP_INTERVAL_METHOD_KEY
    return DROP_INTERVAL_METHOD_KEY if metric == DROP_METRIC else INTERVAL_METHOD_KEY


def interval_method(metrics: Mapping[str, Any], config: str, metric: str) -> str | None:
    """How the interval of ``{config}/{metric}`` (a configuration or a gap) was made: the
    record's method, except where bootstrapped intervals fell back on a small or degenerate
    sample (``small_n_interval_method``: Wilson, and Newcombe for a gap with such a side); a
    half-truth metric's is its own setting (closed-form at every n)."""
    gap = config in GAPS
    if metric in HALFTRUTH_METRICS:
        method = metrics.get(interval_method_key(metric, gap=gap))
        return None if method is None else str(method)
    settings = interval_settings(metrics)
    if metric == DROP_METRIC and not gap:  # a hard-positive drop has its own method
        return settings.get(DROP_INTERVAL_METHOD_KEY)
    if settings[SMALL_N_INTERVAL_METHOD_KEY] is not None and is_small(metrics, config, metric):
        return NEWCOMBE if gap else str(settings[SMALL_N_INTERVAL_METHOD_KEY])
    return settings[GAP_INTERVAL_METHOD_KEY if gap else INTERVAL_METHOD_KEY]


def provenance(record: Mapping[str, Any]) -> dict[str, str | None]:
    """What made a record: ``bindsplit_version``, ``git_commit`` and ``platform`` (``None``
    where an older record does not say)."""
    environment = record.get("environment")
    environment = environment if isinstance(environment, Mapping) else {}
    version = record.get("bindsplit_version") or environment.get("bindsplit")
    return {
        "bindsplit_version": None if version is None else str(version),
        "git_commit": environment.get("git_commit"),
        "platform": environment.get("platform"),
    }


def gap_count(metrics: Mapping[str, Any], gap: str) -> int | None:
    """The n of a gap: the smaller count of its two configurations (None where one is not
    reported)."""
    counts = [metrics.get(count_key(config)) for config in GAPS[gap]]
    return None if None in counts else min(int(n) for n in counts if n is not None)


#: The mark of a small or degenerate value in text tables (:func:`is_small`).
SMALL_FLAG = "*"


def is_small(metrics: Mapping[str, Any], config: str, metric: str) -> bool:
    """Whether ``{config}/{metric}`` rests on few samples (n < :data:`SMALL_N`) or is
    degenerate (0/n or n/n), so that its interval, however valid, deserves a flag; for a gap,
    whether either of its two configurations is."""
    if config in GAPS:
        return any(is_small(metrics, part, metric) for part in GAPS[config])
    value, n = metrics.get(metric_key(config, metric)), metrics.get(count_key(config))
    if value is None or n is None:
        return False
    if metric == DELTA:  # a mean (the half-truth gap) has no degenerate count: only a small n
        return int(n) < SMALL_N
    return is_small_sample(round(float(value) * int(n)), int(n))


#: What :func:`sample_flag` says of a configuration without a sample (not a small n: nothing).
NO_SAMPLES = "no samples"
#: What :func:`sample_flag` says of a value on fewer than :data:`SMALL_N` samples.
SMALL_SAMPLE = "small n"


def sample_flag(metrics: Mapping[str, Any], config: str, metric: str) -> str | None:
    """What a reader of ``{config}/{metric}`` must be told about its samples, in words, or None:
    :data:`NO_SAMPLES` (n = 0: there is no value, and no small n either), :data:`SMALL_SAMPLE`
    (0 < n < :data:`SMALL_N`), or a degenerate count as it is (``"0/300 correct"``,
    ``"300/300 correct"``: n is not small, but the interval leans on one side); for a gap, the
    flag of its first flagged side, named (``"unseen: small n"``). The words of
    :func:`is_small`'s flag, which marks the last two alike.

    >>> sample_flag({"unseen/n": 0}, "unseen", "i2t"), sample_flag({"seen/n": 0}, "gap", "i2t")
    ('no samples', 'seen: no samples')
    >>> metrics = {"seen/n": 10, "seen/i2t": 0.5, "unseen/n": 300, "unseen/i2t": 0.0}
    >>> sample_flag(metrics, "seen", "i2t"), sample_flag(metrics, "unseen", "i2t")
    ('small n', '0/300 correct')
    """
    if config in GAPS:
        for part in GAPS[config]:
            flag = sample_flag(metrics, part, metric)
            if flag is not None:
                return f"{part}: {flag}"
        return None
    n = metrics.get(count_key(config))
    if n is None:
        return None
    if int(n) == 0:
        return NO_SAMPLES
    if int(n) < SMALL_N:
        return SMALL_SAMPLE
    value = metrics.get(metric_key(config, metric))
    if value is None:
        return None
    correct = round(float(value) * int(n))
    return f"{correct}/{int(n)} correct" if correct in (0, int(n)) else None
