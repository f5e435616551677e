"""Evaluate a model on a BindSplit dataset: scorer + metric -> a results record.

:func:`evaluate_model` scores every sample of the ``full`` configuration once (the scorer encodes
each distinct image and caption once), reduces the per-sample matrices with the metric's
functional core, and returns the results record of docs/architecture.md: model identity, dataset
identity and fingerprint, the metrics of the requested configurations (each with its bootstrap
interval and n, plus the seen-minus-unseen gap), scoring statistics, environment and timings.
Records from different runs are therefore comparable and can be merged into leaderboards.
"""

from __future__ import annotations

import datetime as _datetime
import json
import logging
import platform
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from . import __version__
from .atomic import write_text
from .loading import BindsplitData, load_bindsplit
from .metric import CONFIGURATIONS, METRICS, accumulate, compute_metrics
from .names import RESULTS_FORMAT
from .scoring import Scorer, load_model, write_scores

__all__ = [
    "DEFAULT_CONFIGS",
    "evaluate_model",
    "format_table",
    "parse_configs",
    "write_record",
]

logger = logging.getLogger(__name__)

#: Configurations reported by default, in report order.
DEFAULT_CONFIGS: tuple[str, ...] = tuple(CONFIGURATIONS)

_PACKAGES = ("torch", "transformers", "datasets", "accelerate")


def parse_configs(
    configs: str | Sequence[str], valid: Sequence[str] = DEFAULT_CONFIGS
) -> tuple[str, ...]:
    """Configurations from ``"full,seen"`` or a sequence; unknown names raise a ValueError that
    lists the valid ones."""
    names = [c.strip() for c in configs.split(",")] if isinstance(configs, str) else list(configs)
    names = [name for name in names if name]
    if not names:
        raise ValueError(f"no configuration given; valid configurations: {', '.join(valid)}.")
    unknown = [name for name in names if name not in valid]
    if unknown:
        raise ValueError(
            f"unknown configuration(s) {unknown}; valid configurations: {', '.join(valid)}."
        )
    return tuple(dict.fromkeys(names))


def _select_metrics(metrics: dict[str, Any], configs: Sequence[str]) -> dict[str, Any]:
    """The metric keys of ``configs``; the gap only when both seen and unseen are reported."""
    keep_gap = "seen" in configs and "unseen" in configs
    selected = {}
    for key, value in metrics.items():
        prefix = key.split("/", 1)[0]
        if prefix in configs or (prefix == "gap" and keep_gap):
            selected[key] = value
    return selected


def _groups(
    data: BindsplitData,
) -> tuple[list[str], list[str | None] | None, list[str | None] | None]:
    """Split labels, categories and macro groups of every row (image columns are not decoded)."""
    adapter = data.adapter
    rows = data.dataset.remove_columns(
        [c for c in adapter.image_columns if c in data.dataset.column_names]
    )
    labels: list[str] = []
    categories: list[str | None] = []
    macro_groups: list[str | None] = []
    for row in rows:
        labels.append(row["bindsplit_label"])
        categories.append(adapter.category(row))
        macro_groups.append(adapter.macro_group(row))
    return (
        labels,
        categories if any(c is not None for c in categories) else None,
        macro_groups if any(g is not None for g in macro_groups) else None,
    )


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _environment(scorer: Scorer) -> dict[str, Any]:
    accelerator = scorer.accelerator
    return {
        "python": platform.python_version(),
        **{package: _version(package) for package in _PACKAGES},
        "bindsplit": __version__,
        "device": str(accelerator.device),
        "num_processes": accelerator.num_processes,
    }


def evaluate_model(
    model: Any,
    data: str | Path | BindsplitData,
    *,
    processor: Any = None,
    configs: str | Sequence[str] = DEFAULT_CONFIGS,
    batch_size: int = 64,
    mixed_precision: str = "no",
    cache_dir: str | Path | None = None,
    save_scores: str | Path | None = None,
    n_bootstrap: int = 1000,
    seed: int = 0,
    revision: str | None = None,
    accelerator: Any = None,
    num_workers: int = 0,
    model_id: str | None = None,
    data_revision: str | None = None,
) -> dict[str, Any]:
    """Score ``model`` on a BindSplit dataset and return the results record.

    Args:
        model: a Hub id or local folder (loaded with ``AutoModel``/``AutoProcessor`` at
            ``revision``), or a loaded model with ``get_image_features``/``get_text_features``
            (then ``processor`` is required).
        data: a folder made by ``bindsplit build``, a Hub dataset id (at ``data_revision``), or a
            loaded :class:`~bindsplit_datasets.loading.BindsplitData` of configuration ``full``.
        configs: which configurations to report (``"full,seen"`` or a sequence). Scoring always
            runs once over ``full``; the metric slices it by label.
        batch_size, mixed_precision, cache_dir, accelerator, num_workers: see
            :class:`~bindsplit_datasets.scoring.Scorer`.
        save_scores: write the per-sample matrices and labels here (Parquet), so the metric can
            be recomputed without the model (:func:`~bindsplit_datasets.scoring.read_scores`).
        n_bootstrap, seed: the metric's bootstrap (0 resamples: no intervals).
        model_id: name recorded for a loaded model (default: its ``name_or_path``).

    Under ``accelerate launch`` every process returns the same record; only the main process
    writes ``save_scores``.
    """
    start = time.perf_counter()
    selected = parse_configs(configs)
    if isinstance(data, BindsplitData):
        if data.config != "full":
            raise ValueError(
                f"evaluate_model scores the full configuration and slices it by label; got "
                f"configuration {data.config!r}, load 'full' instead."
            )
    else:
        data = load_bindsplit(data, "full", revision=data_revision)
    adapter = data.adapter
    if isinstance(model, (str, Path)):
        model_id = model_id or str(model)
        model, processor = load_model(str(model), revision=revision)
    load_s = time.perf_counter() - start

    scorer = Scorer(
        model,
        processor,
        accelerator=accelerator,
        batch_size=batch_size,
        mixed_precision=mixed_precision,
        cache_dir=cache_dir,
        model_id=model_id,
        revision=revision,
        num_workers=num_workers,
    )
    matrices = scorer.score(data.dataset, adapter.image_columns, adapter.caption_columns)

    metric_start = time.perf_counter()
    labels, categories, macro_groups = _groups(data)
    stats = accumulate(matrices.scores, labels, categories, macro_groups)
    metrics = _select_metrics(compute_metrics(stats, n_bootstrap=n_bootstrap, seed=seed), selected)
    metric_s = time.perf_counter() - metric_start

    if save_scores is not None and scorer.accelerator.is_main_process:
        path = write_scores(save_scores, matrices.scores, labels, categories, macro_groups)
        logger.info("wrote the per-sample scores of %d samples to %s", matrices.n_samples, path)
    return {
        "format": RESULTS_FORMAT,
        "bindsplit_version": __version__,
        "model": {
            "id": scorer.model_id,
            "revision": scorer.revision,
            "class": type(model).__name__,
        },
        "dataset": {
            "data": data.source,
            "benchmark": data.benchmark,
            "fingerprint": data.fingerprint,
            "reference": data.manifest.get("reference"),
        },
        "metrics": metrics,
        "scoring": {
            "n_samples": matrices.n_samples,
            "n_unique_images": matrices.n_unique_images,
            "n_unique_captions": matrices.n_unique_captions,
            "n_truncated_captions": matrices.n_truncated_captions,
            "batch_size": batch_size,
            "mixed_precision": scorer.mixed_precision,
            "cache": {"hits": matrices.cache_hits, "misses": matrices.cache_misses},
        },
        "environment": _environment(scorer),
        "timings": {
            "load_s": round(load_s, 3),
            "encode_s": round(matrices.encode_s, 3),
            "metric_s": round(metric_s, 3),
            "total_s": round(time.perf_counter() - start, 3),
        },
        "created": _datetime.datetime.now(_datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def write_record(record: dict[str, Any], path: str | Path) -> Path:
    """Write a results record as JSON (temporary sibling, then renamed into place)."""
    return write_text(path, json.dumps(record, indent=2) + "\n")


def _cell(metrics: dict[str, Any], key: str, *, signed: bool = False) -> str:
    if key not in metrics:
        return "-"
    value = f"{100 * metrics[key]:+.1f}" if signed else f"{100 * metrics[key]:.1f}"
    interval = metrics.get(f"{key}_ci")
    if interval is None:
        return value
    low, high = (100 * bound for bound in interval)
    return f"{value} [{low:+.1f}, {high:+.1f}]" if signed else f"{value} [{low:.1f}, {high:.1f}]"


def format_table(record: dict[str, Any]) -> str:
    """The record's accuracies as a text table: one row per configuration (percent, interval, n)
    and the seen-minus-unseen gap in points. A metric a benchmark lacks (T2I of a 1 x 2
    benchmark) or an empty configuration shows as ``-``."""
    metrics = record["metrics"]
    configs = [c for c in CONFIGURATIONS if f"{c}/n" in metrics]
    header = ["configuration", "n", *(m.upper() if m != "group" else m for m in METRICS)]
    rows = [
        [c, str(metrics[f"{c}/n"]), *(_cell(metrics, f"{c}/{m}") for m in METRICS)] for c in configs
    ]
    if any(key.startswith("gap/") for key in metrics):
        rows.append(
            ["gap (seen - unseen)", "", *(_cell(metrics, f"gap/{m}", signed=True) for m in METRICS)]
        )
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    title = (
        f"{record['model']['id']} on {record['dataset']['benchmark']} ({record['dataset']['data']})"
    )
    lines = [title, "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    return "\n".join(lines)
