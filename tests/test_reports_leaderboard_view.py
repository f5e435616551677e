"""What the leaderboard Space shows: sources (a table, a results dataset folder), filters, and
rows equal to `bindsplit compare`'s for the same records, with and without per-sample outcomes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from leaderboard_records import as_compare_text, compare_rows, leaderboard_records

from bindsplit_datasets import cli
from bindsplit_datasets.errors import BindsplitFileNotFoundError
from bindsplit_datasets.names import PAPER_CITATION, PAPER_URL
from bindsplit_datasets.publish import plan_results
from bindsplit_datasets.reports import format_comparison, write_record, write_records
from bindsplit_datasets.reports.leaderboard_text import about_markdown, escape_markdown
from bindsplit_datasets.reports.leaderboard_view import (
    CONFIG_COLUMNS,
    SMALL_N,
    benchmark_metrics,
    benchmarks,
    board,
    families,
    load_source,
    model_family,
    references,
)
from bindsplit_datasets.reports.results import record_file_name
from bindsplit_datasets.reports.results_table import table_rows, write_results_table

CONFIGS = ["full", "seen", "partial", "unseen", "balanced"]


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
    assert as_compare_text(view.rows) == compared(tmp_path, capsys, coco, metric)
    assert "exact McNemar" in view.note
    if metric == "i2t":  # a real move counts its places, one within noise counts 0
        assert view.rows["seen"][0]["move"] == 2 and not view.rows["seen"][0]["within_noise"]
        assert view.rows["unseen"][0]["move"] == 0 and view.rows["unseen"][0]["within_noise"]


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
    # (in memory: a results file without its outcomes is refused, since nothing re-derives it)
    text = format_comparison(bare, "t2i", configs=list(CONFIGS))
    assert as_compare_text(vismin.rows) == compare_rows(text)
    assert "non-overlapping 95% intervals" in vismin.note
    assert [line[1] for line in vismin.overview()] == [row["model"] for row in vismin.rows["full"]]


def test_a_folder_with_a_bad_record_shows_the_others(tmp_path: Path) -> None:
    repo = results_dataset(tmp_path, leaderboard_records())
    bad = next(repo.glob("records/vismin/*/*.json"))
    bad.write_text(bad.read_text(encoding="utf-8").replace('"f1-coco2017"', '"f2"'), "utf-8")
    source = load_source(repo)
    assert len(source.records) == len(leaderboard_records()) - 1
    assert len(source.skipped) == 1 and "changed after" in source.skipped[0]


def test_bad_sources(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(BindsplitFileNotFoundError, match="neither results records"):
        load_source(tmp_path / "empty")
    with pytest.raises(BindsplitFileNotFoundError, match="neither a file, a folder nor"):
        load_source(tmp_path / "missing.parquet")


def coco_bivlc() -> list[dict[str, Any]]:
    return [
        r
        for r in leaderboard_records()
        if r["dataset"]["benchmark"] == "bivlc"
        and r["dataset"]["reference"]["corpus"]["name"] == "coco2017"
    ]


def test_cells_are_typed_numbers_with_partial_and_the_gap() -> None:
    records = coco_bivlc()
    view = board(records, "bivlc", "i2t")
    assert list(view.rows) == CONFIGS
    clip = next(r for r in records if r["model"]["id"] == "org/clip-b")["metrics"]
    row = next(row for row in view.rows["unseen"] if row["model"] == "org/clip-b")
    assert set(CONFIG_COLUMNS) <= set(row)
    assert row["accuracy"] == pytest.approx(100 * clip["unseen/i2t"])
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(
        [100 * b for b in clip["unseen/i2t_ci"]]
    )
    assert row["n"] == clip["unseen/n"] == 60 and row["small_n"] is False
    assert isinstance(row["rank"], int) and isinstance(row["move"], int)
    assert all(r["move"] is None for r in view.rows["full"])  # no move on full itself
    entry = next(m for m in view.models if m["model"] == "org/clip-b")
    assert entry["partial"] == pytest.approx(100 * clip["partial/i2t"])
    assert entry["gap"] == pytest.approx(100 * clip["gap/i2t"])
    assert [entry["gap_low"], entry["gap_high"]] == pytest.approx(
        [100 * b for b in clip["gap/i2t_ci"]]
    )
    assert entry["gap_n"] == 60  # the smaller side
    assert entry["gap_partial"] is None  # old records have no seen-minus-partial gap
    # the overview sorts numerically: the best unseen model has the largest unseen number
    columns = view.overview_columns()
    unseen = columns.index("unseen")
    best = max(view.overview(), key=lambda line: line[unseen])
    assert best[1] == max(records, key=lambda r: r["metrics"]["unseen/i2t"])["model"]["id"]
    assert all(isinstance(line[unseen], float) for line in view.overview())


def test_gap_rows_and_new_columns_of_a_results_table(tmp_path: Path) -> None:
    """A table with the gap rows and reproducibility columns (configuration gap_seen_unseen /
    gap_seen_partial: value = difference) shows both gaps; an old table without them still
    reads."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    records = coco_bivlc()
    rows = [row for row in table_rows(records) if not row["configuration"].startswith("gap_")]
    extra = {"interval_method": "wilson", "confidence": 0.95, "n_bootstrap": 1000, "seed": 0}
    gaps = []
    for record in records:
        identity = next(r for r in rows if r["model"] == record["model"]["id"])
        for config, value in (("gap_seen_unseen", -0.25), ("gap_seen_partial", 0.125)):
            gaps.append(
                {
                    **identity,
                    "configuration": config,
                    "metric": "i2t",
                    "value": value,
                    "ci_low": value - 0.1,
                    "ci_high": value + 0.1,
                    "n": 60,
                }
            )
    table = [{**row, **extra, "small_n": row["n"] < SMALL_N} for row in rows + gaps]
    pq.write_table(pa.Table.from_pylist(table), tmp_path / "new.parquet")
    view = board(load_source(tmp_path / "new.parquet").records, "bivlc", "i2t")
    entry = view.models[0]
    assert entry["gap"] == pytest.approx(-25.0) and entry["gap_partial"] == pytest.approx(12.5)
    assert [entry["gap_low"], entry["gap_high"]] == pytest.approx([-35.0, -15.0])
    assert list(view.rows) == CONFIGS  # the gap rows are not configurations on the board


def test_marker_of_imported_and_pair_scorer_rows() -> None:
    records = coco_bivlc()
    records[0]["model"]["scored_by"] = "imported"
    records[1]["model"]["scored_by"] = "pair scorer"
    view = board(records, "bivlc", "i2t")
    marked = {row["model"]: row["scored_by"] for row in view.rows["full"]}
    assert marked == {
        "org/clip-b": "imported",
        "org/negclip-b": "pair scorer",
        "google/siglip-b": "",
    }
    assert {m["model"]: m["scored_by"] for m in view.models} == marked


def test_only_the_metrics_a_benchmark_has() -> None:
    records = coco_bivlc()
    for record in records:  # one image, two captions: I2T only
        record["dataset"]["benchmark"] = "aro_vga"
        for key in [k for k in record["metrics"] if "/t2i" in k or "/group" in k]:
            del record["metrics"][key]
    assert benchmark_metrics(records, "aro_vga") == ["i2t"]
    assert benchmark_metrics(leaderboard_records(), "bivlc") == ["i2t", "t2i", "group"]
    assert board(records, "aro_vga", "t2i").rows == {}


def test_the_flat_out_dir_folder_and_a_collection(tmp_path: Path) -> None:
    records = coco_bivlc()
    for record in records:
        write_record(record, tmp_path / record_file_name(record["model"]["id"], "bivlc"))
    write_records(records, tmp_path / "results.json")  # the same records again: shown once
    source = load_source(tmp_path)
    assert source.paired and not source.skipped
    assert sorted(r["model"]["id"] for r in source.records) == sorted(
        r["model"]["id"] for r in records
    )


def test_bad_files_and_rows_are_left_out_with_a_note(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    records = coco_bivlc()
    write_record(records[0], tmp_path / "bivlc__org__clip-b.json")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    source = load_source(tmp_path)
    assert [r["model"]["id"] for r in source.records] == ["org/clip-b"]
    broken, deep = sorted(source.skipped)
    assert broken.startswith("broken.json: ") and "not JSON" in broken
    assert deep.startswith("deep.json: ") and "nested too deeply" in deep

    rows = table_rows(records)
    rows[0] = {**rows[0], "value": float("nan")}
    rows[1] = {**rows[1], "n": -3}
    rows[2] = {**rows[2], "value": None}
    bad = pa.Table.from_pylist(rows[:3])
    strings = [{**rows[3], "value": "0.5"}]
    good = pa.Table.from_pylist(rows[4:])
    tables = tmp_path / "tables"
    (tables / "data").mkdir(parents=True)
    pq.write_table(pa.concat_tables([bad.cast(good.schema), good]), tables / "data" / "a.parquet")
    pq.write_table(pa.Table.from_pylist(strings), tables / "b.parquet")
    source = load_source(tables)
    assert not source.paired
    assert len(source.records) == len(records)  # every model keeps its other rows
    notes = "\n".join(source.skipped)
    assert (
        "data/a.parquet: left out 3 rows (row 0: value nan is not a fraction; row 1: n -3 " in notes
    )
    assert "row 2: no value" in notes and "b.parquet: left out 1 row (row 0: value '0.5'" in notes
    view = board(source.records, "bivlc", "i2t")  # a board still comes out
    assert view.rows and all(row["accuracy"] is not None for row in view.rows["seen"])


def test_markdown_is_escaped_and_the_about_tab() -> None:
    text = escape_markdown("no `results` in records/**/*.json <b>x</b> _under_\nline")
    assert "*" not in text.replace("\\*", "") and "<b>" not in text and "\n" not in text
    assert "\\_under\\_" in text and "&lt;b&gt;" in text
    about = about_markdown()
    assert PAPER_URL in about and PAPER_CITATION in about and "How to submit" in about
    for config in CONFIGS:
        assert f"- `{config}`:" in about
