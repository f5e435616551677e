"""The field's benchmarks as shipped specs: Winoground, ColorSwap, What'sUp and SugarCrepe++,
each built by ``bindsplit build NAME`` from a fixture in its exact public schema
(tests/fixtures_field.py) with every label the one known by construction, and carried through
evaluation (imported scores), the results table, the leaderboard and the publishing plan."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest
from fixtures_field import (
    make_colorswap_source,
    make_hard_positives_source,
    make_sugarcrepe_pp_source,
    make_whatsup_source,
    make_winoground_source,
)
from fixtures_sources import centre_colour, fixture_colour, label_names

from bindsplit_datasets import cli
from bindsplit_datasets.benchmarks import get_benchmark
from bindsplit_datasets.builds.manifest import verify_build
from bindsplit_datasets.evaluation import evaluate_scores
from bindsplit_datasets.names import hub_dataset_id
from bindsplit_datasets.publish.dataset import plan_dataset
from bindsplit_datasets.reports.leaderboard_view import board
from bindsplit_datasets.reports.results_table import results_table

#: Seen bindings: (red, car), (white, dog), (black, cat); triples (car, on, road), (dog, on,
#: grass), (cat, on, sofa), (mug, on, table), (mug, to the left of, plate).
REFERENCE = [
    "a red car on the road",
    "a white dog on the grass",
    "a black cat on a sofa",
    "the mug on the table",
    "the mug to the left of the plate",
]

#: Two-image samples: (caption of image A, caption of image B, label, familiarity, asymmetric).
PAIRS = [
    ("a red car near a white dog", "a white dog near a red car", "seen", [1.0, 1.0], False),
    ("a red car and a white dog", "a white car and a red dog", "partial", [1.0, 0.0], True),
    ("a purple car and a golden dog", "a golden car and a purple dog", "unseen", [0.0, 0.0], False),
    ("a person and a dog", "a dog and a person", "none", [None, None], False),
]


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("field")
    (folder / "reference.txt").write_text("\n".join(REFERENCE) + "\n", encoding="utf-8")
    return folder


def build(work: Path, name: str, source: Path, out: str, *extra: str) -> Path:
    """``bindsplit build NAME --source SOURCE`` against the fixed reference; the built folder."""
    args = ["build", name, "--source", str(source), "--reference", str(work / "reference.txt")]
    assert cli.main([*args, "--out", str(work / out), *extra]) == 0
    return work / out


def full_rows(folder: Path) -> datasets.Dataset:
    return datasets.load_dataset(str(folder), "full", split="test")


def check_two_image_labels(folder: Path) -> None:
    full = full_rows(folder)
    assert label_names(full) == [label for *_, label, _, _ in PAIRS]
    assert full["caption_familiarity"] == [familiarity for *_, familiarity, _ in PAIRS]
    assert full["asymmetric"] == [asymmetric for *_, asymmetric in PAIRS]


# ------------------------------------------------------------------------------ Winoground
@pytest.fixture(scope="module")
def winoground(work) -> Path:
    pairs = [(a, b) for a, b, *_ in PAIRS]
    tags = ["Object", "Relation", "Both", "Object"]
    source = make_winoground_source(work / "winoground.parquet", pairs, tags=tags)
    return build(work, "winoground", source, "winoground")


def test_winoground_builds_from_its_hub_schema_with_the_labels_known_by_construction(
    winoground,
):
    check_two_image_labels(winoground)
    manifest = verify_build(winoground)
    assert manifest["benchmark"] == "winoground" and manifest["pretty_name"] == "Winoground"
    assert manifest["columns"] == {
        "image": ["image_0", "image_1"],
        "caption": ["caption_0", "caption_1"],
        "id": "id",
        "category": "bindsplit_category",
        "macro_group": None,
    }
    full = full_rows(winoground)
    assert full["bindsplit_category"] == ["Object", "Relation", "Both", "Object"]
    # the source's columns are all kept, images where they were
    assert full.column_names[:9] == [
        "id",
        "image_0",
        "image_1",
        "caption_0",
        "caption_1",
        "tag",
        "secondary_tag",
        "num_main_preds",
        "collapsed_tag",
    ]
    assert centre_colour(full[2]["image_1"]) == fixture_colour(2, 1)
    card = (winoground / "README.md").read_text(encoding="utf-8")
    assert "thrush2022winoground" in card and "`caption_0` is the positive caption" in card


def test_winoground_spec_pins_the_revision_mieb_reads():
    adapter = get_benchmark("winoground")
    assert (adapter.hub_id, adapter.hub_revision, adapter.hub_split) == (
        "facebook/winoground",
        "b400e173549071916ad1b3d449293bc8d8b4b763",
        "test",
    )
    mteb = pytest.importorskip("mteb")
    task = mteb.get_task("Winoground")
    assert task.metadata.dataset == {"path": adapter.hub_id, "revision": adapter.hub_revision}
    assert tuple(task.images_column_names) == adapter.image_columns
    assert tuple(task.texts_column_names) == adapter.caption_columns


def test_winoground_reaches_eval_the_results_table_the_leaderboard_and_push(winoground):
    # image i's own caption scores highest in samples 0 and 2, sample 1 gets I2T wrong
    matrices = {
        "0": [[0.9, 0.1], [0.2, 0.8]],
        "1": [[0.1, 0.9], [0.2, 0.8]],
        "2": [[0.6, 0.5], [0.4, 0.7]],
        "3": [[0.5, 0.4], [0.3, 0.6]],
    }
    record = evaluate_scores(matrices, winoground, name="hand-made", n_bootstrap=10)
    metrics = record["metrics"]
    assert (metrics["full/n"], metrics["full/i2t"], metrics["full/group"]) == (4, 0.75, 0.75)
    assert (metrics["seen/i2t"], metrics["partial/i2t"], metrics["unseen/i2t"]) == (1.0, 0.0, 1.0)
    table = results_table([record]).to_pylist()
    assert {row["benchmark"] for row in table} == {"winoground"}
    view = board([record], "winoground", "i2t")
    assert [model["model"] for model in view.models] == ["hand-made"]
    plan = plan_dataset(winoground, org="my-lab")
    assert plan.repo_id == "my-lab/winoground" == hub_dataset_id("winoground", "my-lab")


# ------------------------------------------------------------------------------- ColorSwap
def test_colorswap_builds_from_its_hub_schema_with_the_labels_known_by_construction(work):
    source = make_colorswap_source(work / "colorswap.parquet", [(a, b) for a, b, *_ in PAIRS])
    folder = build(work, "colorswap", source, "colorswap")
    check_two_image_labels(folder)
    manifest = verify_build(folder)
    assert manifest["columns"]["image"] == ["image_1", "image_2"]
    assert manifest["columns"]["caption"] == ["caption_1", "caption_2"]
    assert manifest["columns"]["id"] == "id"
    full = full_rows(folder)
    assert {"image_source", "caption_source"} <= set(full.column_names)
    assert centre_colour(full[1]["image_2"]) == fixture_colour(1, 1)
    record = evaluate_scores(
        {str(i): [[0.9, 0.1], [0.2, 0.8]] for i in range(4)}, folder, name="m", n_bootstrap=10
    )
    assert record["metrics"]["full/group"] == 1.0
    assert plan_dataset(folder, org="lab").repo_id == "lab/colorswap"


# --------------------------------------------------------------------------------- What'sUp
WHATSUP = {
    "controlled_images": [
        (
            "mug_on_table.jpeg",
            [
                "A mug on a table",
                "A mug under a table",
                "A mug to the left of a table",
                "A mug to the right of a table",
            ],
        ),
        (
            "mug_left_of_plate.jpeg",
            [
                "A mug to the left of a plate",
                "A mug to the right of a plate",
                "A mug on a plate",
                "A mug under a plate",
            ],
        ),
        (
            "lamp_under_desk.jpeg",
            [
                "A lamp under a desk",
                "A lamp on a desk",
                "A lamp to the left of a desk",
                "A lamp to the right of a desk",
            ],
        ),
    ],
    "controlled_clevr": [
        (
            "cube_behind_sphere.png",
            [
                "A cube behind a sphere",
                "A cube in front of a sphere",
                "A cube to the left of a sphere",
                "A cube to the right of a sphere",
            ],
        ),
    ],
}


def test_whatsup_builds_by_relation_triples_with_the_labels_known_by_construction(work):
    source = make_whatsup_source(work / "whatsup" / "data", WHATSUP)
    folder = build(work, "whatsup", source, "whatsup_relation", "--bindings", "relation")
    full = full_rows(folder)
    # (mug, on, table) is seen, its three other prepositions are not; (mug, to the left of,
    # plate) likewise; nothing about lamps, desks, cubes or spheres is seen
    assert label_names(full) == ["partial", "partial", "unseen", "unseen"]
    assert full["caption_familiarity"][:2] == [[1.0, 0.0, 0.0, 0.0]] * 2
    assert full["asymmetric"] == [True, True, False, False]
    assert [t[0]["relation"] for t in full["caption_relations"][0]] == [
        "on",
        "under",
        "to the left of",
        "to the right of",
    ]
    assert full["bindsplit_category"] == [
        "controlled_images/on",
        "controlled_images/left_of",
        "controlled_images/under",
        "controlled_clevr/behind",
    ]
    assert full["image_path"][0] == "data/controlled_images/mug_on_table.jpeg"
    assert centre_colour(full[3]["image"]) == fixture_colour(3, 0)
    manifest = verify_build(folder)
    assert manifest["binding_kind"] == "relation"
    assert manifest["columns"]["caption"] == ["caption_0", "caption_1", "caption_2", "caption_3"]
    # attribute bindings: these captions state none, every sample is `none`
    attribute = build(work, "whatsup", source, "whatsup_attribute")
    assert set(label_names(full_rows(attribute))) == {"none"}


def test_whatsup_counts_and_drops_a_missing_image(work):
    source = make_whatsup_source(
        work / "whatsup_missing",
        {"controlled_images": WHATSUP["controlled_images"]},
        missing={"lamp_under_desk.jpeg"},
    )
    loaded = get_benchmark("whatsup").load(source)
    assert loaded.report.problems["missing_image"] == 1 and len(loaded.dataset) == 2
    with pytest.raises(Exception, match="lamp_under_desk.jpeg.*missing image"):
        get_benchmark("whatsup").load(source, strict=True)


# ----------------------------------------------------------------------------- SugarCrepe++
#: (image id, caption, caption2 = the hard positive, negative caption); the labels by
#: construction: sample 0 all seen, 1 partial with an unseen hard positive, 2 unseen.
SUGARCREPE_PP = {
    "replace_att": [
        (139, "a red car on a road", "on a road is a red car", "a white car on a road"),
        (285, "a white dog", "a dog that is white", "a purple dog"),
    ],
    "swap_att": [
        (
            632,
            "a golden car and a purple dog",
            "a purple dog and a golden car",
            "a purple car and a golden dog",
        )
    ],
}


def test_sugarcrepe_pp_builds_with_its_hard_positive_counted_as_positive(work):
    root = make_sugarcrepe_pp_source(work / "scpp", SUGARCREPE_PP)
    folder = build(work, "sugarcrepe++", root, "sugarcrepe_pp", "--images", str(root / "val2017"))
    manifest = verify_build(folder)
    assert manifest["benchmark"] == "sugarcrepe_pp"
    assert manifest["columns"]["caption"] == ["caption", "caption2", "negative_caption"]
    assert manifest["columns"]["hard_positive"] == ["caption2"]
    full = full_rows(folder)
    assert full.column_names[:7] == [
        "image",
        "id",
        "filename",
        "caption",
        "caption2",
        "negative_caption",
        "subset",
    ]
    assert label_names(full) == ["partial", "partial", "unseen"]
    # "a dog that is white" states (white, dog) too; "a white car" is unseen
    assert full["caption_familiarity"] == [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    composition = manifest["composition"]
    # positive bindings, of caption and caption2: one seen binding each in samples 0 and 1,
    # two unseen each in sample 2 (4 of 8 seen); negatives: white car, purple dog, purple car
    # and golden dog, none seen
    assert composition["n_positive_captions"] == 6 and composition["n_negative_captions"] == 3
    assert composition["positive_seen_rate"] == 4 / 8
    assert composition["negative_seen_rate"] == 0.0
    card = (folder / "README.md").read_text(encoding="utf-8")
    assert "`caption2` is a hard positive of `image`" in card


def test_sugarcrepe_pp_reads_a_list_of_samples_and_refuses_other_shapes(tmp_path):
    root = make_sugarcrepe_pp_source(tmp_path / "scpp", SUGARCREPE_PP)
    adapter = get_benchmark("sugarcrepe_pp")
    loaded = adapter.load(root / "data" / "swap_att.json", images=root / "val2017")
    assert loaded.dataset["id"] == [0] and loaded.dataset["subset"] == ["swap_att"]
    bad = root / "data" / "replace_rel.json"
    bad.write_text(json.dumps([{"id": "x", "filename": "1.jpg"}]), encoding="utf-8")
    with pytest.raises(ValueError, match="sample 0 must have an integer 'id'"):
        adapter.load(bad, images=root / "val2017")


# ------------------------------------------------------------------- seed 003's hard positives
def test_seed_003_hard_positives_pair_the_two_files_and_count_the_hard_positive(work):
    sets = {
        "vl_checklist_attributes": [
            (2401814, "white dog", "pale dog", "golden dog"),
            (712954, "red car", "red automobile", "purple car"),
        ],
        "vl_checklist_relations": [(2372220, "cat on sofa", "cat lying on sofa", "cat under sofa")],
    }
    root = make_hard_positives_source(work / "hard_positives_repo", sets)
    folder = build(work, "hard_positives", root, "hard_positives")
    manifest = verify_build(folder)
    assert manifest["columns"]["caption"] == ["caption", "hard_positive", "negative_caption"]
    assert manifest["columns"]["hard_positive"] == ["hard_positive"]
    full = full_rows(folder)
    assert full["subset"] == ["replace_att", "replace_att", "replace_rel"]
    assert full["hard_positive"][1] == "red automobile" and full["caption"][1] == "red car"
    # (white, dog) seen, (pale, dog) and (golden, dog) not; (red, car) seen and (red,
    # automobile) not; (black, cat) unstated: the third sample states no attribute binding
    assert label_names(full) == ["partial", "partial", "none"]
    assert full["caption_familiarity"][:2] == [[1.0, 0.0, 0.0]] * 2
    assert full["image_id"] == ["2401814", "712954", "2372220"]
    # the same folder with --images: the images' folder, image paths without their data/ prefix
    images = build(
        work, "hard_positives", root, "hard_positives_images", "--images", str(root / "data")
    )
    assert verify_build(images)["fingerprint"] == manifest["fingerprint"]
    swapped = root / "swapped_data" / "vl_checklist_relations.json"
    records = json.loads(swapped.read_text(encoding="utf-8"))
    swapped.write_text(json.dumps([{**records[0], "image_id": "1"}]), encoding="utf-8")
    with pytest.raises(ValueError, match="record 0 of data/vl_checklist_relations.json and of"):
        get_benchmark("hard_positives").load(root)
