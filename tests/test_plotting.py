"""Results records -> leaderboards, rank moves, comparison text and figures (hand-made records)."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest

from bindsplit_datasets import cli
from bindsplit_datasets.errors import SchemaError
from bindsplit_datasets.plotting import (
    RankChange,
    Row,
    format_comparison,
    group_by_benchmark,
    leaderboard,
    load_results,
    panel_metrics,
    plot_results,
    rank_changes,
)

N = {"full": 100, "seen": 60, "unseen": 10}


def record(
    model: str,
    values: dict[str, dict[str, float]],
    *,
    benchmark: str = "bivlc",
    fingerprint: str = "f1",
    revision: str = "main",
) -> dict[str, Any]:
    """A results record with the given accuracies; every interval is the value +- 0.05."""
    metrics: dict[str, Any] = {}
    for config, by_metric in values.items():
        metrics[f"{config}/n"] = N[config]
        for metric, value in by_metric.items():
            metrics[f"{config}/{metric}"] = value
            metrics[f"{config}/{metric}_ci"] = [round(value - 0.05, 4), round(value + 0.05, 4)]
    return {
        "format": "bindsplit-results/1",
        "model": {"id": model, "revision": revision, "class": "CLIPModel"},
        "dataset": {"data": "out/bivlc", "benchmark": benchmark, "fingerprint": fingerprint},
        "metrics": metrics,
    }


# full: alpha and beta tie at 0.80, gamma third. seen: beta, gamma, alpha. unseen: alpha and gamma
# tie at 0.50, beta third.
ALPHA = record(
    "alpha",
    {
        "full": {"i2t": 0.80, "t2i": 0.50, "group": 0.40},
        "seen": {"i2t": 0.70, "t2i": 0.55, "group": 0.45},
        "unseen": {"i2t": 0.50, "t2i": 0.30, "group": 0.20},
    },
)
BETA = record(
    "beta",
    {
        "full": {"i2t": 0.80, "t2i": 0.60, "group": 0.50},
        "seen": {"i2t": 0.75, "t2i": 0.60, "group": 0.50},
        "unseen": {"i2t": 0.40, "t2i": 0.20, "group": 0.10},
    },
)
GAMMA = record(
    "gamma",
    {
        "full": {"i2t": 0.60, "t2i": 0.40, "group": 0.30},
        "seen": {"i2t": 0.72, "t2i": 0.45, "group": 0.35},
        "unseen": {"i2t": 0.50, "t2i": 0.25, "group": 0.15},
    },
)
BIVLC = [ALPHA, BETA, GAMMA]
# 1 image x 2 captions: no T2I, no group.
ARO_ALPHA = record(
    "alpha",
    {"full": {"i2t": 0.90}, "seen": {"i2t": 0.70}, "unseen": {"i2t": 0.60}},
    benchmark="aro_vga",
    fingerprint="a1",
)
ARO_GAMMA = record(
    "gamma",
    {"full": {"i2t": 0.85}, "seen": {"i2t": 0.75}, "unseen": {"i2t": 0.55}},
    benchmark="aro_vga",
    fingerprint="a1",
)


def write_records(folder: Path, *records: dict[str, Any]) -> list[str]:
    paths = []
    for index, value in enumerate(records):
        path = folder / f"results_{index}.json"
        path.write_text(json.dumps(value), encoding="utf-8")
        paths.append(str(path))
    return paths


# --- loading ---------------------------------------------------------------------------------


def test_load_results_round_trips_records_in_order(tmp_path: Path) -> None:
    paths = write_records(tmp_path, ALPHA, ARO_GAMMA)
    assert load_results(paths) == [ALPHA, ARO_GAMMA]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not JSON"),
        (json.dumps({"format": "bindsplit-build/1"}), "found 'bindsplit-build/1'"),
        (json.dumps([1, 2]), "found 'int'"),
        (json.dumps([]), "empty list"),
        (json.dumps({**ALPHA, "model": {}}), "no model.id"),
        (json.dumps({**ALPHA, "dataset": {"data": "x"}}), "no dataset.benchmark"),
        (
            json.dumps({**ALPHA, "metrics": {**ALPHA["metrics"], "full/i2t": 80.0}}),
            "not a fraction",
        ),
        (
            json.dumps({**ALPHA, "metrics": {**ALPHA["metrics"], "seen/t2i_ci": [0.6, 0.5]}}),
            "low <= high",
        ),
        (
            json.dumps({**ALPHA, "metrics": {**ALPHA["metrics"], "unseen/n": -1}}),
            "not a sample count",
        ),
    ],
)
def test_load_results_names_the_bad_file(tmp_path: Path, content: str, expected: str) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(ALPHA), encoding="utf-8")
    bad.write_text(content, encoding="utf-8")
    with pytest.raises(SchemaError, match=expected) as error:
        load_results([good, bad])
    assert str(bad) in str(error.value)


def test_load_results_reads_a_collection_file(tmp_path: Path) -> None:
    single, collection = tmp_path / "one.json", tmp_path / "many.json"
    single.write_text(json.dumps(ALPHA), encoding="utf-8")
    collection.write_text(json.dumps([ARO_GAMMA, ALPHA]), encoding="utf-8")
    assert load_results([single, collection]) == [ALPHA, ARO_GAMMA, ALPHA]


def test_load_results_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="missing.json"):
        load_results([tmp_path / "missing.json"])


# --- leaderboards ----------------------------------------------------------------------------


def test_leaderboard_ranks_with_shared_ranks_for_ties() -> None:
    assert leaderboard(BIVLC, "full") == [
        Row(rank=1, model="alpha", accuracy=0.80, ci=(0.75, 0.85), n=100),
        Row(rank=1, model="beta", accuracy=0.80, ci=(0.75, 0.85), n=100),
        Row(rank=3, model="gamma", accuracy=0.60, ci=(0.55, 0.65), n=100),
    ]
    assert [(row.rank, row.model) for row in leaderboard(BIVLC, "seen")] == [
        (1, "beta"),
        (2, "gamma"),
        (3, "alpha"),
    ]
    assert [(row.rank, row.model) for row in leaderboard(BIVLC, "unseen", "group")] == [
        (1, "alpha"),
        (2, "gamma"),
        (3, "beta"),
    ]


def test_leaderboard_skips_models_without_the_metric() -> None:
    mixed_shape = [ARO_ALPHA, {**ARO_GAMMA, "metrics": {**ARO_GAMMA["metrics"], "full/t2i": 0.3}}]
    assert [row.model for row in leaderboard(mixed_shape, "full", "t2i")] == ["gamma"]
    assert leaderboard([ARO_ALPHA, ARO_GAMMA], "full", "t2i") == []


def test_leaderboard_refuses_mixed_benchmarks_and_duplicates() -> None:
    with pytest.raises(SchemaError, match="2 benchmarks"):
        leaderboard([ALPHA, ARO_GAMMA], "full")
    with pytest.raises(SchemaError, match="'alpha@main' has several results"):
        leaderboard([ALPHA, ALPHA], "full")
    with pytest.raises(ValueError, match="unknown metric"):
        leaderboard(BIVLC, "full", "accuracy")


def test_same_model_at_two_revisions_is_labelled_by_revision() -> None:
    old = record("alpha", {"full": {"i2t": 0.5}}, revision="v1")
    assert [row.model for row in leaderboard([ALPHA, old], "full")] == ["alpha@main", "alpha@v1"]


def test_rank_changes_relative_to_full() -> None:
    assert rank_changes(BIVLC) == [
        RankChange("alpha", {"full": 1, "seen": 3, "unseen": 1}, {"seen": "↓2", "unseen": ""}),
        RankChange("beta", {"full": 1, "seen": 1, "unseen": 3}, {"seen": "", "unseen": "↓2"}),
        RankChange("gamma", {"full": 3, "seen": 2, "unseen": 1}, {"seen": "↑1", "unseen": "↑2"}),
    ]
    assert all(change.moved for change in rank_changes(BIVLC))
    same_order = rank_changes([ARO_ALPHA, ARO_GAMMA], configs=("full", "unseen"))
    assert [change.markers for change in same_order] == [{"unseen": ""}, {"unseen": ""}]
    assert not any(change.moved for change in same_order)


def test_groups_per_benchmark_and_refuses_mixed_builds() -> None:
    groups = group_by_benchmark([ALPHA, ARO_ALPHA, BETA])
    assert {name: [r["model"]["id"] for r in group] for name, group in groups.items()} == {
        "bivlc": ["alpha", "beta"],
        "aro_vga": ["alpha"],
    }
    other_build = {**BETA, "dataset": {**BETA["dataset"], "fingerprint": "f2"}}
    with pytest.raises(SchemaError, match="different builds.*--allow-mixed-builds"):
        group_by_benchmark([ALPHA, other_build])
    assert len(group_by_benchmark([ALPHA, other_build], allow_mixed_builds=True)["bivlc"]) == 2


EXPECTED_COMPARISON = """\
bivlc: I2T accuracy, 3 models
  full
    rank  model  I2T %  95% CI          n
       1  alpha   80.0  [75.0, 85.0]  100
       1  beta    80.0  [75.0, 85.0]  100
       3  gamma   60.0  [55.0, 65.0]  100
  seen
    rank  model  I2T %  95% CI         n  vs full
       1  beta    75.0  [70.0, 80.0]  60
       2  gamma   72.0  [67.0, 77.0]  60  ↑1
       3  alpha   70.0  [65.0, 75.0]  60  ↓2
    order changes vs full: alpha ↓2, gamma ↑1
  unseen
    rank  model  I2T %  95% CI         n  vs full
       1  alpha   50.0  [45.0, 55.0]  10
       1  gamma   50.0  [45.0, 55.0]  10  ↑2
       3  beta    40.0  [35.0, 45.0]  10  ↓2
    order changes vs full: beta ↓2, gamma ↑2

aro_vga: I2T accuracy, 2 models
  full
    rank  model  I2T %  95% CI          n
       1  alpha   90.0  [85.0, 95.0]  100
       2  gamma   85.0  [80.0, 90.0]  100
  seen
    rank  model  I2T %  95% CI         n  vs full
       1  gamma   75.0  [70.0, 80.0]  60  ↑1
       2  alpha   70.0  [65.0, 75.0]  60  ↓1
    order changes vs full: alpha ↓1, gamma ↑1
  unseen
    rank  model  I2T %  95% CI         n  vs full
       1  alpha   60.0  [55.0, 65.0]  10
       2  gamma   55.0  [50.0, 60.0]  10
    order same as full"""


def test_format_comparison_exact_text() -> None:
    assert format_comparison([ALPHA, ARO_ALPHA, BETA, GAMMA, ARO_GAMMA]) == EXPECTED_COMPARISON


def test_format_comparison_metric_undefined_for_a_benchmark() -> None:
    text = format_comparison([ARO_ALPHA, ARO_GAMMA], metric="t2i")
    assert text == (
        "aro_vga: T2I accuracy, 2 models\n"
        "  no result reports T2I on aro_vga (undefined for 1-image samples)"
    )


def test_compare_command_prints_the_comparison(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = write_records(tmp_path, ALPHA, ARO_ALPHA, BETA, GAMMA, ARO_GAMMA)
    assert cli.main(["compare", *paths]) == 0
    assert capsys.readouterr().out == EXPECTED_COMPARISON + "\n"


def test_compare_command_reports_a_foreign_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    foreign = tmp_path / "manifest.json"
    foreign.write_text(json.dumps({"format": "bindsplit-build/1"}), encoding="utf-8")
    assert cli.main(["compare", str(foreign)]) == 2
    error = capsys.readouterr().err
    assert "is not a BindSplit results record" in error and str(foreign) in error


# --- figures ---------------------------------------------------------------------------------


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_panel_metrics_drop_undefined_ones() -> None:
    assert panel_metrics([ARO_ALPHA, ARO_GAMMA]) == ["i2t"]
    assert panel_metrics([ARO_ALPHA, ALPHA]) == ["i2t", "t2i", "group"]
    assert panel_metrics(BIVLC, metrics=("group",), configs=("unseen",)) == ["group"]


def test_plot_writes_a_png_atomically(tmp_path: Path) -> None:
    out = tmp_path / "figure.png"
    assert plot_results([*BIVLC, ARO_ALPHA, ARO_GAMMA], out) == out
    wide = png_size(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.png"]  # no temporary left

    # a 1 x 2 benchmark alone: one I2T panel instead of three, one row instead of two
    aro_only = tmp_path / "aro.png"
    plot_results([ARO_ALPHA, ARO_GAMMA], aro_only)
    narrow = png_size(aro_only)
    assert narrow[0] < wide[0] / 2 and narrow[1] < wide[1]


def test_plot_command_and_other_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = write_records(tmp_path, ALPHA, GAMMA)
    out = tmp_path / "fig.svg"
    assert cli.main(["plot", *paths, "--out", str(out), "--metrics", "i2t", "group"]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"
    svg = out.read_text(encoding="utf-8")
    assert "<svg" in svg and "bivlc: group" in svg and "bivlc: T2I" not in svg


def test_plot_bad_requests(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.png, \.pdf or \.svg"):
        plot_results(BIVLC, tmp_path / "figure.jpg")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        plot_results(BIVLC, tmp_path / "missing" / "figure.png")
    with pytest.raises(SchemaError, match="nothing to plot"):
        plot_results([ARO_ALPHA], tmp_path / "figure.png", metrics=("t2i", "group"))
    assert list(tmp_path.iterdir()) == []
