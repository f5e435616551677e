"""Leaderboards, rank moves from full marked only where real, and the comparison text
(hand-made records, with and without per-sample outcomes)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from report_records import (
    ALPHA,
    ARO_ALPHA,
    ARO_GAMMA,
    BETA,
    BIVLC,
    FILE_ARO_GAMMA,
    GAMMA,
    record,
    record_from_samples,
    write_records,
)

from bindsplit_datasets import cli, metric_core
from bindsplit_datasets.errors import SchemaError
from bindsplit_datasets.reports import (
    RankChange,
    Row,
    format_comparison,
    leaderboard,
    rank_changes,
)

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


def test_rank_changes_without_samples_compare_intervals() -> None:
    # seen: every move is within +-0.05 intervals; unseen: beta falls 0.20 below both others
    assert rank_changes(BIVLC) == [
        RankChange(
            "alpha",
            {"full": 1, "seen": 3, "unseen": 1},
            {"seen": "=", "unseen": ""},
            {"seen": (), "unseen": ()},
        ),
        RankChange(
            "beta",
            {"full": 1, "seen": 1, "unseen": 3},
            {"seen": "", "unseen": "↓2"},
            {"seen": (), "unseen": ("alpha", "gamma")},
        ),
        RankChange(
            "gamma",
            {"full": 3, "seen": 2, "unseen": 1},
            # up two places, but only the pass of beta is real (alpha and gamma now tie)
            {"seen": "=", "unseen": "↑1"},
            {"seen": (), "unseen": ("beta",)},
        ),
    ]
    assert [change.moved for change in rank_changes(BIVLC)] == [False, True, True]
    same_order = rank_changes([ARO_ALPHA, ARO_GAMMA], configs=("full", "unseen"))
    assert [change.markers for change in same_order] == [{"unseen": ""}, {"unseen": ""}]
    assert not any(change.moved for change in same_order)


EXPECTED_COMPARISON = """\
bivlc: I2T accuracy, 3 models
  rank moves vs full: ↑/↓ where the difference is real, = where it is within noise
    (real: non-overlapping 95% intervals; the records have no per-sample outcomes)
  full
    rank  model  I2T %  95% CI          n
       1  alpha  80.0   [75.0, 85.0]  100
       1  beta   80.0   [75.0, 85.0]  100
       3  gamma  60.0   [55.0, 65.0]  100
  seen
    rank  model  I2T %  95% CI         n  vs full
       1  beta   75.0   [70.0, 80.0]  60
       2  gamma  72.0   [67.0, 77.0]  60  =
       3  alpha  70.0   [65.0, 75.0]  60  =
    order same as full within noise (moves of alpha, gamma)
  unseen
    rank  model  I2T %  95% CI         n  vs full
       1  alpha  50.0*  [45.0, 55.0]  10
       1  gamma  50.0*  [45.0, 55.0]  10  ↑1
       3  beta   30.0*  [25.0, 35.0]  10  ↓2
    order changes vs full: beta ↓2 (vs alpha, gamma), gamma ↑1 (vs beta)
  gaps (I2T)
    model  seen - unseen (points)   n
    alpha  +20.0 [+10.0, +30.0]*   10
    beta   +45.0 [+35.0, +55.0]*   10
    gamma  +22.0 [+12.0, +32.0]*   10
  95% intervals: bootstrap; * n < 30 or a degenerate count (0/n, n/n)

aro_vga: I2T accuracy, 2 models
  rank moves vs full: ↑/↓ where the difference is real, = where it is within noise
    (real: non-overlapping 95% intervals; the records have no per-sample outcomes)
  full
    rank  model  I2T %  95% CI          n
       1  alpha  90.0   [85.0, 95.0]  100
       2  gamma  85.0   [80.0, 90.0]  100
  seen
    rank  model  I2T %  95% CI         n  vs full
       1  gamma  75.0   [70.0, 80.0]  60  =
       2  alpha  70.0   [65.0, 75.0]  60  =
    order same as full within noise (moves of alpha, gamma)
  unseen
    rank  model  I2T %  95% CI         n  vs full
       1  alpha  60.0*  [55.0, 65.0]  10
       2  gamma  55.0*  [50.0, 60.0]  10
    order same as full
  gaps (I2T)
    model  seen - unseen (points)   n
    alpha  +10.0 [+0.0, +20.0]*    10
    gamma  +20.0 [+10.0, +30.0]*   10
  95% intervals: bootstrap; * n < 30 or a degenerate count (0/n, n/n)"""


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
    records = [P_ALPHA, FILE_ARO_GAMMA, P_BETA, P_GAMMA]
    paths = write_records(tmp_path, *records)
    assert cli.main(["compare", *paths]) == 0
    assert capsys.readouterr().out == format_comparison(records) + "\n"


def test_compare_command_reports_a_foreign_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    foreign = tmp_path / "manifest.json"
    foreign.write_text(json.dumps({"format": "bindsplit-build/2"}), encoding="utf-8")
    assert cli.main(["compare", str(foreign)]) == 2
    error = capsys.readouterr().err
    assert "is not a BindSplit results record" in error and str(foreign) in error


# --- the exact McNemar test over per-sample outcomes ----------------------------------------

LABELS = ["seen"] * 100 + ["unseen"] * 100


def outcomes(seen_right: Any, unseen_right: Any) -> list[int]:
    """I2T outcomes over LABELS: right on the given seen and unseen sample positions."""
    i2t = [0] * 200
    for i in seen_right:
        i2t[i] = 1
    for i in unseen_right:
        i2t[100 + i] = 1
    return i2t


# alpha: 80 seen, 40 unseen right. beta: right on a subset of alpha's seen samples (50) and on a
# superset of alpha's unseen ones (55): really worse on seen, really better on unseen, although
# the +-0.10 intervals overlap. gamma: alpha but for one seen sample fewer and one unseen more.
P_ALPHA = record_from_samples("alpha", LABELS, outcomes(range(80), range(40)))
P_BETA = record_from_samples("beta", LABELS, outcomes(range(50), range(55)))
P_GAMMA = record_from_samples("gamma", LABELS, outcomes(range(79), [*range(40), 54]))

BOARDS = """\
  full
    rank  model  I2T %  95% CI          n
       1  alpha  60.0   [50.0, 70.0]  200
       1  gamma  60.0   [50.0, 70.0]  200
       3  beta   52.5   [42.5, 62.5]  200
  seen
    rank  model  I2T %  95% CI          n  vs full
       1  alpha  80.0   [70.0, 90.0]  100
       2  gamma  79.0   [69.0, 89.0]  100  =
       3  beta   50.0   [40.0, 60.0]  100
    order same as full within noise (moves of gamma)
  unseen
    rank  model  I2T %  95% CI          n  vs full
       1  beta   55.0   [45.0, 65.0]  100  {beta}
       2  gamma  41.0   [31.0, 51.0]  100  {gamma}
       3  alpha  40.0   [30.0, 50.0]  100  {alpha}
    {summary}
  gaps (I2T)
    model  seen - unseen (points)    n
    alpha  +40.0 [+20.0, +60.0]    100
    gamma  +38.0 [+18.0, +58.0]    100
    beta   -5.0 [-25.0, +15.0]     100
  95% intervals: bootstrap; * n < 30 or a degenerate count (0/n, n/n)"""


def without_samples(value: dict[str, Any]) -> dict[str, Any]:
    return {key: item for key, item in value.items() if key != "samples"}


def test_the_paired_test_marks_moves_the_intervals_cannot_see() -> None:
    text = format_comparison([P_ALPHA, P_BETA, P_GAMMA])
    boards = BOARDS.format(
        beta="↑2",
        gamma="↓1",
        alpha="↓1",
        summary="order changes vs full: alpha ↓1 (vs beta), gamma ↓1 (vs beta), "
        "beta ↑2 (vs gamma, alpha)",
    )
    assert text == (
        "bivlc: I2T accuracy, 3 models\n"
        "  rank moves vs full: ↑/↓ where the difference is real, = where it is within noise\n"
        "    (real: the exact McNemar test over the shared samples separates the models at 95%)\n"
        + boards
    )
    # the same records without their outcomes: the overlapping intervals call every move noise
    unpaired = format_comparison([without_samples(r) for r in (P_ALPHA, P_BETA, P_GAMMA)])
    assert unpaired.endswith(
        BOARDS.format(
            beta="=",
            gamma="=",
            alpha="=",
            summary="order same as full within noise (moves of alpha, gamma, beta)",
        )
    )


def test_mixed_records_state_both_methods_and_the_level() -> None:
    text = format_comparison([P_ALPHA, without_samples(P_BETA), P_GAMMA], confidence=0.9)
    assert text.splitlines()[1:4] == [
        "  rank moves vs full: ↑/↓ where the difference is real, = where it is within noise",
        "    (real: the exact McNemar test over the shared samples separates the models at 90%,",
        "    or non-overlapping 95% intervals where a record has no per-sample outcomes)",
    ]
    # beta is compared through the intervals: its moves are noise; gamma's are paired
    assert "gamma ↓1" not in text and "order same as full within noise (moves of gamma)" in text


def test_identical_outcomes_are_a_tie_and_untested_moves_say_so() -> None:
    twin = {**P_ALPHA, "model": {**P_ALPHA["model"], "id": "twin"}}
    twin["metrics"] = {**P_ALPHA["metrics"], "full/i2t": 0.61}  # ahead on full (say, rounding)
    changes = rank_changes([P_ALPHA, twin])
    # alpha climbs to a shared first place on seen and unseen: same outcomes, so within noise
    assert [(c.model, c.ranks, c.markers, c.moved) for c in changes] == [
        ("twin", {"full": 1, "seen": 1, "unseen": 1}, {"seen": "", "unseen": ""}, False),
        ("alpha", {"full": 2, "seen": 1, "unseen": 1}, {"seen": "=", "unseen": "="}, False),
    ]
    bare = [
        record("a", {"full": {"i2t": 0.8}, "unseen": {"i2t": 0.1}}, width=None),
        record("b", {"full": {"i2t": 0.2}, "unseen": {"i2t": 0.9}}, width=None),
    ]
    text = format_comparison(bare, configs=("full", "unseen"))
    assert text.splitlines()[1] == (
        "  rank moves vs full: not tested (no per-sample outcomes or intervals); = marks every move"
    )
    assert "order same as full within noise (moves of a, b)" in text


def test_compare_command_states_the_chosen_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = write_records(tmp_path, P_ALPHA, P_BETA)
    assert cli.main(["compare", *paths, "--confidence", "0.99"]) == 0
    assert "separates the models at 99%)" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["compare", *paths, "--confidence", "95"])
    assert "95 is not a confidence in (0, 1)" in capsys.readouterr().err


def test_compare_shows_partial_and_balanced_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    values = {
        "full": {"i2t": 0.8},
        "seen": {"i2t": 0.9},
        "partial": {"i2t": 0.7},
        "unseen": {"i2t": 0.6},
        "balanced": {"i2t": 0.9},
    }
    paths = write_records(
        tmp_path,
        record("one", values, benchmark="aro_vga"),
        record("two", {c: {"i2t": v["i2t"] - 0.3} for c, v in values.items()}, benchmark="aro_vga"),
    )
    assert cli.main(["compare", *paths]) == 0
    out = capsys.readouterr().out
    boards = [line.strip() for line in out.splitlines() if re.fullmatch(r"  \w+", line)]
    assert boards == ["full", "seen", "partial", "unseen", "balanced"]
    # records without them: the default shows what they report, no empty boards
    assert "partial" not in format_comparison([ARO_ALPHA, ARO_GAMMA])
    assert "  balanced: no result" in format_comparison(BIVLC, configs=["full", "balanced"])


def computed(model: str, seen: int, unseen: int, partial: int) -> dict[str, Any]:
    """A record whose numbers the metric computed: ``seen`` of 40 seen samples right, ``unseen``
    of 10 unseen ones, ``partial`` of 50 partial ones (one image each)."""
    splits = {"seen": (seen, 40), "unseen": (unseen, 10), "partial": (partial, 50)}
    stats = metric_core.BindsplitStatistics(
        splits={label: (0, 0, n - k, 0, 0, k) for label, (k, n) in splits.items()}
    )
    return {
        "format": "bindsplit-results/1",
        "model": {"id": model, "revision": None, "scored_by": "encoder"},
        "dataset": {"data": "b", "benchmark": "aro_vga", "fingerprint": "f"},
        "metrics": metric_core.compute_metrics(stats, confidence=0.9),
    }


def test_comparison_shows_both_gaps_flags_and_the_interval_method() -> None:
    text = format_comparison(
        [computed("a", 40, 0, 30), computed("b", 20, 5, 25)], configs=["full", "unseen"]
    )
    # a's seen-unseen gap, by hand: 1 - sqrt((1 - 0.93664)^2 + 0.21294^2) = 0.7778 (Wilson's
    # 90% bounds of 40/40 and 0/10)
    assert text.splitlines()[2:] == [
        "    (real: non-overlapping 90% intervals; the records have no per-sample outcomes)",
        "  full",
        "    rank  model  I2T %  90% CI          n",
        "       1  a      70.0   [62.0, 76.9]  100",
        "       2  b      50.0   [41.9, 58.1]  100",
        "  unseen",
        "    rank  model  I2T %  90% CI         n  vs full",
        "       1  b      50.0*  [26.9, 73.1]  10  ↑1",
        "       2  a       0.0*  [0.0, 21.3]   10  ↓1",
        "    order changes vs full: a ↓1 (vs b), b ↑1 (vs a)",
        "  gaps (I2T)",
        "    model  seen - unseen (points)    n  seen - partial (points)   n",
        "    a      +100.0 [+77.8, +100.0]*  10  +40.0 [+27.7, +51.6]*    40",
        "    b      +0.0 [-26.3, +26.3]*     10  +0.0 [-16.9, +16.9]      40",
        "  90% intervals: Wilson; gaps: Newcombe; * n < 30 or a degenerate count (0/n, n/n)",
    ]
