"""Half-truths (seed 004) split by familiarity: units and their text, what an image's captions
make true, the builds of the synthetic world (checked against each scene) and of real COCO
captions (images mocked), and the command line."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import datasets
import numpy as np
import pytest
from PIL import Image

from bindsplit_datasets import cli
from bindsplit_datasets.benchmarks.halftruth_sources import read_source
from bindsplit_datasets.builds.builder import build_benchmark
from bindsplit_datasets.builds.manifest import read_manifest, verify_build
from bindsplit_datasets.evaluation import evaluate_scores
from bindsplit_datasets.halftruths import (
    ADDED_COLUMNS,
    EDITS,
    ImageUnits,
    Vocabulary,
    familiarity,
    image_halftruths,
    unit_text,
)
from bindsplit_datasets.metric_halftruth import halftruth_metrics, halftruth_outcomes
from bindsplit_datasets.names import label_name
from bindsplit_datasets.parsing import (
    Binding,
    Relation,
    parse_bindings,
    parse_bindings_and_relations,
    parse_relations,
)
from bindsplit_datasets.reference import ReferenceIndex
from bindsplit_datasets.reports.results import validate_record
from bindsplit_datasets.synthetic import default_world, reference_index, write_test_benchmark
from bindsplit_datasets.synthetic.relations import relation_holds


def _unit(text: str) -> Binding | Relation:
    """The one unit a half-truth's added text states (it reads back as exactly one unit)."""
    bindings, relations = parse_bindings_and_relations(text)
    assert len(bindings) + len(relations) == 1, (text, bindings, relations)
    return (bindings or relations)[0]


def _added(row: dict) -> str:
    """The true unit's text the refinement adds to the anchor."""
    prefix = row["anchor"] + " and "
    assert row["refinement"].startswith(prefix) and row["half_truth"].startswith(prefix)
    assert row["half_truth"] == prefix + row["added_unit"]
    return row["refinement"][len(prefix) :]


# ----------------------------------------------------------------------------------- units


@pytest.mark.parametrize(
    ("unit", "text"),
    [
        (Binding("brown", "horse"), "a brown horse"),
        (Binding("orange", "star"), "an orange star"),
        (Relation("man", "ride", "horse"), "a man riding a horse"),
        (Relation("cat", "sit on", "couch"), "a cat sitting on a couch"),
        (Relation("dog", "lie on", "bed"), "a dog lying on a bed"),
        (Relation("vase", "fill with", "water"), "a vase filled with a water"),
        (Relation("cup", "next to", "plate"), "a cup next to a plate"),
        (Relation("circle", "to the left of", "square"), "a circle to the left of a square"),
    ],
)
def test_a_unit_is_written_so_that_it_reads_back(unit, text):
    assert unit_text(unit) == text
    assert _unit(text) == unit


def test_a_unit_no_phrase_reads_back_as_has_no_text():
    assert unit_text(Relation("man", "withing", "hat")) is None  # not a verb, not a preposition
    assert unit_text(Binding("teddy", "bear")) is None  # a compound, read as one object


def test_captions_make_their_entailments_true():
    image = ImageUnits.of(
        [
            ([Binding("red", "cup")], [Relation("cup", "to the left of", "plate")]),
            ([], [Relation("cat", "on top of", "car"), Relation("dog", "next to", "cat")]),
        ]
    )
    assert image.known(Binding("red", "cup")) and not image.known(Binding("blue", "cup"))
    known = [
        ("plate", "to the right of", "cup"),  # converse
        ("cat", "above", "car"),  # implied
        ("car", "below", "cat"),  # implied, then converse
        ("cat", "next to", "dog"),  # symmetric
    ]
    assert all(image.known(Relation(*t)) for t in known)
    assert not image.known(Relation("plate", "to the left of", "cup"))
    assert image.objects == {"cup", "plate", "cat", "car", "dog"}


def test_foils_are_minimal_edits_never_known_true_and_both_familiar_and_not():
    index = ReferenceIndex.from_captions(
        ["a white horse", "a man leading a horse", "a black dog", "a man riding a dog"],
        progress=False,
    )
    captions = [parse_bindings_and_relations("a brown horse and a man riding a horse")]
    vocabulary = Vocabulary.of([u for b, r in captions for u in (*b, *r)], index)
    made = image_halftruths(
        captions, index, vocabulary, rng=np.random.default_rng(0), kinds=("entity", "relation")
    )
    by_edit = {(h.edit, h.added_label): h for h in made}
    assert by_edit[("attribute", "seen")].foil == Binding("white", "horse")
    assert by_edit[("relation", "seen")].foil == Relation("man", "lead", "horse")
    assert by_edit[("swap", "unseen")].foil == Relation("horse", "ride", "man")
    assert {h.edit for h in made} == set(EDITS)
    image = ImageUnits.of(captions)
    for h in made:
        assert not image.known(h.foil) and _unit(h.added_unit) == h.foil
        assert h.added_label == familiarity(h.foil, index)
        assert h.half_truth == f"{h.anchor} and {h.added_unit}"
        assert h.refinement == f"{h.anchor} and {unit_text(h.truth)}"


# ------------------------------------------------------------------ the synthetic world


@pytest.fixture(scope="module")
def world():
    return default_world()


@pytest.fixture(scope="module")
def index(world):
    return reference_index(world)


@pytest.fixture(scope="module")
def synthetic_source(tmp_path_factory, world, index):
    out = tmp_path_factory.mktemp("halftruths") / "source"
    return write_test_benchmark(world, out, n_per_stratum=12, seed=4, index=index, progress=False)


@pytest.fixture(scope="module")
def synthetic_build(tmp_path_factory, synthetic_source, index):
    out = tmp_path_factory.mktemp("halftruths") / "build"
    return build_benchmark("halftruth", out=out, source=synthetic_source, reference=index).path


def _full(build: Path) -> datasets.Dataset:
    return datasets.Dataset.from_parquet(str(build / "full" / "test-00000-of-00001.parquet"))


def _holds(unit: Binding | Relation, row: dict, image_size: int) -> bool:
    """Whether the scene of ``image_0`` (its coloured shapes and their boxes) shows ``unit``."""
    objects = list(zip(row["attributes"], row["objects"], row["boxes_0"], strict=True))
    if isinstance(unit, Binding):
        return any(Binding(colour, shape) == unit for colour, shape, _ in objects)
    return any(
        (a[1], b[1]) == (unit.subject, unit.object)
        and relation_holds(a[2], unit.relation, b[2], image_size)
        for a, b in itertools.permutations(objects, 2)
    )


def test_every_synthetic_foil_is_false_and_every_refinement_true_of_its_scene(
    synthetic_build, world
):
    rows = _full(synthetic_build)
    assert len(rows) > 200
    kinds = set()
    for row in rows:
        foil, truth = _unit(row["added_unit"]), _unit(_added(row))
        assert not _holds(foil, row, world.image_size), row
        assert _holds(truth, row, world.image_size), row
        for text in row["anchor"].split(" and "):
            assert _holds(_unit(text), row, world.image_size), row
        # the edit is minimal: the foil differs from the true unit in the edited part alone
        if row["edit"] == "attribute":
            assert (foil.object, foil.attribute != truth.attribute) == (truth.object, True)
        elif row["edit"] == "object":
            assert foil.attribute == truth.attribute and foil.object not in row["objects"]
        elif row["edit"] == "relation":
            assert (foil.subject, foil.object) == (truth.subject, truth.object)
        elif row["edit"] == "swap":
            assert foil == Relation(truth.object, truth.relation, truth.subject)
        else:
            assert foil.relation == truth.relation and len({foil, truth}) == 2
        kinds.add((row["added_kind"], row["added_label"]))
    assert kinds == {(k, f) for k in ("entity", "relation") for f in ("seen", "unseen")}


def test_a_synthetic_build_keeps_the_source_columns_and_labels_by_the_foil(
    synthetic_build, synthetic_source, index
):
    manifest = verify_build(synthetic_build)
    assert manifest["benchmark"] == "halftruth" and manifest["binding_kind"] == "both"
    columns = manifest["columns"]
    assert columns["image"] == ["image_0"]
    assert columns["caption"] == ["anchor", "refinement", "half_truth"]
    assert columns["hard_positive"] == ["refinement"]
    rows = _full(synthetic_build)
    source = datasets.Dataset.from_parquet(
        str(synthetic_source / "relations" / "test-00000-of-00001.parquet")
    )
    assert rows.column_names[: len(source.column_names)] == source.column_names
    assert rows.column_names[len(source.column_names) :][:7] == list(ADDED_COLUMNS)
    for row in rows:
        assert label_name(row["bindsplit_label"]) == row["added_label"]
        assert row["bindsplit_category"] == f"{row['added_kind']}/{row['edit']}"
        assert row["added_label"] == familiarity(_unit(row["added_unit"]), index)
    sizes = read_manifest(synthetic_build)["configs"]
    assert sizes["seen"] + sizes["unseen"] == sizes["full"] == len(rows)
    assert sizes["partial"] == 0


def test_eval_of_a_halftruth_build_reports_its_metrics_and_outcomes(synthetic_build):
    rows = _full(synthetic_build)
    rng = np.random.default_rng(3)
    matrices = [rng.normal(size=(1, 3)).round(3).tolist() for _ in range(len(rows))]
    record = evaluate_scores(
        {str(i): m for i, m in enumerate(matrices)}, synthetic_build, name="random", n_bootstrap=0
    )
    validate_record(record)
    labels = [label_name(value) for value in rows["bindsplit_label"]]
    expected = halftruth_metrics(matrices, labels, rows["bindsplit_category"])
    for key in ("full/acc_ht", "seen/delta_ci", "gap/ref_acc", "unseen/kind/relation/acc_ht"):
        assert record["metrics"][key] == pytest.approx(expected[key])
    outcomes = halftruth_outcomes(matrices)
    assert record["samples"]["acc_ht"] == outcomes.acc_ht.astype(int).tolist()
    assert record["metrics"]["delta_interval_method"] == "student-t"
    # the refinement is a hard positive: the build's original I2T is AccHT itself
    assert record["metrics"]["full/i2t_original"] == pytest.approx(expected["full/acc_ht"])


def test_entity_only_builds_add_entities_only(tmp_path, synthetic_source, index):
    out = tmp_path / "entities"
    build_benchmark(
        "halftruth",
        out=out,
        source=synthetic_source,
        reference=index,
        source_options={"units": "entity", "max_images": 5},
    )
    rows = _full(out)
    assert set(rows["added_kind"]) == {"entity"} and set(rows["edit"]) == {"attribute", "object"}
    assert len(set(rows["id"])) == 5


# ------------------------------------------------------------------- real COCO captions


@pytest.fixture(scope="module")
def coco(shared_data, tmp_path_factory):
    """COCO val2017 captions (real, from the shared data) with a mocked image folder, and the
    COCO train2017 sample's index."""
    folder = shared_data / "coco_mini"
    images = tmp_path_factory.mktemp("val2017")
    val = json.loads((folder / "captions_val2017.json").read_text(encoding="utf-8"))
    for image in val["images"]:
        Image.new("RGB", (4, 4), (90, 40, 10)).save(images / image["file_name"])
    return folder / "captions_val2017.json", images, folder / "captions_train2017.json"


def test_coco_foils_are_not_among_the_image_captions_and_labels_follow_the_reference(
    coco, tmp_path, capsys
):
    captions, images, train = coco
    out = tmp_path / "coco"
    argv = ["build", "halftruth", "--source", str(captions), "--images", str(images)]
    assert cli.main([*argv, "--reference", str(train), "--out", str(out)]) == 0
    assert "half-truths of" in capsys.readouterr().out
    index = ReferenceIndex.from_coco(train, progress=False)
    rows = _full(out)
    by_image: dict[int, list[str]] = {}
    for annotation in json.loads(captions.read_text(encoding="utf-8"))["annotations"]:
        by_image.setdefault(annotation["image_id"], []).append(annotation["caption"])
    assert len(rows) > 300 and set(rows["added_label"]) == {"seen", "unseen"}
    for row in rows:
        assert row["captions"] == [c.strip() for c in by_image[row["image_id"]]]
        own = {
            u for text in row["captions"] for u in (*parse_bindings(text), *parse_relations(text))
        }
        foil = _unit(row["added_unit"])
        assert foil not in own
        assert type(foil).__name__ == ("Binding" if row["added_kind"] == "entity" else "Relation")
        count = index.count(foil) if isinstance(foil, Binding) else index.relation_count(foil)
        assert row["added_label"] == ("seen" if count >= index.min_count else "unseen")
        assert label_name(row["bindsplit_label"]) == row["added_label"]
        assert _unit(_added(row)) in own  # the refinement adds one of the image's own units
    assert read_manifest(out)["source"]["path"] == "captions_val2017.json"


def test_a_coco_source_needs_its_images(coco, tmp_path, capsys):
    captions, _, train = coco
    argv = ["build", "halftruth", "--source", str(captions), "--reference", str(train)]
    assert cli.main([*argv, "--out", str(tmp_path / "out")]) == 2
    assert "pass the folder of its images with --images" in capsys.readouterr().err


def test_a_table_of_captioned_images_builds_from_the_command_line(tmp_path, capsys):
    for name in ("a.png", "b.png"):
        Image.new("RGB", (4, 4)).save(tmp_path / name)
    table = tmp_path / "table.csv"
    table.write_text(
        "photo,text,more\n"
        "a.png,a man riding a brown horse,a black dog next to a horse\n"
        "b.png,a red bus parked on a street,a tall tree behind a red bus\n",
        encoding="utf-8",
    )
    reference = tmp_path / "reference.txt"
    reference.write_text("a white horse\na man leading a horse\na blue bus\n", encoding="utf-8")
    argv = ["build", "halftruth", "--source", str(table), "--reference", str(reference)]
    columns = ["--image-columns", "photo", "--caption-columns", "text,more"]
    assert cli.main([*argv, *columns, "--out", str(tmp_path / "out")]) == 0
    rows = _full(tmp_path / "out")
    assert rows[0]["photo"].size == (4, 4)  # the image, embedded from its path
    assert {"text", "more", *ADDED_COLUMNS} <= set(rows.column_names)
    assert read_manifest(tmp_path / "out")["columns"]["image"] == ["photo"]
    capsys.readouterr()
    assert cli.main([*argv, "--out", str(tmp_path / "bare")]) == 2  # a table needs its columns
    assert "--image-columns IMAGE --caption-columns" in capsys.readouterr().err
    assert cli.main(["build", "bivlc", *columns, "--out", str(tmp_path / "no")]) == 2
    assert "use `bindsplit build custom" in capsys.readouterr().err


def test_a_table_source_reads_its_image_and_caption_columns(tmp_path):
    picture = tmp_path / "a.png"
    Image.new("RGB", (4, 4)).save(picture)
    table = tmp_path / "table.parquet"
    datasets.Dataset.from_dict(
        {"photo": [str(picture)], "text": ["a man riding a brown horse"], "more": ["a horse"]}
    ).to_parquet(str(table))
    read = read_source(table, image_columns=["photo"], caption_columns=["text", "more"])
    assert read.image_column == "photo" and read.captions == [
        ["a man riding a brown horse", "a horse"]
    ]
    with pytest.raises(ValueError, match=r"has no column\(s\) \['caption'\]; its columns are"):
        read_source(table, image_columns=["photo"], caption_columns=["caption"])
    with pytest.raises(ValueError, match="one image column"):
        read_source(table, image_columns=["photo", "text"], caption_columns=["more"])
