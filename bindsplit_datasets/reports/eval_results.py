"""The Hub's evaluation results: scores a benchmark dataset's page aggregates into a leaderboard.

The Hub (https://huggingface.co/docs/hub/eval-results) reads two files:

- a benchmark **dataset** registers its tasks in ``eval.yaml`` at the repository root:
  :mod:`bindsplit_datasets.builds.eval_tasks` makes it from the build's manifest (re-exported
  here: :func:`eval_config`, :func:`card_section`), with one task per configuration and metric and
  one per gap and metric on ``full``. ``bindsplit push-dataset`` uploads it.
- a **model** repository reports scores in ``.eval_results/*.yaml``: a list of
  ``{dataset: {id, task_id}, value, date, notes, source, evaluation_framework}``.
  :func:`eval_results` makes one file per benchmark from one model's results records, against
  the benchmark's BindSplit dataset (``bindsplit/aro``), values in percent with one decimal as in
  every BindSplit table, the interval (method and level), n, the small-sample flag and the build
  in ``notes``; the gaps as their tasks, in signed points.
  ``bindsplit export eval-results`` writes them.

Where mteb's writer (``mteb/_hf_integration``) and the Hub's documentation differ, this follows
the Hub: the token key is ``verifyToken`` (mteb: ``verify_token``; BindSplit writes none),
``source`` is written only with its required ``url``, ``dataset.revision`` is the dataset
repository's revision when known (mteb writes ``"1"`` for benchmark aggregates; BindSplit omits
it), and each result names its ``evaluation_framework`` as the documentation lists it (mteb's
model forbids the field).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from ..atomic import write_text
from ..builds.eval_tasks import (
    EVAL_CONFIG_FILE,
    EVAL_RESULTS_FOLDER,
    EVALUATION_FRAMEWORK,
    card_section,
    eval_config,
    format_eval_config,
    task_id,
)
from ..errors import OutputExistsError, SchemaError
from ..input_files import check_input_file
from ..names import HUB_NAMES, hub_dataset_id, is_path_name
from ..tables import percent
from .grouping import model_label, valid_records
from .intervals import (
    GAP_LABELS,
    GAP_NAMES,
    METHOD_LABELS,
    gap_count,
    interval_label,
    interval_settings,
    sample_flag,
)
from .results import (
    GAPS,
    METRIC_LABELS,
    METRICS,
    count_key,
    interval_key,
    metric_key,
    record_configs,
)

__all__ = [
    "EVALUATION_FRAMEWORK",
    "EVAL_CONFIG_FILE",
    "EVAL_RESULTS_FOLDER",
    "card_section",
    "eval_config",
    "eval_results",
    "format_eval_config",
    "format_eval_results",
    "task_id",
    "write_eval_results",
]

#: The first line of every ``.eval_results`` file BindSplit writes: what marks it as one that
#: a new export may replace.
HEADER = "# BindSplit evaluation results: written by `bindsplit export eval-results`\n"


def _file_name(benchmark: str) -> str:
    name = HUB_NAMES.get(benchmark, benchmark.replace("_", "-"))
    if not is_path_name(name):  # records are validated; this guards any other caller
        raise SchemaError(f"benchmark {benchmark!r} is not a plain name; it cannot name a file")
    return f"{name}.yaml"


def _notes(metrics: Mapping[str, Any], config: str, metric: str, n: int, fingerprint: Any) -> str:
    """A result's notes: what it is, its interval (level and method), n, the small-sample flag
    and the build."""
    gap = config in GAPS
    settings = interval_settings(metrics)
    what = (
        f"{METRIC_LABELS[metric]} gap (points), {GAP_LABELS[config]}"
        if gap
        else f"{METRIC_LABELS[metric]} accuracy (%) on {config}"
    )
    notes = [what]
    interval = metrics.get(interval_key(config, metric))
    method = settings["gap_interval_method" if gap else "interval_method"]
    if interval is not None:
        low, high = (percent(bound, signed=gap) for bound in interval)
        how = f" ({METHOD_LABELS[method]})" if method else ""
        notes.append(f"{interval_label(metrics)} [{low}, {high}]{how}")
    notes.append(f"n={n}")
    flagged = sample_flag(metrics, config, metric)
    if flagged:
        notes.append(flagged)
    if fingerprint:
        notes.append(f"build {str(fingerprint)[:12]}")
    return ", ".join(notes)


def eval_results(
    records: Sequence[Mapping[str, Any]],
    *,
    org: str | None = None,
    dataset_id: str | None = None,
    source_url: str | None = None,
    source_name: str | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """One model's results records as ``.eval_results`` files: file name -> result entries.

    One file per benchmark (``aro.yaml``), one entry per non-empty configuration and metric and
    per gap and metric, against ``hub_dataset_id(benchmark, org)`` (or ``dataset_id``, for
    records of one benchmark) with task :func:`task_id`. ``source_url`` (and ``source_name``)
    attribute the results, e.g. to the results dataset holding the records.
    Raises :class:`SchemaError` for records of several models or several of one benchmark.
    """
    records = valid_records(records)
    models = list(dict.fromkeys(model_label(record) for record in records))
    if len(models) != 1:
        raise SchemaError(
            f"evaluation results describe one model, but the results are of {len(models)} "
            f"models ({', '.join(models) or 'none'}); export each model's results separately"
        )
    files: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        benchmark = str(record["dataset"]["benchmark"])
        name = _file_name(benchmark)
        if name in files:
            raise SchemaError(
                f"several results of {benchmark!r} for one model; export one record per benchmark"
            )
        fingerprint = record["dataset"].get("fingerprint")
        metrics = record["metrics"]
        found = [
            (config, metric, metrics[count_key(config)])
            for config in record_configs(metrics)
            for metric in METRICS
            if metrics[count_key(config)] and metric_key(config, metric) in metrics
        ]
        for gap in GAPS:
            n = gap_count(metrics, gap)
            found += [
                (gap, metric, n)
                for metric in METRICS
                if n is not None and metric_key(gap, metric) in metrics
            ]
        entries = []
        for config, metric, n in found:
            entry: dict[str, Any] = {
                "dataset": {
                    "id": dataset_id or hub_dataset_id(benchmark, org),
                    "task_id": task_id(GAP_NAMES.get(config, config), metric),
                },
                "value": round(100 * float(metrics[metric_key(config, metric)]), 1),
            }
            if record.get("created"):
                entry["date"] = str(record["created"])
            if source_url:
                entry["source"] = {"url": source_url}
                if source_name:
                    entry["source"]["name"] = source_name
            entry["evaluation_framework"] = EVALUATION_FRAMEWORK
            entry["notes"] = _notes(metrics, config, metric, n, fingerprint)
            entries.append(entry)
        if entries:
            files[name] = entries
    if not files:
        raise SchemaError("the results report no accuracy on any non-empty configuration")
    return files


def format_eval_results(records: Sequence[Mapping[str, Any]], **options: Any) -> dict[str, str]:
    """:func:`eval_results` as YAML texts (after a comment line naming BindSplit), file name
    -> text."""
    return {
        name: HEADER + yaml.safe_dump(entries, sort_keys=False, allow_unicode=True, width=100)
        for name, entries in eval_results(records, **options).items()
    }


def write_eval_results(
    folder: str | os.PathLike[str], records: Sequence[Mapping[str, Any]], **options: Any
) -> list[Path]:
    """Write ``folder/.eval_results/<benchmark>.yaml`` for one model's records (``folder``: the
    model repository's local copy); each file atomically. A file there that BindSplit did not
    write (no :data:`HEADER`) is never replaced; files of other benchmarks are left as they
    are."""
    target = Path(folder) / EVAL_RESULTS_FOLDER
    texts = format_eval_results(records, **options)
    for name in texts:
        path = check_input_file(target / name, "eval results file")
        if path.is_dir() or (
            path.exists() and not path.read_text(encoding="utf-8").startswith(HEADER)
        ):
            raise OutputExistsError(
                f"{path} exists and was not written by BindSplit, which never replaces it; move "
                "it away, or merge the results by hand"
            )
    return [write_text(target / name, text) for name, text in texts.items()]
