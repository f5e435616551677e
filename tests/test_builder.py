"""The builder: labels against hand-computed expectations, the Hub-ready folder read back with
``load_dataset``, determinism, the ``datasets`` builder class, the leakage guard, bad input, and
the ``build``/``stats`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
from fixtures_sources import (
    BIVLC_FEATURES,
    aro_record,
    fixture_colour,
    make_aro_source,
    make_bivlc_source,
    make_sim_solution,
    make_vismin_source,
    png_bytes,
)

from bindsplit_datasets import cli
from bindsplit_datasets.benchmarks import get_benchmark
from bindsplit_datasets.builder import (
    BindSplitBuilder,
    LeakageError,
    build_benchmark,
    compute_annotations,
    prepare_benchmark,
)
from bindsplit_datasets.errors import BindsplitError
from bindsplit_datasets.features import ANNOTATION_FEATURES
from bindsplit_datasets.reference import ReferenceIndex
from bindsplit_datasets.splits import annotate_sample

REFERENCE = [
    "a red car on the road",
    "a white dog on the grass",
    "a black cat on a sofa",
    "a wooden table in a kitchen",
    "a red chair",
    "a blue car on the street",
]
# caption, negative caption, and the hand-computed label / familiarity / asymmetry against REFERENCE
BIVLC = [
    ("a red car", "a white dog", "seen", [1.0, 1.0], False),
    ("a purple car", "a golden dog", "unseen", [0.0, 0.0], False),
    ("a red car", "a purple dog", "partial", [1.0, 0.0], True),
    ("two people walking", "three people walking", "none", [None, None], False),
    ("a purple car", "a red car", "partial", [0.0, 1.0], True),
    ("a golden dog", "a purple car", "unseen", [0.0, 0.0], False),
]
BIVLC_ROWS = [
    {"caption": c, "negative_caption": n, "type": "replace", "subtype": "att"} for c, n, *_ in BIVLC
]
MANIFEST_KEYS = {
    "format",
    "bindsplit_version",
    "benchmark",
    "source",
    "reference",
    "min_count",
    "parser_version",
    "configs",
    "composition",
    "source_report",
    "leakage",
    "fingerprint",
}


@pytest.fixture(autouse=True, scope="module")
def _datasets_cache(tmp_path_factory):
    """Keep ``datasets``' Arrow cache of the fixtures out of the user's cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path_factory.mktemp("hf_cache"))
        yield


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("builder")


@pytest.fixture(scope="module")
def reference_file(work) -> Path:
    path = work / "reference.txt"
    path.write_text("\n".join(REFERENCE) + "\n")
    return path


@pytest.fixture(scope="module")
def bivlc_source(work) -> Path:
    return make_bivlc_source(work / "bivlc.parquet", BIVLC_ROWS)


@pytest.fixture(scope="module")
def bivlc_build(work, bivlc_source, reference_file):
    return build_benchmark(
        "bivlc", out=work / "bivlc_build", source=bivlc_source, reference=reference_file
    )


def siblings(path: Path) -> list[str]:
    """Everything in ``path``'s parent that starts with its name (temporary folders included)."""
    return sorted(p.name for p in path.parent.iterdir() if p.name.lstrip(".").startswith(path.name))


# ------------------------------------------------------------------------------ labelling
def test_labels_familiarity_and_composition_match_hand_computation(bivlc_build):
    manifest = bivlc_build.manifest
    full = datasets.load_dataset(str(bivlc_build.path), "full", split="test")
    assert full["caption"] == [c for c, *_ in BIVLC]  # source order kept
    assert full["bindsplit_label"] == [label for _, _, label, _, _ in BIVLC]
    assert full["caption_familiarity"] == [fam for *_, fam, _ in BIVLC]
    assert full["asymmetric"] == [asym for *_, asym in BIVLC]
    assert full[2]["caption_bindings"] == [
        [{"attribute": "red", "object": "car", "count": 1, "seen": True}],
        [{"attribute": "purple", "object": "dog", "count": 0, "seen": False}],
    ]
    assert manifest["composition"] == {
        "n": 6,
        "counts": {"seen": 1, "unseen": 2, "partial": 2, "none": 1},
        "shares": {"seen": 1 / 6, "unseen": 2 / 6, "partial": 2 / 6, "none": 1 / 6},
        "positive_seen_rate": 2 / 5,
        "negative_seen_rate": 2 / 5,
        "asymmetric_share": 2 / 6,
    }


def test_compute_annotations_equals_row_by_row_annotation(bivlc_source, reference_file):
    adapter = get_benchmark("bivlc")
    loaded = adapter.load(bivlc_source)
    index = ReferenceIndex.from_text_file(reference_file, progress=False)
    naive = [annotate_sample(adapter.caption_bindings(row), index) for row in loaded.dataset]
    assert compute_annotations(adapter, loaded, index) == naive


# --------------------------------------------------------------------------------- folder
def test_build_writes_a_hub_ready_folder(bivlc_build, bivlc_source):
    out = bivlc_build.path
    assert sorted(p.name for p in out.iterdir()) == [
        "README.md",
        "bindsplit.json",
        "full",
        "partial",
        "seen",
        "unseen",
    ]
    for config, n in {"full": 6, "seen": 1, "unseen": 2, "partial": 2}.items():
        assert [p.name for p in (out / config).iterdir()] == ["test-00000-of-00001.parquet"]
        assert pq.read_metadata(out / config / "test-00000-of-00001.parquet").num_rows == n
    manifest = json.loads((out / "bindsplit.json").read_text())
    assert manifest == bivlc_build.manifest
    assert set(manifest) == MANIFEST_KEYS
    assert manifest["format"] == "bindsplit-build/1" and manifest["benchmark"] == "bivlc"
    assert manifest["configs"] == {"full": 6, "seen": 1, "unseen": 2, "partial": 2}
    assert manifest["source"]["path"] == str(bivlc_source.resolve())
    assert manifest["reference"]["corpus"]["kind"] == "text" and manifest["min_count"] == 1
    assert manifest["leakage"] == {"overlap": 0, "override": False}
    assert manifest["source_report"] == {"n_rows": 6, "problems": {}, "notes": []}
    assert len(manifest["fingerprint"]) == 64


def test_load_dataset_returns_exactly_the_unseen_rows_with_embedded_images(bivlc_build):
    unseen = datasets.load_dataset(str(bivlc_build.path), "unseen", split="test")
    assert unseen["caption"] == ["a purple car", "a golden dog"]
    assert set(unseen["bindsplit_label"]) == {"unseen"}
    assert unseen.features == datasets.Features(
        {
            **get_benchmark("bivlc").load(bivlc_build.manifest["source"]["path"]).dataset.features,
            **ANNOTATION_FEATURES,
        }
    )
    # image bytes are in the Parquet file (no paths), and they are the source rows' images
    table = pq.read_table(bivlc_build.path / "unseen" / "test-00000-of-00001.parquet")
    assert all(cell["bytes"] and cell["path"] is None for cell in table.column("image").to_pylist())
    assert unseen[0]["image"].convert("RGB").getpixel((1, 1)) == fixture_colour(1, 0)
    assert unseen[1]["negative_image"].convert("RGB").getpixel((1, 1)) == fixture_colour(5, 1)
    default = datasets.load_dataset(str(bivlc_build.path), split="test")  # full is the default
    assert len(default) == 6


def test_same_inputs_give_the_same_rows(bivlc_build, work, bivlc_source, reference_file):
    again = build_benchmark(
        "bivlc", out=work / "again", source=bivlc_source, reference=reference_file
    )
    assert again.manifest == bivlc_build.manifest
    for config in ("full", "unseen"):
        first = (bivlc_build.path / config / "test-00000-of-00001.parquet").read_bytes()
        second = (again.path / config / "test-00000-of-00001.parquet").read_bytes()
        assert first == second


def test_many_shards_keep_row_order(bivlc_build, work, bivlc_source, reference_file):
    sharded = build_benchmark(
        "bivlc",
        out=work / "sharded",
        source=bivlc_source,
        reference=reference_file,
        max_shard_size=300,
    )
    names = sorted(p.name for p in (sharded.path / "full").iterdir())
    assert len(names) > 1 and names[0] == f"test-00000-of-{len(names):05d}.parquet"
    assert names[-1] == f"test-{len(names) - 1:05d}-of-{len(names):05d}.parquet"
    full = datasets.load_dataset(str(sharded.path), "full", split="test")
    assert full["caption"] == [c for c, *_ in BIVLC]
    assert sharded.manifest["fingerprint"] == bivlc_build.manifest["fingerprint"]


def test_an_existing_folder_is_kept_unless_overwrite(work, bivlc_source, reference_file):
    out = work / "occupied"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(FileExistsError, match="--overwrite"):
        build_benchmark("bivlc", out=out, source=bivlc_source, reference=reference_file)
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    build_benchmark("bivlc", out=out, source=bivlc_source, reference=reference_file, overwrite=True)
    assert not (out / "keep.txt").exists() and (out / "bindsplit.json").is_file()
    assert siblings(out) == ["occupied"]  # no temporary or old folders left beside it


def test_empty_configuration_is_not_written_and_the_card_says_so(work, reference_file):
    source = make_bivlc_source(work / "no_seen.parquet", BIVLC_ROWS[1:3])
    result = build_benchmark("bivlc", out=work / "no_seen", source=source, reference=reference_file)
    assert result.manifest["configs"] == {"full": 2, "unseen": 1, "partial": 1}
    assert result.manifest["composition"]["counts"]["seen"] == 0
    assert not (result.path / "seen").exists()
    assert "| `seen` | 0 | " in (result.path / "README.md").read_text()
    assert "(empty: not written)" in (result.path / "README.md").read_text()


def test_images_stored_as_paths_are_embedded_as_bytes(work, reference_file):
    folder = work / "image_files"
    folder.mkdir()
    cells = {"image": [], "negative_image": []}
    for i in range(len(BIVLC_ROWS)):
        for slot, column in enumerate(cells):
            path = folder / f"{i}_{slot}.png"
            path.write_bytes(png_bytes(fixture_colour(i, slot)))
            cells[column].append({"bytes": None, "path": str(path)})
    columns = {k: [row[k] for row in BIVLC_ROWS] for k in BIVLC_ROWS[0]}
    source = work / "by_path.parquet"
    datasets.Dataset.from_dict({**columns, **cells}, features=BIVLC_FEATURES).to_parquet(
        str(source)
    )
    assert pq.read_table(source).column("image").to_pylist()[0]["bytes"] is None
    result = build_benchmark("bivlc", out=work / "by_path", source=source, reference=reference_file)
    table = pq.read_table(result.path / "full" / "test-00000-of-00001.parquet")
    assert [cell["bytes"] for cell in table.column("image").to_pylist()] == [
        png_bytes(fixture_colour(i, 0)) for i in range(len(BIVLC_ROWS))
    ]


# -------------------------------------------------------------------------------- ARO
def test_aro_build_from_the_original_layout(work):
    records = [
        aro_record(0, "white", "dog", "black", "cat"),  # true caption familiar, false not
        aro_record(1, "wooden", "table", "red", "chair"),
        aro_record(2, "red", "car", "blue", "car"),  # swap on one object: same bindings
        aro_record(3, "red", "bus", "red", "bus"),
    ]
    folder = make_aro_source(work / "aro_src", records=records, image_format="PNG")
    reference = work / "aro_reference.txt"
    reference.write_text("\n".join(REFERENCE) + "\n")
    result = build_benchmark("aro_vga", out=work / "aro_build", source=folder, reference=reference)
    full = datasets.load_dataset(str(result.path), "full", split="test")
    assert full["bindsplit_label"] == ["partial", "partial", "seen", "unseen"]
    assert full["caption_familiarity"] == [[1.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]]
    assert full["asymmetric"] == [True, True, False, False]
    assert full[0]["image"].size == (records[0]["bbox_w"], records[0]["bbox_h"])
    assert full[0]["bbox_x"] == records[0]["bbox_x"] and full[0]["attributes"] == ["white", "black"]
    composition = result.manifest["composition"]
    assert composition["positive_seen_rate"] == 6 / 7 and composition["negative_seen_rate"] == 2 / 7
    assert composition["asymmetric_share"] == 0.5
    assert result.manifest["source"]["layout"] == "original"
    unseen = datasets.load_dataset(str(result.path), "unseen", split="test")
    assert unseen["true_caption"] == ["the red bus and the red bus"]


# ------------------------------------------------------------------------ leakage guard
def test_leaking_reference_is_refused_unless_overridden(work, bivlc_source):
    leaky = work / "leaky.txt"
    leaky.write_text("\n".join([*REFERENCE, "A purple car."]) + "\n")
    out = work / "leaky_build"
    # "a purple car" is a positive caption three times (twice `caption`, once `negative_caption`)
    with pytest.raises(
        LeakageError, match=r"contains 3 of BiVLC's own positive captions.*--allow-leakage"
    ):
        build_benchmark("bivlc", out=out, source=bivlc_source, reference=leaky)
    assert siblings(out) == []
    result = build_benchmark(
        "bivlc", out=out, source=bivlc_source, reference=leaky, allow_leakage=True
    )
    assert result.manifest["leakage"] == {"overlap": 3, "override": True}
    card = (out / "README.md").read_text()
    assert "Leakage override" in card and "3 of this benchmark's own positive captions" in card


def test_an_adapter_without_the_guard_builds_and_says_so(work, bivlc_source, monkeypatch):
    from bindsplit_datasets.benchmarks.bivlc import BiVLC

    monkeypatch.setattr(BiVLC, "leakage_guard", False)  # as the synthetic benchmark declares
    leaky = work / "own_corpus.txt"
    leaky.write_text("\n".join([*REFERENCE, "a purple car"]) + "\n")
    result = build_benchmark("bivlc", out=work / "unguarded", source=bivlc_source, reference=leaky)
    assert result.manifest["leakage"] == {"overlap": 3, "override": False, "guard": False}
    card = (result.path / "README.md").read_text()
    assert "Leakage check: off for this benchmark" in card and "Leakage override" not in card


# ------------------------------------------------------------------------------ bad input
def test_bad_input_is_named_and_leaves_nothing(work, bivlc_source, reference_file):
    out = work / "bad"
    with pytest.raises(ValueError, match="unknown benchmark 'nope'.*aro_vga.*bivlc.*vismin"):
        build_benchmark("nope", out=out, source=bivlc_source, reference=reference_file)
    missing = make_bivlc_source(work / "missing.parquet", BIVLC_ROWS, drop_columns={"subtype"})
    with pytest.raises(ValueError, match=r"missing column\(s\) \['subtype'\]"):
        build_benchmark("bivlc", out=out, source=missing, reference=reference_file)
    broken = make_bivlc_source(work / "broken.parquet", BIVLC_ROWS, unreadable_images={4})
    with pytest.raises(BindsplitError, match="row 4, column 'image': unreadable image"):
        build_benchmark("bivlc", out=out, source=broken, reference=reference_file, strict=True)
    with pytest.raises(ValueError, match="vismin does not accept|bivlc does not accept"):
        build_benchmark(
            "bivlc",
            out=out,
            source=bivlc_source,
            reference=reference_file,
            source_options={"sim_solution": "x.csv"},
        )
    with pytest.raises(FileNotFoundError, match="reference file"):
        build_benchmark("bivlc", out=out, source=bivlc_source, reference=work / "none.txt")
    assert siblings(out) == []
    # without --strict the unreadable row is counted, reported and left out
    result = build_benchmark("bivlc", out=out, source=broken, reference=reference_file)
    assert result.manifest["source_report"]["problems"] == {"unreadable_image": 1}
    assert result.manifest["configs"]["full"] == 5
    assert "dropped 1 row(s)" in (out / "README.md").read_text()


def test_unknown_configuration_is_named(bivlc_source, reference_file):
    prepared = prepare_benchmark("bivlc", source=bivlc_source, reference=reference_file)
    with pytest.raises(
        ValueError, match="unknown configuration 'half'.*full, seen, unseen, partial"
    ):
        prepared.config_indices("half")
    with pytest.raises(ValueError, match="BuilderConfig 'half' not found"):
        BindSplitBuilder(config_name="half", benchmark="bivlc", source=str(bivlc_source))


# ---------------------------------------------------------------------- datasets builder
def test_builder_class_prepares_one_configuration_offline(
    work, bivlc_build, bivlc_source, reference_file
):
    builder = BindSplitBuilder(
        config_name="unseen",
        benchmark="bivlc",
        source=str(bivlc_source),
        reference=str(reference_file),
        cache_dir=str(work / "builder_cache"),
    )
    assert builder.config.configuration == "unseen" and builder.config.min_count == 1
    builder.download_and_prepare()
    unseen = builder.as_dataset(split="test")
    built = datasets.load_dataset(str(bivlc_build.path), "unseen", split="test")
    assert unseen.features == built.features
    assert (
        unseen.remove_columns(["image", "negative_image"]).to_list()
        == built.remove_columns(["image", "negative_image"]).to_list()
    )
    assert unseen[0]["image"].convert("RGB").getpixel((1, 1)) == fixture_colour(1, 0)
    with pytest.raises(ValueError, match="needs benchmark=NAME"):
        BindSplitBuilder(config_name="full")


def test_builder_class_refuses_an_empty_configuration(work, reference_file):
    source = make_bivlc_source(work / "only_unseen.parquet", BIVLC_ROWS[1:2])
    builder = BindSplitBuilder(
        config_name="seen",
        benchmark="bivlc",
        source=str(source),
        reference=str(reference_file),
        cache_dir=str(work / "builder_cache_empty"),
    )
    with pytest.raises(BindsplitError, match="configuration 'seen' of bivlc has no rows"):
        builder.download_and_prepare()


# ---------------------------------------------------------------------------- commands
VISMIN_ROWS = [
    {"text_0": "a red car", "text_1": "a purple car", "category": "attribute"},
    {"text_0": "a golden dog", "text_1": "a purple dog", "category": "attribute"},
    {"text_0": "a white dog", "text_1": "a black cat", "category": "object"},
]


def test_build_command_with_sim_solution(work, reference_file, capsys):
    source = make_vismin_source(work / "vismin.parquet", VISMIN_ROWS, swapped={1})
    solution = make_sim_solution(
        work / "sim_solution.csv", [r["category"] for r in VISMIN_ROWS], swapped={1}
    )
    out = work / "vismin_build"
    code = cli.main(
        [
            "build",
            "vismin",
            "--source",
            str(source),
            "--reference",
            str(reference_file),
            "--out",
            str(out),
            "--sim-solution",
            str(solution),
            "--repo-id",
            "me/vismin-split",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}" in printed and "1 of 3 samples have text_0 matching image_1" in printed
    full = datasets.load_dataset(str(out), "full", split="test")
    assert full[1]["image_0"].convert("RGB").getpixel((1, 1)) == fixture_colour(1, 0)
    assert full["bindsplit_label"] == ["partial", "unseen", "seen"]
    assert (
        'load_dataset("me/vismin-split", "unseen", split="test")' in (out / "README.md").read_text()
    )


def test_stats_command_prints_the_table_beside_the_paper_and_writes_nothing(
    work, bivlc_source, reference_file, capsys
):
    before = sorted(p.name for p in work.iterdir())
    code = cli.main(
        ["stats", "bivlc", "--source", str(bivlc_source), "--reference", str(reference_file)]
    )
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("BiVLC: 6 samples; reference ")
    assert lines[1].split() == ["n", "share", "paper"]
    assert lines[2].split() == ["seen", "1", "16.7%"]
    assert lines[3].split() == [
        "unseen",
        "2",
        "33.3%",
        "1.8%",
    ]  # the paper's BiVLC figure beside ours
    assert lines[5].split() == ["none", "1", "16.7%"]
    assert any(
        line.split()[:4] == ["positive-caption", "bindings", "seen", "40.0%"] for line in lines
    )
    assert sorted(p.name for p in work.iterdir()) == before


def test_without_reference_the_benchmark_default_is_used(
    bivlc_source, reference_file, monkeypatch, capsys
):
    from bindsplit_datasets.benchmarks.bivlc import BiVLC

    assert get_benchmark("bivlc").default_reference() == "coco2017"
    monkeypatch.setattr(BiVLC, "default_reference", lambda self, source=None: reference_file)
    assert cli.main(["stats", "bivlc", "--source", str(bivlc_source)]) == 0
    assert capsys.readouterr().out.splitlines()[3].split() == ["unseen", "2", "33.3%", "1.8%"]


def test_commands_report_bad_input_without_traceback(work, bivlc_source, reference_file, capsys):
    code = cli.main(
        ["stats", "winoground", "--source", str(bivlc_source), "--reference", str(reference_file)]
    )
    assert code == 2
    assert (
        "unknown benchmark 'winoground'; known benchmarks: aro_vga (alias: aro), bivlc"
        in capsys.readouterr().err
    )
    out = work / "cli_leak"
    leaky = work / "cli_leaky.txt"
    leaky.write_text("a golden dog\n")
    code = cli.main(
        [
            "build",
            "bivlc",
            "--source",
            str(bivlc_source),
            "--reference",
            str(leaky),
            "--out",
            str(out),
        ]
    )
    assert code == 2
    assert "--allow-leakage" in capsys.readouterr().err
    assert not out.exists()
