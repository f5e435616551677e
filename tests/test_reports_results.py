"""The results-record schema: loading, validation (per-sample outcomes included), grouping."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from report_records import ALPHA, ARO_ALPHA, ARO_GAMMA, BETA, record_from_samples, write_records

from bindsplit_datasets.errors import SchemaError
from bindsplit_datasets.names import CONFIGURATIONS
from bindsplit_datasets.reports import group_by_benchmark, load_results
from bindsplit_datasets.reports.results import (
    DEFAULT_CONFIGS,
    REFERENCE_CONFIG,
    is_results_record,
    record_configs,
    validate_record,
)


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

SAMPLED = record_from_samples("delta", ["seen", "unseen", "none"], [1, 0, 1], [0, 0, 1])


def with_samples(**changes: Any) -> dict[str, Any]:
    return {**SAMPLED, "samples": {**SAMPLED["samples"], **changes}}


def test_a_record_with_per_sample_outcomes_and_flags_is_valid() -> None:
    flagged = with_samples(balanced=[True, False, True])
    assert validate_record(flagged) is flagged
    assert validate_record(with_samples(i2t=[True, False, True])) is not None


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"i2t": [1, 0]}, r"samples\['i2t'\] is not a list of 3 values"),
        ({"id": ["a", "a", "b"]}, "duplicate ids"),
        ({"id": [1, 2, 3]}, "must hold strings"),
        ({"t2i": [0, 2, 1]}, r"samples\['t2i'\] must hold 0/1 outcomes"),
        ({"i2t": [0.0, 1.0, 1.0]}, "0/1 outcomes"),
        ({"balanced": ["yes", "no", "yes"]}, "true/false configuration flags"),
        ({"label": [0, 1, 2]}, "split labels"),
    ],
)
def test_bad_samples_are_named(changes: dict[str, Any], expected: str) -> None:
    with pytest.raises(SchemaError, match=expected) as error:
        validate_record(with_samples(**changes), source="r.json")
    assert str(error.value).startswith("r.json: ")


def test_samples_need_ids_labels_and_i2t() -> None:
    with pytest.raises(SchemaError, match="an object with an 'id' list"):
        validate_record({**SAMPLED, "samples": {"label": ["seen"], "i2t": [1]}})
    with pytest.raises(SchemaError, match="must have 'label' and 'i2t' lists"):
        validate_record({**SAMPLED, "samples": {"id": ["a"], "i2t": [1]}})


def test_record_configs_are_generic_over_configurations() -> None:
    metrics = {
        "unseen/n": 1,
        "balanced/n": 4,
        "full/n": 9,
        "seen/category/replace/n": 3,
        "gap/i2t": 0.1,
        "full/i2t": 0.5,
    }
    known = [config for config in CONFIGURATIONS if config in ("full", "unseen", "balanced")]
    extra = [] if "balanced" in CONFIGURATIONS else ["balanced"]
    assert record_configs(metrics) == known + extra
    with pytest.raises(SchemaError, match=r"metrics\['balanced/i2t'\] = 75 is not a fraction"):
        validate_record({**ALPHA, "metrics": {**metrics, "balanced/i2t": 75}})


def test_defaults_name_known_configurations() -> None:
    assert REFERENCE_CONFIG == "full" and set(DEFAULT_CONFIGS) <= set(CONFIGURATIONS)
    assert is_results_record(ALPHA) and not is_results_record({"format": "bindsplit-build/1"})
    assert not is_results_record([ALPHA])


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
