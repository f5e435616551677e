"""Records are re-derived, not trusted: every reader recomputes a record's numbers from its
per-sample outcomes, refuses a record without them, and never silently keeps one of two
different records of the same model, revision and build (issue 41)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from report_records import (
    SAMPLE_BALANCED,
    SAMPLE_LABELS,
    genuine_halftruth_record,
    genuine_hard_record,
    genuine_hard_scores,
    genuine_record,
)

from bindsplit_datasets import cli
from bindsplit_datasets.errors import BindsplitFileNotFoundError, SchemaError
from bindsplit_datasets.metric_core import accumulate, outcome_statistics
from bindsplit_datasets.reports import load_results, write_record, write_records
from bindsplit_datasets.reports.consistency import rederive
from bindsplit_datasets.reports.leaderboard_sources import load_source
from bindsplit_datasets.reports.results import seal_record


def resealed(change: Callable[[dict[str, Any]], Any], record: dict[str, Any] | None = None):
    """A genuine record edited consistently by ``change`` and sealed again with the package's
    own ``seal_record``: its digest is right."""
    value = json.loads(json.dumps(record or genuine_record()))
    change(value)
    return seal_record(value)


@pytest.mark.parametrize("method", ["wilson", "clopper-pearson", "bootstrap"])
def test_a_genuine_record_re_derives_to_itself(tmp_path: Path, method: str) -> None:
    record = genuine_record(method=method, n_bootstrap=200)
    derived = rederive(record)
    assert derived and all(record["metrics"][key] == value for key, value in derived.items())
    closed_form = method != "bootstrap"
    assert ("gap/i2t_ci" in derived) is closed_form and "gap_partial/group" in derived
    assert "balanced/n" in derived and derived["full/n"] == len(SAMPLE_LABELS)
    assert load_results([write_record(record, tmp_path / "r.json")]) == [record]


def _unsampled(record: dict[str, Any]) -> None:
    record.pop("samples")


def _moved_metric(record: dict[str, Any]) -> None:
    """full/i2t up by five points, its interval with it (still holding it)."""
    metrics = record["metrics"]
    metrics["full/i2t"] += 0.05
    metrics["full/i2t_ci"] = [low + 0.05 for low in metrics["full/i2t_ci"]]


def _moved_gap(record: dict[str, Any]) -> None:
    metrics = record["metrics"]
    metrics["gap/i2t"] += 0.1
    metrics["gap/i2t_ci"] = [bound + 0.1 for bound in metrics["gap/i2t_ci"]]


def _narrowed_interval(record: dict[str, Any]) -> None:
    value = record["metrics"]["unseen/t2i"]
    record["metrics"]["unseen/t2i_ci"] = [value - 0.01, value + 0.01]


# -- records of builds with hard positives -------------------------------------------------


def _moved_drop(record: dict[str, Any]) -> None:
    """full/i2t_drop up by five points, its interval with it (still holding it)."""
    metrics = record["metrics"]
    metrics["full/i2t_drop"] += 0.05
    metrics["full/i2t_drop_ci"] = [bound + 0.05 for bound in metrics["full/i2t_drop_ci"]]


def _narrowed_drop_interval(record: dict[str, Any]) -> None:
    value = record["metrics"]["seen/i2t_drop"]
    record["metrics"]["seen/i2t_drop_ci"] = [value - 0.01, value + 0.01]


def _moved_original_interval(record: dict[str, Any]) -> None:
    low, high = record["metrics"]["unseen/i2t_original_ci"]
    record["metrics"]["unseen/i2t_original_ci"] = [low - 0.02, high - 0.02]


def _moved_drop_gap(record: dict[str, Any]) -> None:
    metrics = record["metrics"]
    metrics["gap_partial/i2t_drop"] -= 0.1
    metrics["gap_partial/i2t_drop_ci"] = [b - 0.1 for b in metrics["gap_partial/i2t_drop_ci"]]


def _other_drop_method(record: dict[str, Any]) -> None:
    """The drop's intervals said to be Clopper-Pearson's: they are Wilson's."""
    record["metrics"]["drop_interval_method"] = "clopper-pearson"


def _original_outcomes_removed(record: dict[str, Any]) -> None:
    record["samples"].pop("i2t_original")


def _gained_with_hard_positives(record: dict[str, Any]) -> None:
    """A sample right with its hard positive made wrong without it: no scores do that."""
    samples = record["samples"]
    index = samples["i2t"].index(1)
    samples["i2t_original"][index] = 0


# -- records of half-truth builds -----------------------------------------------------------


def _moved_acc_ht(record: dict[str, Any]) -> None:
    """full/acc_ht up by five points, its interval with it (still holding it)."""
    metrics = record["metrics"]
    metrics["full/acc_ht"] += 0.05
    metrics["full/acc_ht_ci"] = [bound + 0.05 for bound in metrics["full/acc_ht_ci"]]


def _moved_kind_delta(record: dict[str, Any]) -> None:
    """The similarity gap of unseen relation foils moved, its interval with it."""
    metrics = record["metrics"]
    metrics["unseen/kind/relation/delta"] += 0.1
    interval = metrics["unseen/kind/relation/delta_ci"]
    metrics["unseen/kind/relation/delta_ci"] = [bound + 0.1 for bound in interval]


def _narrowed_delta_gap_interval(record: dict[str, Any]) -> None:
    value = record["metrics"]["gap/delta"]
    record["metrics"]["gap/delta_ci"] = [value - 0.01, value + 0.01]


def _moved_refinement_by_edit(record: dict[str, Any]) -> None:
    record["metrics"]["seen/category/relation/swap/ref_acc"] = 1.0


def _delta_outcomes_removed(record: dict[str, Any]) -> None:
    record["samples"].pop("delta")


def _categories_removed(record: dict[str, Any]) -> None:
    record["samples"].pop("category")


FORGERIES = [
    (genuine_record, _unsampled, 'has no per-sample outcomes ("samples")'),
    (genuine_record, _moved_metric, "full/i2t = "),
    (genuine_record, _moved_gap, "gap/i2t = "),
    (genuine_record, _narrowed_interval, "unseen/t2i_ci = "),
    (genuine_hard_record, _unsampled, 'has no per-sample outcomes ("samples")'),
    (genuine_hard_record, _moved_drop, "full/i2t_drop = "),
    (genuine_hard_record, _narrowed_drop_interval, "seen/i2t_drop_ci = "),
    (genuine_hard_record, _moved_original_interval, "unseen/i2t_original_ci = "),
    (genuine_hard_record, _moved_drop_gap, "gap_partial/i2t_drop = "),
    (genuine_hard_record, _other_drop_method, "full/i2t_drop_ci = "),
    (genuine_hard_record, _original_outcomes_removed, "but its samples have no i2t_original"),
    (genuine_hard_record, _gained_with_hard_positives, "right with its hard positives (i2t)"),
    (genuine_halftruth_record, _moved_acc_ht, "full/acc_ht = "),
    (genuine_halftruth_record, _moved_kind_delta, "unseen/kind/relation/delta = "),
    (genuine_halftruth_record, _narrowed_delta_gap_interval, "gap/delta_ci = "),
    (genuine_halftruth_record, _moved_refinement_by_edit, "seen/category/relation/swap/ref_acc = "),
    (genuine_halftruth_record, _delta_outcomes_removed, "but its samples have no delta lists"),
    (genuine_halftruth_record, _categories_removed, "but its samples have no category lists"),
]


@pytest.mark.parametrize(("make", "change", "message"), FORGERIES)
def test_a_resealed_forgery_is_refused_by_every_reader(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    make: Callable,
    change: Callable,
    message: str,
) -> None:
    forged = resealed(change, make())
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged), encoding="utf-8")  # its digest is right
    with pytest.raises(SchemaError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_results([path])
    commands = [
        ["compare", str(path)],
        ["export", "model-index", str(path), "--org", "lab"],
        ["export", "results-table", str(path), "--out", str(tmp_path / "t.parquet")],
        ["push-results", str(path), "--repo", "lab/results"],
        ["plot", str(path), "--out", str(tmp_path / "fig.png")],
    ]
    for argv in commands:
        assert cli.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, argv
    with pytest.raises(BindsplitFileNotFoundError, match="left out: forged.json") as caught:
        load_source(tmp_path)  # the leaderboard Space's reader: nothing else to show
    assert message in str(caught.value)


@pytest.mark.parametrize("method", ["wilson", "clopper-pearson", "bootstrap"])
def test_a_genuine_hard_positive_record_re_derives_to_itself(tmp_path: Path, method: str) -> None:
    record = genuine_hard_record(method=method, n_bootstrap=200)
    derived = rederive(record)
    assert all(record["metrics"][key] == value for key, value in derived.items())
    hard = {"i2t_original", "i2t_drop"}
    configs = ("full", "seen", "unseen", "partial", "balanced", "gap", "gap_partial")
    assert {f"{c}/{m}" for c in configs for m in hard} <= set(derived)
    closed_form = method != "bootstrap"
    for key in ("full/i2t_drop_ci", "seen/i2t_original_ci", "gap/i2t_drop_ci"):
        assert (key in derived) is closed_form, key
    # the drop by hand: the samples right without the hard positive and wrong with it
    samples = record["samples"]
    outcomes = zip(samples["i2t"], samples["i2t_original"], strict=True)
    dropped = sum(original and not right for right, original in outcomes)
    assert derived["full/i2t_drop"] == dropped / len(SAMPLE_LABELS) > 0
    assert load_results([write_record(record, tmp_path / "r.json")]) == [record]


def test_a_genuine_halftruth_record_re_derives_to_itself(tmp_path: Path) -> None:
    """Every half-truth number (AccHT, Δ, refinement accuracy; per configuration, unit kind and
    edit; the gaps; every interval, all closed-form) is what the samples give."""
    record = genuine_halftruth_record()
    derived = rederive(record)
    assert all(record["metrics"][key] == value for key, value in derived.items())
    halftruth = [
        key
        for key in record["metrics"]
        if key.rpartition("/")[2].removesuffix("_ci") in ("acc_ht", "delta", "ref_acc")
    ]
    assert len(halftruth) > 100 and set(halftruth) <= set(derived)
    for key in ("gap/kind/entity/delta_ci", "unseen/category/relation/swap/acc_ht_ci"):
        assert key in derived, key
    assert load_results([write_record(record, tmp_path / "r.json")]) == [record]


def test_outcome_statistics_are_the_statistics_of_the_matrices() -> None:
    """The statistics re-derived from a record's outcomes are those ``accumulate`` made of the
    score matrices (nine cells with hard positives, six without)."""
    record = genuine_hard_record(seed=5)
    samples = record["samples"]
    stats = outcome_statistics(
        SAMPLE_LABELS,
        samples["i2t"],
        samples["t2i"],
        i2t_original=samples["i2t_original"],
        balanced=SAMPLE_BALANCED,
    )
    hard = [1] * len(SAMPLE_LABELS)
    scores = genuine_hard_scores(5)
    assert stats == accumulate(scores, SAMPLE_LABELS, balanced=SAMPLE_BALANCED, hard_positives=hard)
    assert stats.hard_positives and all(len(c) == 9 for c in stats.splits.values())
    plain = genuine_record(seed=5)["samples"]
    assert not outcome_statistics(SAMPLE_LABELS, plain["i2t"], plain["t2i"]).hard_positives
    with pytest.raises(ValueError, match="sample 1: right with its hard positives"):
        outcome_statistics(["seen", "seen"], [0, 1], i2t_original=[0, 0])
    with pytest.raises(ValueError, match="sample 0: outcomes must be 0/1"):
        outcome_statistics(["seen"], [2])


def test_a_drop_interval_of_its_own_method_is_re_derived_by_it() -> None:
    """``drop_interval_method`` names how the drop's intervals were made: a record whose drop
    intervals are Clopper-Pearson's beside Wilson accuracies re-derives to itself."""
    wilson = genuine_hard_record()
    exact = genuine_hard_record(method="clopper-pearson")["metrics"]
    metrics = dict(wilson["metrics"], drop_interval_method="clopper-pearson")
    drops = [key for key in metrics if key.endswith("/i2t_drop_ci") and "gap" not in key]
    metrics.update({key: exact[key] for key in drops})
    record = seal_record({**wilson, "metrics": metrics})
    derived = rederive(record)
    assert all(derived[key] == exact[key] != wilson["metrics"][key] for key in drops)
    assert all(metrics[key] == value for key, value in derived.items())
    assert derived["gap/i2t_drop_ci"] == wilson["metrics"]["gap/i2t_drop_ci"]  # Newcombe's


def test_what_the_outcomes_give_is_named(tmp_path: Path) -> None:
    forged = resealed(_moved_gap)
    value = genuine_record()["metrics"]["gap/i2t"]
    with pytest.raises(SchemaError, match=f"its per-sample outcomes give {value}"):
        load_results([write_records([forged], tmp_path / "f.json")])


def test_labels_outside_the_split_labels_are_refused() -> None:
    from bindsplit_datasets.reports.results import validate_record

    forged = resealed(lambda r: r["samples"]["label"].__setitem__(0, "familiar"))
    with pytest.raises(SchemaError, match="must hold split labels"):
        validate_record(forged)


def test_two_different_records_of_one_model_and_build_are_both_left_out(tmp_path: Path) -> None:
    first, other = (
        genuine_record(seed=1),
        genuine_record(seed=2),
    )  # the same model, revision and build
    write_record(first, tmp_path / "a.json")
    write_record(other, tmp_path / "b.json")
    write_record(genuine_record("org/siglip", seed=3), tmp_path / "c.json")
    write_records([first], tmp_path / "collection.json")  # a copy: not a conflict
    source = load_source(tmp_path)
    assert [r["model"]["id"] for r in source.records] == ["org/siglip"]
    (note,) = source.skipped
    assert note.startswith(
        "a.json and b.json and collection.json: two different results for org/clip on the bivlc"
    )
    assert "both left out" in note
    # a copy of one record is read once
    (tmp_path / "b.json").unlink()
    assert sorted(r["model"]["id"] for r in load_source(tmp_path).records) == [
        "org/clip",
        "org/siglip",
    ]
    # compare flags them too, never picks one
    paths = [str(write_record(r, tmp_path / f"{i}.json")) for i, r in enumerate((first, other))]
    with pytest.raises(SchemaError, match="has several results"):
        from bindsplit_datasets.reports import format_comparison

        format_comparison(load_results(paths))


def test_two_table_rows_of_one_record_that_disagree_leave_it_out(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from bindsplit_datasets.reports.results_table import results_table

    table = results_table([genuine_record(), genuine_record("org/siglip", seed=3)])
    rows = table.to_pylist()
    changed = {**rows[0], "value": rows[0]["value"] / 2, "ci_low": 0.0}
    pq.write_table(
        pa.Table.from_pylist([*rows, changed], schema=table.schema), tmp_path / "t.parquet"
    )
    source = load_source(tmp_path / "t.parquet")
    assert [r["model"]["id"] for r in source.records] == ["org/siglip"]
    assert "two different results for org/clip on the bivlc build" in source.skipped[0]


def test_a_local_folder_named_like_a_hub_id_is_recorded_as_that_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--data bindsplit/bivlc` that resolves to a local folder: the record says it was evaluated
    on that folder, never on the published dataset, and is not reported as canonical."""
    from fixtures_sources import make_bivlc_source

    from bindsplit_datasets.builds.builder import build_benchmark
    from bindsplit_datasets.evaluation import evaluate_scores

    monkeypatch.chdir(tmp_path)
    reference = tmp_path / "reference.txt"
    reference.write_text("a red car on the road\na white dog on the grass\n", encoding="utf-8")
    rows = [{"caption": "a red car", "negative_caption": "a white dog"}] * 2 + [
        {"caption": "a purple car", "negative_caption": "a golden dog"}
    ] * 2
    build_benchmark(
        "bivlc",
        out=Path("bindsplit/bivlc"),
        source=make_bivlc_source(tmp_path / "bivlc.parquet", rows),
        reference=reference,
        progress=False,
    )
    scores = {str(i): [[1.0, 0.0], [0.0, 1.0]] for i in range(len(rows))}
    record = evaluate_scores(scores, "bindsplit/bivlc", name="org/clip")
    assert record["dataset"]["data"] == "./bindsplit/bivlc"
    path = write_record(record, tmp_path / "r.json")
    assert load_results([path])[0]["dataset"]["data"] == "bivlc"  # the folder's name
    assert cli.main(["export", "eval-results", str(path)]) == 2
    err = capsys.readouterr().err
    assert "are not of the canonical bindsplit/bivlc" in err and "none known" in err
