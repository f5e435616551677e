"""What the leaderboard Space shows: sources (a table, a results dataset folder), filters, and
rows equal to `bindsplit compare`'s for the same records, with and without per-sample outcomes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from leaderboard_records import compare_rows, leaderboard_records

from bindsplit_datasets import cli
from bindsplit_datasets.errors import BindsplitFileNotFoundError
from bindsplit_datasets.publish import plan_results
from bindsplit_datasets.reports import write_records
from bindsplit_datasets.reports.leaderboard_view import (
    benchmarks,
    board,
    families,
    load_source,
    model_family,
    references,
)
from bindsplit_datasets.reports.results_table import write_results_table

CONFIGS = ["full", "seen", "unseen", "balanced"]


def results_dataset(tmp_path: Path, records: list[dict[str, Any]]) -> Path:
    """A folder laid out as push-results lays out a results dataset."""
    records_file = write_records(records, tmp_path / "all.json")
    repo = tmp_path / "repo"
    for file in plan_results([records_file], "org/results").files:
        (repo / file.path_in_repo).parent.mkdir(parents=True, exist_ok=True)
        (repo / file.path_in_repo).write_bytes(file.read())
    return repo


def compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], records: list[dict[str, Any]], metric: str
) -> dict[str, list[dict[str, str]]]:
    """`bindsplit compare`'s rows for ``records`` (written as one file)."""
    path = write_records(records, tmp_path / f"compare-{metric}.json")
    assert cli.main(["compare", str(path), "--metric", metric, "--configs", *CONFIGS]) == 0
    return compare_rows(capsys.readouterr().out)


def test_model_families_and_filters() -> None:
    records = leaderboard_records()
    assert families(records) == ["clip", "negclip", "siglip"]
    assert benchmarks(records) == ["bivlc", "vismin"]
    assert references(records, "bivlc") == ["coco2017", "laion2b"]  # the most used first
    assert model_family("Salesforce/blip-itm-base-coco") == "blip"
    assert model_family("bindsplit/synthetic-negclip") == "negclip"
    view = board(records, "bivlc", reference="coco2017", family=["clip", "negclip"])
    assert {row["model"] for row in view.rows["full"]} == {"org/clip-b", "org/negclip-b"}
    assert board(records, "bivlc", family=["blip"]).note == "no results match the filters"
    mixed = board(records, "bivlc")  # two references: two builds, not ranked together
    assert mixed.rows == {} and "different builds" in mixed.note


@pytest.mark.parametrize("metric", ["i2t", "group"])
def test_rows_equal_compare_with_per_sample_outcomes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], metric: str
) -> None:
    records = leaderboard_records()
    source = load_source(results_dataset(tmp_path, records))
    assert source.paired and len(source.records) == len(records) and not source.skipped
    coco = [r for r in records if r["dataset"]["benchmark"] == "bivlc"][:3]
    view = board(source.records, "bivlc", metric, reference="coco2017")
    assert view.rows == compared(tmp_path, capsys, coco, metric)
    assert "exact McNemar" in view.note
    if metric == "i2t":  # a real move is marked, one within noise is "="
        assert view.rows["seen"][0]["move"] == "↑2" and view.rows["unseen"][0]["move"] == "="


def test_rows_equal_compare_from_the_table_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = leaderboard_records()
    table = write_results_table(records, tmp_path / "t.parquet")
    source = load_source(table)
    assert not source.paired
    vismin = board(source.records, "vismin", "t2i", reference="coco2017")
    # compare on the same records without their outcomes tests moves the same way: intervals
    bare = [
        {k: v for k, v in r.items() if k != "samples"}
        for r in records
        if r["dataset"]["benchmark"] == "vismin"
    ]
    assert vismin.rows == compared(tmp_path, capsys, bare, "t2i")
    assert "non-overlapping 95% intervals" in vismin.note
    assert [line[0] for line in vismin.wide()] == [row["model"] for row in vismin.rows["full"]]


def test_a_folder_with_a_bad_record_shows_the_others(tmp_path: Path) -> None:
    repo = results_dataset(tmp_path, leaderboard_records())
    bad = next(repo.glob("records/vismin/*/*.json"))
    bad.write_text(bad.read_text(encoding="utf-8").replace('"f1-coco2017"', '"f2"'), "utf-8")
    source = load_source(repo)
    assert len(source.records) == len(leaderboard_records()) - 1
    assert len(source.skipped) == 1 and "changed after" in source.skipped[0]


def test_bad_sources(tmp_path: Path) -> None:
    with pytest.raises(BindsplitFileNotFoundError, match="neither results records"):
        load_source(tmp_path)
    with pytest.raises(BindsplitFileNotFoundError, match="neither a file, a folder nor"):
        load_source(tmp_path / "missing.parquet")
