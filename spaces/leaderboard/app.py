"""Hugging Face Space: the BindSplit leaderboard of a results dataset.

Per benchmark, the models ranked on ``full`` beside ``seen``, ``partial``, ``unseen`` and
``balanced`` with the seen-minus-unseen and seen-minus-partial gaps, each accuracy with its
interval and n (``84.3 ±4.1``, small or degenerate counts flagged) and sorted as a number by a
click on its header; a search over model names and a column picker; the benchmark's attribute
and relation builds side by side; per configuration the rank, accuracy, interval, n and the rank
move from ``full`` that a significance test backs (the rows of ``bindsplit compare``, computed by
the same code); a figure; a view across benchmarks (mean unseen accuracy, mean gap, Borda rank);
filters that offer what the benchmark has; an About tab. Runs as ``python app.py`` (what a
gradio Space does). Everything it computes comes from ``bindsplit_datasets.reports``
(``leaderboard_view``, ``leaderboard_across``, ``leaderboard_cells``); this file lays it out.

The results come from ``BINDSPLIT_RESULTS`` (environment), else from ``results.txt`` beside this
file: a Hub dataset id written by ``bindsplit push-results`` (``ORG/bindsplit-results``), a folder
laid out like one, the flat folder ``bindsplit eval --out-dir`` writes, or a results table
(``bindsplit export results-table``). Files and rows that cannot be read are left out and listed
on the page; the page names a Hub dataset, never a path of the server. The endpoints
``/leaderboard`` and ``/across`` return numbers and are callable with ``gradio_client``:

    Client(URL).predict(benchmark, metric, reference, families, api_name="/leaderboard")
    Client(URL).predict(metric, reference, kind, api_name="/across")

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
from bindsplit_datasets.reports.leaderboard_across import across_benchmarks, kinds_side_by_side
from bindsplit_datasets.reports.leaderboard_cells import Table, matches
from bindsplit_datasets.reports.leaderboard_sources import without_path
from bindsplit_datasets.reports.leaderboard_text import about_markdown, escape_markdown
from bindsplit_datasets.reports.leaderboard_view import (
    CONFIG_COLUMNS,
    Board,
    Source,
    benchmark_metrics,
    benchmarks,
    binding_kinds,
    board,
    default_groups,
    families,
    load_source,
    picker_groups,
    references,
)
from bindsplit_datasets.reports.results import METRIC_LABELS, METRICS, REFERENCE_CONFIG

logger = logging.getLogger(__name__)

SOURCE_FILE = Path(__file__).resolve().parent / "results.txt"
"""The results this Space shows unless ``BINDSPLIT_RESULTS`` names others."""
#: How a flagged cell (small n, degenerate count) looks.
FLAGGED_STYLE = "background-color: #fff3cd"
#: The page's own style: tables in the page's font, a size smaller (a board of seven value
#: columns and their n fits a Space's width), the notes quieter.
CSS = """
.board * { font-family: var(--font) !important; font-size: var(--text-sm) !important }
.note { font-size: var(--text-sm); opacity: 0.85 }
"""


def results_source() -> str:
    """``BINDSPLIT_RESULTS``, else the first line of ``results.txt``."""
    return os.environ.get("BINDSPLIT_RESULTS") or SOURCE_FILE.read_text("utf-8").strip()


def load() -> tuple[Source | None, str]:
    """The results and a line saying what they hold and where they come from (a Hub dataset,
    or what kind of local source: never a path of the server), what was left out, or why there
    are none (escaped: file names and errors are shown as they are, never as Markdown)."""
    where = results_source()
    try:
        source = load_source(where)
    except (BindsplitError, OSError, ValueError) as error:
        logger.error("cannot read the results %s: %s", where, error)
        return None, f"Cannot read the results: {escape_markdown(without_path(str(error), where))}"
    records = source.records
    models = {str(record["model"]["id"]) for record in records}
    line = (
        f"{len(records)} results of {len(models)} models on {len(benchmarks(records))} "
        f"benchmarks, from {escape_markdown(source.label)}"
    )
    if source.skipped:
        left_out = "\n".join(f"- {escape_markdown(note)}" for note in source.skipped)
        line += f"\n\nLeft out ({len(source.skipped)}):\n\n{left_out}"
    return source, line


def _records() -> list[dict[str, Any]]:
    return SOURCE.records if SOURCE else []


def _board(
    benchmark: str,
    metric: str,
    reference: str | None,
    family: list[str] | None,
    kind: str | None = None,
) -> Board:
    return board(_records(), benchmark, metric, reference=reference, family=family, kind=kind)


def leaderboard(
    benchmark: str,
    metric: str,
    reference: str | None,
    family: list[str] | None,
    kind: str | None = None,
) -> dict[str, Any]:
    """The leaderboard as numbers: per configuration the rows (rank, model, scored_by,
    accuracy %, ci_low, ci_high, n, move, within_noise, small_n, flag), per model the overview
    (accuracy, interval, n and flag per configuration, gaps with intervals and n, or why a gap
    cannot be computed), the empty configurations and why, how moves were tested, and the
    files or rows left out. ``kind``: the binding kind (None: the benchmark's only one)."""
    result = _board(benchmark, metric, reference, family, kind)
    return {
        "benchmark": benchmark,
        "metric": metric,
        "note": result.note,
        "columns": list(CONFIG_COLUMNS),
        "rows": result.rows,
        "models": result.models,
        "empty": result.empty,
        "messages": result.messages(),
        "skipped": SOURCE.skipped if SOURCE else [],
    }


def across(metric: str, reference: str | None, kind: str | None) -> dict[str, Any]:
    """The models across benchmarks as numbers: per model its Borda rank and score, how many
    benchmarks it has, its mean unseen accuracy and mean gap (points, n summed) and its unseen
    accuracy on each benchmark; the benchmarks ranked and those left out (and why)."""
    view = across_benchmarks(_records(), metric, reference=reference, kind=kind)
    return {
        "metric": metric,
        "note": view.note,
        "rows": view.rows,
        "benchmarks": view.benchmarks,
        "left_out": view.left_out,
    }


def _frame(table: Table) -> dict[str, Any]:
    """A table for ``gr.Dataframe``: the numbers (what a click on a header sorts by), the text
    each cell shows, and the style of flagged cells."""
    return {
        "headers": table.headers,
        "data": table.values,
        "metadata": {
            "display_value": table.texts,
            "styling": [
                [FLAGGED_STYLE if flagged else "" for flagged in line] for line in table.flagged
            ],
        },
    }


def _datatypes(table: Table) -> list[str]:
    """Per column, ``number`` where every value is a number (so that it sorts as one)."""
    return [
        "number"
        if all(
            isinstance(line[i], (int, float)) and not isinstance(line[i], bool)
            for line in table.values
            if line[i] is not None
        )
        and any(line[i] is not None for line in table.values)
        else "str"
        for i in range(len(table.headers))
    ]


def _dataframe(table: Table) -> Any:
    """The update of a ``gr.Dataframe`` to ``table`` (left as it is for a table of no column:
    a hidden one)."""
    if not table.headers:
        return gr.skip()
    types: Any = _datatypes(table)
    return gr.Dataframe(value=_frame(table), headers=table.headers, datatype=types)


def _detail(result: Board, config: str, query: str | None) -> Table:
    """One configuration's rows, those of the models the search finds."""
    rows = result.table(config)
    texts = [["" if cell is None else str(cell) for cell in line] for line in rows]
    table = Table(list(CONFIG_COLUMNS), rows, texts, [[False] * len(CONFIG_COLUMNS) for _ in rows])
    return table.lines([matches(str(line[1]), query) for line in rows])


def _lines(lines: list[str]) -> str:
    return "\n".join(f"- {escape_markdown(line)}" for line in lines)


def view(
    benchmark: str,
    metric: str,
    reference: str | None,
    kind: str | None,
    family: list[str] | None,
    query: str,
    columns: list[str] | None,
    config: str,
) -> tuple[Any, ...]:
    """The note, the overview (one row per model, searched, its columns picked), what the
    tables cannot show (empty configurations, gaps that cannot be computed), the binding kinds
    side by side, the configuration filter, one configuration's table and its note, and the
    figure."""
    result = _board(benchmark, metric, reference, family, kind)
    note = escape_markdown(result.note)
    messages = _lines(result.messages())
    overview = _dataframe(result.overview_table(columns, query))
    kinds = binding_kinds(_records(), benchmark) if benchmark else []
    side, notes = Table([], [], [], []), list[str]()
    if len(kinds) > 1:
        side, notes = kinds_side_by_side(
            _records(), benchmark, metric, reference=reference, family=family
        )
    kinds_note = _lines(
        [f"{benchmark} has {len(kinds)} binding kinds, each its own build, ranked apart", *notes]
    )
    choices = result.configs
    chosen = config if config in choices else (choices[0] if choices else REFERENCE_CONFIG)
    detail = _dataframe(_detail(result, chosen, query))
    detail_note = _lines(result.messages(chosen)) if choices else "No configuration has a value."
    figure = results_figure(result.records, [metric], choices) if result.rows else None
    return (
        note,
        overview,
        messages,
        gr.Column(visible=len(kinds) > 1),
        kinds_note,
        _dataframe(side),
        gr.Dropdown(choices, value=chosen),
        detail,
        detail_note,
        figure,
    )


def across_view(metric: str, reference: str | None, kind: str | None) -> tuple[str, Any]:
    """The cross-benchmark note and table."""
    result = across_benchmarks(_records(), metric, reference=reference, kind=kind)
    return escape_markdown(result.note), _dataframe(result.table())


def _metric_choices(found: list[str]) -> list[tuple[str, str]]:
    return [(METRIC_LABELS[metric], metric) for metric in found]


def options(benchmark: str | None) -> tuple[Any, ...]:
    """What the filters offer for ``benchmark``: its metrics, reference corpora (the most used
    first), binding kinds and model families (all ticked)."""
    records = _records()
    found = benchmark_metrics(records, benchmark) if benchmark else []
    corpora = references(records, benchmark) if benchmark else []
    kinds = binding_kinds(records, benchmark) if benchmark else []
    names = families(records, benchmark) if benchmark else []
    return (
        gr.Dropdown(_metric_choices(found), value=found[0] if found else None),
        gr.Dropdown(corpora, value=corpora[0] if corpora else None),
        gr.Dropdown(kinds, value=kinds[0] if kinds else None),
        gr.CheckboxGroup(names, value=names),
    )


HEADER = (
    "# BindSplit leaderboard\n\nImage-text matching accuracy (%) of CLIP-like models on "
    "compositional benchmarks, split by whether the bindings of a sample (attribute-object pairs "
    "such as *red car*, or subject-relation-object triples such as *dog on sofa*) were **seen** "
    "in a reference caption corpus. Each accuracy is shown with its 95% interval "
    "(`84.3 ±4.1`) and its number of samples (`n`); click a column header to sort; `gap` is "
    "seen minus unseen in points. See the About tab."
)


def build_demo() -> gr.Blocks:
    """The Space's interface: the leaderboard tab, the cross-benchmark tab and the About
    tab."""
    records = _records()
    names = benchmarks(records)
    first = names[0] if names else None
    metric0, reference0, kind0, family0 = options(first)
    with gr.Blocks(title="BindSplit leaderboard", fill_width=True) as demo:
        gr.Markdown(HEADER)
        gr.Markdown(STATUS, elem_id="status")
        with gr.Tab("Leaderboard"):
            with gr.Row():
                benchmark = gr.Dropdown(names, value=first, label="benchmark", elem_id="benchmark")
                metric = gr.Dropdown(
                    metric0.choices, value=metric0.value, label="metric", interactive=True
                )
                reference = gr.Dropdown(
                    reference0.choices,
                    value=reference0.value,
                    label="reference corpus",
                    interactive=True,
                )
                kind = gr.Dropdown(
                    kind0.choices,
                    value=kind0.value,
                    label="bindings",
                    interactive=True,
                    elem_id="bindings",
                )
            with gr.Row():
                family = gr.CheckboxGroup(
                    family0.choices,
                    value=family0.value,
                    label="model family",
                    scale=2,
                    elem_id="family",
                )
                search = gr.Textbox(
                    label="search models",
                    placeholder="words of a model name, e.g. clip b32",
                    elem_id="search",
                    scale=1,
                )
            columns = gr.CheckboxGroup(
                picker_groups(), value=default_groups(records), label="columns", elem_id="columns"
            )
            note = gr.Markdown(elem_classes="note")
            overview = gr.Dataframe(
                label="leaderboard", interactive=False, elem_id="overview", elem_classes="board"
            )
            messages = gr.Markdown(elem_id="messages")
            with gr.Column(visible=False) as kinds_box:
                gr.Markdown("### Attribute and relation builds side by side")
                kinds_note = gr.Markdown(elem_classes="note")
                kinds = gr.Dataframe(
                    label="bindings", interactive=False, elem_id="kinds", elem_classes="board"
                )
            config = gr.Dropdown(
                [REFERENCE_CONFIG], value=REFERENCE_CONFIG, label="configuration", elem_id="config"
            )
            detail_note = gr.Markdown(elem_id="detail-note")
            detail = gr.Dataframe(
                label="configuration", interactive=False, elem_id="detail", elem_classes="board"
            )
            figure = gr.Plot(label="accuracy per configuration")
        with gr.Tab("Across benchmarks"):
            with gr.Row():
                across_metrics = [
                    m for m in METRICS if any(m in benchmark_metrics(records, b) for b in names)
                ]
                across_metric = gr.Dropdown(
                    _metric_choices(across_metrics),
                    value=across_metrics[0] if across_metrics else None,
                    label="metric",
                )
                corpora = references(records)
                across_reference = gr.Dropdown(
                    corpora, value=corpora[0] if corpora else None, label="reference corpus"
                )
                kinds_all = binding_kinds(records)
                across_kind = gr.Dropdown(
                    kinds_all, value=kinds_all[0] if kinds_all else None, label="bindings"
                )
            across_note = gr.Markdown(elem_classes="note")
            across_table = gr.Dataframe(
                label="across benchmarks", interactive=False, elem_id="across", elem_classes="board"
            )
        with gr.Tab("About"):
            gr.Markdown(about_markdown())
        inputs: list[Any] = [benchmark, metric, reference, kind, family, search, columns, config]
        outputs = [
            note,
            overview,
            messages,
            kinds_box,
            kinds_note,
            kinds,
            config,
            detail,
            detail_note,
            figure,
        ]
        across_inputs: list[Any] = [across_metric, across_reference, across_kind]
        across_outputs = [across_note, across_table]

        hidden: dict[str, Any] = {"api_visibility": "private"}
        # a change made while the page is still answering the one before is shown too
        last = {**hidden, "trigger_mode": "always_last"}
        benchmark.input(options, benchmark, [metric, reference, kind, family], **last).then(
            view, inputs, outputs, **hidden
        )
        for component in inputs[1:]:
            if component is not search:
                component.input(view, inputs, outputs, **last)
        search.change(view, inputs, outputs, **last)  # typed or pasted
        for component in across_inputs:
            component.input(across_view, across_inputs, across_outputs, **last)
        demo.load(view, inputs, outputs, **hidden)
        demo.load(across_view, across_inputs, across_outputs, **hidden)
        gr.api(leaderboard, api_name="leaderboard")
        gr.api(across, api_name="across")
    return demo


SOURCE, STATUS = load()

if __name__ == "__main__":
    build_demo().launch(css=CSS)
