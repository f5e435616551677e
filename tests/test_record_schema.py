"""The typed results record (pydantic) and its published JSON Schema: `bindsplit schema results`
prints it, docs/ holds the same text, and the schema and the model accept and refuse the same
records (issue 40)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from report_records import (
    FILE_ALPHA,
    FILE_ARO_GAMMA,
    genuine_halftruth_record,
    genuine_hard_record,
    genuine_record,
)

from bindsplit_datasets import cli
from bindsplit_datasets.commands.schema import schema_text
from bindsplit_datasets.errors import SchemaError
from bindsplit_datasets.reports.record_model import (
    METRIC_KEY_RULES,
    ResultsRecordModel,
    check_record_shape,
    results_schema,
)

DOCS = Path(__file__).resolve().parents[1] / "docs" / "results.schema.json"
VALIDATOR = Draft202012Validator(results_schema())


def test_the_command_prints_the_schema_docs_holds(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["schema", "results"]) == 0
    printed = capsys.readouterr().out
    assert printed == schema_text("results") == DOCS.read_text(encoding="utf-8"), (
        "docs/results.schema.json is stale: bindsplit schema results > docs/results.schema.json"
    )
    schema = json.loads(printed)
    Draft202012Validator.check_schema(schema)
    assert schema["properties"]["format"] == {"const": "bindsplit-results/1", "title": "Format"}
    with pytest.raises(SystemExit):
        cli.main(["schema", "leaderboard"])
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize(
    "record",
    [
        genuine_record(),
        genuine_record(method="bootstrap"),
        FILE_ALPHA,
        FILE_ARO_GAMMA,
        genuine_hard_record(),  # hard positives: i2t_original, i2t_drop, drop_interval_method
        genuine_hard_record(method="bootstrap", n_bootstrap=50),
        genuine_halftruth_record(),  # half-truths: acc_ht, delta, ref_acc by kind and edit
    ],
)
def test_records_as_written_validate(record: dict[str, Any]) -> None:
    assert not list(VALIDATOR.iter_errors(record))
    ResultsRecordModel.model_validate(record)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target = record
        for part in parents:
            target = target[part]
        target[last.replace("|", ".")] = value

    return change


# (change, accepted): the model and the schema must agree on each
CASES = [
    (_set("metrics.full/i2t", 80.0), False),  # a percent, not a fraction
    (_set("metrics.full/i2t", True), False),
    (_set("metrics.full/t2i_ci", [0.2, 0.3, 0.4]), False),
    (_set("metrics.unseen/n", -1), False),
    (_set("metrics.gap/i2t", -0.5), True),  # a gap may be negative
    (_set("metrics.gap/i2t", -1.5), False),
    (_set("metrics.gap_partial/t2i_ci", [-0.4, 2.0]), False),
    (_set("metrics.interval_method", "jackknife"), False),
    (_set("metrics.confidence", 1.0), False),
    (_set("metrics.seed", -3), False),
    (_set("metrics.full/winoground_text", 7), True),  # a newer metric: no schema change
    (_set("metrics.full/i2t_original", 0.4), True),  # hard positives: fractions too
    (_set("metrics.full/i2t_original", 40.0), False),
    (_set("metrics.full/i2t_drop", -0.2), False),  # a share of samples, never negative
    (_set("metrics.full/i2t_drop_ci", [-0.1, 0.3]), False),
    (_set("metrics.full/i2t_original_ci", [0.1, 1.2]), False),
    (_set("metrics.gap/i2t_drop", -0.2), True),  # a gap of drops may be negative
    (_set("metrics.gap_partial/i2t_original_ci", [-1.5, 0.2]), False),
    (_set("metrics.drop_interval_method", "clopper-pearson"), True),
    (_set("metrics.drop_interval_method", "newcombe"), False),  # a difference's, not a share's
    (_set("samples.i2t_original", [1] * 100), True),
    (_set("samples.i2t_original", [2] * 100), False),
    (_set("metrics.seen/category/swap/i2t", 0.5), True),  # a breakdown passes through
    (_set("model.scored_by", "oracle"), False),
    (_set("model.id", ""), False),
    (_set("dataset.binding_kind", "colour"), False),
    (_set("samples.label", ["familiar"] + genuine_record()["samples"]["label"][1:]), False),
    (_set("samples.i2t", [2] + genuine_record()["samples"]["i2t"][1:]), False),
    (_set("digest", "md5:abc"), False),
    (_set("format", "bindsplit-results/2"), False),
    (_set("environment", {"anything": [1, "two"]}), True),
    (_set("extra_block", {"from": "a newer version"}), True),
]


@pytest.mark.parametrize(("change", "accepted"), CASES)
def test_the_model_and_the_schema_agree(change: Callable, accepted: bool) -> None:
    record = copy.deepcopy(genuine_record())
    change(record)
    assert (not list(VALIDATOR.iter_errors(record))) is accepted
    if accepted:
        check_record_shape(record, "r.json")
    else:
        with pytest.raises(SchemaError, match=r"^r\.json: "):
            check_record_shape(record, "r.json")


def test_each_metric_key_rule_names_what_it_checks() -> None:
    for rule in METRIC_KEY_RULES:
        record = next(
            r
            for r in (genuine_record(), genuine_halftruth_record())
            if any(re.match(rule.pattern, k) for k in r["metrics"])
        )
        key = next(k for k in record["metrics"] if re.match(rule.pattern, k))
        broken = copy.deepcopy(record)
        broken["metrics"][key] = "high"
        with pytest.raises(SchemaError, match=f"metrics\\[{key!r}\\] = 'high' is not"):
            check_record_shape(broken, "r.json")


def test_hard_positive_keys_are_checked_as_strictly_as_the_accuracies() -> None:
    """Every hard-positive number (the original I2T, the drop, their intervals and gaps) is
    refused naming its key when it is not one; the drop's method must be an interval method;
    ``samples["i2t_original"]`` holds one 0/1 outcome per sample."""
    record = genuine_hard_record()
    keys = [key for key in record["metrics"] if "i2t_original" in key or "i2t_drop" in key]
    assert {"full/i2t_drop", "seen/i2t_original_ci", "gap/i2t_drop", "gap_partial/i2t_drop_ci"} <= {
        *keys
    }
    for key in keys:
        broken = copy.deepcopy(record)
        broken["metrics"][key] = 1.5 if not key.endswith("_ci") else [0.5, 1.5]
        with pytest.raises(SchemaError, match=f"metrics\\[{key!r}\\] = .* is not"):
            check_record_shape(broken, "r.json")
        assert list(VALIDATOR.iter_errors(broken)), key
    broken = copy.deepcopy(record)
    broken["metrics"]["drop_interval_method"] = "newcombe"
    with pytest.raises(SchemaError, match=r"metrics\['drop_interval_method'\] = 'newcombe'"):
        check_record_shape(broken, "r.json")
    for values, message in (
        ([1] * 99, r"samples\['i2t_original'\] is not a list of 100 values"),
        (["yes"] * 100, r"samples\['i2t_original'\] must hold 0/1 outcomes"),
    ):
        broken = copy.deepcopy(record)
        broken["samples"]["i2t_original"] = values
        with pytest.raises(SchemaError, match=message):
            check_record_shape(broken, "r.json")


# (change, accepted) on a half-truth record: the model and the schema must agree on each
HALFTRUTH_CASES = [
    (_set("metrics.full/acc_ht", 75.0), False),  # a percent, not a fraction
    (_set("metrics.seen/kind/relation/ref_acc", 1.2), False),
    (_set("metrics.unseen/category/entity/object/acc_ht_ci", [0.4, 1.4]), False),
    (_set("metrics.gap/kind/entity/acc_ht", -0.9), True),  # a gap may be negative
    (_set("metrics.gap/category/relation/swap/ref_acc_ci", [-1.2, 0.1]), False),
    (_set("metrics.full/delta", -3.5), True),  # a mean of score differences: any scale
    (_set("metrics.seen/kind/entity/delta", "large"), False),
    (_set("metrics.gap/delta_ci", [-0.3, "wide"]), False),
    (_set("metrics.full/kind/relation/n", -2), False),
    (_set("metrics.delta_interval_method", "student-t"), True),
    (_set("metrics.delta_interval_method", "bootstrap"), False),  # Δ's is always Student t
    (_set("metrics.halftruth_gap_interval_method", "wilson"), False),
    (_set("samples.delta", [0.5] * 60), True),
    (_set("samples.delta", ["high"] * 60), False),
    (_set("samples.category", [3] * 60), False),
    (_set("samples.acc_ht", [2] * 60), False),
]


@pytest.mark.parametrize(("change", "accepted"), HALFTRUTH_CASES)
def test_the_model_and_the_schema_agree_on_halftruth_records(
    change: Callable, accepted: bool
) -> None:
    record = copy.deepcopy(genuine_halftruth_record())
    change(record)
    assert (not list(VALIDATOR.iter_errors(record))) is accepted
    if accepted:
        check_record_shape(record, "r.json")
    else:
        with pytest.raises(SchemaError, match=r"^r\.json: "):
            check_record_shape(record, "r.json")
