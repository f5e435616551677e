"""A build's evaluation tasks as the Hub reads them: ``eval.yaml`` and the card's leaderboard
section, made from the build's own manifest (its ``columns`` say how many images a sample has,
``pretty_name`` names it), never from the benchmark adapter.

The Hub (https://huggingface.co/docs/hub/eval-results) reads ``eval.yaml`` at a benchmark
dataset's repository root (``name``, ``description``, ``evaluation_framework``, ``tasks``: ``id``,
``config``, ``split``). :func:`eval_config` makes one task per non-empty configuration and metric,
``{config}_{metric}`` (``unseen_i2t``), on that configuration's ``test`` split, and one per gap
and metric, ``gap_seen_unseen_{metric}`` and ``gap_seen_partial_{metric}`` (seen minus unseen or
partial, in points), on ``full`` (whose samples hold both); T2I and group only for builds whose
samples have two images. ``bindsplit push-dataset`` uploads it; the model side
(``.eval_results/*.yaml``) is :mod:`bindsplit_datasets.reports.eval_results`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from ..metric_core import GAP_NAMES, GAPS, METRICS
from ..names import METRIC_LABELS, hub_dataset_id
from .manifest import SPLIT

__all__ = [
    "EVALUATION_FRAMEWORK",
    "EVAL_CONFIG_FILE",
    "EVAL_RESULTS_FOLDER",
    "build_metrics",
    "card_section",
    "eval_config",
    "format_eval_config",
    "pretty_name",
    "task_id",
]

#: How results and benchmarks name the framework that computes the scores.
EVALUATION_FRAMEWORK = "bindsplit"
#: The benchmark dataset's task file, at the repository root.
EVAL_CONFIG_FILE = "eval.yaml"
#: The model repository's folder of result files.
EVAL_RESULTS_FOLDER = ".eval_results"


def task_id(config: str, metric: str) -> str:
    """The task of ``metric`` on ``config``: ``task_id("unseen", "i2t") == "unseen_i2t"``."""
    return f"{config}_{metric}"


def build_metrics(manifest: Mapping[str, Any]) -> tuple[str, ...]:
    """The metrics of a build: I2T always, T2I and group where its samples have two images
    (the manifest's ``columns.image``).

    >>> build_metrics({"columns": {"image": ["image"]}})
    ('i2t',)
    """
    columns = manifest.get("columns")
    images = columns.get("image") if isinstance(columns, Mapping) else None
    return tuple(METRICS) if images and len(images) >= 2 else ("i2t",)


def pretty_name(manifest: Mapping[str, Any]) -> str:
    """The benchmark's display name the build recorded (else its registry name)."""
    return str(manifest.get("pretty_name") or manifest["benchmark"])


def eval_config(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The ``eval.yaml`` of a build (its manifest): one task per non-empty configuration and
    metric of the build."""
    name = pretty_name(manifest)
    configs = [config for config, rows in manifest["configs"].items() if rows]
    gaps = [GAP_NAMES[gap] for gap, pair in GAPS.items() if set(pair) <= set(configs)]
    metrics = build_metrics(manifest)
    return {
        "name": f"BindSplit {name}",
        "description": (
            f"{name} split by binding familiarity (BindSplit): configuration "
            "full (every sample), seen (every attribute-object binding seen in the reference "
            "caption corpus), partial, unseen (none seen) and balanced (every caption equally "
            "familiar). One task per configuration and metric ("
            + ", ".join(f"{METRIC_LABELS[metric]} accuracy" for metric in metrics)
            + ", in percent) as `bindsplit eval` computes them, and the gaps seen - unseen "
            "(gap_seen_unseen) and seen - partial (gap_seen_partial) in points, on full."
        ),
        "evaluation_framework": EVALUATION_FRAMEWORK,
        "tasks": [
            {"id": task_id(config, metric), "config": config, "split": SPLIT}
            for config in configs
            for metric in metrics
        ]
        + [
            {"id": task_id(gap, metric), "config": "full", "split": SPLIT}
            for gap in gaps
            for metric in metrics
        ],
    }


def format_eval_config(manifest: Mapping[str, Any]) -> str:
    """:func:`eval_config` as the YAML text of ``eval.yaml``."""
    return yaml.safe_dump(eval_config(manifest), sort_keys=False, allow_unicode=True, width=100)


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
