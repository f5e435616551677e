"""The ``model-index`` of a model card: BindSplit results as the Hub's evaluation widget shows them.

One model's results records become one ``model-index`` entry with one result per benchmark and
configuration: the dataset is the benchmark's BindSplit dataset on the Hub
(:func:`~bindsplit_datasets.names.hub_dataset_id`, e.g. ``bindsplit/aro``) with the configuration
as its ``config`` and the build fingerprint in its ``args``; the metrics are I2T, T2I and group
accuracy (types ``i2t_accuracy``, ``t2i_accuracy``, ``group_accuracy``) **in percent**, rounded to
one decimal as in every BindSplit table, each with its interval (at the record's level), n and
the small-sample flag in its display name. The gaps are results too, on the ``full``
configuration: ``{metric}_gap_seen_unseen`` and ``{metric}_gap_seen_partial`` in signed points,
n the smaller configuration's. T2I and group are left out where undefined (1-image benchmarks),
and so is an empty configuration.

The entries are built as :class:`huggingface_hub.EvalResult` objects and turned into YAML with
huggingface_hub's own ``eval_results_to_model_index``, so what the Hub parses is what was meant.
:func:`write_model_index` replaces (or adds) the ``model-index`` of a README's YAML front matter
and leaves every other line as it was.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ..atomic import write_text
from ..errors import SchemaError
from ..input_files import check_input_file
from ..names import hub_dataset_id
from ..tables import percent
from .grouping import model_label, valid_records
from .intervals import GAP_LABELS, GAP_NAMES, gap_count, interval_label, sample_flag
from .results import (
    GAPS,
    METRIC_LABELS,
    METRICS,
    REFERENCE_CONFIG,
    count_key,
    interval_key,
    metric_key,
    record_configs,
)

if TYPE_CHECKING:  # pragma: no cover
    from huggingface_hub import EvalResult

__all__ = [
    "TASK_NAME",
    "TASK_TYPE",
    "eval_results",
    "format_model_index",
    "model_index",
    "write_model_index",
]

#: The Hub task of the results: CLIP-like models choose among captions for an image.
TASK_TYPE = "zero-shot-image-classification"
#: Its display name in the evaluation widget.
TASK_NAME = "Compositional image-text matching (BindSplit)"
#: Split of every BindSplit configuration.
SPLIT = "test"
#: Top-level key of the metadata this module writes.
KEY = "model-index"
_DELIMITER = "---"


def _pretty_name(benchmark: str) -> str:
    from ..benchmarks import get_benchmark

    try:
        return get_benchmark(benchmark).pretty_name
    except ValueError:  # a benchmark this installation does not know: its registry name
        return benchmark


def _single_model(records: Sequence[Mapping[str, Any]]) -> str:
    models = list(dict.fromkeys(model_label(record) for record in records))
    if len(models) != 1:
        raise SchemaError(
            f"a model-index describes one model, but the results are of {len(models)} models "
            f"({', '.join(models) or 'none'}); export each model's results separately"
        )
    return models[0]


def _details(metrics: Mapping[str, Any], config: str, metric: str, n: int) -> str:
    """What a metric's display name adds to its value: interval, n, the small-sample flag."""
    signed = config in GAPS
    details = [f"n={n}"]
    interval = metrics.get(interval_key(config, metric))
    if interval is not None:
        low, high = (percent(bound, signed=signed) for bound in interval)
        details.insert(0, f"{interval_label(metrics)} [{low}, {high}]")
    flagged = sample_flag(metrics, config, metric)
    if flagged:
        details.append(flagged)
    return ", ".join(details)


def eval_results(
    records: Sequence[Mapping[str, Any]], *, org: str | None = None, dataset_id: str | None = None
) -> list[EvalResult]:
    """One :class:`~huggingface_hub.EvalResult` per benchmark, configuration and metric of one
    model's results records (module docstring); ``org`` replaces the Hub namespace of the
    datasets, ``dataset_id`` the dataset itself (records of one benchmark)."""
    from huggingface_hub import EvalResult

    records = valid_records(records)
    _single_model(records)
    results: list[EvalResult] = []
    benchmarks: set[str] = set()
    for record in records:
        benchmark = record["dataset"]["benchmark"]
        fingerprint = record["dataset"].get("fingerprint")
        if benchmark in benchmarks:
            raise SchemaError(
                f"several results of {benchmark!r} for one model; export one record per benchmark"
            )
        benchmarks.add(benchmark)
        metrics = record["metrics"]
        for config in record_configs(metrics):
            n = metrics[count_key(config)]
            if not n:
                continue
            for metric in METRICS:
                key = metric_key(config, metric)
                if key not in metrics:
                    continue
                details = _details(metrics, config, metric, n)
                results.append(
                    EvalResult(
                        task_type=TASK_TYPE,
                        task_name=TASK_NAME,
                        dataset_type=dataset_id or hub_dataset_id(benchmark, org),
                        dataset_name=f"{_pretty_name(benchmark)} (BindSplit {config})",
                        dataset_config=config,
                        dataset_split=SPLIT,
                        dataset_args={"fingerprint": fingerprint} if fingerprint else None,
                        metric_type=f"{metric}_accuracy",
                        metric_value=round(100 * metrics[key], 1),
                        metric_name=f"{METRIC_LABELS[metric]} accuracy, % ({details})",
                    )
                )
        for gap in GAPS:
            n = gap_count(metrics, gap)
            for metric in METRICS:
                key = metric_key(gap, metric)
                if n is None or key not in metrics:
                    continue
                label = f"{METRIC_LABELS[metric]} gap ({GAP_LABELS[gap]}), points"
                results.append(
                    EvalResult(
                        task_type=TASK_TYPE,
                        task_name=TASK_NAME,
                        dataset_type=dataset_id or hub_dataset_id(benchmark, org),
                        dataset_name=f"{_pretty_name(benchmark)} (BindSplit {REFERENCE_CONFIG})",
                        dataset_config=REFERENCE_CONFIG,
                        dataset_split=SPLIT,
                        dataset_args={"fingerprint": fingerprint} if fingerprint else None,
                        metric_type=f"{metric}_{GAP_NAMES[gap]}",
                        metric_value=round(100 * metrics[key], 1),
                        metric_name=f"{label} ({_details(metrics, gap, metric, n)})",
                    )
                )
    if not results:
        raise SchemaError("the results report no accuracy on any non-empty configuration")
    return results


def model_index(
    records: Sequence[Mapping[str, Any]], *, org: str | None = None, dataset_id: str | None = None
) -> list[dict[str, Any]]:
    """The ``model-index`` value (a one-entry list) of one model's results records."""
    from huggingface_hub.repocard_data import eval_results_to_model_index

    results = eval_results(records, org=org, dataset_id=dataset_id)
    return eval_results_to_model_index(_single_model(records), results)


def format_model_index(
    records: Sequence[Mapping[str, Any]], *, org: str | None = None, dataset_id: str | None = None
) -> str:
    """``model-index: ...`` as YAML, ready for a model card's front matter."""
    index = model_index(records, org=org, dataset_id=dataset_id)
    return yaml.safe_dump({KEY: index}, sort_keys=False, allow_unicode=True, width=100)


def _top_level_block(lines: Sequence[str], key: str) -> tuple[int, int] | None:
    """Start and end line of the top-level ``key:`` entry of YAML ``lines``; None if absent.

    The entry runs until the next line at column 0 that is neither blank nor a list item (a list
    at column 0 belongs to it; a comment there belongs to what follows)."""
    start = next((i for i, line in enumerate(lines) if line.startswith(f"{key}:")), None)
    if start is None:
        return None
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t-"):
        end += 1
    return start, end


def _split_front_matter(text: str) -> tuple[list[str], int | None]:
    """The lines of ``text`` (endings kept) and the index of the line closing its YAML front
    matter (None: no front matter)."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != _DELIMITER:
        return lines, None
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r\n") == _DELIMITER), None)
    if close is None:
        raise SchemaError("the README's YAML front matter has no closing '---' line; fix it first")
    return lines, close


def _front_matter(text: str) -> Any:
    lines, close = _split_front_matter(text)
    return {} if close is None else yaml.safe_load("".join(lines[1:close])) or {}


def _replace_model_index(text: str, block: str) -> str:
    """``text`` (a README) with ``block`` as its front matter's ``model-index``."""
    newline = "\r\n" if "\r\n" in text else "\n"
    block = block.replace("\n", newline)
    lines, close = _split_front_matter(text)
    if close is None:
        return f"{_DELIMITER}{newline}{block}{_DELIMITER}{newline}{text}"
    front = lines[1:close]
    span = _top_level_block(front, KEY)
    start, end = span if span is not None else (len(front), len(front))
    front[start:end] = [block]
    return "".join([lines[0], *front, *lines[close:]])


def write_model_index(
    readme: str | os.PathLike[str],
    records: Sequence[Mapping[str, Any]],
    *,
    org: str | None = None,
    dataset_id: str | None = None,
) -> Path:
    """Replace (or add) the ``model-index`` of ``readme``'s YAML front matter with that of
    ``records``; every other line stays as it was. A missing README is created with the front
    matter only. The file is written to a temporary sibling and renamed into place.

    Raises :class:`SchemaError` when the front matter is not valid YAML, or when the result would
    not parse as model card metadata (checked with ``huggingface_hub.ModelCardData``).
    """
    from huggingface_hub import ModelCardData

    path = check_input_file(readme, "README")
    text = path.read_bytes().decode("utf-8") if path.exists() else ""  # line endings kept
    try:
        before = _front_matter(text)
    except yaml.YAMLError as error:
        raise SchemaError(f"the YAML front matter of {path} does not parse ({error})") from None
    if not isinstance(before, dict):
        raise SchemaError(f"the YAML front matter of {path} is not a mapping")
    updated = _replace_model_index(
        text, format_model_index(records, org=org, dataset_id=dataset_id)
    )
    after = _front_matter(updated)
    others = {key: value for key, value in before.items() if key != KEY}
    if {key: value for key, value in after.items() if key != KEY} != others:
        raise SchemaError(
            f"cannot place the model-index in {path} without changing its other metadata; "
            "move its model-index entry to the end of the front matter and retry"
        )
    try:
        ModelCardData(ignore_metadata_errors=False, **after)
    except ValueError as error:
        raise SchemaError(f"the updated metadata of {path} does not validate: {error}") from None
    return write_text(path, updated)
