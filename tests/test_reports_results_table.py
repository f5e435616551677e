"""The results table: exact rows of hand-made records, round trips through Parquet and
load_dataset, merging, and `bindsplit export results-table`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa
import pytest
from report_records import ALPHA, ARO_ALPHA, BETA, N, record_from_samples, write_records

from bindsplit_datasets import cli
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


def test_rows_are_exact_one_per_configuration_and_metric() -> None:
    rows = table_rows([with_reference(ARO_ALPHA, scored_by="imported")])
    assert [(row["configuration"], row["metric"]) for row in rows] == [
        ("full", "i2t"),
        ("seen", "i2t"),
        ("unseen", "i2t"),
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
    }
    assert list(rows[0]) == list(COLUMNS)
    # every configuration x metric of a 2-image record, a missing reference left null
    rows = table_rows([ALPHA])
    assert len(rows) == 3 * 3 and {row["reference"] for row in rows} == {None}
    assert {row["scored_by"] for row in rows} == {"encoder"}


def test_empty_configurations_and_the_gap_have_no_row() -> None:
    sampled = record_from_samples(
        "delta", ["seen", "seen", "unseen"], [1, 0, 1], configs=("full", "seen", "unseen")
    )
    metrics = {**sampled["metrics"], "partial/n": 0}
    rows = table_rows([{**sampled, "metrics": metrics}])
    assert [row["configuration"] for row in rows] == ["full", "seen", "unseen"]
    assert [row["value"] for row in rows] == [2 / 3, 0.5, 1.0]


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
    assert loaded.num_rows == 9 + 9 + 3  # model x configuration x metric
    assert loaded.to_list() == table_rows(records)
    assert loaded.features["n"].dtype == "int64" and loaded.features["value"].dtype == "float64"
    # back to records: the same leaderboard inputs
    back = table_records(read_results_table(out))
    assert [record["model"]["id"] for record in back] == ["alpha", "alpha", "beta"]
    aro, bivlc = back[0], back[1]
    assert aro["dataset"]["benchmark"] == "aro_vga"
    assert bivlc["metrics"] == {
        key: value
        for key, value in ALPHA["metrics"].items()
        if not key.startswith("gap/")  # the gap is no configuration: not in the table
    }


def test_two_results_for_one_row_are_refused() -> None:
    with pytest.raises(SchemaError, match="has several results on the same bivlc build"):
        results_table([ALPHA, ALPHA])


def test_merge_keeps_the_rows_already_there() -> None:
    existing = results_table([ALPHA])
    changed = seal_record({**ALPHA, "metrics": {**ALPHA["metrics"], "full/i2t": 0.1}})
    merged = merge_tables(existing, results_table([changed, BETA]))
    assert merged.num_rows == 18
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
    paths = write_records(tmp_path, ALPHA, ARO_ALPHA)
    out = tmp_path / "t.parquet"
    assert cli.main(["export", "results-table", *paths, "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote the results table of 2 results record(s) to {out}\n"
    assert read_results_table(out).num_rows == 12
    # a previous table is replaced; anything else is refused before any work
    assert cli.main(["export", "results-table", paths[0], "--out", str(out)]) == 0
    assert read_results_table(out).num_rows == 9
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
