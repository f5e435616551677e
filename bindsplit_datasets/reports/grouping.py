"""Grouping results records for a leaderboard: per benchmark, one build each, one label per model.

Records of different benchmarks are never ranked together: :func:`group_by_benchmark` groups them,
and refuses one benchmark's records from different builds (different dataset fingerprints, hence
different seen/unseen splits) unless ``allow_mixed_builds=True``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import SchemaError
from .results import validate_record

__all__ = [
    "group_by_benchmark",
    "model_label",
    "single_benchmark",
    "unique_labels",
    "valid_records",
]


def valid_records(records: Iterable[Any]) -> list[dict[str, Any]]:
    """``records`` after :func:`~bindsplit_datasets.reports.results.validate_record`, each named
    by its place: a record handed over from Python gets the checks of one read from a file (a
    metric that is ``None``, a count that is no count: one line, never a ``TypeError``)."""
    found = list(records)
    return [
        validate_record(record, f"results record {k} of {len(found)}")
        for k, record in enumerate(found, 1)
    ]


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
