"""The one text-table renderer and the tables built on it (record table, composition)."""

from __future__ import annotations

import pytest

from bindsplit_datasets import metric_core
from bindsplit_datasets.builds.cards import composition_rows, format_composition
from bindsplit_datasets.reports import format_record_table
from bindsplit_datasets.tables import render_table


def test_render_table_aligns_pads_and_strips() -> None:
    text = render_table(
        ("rank", "model", "note"),
        [("1", "alpha", ""), ("10", "b", "x")],
        align=(">", "<", "<"),
        indent="  ",
        rule=True,
    )
    assert text.splitlines() == [
        "  rank  model  note",
        "  ----  -----  ----",
        "     1  alpha",
        "    10  b      x",
    ]
    assert render_table(("a",), []) == "a"
    with pytest.raises(ValueError, match="3 columns needs 3 alignments and cells per row"):
        render_table(("a", "b", "c"), [("1", "2")])
    with pytest.raises(ValueError, match="2 columns"):
        render_table(("a", "b"), [], align=("<",))


RECORD = {
    "format": "bindsplit-results/1",
    "model": {"id": "tiny", "scored_by": "encoder"},
    "dataset": {"benchmark": "aro_vga", "data": "out/aro"},
    "metrics": {
        "full/n": 300,
        "full/i2t": 0.712,
        "full/i2t_ci": [0.69, 0.734],
        "seen/n": 200,
        "seen/i2t": 0.75,
        "seen/i2t_ci": [0.7, 0.8],
        "seen/category/replace/n": 12,
        "unseen/n": 0,
        "gap/i2t": 0.125,
        "gap/i2t_ci": [-0.05, 0.3],
    },
}


def test_record_table_exact_text() -> None:
    assert format_record_table(RECORD).splitlines() == [
        "tiny on aro_vga (out/aro)",
        "configuration        n    I2T                  T2I  group",
        "-------------------  ---  -------------------  ---  -----",
        "full                 300  71.2 [69.0, 73.4]    -    -",
        "seen                 200  75.0 [70.0, 80.0]    -    -",
        "unseen               0    -                    -    -",
        "gap (seen - unseen)  0    +12.5 [-5.0, +30.0]  -    -",
        # an older record: its intervals were a 95% bootstrap
        "95% intervals: bootstrap; * n < 30 or a degenerate count (0/n, n/n)",
    ]


def test_record_table_shows_every_configuration_the_record_reports() -> None:
    metrics = {"full/n": 4, "full/i2t": 0.5, "balanced/n": 2, "balanced/i2t": 1.0}
    record = {**RECORD, "metrics": metrics}
    assert format_record_table(record).splitlines()[3:] == [
        "full           4  50.0*   -    -",
        "balanced       2  100.0*  -    -",
        "* n < 30 or a degenerate count (0/n, n/n)",
    ]


def test_record_table_gaps_flags_and_level() -> None:
    """Seen 0 of 10 right, unseen 1 of 10, partial 60 of 100, at 90%: Wilson intervals,
    Newcombe's for the gaps, every value resting on 10 samples flagged."""
    stats = metric_core.BindsplitStatistics(
        splits={
            "seen": (0, 0, 10, 0, 0, 0),
            "unseen": (0, 0, 9, 0, 0, 1),
            "partial": (0, 0, 40, 0, 0, 60),
        }
    )
    record = {**RECORD, "metrics": metric_core.compute_metrics(stats, confidence=0.9)}
    assert format_record_table(record).splitlines()[1:] == [
        "configuration         n    I2T                    T2I  group",
        "--------------------  ---  ---------------------  ---  -----",
        "full                  120  50.8 [43.4, 58.2]      -    -",
        "seen                  10   0.0 [0.0, 21.3]*       -    -",
        "unseen                10   10.0 [2.3, 34.8]*      -    -",
        "partial               100  60.0 [51.8, 67.7]      -    -",
        "gap (seen - unseen)   10   -10.0 [-34.8, +12.7]*  -    -",
        "gap (seen - partial)  10   -60.0 [-67.7, -37.2]*  -    -",
        "90% intervals: Wilson; gaps: Newcombe; * n < 30 or a degenerate count (0/n, n/n)",
    ]


def test_composition_table_exact_text() -> None:
    composition = {
        "n": 1000,
        "counts": {"seen": 700, "unseen": 20, "partial": 200, "none": 80},
        "shares": {"seen": 0.7, "unseen": 0.02, "partial": 0.2, "none": 0.08},
        "positive_seen_rate": 0.9,
        "negative_seen_rate": 0.5,
        "asymmetric_share": 0.25,
        "n_with_bindings": 920,
        "unseen_share_with_bindings": 20 / 920,
        "balanced_count": 650,
        "balanced_share": 0.65,
        "positive_caption_seen_rate": 0.95,
        "negative_caption_seen_rate": 0.6,
    }
    lines = format_composition(composition_rows(composition, {"unseen_share": 0.012})).splitlines()
    # each paper figure is shown in both readings (binding/caption level; all/bound samples)
    assert lines == [
        "                                           n   share  paper",
        "seen                                     700   70.0%",
        "unseen                                    20    2.0%   1.2%",
        "partial                                  200   20.0%",
        "none                                      80    8.0%",
        "total                                  1,000  100.0%",
        "unseen, of samples with bindings          20    2.2%   1.2%",
        "balanced (equal familiarity above 0)     650   65.0%",
        "positive-caption bindings seen                 90.0%",
        "positive captions with a binding seen          95.0%",
        "negative-caption bindings seen                 50.0%",
        "negative captions with a binding seen          60.0%",
        "samples with familiarity asymmetry             25.0%",
    ]


def test_split_gaps_put_each_build_of_a_model_side_by_side() -> None:
    from report_records import record

    from bindsplit_datasets.reports.tables import format_split_gaps

    values = {"full": {"i2t": 0.8}, "seen": {"i2t": 0.9}, "unseen": {"i2t": 0.75}}
    attribute = record("tiny", values, benchmark="synthetic")
    relation = record("tiny", {**values, "unseen": {"i2t": 0.6}}, benchmark="synthetic_relation")
    relation["dataset"]["binding_kind"] = "relation"
    lines = format_split_gaps([attribute, relation]).splitlines()
    assert lines[0] == "I2T accuracy by split, side by side"
    assert lines[1].split() == [
        *("model", "build", "n", "seen", "n", "unseen", "seen", "-", "unseen", "(points)")
    ]
    # seen 60 samples, unseen 10 (report_records.N): small, flagged; the gap +- 10 points
    assert " ".join(lines[3].split()) == (
        "tiny synthetic (attribute bindings) 60 90.0 [85.0, 95.0] 10 75.0 [70.0, 80.0]* "
        "+15.0 [+5.0, +25.0]*"
    )
    assert " ".join(lines[4].split()) == (
        "tiny synthetic_relation (relation bindings) 60 90.0 [85.0, 95.0] 10 60.0 [55.0, 65.0]* "
        "+30.0 [+20.0, +40.0]*"
    )
    assert lines[5].endswith("* n < 30 or a degenerate count (0/n, n/n)") and len(lines) == 6
