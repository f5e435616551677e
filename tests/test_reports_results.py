"""The results-record schema: loading, validation (per-sample outcomes included), grouping."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from report_records import (
    ALPHA,
    ARO_ALPHA,
    BETA,
    FILE_ALPHA,
    FILE_ARO_GAMMA,
    record_from_samples,
)
from report_records import write_records as write_files

from bindsplit_datasets import cli, metric_core
from bindsplit_datasets.errors import SchemaError
from bindsplit_datasets.names import CONFIGURATIONS
from bindsplit_datasets.reports import group_by_benchmark, load_results
from bindsplit_datasets.reports.intervals import interval_settings, is_small, provenance
from bindsplit_datasets.reports.results import (
    DEFAULT_CONFIGS,
    GAP,
    GAP_PARTIAL,
    METRICS,
    REFERENCE_CONFIG,
    SETTINGS_KEYS,
    ResultsRecord,
    count_key,
    gap_key,
    interval_key,
    is_results_record,
    key_config,
    metric_key,
    record_configs,
    record_digest,
    reported_configs,
    seal_record,
    validate_record,
    write_record,
    write_records,
)


def test_load_results_round_trips_records_in_order(tmp_path: Path) -> None:
    paths = write_files(tmp_path, FILE_ALPHA, FILE_ARO_GAMMA)
    assert load_results(paths) == [FILE_ALPHA, FILE_ARO_GAMMA]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not JSON"),
        (json.dumps({"format": "bindsplit-build/2"}), "found 'bindsplit-build/2'"),
        (json.dumps([1, 2]), "found 'int'"),
        (json.dumps([]), "empty list"),
        (json.dumps({**FILE_ALPHA, "model": {}}), "no model.id"),
        (json.dumps({**FILE_ALPHA, "dataset": {"data": "x"}}), "no dataset.benchmark"),
        (
            json.dumps({**FILE_ALPHA, "metrics": {**FILE_ALPHA["metrics"], "full/i2t": 80.0}}),
            "not a fraction",
        ),
        (
            json.dumps(
                {**FILE_ALPHA, "metrics": {**FILE_ALPHA["metrics"], "seen/t2i_ci": [0.6, 0.5]}}
            ),
            "low <= high",
        ),
        (
            json.dumps({**FILE_ALPHA, "metrics": {**FILE_ALPHA["metrics"], "unseen/n": -1}}),
            "not a sample count",
        ),
    ],
)
def test_load_results_names_the_bad_file(tmp_path: Path, content: str, expected: str) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(FILE_ALPHA), encoding="utf-8")
    bad.write_text(content, encoding="utf-8")
    with pytest.raises(SchemaError, match=expected) as error:
        load_results([good, bad])
    assert str(bad) in str(error.value)


def test_load_results_reads_a_collection_file(tmp_path: Path) -> None:
    single, collection = tmp_path / "one.json", tmp_path / "many.json"
    single.write_text(json.dumps(FILE_ALPHA), encoding="utf-8")
    collection.write_text(json.dumps([FILE_ARO_GAMMA, FILE_ALPHA]), encoding="utf-8")
    assert load_results([single, collection]) == [FILE_ALPHA, FILE_ARO_GAMMA, FILE_ALPHA]


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
    assert is_results_record(ALPHA) and not is_results_record({"format": "bindsplit-build/2"})
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


# --- the record: keys, digest, completeness, portability --------------------------------------


def test_the_key_format_has_one_owner() -> None:
    assert metric_key("unseen", "i2t") == "unseen/i2t"
    assert interval_key("unseen", "i2t") == "unseen/i2t_ci"
    assert count_key("balanced") == "balanced/n"
    assert gap_key("group") == "gap/group"
    record = ResultsRecord.from_dict(ALPHA)
    assert record.value("seen", "t2i") == 0.55 and record.interval("seen", "t2i") == (0.5, 0.6)
    assert record.count("unseen") == 10 and record.value("partial", "i2t") is None
    assert record.configs == ["full", "seen", "unseen"]
    assert (record.model_id, record.model_revision, record.benchmark) == ("alpha", "main", "bivlc")


def test_the_metric_writes_exactly_these_keys() -> None:
    """The metric (self-contained, it cannot import the package) emits the keys the record's
    helpers make, and nothing else for the configurations and the gap."""
    stats = metric_core.accumulate(
        [[[0.9, 0.1], [0.2, 0.8]], [[0.6, 0.7], [0.1, 0.8]], [[0.3, 0.2], [0.1, 0.9]]],
        ["seen", "unseen", "partial"],
        balanced=[True, False, True],
    )
    results = metric_core.compute_metrics(stats, n_bootstrap=20)
    configs = ("full", "seen", "unseen", "partial", "balanced")
    expected = {count_key(c) for c in configs}
    expected |= {f(c, m) for c in configs for m in METRICS for f in (metric_key, interval_key)}
    for gap in (GAP, GAP_PARTIAL):
        expected |= {gap_key(m, gap) for m in METRICS} | {interval_key(gap, m) for m in METRICS}
    # no macro groups here, and Wilson's intervals (no bootstrap to fall back from)
    unused = {"macro_interval_method", "small_n_interval_method"}
    expected |= set(SETTINGS_KEYS) - unused
    assert set(results) == expected
    assert {key_config(key) for key in results} == {*configs, GAP, GAP_PARTIAL, *SETTINGS_KEYS} - (
        unused
    )
    assert gap_key("i2t", GAP_PARTIAL) == "gap_partial/i2t"


def test_a_written_record_reads_back_equal_and_sealed(tmp_path: Path) -> None:
    unsealed = {key: value for key, value in FILE_ALPHA.items() if key != "digest"}
    path = write_record(unsealed, tmp_path / "r.json")
    [back] = load_results([path])
    assert back == FILE_ALPHA and back["digest"] == record_digest(back)
    assert back["digest"].startswith("sha256:") and len(back["digest"]) == 7 + 64
    # a collection: every record sealed on its own
    write_records([unsealed, FILE_ARO_GAMMA], tmp_path / "many.json")
    assert load_results([tmp_path / "many.json"]) == [FILE_ALPHA, FILE_ARO_GAMMA]


def edited_file(tmp_path: Path, change: Any) -> Path:
    """FILE_ALPHA as written, then edited by hand with ``change(record)``."""
    path = write_record(FILE_ALPHA, tmp_path / "alpha.json")
    record = json.loads(path.read_text(encoding="utf-8"))
    change(record)
    path.write_text(json.dumps(record, indent=2), encoding="utf-8")
    return path


def test_a_record_edited_by_hand_is_refused_by_compare_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = edited_file(tmp_path, lambda r: r["metrics"].update({"unseen/i2t": 0.95}))
    other = write_files(tmp_path, FILE_ARO_GAMMA)
    assert cli.main(["compare", str(path), *other]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1  # one line
    assert f"{path} was changed after `bindsplit eval` wrote it" in captured.err
    for command in (
        ["export", "model-index", str(path)],
        ["push-results", str(path), "--repo", "o/r"],
    ):
        assert cli.main(command) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1
        assert "was changed after `bindsplit eval` wrote it" in captured.err


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda r: r.pop("digest"), "has no digest of its content"),
        (lambda r: r.update({"digest": "sha256:" + "0" * 64}), "was changed after"),
        (lambda r: r["model"].update({"id": "someone-else"}), "was changed after"),
        (lambda r: r["model"].pop("class"), "was changed after"),
    ],
)
def test_edits_and_missing_digests_are_refused(tmp_path: Path, change: Any, expected: str) -> None:
    with pytest.raises(SchemaError, match=expected):
        load_results([edited_file(tmp_path, change)])


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("unseen/i2t", r"metrics\['unseen/i2t'\] is missing \(unseen has 2 samples\)"),
        ("full/group", r"metrics\['full/group'\] is missing \(full has 10 samples\)"),
        ("seen/t2i", r"metrics\['seen/t2i'\] is missing \(seen has 6 samples\)"),
        ("seen/i2t_ci", r"metrics\['seen/i2t_ci'\] is missing .*reports intervals"),
        ("gap/t2i", r"metrics\['gap/t2i'\] is missing \(seen and unseen both report t2i\)"),
        ("seen/n", r"metrics\['seen/n'\] is missing \(the record reports 'seen/i2t'\)"),
    ],
)
def test_a_deleted_metric_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, expected: str
) -> None:
    path = edited_file(tmp_path, lambda r: r["metrics"].pop(key))
    with pytest.raises(SchemaError, match=expected):
        load_results([path])
    commands = (
        ["compare", str(path)],
        ["export", "model-index", str(path)],
        ["push-results", str(path), "--repo", "org/results"],  # a dry run: refused while planned
        ["push-results", str(tmp_path), "--repo", "org/results"],  # found in a folder
    )
    for command in commands:
        assert cli.main(command) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.count("\n") == 1 and f"metrics[{key!r}] is missing" in captured.err


def test_a_1_image_record_needs_no_t2i_but_all_of_its_configurations() -> None:
    assert validate_record(ARO_ALPHA) is ARO_ALPHA
    partial = {**ARO_ALPHA["metrics"], "partial/n": 0}
    assert validate_record({**ARO_ALPHA, "metrics": partial})  # empty: nothing required
    missing = {key: value for key, value in partial.items() if key != "full/i2t_ci"}
    with pytest.raises(SchemaError, match=r"'full/i2t_ci'\] is missing"):
        validate_record({**ARO_ALPHA, "metrics": missing})


def test_samples_with_two_images_require_t2i_and_group() -> None:
    without_t2i = {
        key: value
        for key, value in SAMPLED["metrics"].items()
        if not key.startswith(("seen/t2i", "seen/group"))
    }
    with pytest.raises(SchemaError, match=r"'seen/t2i'\] is missing"):
        validate_record({**SAMPLED, "metrics": without_t2i})


def test_written_records_carry_no_local_path(tmp_path: Path) -> None:
    local = {
        **FILE_ALPHA,
        "dataset": {**FILE_ALPHA["dataset"], "data": "/home/someone/builds/bivlc_bindsplit"},
        "save_scores": {"path": "/home/someone/scores/alpha.parquet", "error": None},
    }
    [back] = load_results([write_record(local, tmp_path / "r.json")])
    assert back["dataset"]["data"] == "bivlc_bindsplit"
    assert back["save_scores"]["path"] == "alpha.parquet"
    assert "/home/someone" not in (tmp_path / "r.json").read_text(encoding="utf-8")
    for data, expected in [
        ("bindsplit/aro", "bindsplit/aro"),  # a Hub id is kept
        ("./bivlc_bindsplit", "bivlc_bindsplit"),
        ("..\\builds\\aro", "aro"),
        ("out/a/b", "b"),
    ]:
        sealed = seal_record({**ALPHA, "dataset": {**ALPHA["dataset"], "data": data}})
        assert sealed["dataset"]["data"] == expected


def test_scored_by_is_required_and_one_of_three() -> None:
    assert ResultsRecord.from_dict(ALPHA).scored_by == "encoder"
    pair = {**ALPHA, "model": {**ALPHA["model"], "scored_by": "pair scorer"}}
    assert ResultsRecord.from_dict(pair).scored_by == "pair scorer"
    for value in (None, "magic"):
        model = {k: v for k, v in ALPHA["model"].items() if k != "scored_by"}
        odd = {**ALPHA, "model": {**model, **({"scored_by": value} if value else {})}}
        with pytest.raises(SchemaError, match="model.scored_by is .* not one of encoder"):
            ResultsRecord.from_dict(odd)


def test_default_configurations_are_those_reported() -> None:
    assert DEFAULT_CONFIGS == ("full", "seen", "partial", "unseen", "balanced")
    assert reported_configs([ALPHA, ARO_ALPHA]) == ["full", "seen", "unseen"]
    assert reported_configs([ALPHA], ["unseen", "partial"]) == ["unseen", "partial"]


# --- how the numbers were made: settings, provenance, small samples ---------------------------


def metric_record(**options: Any) -> dict[str, Any]:
    """A record whose metrics the metric itself computed (3 seen of 4 right, 1 unseen of 2,
    partial 0 of 1), with the settings it records."""
    stats = metric_core.accumulate(
        [[[0.9, 0.1]]] * 3 + [[[0.1, 0.9]]] + [[[0.9, 0.1]], [[0.1, 0.9]], [[0.1, 0.9]]],
        ["seen"] * 4 + ["unseen"] * 2 + ["partial"],
    )
    return {
        "format": "bindsplit-results/1",
        "bindsplit_version": "1.2.3",
        "model": {"id": "m", "revision": None, "scored_by": "encoder"},
        "dataset": {"benchmark": "aro_vga"},
        "metrics": metric_core.compute_metrics(stats, **options),
        "environment": {"bindsplit": "1.2.3", "git_commit": "abc", "platform": "Linux-x"},
    }


def test_interval_settings_of_new_and_old_records() -> None:
    new = metric_record(n_bootstrap=50, seed=7, confidence=0.9)
    assert interval_settings(validate_record(new)["metrics"]) == {
        "interval_method": "wilson",
        "gap_interval_method": "newcombe",
        "macro_interval_method": None,
        "confidence": 0.9,
        "n_bootstrap": 50,
        "seed": 7,
        "small_n_interval_method": None,
    }
    # written before the settings were recorded: a 95% percentile bootstrap, resamples unknown
    assert interval_settings(ALPHA["metrics"]) == {
        "interval_method": "bootstrap-percentile",
        "gap_interval_method": "bootstrap-percentile",
        "macro_interval_method": None,
        "confidence": 0.95,
        "n_bootstrap": None,
        "seed": None,
        "small_n_interval_method": None,
    }
    assert set(interval_settings({"full/n": 2, "full/i2t": 0.5}).values()) == {None}


def test_provenance_of_new_and_old_records() -> None:
    assert provenance(metric_record()) == {
        "bindsplit_version": "1.2.3",
        "git_commit": "abc",
        "platform": "Linux-x",
    }
    assert provenance(ALPHA) == {"bindsplit_version": None, "git_commit": None, "platform": None}


def test_new_records_need_both_gaps_old_ones_only_the_first() -> None:
    new = metric_record()
    assert new["metrics"]["gap_partial/i2t"] == 0.75 and "gap_partial/i2t_ci" in new["metrics"]
    for key in ("gap_partial/i2t", "gap_partial/i2t_ci"):
        broken = {**new, "metrics": {k: v for k, v in new["metrics"].items() if k != key}}
        with pytest.raises(SchemaError, match=re.escape(key)):
            validate_record(broken)
    validate_record(ALPHA)  # no settings, no gap_partial: an older record, still read


@pytest.mark.parametrize(
    ("key", "value", "match"),
    [
        ("interval_method", "wald", "is not one of"),
        ("confidence", 95, "is not a level"),
        ("n_bootstrap", -1, "is not an integer"),
        ("seed", True, "is not an integer"),
    ],
)
def test_bad_settings_are_refused(key: str, value: Any, match: str) -> None:
    record = metric_record()
    record["metrics"][key] = value
    with pytest.raises(SchemaError, match=match):
        validate_record(record)


def test_small_samples_are_flagged() -> None:
    metrics = metric_record()["metrics"]
    assert is_small(metrics, "seen", "i2t")  # 3/4: n < 30
    big = {"full/n": 30, "full/i2t": 0.5, "seen/n": 500, "seen/i2t": 1.0, "unseen/n": 40}
    big |= {"unseen/i2t": 0.025, "gap/i2t": 0.975}
    assert not is_small(big, "full", "i2t")  # 15/30
    assert is_small(big, "seen", "i2t")  # 500/500: degenerate
    assert not is_small(big, "unseen", "i2t")  # 1/40
    assert is_small(big, "gap", "i2t")  # one side degenerate
    assert not is_small(big, "partial", "i2t")  # not reported
