"""Hugging Face Space: the BindSplit leaderboard of a results dataset.

Per benchmark, the models ranked on ``full`` beside ``seen``, ``unseen`` and ``balanced``, with
95% intervals and the rank moves from ``full`` that a significance test backs (the rows of
``bindsplit compare``, computed by the same code), a figure, and filters by reference corpus and
model family. Runs as ``python app.py`` (what a gradio Space does).

The results come from ``BINDSPLIT_RESULTS`` (environment), else from ``results.txt`` beside this
file: a Hub dataset id written by ``bindsplit push-results`` (``ORG/bindsplit-results``), a folder
laid out like one, or a results table (``bindsplit export results-table``). The endpoint
``/leaderboard`` is also callable with ``gradio_client``:

    Client(URL).predict(benchmark, metric, reference, families, api_name="/leaderboard")

``GRADIO_SERVER_NAME`` and ``GRADIO_SERVER_PORT`` choose where it listens (gradio's defaults:
127.0.0.1:7860; a Space sets them itself).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import gradio as gr

from bindsplit_datasets.errors import BindsplitError
from bindsplit_datasets.reports.figures import results_figure
from bindsplit_datasets.reports.leaderboard_view import (
    Source,
    benchmarks,
    board,
    families,
    load_source,
    references,
)
from bindsplit_datasets.reports.results import METRIC_LABELS, METRICS

logger = logging.getLogger(__name__)

SOURCE_FILE = Path(__file__).resolve().parent / "results.txt"
"""The results this Space shows unless ``BINDSPLIT_RESULTS`` names others."""


def results_source() -> str:
    """``BINDSPLIT_RESULTS``, else the first line of ``results.txt``."""
    return os.environ.get("BINDSPLIT_RESULTS") or SOURCE_FILE.read_text("utf-8").strip()


def load() -> tuple[Source | None, str]:
    """The results and a line saying where they come from (or why there are none)."""
    where = results_source()
    try:
        source = load_source(where)
    except (BindsplitError, OSError) as error:
        logger.error("cannot read the results %s: %s", where, error)
        return None, f"Cannot read the results `{where}`: {error}"
    line = f"{len(source.records)} results from `{source.where}`"
    if source.skipped:
        line += f"; left out: {'; '.join(source.skipped)}"
    return source, line


def leaderboard(
    benchmark: str, metric: str, reference: str | None, family: list[str] | None
) -> dict[str, Any]:
    """The leaderboard rows per configuration (``compare``'s cells) and how moves were
    tested."""
    result = board(
        SOURCE.records if SOURCE else [], benchmark, metric, reference=reference, family=family
    )
    return {"benchmark": benchmark, "metric": metric, "note": result.note, "rows": result.rows}


def view(
    benchmark: str, metric: str, reference: str | None, family: list[str] | None
) -> tuple[str, Any, Any]:
    """The note, the table (one row per model) and the figure of one benchmark."""
    result = board(
        SOURCE.records if SOURCE else [], benchmark, metric, reference=reference, family=family
    )
    headers = result.headers()
    table = gr.Dataframe(value=result.wide() or None, headers=headers)
    figure = None
    if result.rows:
        figure = results_figure(result.records, [metric], list(result.rows))
    return result.note, table, figure


def build_demo() -> gr.Blocks:
    """The Space's interface."""
    names = benchmarks(SOURCE.records) if SOURCE else []
    first = names[0] if names else None
    with gr.Blocks(title="BindSplit leaderboard") as demo:
        gr.Markdown(
            "# BindSplit leaderboard\n\nImage-text matching accuracy of CLIP-like models on "
            "compositional benchmarks, split by whether the (attribute, object) bindings of a "
            "sample were **seen** in a reference caption corpus. Each configuration is ranked "
            "separately; a rank move from `full` is marked ↑/↓ only where a significance test "
            "backs it (`=`: within noise).\n\n" + STATUS
        )
        with gr.Row():
            benchmark = gr.Dropdown(names, value=first, label="benchmark")
            metric = gr.Dropdown(
                [(METRIC_LABELS[m], m) for m in METRICS], value="i2t", label="metric"
            )
            corpora = references(SOURCE.records, first) if SOURCE and first else []
            reference = gr.Dropdown(
                corpora, value=corpora[0] if corpora else None, label="reference corpus"
            )
        all_families = families(SOURCE.records) if SOURCE else []
        family = gr.CheckboxGroup(all_families, value=all_families, label="model family")
        note = gr.Markdown()
        table = gr.Dataframe(label="leaderboard", interactive=False)
        figure = gr.Plot(label="accuracy per configuration")
        inputs = [benchmark, metric, reference, family]

        def corpora_of(name: str) -> Any:
            values = references(SOURCE.records, name) if SOURCE and name else []
            return gr.Dropdown(values, value=values[0] if values else None)

        hidden = {"api_visibility": "private"}
        benchmark.change(corpora_of, benchmark, reference, **hidden)
        for component in inputs:
            component.change(view, inputs, [note, table, figure], **hidden)
        demo.load(view, inputs, [note, table, figure], **hidden)
        gr.api(leaderboard, api_name="leaderboard")
    return demo


SOURCE, STATUS = load()

if __name__ == "__main__":
    build_demo().launch()
