"""Hugging Face Space: the BindSplit leaderboard of a results dataset.

Per benchmark, the models ranked on ``full`` beside ``seen``, ``partial``, ``unseen`` and
``balanced`` with the seen-minus-unseen and seen-minus-partial gaps, each a number a click on its
header sorts; per configuration the rank, accuracy, interval, n and the rank move from ``full``
that a significance test backs (the rows of ``bindsplit compare``, computed by the same code); a
figure; filters by reference corpus and model family; an About tab. Runs as ``python app.py``
(what a gradio Space does).

The results come from ``BINDSPLIT_RESULTS`` (environment), else from ``results.txt`` beside this
file: a Hub dataset id written by ``bindsplit push-results`` (``ORG/bindsplit-results``), a folder
laid out like one, the flat folder ``bindsplit eval --out-dir`` writes, or a results table
(``bindsplit export results-table``). Files and rows that cannot be read are left out and listed
on the page. The endpoint ``/leaderboard`` returns numbers and is callable with
``gradio_client``:

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
import pandas as pd

from bindsplit_datasets.errors import BindsplitError
from bindsplit_datasets.reports.figures import results_figure
from bindsplit_datasets.reports.leaderboard_text import about_markdown, escape_markdown
from bindsplit_datasets.reports.leaderboard_view import (
    BOARD_CONFIGS,
    CONFIG_COLUMNS,
    Board,
    Source,
    benchmark_metrics,
    benchmarks,
    board,
    families,
    load_source,
    references,
)
from bindsplit_datasets.reports.results import METRIC_LABELS, REFERENCE_CONFIG

logger = logging.getLogger(__name__)

SOURCE_FILE = Path(__file__).resolve().parent / "results.txt"
"""The results this Space shows unless ``BINDSPLIT_RESULTS`` names others."""
#: Columns shown as text; every other column is a number (or a flag).
TEXT_COLUMNS = ("model", "scored_by")


def results_source() -> str:
    """``BINDSPLIT_RESULTS``, else the first line of ``results.txt``."""
    return os.environ.get("BINDSPLIT_RESULTS") or SOURCE_FILE.read_text("utf-8").strip()


def load() -> tuple[Source | None, str]:
    """The results and a line saying where they come from, what was left out, or why there are
    none (escaped: paths and errors are shown as they are, never as Markdown)."""
    where = results_source()
    try:
        source = load_source(where)
    except (BindsplitError, OSError, ValueError) as error:
        logger.error("cannot read the results %s: %s", where, error)
        return (
            None,
            f"Cannot read the results {escape_markdown(where)}: {escape_markdown(str(error))}",
        )
    line = f"{len(source.records)} results from {escape_markdown(source.where)}"
    if source.skipped:
        left_out = "\n".join(f"- {escape_markdown(note)}" for note in source.skipped)
        line += f"\n\nLeft out ({len(source.skipped)}):\n\n{left_out}"
    return source, line


def _board(benchmark: str, metric: str, reference: str | None, family: list[str] | None) -> Board:
    return board(
        SOURCE.records if SOURCE else [], benchmark, metric, reference=reference, family=family
    )


def leaderboard(
    benchmark: str, metric: str, reference: str | None, family: list[str] | None
) -> dict[str, Any]:
    """The leaderboard as numbers: per configuration the rows (rank, model, scored_by,
    accuracy %, ci_low, ci_high, n, move, within_noise, small_n), per model the overview
    (accuracy per configuration, gaps with intervals and n), how moves were tested, and the
    files or rows left out."""
    result = _board(benchmark, metric, reference, family)
    return {
        "benchmark": benchmark,
        "metric": metric,
        "note": result.note,
        "columns": list(CONFIG_COLUMNS),
        "rows": result.rows,
        "models": result.models,
        "skipped": SOURCE.skipped if SOURCE else [],
    }


def _frame(columns: list[str], rows: list[list[Any]]) -> gr.Dataframe:
    """A typed table: numbers sort as numbers."""
    types = [
        "str" if column in TEXT_COLUMNS else "bool" if column == "small_n" else "number"
        for column in columns
    ]
    frame = pd.DataFrame(rows, columns=columns)
    return gr.Dataframe(value=frame, headers=columns, datatype=types)


def view(
    benchmark: str, metric: str, reference: str | None, family: list[str] | None, config: str
) -> tuple[str, Any, Any, Any]:
    """The note, the overview (one row per model), one configuration's table and the figure."""
    result = _board(benchmark, metric, reference, family)
    overview = _frame(result.overview_columns(), result.overview())
    detail = _frame(list(CONFIG_COLUMNS), result.table(config))
    figure = None
    if result.rows:
        figure = results_figure(result.records, [metric], list(result.rows))
    return escape_markdown(result.note), overview, detail, figure


def _metric_choices(name: str | None) -> list[tuple[str, str]]:
    found = benchmark_metrics(SOURCE.records, name) if SOURCE and name else []
    return [(METRIC_LABELS[metric], metric) for metric in found]


def build_demo() -> gr.Blocks:
    """The Space's interface: the leaderboard tab and the About tab."""
    names = benchmarks(SOURCE.records) if SOURCE else []
    first = names[0] if names else None
    with gr.Blocks(title="BindSplit leaderboard") as demo:
        gr.Markdown(
            "# BindSplit leaderboard\n\nImage-text matching accuracy (%) of CLIP-like models on "
            "compositional benchmarks, split by whether the (attribute, object) bindings of a "
            "sample were **seen** in a reference caption corpus. Click a column header to sort; "
            "`gap` is seen minus unseen in points. See the About tab."
        )
        gr.Markdown(STATUS, elem_id="status")
        with gr.Tab("Leaderboard"):
            with gr.Row():
                benchmark = gr.Dropdown(names, value=first, label="benchmark")
                metrics = _metric_choices(first)
                metric = gr.Dropdown(
                    metrics, value=metrics[0][1] if metrics else None, label="metric"
                )
                corpora = references(SOURCE.records, first) if SOURCE and first else []
                reference = gr.Dropdown(
                    corpora, value=corpora[0] if corpora else None, label="reference corpus"
                )
            all_families = families(SOURCE.records) if SOURCE else []
            family = gr.CheckboxGroup(all_families, value=all_families, label="model family")
            note = gr.Markdown()
            overview = gr.Dataframe(label="leaderboard", interactive=False, elem_id="overview")
            config = gr.Dropdown(
                list(BOARD_CONFIGS),
                value=REFERENCE_CONFIG,
                label="configuration",
            )
            detail = gr.Dataframe(label="configuration", interactive=False, elem_id="detail")
            figure = gr.Plot(label="accuracy per configuration")
        with gr.Tab("About"):
            gr.Markdown(about_markdown())
        inputs = [benchmark, metric, reference, family, config]
        outputs = [note, overview, detail, figure]

        def choices_of(name: str) -> tuple[Any, Any]:
            values = references(SOURCE.records, name) if SOURCE and name else []
            found = _metric_choices(name)
            return (
                gr.Dropdown(values, value=values[0] if values else None),
                gr.Dropdown(found, value=found[0][1] if found else None),
            )

        hidden = {"api_visibility": "private"}
        benchmark.change(choices_of, benchmark, [reference, metric], **hidden)
        for component in inputs:
            component.change(view, inputs, outputs, **hidden)
        demo.load(view, inputs, outputs, **hidden)
        gr.api(leaderboard, api_name="leaderboard")
    return demo


SOURCE, STATUS = load()

if __name__ == "__main__":
    build_demo().launch()
