"""The metric Space's file uploads (metrics/bindsplit/app.py, which cannot import the package):
a --save-scores Parquet file and results records give the table `bindsplit eval` prints."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from report_records import (
    SAMPLE_BALANCED,
    SAMPLE_LABELS,
    genuine_hard_record,
    genuine_hard_scores,
    genuine_record,
    genuine_scores,
)

from bindsplit_datasets.metric_core import accumulate, compute_metrics
from bindsplit_datasets.names import METRIC_LABELS
from bindsplit_datasets.reports import write_records
from bindsplit_datasets.reports.keys import REPORTED_METRICS
from bindsplit_datasets.reports.tables import HARD_POSITIVE_NOTE, format_record_table
from bindsplit_datasets.scoring.scores_file import HARD_POSITIVES_KEY, write_scores

METRIC = Path(__file__).resolve().parents[1] / "metrics" / "bindsplit"


@pytest.fixture(scope="module")
def app() -> ModuleType:
    """The Space's app.py as the Space runs it: its folder's modules top-level (under names
    of their own here, and gone from sys.modules afterwards)."""
    siblings = (
        "bindsplit_core",
        "bindsplit_bootstrap",
        "bindsplit_intervals",
        "bindsplit_outcomes",
    )
    sys.path.insert(0, str(METRIC))
    try:
        spec = importlib.util.spec_from_file_location("metric_space_app", METRIC / "app.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(METRIC))
        for name in siblings:
            sys.modules.pop(name, None)


def rendered_rows(text: str) -> list[list[str]]:
    """The rows of a text table of `bindsplit eval` (cells apart by two spaces or more)."""
    lines = [line.strip() for line in text.splitlines()[2:] if line.strip()]
    return [re.split(r"\s{2,}", line) for line in lines if not set(line) <= {"-", " "}]


@pytest.mark.parametrize("method", ["wilson", "clopper-pearson"])
def test_the_table_is_the_one_bindsplit_eval_prints(app: ModuleType, method: str) -> None:
    record = genuine_record(method=method)
    expected = rendered_rows(format_record_table(record))[:-1]  # the last line: the note
    assert app.results_table(record["metrics"]) == expected
    assert expected[0][0] == "full" and expected[-1][0] == "gap (seen - partial)"


def test_a_scores_file_gives_the_metric_at_the_options_chosen(
    app: ModuleType, tmp_path: Path
) -> None:
    path = write_scores(
        tmp_path / "s.parquet",
        genuine_scores(4),
        SAMPLE_LABELS,
        ids=[f"id{i}" for i in range(len(SAMPLE_LABELS))],
        balanced=SAMPLE_BALANCED,
        fingerprint="f" * 64,
    )
    inputs = app.read_scores_file(path)
    assert inputs["split"] == SAMPLE_LABELS and inputs["balanced"] == SAMPLE_BALANCED
    assert inputs["category"] is None and inputs["macro_group"] is None
    options = {"n_bootstrap": 100, "confidence": 0.9, "seed": 2, "macro_min_samples": 25}
    expected = compute_metrics(
        accumulate(genuine_scores(4), SAMPLE_LABELS, balanced=SAMPLE_BALANCED), **options
    )
    text = app.tables(str(path), *options.values())
    assert text == app.markdown_table(f"s.parquet: {len(SAMPLE_LABELS)} samples", expected)
    full = next(line for line in text.splitlines() if line.startswith("| full |"))
    assert full.startswith(f"| full | {len(SAMPLE_LABELS)} | ")
    assert "90% intervals" in text


def test_records_are_shown_re_derived_from_their_outcomes(app: ModuleType, tmp_path: Path) -> None:
    genuine = genuine_record()
    forged = json.loads(json.dumps(genuine))
    forged["model"]["id"] = "org/forged"
    forged["metrics"]["full/i2t"] = 0.99  # what the outcomes do not give
    bare = {key: value for key, value in genuine.items() if key != "samples"}
    bare["model"] = {**bare["model"], "id": "org/bare"}
    path = tmp_path / "results.json"
    path.write_text(json.dumps([genuine, forged, bare]), encoding="utf-8")
    derived, was = app.record_metrics(forged)
    assert was and derived["full/i2t"] == genuine["metrics"]["full/i2t"]
    assert {k: v for k, v in genuine["metrics"].items() if k in derived} == derived
    assert app.record_metrics(bare) == (bare["metrics"], False)
    text = app.tables(str(path))
    assert "org/clip on bivlc (re-derived from its per-sample outcomes)" in text
    assert "org/forged on bivlc (re-derived" in text and "99.0" not in text
    assert "org/bare on bivlc (as stored)" in text
    assert text.count("| full |") == 3


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not a JSON file"),
        (json.dumps({"format": "bindsplit-build/2"}), "holds no BindSplit results records"),
        (json.dumps([]), "holds no BindSplit results records"),
    ],
)
def test_bad_uploads_are_one_message(
    app: ModuleType, tmp_path: Path, content: str, message: str
) -> None:
    import gradio as gr

    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(gr.Error, match=message):
        app.tables(str(path))
    (tmp_path / "bad.parquet").write_bytes(b"not parquet")
    with pytest.raises(gr.Error, match="is not a readable Parquet scores file"):
        app.tables(str(tmp_path / "bad.parquet"))
    with pytest.raises(gr.Error, match="upload a --save-scores Parquet file"):
        app.tables(None)


def test_a_demo_style_collection_reads(app: ModuleType, tmp_path: Path) -> None:
    records: list[dict[str, Any]] = [genuine_record("a", 1), genuine_record("b", 2)]
    path = write_records(records, tmp_path / "results.json")
    assert [r["model"]["id"] for r in app.read_records(path)] == ["a", "b"]


# -- hard positives ----------------------------------------------------------------------------


def test_the_space_restates_the_packages_hard_positive_names(app: ModuleType) -> None:
    assert app.HARD_POSITIVE_NOTE == HARD_POSITIVE_NOTE
    assert app.HARD_POSITIVES_KEY == HARD_POSITIVES_KEY
    # the accuracies the Space shows (a half-truth build's own metrics it does not)
    shown = {m: label for m, label in METRIC_LABELS.items() if m in REPORTED_METRICS}
    assert {m: label.removesuffix(" %") for m, label in app.METRIC_LABELS.items()} == shown


@pytest.mark.parametrize("method", ["wilson", "clopper-pearson"])
def test_a_hard_positive_records_table_is_the_one_bindsplit_eval_prints(
    app: ModuleType, method: str
) -> None:
    record = genuine_hard_record(method=method)
    printed = format_record_table(record)
    assert printed.endswith(HARD_POSITIVE_NOTE)
    expected = rendered_rows(printed)[:-2]  # the last lines: the interval note, what they are
    assert app.results_table(record["metrics"]) == expected
    assert len(expected[0]) == 2 + 5  # configuration, n, I2T, T2I, group, original, drop
    assert expected[-1][0] == "gap (seen - partial)"
    text = app.markdown_table("t", record["metrics"])
    assert "| configuration | n | I2T % | T2I % | group % | I2T original % | I2T drop % |" in text
    assert text.endswith(HARD_POSITIVE_NOTE)
    assert "I2T drop" not in app.markdown_table("t", genuine_record()["metrics"])


def test_a_hard_positive_record_is_shown_re_derived(app: ModuleType, tmp_path: Path) -> None:
    genuine = genuine_hard_record()
    derived, was = app.record_metrics(genuine)
    assert was and derived == {k: v for k, v in genuine["metrics"].items() if k in derived}
    assert {"full/i2t_original_ci", "gap/i2t_drop_ci", "drop_interval_method"} <= set(derived)
    forged = json.loads(json.dumps(genuine))
    forged["metrics"]["full/i2t_drop"] = 0.5  # what the outcomes do not give
    forged["metrics"]["full/i2t_drop_ci"] = [0.45, 0.55]
    assert app.record_metrics(forged)[0]["full/i2t_drop"] == genuine["metrics"]["full/i2t_drop"]
    # the drop's intervals by the record's own drop_interval_method
    exact = genuine_hard_record(method="clopper-pearson")["metrics"]
    other = {
        **genuine,
        "metrics": {**genuine["metrics"], "drop_interval_method": exact["interval_method"]},
    }
    derived, _ = app.record_metrics(other)
    assert derived["full/i2t_drop_ci"] == exact["full/i2t_drop_ci"]
    assert derived["full/i2t_ci"] == genuine["metrics"]["full/i2t_ci"]  # Wilson's still
    path = write_records([genuine, forged], tmp_path / "results.json")
    text = app.tables(str(path))
    assert text.count("| I2T original % | I2T drop % |") == 2 and "50.0" not in text


def test_a_hard_positive_scores_file_gives_the_metric_with_them(
    app: ModuleType, tmp_path: Path
) -> None:
    hard = [1] * len(SAMPLE_LABELS)
    path = write_scores(
        tmp_path / "hard.parquet",
        genuine_hard_scores(4),
        SAMPLE_LABELS,
        ids=[f"id{i}" for i in range(len(SAMPLE_LABELS))],
        balanced=SAMPLE_BALANCED,
        fingerprint="h" * 64,
        hard_positives=1,
    )
    inputs = app.read_scores_file(path)
    assert inputs["hard_positives"] == hard
    options = {"n_bootstrap": 0, "confidence": 0.95, "seed": 0, "macro_min_samples": 25}
    stats = accumulate(
        genuine_hard_scores(4), SAMPLE_LABELS, balanced=SAMPLE_BALANCED, hard_positives=hard
    )
    expected = compute_metrics(stats, **options)
    assert "full/i2t_drop" in expected
    text = app.tables(str(path), *options.values())
    assert text == app.markdown_table(f"hard.parquet: {len(SAMPLE_LABELS)} samples", expected)
    assert "I2T drop %" in text and HARD_POSITIVE_NOTE in text
    # a file without the metadata is read without hard positives (the plain metric)
    plain = write_scores(
        tmp_path / "plain.parquet",
        genuine_scores(4),
        SAMPLE_LABELS,
        ids=[f"id{i}" for i in range(len(SAMPLE_LABELS))],
    )
    assert app.read_scores_file(plain)["hard_positives"] is None
