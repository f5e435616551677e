"""Benchmark adapters: registry, each source layout read from fixtures in the exact source schema,
bindings per caption against hand-computed expectations, bad input, and the real BiVLC captions."""

from __future__ import annotations

import csv
import hashlib
import json
from collections import Counter
from pathlib import Path

import datasets
import pytest
from fixtures_sources import (
    ARO_BACKGROUND,
    aro_record,
    aro_records,
    centre_colour,
    close_colours,
    fixture_colour,
    make_aro_mirror_source,
    make_aro_source,
    make_bivlc_source,
    make_sim_solution,
    make_vismin_source,
)

from bindsplit_datasets.benchmarks import get_benchmark, list_benchmarks
from bindsplit_datasets.benchmarks.aro_vga import split_template
from bindsplit_datasets.benchmarks.base import resolve_hub_commit
from bindsplit_datasets.benchmarks.vismin import (
    OFFICIAL_SOLUTION,
    PAIRING_COLUMN,
    SimSolution,
    official_solution_path,
    read_sim_solution,
)
from bindsplit_datasets.builds.cards import flat_composition
from bindsplit_datasets.errors import BindsplitError, SchemaError
from bindsplit_datasets.labels import CompositionStats
from bindsplit_datasets.parsing import Binding, parse_bindings


def B(attribute: str, obj: str) -> Binding:
    return Binding(attribute, obj)


# ---------------------------------------------------------------------------------- registry
def test_registry_has_the_benchmarks_and_rejects_unknown_names():
    assert {"aro_vga", "bivlc", "vismin"} <= set(list_benchmarks())
    with pytest.raises(ValueError, match="unknown benchmark 'no_such_benchmark'") as error:
        get_benchmark("no_such_benchmark")
    for name in ("aro_vga", "bivlc", "vismin"):
        assert name in str(error.value)


@pytest.mark.parametrize(
    ("name", "hub_id", "license", "n_images", "n_captions"),
    [
        ("aro_vga", "gowitheflow/ARO-Visual-Attribution", "mit", 1, 2),
        ("bivlc", "imirandam/BiVLC", "mit", 2, 2),
        ("vismin", "mair-lab/vismin-bench", "cc-by-4.0", 2, 2),
    ],
)
def test_adapters_declare_source_licence_citation_and_pairing(
    name, hub_id, license, n_images, n_captions
):
    adapter = get_benchmark(name)
    assert adapter.name == name
    assert (adapter.hub_id, adapter.license) == (hub_id, license)
    assert adapter.hub_split == "test"
    assert (adapter.n_images, adapter.n_captions) == (n_images, n_captions)
    assert adapter.citation.startswith("@") and adapter.citation.rstrip().endswith("}")
    assert set(adapter.required_columns) >= set(adapter.image_columns + adapter.caption_columns)
    assert adapter.positive_caption_columns == adapter.caption_columns[:n_images]
    # paper figures use the keys of the flattened composition (plus the paper's split size)
    stats = CompositionStats(
        0,
        dict.fromkeys(["seen", "unseen", "partial", "none"], 0),
        dict.fromkeys(["seen", "unseen", "partial", "none"]),
        None,
        None,
        None,
    )
    assert set(adapter.paper_figures) <= set(flat_composition(stats.to_dict()))
    assert "unseen_share" in adapter.paper_figures


def test_unsupported_source_option_is_named():
    with pytest.raises(
        ValueError, match=r"bivlc does not accept the source option\(s\) \['sim_solution'\]"
    ):
        get_benchmark("bivlc").load("unused", sim_solution="x.csv")


# ------------------------------------------------------------------------- ARO: template
@pytest.mark.parametrize(
    ("true", "false", "expected"),
    [
        (
            "the white dog and the black cat",
            "the black dog and the white cat",
            [("white", "dog", "black", "cat")],
        ),
        # multi-word object, case and a final period ignored
        (
            "The paved tennis court and the red stop sign.",
            "the red tennis court and the paved stop sign",
            [("paved", "tennis court", "red", "stop sign")],
        ),
        # multi-word attribute
        (
            "the light blue shirt and the wooden table",
            "the wooden shirt and the light blue table",
            [("light blue", "shirt", "wooden", "table")],
        ),
        # both splits fit: shortest attributes first
        (
            "the light brown dog and the dark brown cat",
            "the dark brown dog and the light brown cat",
            [
                ("light", "brown dog", "dark", "brown cat"),
                ("light brown", "dog", "dark brown", "cat"),
            ],
        ),
        ("a white dog next to a black cat", "a black dog next to a white cat", []),
        ("the white dog and the black cat", "the white cat and the black dog", []),
    ],
)
def test_split_template(true, false, expected):
    assert split_template(true, false) == expected


# ------------------------------------------------------------------- ARO: original layout
ARO_RECORDS = [
    aro_record(0, "white", "dog", "black", "cat"),
    aro_record(1, "wooden", "table", "red", "chair"),
    aro_record(2, "wooden", "table", "red", "chair"),
    aro_record(3, "red", "bus", "red", "bus"),  # degenerate: both captions state one binding
]


def test_aro_original_layout_crops_like_aro_and_keeps_every_field(tmp_path):
    folder = make_aro_source(tmp_path / "aro", records=ARO_RECORDS, image_format="PNG")
    loaded = get_benchmark("aro_vga").load(folder)
    dataset = loaded.dataset
    assert len(dataset) == 4 and loaded.report.n_rows == 4 and not loaded.report.problems
    assert set(dataset.column_names) == {"image", *ARO_RECORDS[0]}
    assert isinstance(dataset.features["image"], datasets.Image)
    for position, (row, record) in enumerate(zip(dataset, ARO_RECORDS, strict=True)):
        assert {k: row[k] for k in record} == record  # bbox and every field kept, same types
        image = row["image"]
        assert image.size == (record["bbox_w"], record["bbox_h"])  # the crop, not the image
        colours = {colour for _, colour in image.convert("RGB").getcolors()}
        assert colours == {fixture_colour(position, 0)}  # nothing of the background
        assert ARO_BACKGROUND not in colours
    assert loaded.identity["layout"] == "original"
    assert loaded.identity["n_records"] == 4
    assert len(loaded.identity["sha256"]) == 64
    # the JSON file itself is accepted too, and reads the same rows
    again = get_benchmark("aro_vga").load(folder / "visual_genome_attribution.json")
    assert again.dataset["true_caption"] == dataset["true_caption"]


@pytest.mark.slow
def test_aro_bindings_come_from_the_structured_fields(tmp_path):
    adapter = get_benchmark("aro_vga")
    dataset = adapter.load(make_aro_source(tmp_path / "aro", records=ARO_RECORDS)).dataset
    rows = list(dataset.remove_columns("image"))
    assert adapter.caption_bindings(rows[0]) == [
        [B("white", "dog"), B("black", "cat")],
        [B("black", "dog"), B("white", "cat")],
    ]
    assert adapter.caption_bindings(rows[1]) == [
        [B("wooden", "table"), B("red", "chair")],
        [B("red", "table"), B("wooden", "chair")],
    ]
    assert adapter.caption_bindings(rows[3]) == [[B("red", "bus")], [B("red", "bus")]]
    # macro groups: the attribute pair, as ARO's own macro accuracy groups samples
    assert [adapter.macro_group(r) for r in rows] == [
        "white_black",
        "wooden_red",
        "wooden_red",
        "red_red",
    ]
    assert adapter.all_caption_bindings(dataset) == [adapter.caption_bindings(r) for r in rows]
    # the JPEG images of the real layout decode to the bbox colour (lossy, so approximately)
    assert close_colours(centre_colour(dataset[0]["image"]), fixture_colour(0, 0))


def test_aro_missing_and_unreadable_images_are_counted_and_dropped(tmp_path):
    folder = make_aro_source(tmp_path / "aro", n=6, missing_images={1}, unreadable_images={4})
    loaded = get_benchmark("aro_vga").load(folder)
    assert dict(loaded.report.problems) == {"missing_image": 1, "unreadable_image": 1}
    assert loaded.report.n_rows == len(loaded.dataset) == 4
    assert loaded.dataset["image_path"] == ["0.jpg", "2.jpg", "3.jpg", "5.jpg"]
    assert "dropped 2 record(s)" in loaded.report.notes[0] and "'1.jpg'" in loaded.report.notes[0]
    with pytest.raises(BindsplitError, match=r"record 1 \('1.jpg'.*missing image.*--strict"):
        get_benchmark("aro_vga").load(folder, strict=True)


def test_aro_records_without_a_caption_are_dropped_and_the_identity_names_no_local_path(tmp_path):
    records = aro_records(4)
    records[2] = {**records[2], "false_caption": "  "}
    folder = make_aro_source(tmp_path / "aro", records=records)
    loaded = get_benchmark("aro_vga").load(folder)
    assert dict(loaded.report.problems) == {"missing_caption": 1}
    assert loaded.dataset["image_path"] == ["0.jpg", "1.jpg", "3.jpg"]
    assert loaded.identity["path"] == "aro" and str(tmp_path) not in json.dumps(loaded.identity)
    with pytest.raises(BindsplitError, match="missing caption.*--strict"):
        get_benchmark("aro_vga").load(folder, strict=True)


def test_aro_bad_layouts_are_named(tmp_path):
    adapter = get_benchmark("aro_vga")
    folder = make_aro_source(tmp_path / "aro", n=2)
    records = json.loads((folder / "visual_genome_attribution.json").read_text())
    del records[1]["obj2_name"]
    (folder / "visual_genome_attribution.json").write_text(json.dumps(records))
    with pytest.raises(SchemaError, match=r"record 1 lacks the field\(s\) \['obj2_name'\]"):
        adapter.load(folder)
    (folder / "visual_genome_attribution.json").write_text(json.dumps({"not": "a list"}))
    with pytest.raises(SchemaError, match="JSON list of records"):
        adapter.load(folder)
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="visual_genome_attribution.json"):
        adapter.load(tmp_path / "empty")
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    (lonely / "visual_genome_attribution.json").write_text(json.dumps(ARO_RECORDS))
    with pytest.raises(FileNotFoundError, match="image folder"):
        adapter.load(lonely)


# ---------------------------------------------------------------------- ARO: Hub mirror
MIRROR_CAPTIONS = [
    ("the white dog and the black cat", "the black dog and the white cat"),
    ("the wooden stop sign and the red bus", "the red stop sign and the wooden bus"),
    ("a photo of a white dog", "a photo of a black dog"),  # does not fit the template
    ("the light brown dog and the dark brown cat", "the dark brown dog and the light brown cat"),
]


def test_aro_mirror_reads_bindings_off_the_template(tmp_path):
    adapter = get_benchmark("aro_vga")
    loaded = adapter.load(make_aro_mirror_source(tmp_path / "mirror.parquet", MIRROR_CAPTIONS))
    assert loaded.dataset.column_names == ["image", "true_caption", "false_caption"]
    assert loaded.identity["layout"] == "hub-mirror" and len(loaded.identity["sha256"]) == 64
    rows = list(loaded.dataset.remove_columns("image"))
    assert adapter.caption_bindings(rows[0]) == [
        [B("white", "dog"), B("black", "cat")],
        [B("black", "dog"), B("white", "cat")],
    ]
    assert adapter.caption_bindings(rows[1]) == [
        [B("wooden", "stop sign"), B("red", "bus")],
        [B("red", "stop sign"), B("wooden", "bus")],
    ]
    # the nonconforming row is kept, its bindings come from the parser, and it is reported
    assert adapter.caption_bindings(rows[2]) == [parse_bindings(c) for c in MIRROR_CAPTIONS[2]]
    assert dict(loaded.report.problems) == {"template_mismatch": 1, "ambiguous_template": 1}
    assert "1 row(s) do not fit the template" in loaded.report.notes[0]
    assert "'a photo of a white dog'" in loaded.report.notes[0]
    assert [adapter.macro_group(r) for r in rows] == [
        "white_black",
        "wooden_red",
        None,
        "light_dark",
    ]
    assert loaded.report.n_rows == 4
    with pytest.raises(BindsplitError, match="row 2 does not fit the ARO template"):
        adapter.load(tmp_path / "mirror.parquet", strict=True)


def test_aro_mirror_missing_column_is_named(tmp_path):
    path = tmp_path / "mirror.parquet"
    datasets.Dataset.from_dict({"true_caption": ["x"], "caption": ["y"]}).to_parquet(str(path))
    with pytest.raises(ValueError, match=r"missing column\(s\) \['image', 'false_caption'\]"):
        get_benchmark("aro_vga").load(path)


# ------------------------------------------------------------------------------- BiVLC
BIVLC_ROWS = [
    {
        "caption": "A red car parked on the street.",
        "negative_caption": "A white car parked on the street.",
        "type": "replace",
        "subtype": "att",
    },
    {
        "caption": "A white dog next to a black cat.",
        "negative_caption": "A black dog next to a white cat.",
        "type": "swap",
        "subtype": "att",
    },
    {
        "caption": "A red car parked on the street.",
        "negative_caption": "A red car and a bus on the street.",
        "type": "add",
        "subtype": "obj",
    },
]


def test_bivlc_reads_the_hub_columns_and_parses_each_caption(tmp_path):
    adapter = get_benchmark("bivlc")
    loaded = adapter.load(make_bivlc_source(tmp_path / "bivlc.parquet", BIVLC_ROWS))
    dataset = loaded.dataset
    assert dataset.column_names == [
        "image",
        "caption",
        "negative_caption",
        "negative_image",
        "type",
        "subtype",
    ]
    assert loaded.report.n_rows == 3 and not loaded.report.problems
    assert loaded.identity["path"] == "bivlc.parquet"  # a name, never a local directory
    # image pairs with caption, negative_image with negative_caption (fixture colours)
    assert centre_colour(dataset[1]["image"]) == fixture_colour(1, 0)
    assert centre_colour(dataset[1]["negative_image"]) == fixture_colour(1, 1)
    rows = list(dataset.remove_columns(["image", "negative_image"]))
    naive = [[parse_bindings(r["caption"]), parse_bindings(r["negative_caption"])] for r in rows]
    assert adapter.all_caption_bindings(dataset) == naive
    assert [adapter.caption_bindings(r) for r in rows] == naive
    assert naive[1] == [
        [B("white", "dog"), B("black", "cat")],
        [B("black", "dog"), B("white", "cat")],
    ]
    assert [adapter.category(r) for r in rows] == ["replace/att", "swap/att", "add/obj"]


def test_bivlc_folder_source_and_missing_column(tmp_path):
    adapter = get_benchmark("bivlc")
    make_bivlc_source(tmp_path / "repo" / "data" / "test-00000-of-00002.parquet", BIVLC_ROWS[:2])
    make_bivlc_source(tmp_path / "repo" / "data" / "test-00001-of-00002.parquet", BIVLC_ROWS[2:])
    loaded = adapter.load(tmp_path / "repo")
    assert len(loaded.dataset) == 3
    assert loaded.identity["files"] == [
        "data/test-00000-of-00002.parquet",
        "data/test-00001-of-00002.parquet",
    ]
    make_bivlc_source(
        tmp_path / "bad.parquet", BIVLC_ROWS, drop_columns={"negative_caption", "subtype"}
    )
    with pytest.raises(ValueError, match=r"missing column\(s\) \['negative_caption', 'subtype'\]"):
        adapter.load(tmp_path / "bad.parquet")
    with pytest.raises(FileNotFoundError, match="neither an existing path nor a Hub dataset id"):
        adapter.load(tmp_path / "nowhere.parquet")


def test_bivlc_bad_images_are_counted_or_fail_strict(tmp_path):
    path = make_bivlc_source(
        tmp_path / "b.parquet", BIVLC_ROWS, missing_images={0}, unreadable_images={2}
    )
    loaded = get_benchmark("bivlc").load(path)
    assert dict(loaded.report.problems) == {"missing_image": 1, "unreadable_image": 1}
    assert loaded.dataset["caption"] == [BIVLC_ROWS[1]["caption"]]
    assert "dropped 2 row(s)" in loaded.report.notes[0]
    with pytest.raises(BindsplitError, match=r"row 0, column 'image': missing image.*--strict"):
        get_benchmark("bivlc").load(path, strict=True)


def test_rows_with_a_missing_caption_are_dropped_or_fail_strict(tmp_path):
    rows = [
        dict(BIVLC_ROWS[0]),
        {**BIVLC_ROWS[1], "caption": None},
        {**BIVLC_ROWS[2], "negative_caption": "  "},
        dict(BIVLC_ROWS[0]),
    ]
    path = make_bivlc_source(tmp_path / "captions.parquet", rows, unreadable_images={3})
    loaded = get_benchmark("bivlc").load(path)
    assert dict(loaded.report.problems) == {"missing_caption": 2, "unreadable_image": 1}
    assert loaded.dataset["caption"] == [BIVLC_ROWS[0]["caption"]]
    assert loaded.report.notes[0] == (
        "dropped 2 row(s) with a missing (None or empty) caption (first: row 1, column "
        "'caption': missing caption)"
    )
    with pytest.raises(
        BindsplitError, match=r"row 1, column 'caption': missing caption; .*without --strict"
    ):
        get_benchmark("bivlc").load(path, strict=True)


def test_hub_sources_record_the_resolved_commit(tmp_path, monkeypatch):
    from huggingface_hub import HfApi

    from bindsplit_datasets.benchmarks import base

    commit = "0123456789abcdef0123456789abcdef01234567"
    local = datasets.Dataset.from_parquet(
        str(make_bivlc_source(tmp_path / "hub.parquet", BIVLC_ROWS))
    )
    asked = []

    def dataset_info(self, repo_id, *, revision=None, **kwargs):
        asked.append((repo_id, revision))
        return type("Info", (), {"sha": commit})()

    def load_dataset(path, *args, revision=None, **kwargs):
        assert path == "imirandam/BiVLC" and not args
        asked.append(("load", revision))
        return datasets.DatasetDict({"test": local})

    monkeypatch.setattr(HfApi, "dataset_info", dataset_info)
    monkeypatch.setattr(base.datasets, "load_dataset", load_dataset)
    loaded = get_benchmark("bivlc").load()
    assert loaded.identity == {"hub_id": "imirandam/BiVLC", "revision": "main", "sha": commit}
    # the rows are read at the resolved commit, not at whatever main is by then
    assert asked == [("imirandam/BiVLC", None), ("load", commit)]
    assert loaded.dataset["caption"] == [row["caption"] for row in BIVLC_ROWS]


def test_an_unreachable_hub_leaves_the_commit_unresolved(caplog):
    # the tests run offline (HF_HUB_OFFLINE=1): huggingface_hub refuses to connect
    with caplog.at_level("WARNING"):
        assert resolve_hub_commit("imirandam/BiVLC", None) is None
    assert "could not resolve the commit of Hub dataset imirandam/BiVLC" in caplog.text


def _real_bivlc_rows(shared_data: Path) -> list[dict[str, str]]:
    with open(
        shared_data / "bivlc" / "bivlc_text_sample.csv", newline="", encoding="utf-8"
    ) as handle:
        return list(csv.DictReader(handle))


def test_real_bivlc_captions_through_the_bivlc_parsing_path(shared_data):
    rows = _real_bivlc_rows(shared_data)
    assert len(rows) == 300
    text = datasets.Dataset.from_list(
        [{k: r[k] for k in ("caption", "negative_caption", "type", "subtype")} for r in rows]
    )
    adapter = get_benchmark("bivlc")
    parsed = adapter.all_caption_bindings(text)
    assert len(parsed) == 300 and all(len(pair) == 2 for pair in parsed)

    with_bindings: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    swaps_checked = swaps_matching = 0
    for row, (positive, negative) in zip(rows, parsed, strict=True):
        kind = f"{row['type']}/{row['subtype']}"
        totals[kind] += 1
        with_bindings[kind] += bool(positive or negative)
        for binding in positive + negative:  # normalised: lower case, no empty parts
            assert binding.attribute == binding.attribute.lower().strip() != ""
            assert binding.object == binding.object.lower().strip() != ""
        assert len(set(positive)) == len(positive) and len(set(negative)) == len(negative)
        if kind == "swap/att" and len(positive) == 2 and len(negative) == 2:
            (a1, o1), (a2, o2) = ((b.attribute, b.object) for b in positive)
            if a1 != a2 and o1 != o2 and {o1, o2} == {b.object for b in negative}:
                swaps_checked += 1
                swaps_matching += set(negative) == {B(a2, o1), B(a1, o2)}
    print("\nreal BiVLC pairs yielding bindings, per type/subtype:")
    for kind in sorted(totals):
        print(f"  {kind:12s} {with_bindings[kind]:3d} / {totals[kind]:3d}")
    print(
        f"  swap/att pairs with two bindings on two objects: {swaps_matching} / "
        f"{swaps_checked} swapped"
    )
    # every attribute swap with two bindings on the same two objects yields the swapped bindings
    assert swaps_checked >= 5
    assert swaps_matching == swaps_checked
    # attribute edits state bindings: the parser finds some in most such pairs
    att = [k for k in totals if k.endswith("/att")]
    assert sum(with_bindings[k] for k in att) >= 0.75 * sum(totals[k] for k in att)
    # parsing a subset gives the same bindings (each distinct caption parsed once, in any batch)
    assert adapter.all_caption_bindings(text.select(range(20))) == parsed[:20]


# ------------------------------------------------------------------------------ VisMin
# grouped by category, as the Hub split and its sim_solution.csv are
VISMIN_ROWS = [
    {"text_0": "A dog on a sofa.", "text_1": "A cat on a sofa.", "category": "object"},
    {
        "text_0": "A red car on the road.",
        "text_1": "A blue car on the road.",
        "category": "attribute",
    },
    {
        "text_0": "A green apple on a table.",
        "text_1": "A yellow apple on a table.",
        "category": "attribute",
    },
    {"text_0": "A white horse.", "text_1": "A brown horse.", "category": "attribute"},
    {"text_0": "A bird on a fence.", "text_1": "A bird under a fence.", "category": "relation"},
    {"text_0": "Two cups.", "text_1": "Three cups.", "category": "counting"},
]
CATEGORIES = [row["category"] for row in VISMIN_ROWS]


def test_vismin_sim_solution_uncrosses_crossed_pairs(tmp_path):
    crossed = {0, 3, 5}
    source = make_vismin_source(tmp_path / "v.parquet", VISMIN_ROWS, swapped=crossed)
    solution = make_sim_solution(tmp_path / "sim_solution.csv", CATEGORIES, swapped=crossed)
    adapter = get_benchmark("vismin")
    loaded = adapter.load(source, sim_solution=solution)
    for i, row in enumerate(loaded.dataset):  # text_k describes image_k in every row now
        assert centre_colour(row["image_0"]) == fixture_colour(i, 0)
        assert centre_colour(row["image_1"]) == fixture_colour(i, 1)
        assert row["text_0"] == VISMIN_ROWS[i]["text_0"]
        assert row[PAIRING_COLUMN] is (i in crossed)
    assert loaded.dataset.column_names == [
        "id",
        "image_0",
        "text_0",
        "image_1",
        "text_1",
        "category",
        PAIRING_COLUMN,
    ]
    assert loaded.report.notes[0].startswith("pairing from sim_solution.csv (user file, SHA-256 ")
    assert loaded.report.notes[0].endswith(
        "; sim_solution.csv is NOT the official sim_solution.csv: its SHA-256 differs from that "
        "of the official file shipped with BindSplit, so the pairing follows this file, not "
        "VisMin's release"
    )
    assert "3 of 6 rows have text_0 describing image_1" in loaded.report.notes[0]
    assert loaded.identity["pairing"] == {
        "mode": "solution",
        "solution": "sim_solution.csv",
        "origin": "user file",
        "sha256": hashlib.sha256(solution.read_bytes()).hexdigest(),
        "official": False,
        "crossed": 3,
        "rows": 6,
    }
    assert isinstance(loaded.dataset.features["image_0"], datasets.Image)
    rows = loaded.dataset.remove_columns(["image_0", "image_1"])
    assert [adapter.category(r) for r in rows] == [
        "object/crossed",
        "attribute/straight",
        "attribute/straight",
        "attribute/crossed",
        "relation/straight",
        "counting/crossed",
    ]


def test_vismin_as_stored_keeps_the_rows_and_says_so(tmp_path):
    adapter = get_benchmark("vismin")
    source = make_vismin_source(tmp_path / "v.parquet", VISMIN_ROWS, swapped={1})
    loaded = adapter.load(source, pairing="as-stored")
    assert loaded.report.notes[0].startswith("pairing as stored (--vismin-pairing as-stored)")
    assert "1,020 of its 2,084 rows have text_0 describing image_1" in loaded.report.notes[0]
    assert loaded.identity["pairing"] == {"mode": "as-stored"}
    assert PAIRING_COLUMN not in loaded.dataset.column_names
    assert centre_colour(loaded.dataset[1]["image_0"]) == fixture_colour(1, 1)  # untouched
    assert adapter.all_caption_bindings(loaded.dataset)[1] == [
        [B("red", "car")],
        [B("blue", "car")],
    ]
    assert adapter.category(loaded.dataset[5]) == "counting"


def test_vismin_pairing_options_are_checked(tmp_path):
    adapter = get_benchmark("vismin")
    with pytest.raises(ValueError, match="unknown VisMin pairing 'guess'.*solution, as-stored"):
        adapter.load("unused", pairing="guess")
    with pytest.raises(ValueError, match="pass one of them"):
        adapter.load("unused", pairing="as-stored", sim_solution="s.csv")


def test_read_sim_solution_keeps_file_order_and_checks_consistency(tmp_path):
    path = make_sim_solution(tmp_path / "s.csv", CATEGORIES, swapped={2, 5})
    assert read_sim_solution(path) == SimSolution(
        tuple(CATEGORIES), (False, False, True, False, False, True)
    )
    lines = path.read_text().splitlines()
    # a Text relation that contradicts the Image relation
    text, image = lines[1].split(",")[1], lines[3].split(",")[2]
    (tmp_path / "bad.csv").write_text("\n".join([lines[0], f"0,{text},{image},object"]) + "\n")
    with pytest.raises(SchemaError, match="line 2.*do not describe one consistent pairing"):
        read_sim_solution(tmp_path / "bad.csv")
    (tmp_path / "cols.csv").write_text("idx,Text,category\n0,x,object\n")
    with pytest.raises(SchemaError, match=r"missing column\(s\) \['Image'\]"):
        read_sim_solution(tmp_path / "cols.csv")
    # idx restarts at 0 in every category and counts its rows in order
    shuffled = [lines[0], lines[1], lines[3], lines[2], *lines[4:]]
    (tmp_path / "order.csv").write_text("\n".join(shuffled) + "\n")
    with pytest.raises(SchemaError, match="line 3: idx 1 of category 'attribute' should be 0"):
        read_sim_solution(tmp_path / "order.csv")


def test_vismin_solution_of_another_release_is_refused(tmp_path):
    source = make_vismin_source(tmp_path / "v.parquet", VISMIN_ROWS)
    fewer = make_sim_solution(tmp_path / "fewer.csv", CATEGORIES[:-1])
    with pytest.raises(
        SchemaError,
        match=r"fewer.csv does not belong to this source.*'counting': 1.*--sim-solution PATH.*"
        r"--vismin-pairing as-stored",
    ):
        get_benchmark("vismin").load(source, sim_solution=fewer)
    # the same rows per category in another order: rows are matched by position
    reordered = make_sim_solution(tmp_path / "reordered.csv", [*CATEGORIES[1:4], *CATEGORIES[:1]])
    other = make_vismin_source(tmp_path / "o.parquet", VISMIN_ROWS[:4])
    with pytest.raises(
        SchemaError, match="source row 0 has category 'object', the solution's row 0 'attribute'"
    ):
        get_benchmark("vismin").load(other, sim_solution=reordered)
    # by default the official solution applies, and this six-row source is not its release
    with pytest.raises(SchemaError, match="the official sim_solution does not belong"):
        get_benchmark("vismin").load(source)


def test_the_shipped_solution_is_the_official_file(shared_data):
    shipped = official_solution_path()
    assert shipped.name == OFFICIAL_SOLUTION["file"]
    real = shared_data / "vismin" / "sim_solution.csv"
    assert shipped.read_bytes() == real.read_bytes()
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() == OFFICIAL_SOLUTION["sha256"]
    notice = (shipped.parent / "NOTICE").read_text()
    assert OFFICIAL_SOLUTION["sha256"] in notice and "CC BY 4.0" in notice
    assert "mair-lab/vismin-bench" in notice and "solutions/sim_solution.csv" in notice


def test_real_sim_solution_is_read(shared_data):
    solution = read_sim_solution(shared_data / "vismin" / "sim_solution.csv")
    assert len(solution) == 2084
    assert sum(solution.crossed) == 1020  # text_0 describes image_1 in about half of the rows
    assert list(dict.fromkeys(solution.categories)) == [
        "object",
        "attribute",
        "relation",
        "counting",
    ]
    assert Counter(solution.categories) == {
        "object": 579,
        "attribute": 294,
        "relation": 622,
        "counting": 589,
    }


def test_the_protocol_describes_every_benchmark_and_relations(repo_root):
    """docs/protocol.md keeps up with the registry: section 4 has a row per registered
    benchmark, and the relation protocol the README points to (section 1b) is there."""
    text = (repo_root / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = text.split("## 4. Benchmarks", 1)[1].split("\n## ", 1)[0]
    rows = {
        line.split("|")[1].strip().strip("`") for line in table.splitlines() if line[:3] == "| `"
    }
    assert set(list_benchmarks()) <= rows  # (and `custom`, a table described on the command line)
    assert "## 1b. Relation bindings" in text and "(subject, relation, object) triple" in text
