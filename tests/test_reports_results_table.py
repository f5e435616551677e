"""The results table: exact rows of hand-made records, round trips through Parquet and
load_dataset, merging, and `bindsplit export results-table`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa
import pytest
from report_records import (
    ALPHA,
    ARO_ALPHA,
    BETA,
    FILE_ALPHA,
    FILE_ARO_ALPHA,
    N,
    record_from_samples,
    write_records,
)

from bindsplit_datasets import cli, metric_core
from bindsplit_datasets.errors import SchemaError
from bindsplit_datasets.reports.results import seal_record
from bindsplit_datasets.reports.results_table import (
    COLUMNS,
    merge_tables,
    read_results_table,
    reference_name,
    results_table,
    table_bytes,
    table_records,
    table_rows,
    write_results_table,
)

REFERENCE = {"corpus": {"kind": "coco", "name": "coco2017", "file": "captions_train2017.json"}}


def with_reference(record: dict[str, Any], **model: Any) -> dict[str, Any]:
    return seal_record(
        {
            **record,
            "model": {**record["model"], **model},
            "dataset": {**record["dataset"], "reference": REFERENCE},
        }
    )


#: What an older record (no settings, no provenance) implies: a 95% percentile bootstrap.
OLD_SETTINGS = {
    "interval_method": "bootstrap-percentile",
    "confidence": 0.95,
    "n_bootstrap": None,
    "seed": None,
    "bindsplit_version": None,
    "git_commit": None,
    "platform": None,
}


def test_rows_are_exact_one_per_configuration_and_metric() -> None:
    rows = table_rows([with_reference(ARO_ALPHA, scored_by="imported")])
    assert [(row["configuration"], row["metric"]) for row in rows] == [
        ("full", "i2t"),
        ("seen", "i2t"),
        ("unseen", "i2t"),
        ("gap_seen_unseen", "i2t"),
    ]
    assert rows[1] == {
        "model": "alpha",
        "model_revision": "main",
        "benchmark": "aro_vga",
        "binding_kind": "attribute",
        "configuration": "seen",
        "metric": "i2t",
        "value": 0.70,
        "ci_low": 0.65,
        "ci_high": 0.75,
        "n": N["seen"],
        "build_fingerprint": "a1",
        "reference": "coco2017",
        "scored_by": "imported",
        **OLD_SETTINGS,
        "small_n": False,  # 42 of 60
    }
    # the gap: seen 0.70 minus unseen 0.60, n the smaller count, flagged (unseen has 10)
    assert rows[3] == {
        **rows[1],
        "configuration": "gap_seen_unseen",
        "value": 0.1,
        "ci_low": 0.0,
        "ci_high": 0.2,
        "n": N["unseen"],
        "small_n": True,
    }
    assert list(rows[0]) == list(COLUMNS)
    # every configuration x metric of a 2-image record and its gaps, a missing reference null
    rows = table_rows([ALPHA])
    assert len(rows) == 3 * 3 + 3 and {row["reference"] for row in rows} == {None}
    assert {row["scored_by"] for row in rows} == {"encoder"}


def test_empty_configurations_have_no_row_the_gap_has() -> None:
    sampled = record_from_samples(
        "delta", ["seen", "seen", "unseen"], [1, 0, 1], configs=("full", "seen", "unseen")
    )
    metrics = {**sampled["metrics"], "partial/n": 0}
    rows = table_rows([{**sampled, "metrics": metrics}])
    assert [row["configuration"] for row in rows] == ["full", "seen", "unseen", "gap_seen_unseen"]
    assert [row["value"] for row in rows] == [2 / 3, 0.5, 1.0, -0.5]
    assert [row["n"] for row in rows] == [3, 2, 1, 1]
    assert [row["small_n"] for row in rows] == [True] * 4


def test_reference_names() -> None:
    def named(corpus: dict[str, Any]) -> str | None:
        return reference_name({"dataset": {"reference": {"corpus": corpus}}})

    assert named({"kind": "coco", "name": "coco2017", "file": "x.json"}) == "coco2017"
    assert named({"kind": "hf_dataset", "id": "org/captions"}) == "org/captions"
    assert named({"kind": "text", "file": "captions.txt"}) == "captions.txt"
    assert named({"kind": "captions", "sha256": "ab"}) == "captions"
    assert reference_name({"dataset": {}}) is None


def test_parquet_and_load_dataset_round_trip(tmp_path: Path) -> None:
    records = [with_reference(ALPHA), with_reference(BETA), with_reference(ARO_ALPHA)]
    out = write_results_table(records, tmp_path / "t.parquet")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.parquet"]  # no temporary left
    loaded = datasets.load_dataset(
        "parquet", data_files=str(out), split="train", cache_dir=str(tmp_path / "cache")
    )
    assert loaded.column_names == list(COLUMNS)
    assert loaded.num_rows == 12 + 12 + 4  # model x configuration (and gap) x metric
    assert loaded.to_list() == table_rows(records)
    assert loaded.features["n"].dtype == "int64" and loaded.features["value"].dtype == "float64"
    # back to records: the same leaderboard inputs
    back = table_records(read_results_table(out))
    assert [record["model"]["id"] for record in back] == ["alpha", "alpha", "beta"]
    aro, bivlc = back[0], back[1]
    assert aro["dataset"]["benchmark"] == "aro_vga"
    assert bivlc["metrics"] == {
        **ALPHA["metrics"],
        # what the rows say of the record's intervals (an older record: implied)
        "interval_method": "bootstrap-percentile",
        "gap_interval_method": "bootstrap-percentile",
        "confidence": 0.95,
    }


def test_two_results_for_one_row_are_refused() -> None:
    with pytest.raises(SchemaError, match="has several results on the same bivlc build"):
        results_table([ALPHA, ALPHA])


def test_merge_keeps_the_rows_already_there() -> None:
    existing = results_table([ALPHA])
    changed = seal_record({**ALPHA, "metrics": {**ALPHA["metrics"], "full/i2t": 0.1}})
    merged = merge_tables(existing, results_table([changed, BETA]))
    assert merged.num_rows == 24
    values = {(r["model"], r["configuration"], r["metric"]): r["value"] for r in merged.to_pylist()}
    assert values[("alpha", "full", "i2t")] == 0.80  # the record already published wins
    assert values[("beta", "full", "i2t")] == 0.80
    assert merge_tables(None, existing) is existing
    assert read_results_table(table_bytes(merged)).equals(merged)


def test_a_foreign_file_is_no_results_table(tmp_path: Path) -> None:
    other = tmp_path / "other.parquet"
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"x": [1]}), other)
    with pytest.raises(SchemaError, match="lacks model, model_revision"):
        read_results_table(other)
    (tmp_path / "bad.parquet").write_bytes(b"not parquet")
    with pytest.raises(SchemaError, match="not a readable Parquet file"):
        read_results_table(tmp_path / "bad.parquet")


def test_export_results_table_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = write_records(tmp_path, FILE_ALPHA, FILE_ARO_ALPHA)
    out = tmp_path / "t.parquet"
    assert cli.main(["export", "results-table", *paths, "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote the results table of 2 results record(s) to {out}\n"
    assert read_results_table(out).num_rows == 12 + 4
    # a previous table is replaced; anything else is refused before any work
    assert cli.main(["export", "results-table", paths[0], "--out", str(out)]) == 0
    assert read_results_table(out).num_rows == 12
    capsys.readouterr()
    foreign = tmp_path / "mine.parquet"
    foreign.write_bytes(b"my own file")
    for args, message in [
        (["--out", str(foreign)], "exists and is not a previous BindSplit results table"),
        (["--out", str(tmp_path / "t.csv")], "use a .parquet name"),
        ([], "results-table needs --out FILE.parquet"),
        (["--out", str(out), "--readme", "x.md"], "--readme applies to model-index"),
    ]:
        assert cli.main(["export", "results-table", *paths, *args]) == 2
        assert message in capsys.readouterr().err
    assert foreign.read_bytes() == b"my own file"


def computed_record() -> dict[str, Any]:
    """A record as `bindsplit eval` makes it now: the metric's own numbers (seen 0 of 10 right,
    unseen 1 of 10, partial 10 of 10), its settings and its provenance."""
    stats = metric_core.BindsplitStatistics(
        splits={
            "seen": (0, 0, 10, 0, 0, 0),
            "unseen": (0, 0, 9, 0, 0, 1),
            "partial": (0, 0, 0, 0, 0, 10),
        }
    )
    metrics = metric_core.compute_metrics(stats, n_bootstrap=200, seed=5)
    return seal_record(
        {
            "format": "bindsplit-results/1",
            "bindsplit_version": "0.9",
            "model": {"id": "tiny", "revision": None, "scored_by": "encoder"},
            "dataset": {"data": "b", "benchmark": "aro_vga", "fingerprint": "f9"},
            "metrics": metrics,
            "environment": {"bindsplit": "0.9", "git_commit": "c0ffee", "platform": "Linux-x"},
        }
    )


def test_gap_rows_and_reproducibility_columns_of_a_new_record() -> None:
    rows = {row["configuration"]: row for row in table_rows([computed_record()])}
    assert list(rows) == [
        "full",
        "seen",
        "unseen",
        "partial",
        "gap_seen_unseen",
        "gap_seen_partial",
    ]
    settings = {
        "confidence": 0.95,
        "n_bootstrap": 200,
        "seed": 5,
        "bindsplit_version": "0.9",
        "git_commit": "c0ffee",
        "platform": "Linux-x",
    }
    assert {column: rows["seen"][column] for column in settings} == settings
    assert rows["seen"]["interval_method"] == "wilson"
    assert (rows["seen"]["value"], round(rows["seen"]["ci_high"], 4)) == (0.0, 0.2775)
    gap = rows["gap_seen_unseen"]
    assert (gap["value"], gap["n"], gap["interval_method"], gap["small_n"]) == (
        -0.1,
        10,
        "newcombe",
        True,
    )
    assert [round(gap["ci_low"], 4), round(gap["ci_high"], 4)] == [-0.4042, 0.1894]
    partial = rows["gap_seen_partial"]
    assert (partial["value"], round(partial["ci_high"], 4)) == (-1.0, -0.6075)
    # back to a record: the gaps and settings as the metric wrote them
    [back] = table_records(results_table([computed_record()]))
    assert back["metrics"] == computed_record()["metrics"]


def test_a_table_written_before_the_new_columns_reads_them_as_nulls() -> None:
    table = results_table([ALPHA])
    old = table.select(list(COLUMNS[: COLUMNS.index("interval_method")]))
    back = read_results_table(table_bytes(old))
    assert back.column_names == list(COLUMNS)
    assert set(back.column("small_n").to_pylist()) == {None}
    assert back.select(old.column_names).to_pylist() == old.to_pylist()


def test_the_binding_kind_is_its_own_column_and_older_tables_read_as_attribute(
    tmp_path: Path,
) -> None:
    relation = {**BETA, "dataset": {**BETA["dataset"], "binding_kind": "relation"}}
    rows = table_rows([ALPHA, relation])
    kinds = {(row["model"], row["binding_kind"]) for row in rows}
    assert kinds == {("alpha", "attribute"), ("beta", "relation")}
    back = table_records(results_table([ALPHA, relation]))
    assert [record["dataset"]["binding_kind"] for record in back] == ["attribute", "relation"]
    # a table written before the column existed
    import pyarrow.parquet as pq

    old = results_table([ALPHA]).drop_columns(["binding_kind"])
    pq.write_table(old, tmp_path / "old.parquet")
    read = read_results_table(tmp_path / "old.parquet")
    assert read.column_names == list(COLUMNS)
    assert set(read.column("binding_kind").to_pylist()) == {"attribute"}
