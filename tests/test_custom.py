"""``bindsplit build custom``: any table of images and captions, named by its columns or by a spec
file; CSV, JSON lines and Parquet sources with images as bytes or paths relative to the table;
labels known by construction; wrong columns in one line; the mapping on the card and in the
fingerprint."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import datasets
import pytest
import yaml
from fixtures_sources import UNREADABLE, centre_colour, fixture_colour, label_names, png_bytes

from bindsplit_datasets import cli
from bindsplit_datasets.benchmarks.custom import custom_adapter, custom_spec
from bindsplit_datasets.builds.builder import build_benchmark
from bindsplit_datasets.builds.manifest import rows_fingerprint, verify_build
from bindsplit_datasets.errors import BindsplitError, SchemaError

REFERENCE = ["a red car on the road", "a white dog on the grass", "a black cat on a sofa"]
#: (good, bad_a, bad_b, label, familiarity): the labels and familiarities by construction.
ROWS = [
    ("a red car", "a white car", "a black car", "partial", [1.0, 0.0, 0.0]),
    ("a white dog", "a white dog", "a black cat", "seen", [1.0, 1.0, 1.0]),
    ("a purple car", "a golden car", "a golden dog", "unseen", [0.0, 0.0, 0.0]),
]
COLUMNS = ["picture", "good", "bad_a", "bad_b"]


@pytest.fixture
def reference(tmp_path) -> Path:
    path = tmp_path / "reference.txt"
    path.write_text("\n".join(REFERENCE) + "\n", encoding="utf-8")
    return path


def write_images(folder: Path, n: int, *, unreadable: int | None = None) -> list[str]:
    """``n`` PNGs ``images/{i}.png`` under ``folder``; their paths relative to it."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    names = []
    for i in range(n):
        data = UNREADABLE if i == unreadable else png_bytes(fixture_colour(i, 0))
        (folder / "images" / f"{i}.png").write_bytes(data)
        names.append(f"images/{i}.png")
    return names


def write_csv(folder: Path, **images: int) -> Path:
    paths = write_images(folder, len(ROWS), **images)
    path = folder / "table.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        writer.writerows([image, *row[:3]] for image, row in zip(paths, ROWS, strict=True))
    return path


def run(*args: str) -> int:
    return cli.main(list(args))


def test_a_csv_table_with_its_own_column_names_builds(tmp_path, reference, capsys):
    table = write_csv(tmp_path / "source")
    out = tmp_path / "build"
    code = run(
        "build", "custom", "--source", str(table), "--image-columns", "picture",
        "--caption-columns", "good,bad_a,bad_b", "--reference", str(reference), "--out", str(out),
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    manifest = verify_build(out)
    assert manifest["benchmark"] == "custom"
    assert manifest["columns"]["image"] == ["picture"]
    assert manifest["columns"]["caption"] == ["good", "bad_a", "bad_b"]
    assert manifest["source"]["mapping"] == {
        "id": None,
        "image": ["picture"],
        "positive": ["good"],
        "hard_positive": [],
        "negative": ["bad_a", "bad_b"],
        "categories": [],
    }
    full = datasets.load_dataset(str(out), "full", split="test")
    assert label_names(full) == [row[3] for row in ROWS]
    assert full["caption_familiarity"] == [row[4] for row in ROWS]
    assert full["asymmetric"] == [True, False, False]
    # the images were read from the paths relative to the table, and embedded
    assert [centre_colour(image) for image in full["picture"]] == [
        fixture_colour(i, 0) for i in range(3)
    ]
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "Mapping: a table built with `bindsplit build custom`" in card
    assert "negatives: `bad_a`, `bad_b`" in card
    assert str(tmp_path) not in card and str(tmp_path) not in (out / "bindsplit.json").read_text()


def test_hard_positives_follow_the_positives_and_count_as_positive(tmp_path, reference):
    table = write_csv(tmp_path / "source")
    spec = custom_spec(
        image_columns=["picture"],
        caption_columns=["good", "bad_b"],
        hard_positive_columns=["bad_a"],
        name="mine",
    )
    result = build_benchmark(
        custom_adapter(spec), out=tmp_path / "build", source=table, reference=reference
    )
    columns = result.manifest["columns"]
    assert columns["caption"] == ["good", "bad_a", "bad_b"]
    assert columns["hard_positive"] == ["bad_a"]
    assert result.manifest["benchmark"] == "mine"
    full = datasets.load_dataset(str(result.path), "full", split="test")
    # row 0: (red, car) seen, hard positive (white, car) unseen, negative (black, car) unseen:
    # a positive familiarity (1.0, 0.0) differs from the negative's (0.0), so asymmetric
    assert full["caption_familiarity"][0] == [1.0, 0.0, 0.0]
    assert full["asymmetric"] == [True, False, False]
    composition = result.manifest["composition"]
    assert composition["n_positive_captions"] == 6 and composition["n_negative_captions"] == 3
    # positives: red car, white car | white dog, white dog | purple car, golden car
    assert composition["positive_seen_rate"] == 3 / 6
    # negatives: black car | black cat | golden dog
    assert composition["negative_seen_rate"] == 1 / 3


def test_the_mapping_is_part_of_the_fingerprint(tmp_path, reference):
    table = write_csv(tmp_path / "source")
    builds = {}
    for name, captions in (
        ("one", ["good", "bad_a", "bad_b"]),
        ("two", ["good", "bad_b", "bad_a"]),
    ):
        spec = custom_spec(image_columns=["picture"], caption_columns=captions)
        builds[name] = build_benchmark(
            custom_adapter(spec), out=tmp_path / name, source=table, reference=reference
        )
    one, two = (builds[name].manifest for name in ("one", "two"))
    assert one["fingerprint"] != two["fingerprint"]
    full = datasets.load_dataset(str(tmp_path / "one"), "full", split="test")
    # the rows alone give another fingerprint: the mapping is hashed in, as verification does
    assert rows_fingerprint(full, ["picture"]) != one["fingerprint"]
    assert (
        rows_fingerprint(full, ["picture"], mapping=one["source"]["mapping"])
        == (one["fingerprint"])
    )


def test_json_lines_and_parquet_tables_build_alike(tmp_path, reference):
    folder = tmp_path / "source"
    paths = write_images(folder, len(ROWS))
    records = [
        dict(zip(COLUMNS, [image, *row[:3]], strict=True))
        for image, row in zip(paths, ROWS, strict=True)
    ]
    lines = folder / "table.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    parquet = folder / "table.parquet"
    features = datasets.Features(
        {"picture": datasets.Image(), **dict.fromkeys(COLUMNS[1:], datasets.Value("string"))}
    )
    with_bytes = [
        {**r, "picture": {"bytes": png_bytes(fixture_colour(i, 0)), "path": None}}
        for i, r in enumerate(records)
    ]
    datasets.Dataset.from_list(with_bytes, features=features).to_parquet(str(parquet))
    fingerprints = set()
    for source in (lines, parquet):
        spec = custom_spec(image_columns=["picture"], caption_columns=["good", "bad_a", "bad_b"])
        result = build_benchmark(
            custom_adapter(spec),
            out=tmp_path / source.suffix[1:],
            source=source,
            reference=reference,
        )
        full = datasets.load_dataset(str(result.path), "full", split="test")
        assert label_names(full) == [row[3] for row in ROWS]
        fingerprints.add(result.manifest["fingerprint"])
    assert len(fingerprints) == 1  # the same images and captions, the same build


def test_wrong_columns_get_one_line_naming_the_columns_the_table_has(tmp_path, capsys):
    table = write_csv(tmp_path / "source")
    code = run(
        "build", "custom", "--source", str(table), "--image-columns", "image",
        "--caption-columns", "good,bad", "--reference", "never-read.txt", "--out",
        str(tmp_path / "build"),
    )  # fmt: skip
    error = capsys.readouterr().err
    assert code == 2 and len(error.strip().splitlines()) == 1
    assert "has no column(s) ['image', 'bad']" in error
    assert "its columns are ['picture', 'good', 'bad_a', 'bad_b']" in error
    assert not (tmp_path / "build").exists()


def test_an_unreadable_image_is_counted_and_dropped_or_fails_with_strict(tmp_path, reference):
    table = write_csv(tmp_path / "source", unreadable=1)
    spec = custom_spec(image_columns=["picture"], caption_columns=["good", "bad_a"])
    result = build_benchmark(
        custom_adapter(spec), out=tmp_path / "build", source=table, reference=reference
    )
    assert result.manifest["configs"]["full"] == 2
    assert result.manifest["source_report"]["problems"] == {"unreadable_image": 1}
    with pytest.raises(BindsplitError, match="row 1, column 'picture': unreadable image"):
        build_benchmark(
            custom_adapter(spec), out=tmp_path / "strict", source=table, reference=reference,
            strict=True,
        )  # fmt: skip


def test_a_spec_file_gives_the_columns_roles_and_name(tmp_path, reference):
    table = write_csv(tmp_path / "source")
    spec_file = tmp_path / "mine.yaml"
    spec_file.write_text(
        yaml.safe_dump(
            {
                "name": "my_table",
                "pretty_name": "My table",
                "license": "cc-by-4.0",
                "columns": {
                    "images": ["picture"],
                    "captions": {
                        "positive": ["good"],
                        "hard_positive": ["bad_a"],
                        "negative": ["bad_b"],
                    },
                },
            }
        ),
        encoding="utf-8",
    )
    out = tmp_path / "build"
    code = run(
        "build", "custom", "--source", str(table), "--spec", str(spec_file), "--reference",
        str(reference), "--out", str(out),
    )  # fmt: skip
    assert code == 0
    manifest = verify_build(out)
    assert (manifest["benchmark"], manifest["pretty_name"]) == ("my_table", "My table")
    assert manifest["columns"]["hard_positive"] == ["bad_a"]
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "license: cc-by-4.0" in card and "My table: no citation was given." in card


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["custom", "--image-columns", "picture"], "needs --image-columns and --caption-columns"),
        (["bivlc", "--image-columns", "picture"], r"--image-columns describe\(s\) a table"),
        (
            ["custom", "--spec", "x.yaml", "--image-columns", "a", "--caption-columns", "b"],
            "--spec gives the columns.*leave out --image-columns, --caption-columns",
        ),
        (
            ["custom", "--image-columns", "a,b", "--caption-columns", "c"],
            "2 image column.* need at least as many caption columns",
        ),
        (
            ["custom", "--image-columns", "a", "--caption-columns", "b", "--name", "winoground"],
            "'winoground' is a shipped benchmark",
        ),
    ],
)
def test_bad_custom_options_are_refused_in_one_line(tmp_path, capsys, args, message):
    code = run("build", *args, "--source", str(tmp_path), "--out", str(tmp_path / "out"))
    error = capsys.readouterr().err
    assert code == 2 and len(error.strip().splitlines()) == 1
    assert re.search(message, error), error


def test_an_empty_column_name_is_an_argument_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        run("build", "custom", "--image-columns", "a,", "--caption-columns", "b", "--out", "x")
    assert exit_.value.code == 2
    assert "expected column names separated by commas, got 'a,'" in capsys.readouterr().err


def test_a_table_without_rows_or_not_a_table_is_named(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("picture,good\n", encoding="utf-8")
    spec = custom_spec(image_columns=["picture"], caption_columns=["good"])
    with pytest.raises(SchemaError, match="empty.csv holds no rows"):
        custom_adapter(spec).load(empty)
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(SchemaError, match="broken.jsonl is not a readable JSON lines table"):
        custom_adapter(spec).load(broken)
