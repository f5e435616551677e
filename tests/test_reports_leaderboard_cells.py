"""What the leaderboard Space's first table shows, on hand-made records with exact values: each
accuracy beside its interval and n, flags in words (never "small n" for no samples), search,
the column picker, the filters' options, the messages for an empty configuration and for a gap
that cannot be computed, and where the results come from without a path of the server."""

from __future__ import annotations

from pathlib import Path

import pytest
from leaderboard_records import counted_record, space_records
from report_records import BIVLC

from bindsplit_datasets.errors import BindsplitFileNotFoundError
from bindsplit_datasets.reports import write_records
from bindsplit_datasets.reports.intervals import is_small, sample_flag
from bindsplit_datasets.reports.leaderboard_cells import (
    cell_text,
    column_groups,
    interval_text,
    matches,
    visible_columns,
)
from bindsplit_datasets.reports.leaderboard_sources import source_label, without_path
from bindsplit_datasets.reports.leaderboard_view import (
    CONFIG_COLUMNS,
    benchmarks,
    binding_kinds,
    board,
    default_groups,
    families,
    load_source,
    picker_groups,
    references,
)


def sugarcrepe() -> list[dict]:
    return [r for r in space_records() if r["dataset"]["benchmark"] == "sugarcrepe"]


# ------------------------------------------------------------------------------ cells
def test_an_interval_is_written_as_its_distances_from_the_value() -> None:
    assert interval_text(84.31, 80.2, 88.39) == "84.3 ±4.1"
    # Wilson's interval of 10/10 (72.2%, 100%): not symmetric, and never above 100
    assert interval_text(100.0, 72.25, 100.0) == "100.0 +0.0/-27.8"
    assert interval_text(-10.0, -31.7, 11.2) == "-10.0 +21.2/-21.7"
    assert interval_text(50.0, None, None) == "50.0"
    assert cell_text(80.0, 49.0, 94.3, "small n") == "80.0 +14.3/-31.0 *"
    assert cell_text(0.0, 0.0, 1.3, "0/300 correct") == "0.0 +1.3/-0.0 *"
    assert cell_text(None, flag="no samples") == "no samples"
    assert cell_text(None, missing="no partial samples") == "no partial samples"
    assert cell_text(None) == "-"


def test_flags_say_no_samples_small_n_or_the_degenerate_count() -> None:
    metrics = {
        "full/n": 340,
        "full/i2t": 0.5,
        "seen/n": 10,
        "seen/i2t": 0.5,
        "partial/n": 0,
        "unseen/n": 300,
        "unseen/i2t": 0.0,
        "balanced/n": 300,
        "balanced/i2t": 1.0,
    }
    assert sample_flag(metrics, "partial", "i2t") == "no samples"  # not "small n"
    assert sample_flag(metrics, "seen", "i2t") == "small n"
    assert sample_flag(metrics, "unseen", "i2t") == "0/300 correct"  # n = 300 is not small
    assert sample_flag(metrics, "balanced", "i2t") == "300/300 correct"
    assert sample_flag(metrics, "full", "i2t") is None
    assert sample_flag(metrics, "gap", "i2t") == "seen: small n"
    assert sample_flag(metrics, "gap_partial", "i2t") == "seen: small n"
    assert sample_flag({"seen/n": 100, "seen/i2t": 0.5, "unseen/n": 0}, "gap", "i2t") == (
        "unseen: no samples"
    )
    assert sample_flag({}, "unseen", "i2t") is None
    # the yes/no flag of the tables agrees: flagged where small or degenerate, not where empty
    assert [is_small(metrics, c, "i2t") for c in ("partial", "seen", "unseen", "full")] == [
        False,
        True,
        True,
        False,
    ]


def test_search_and_the_column_picker() -> None:
    assert matches("openai/clip-vit-base-patch32", "CLIP patch32")
    assert not matches("openai/clip-vit-base-patch32", "clip b16")
    assert matches("anything", "") and matches("anything", None)
    columns = ["rank", "model", "scored_by", "full", "full_n", "gap", "gap_n"]
    assert column_groups(columns) == ["scored_by", "full", "gap", "n"]
    assert visible_columns(columns, None) == columns
    assert visible_columns(columns, ["full", "n"]) == ["rank", "model", "full", "full_n"]
    assert visible_columns(columns, ["full", "gap"]) == ["rank", "model", "full", "gap"]
    assert visible_columns(columns, []) == ["rank", "model"]
    assert picker_groups() == [
        "binding_kind",
        "scored_by",
        "full",
        "seen",
        "partial",
        "unseen",
        "balanced",
        "gap",
        "gap_partial",
        "n",
    ]
    # scored_by is ticked only where some model is marked; binding_kind is in the filter
    assert "scored_by" not in default_groups(BIVLC) and "binding_kind" not in default_groups(BIVLC)
    imported = [{**BIVLC[0], "model": {**BIVLC[0]["model"], "scored_by": "imported"}}]
    assert "scored_by" in default_groups(imported)


# ------------------------------------------------------------------------- the first table
def test_every_accuracy_beside_its_interval_and_n() -> None:
    view = board(sugarcrepe(), "sugarcrepe", "i2t", reference="coco2017")
    table = view.overview_table()
    assert table.headers == [
        "rank",
        "model",
        "binding_kind",
        "scored_by",
        "full",
        "full_n",
        "seen",
        "seen_n",
        "partial",
        "partial_n",
        "unseen",
        "unseen_n",
        "gap",
        "gap_n",
        "gap_partial",
        "gap_partial_n",
    ]  # no balanced: no result reports it
    # NegCLIP: 35/40, 8/10, no partial sample, 27/30; Wilson intervals (8/10: 49.0-94.3%)
    negclip = dict(zip(table.headers, table.texts[0], strict=True))
    assert negclip == {
        "rank": "1",
        "model": "org/negclip-b",
        "binding_kind": "attribute",
        "scored_by": "",
        "full": "87.5 +7.0/-13.6",
        "full_n": "40",
        "seen": "80.0 +14.3/-31.0 *",
        "seen_n": "10",
        "partial": "no samples",
        "partial_n": "0",
        "unseen": "90.0 +6.5/-15.6",
        "unseen_n": "30",
        "gap": "-10.0 +21.2/-31.7 *",
        "gap_n": "10",
        "gap_partial": "no partial samples",
        "gap_partial_n": "0",
    }
    # the numbers a click on a header sorts by: the value, None where there is none
    values = dict(zip(table.headers, table.values[0], strict=True))
    assert values["seen"] == 80.0 and values["partial"] is None and values["unseen_n"] == 30
    assert values["gap"] == -10.0 and values["gap_partial"] is None
    flagged = [h for h, f in zip(table.headers, table.flagged[0], strict=True) if f]
    assert flagged == ["seen", "gap"]  # small n; "no samples" is said, not flagged
    clip = dict(zip(table.headers, table.texts[1], strict=True))
    assert clip["model"] == "org/clip-b" and clip["seen"] == "100.0 +0.0/-27.8 *"
    assert [line[0] for line in table.values] == [1, 2, 3]


def test_search_hides_rows_without_ranking_again_and_the_picker_hides_columns() -> None:
    view = board(sugarcrepe(), "sugarcrepe", "i2t", reference="coco2017")
    found = view.overview_table(query="SigLIP")
    assert [line[:2] for line in found.values] == [[3, "google/siglip-b"]]
    assert view.overview_table(query="org/ -neg").values == []  # every word must occur
    assert len(view.overview_table(query="org/").values) == 2
    picked = view.overview_table(["unseen", "n"])
    assert picked.headers == ["rank", "model", "unseen", "unseen_n"]
    assert picked.texts[0] == ["1", "org/negclip-b", "90.0 +6.5/-15.6", "30"]
    assert view.overview_table(["unseen", "balanced"]).headers == ["rank", "model", "unseen"]


def test_messages_for_an_empty_configuration_and_a_gap_that_cannot_be_computed() -> None:
    view = board(sugarcrepe(), "sugarcrepe", "i2t", reference="coco2017")
    assert view.configs == ["full", "seen", "unseen"]  # what the configuration filter offers
    assert view.empty == {
        "partial": "the build has no sample in it (n = 0 of 40)",
        "balanced": "no result reports it",
    }
    assert view.messages() == [
        "partial is empty: the build has no sample in it (n = 0 of 40)",
        "balanced is empty: no result reports it",
        "gap_partial (seen - partial) cannot be computed for every model: partial has no "
        "samples in this build (n = 0)",
    ]
    assert view.messages("partial") == [
        "partial is empty: the build has no sample in it (n = 0 of 40)"
    ]
    assert view.messages("unseen") == []
    assert view.table("partial") == []
    # one model's record predates the seen - partial gap: said for that model only
    counts = {"full": (75, 110), "seen": (30, 40), "partial": (30, 40), "unseen": (15, 30)}
    new = counted_record("org/new", counts, benchmark="bivlc")
    old = counted_record("org/old", counts, benchmark="bivlc")
    for key in ("gap_partial/i2t", "gap_partial/i2t_ci"):
        del old["metrics"][key]
    view = board([new, old], "bivlc")
    assert view.messages() == [
        "balanced is empty: no result reports it",
        "gap_partial (seen - partial) cannot be computed for org/old: the results hold no such "
        "difference (written before BindSplit reported it; running bindsplit eval again adds it)",
    ]
    texts = {line[1]: line[-2] for line in view.overview_table().texts}
    # Newcombe's interval of 30/40 - 30/40: +-sqrt(0.1519^2 + 0.1081^2) (Wilson's sides of 75%)
    assert texts == {"org/new": "0.0 ±18.6", "org/old": "not recorded"}


def test_a_degenerate_count_is_flagged_in_words_in_the_configuration_rows() -> None:
    counts = {"full": (150, 340), "seen": (150, 150), "partial": (0, 0), "unseen": (0, 190)}
    records = [
        counted_record("org/zero", counts, benchmark="aro_vgr", kind="relation"),
        counted_record(
            "org/half",
            {"full": (170, 340), "seen": (75, 150), "partial": (0, 0), "unseen": (95, 190)},
            benchmark="aro_vgr",
            kind="relation",
        ),
    ]
    view = board(records, "aro_vgr", kind="relation")
    assert CONFIG_COLUMNS[-1] == "flag"
    unseen = {row[1]: row for row in view.table("unseen")}
    assert unseen["org/zero"][-1] == "0/190 correct" and unseen["org/half"][-1] == ""
    assert {row["model"]: row["small_n"] for row in view.rows["unseen"]} == {
        "org/half": False,
        "org/zero": True,
    }
    texts = dict(zip(view.overview_table().headers, view.overview_table().texts[1], strict=True))
    assert texts["model"] == "org/zero" and texts["unseen"].endswith(" *")
    assert texts["seen"].startswith("100.0 +0.0/-") and texts["seen"].endswith(" *")
    assert texts["partial"] == "no samples" and texts["binding_kind"] == "relation"
    assert "small n" not in " ".join(view.messages())


def test_filters_offer_only_what_the_benchmark_has() -> None:
    records = space_records()
    assert benchmarks(records) == ["bivlc", "vismin", "sugarcrepe"]
    assert families(records) == ["clip", "negclip", "siglip"]
    assert families(records, "vismin") == ["clip", "siglip"]  # no NegCLIP on VisMin
    assert binding_kinds(records, "bivlc") == ["attribute", "relation"]
    assert binding_kinds(records, "sugarcrepe") == ["attribute"]
    assert references(records, "sugarcrepe") == ["coco2017"]
    assert references(records) == ["coco2017", "laion2b"]
    assert board(records, "bivlc", reference="coco2017", kind="relation").configs == [
        "full",
        "seen",
        "partial",
        "unseen",
    ]


def test_where_the_results_come_from_is_never_a_path_of_the_server(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    write_records(sugarcrepe(), folder / "results.json")
    source = load_source(folder)
    assert source.label == "a local results folder" and str(tmp_path) not in source.label
    assert load_source(folder / "results.json").label == "a local records file"
    assert source_label("bindsplit/bindsplit-results") == (
        "the Hub dataset bindsplit/bindsplit-results"
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(BindsplitFileNotFoundError) as caught:
        load_source(empty)
    shown = without_path(str(caught.value), str(empty))
    assert str(tmp_path) not in shown and shown.startswith("a local results folder holds neither")
