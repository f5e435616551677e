"""Hugging Face Space of the BindSplit metric: paste samples as JSON, or upload a scores file or
results records, and get the metric's results and their table.

Runs as ``python app.py`` (what a gradio Space does) with the gradio version named by
``sdk_version`` in README.md. The computation is the metric's own core (``bindsplit_core.py`` and
``bindsplit_bootstrap.py``, the modules ``bindsplit.py`` wraps for evaluate), so the Space needs
only numpy besides gradio (and pyarrow, pandas' Parquet reader, for uploaded scores files); it
never imports the BindSplit package. Uploads:

- a per-sample scores file (``bindsplit eval --save-scores``, Parquet): the metric computed from
  its matrices, labels, categories, ``balanced`` flags and number of hard positives (metadata
  ``bindsplit_hard_positives``, in files of builds that have them), at the options chosen;
- a results record or a collection of them (``bindsplit eval --out``, ``results.json``): each
  record's numbers re-derived from its per-sample outcomes at the record's own settings
  (``i2t_original`` too where it has hard positives; a record without outcomes is shown as
  stored, and says so).

Either way the table is the one ``bindsplit eval`` prints: per configuration n and each accuracy
in percent with its interval (with hard positives also the original I2T and the drop, and a
line saying what they are), ``*`` on values resting on fewer than 30 samples or a degenerate
count, then the gaps in points. The endpoints ``/compute`` and ``/table`` are also callable with
``gradio_client``:

    Client(URL).predict(samples_json, 1000, 0.95, 0, 25, api_name="/compute")

``GRADIO_SERVER_NAME`` and ``GRADIO_SERVER_PORT`` choose where it listens (gradio's defaults:
127.0.0.1:7860; a Space sets them itself).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gradio as gr
from bindsplit_bootstrap import compute_metrics
from bindsplit_core import (
    GAPS,
    HARD_POSITIVE_METRICS,
    METRICS,
    BindsplitStatistics,
    accumulate,
    outcome_statistics,
)
from bindsplit_intervals import SMALL_N, WILSON, is_small_sample

INPUTS = ("scores", "split", "category", "macro_group", "balanced", "hard_positives")
"""The keys of the samples JSON: the metric's inputs (the first two required)."""

EXAMPLE = {
    "scores": [[[0.9, 0.1], [0.2, 0.8]], [[0.6, 0.7], [0.1, 0.8]], [[0.5, 0.5]], [[0.4, 0.6]]],
    "split": ["seen", "seen", "unseen", "unseen"],
}


def _card() -> str:
    """The metric card (README.md) without its YAML front matter."""
    text = (Path(__file__).resolve().parent / "README.md").read_text(encoding="utf-8")
    return text.split("---", 2)[2] if text.startswith("---") else text


def parse_samples(samples_json: str) -> dict[str, Any]:
    """The metric inputs of a JSON object {"scores": [...], "split": [...], ...}; a ValueError
    names what is wrong."""
    try:
        samples = json.loads(samples_json)
    except json.JSONDecodeError as error:
        raise ValueError(f"the samples are not valid JSON ({error})") from None
    if not isinstance(samples, dict) or not {"scores", "split"} <= set(samples):
        raise ValueError(
            'the samples must be a JSON object with "scores" and "split" lists (and optionally '
            '"category", "macro_group", "balanced", "hard_positives"), one entry per sample'
        )
    unknown = sorted(set(samples) - set(INPUTS))
    if unknown:
        raise ValueError(f"unknown input(s) {unknown}; valid: {', '.join(INPUTS)}")
    return samples


def compute(
    samples_json: str,
    n_bootstrap: float = 1000,
    confidence: float = 0.95,
    seed: float = 0,
    macro_min_samples: float = 25,
) -> dict[str, Any]:
    """The metric's results for the samples in ``samples_json`` (numbers arrive as floats)."""
    try:
        samples = parse_samples(samples_json)
        stats = accumulate(
            samples["scores"],
            samples["split"],
            samples.get("category"),
            samples.get("macro_group"),
            balanced=samples.get("balanced"),
            hard_positives=samples.get("hard_positives"),
        )
        return compute_metrics(
            stats,
            n_bootstrap=int(n_bootstrap),
            confidence=float(confidence),
            seed=int(seed),
            macro_min_samples=int(macro_min_samples),
        )
    except (ValueError, TypeError) as error:
        raise gr.Error(str(error)) from None


#: How the table heads each accuracy (and, with hard positives, the original I2T and the drop).
METRIC_LABELS = {
    "i2t": "I2T %",
    "t2i": "T2I %",
    "group": "group %",
    "i2t_original": "I2T original %",
    "i2t_drop": "I2T drop %",
}
#: What the table of results with hard positives says under it (as ``bindsplit eval`` does).
HARD_POSITIVE_NOTE = (
    "hard positives: I2T counts a sample right only if its positive and every hard positive "
    "score above every negative; I2T original leaves them out; I2T drop = original - I2T, the "
    "share of samples right only without them"
)
#: The columns of a scores file the metric reads (``--save-scores`` writes them all).
SCORES_COLUMNS = ("id", "scores", "bindsplit_label")
#: The scores file's metadata key holding each sample's number of hard positives (only in files
#: of builds that have them).
HARD_POSITIVES_KEY = b"bindsplit_hard_positives"
#: A results record's format tag.
RESULTS_FORMAT = "bindsplit-results/1"


def read_scores_file(path: str | Path) -> dict[str, Any]:
    """The metric's inputs from a ``--save-scores`` Parquet file (row order: its ``sample``
    column; ``hard_positives`` from its metadata, ``None`` without); a ValueError names a file
    that is not one."""
    import pandas as pd
    import pyarrow.parquet as pq

    try:
        table = pd.read_parquet(path)
        hard = (pq.read_schema(path).metadata or {}).get(HARD_POSITIVES_KEY)
    except (OSError, ValueError, ImportError) as error:
        raise ValueError(
            f"{Path(path).name} is not a readable Parquet scores file ({error})"
        ) from None
    missing = [column for column in SCORES_COLUMNS if column not in table.columns]
    if missing:
        raise ValueError(
            f"{Path(path).name} is not a scores file written by `bindsplit eval --save-scores` "
            f"(no column {', '.join(missing)})"
        )
    if "sample" in table.columns:
        table = table.sort_values("sample")

    def optional(column: str) -> list[Any] | None:
        if column not in table.columns or table[column].isna().all():
            return None
        return [None if value is None or value != value else value for value in table[column]]

    if hard is not None and not hard.isdigit():
        raise ValueError(
            f"{Path(path).name}: its {HARD_POSITIVES_KEY.decode()} metadata {hard!r} is not a count"
        )
    return {
        "scores": [[list(row) for row in matrix] for matrix in table["scores"]],
        "split": list(table["bindsplit_label"]),
        "category": optional("category"),
        "macro_group": optional("macro_group"),
        "balanced": None if optional("balanced") is None else [bool(v) for v in table["balanced"]],
        "hard_positives": None if hard is None else [int(hard)] * len(table),
    }


def _statistics(samples: dict[str, Any]) -> BindsplitStatistics:
    """The metric's statistics of a record's per-sample outcomes (label, I2T, T2I, I2T without
    the hard positives, flags)."""
    flags = samples.get("balanced")
    return outcome_statistics(
        samples["label"],
        samples["i2t"],
        samples.get("t2i"),
        i2t_original=samples.get("i2t_original"),
        balanced=None if flags is None else [bool(flag) for flag in flags],
    )


def record_metrics(record: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """A record's numbers re-derived from its per-sample outcomes at its own settings (its
    configurations only; the drop's intervals by its ``drop_interval_method``) and those
    settings, and whether they were; a record without outcomes: its metrics as stored."""
    metrics, samples = record.get("metrics") or {}, record.get("samples")
    if not isinstance(samples, dict) or not {"id", "label", "i2t"} <= set(samples):
        return dict(metrics), False
    stats = _statistics(samples)
    method = metrics.get("interval_method") or WILSON
    options: dict[str, Any] = {
        "n_bootstrap": int(metrics.get("n_bootstrap") or 0),
        "confidence": float(metrics.get("confidence") or 0.95),
        "seed": int(metrics.get("seed") or 0),
    }
    derived = compute_metrics(stats, interval_method=method, **options)
    drop_method = metrics.get("drop_interval_method") or method
    if stats.hard_positives and drop_method != method:
        drops = compute_metrics(stats, interval_method=drop_method, **options)
        derived.update(
            {
                key: value
                for key, value in drops.items()
                if key.endswith("/i2t_drop_ci") and key.split("/", 1)[0] not in GAPS
            }
        )
        derived["drop_interval_method"] = drops["drop_interval_method"]
    reported = {key.split("/", 1)[0] for key in metrics if key.endswith("/n")} | set(GAPS)
    kept = {k: v for k, v in derived.items() if "/" not in k or k.split("/", 1)[0] in reported}
    return kept, True


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """The results records of a JSON file (one record, or a list of them as ``results.json``);
    a ValueError names a file that holds none."""
    try:
        value = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise ValueError(f"{Path(path).name} is not a JSON file ({error})") from None
    records = value if isinstance(value, list) else [value]
    if not records or not all(
        isinstance(r, dict) and r.get("format") == RESULTS_FORMAT for r in records
    ):
        raise ValueError(
            f"{Path(path).name} holds no BindSplit results records (format {RESULTS_FORMAT}); "
            "upload what `bindsplit eval` wrote, or a --save-scores Parquet file"
        )
    return records


def _percent(value: float, signed: bool) -> str:
    return f"{100 * value:+.1f}" if signed else f"{100 * value:.1f}"


def _small(metrics: dict[str, Any], config: str, metric: str) -> bool:
    if config in GAPS:
        return any(_small(metrics, part, metric) for part in GAPS[config])
    value, n = metrics.get(f"{config}/{metric}"), metrics.get(f"{config}/n")
    return value is not None and n is not None and is_small_sample(round(value * n), n)


def _cell(metrics: dict[str, Any], config: str, metric: str, signed: bool = False) -> str:
    value = metrics.get(f"{config}/{metric}")
    if value is None:
        return "-"
    text = _percent(value, signed)
    interval = metrics.get(f"{config}/{metric}_ci")
    if interval is not None:
        text += f" [{_percent(interval[0], signed)}, {_percent(interval[1], signed)}]"
    return text + ("*" if _small(metrics, config, metric) else "")


def shown_metrics(metrics: dict[str, Any]) -> tuple[str, ...]:
    """The table's metric columns: the accuracies, and with hard positives the original I2T and
    the drop."""
    hard = any(key.endswith(f"/{metric}") for key in metrics for metric in HARD_POSITIVE_METRICS)
    return (*METRICS, *HARD_POSITIVE_METRICS) if hard else METRICS


def results_table(metrics: dict[str, Any]) -> list[list[str]]:
    """The metric's results as ``bindsplit eval`` prints them (columns: configuration, n and
    :func:`shown_metrics`): per configuration its n and each accuracy in percent with its
    interval, ``*`` where it rests on fewer than 30 samples or a degenerate count, then the gaps
    in points (n: the smaller count)."""
    shown = shown_metrics(metrics)
    configs = [key[: -len("/n")] for key in metrics if key.endswith("/n") and key.count("/") == 1]
    rows = [
        [config, str(metrics[f"{config}/n"]), *(_cell(metrics, config, m) for m in shown)]
        for config in configs
        if config not in GAPS
    ]
    for gap, (first, second) in GAPS.items():
        if any(f"{gap}/{metric}" in metrics for metric in shown):
            counts = [metrics.get(f"{first}/n"), metrics.get(f"{second}/n")]
            n = "" if None in counts else str(min(c for c in counts if c is not None))
            cells = (_cell(metrics, gap, m, signed=True) for m in shown)
            rows.append([f"gap ({first} - {second})", n, *cells])
    return rows


def markdown_table(title: str, metrics: dict[str, Any]) -> str:
    """:func:`results_table` as Markdown under ``title``, with what ``*`` flags (and, with hard
    positives, what the original I2T and the drop are)."""
    shown = shown_metrics(metrics)
    header = ["configuration", "n", *(METRIC_LABELS[metric] for metric in shown)]
    lines = [f"### {title}", "", "| " + " | ".join(header) + " |"]
    lines.append("|" + "---|" * len(header))
    lines += ["| " + " | ".join(row) + " |" for row in results_table(metrics)]
    level = metrics.get("confidence") or 0.95
    lines += ["", f"{100 * level:g}% intervals; * n < {SMALL_N} or a degenerate count (0/n, n/n)"]
    if shown != METRICS:
        lines += ["", HARD_POSITIVE_NOTE]
    return "\n".join(lines)


def tables(
    path: str | None,
    n_bootstrap: float = 1000,
    confidence: float = 0.95,
    seed: float = 0,
    macro_min_samples: float = 25,
) -> str:
    """The formatted table(s) of an uploaded file: a scores file's metric at these options, or
    each results record's numbers (re-derived from its outcomes where it keeps them)."""
    try:
        if not path:
            raise ValueError("upload a --save-scores Parquet file or a results JSON file")
        if str(path).lower().endswith(".parquet"):
            inputs = read_scores_file(path)
            stats = accumulate(
                inputs["scores"],
                inputs["split"],
                inputs["category"],
                inputs["macro_group"],
                balanced=inputs["balanced"],
                hard_positives=inputs["hard_positives"],
            )
            metrics = compute_metrics(
                stats,
                n_bootstrap=int(n_bootstrap),
                confidence=float(confidence),
                seed=int(seed),
                macro_min_samples=int(macro_min_samples),
            )
            return markdown_table(f"{Path(path).name}: {stats.n} samples", metrics)
        parts = []
        for record in read_records(path):
            metrics, derived = record_metrics(record)
            model = (record.get("model") or {}).get("id", "?")
            benchmark = (record.get("dataset") or {}).get("benchmark", "?")
            how = "re-derived from its per-sample outcomes" if derived else "as stored"
            parts.append(markdown_table(f"{model} on {benchmark} ({how})", metrics))
        return "\n\n".join(parts)
    except (ValueError, TypeError, KeyError) as error:
        raise gr.Error(str(error)) from None


def build_demo() -> gr.Blocks:
    """The Space's interface: samples and options in, the results dict out."""
    with gr.Blocks(title="BindSplit metric") as demo:
        gr.Markdown(
            "# BindSplit metric\n\nPaste samples as a JSON object with the metric's inputs "
            '(`"scores"`: per sample an images x captions similarity matrix, `"split"`: per '
            "sample its label, seen / unseen / partial / none by its (attribute, object) "
            "bindings or, in a relation build, its (subject, relation, object) triples; "
            'optionally `"category"`, `"macro_group"`, `"balanced"`, `"hard_positives"`: per '
            "sample its number of hard positives, the caption columns after the positives)."
        )
        samples = gr.Code(value=json.dumps(EXAMPLE, indent=1), language="json", label="samples")
        with gr.Row():
            n_bootstrap = gr.Number(value=1000, precision=0, label="n_bootstrap")
            confidence = gr.Number(value=0.95, label="confidence")
            seed = gr.Number(value=0, precision=0, label="seed")
            macro_min_samples = gr.Number(value=25, precision=0, label="macro_min_samples")
        button = gr.Button("Compute", variant="primary")
        results = gr.JSON(label="results")
        button.click(
            compute,
            inputs=[samples, n_bootstrap, confidence, seed, macro_min_samples],
            outputs=results,
            api_name="compute",
        )
        gr.Markdown(
            "## Or upload a file\n\nA per-sample scores file (`bindsplit eval --save-scores`, "
            "Parquet) or results records (`bindsplit eval --out`, a `results.json`): the table "
            "`bindsplit eval` prints."
        )
        upload = gr.File(label="scores file or results", file_types=[".parquet", ".json"])
        table_button = gr.Button("Show the table")
        table = gr.Markdown(label="table")
        table_button.click(
            tables,
            inputs=[upload, n_bootstrap, confidence, seed, macro_min_samples],
            outputs=table,
            api_name="table",
        )
        with gr.Accordion("Metric card", open=False):
            gr.Markdown(_card())
    return demo


if __name__ == "__main__":
    build_demo().launch()
