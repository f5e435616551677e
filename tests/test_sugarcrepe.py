"""SugarCrepe: the official repository layout read row by row, the right image in every row, the
labels of the project's own parser and index, the copy layout, bad input, the cached COCO val2017
download, and `bindsplit build` / `bindsplit stats` end to end."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import datasets
import pytest
from fixtures_sources import centre_colour, close_colours, label_names
from fixtures_sugarcrepe import (
    SUGARCREPE_SAMPLES,
    coco_filename,
    image_colour,
    jpeg_bytes,
    make_sugarcrepe_source,
)

from bindsplit_datasets.benchmarks import get_benchmark
from bindsplit_datasets.benchmarks import sugarcrepe as sugarcrepe_module
from bindsplit_datasets.benchmarks.coco_images import coco_val2017_images
from bindsplit_datasets.benchmarks.sugarcrepe import SUBSETS, find_subset_files
from bindsplit_datasets.builds.builder import build_benchmark
from bindsplit_datasets.cli import main
from bindsplit_datasets.errors import BindsplitError, ChecksumError, LeakageError, SchemaError
from bindsplit_datasets.labels import annotate_sample
from bindsplit_datasets.parsing import Binding, parse_bindings
from bindsplit_datasets.reference import ReferenceIndex

#: Reference captions: (black, dog), (white, cat), (green, lawn), (wooden, table), (red, chair).
REFERENCE = ["a black dog near a white cat", "a green lawn and a wooden table", "a red chair"]
#: The fixture's rows in build order: (subset, image id, label against REFERENCE).
EXPECTED = [
    ("add_att", 139, "seen"),  # (green, lawn) | (black, dog), (green, lawn)
    ("add_att", 285, "unseen"),  # nothing | (red, bus)
    ("replace_att", 632, "unseen"),  # (white, plate) | (blue, plate)
    ("swap_att", 139, "partial"),  # (black, dog), (white, cat) | (white, dog), (black, cat)
    ("swap_att", 724, "partial"),  # (wooden, table), (red, chair) | swapped
    ("swap_obj", 776, "none"),  # no attribute in either caption
]


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    return make_sugarcrepe_source(tmp_path_factory.mktemp("sugar-crepe"))


@pytest.fixture(scope="module")
def reference_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("reference") / "captions_train2017.json"
    annotations = [{"image_id": 1, "id": i, "caption": c} for i, c in enumerate(REFERENCE)]
    path.write_text(json.dumps({"images": [{"id": 1}], "annotations": annotations}))
    return path


@pytest.fixture(scope="module")
def built(tmp_path_factory, source, reference_file) -> Path:
    out = tmp_path_factory.mktemp("built") / "sugarcrepe"
    assert main(["build", *source_arguments(source, reference_file), "--out", str(out)]) == 0
    return out


def source_arguments(source: Path, reference: Path) -> list[str]:
    """What `bindsplit build` and `bindsplit stats` read: the fixture source and reference."""
    return [
        "sugarcrepe",
        *("--source", str(source)),
        *("--images", str(source / "val2017")),
        *("--reference", str(reference)),
    ]


# ------------------------------------------------------------------------------ reading
def test_official_layout_gives_one_row_per_sample_with_its_own_image(source):
    adapter = get_benchmark("sugarcrepe")
    loaded = adapter.load(source, images=source / "val2017")
    rows = loaded.dataset
    assert rows.column_names == ["image", "filename", "caption", "negative_caption", "subset"]
    assert [(r["subset"], r["filename"]) for r in rows.remove_columns("image")] == [
        (subset, coco_filename(image_id)) for subset, image_id, _ in EXPECTED
    ]
    expected_text = [
        (caption, negative)
        for samples in SUGARCREPE_SAMPLES.values()
        for _, caption, negative in samples
    ]
    assert list(zip(rows["caption"], rows["negative_caption"], strict=True)) == expected_text
    # each row holds the bytes of the file it names, unchanged
    raw = rows.cast_column("image", datasets.Image(decode=False))
    for row in raw:
        assert row["image"]["bytes"] == (source / "val2017" / row["filename"]).read_bytes()
    assert close_colours(centre_colour(rows[3]["image"]), image_colour(139))
    assert close_colours(centre_colour(rows[4]["image"]), image_colour(724))
    assert loaded.report.n_rows == 6 and not loaded.report.problems
    assert loaded.report.notes == [
        "samples per subset: add_att 2, replace_att 1, swap_att 2, swap_obj 1",
        "subsets not in the source: add_obj, replace_obj, replace_rel",
    ]
    assert loaded.identity["layout"] == "official"
    assert loaded.identity["files"] == [
        "add_att.json",
        "replace_att.json",
        "swap_att.json",
        "swap_obj.json",
    ]
    assert loaded.identity["n_records"] == 6
    assert [adapter.category(r) for r in rows.remove_columns("image")] == [
        s for s, _, _ in EXPECTED
    ]


def test_bindings_come_from_the_caption_parser(source):
    adapter = get_benchmark("sugarcrepe")
    rows = adapter.load(source, images=source / "val2017").dataset
    text = list(rows.remove_columns("image"))
    naive = [[parse_bindings(r["caption"]), parse_bindings(r["negative_caption"])] for r in text]
    assert adapter.all_caption_bindings(rows) == naive
    assert [adapter.caption_bindings(r) for r in text] == naive
    assert naive[3] == [
        [Binding("black", "dog"), Binding("white", "cat")],
        [Binding("white", "dog"), Binding("black", "cat")],
    ]
    assert adapter.positive_caption_columns == ("caption",)
    assert adapter.leakage_guard and adapter.paper_figures == {}


@pytest.mark.parametrize("where", ["repository", "data", "file"])
def test_source_is_the_repository_its_data_folder_or_one_file(source, where):
    path = {
        "repository": source,
        "data": source / "data",
        "file": source / "data" / "swap_att.json",
    }[where]
    images = source if where == "repository" else source / "val2017"  # the folder above works too
    loaded = get_benchmark("sugarcrepe").load(path, images=images)
    expected = 2 if where == "file" else 6
    assert len(loaded.dataset) == expected
    assert set(loaded.dataset["subset"]) == (
        {"swap_att"} if where == "file" else {s for s, _, _ in EXPECTED}
    )


def test_ent_files_are_read_as_obj_and_say_so(tmp_path):
    root = make_sugarcrepe_source(tmp_path / "repo", file_names={"swap_obj": "swap_ent"})
    assert find_subset_files(root / "data") == {
        subset: root / "data" / f"{subset}.json"
        for subset in ("add_att", "replace_att", "swap_att")
    } | {"swap_obj": root / "data" / "swap_ent.json"}
    loaded = get_benchmark("sugarcrepe").load(root, images=root / "val2017")
    assert loaded.dataset["subset"][-1] == "swap_obj"
    assert "read swap_ent.json as swap_obj" in loaded.report.notes
    (root / "data" / "swap_obj.json").write_text("{}")
    with pytest.raises(SchemaError, match="two files of the subset 'swap_obj'"):
        get_benchmark("sugarcrepe").load(root, images=root / "val2017")


def test_missing_and_unreadable_images_are_counted_or_fail_strict(tmp_path):
    root = make_sugarcrepe_source(tmp_path / "repo", missing={139}, unreadable={776})
    adapter = get_benchmark("sugarcrepe")
    loaded = adapter.load(root, images=root / "val2017")
    # image 139 is named by two samples (add_att and swap_att): both rows go
    assert dict(loaded.report.problems) == {"missing_image": 2, "unreadable_image": 1}
    assert loaded.dataset["filename"] == [coco_filename(i) for i in (285, 632, 724)]
    assert loaded.report.notes[-1].startswith(
        "dropped 3 sample(s) with a missing or unreadable image (first: add_att sample '0' "
        "('000000000139.jpg' in "
    )
    with pytest.raises(BindsplitError, match=r"add_att sample '0'.*missing image.*--images"):
        adapter.load(root, images=root / "val2017", strict=True)


def test_bad_sources_are_named(tmp_path, source):
    adapter = get_benchmark("sugarcrepe")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="no subset files"):
        adapter.load(tmp_path / "empty", images=source / "val2017")
    with pytest.raises(FileNotFoundError, match="--images .* is not a folder"):
        adapter.load(source, images=tmp_path / "nowhere")
    bad = tmp_path / "bad"
    bad.mkdir()
    cases = {
        "[1, 2]": "non-empty JSON object of samples",
        '{"0": {"filename": "a.jpg", "caption": "x"}}': "sample '0' must have the string fields",
        '{"0": {"filename": "../a.jpg", "caption": "x", "negative_caption": "y"}}': (
            "sample '0' names the image '../a.jpg'"
        ),
        "{not json": "is not a readable JSON file",
    }
    for content, message in cases.items():
        (bad / "add_att.json").write_text(content)
        with pytest.raises(SchemaError, match=message):
            adapter.load(bad, images=source / "val2017")
    with pytest.raises(ValueError, match="does not accept the source option"):
        adapter.load(source, sim_solution="x.csv")


def test_a_parquet_copy_is_read_and_images_is_refused_for_it(tmp_path):
    rows = {
        "images": [{"bytes": jpeg_bytes(image_colour(i)), "path": None} for i in (139, 285)],
        "caption": ["a dog on a green lawn", "a bus on the street"],
        "negative_caption": ["a black dog on a green lawn", "a red bus on the street"],
        "subset": ["add_att", "add_att"],
    }
    features = datasets.Features(
        {
            "images": datasets.Image(),
            **{c: datasets.Value("string") for c in ("caption", "negative_caption", "subset")},
        }
    )
    path = tmp_path / "copy.parquet"
    datasets.Dataset.from_dict(rows, features=features).to_parquet(str(path))
    adapter = get_benchmark("sugarcrepe")
    loaded = adapter.load(path)
    assert loaded.dataset.column_names == ["image", "caption", "negative_caption", "subset"]
    assert close_colours(centre_colour(loaded.dataset[1]["image"]), image_colour(285))
    assert loaded.identity["layout"] == "copy"
    with pytest.raises(ValueError, match="--images applies to the official layout"):
        adapter.load(path, images=tmp_path)
    datasets.Dataset.from_dict(
        {k: v for k, v in rows.items() if k != "subset"},
        features=datasets.Features({k: v for k, v in features.items() if k != "subset"}),
    ).to_parquet(str(tmp_path / "nosubset.parquet"))
    with pytest.raises(ValueError, match=r"missing column\(s\) \['subset'\]"):
        adapter.load(tmp_path / "nosubset.parquet")


# ---------------------------------------------------------------------------- downloads
def _val2017_zip(path: Path, names: dict[str, bytes]) -> str:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("val2017/", b"")
        for name, payload in names.items():
            archive.writestr(name, payload)
    return hashlib.md5(path.read_bytes(), usedforsecurity=False).hexdigest()


def test_val2017_images_are_downloaded_checked_extracted_and_cached(tmp_path):
    archive = tmp_path / "val2017.zip"
    payload = jpeg_bytes(image_colour(139))
    md5 = _val2017_zip(
        archive, {"val2017/000000000139.jpg": payload, "__MACOSX/val2017/._x.jpg": b"junk"}
    )
    cache = tmp_path / "cache"
    with pytest.raises(ChecksumError, match="expected 0+"):
        coco_val2017_images(cache, url=archive.as_uri(), md5="0" * 32, progress=False)
    assert not (cache / "coco2017" / "val2017").exists()
    assert list((cache / "coco2017").iterdir()) == []  # nothing half-written is left
    folder = coco_val2017_images(cache, url=archive.as_uri(), md5=md5, progress=False)
    assert folder == cache / "coco2017" / "val2017"
    assert [p.name for p in folder.iterdir()] == ["000000000139.jpg"]
    assert (folder / "000000000139.jpg").read_bytes() == payload
    assert not (cache / "coco2017" / "val2017.zip").exists()  # the archive is not kept
    archive.unlink()  # a second call uses the cache and downloads nothing
    assert coco_val2017_images(cache, url=archive.as_uri(), md5=md5, progress=False) == folder


def test_an_archive_without_val2017_images_is_refused(tmp_path):
    archive = tmp_path / "other.zip"
    md5 = _val2017_zip(archive, {"train2017/000000000009.jpg": b"x"})
    with pytest.raises(SchemaError, match="holds no val2017/ images"):
        coco_val2017_images(tmp_path / "cache", url=archive.as_uri(), md5=md5, progress=False)
    assert not (tmp_path / "cache" / "coco2017" / "val2017").exists()


def test_defaults_download_the_repository_files_and_use_the_cached_images(tmp_path, monkeypatch):
    # a stand-in for the repository with every subset, one sample each, served from file:// URLs
    samples = {subset: [(100 + i, "a dog", "a red dog")] for i, subset in enumerate(SUBSETS)}
    repository = make_sugarcrepe_source(tmp_path / "repo", samples)
    url = (repository / "data").as_uri() + "/{subset}.json"
    monkeypatch.setattr(sugarcrepe_module, "OFFICIAL_URL", url)
    cache = tmp_path / "cache"
    monkeypatch.setenv("BINDSPLIT_CACHE", str(cache))
    images = cache / "coco2017" / "val2017"  # already cached: nothing is downloaded
    images.mkdir(parents=True)
    for name in (coco_filename(100), coco_filename(106)):
        (images / name).write_bytes((repository / "val2017" / name).read_bytes())
    loaded = get_benchmark("sugarcrepe").load(None)
    assert sorted(p.name for p in (cache / "sugarcrepe" / "data").iterdir()) == sorted(
        f"{s}.json" for s in SUBSETS
    )
    assert loaded.identity["url"] == url
    assert loaded.identity["images"] == str(images.resolve())
    assert loaded.dataset["subset"] == ["add_att", "swap_obj"]  # the others' images are absent
    assert loaded.report.problems["missing_image"] == 5


# -------------------------------------------------------------------------------- build
def test_build_gives_every_subset_with_the_project_labels(built, source, reference_file):
    manifest = json.loads((built / "bindsplit.json").read_text())
    assert manifest["benchmark"] == "sugarcrepe"
    configs = {"full": 6, "seen": 1, "unseen": 2, "partial": 2, "balanced": 1}
    assert manifest["configs"] == configs
    full = datasets.load_dataset(str(built), "full", split="test")
    assert full.column_names[:5] == ["image", "filename", "caption", "negative_caption", "subset"]
    rows = full.remove_columns("image")
    assert [
        (r["subset"], r["filename"], label)
        for r, label in zip(rows, label_names(full), strict=True)
    ] == [(subset, coco_filename(image_id), label) for subset, image_id, label in EXPECTED]
    # the labels are those of the project's parser and index, sample by sample
    index = ReferenceIndex.from_coco(reference_file)
    naive = [
        annotate_sample(
            [parse_bindings(r["caption"]), parse_bindings(r["negative_caption"])], index
        )
        for r in rows
    ]
    assert label_names(full) == [a.label for a in naive]
    for row, image_id in zip(full, [i for _, i, _ in EXPECTED], strict=True):
        assert close_colours(centre_colour(row["image"]), image_colour(image_id))
    unseen = datasets.load_dataset(str(built), "unseen")
    assert list(unseen) == ["test"]
    assert unseen["test"]["filename"] == [coco_filename(285), coco_filename(632)]
    assert unseen["test"]["subset"] == ["add_att", "replace_att"]
    assert isinstance(unseen["test"].features["image"], datasets.Image)


def test_leaking_reference_is_refused(tmp_path, source):
    reference = tmp_path / "leaky.txt"
    # two of the six positives (33%, above the 20% threshold; one alone is a chance duplicate)
    reference.write_text("".join(c + "\n" for _, c, _ in SUGARCREPE_SAMPLES["swap_att"]))
    with pytest.raises(LeakageError, match="contains 2 of SugarCrepe's 6 positive captions"):
        build_benchmark(
            "sugarcrepe",
            out=tmp_path / "out",
            source=source,
            reference=reference,
            source_options={"images": source / "val2017"},
        )
    assert not (tmp_path / "out").exists()


def test_stats_command_prints_the_composition(source, reference_file, capsys):
    assert main(["stats", *source_arguments(source, reference_file)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("SugarCrepe: 6 samples")
    assert "unseen" in out and "33.3%" in out
