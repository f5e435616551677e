"""The Hub's evaluation results: scores a benchmark dataset's page aggregates into a leaderboard.

The Hub (https://huggingface.co/docs/hub/eval-results) reads two files:

- a benchmark **dataset** registers its tasks in ``eval.yaml`` at the repository root
  (``name``, ``description``, ``evaluation_framework``, ``tasks``: ``id``, ``config``,
  ``split``). :func:`eval_config` makes it from a build manifest: one task per configuration and
  metric, ``{config}_{metric}`` (``unseen_i2t``), on that configuration's ``test`` split; T2I and
  group only for benchmarks whose samples have two images. ``bindsplit push-dataset`` uploads it.
- a **model** repository reports scores in ``.eval_results/*.yaml``: a list of
  ``{dataset: {id, task_id}, value, date, notes, source, evaluation_framework}``.
  :func:`eval_results` makes one file per benchmark from one model's results records, against
  the benchmark's BindSplit dataset (``bindsplit/aro``), values in percent with one decimal as in
  every BindSplit table, the interval, n and build in ``notes``.
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
from ..errors import OutputExistsError, SchemaError
from ..names import HUB_NAMES, hub_dataset_id
from ..tables import percent
from .grouping import model_label
from .model_index import SPLIT
from .results import METRIC_LABELS, METRICS, count_key, interval_key, metric_key, record_configs

__all__ = [
    "EVALUATION_FRAMEWORK",
    "EVAL_CONFIG_FILE",
    "EVAL_RESULTS_FOLDER",
    "benchmark_metrics",
    "card_section",
    "eval_config",
    "eval_results",
    "format_eval_config",
    "format_eval_results",
    "task_id",
    "write_eval_results",
]

#: How results and benchmarks name the framework that computes the scores.
EVALUATION_FRAMEWORK = "bindsplit"
#: The benchmark dataset's task file, at the repository root.
EVAL_CONFIG_FILE = "eval.yaml"
#: The model repository's folder of result files.
EVAL_RESULTS_FOLDER = ".eval_results"
#: The first line of every ``.eval_results`` file BindSplit writes: what marks it as one that
#: a new export may replace.
HEADER = "# BindSplit evaluation results: written by `bindsplit export eval-results`\n"


def task_id(config: str, metric: str) -> str:
    """The task of ``metric`` on ``config``: ``task_id("unseen", "i2t") == "unseen_i2t"``."""
    return f"{config}_{metric}"


def _adapter(benchmark: str) -> Any:
    from ..benchmarks import get_benchmark

    return get_benchmark(benchmark)


def benchmark_metrics(benchmark: str) -> tuple[str, ...]:
    """The metrics a benchmark defines: I2T always, T2I and group where samples have two
    images."""
    return METRICS if _adapter(benchmark).n_images >= 2 else ("i2t",)


def eval_config(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The ``eval.yaml`` of a build (its manifest): one task per non-empty configuration and
    metric the benchmark defines."""
    benchmark = str(manifest["benchmark"])
    adapter = _adapter(benchmark)
    configs = [config for config, rows in manifest["configs"].items() if rows]
    metrics = benchmark_metrics(benchmark)
    return {
        "name": f"BindSplit {adapter.pretty_name}",
        "description": (
            f"{adapter.pretty_name} split by binding familiarity (BindSplit): configuration "
            "full (every sample), seen (every attribute-object binding seen in the reference "
            "caption corpus), partial, unseen (none seen) and balanced (every caption equally "
            "familiar). One task per configuration and metric ("
            + ", ".join(f"{METRIC_LABELS[metric]} accuracy" for metric in metrics)
            + ", in percent) as `bindsplit eval` computes them."
        ),
        "evaluation_framework": EVALUATION_FRAMEWORK,
        "tasks": [
            {"id": task_id(config, metric), "config": config, "split": SPLIT}
            for config in configs
            for metric in metrics
        ],
    }


def format_eval_config(manifest: Mapping[str, Any]) -> str:
    """:func:`eval_config` as the YAML text of ``eval.yaml``."""
    return yaml.safe_dump(eval_config(manifest), sort_keys=False, allow_unicode=True, width=100)


def _file_name(benchmark: str) -> str:
    return f"{HUB_NAMES.get(benchmark, benchmark.replace('_', '-'))}.yaml"


def eval_results(
    records: Sequence[Mapping[str, Any]],
    *,
    org: str | None = None,
    dataset_id: str | None = None,
    source_url: str | None = None,
    source_name: str | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """One model's results records as ``.eval_results`` files: file name -> result entries.

    One file per benchmark (``aro.yaml``), one entry per non-empty configuration and metric,
    against ``hub_dataset_id(benchmark, org)`` (or ``dataset_id``, for records of one benchmark)
    with task :func:`task_id`. ``source_url`` (and
    ``source_name``) attribute the results, e.g. to the results dataset holding the records.
    Raises :class:`SchemaError` for records of several models or several of one benchmark.
    """
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
        entries = []
        for config in record_configs(metrics):
            n = metrics[count_key(config)]
            for metric in METRICS:
                value = metrics.get(metric_key(config, metric)) if n else None
                if value is None:
                    continue
                interval = metrics.get(interval_key(config, metric))
                notes = [f"{METRIC_LABELS[metric]} accuracy (%) on {config}", f"n={n}"]
                if interval is not None:
                    notes.insert(1, f"95% CI [{percent(interval[0])}, {percent(interval[1])}]")
                if fingerprint:
                    notes.append(f"build {str(fingerprint)[:12]}")
                entry: dict[str, Any] = {
                    "dataset": {
                        "id": dataset_id or hub_dataset_id(benchmark, org),
                        "task_id": task_id(config, metric),
                    },
                    "value": round(100 * float(value), 1),
                }
                if record.get("created"):
                    entry["date"] = str(record["created"])
                if source_url:
                    entry["source"] = {"url": source_url}
                    if source_name:
                        entry["source"]["name"] = source_name
                entry["evaluation_framework"] = EVALUATION_FRAMEWORK
                entry["notes"] = ", ".join(notes)
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
        path = target / name
        if path.is_dir() or (
            path.exists() and not path.read_text(encoding="utf-8").startswith(HEADER)
        ):
            raise OutputExistsError(
                f"{path} exists and was not written by BindSplit, which never replaces it; move "
                "it away, or merge the results by hand"
            )
    return [write_text(target / name, text) for name, text in texts.items()]


def card_section(manifest: Mapping[str, Any], repo_id: str | None = None) -> str:
    """A dataset card section (markdown) saying how a model reports its scores on this build so
    that they show on the dataset's leaderboard: the tasks of ``eval.yaml`` and the command."""
    benchmark = str(manifest["benchmark"])
    repo = repo_id or hub_dataset_id(benchmark)
    tasks = [task["id"] for task in eval_config(manifest)["tasks"]]
    return "\n".join(
        [
            "## Leaderboard",
            "",
            f"This repository is a Hub benchmark: its `{EVAL_CONFIG_FILE}` declares one task per "
            f"configuration and metric ({', '.join(f'`{task}`' for task in tasks)}), and scores "
            f"that model repositories report in `{EVAL_RESULTS_FOLDER}/*.yaml` against "
            f"`{repo}` appear on this page. `bindsplit export eval-results RESULTS.json --out "
            "MODEL_DIR` writes them from the results of `bindsplit eval` on this build.",
        ]
    )
