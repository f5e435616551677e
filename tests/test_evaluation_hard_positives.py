"""A build with hard positives (the manifest's ``columns.hard_positive``), end to end: its record
reports I2T with the hard positives, the original I2T and their drop; the record validates, is
consistent, prints, and flattens into the results table; the scores file keeps the count; a tiny
CLIP scored by ``evaluate_model`` and ``bindsplit eval`` agrees with a naive per-sample forward.

The build is written here by hand, as ``bindsplit build`` writes a SugarCrepe++-shaped one: one
image, a positive caption, a hard positive (``caption2``) and a negative, in that column order.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import datasets
import numpy as np
import pytest
from build_folders import write_configurations
from PIL import Image

from bindsplit_datasets import cli
from bindsplit_datasets.builds.features import ANNOTATION_FEATURES, LABEL_FEATURE
from bindsplit_datasets.builds.manifest import BuildColumns, rows_fingerprint
from bindsplit_datasets.errors import SchemaError
from bindsplit_datasets.evaluation import evaluate_scores
from bindsplit_datasets.metric_core import accumulate, compute_metrics
from bindsplit_datasets.reports.results import load_results, validate_record, write_record
from bindsplit_datasets.reports.results_table import results_table, table_records
from bindsplit_datasets.reports.tables import HARD_POSITIVE_NOTE, format_record_table
from bindsplit_datasets.scoring.scores_file import read_scores, write_scores

IMAGES = ("image",)
CAPTIONS = ("caption", "caption2", "negative_caption")
COLUMNS = BuildColumns(image=IMAGES, caption=CAPTIONS, hard_positive=("caption2",))
CONFIGS = ("full", "seen", "unseen", "partial")

# per row: the label and a hand-written 1 x 3 score matrix [positive, hard positive, negative]
# with, by hand, I2T with the hard positive and without it (docs/protocol.md section 5)
ROWS = [
    ("seen", [[0.9, 0.8, 0.5]], True, True),
    ("seen", [[0.9, 0.4, 0.5]], False, True),  # the hard positive loses: dropped
    ("seen", [[0.6, 0.7, 0.6]], False, False),  # a tie with the negative is wrong
    ("unseen", [[0.7, 0.5, 0.5]], False, True),  # the hard positive ties the negative: dropped
    ("partial", [[0.3, 0.9, 0.8]], False, False),
    ("unseen", [[0.8, 0.8, 0.2]], True, True),  # the two right captions tie: no matter
]


def png(seed: int) -> bytes:
    pixels = np.random.default_rng(seed).integers(0, 256, (20, 24, 3), dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    return buffer.getvalue()


def hard_positive_rows() -> datasets.Dataset:
    """SugarCrepe++-shaped rows (one image; positive, hard positive, negative) with BindSplit's
    annotation columns, the label stored as a build stores it (the ClassLabel's index)."""
    captions = [  # short: the tiny CLIP reads 30 characters
        ("a red apple", "an apple that is red", "a green apple"),
        ("a dog by a blue mug", "a blue mug by a dog", "a dog by a red mug"),
    ]
    rows: dict[str, list] = {name: [] for name in ("image", *CAPTIONS, *ANNOTATION_FEATURES)}
    for index, (label, *_) in enumerate(ROWS):
        seen = label == "seen"
        rows["image"].append({"bytes": png(index % 4), "path": None})
        for column, text in zip(CAPTIONS, captions[index % 2], strict=True):
            rows[column].append(f"{text} {index}")
        binding = [{"attribute": "red", "object": "apple", "count": int(seen), "seen": seen}]
        rows["caption_bindings"].append([binding] * 3)
        rows["caption_familiarity"].append([float(seen)] * 3)
        rows["asymmetric"].append(False)
        rows["balanced"].append(seen)
        rows["bindsplit_label"].append(LABEL_FEATURE.str2int(label))
    features = datasets.Features(
        {"image": datasets.Image(), **{c: datasets.Value("string") for c in CAPTIONS}}
    )
    return datasets.Dataset.from_dict(
        rows, features=datasets.Features({**features, **ANNOTATION_FEATURES})
    )


def write_build(folder: Path, dataset: datasets.Dataset) -> Path:
    """The folder `bindsplit build` writes: a Parquet shard per configuration, the README's
    configurations and the manifest, whose ``columns.hard_positive`` names ``caption2``."""
    sizes = write_configurations(folder, dataset, CONFIGS, "hard positives")
    manifest = {
        "format": "bindsplit-build/2",
        "benchmark": "sugarcrepe_pp_like",
        "pretty_name": "a SugarCrepe++-shaped test build",
        "reference": {"corpus": "test"},
        "configs": sizes,
        "fingerprint": rows_fingerprint(dataset, IMAGES),
        "columns": COLUMNS.to_dict(),
    }
    (folder / "bindsplit.json").write_text(json.dumps(manifest))
    return folder


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    return write_build(tmp_path_factory.mktemp("build") / "hard", hard_positive_rows())


@pytest.fixture(scope="module")
def record(build) -> dict:
    scores = {str(index): matrix for index, (_, matrix, _, _) in enumerate(ROWS)}
    return evaluate_scores(scores, build, name="hand", n_bootstrap=0)


def test_the_manifest_names_the_hard_positive_column(build):
    manifest = json.loads((build / "bindsplit.json").read_text())
    assert manifest["columns"]["hard_positive"] == ["caption2"]
    assert BuildColumns.from_dict(manifest["columns"]) == COLUMNS


def test_record_reports_hard_positive_i2t_original_and_drop_by_hand(record):
    metrics = record["metrics"]
    # by hand, from ROWS: full 6 samples, right with 2, right without 4, dropped 2
    by_hand = {"full": (6, 2, 4, 2), "seen": (3, 1, 2, 1), "unseen": (2, 1, 2, 1)}
    by_hand["partial"] = (1, 0, 0, 0)
    for config, (n, right, original, dropped) in by_hand.items():
        assert metrics[f"{config}/n"] == n
        assert metrics[f"{config}/i2t"] == pytest.approx(right / n)
        assert metrics[f"{config}/i2t_original"] == pytest.approx(original / n)
        assert metrics[f"{config}/i2t_drop"] == pytest.approx(dropped / n)
        assert f"{config}/i2t_drop_ci" in metrics and f"{config}/t2i" not in metrics
    assert metrics["gap/i2t_drop"] == pytest.approx(1 / 3 - 1 / 2)
    assert metrics["drop_interval_method"] == "wilson"
    # the balanced configuration (the seen rows here) has them too
    assert metrics["balanced/i2t_original"] == pytest.approx(2 / 3)
    samples = record["samples"]
    assert samples["i2t"] == [int(hard) for *_, hard, _ in ROWS]
    assert samples["i2t_original"] == [int(original) for *_, original in ROWS]
    assert "t2i" not in samples
    validate_record(record)


def test_the_record_equals_the_metric_with_the_builds_count(record):
    scores = [matrix for _, matrix, _, _ in ROWS]
    labels = [label for label, *_ in ROWS]
    stats = accumulate(
        scores, labels, balanced=[label == "seen" for label in labels], hard_positives=[1] * 6
    )
    assert record["metrics"] == compute_metrics(stats, n_bootstrap=0)
    # without the count, the hard positive would be read as a negative of image 0
    plain = compute_metrics(accumulate(scores, labels), n_bootstrap=0)
    assert plain["full/i2t"] != record["metrics"]["full/i2t_original"]


def test_written_record_reads_back_and_edits_are_refused(record, tmp_path):
    path = write_record(record, tmp_path / "hard.json")
    (read,) = load_results([path])
    assert read["metrics"] == record["metrics"]
    incomplete = copy.deepcopy(record)
    del incomplete["metrics"]["unseen/i2t_original"]
    with pytest.raises(SchemaError, match=r"metrics\['unseen/i2t_original'\] is missing"):
        validate_record(incomplete)
    no_drop_gap = copy.deepcopy(record)
    del no_drop_gap["metrics"]["gap/i2t_drop"]
    with pytest.raises(SchemaError, match=r"metrics\['gap/i2t_drop'\] is missing"):
        validate_record(no_drop_gap)
    edited = copy.deepcopy(record)
    edited["metrics"]["full/i2t_drop"] = 0.5
    edited["metrics"]["full/i2t_drop_ci"] = [0.1, 0.9]
    with pytest.raises(SchemaError, match=r"full/i2t_drop = 0.5 but its samples answer 2 of 6"):
        validate_record(edited)
    impossible = copy.deepcopy(record)
    impossible["samples"]["i2t_original"][0] = 0  # right with the hard positive, not without
    with pytest.raises(SchemaError, match="right with its hard positives .* wrong without them"):
        validate_record(impossible)
    bad_method = copy.deepcopy(record)
    bad_method["metrics"]["drop_interval_method"] = "newcombe"
    with pytest.raises(SchemaError, match="drop_interval_method"):
        validate_record(bad_method)


def test_the_printout_shows_the_original_and_the_drop(record):
    table = format_record_table(record)
    header = next(line for line in table.splitlines() if line.startswith("configuration"))
    assert header.split() == [
        "configuration",
        "n",
        "I2T",
        "T2I",
        "group",
        "I2T",
        "original",
        "I2T",
        "drop",
    ]
    full = next(line for line in table.splitlines() if line.startswith("full"))
    assert "33.3 [" in full and "66.7 [" in full  # I2T 2/6 and the drop 2/6; original 4/6
    assert HARD_POSITIVE_NOTE in table


def test_the_results_table_has_rows_of_the_original_and_the_drop(record):
    rows = results_table([record]).to_pylist()
    by_key = {(row["configuration"], row["metric"]): row for row in rows}
    assert by_key[("full", "i2t_original")]["value"] == pytest.approx(4 / 6)
    drop = by_key[("full", "i2t_drop")]
    assert (drop["value"], drop["n"], drop["interval_method"]) == (
        pytest.approx(2 / 6),
        6,
        "wilson",
    )
    gap = by_key[("gap_seen_unseen", "i2t_drop")]
    assert gap["interval_method"] == "newcombe" and gap["n"] == 2
    metrics = [row["metric"] for row in rows if row["configuration"] == "full"]
    assert metrics == ["i2t", "i2t_original", "i2t_drop"]
    (back,) = table_records(results_table([record]))
    assert back["metrics"]["drop_interval_method"] == "wilson"
    assert back["metrics"]["full/i2t_drop_ci"] == record["metrics"]["full/i2t_drop_ci"]


def test_the_scores_file_keeps_the_number_of_hard_positives(tmp_path):
    scores = [matrix for _, matrix, _, _ in ROWS]
    labels = [label for label, *_ in ROWS]
    ids = [str(i) for i in range(6)]
    write_scores(tmp_path / "hard.parquet", scores, labels, ids=ids, hard_positives=1)
    arguments = read_scores(tmp_path / "hard.parquet")
    assert arguments["hard_positives"] == [1] * 6
    assert accumulate(**arguments) == accumulate(scores, labels, hard_positives=[1] * 6)
    write_scores(tmp_path / "plain.parquet", scores, labels, ids=ids)
    assert "hard_positives" not in read_scores(tmp_path / "plain.parquet")


# -- a tiny CLIP, end to end -------------------------------------------------------------------


@pytest.mark.slow  # the model stack
@pytest.mark.usefixtures("fresh_accelerate")
def test_a_tiny_clip_on_the_build_equals_a_naive_forward(build, tmp_path, capsys):
    from tiny_models import naive_scores, reset_accelerate, tiny_clip

    from bindsplit_datasets import evaluate_model

    model, processor = tiny_clip(seed=4)  # right on 3 rows, dropped on 2, wrong on 1
    rows = hard_positive_rows()
    labels = [label for label, *_ in ROWS]
    record = evaluate_model(model, build, processor=processor, n_bootstrap=0, batch_size=4)
    matrices = naive_scores(model, processor, rows, IMAGES, CAPTIONS)
    flags = [label == "seen" for label in labels]
    stats = accumulate(matrices, labels, balanced=flags, hard_positives=[1] * len(ROWS))
    assert record["metrics"] == compute_metrics(stats, n_bootstrap=0)
    outcomes = list(zip(record["samples"]["i2t"], record["samples"]["i2t_original"], strict=True))
    assert sorted(set(outcomes)) == [(0, 0), (0, 1), (1, 1)]  # every kind of outcome occurs
    # the original I2T is the benchmark scored without its hard-positive column
    original = compute_metrics(
        accumulate(np.delete(matrices, 1, axis=2), labels, balanced=flags), n_bootstrap=0
    )
    for config in CONFIGS:
        assert record["metrics"][f"{config}/i2t_original"] == pytest.approx(
            original[f"{config}/i2t"]
        )
        assert record["metrics"][f"{config}/i2t_drop"] == pytest.approx(
            original[f"{config}/i2t"] - record["metrics"][f"{config}/i2t"]
        )
    validate_record(record)

    # the command line: the record, the printout and the scores file all carry them
    folder = tmp_path / "clip"
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    out, scores = tmp_path / "clip.json", tmp_path / "scores.parquet"
    reset_accelerate()
    args = ["eval", "--model", str(folder), "--data", str(build), "--out", str(out)]
    assert cli.main([*args, "--save-scores", str(scores), "--n-bootstrap", "0"]) == 0
    printed = capsys.readouterr().out
    assert "I2T original" in printed and "I2T drop" in printed and HARD_POSITIVE_NOTE in printed
    (written,) = load_results([out])
    assert written["metrics"] == record["metrics"]
    # the scores file alone re-aggregates to the same metrics, hard positives included
    assert read_scores(scores)["hard_positives"] == [1] * len(ROWS)
    assert compute_metrics(accumulate(**read_scores(scores)), n_bootstrap=0) == written["metrics"]
    imported = tmp_path / "imported.json"
    assert (
        cli.main(
            [
                "eval",
                "--scores",
                str(scores),
                "--data",
                str(build),
                "--name",
                "m",
                "--out",
                str(imported),
                "--n-bootstrap",
                "0",
            ]
        )
        == 0
    )
    assert json.loads(imported.read_text())["metrics"] == written["metrics"]
