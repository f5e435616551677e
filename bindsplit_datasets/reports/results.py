"""The results record (``"format": "bindsplit-results/1"``): the one owner of its format.

A results record (made by :func:`bindsplit_datasets.evaluation.evaluate_model`) holds one model's
accuracy on one built benchmark, per configuration: ``metrics["{config}/{i2t,t2i,group}"]``
(fractions), ``"{config}/{metric}_ci"`` (interval) and ``"{config}/n"``; the gaps
``"gap/{metric}"`` (seen minus unseen) and ``"gap_partial/{metric}"`` (seen minus partial), each
with ``_ci``; those keys are made by :func:`metric_key`, :func:`interval_key`, :func:`count_key`
and :func:`gap_key` and nowhere else. The metrics also say how their intervals were made (the
metric's ``SETTINGS_KEYS``), ``environment`` what ran (:mod:`.intervals` reads both). T2I and
group are absent for 1 image x 2 captions benchmarks (ARO VG-Attribution), never reported as 0.
A record of a build with hard positives also reports, beside every ``i2t``, ``i2t_original`` and
``i2t_drop`` (:data:`HARD_POSITIVE_METRICS`) with their intervals and gaps, and the setting
``drop_interval_method``. Records also carry the per-sample outcomes, ``samples = {"id": [...],
"label": [...], "i2t": [0/1, ...], "t2i": [0/1, ...]}`` (and ``"i2t_original"`` with hard
positives) plus optional boolean flag lists (``"balanced"``), which the exact McNemar test of
:mod:`~bindsplit_datasets.reports.significance` compares.

:class:`ResultsRecord` writes, reads and validates records:

- **writing** (:meth:`ResultsRecord.write`, :func:`write_record`, :func:`write_records`) makes the
  record portable (``dataset.data`` and ``save_scores.path`` name a local build or file by its
  name, never by a path of the machine it ran on) and seals it with ``"digest"``, the SHA-256 of
  its own canonical JSON;
- **reading** (:meth:`ResultsRecord.read`, :func:`load_results`) validates every record and
  checks its digest, so a record edited after it was written (one metric value changed by hand)
  is refused with one line;
- **validation** (:func:`validate_record`) checks the schema and that the record is complete: a
  configuration it reports has every metric (and interval, and gap) the others have, so a
  deleted metric is named rather than silently left out of a leaderboard.

A record's file, wherever a run writes one per model and benchmark (``bindsplit eval --out-dir``,
``bindsplit reproduce``, ``bindsplit demo``), is named by :func:`record_file_name`.

Grouping records for a leaderboard (per benchmark, one build each) is
:mod:`~bindsplit_datasets.reports.grouping`'s.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..atomic import write_text
from ..errors import BindsplitFileNotFoundError, BindsplitValueError, SchemaError
from ..metric_core import (
    GAPS,
    INTERVAL_METHOD_KEY,
    METRICS,
    SETTINGS_KEYS,
)
from ..metric_halftruth import ACCURACIES as HALFTRUTH_ACCURACIES
from ..names import (
    DEFAULT_BINDING_KIND,
    METRIC_LABELS,
    RESULTS_FORMAT,
    is_hub_id,
)
from .keys import (
    GAP,
    GAP_PARTIAL,
    HARD_POSITIVE_METRICS,
    ORIGINAL_METRIC,
    REFERENCE_CONFIG,
    REPORTED_METRICS,
    count_key,
    gap_key,
    interval_key,
    key_config,
    metric_key,
    record_configs,
)
from .record_model import SCORED_BY, check_record_shape

__all__ = [
    "DEFAULT_CONFIGS",
    "DIGEST_KEY",
    "GAP",
    "GAPS",
    "GAP_PARTIAL",
    "HARD_POSITIVE_METRICS",
    "METRICS",
    "METRIC_LABELS",
    "RANKED_METRICS",
    "REFERENCE_CONFIG",
    "REPORTED_METRICS",
    "SCORED_BY",
    "SETTINGS_KEYS",
    "ResultsRecord",
    "count_key",
    "gap_key",
    "interval_key",
    "is_results_record",
    "key_config",
    "load_results",
    "metric_key",
    "model_slug",
    "portable_record",
    "record_configs",
    "record_digest",
    "record_file_name",
    "reported_configs",
    "binding_kind",
    "scored_by",
    "seal_record",
    "validate_record",
    "write_record",
    "write_records",
]

#: Configurations ranked and drawn unless others are asked for (``bindsplit compare``/``plot``),
#: in the order of the story they tell: familiar, mixed, novel, then the shortcut-free split.
DEFAULT_CONFIGS: tuple[str, ...] = (REFERENCE_CONFIG, "seen", "partial", "unseen", "balanced")
#: The accuracies a leaderboard ranks by: the metric's, and a half-truth build's own (AccHT,
#: refinement accuracy), which its records also keep per sample.
RANKED_METRICS: tuple[str, ...] = (*METRICS, *HALFTRUTH_ACCURACIES)
#: The top-level key holding a written record's digest of its own content.
DIGEST_KEY = "digest"
_DIGEST_PREFIX = "sha256:"


def reported_configs(
    records: Iterable[Mapping[str, Any]], configs: Sequence[str] | None = None
) -> list[str]:
    """``configs`` as given, or (``None``) those of :data:`DEFAULT_CONFIGS` that at least one
    record reports, in that order: what ``compare`` and ``plot`` show by default."""
    if configs is not None:
        return list(configs)
    reported = {config for record in records for config in record_configs(record["metrics"])}
    return [config for config in DEFAULT_CONFIGS if config in reported]


# --- file names --------------------------------------------------------------------------------


def model_slug(model: str | os.PathLike[str]) -> str:
    """A file-name-safe form of a model id, a local folder (its name) or any other name part:
    runs of other characters become ``__``.

    >>> model_slug("laion/CLIP-ViT-B-32-laion2B-s34B-b79K")
    'laion__CLIP-ViT-B-32-laion2B-s34B-b79K'
    """
    text = str(model).rstrip("/")
    if Path(text).is_dir():
        text = Path(text).name
    return re.sub(r"[^A-Za-z0-9._-]+", "__", text)


def record_file_name(model: str, benchmark: str, revision: str | None = None) -> str:
    """The one name of a results record's file: ``<benchmark>__<model>[@<revision>].json``, in
    file-name-safe characters (:func:`model_slug`); ``bindsplit eval --out-dir``, ``bindsplit
    reproduce`` and ``bindsplit demo`` all name records so.

    >>> record_file_name("openai/clip-vit-base-patch32", "aro_vga")
    'aro_vga__openai__clip-vit-base-patch32.json'
    >>> record_file_name("open_clip:ViT-B-32/openai", "bivlc", "v1")
    'bivlc__open_clip__ViT-B-32__openai@v1.json'
    """
    suffix = f"@{model_slug(revision)}" if revision else ""
    return f"{model_slug(benchmark)}__{model_slug(model)}{suffix}.json"


# --- validation --------------------------------------------------------------------------------


def _missing(source: str, key: str, why: str) -> SchemaError:
    return SchemaError(
        f"{source}: metrics[{key!r}] is missing ({why}); the record is incomplete, so a "
        "leaderboard would silently leave it out: restore the file or re-run `bindsplit eval`"
    )


def _check_complete(metrics: Mapping[str, Any], samples: Any, source: str) -> None:
    """Every accuracy a complete record has: each reported, non-empty configuration has I2T (and
    T2I and group where the samples have two images: ``full`` reports T2I, or ``samples`` has
    ``t2i``; and the original I2T and its drop where the samples have hard positives: a
    configuration reports them, or ``samples`` has ``i2t_original``), its interval where the
    record has intervals, and the gap where seen and unseen both report a metric."""
    for key in metrics:
        config, metric = key_config(key), key.partition("/")[2]
        reported = config not in GAPS and metric.removesuffix("_ci") in REPORTED_METRICS
        if reported and count_key(config) not in metrics:
            raise _missing(source, count_key(config), f"the record reports {key!r}")
    configs = record_configs(metrics)
    two_images = metric_key(REFERENCE_CONFIG, "t2i") in metrics or (
        isinstance(samples, dict) and "t2i" in samples
    )
    expected = METRICS if two_images else ("i2t",)
    hard = any(metric_key(c, m) in metrics for c in configs for m in HARD_POSITIVE_METRICS) or (
        isinstance(samples, dict) and ORIGINAL_METRIC in samples
    )
    expected += HARD_POSITIVE_METRICS if hard else ()
    intervals = any(interval_key(c, m) in metrics for c in configs for m in METRICS)
    for config in configs:
        n = metrics[count_key(config)]
        if not n:
            continue
        required = set(expected)
        if any(metric_key(config, m) in metrics for m in ("t2i", "group")):
            required |= {"t2i", "group"}  # one without the other: one was deleted
        for metric in (m for m in REPORTED_METRICS if m in required):
            why = f"{config} has {n} samples"
            if metric_key(config, metric) not in metrics:
                raise _missing(source, metric_key(config, metric), why)
            if intervals and interval_key(config, metric) not in metrics:
                why += " and the record reports intervals"
                raise _missing(source, interval_key(config, metric), why)
    # seen minus partial came with the interval settings: older records have neither
    gaps = GAPS if INTERVAL_METHOD_KEY in metrics else {GAP: GAPS[GAP]}
    for gap, (first, second) in gaps.items():
        for metric in REPORTED_METRICS:
            if (
                metric_key(first, metric) not in metrics
                or metric_key(second, metric) not in metrics
            ):
                continue
            why = f"{first} and {second} both report {metric}"
            if gap_key(metric, gap) not in metrics:
                raise _missing(source, gap_key(metric, gap), why)
            if intervals and interval_key(gap, metric) not in metrics:
                raise _missing(source, interval_key(gap, metric), why)


def is_results_record(value: Any) -> bool:
    """Whether ``value`` claims to be a BindSplit results record (its format tag), valid or
    not: such a file was written by BindSplit and may be replaced by a new run."""
    return isinstance(value, dict) and value.get("format") == RESULTS_FORMAT


def validate_record(
    record: Any, source: str = "results record", *, consistent: bool = True
) -> dict[str, Any]:
    """Return ``record`` if it is a well-formed, complete results record, else raise
    :class:`SchemaError` (one line naming ``source``, e.g. the file it came from).

    Validates a record in memory (as :func:`~bindsplit_datasets.evaluation.evaluate_model`
    returns it); a record read from a file is also checked against its digest
    (:meth:`ResultsRecord.read`). The record must agree with itself
    (:mod:`~bindsplit_datasets.reports.consistency`: plain benchmark and configuration names,
    values inside their intervals, counts that give the values); ``consistent=False`` leaves
    that to the caller (a record read from a file: its digest is checked first).
    """
    if not is_results_record(record):
        found = record.get("format") if isinstance(record, dict) else type(record).__name__
        raise SchemaError(
            f'{source} is not a BindSplit results record (expected "format": '
            f'"{RESULTS_FORMAT}", found {found!r}); make one with `bindsplit eval`'
        )
    check_record_shape(record, source)
    metrics = record["metrics"]
    _check_complete(metrics, record.get("samples"), source)
    if consistent:
        from .consistency import check_consistency  # it reads the key helpers of this module

        check_consistency(record, source)
    return record


# --- the digest and portable records -----------------------------------------------------------


def record_digest(record: Mapping[str, Any]) -> str:
    """``"sha256:<hex>"`` of the record's canonical JSON (sorted keys, no spaces), its own
    ``digest`` left out: the same for the record in memory and as read back from its file."""
    body = {key: value for key, value in record.items() if key != DIGEST_KEY}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return _DIGEST_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _name(path: str) -> str:
    """The last component of a local path (either separator), the path itself if it has none."""
    return re.split(r"[\\/]", path.rstrip("\\/"))[-1] or path


def portable_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` with no path of the machine it ran on: ``dataset.data`` keeps a Hub id
    (``org/name``) and names a local build by its folder name; ``save_scores.path`` keeps the
    scores file's name."""
    copy = dict(record)
    dataset = record.get("dataset")
    if isinstance(dataset, Mapping) and isinstance(dataset.get("data"), str):
        data = dataset["data"]
        copy["dataset"] = {**dataset, "data": data if is_hub_id(data) else _name(data)}
    saved = record.get("save_scores")
    if isinstance(saved, Mapping) and isinstance(saved.get("path"), str):
        copy["save_scores"] = {**saved, "path": _name(saved["path"])}
    return copy


def seal_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record as it is written: portable, with ``digest`` set to its own digest."""
    sealed = portable_record(record)
    sealed.pop(DIGEST_KEY, None)
    sealed[DIGEST_KEY] = record_digest(sealed)
    return sealed


def _check_digest(record: Mapping[str, Any], source: str) -> None:
    digest = record.get(DIGEST_KEY)
    if not isinstance(digest, str) or not digest.startswith(_DIGEST_PREFIX):
        raise SchemaError(
            f"{source} has no digest of its content, so it cannot be told apart from a record "
            "edited by hand; use the record as `bindsplit eval` wrote it (or re-run it)"
        )
    if digest != record_digest(record):
        raise SchemaError(
            f"{source} was changed after `bindsplit eval` wrote it (its content no longer "
            "matches its digest); restore the original file or re-run `bindsplit eval`"
        )


# --- the record --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResultsRecord:
    """A validated results record: the JSON object (``data``) and where it came from
    (``source``, the file name in error messages), with typed access to what reports use.

    >>> record = ResultsRecord.from_dict({
    ...     "format": "bindsplit-results/1",
    ...     "model": {"id": "org/clip", "revision": None, "scored_by": "encoder"},
    ...     "dataset": {"data": "/home/me/builds/aro", "benchmark": "aro_vga"},
    ...     "metrics": {"full/n": 2, "full/i2t": 0.5},
    ... })
    >>> record.value("full", "i2t"), record.count("full"), record.scored_by
    (0.5, 2, 'encoder')
    >>> sealed = record.sealed()
    >>> sealed["dataset"]["data"], sealed["digest"] == record_digest(sealed)
    ('aro', True)
    """

    data: dict[str, Any]
    source: str = "results record"

    @classmethod
    def from_dict(cls, data: Any, source: str = "results record") -> ResultsRecord:
        """A record held in memory (not checked against a digest); :class:`SchemaError` if it
        is not a complete results record."""
        return cls(validate_record(data, source), source)

    @classmethod
    def from_json(cls, data: Any, source: str) -> ResultsRecord:
        """A record as read from a file: validated, checked against its digest, and its numbers
        re-derived from its per-sample outcomes, which it must keep
        (:mod:`~bindsplit_datasets.reports.consistency`)."""
        from .consistency import check_consistency, require_samples

        record = validate_record(data, source, consistent=False)
        _check_digest(record, source)
        require_samples(record, source)
        check_consistency(record, source)
        return cls(record, source)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> list[ResultsRecord]:
        """The records of a JSON file: one record (``bindsplit eval --out``) or a JSON list of
        records (a collection, such as ``demo_output/results.json``), each validated and checked
        against its digest. Raises :class:`BindsplitFileNotFoundError` for a missing file and
        :class:`SchemaError` naming the file for anything else that is wrong."""
        from ..input_files import check_input_file

        path = check_input_file(path, "results file")
        if not path.is_file():
            raise BindsplitFileNotFoundError(f"results file not found: {path}")
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise SchemaError(
                f"{path} is not a BindSplit results record: not JSON ({error}); pass the "
                "RESULTS.json files written by `bindsplit eval`"
            ) from None
        except RecursionError:
            raise SchemaError(
                f"{path} is not a BindSplit results record: its JSON is nested too deeply to "
                "read; pass the RESULTS.json files written by `bindsplit eval`"
            ) from None
        if not isinstance(value, list):
            return [cls.from_json(value, str(path))]
        if not value:
            raise SchemaError(f"{path} is an empty list: it holds no results records")
        return [cls.from_json(item, f"{path}[{i}]") for i, item in enumerate(value)]

    def sealed(self) -> dict[str, Any]:
        """The record as :meth:`write` writes it (:func:`seal_record`)."""
        return seal_record(self.data)

    def write(self, path: str | os.PathLike[str]) -> Path:
        """Write the sealed record as JSON (temporary sibling, then renamed into place)."""
        return write_text(path, json.dumps(self.sealed(), indent=2) + "\n")

    # typed access -------------------------------------------------------------------------

    @property
    def model_id(self) -> str:
        return str(self.data["model"]["id"])

    @property
    def model_revision(self) -> str | None:
        revision = self.data["model"].get("revision")
        return None if revision is None else str(revision)

    @property
    def scored_by(self) -> str:
        """What scored the samples (``model.scored_by``): one of :data:`SCORED_BY`."""
        return scored_by(self.data)

    @property
    def benchmark(self) -> str:
        return str(self.data["dataset"]["benchmark"])

    @property
    def binding_kind(self) -> str:
        """What the build labels by (:func:`binding_kind`)."""
        return binding_kind(self.data)

    @property
    def fingerprint(self) -> str | None:
        fingerprint = self.data["dataset"].get("fingerprint")
        return None if fingerprint is None else str(fingerprint)

    @property
    def metrics(self) -> dict[str, Any]:
        return dict(self.data["metrics"])

    @property
    def configs(self) -> list[str]:
        """The configurations the record reports (:func:`record_configs`)."""
        return record_configs(self.data["metrics"])

    def value(self, config: str, metric: str) -> float | None:
        """The accuracy of ``metric`` on ``config`` (a fraction), or None where not reported."""
        value = self.data["metrics"].get(metric_key(config, metric))
        return None if value is None else float(value)

    def interval(self, config: str, metric: str) -> tuple[float, float] | None:
        """The interval of that accuracy, or None."""
        interval = self.data["metrics"].get(interval_key(config, metric))
        return None if interval is None else (float(interval[0]), float(interval[1]))

    def count(self, config: str) -> int | None:
        """The samples of ``config``, or None where the record does not report it."""
        n = self.data["metrics"].get(count_key(config))
        return None if n is None else int(n)


def binding_kind(record: Mapping[str, Any]) -> str:
    """What the record's build labels by (``dataset.binding_kind``: ``attribute``, ``relation``
    or ``both``); a record written before builds had a kind reads as ``attribute``."""
    dataset = record.get("dataset")
    kind = dataset.get("binding_kind") if isinstance(dataset, Mapping) else None
    return str(kind) if kind else DEFAULT_BINDING_KIND


def scored_by(record: Mapping[str, Any]) -> str:
    """``record["model"]["scored_by"]``: an encoder, a pair scorer or imported scores."""
    return str(record["model"]["scored_by"])


def write_record(record: Mapping[str, Any], path: str | os.PathLike[str]) -> Path:
    """Write one results record, sealed (:func:`seal_record`), as JSON, atomically."""
    return ResultsRecord(dict(record)).write(path)


def write_records(records: Iterable[Mapping[str, Any]], path: str | os.PathLike[str]) -> Path:
    """Write a collection of results records (a JSON list, each sealed), atomically."""
    sealed = [seal_record(record) for record in records]
    return write_text(path, json.dumps(sealed, indent=2) + "\n")


def load_results(paths: Iterable[str | os.PathLike[str]]) -> list[dict[str, Any]]:
    """Read, validate and check (digest) the results records of JSON files, in the order given.

    A file holds one record or a JSON list of records (:meth:`ResultsRecord.read`). Raises
    ``FileNotFoundError`` for a missing file and :class:`SchemaError` naming the file for
    anything that is not a complete results record as ``bindsplit eval`` wrote it.
    """
    records = [record.data for path in paths for record in ResultsRecord.read(path)]
    if not records:
        raise BindsplitValueError("no results files given: pass one or more RESULTS.json files")
    return records
