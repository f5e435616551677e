"""The leaderboard Space's views over several boards, on hand-made records with exact values:
the Borda rank, mean unseen accuracy and mean gap across benchmarks (ties, missing benchmarks,
a benchmark of one model, benchmarks left out), and one benchmark's binding kinds side by
side."""

from __future__ import annotations

from leaderboard_records import relation_records, space_records
from report_records import ARO_ALPHA, ARO_GAMMA, BIVLC, record

from bindsplit_datasets.reports.leaderboard_across import (
    ACROSS_COLUMNS,
    across_benchmarks,
    borda_ranks,
    borda_scores,
    kinds_side_by_side,
)

# VisMin: beta ahead of gamma on unseen (0.40 against 0.20); alpha not evaluated.
VISMIN = [
    record(
        name,
        {"full": {"i2t": 0.5}, "seen": {"i2t": seen}, "unseen": {"i2t": unseen}},
        benchmark="vismin",
        fingerprint="v1",
    )
    for name, seen, unseen in (("beta", 0.60, 0.40), ("gamma", 0.50, 0.20))
]


def test_borda_shares_and_ranks() -> None:
    assert borda_scores({"a": 0.9, "b": 0.7, "c": 0.7, "d": 0.5}) == {
        "a": 1.0,
        "b": 0.5,
        "c": 0.5,
        "d": 0.0,
    }
    assert borda_scores({"alone": 0.9}) == {}  # one model ranks nothing
    assert borda_scores({}) == {}
    assert borda_ranks({"b": 0.5, "a": 0.5, "c": 1.0, "d": None, "e": 0.25}) == {
        "c": 1,
        "a": 2,
        "b": 2,
        "e": 4,
        "d": None,
    }


def test_across_benchmarks_by_hand() -> None:
    # unseen I2T: BiVLC alpha 0.50, beta 0.30, gamma 0.50; ARO alpha 0.60, gamma 0.55;
    # VisMin beta 0.40, gamma 0.20. Shares: BiVLC alpha (1 + 1/2) / 2 = 0.75, beta 0, gamma
    # 0.75; ARO alpha 1, gamma 0; VisMin beta 1, gamma 0. Means: alpha (0.75 + 1) / 2 = 0.875,
    # beta (0 + 1) / 2 = 0.5, gamma (0.75 + 0 + 0) / 3 = 0.25.
    view = across_benchmarks([*BIVLC, ARO_ALPHA, ARO_GAMMA, *VISMIN], "i2t")
    assert view.benchmarks == ["bivlc", "aro_vga", "vismin"] and view.left_out == {}
    by_model = {row["model"]: row for row in view.rows}
    assert [row["model"] for row in view.rows] == ["alpha", "beta", "gamma"]
    assert [row["rank"] for row in view.rows] == [1, 2, 3]
    assert [row["borda"] for row in view.rows] == [0.875, 0.5, 0.25]
    assert [row["benchmarks"] for row in view.rows] == [2, 2, 3]
    # means over each model's benchmarks, in points; n: the unseen samples summed (10 each)
    assert by_model["alpha"]["unseen"] == 55.0 and by_model["beta"]["unseen"] == 35.0
    assert round(by_model["gamma"]["unseen"], 6) == round((50 + 55 + 20) / 3, 6)
    assert [row["unseen_n"] for row in view.rows] == [20, 20, 30]
    # gaps (seen - unseen): alpha 20 and 10; beta 45 and 20; gamma 22, 20 and 30
    assert [round(row["gap"], 6) for row in view.rows] == [15.0, 32.5, 24.0]
    assert [row["gap_n"] for row in view.rows] == [20, 20, 30]
    table = view.table()
    assert table.headers == [
        *ACROSS_COLUMNS,
        "bivlc: unseen",
        "aro_vga: unseen",
        "vismin: unseen",
    ]
    assert table.texts[0] == [
        "1",
        "alpha",
        "0.88",
        "2",
        "55.0",
        "20",
        "15.0",
        "20",
        "50.0 ±5.0 *",  # 10 unseen samples: small n
        "60.0 ±5.0 *",
        "-",  # alpha has no VisMin result
    ]
    assert table.values[0][:4] == [1, "alpha", 0.875, 2]
    assert table.flagged[0][-3:] == [True, True, False]
    assert "a benchmark it lacks counts neither for nor against it" in view.note


def test_ties_share_a_rank_and_a_lone_model_has_none() -> None:
    view = across_benchmarks(BIVLC, "i2t")  # alpha and gamma tie at 0.50 on unseen
    assert [(row["model"], row["rank"], row["borda"]) for row in view.rows] == [
        ("alpha", 1, 0.75),
        ("gamma", 1, 0.75),
        ("beta", 3, 0.0),
    ]
    alone = across_benchmarks([ARO_ALPHA], "i2t")
    assert [(row["model"], row["rank"], row["borda"]) for row in alone.rows] == [
        ("alpha", None, None)
    ]
    assert alone.table().texts[0][:3] == ["-", "alpha", "-"]


def test_benchmarks_without_a_board_are_left_out_and_said() -> None:
    records = space_records()
    view = across_benchmarks(records, "i2t", reference="laion2b", kind="attribute")
    assert view.benchmarks == ["bivlc"]
    assert view.left_out == {
        "vismin": "no results match the filters",
        "sugarcrepe": "no results match the filters",
    }
    assert "left out: vismin (no results match the filters)" in view.note
    # T2I: SugarCrepe (one image, two captions) has none
    t2i = across_benchmarks(records, "t2i", reference="coco2017", kind="attribute")
    assert t2i.benchmarks == ["bivlc", "vismin"] and list(t2i.left_out) == ["sugarcrepe"]


def test_the_space_records_rank_as_computed_by_hand() -> None:
    """The ranks the browser test expects (space_records' docstring has the arithmetic)."""
    view = across_benchmarks(space_records(), "i2t", reference="coco2017", kind="attribute")
    assert [(row["model"], row["rank"]) for row in view.rows] == [
        ("org/clip-b", 1),
        ("org/negclip-b", 2),
        ("google/siglip-b", 3),
    ]
    assert [row["borda"] for row in view.rows] == [0.75, 0.5, 0.25]


def test_binding_kinds_side_by_side() -> None:
    records = [
        r
        for r in space_records()
        if r["dataset"]["benchmark"] == "bivlc"
        and r["dataset"]["reference"]["corpus"]["name"] == "coco2017"
    ]
    table, notes = kinds_side_by_side(records, "bivlc", "i2t", reference="coco2017")
    assert notes == []
    assert table.headers == [
        "model",
        *(
            f"{kind}: {column}"
            for kind in ("attribute", "relation")
            for column in ("rank", "full", "unseen", "unseen_n", "gap")
        ),
    ]
    lines = {line[0]: line for line in table.texts}
    # the relation build: SigLIP 160/200 on full, 30/40 on unseen, 92/110 seen (Wilson)
    assert lines["google/siglip-b"][6:] == [
        "1",
        "80.0 +5.0/-6.1",
        "75.0 +10.8/-15.2",
        "40",
        "8.6 +16.2/-13.5",
    ]
    assert lines["org/negclip-b"][6:] == ["-"] * 5  # no relation result
    one_kind, _ = kinds_side_by_side(relation_records(), "bivlc", "i2t")
    assert one_kind.headers[1:3] == ["relation: rank", "relation: full"]
