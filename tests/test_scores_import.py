"""Imported scores: a CLIP run's --save-scores file re-imported reproduces every metric exactly;
score files that do not fit the build are refused in one line naming the sample (exit 2)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd
import pytest
from tiny_models import reset_accelerate, tiny_bivlc_like, tiny_clip
from tiny_models import write_fake_build as fake_build

from bindsplit_datasets import cli
from bindsplit_datasets.errors import ScoresFileError
from bindsplit_datasets.evaluation import evaluate_scores
from bindsplit_datasets.reports.results import load_results

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("test_adapters", "fresh_accelerate")]


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    rows = tiny_bivlc_like(12, n_images=5)
    return fake_build(tmp_path_factory.mktemp("build") / "bivlc_like", rows, "_test_bivlc_like")


@pytest.fixture(scope="module")
def clip_run(build, tmp_path_factory) -> tuple[Path, Path]:
    """A CLIP run's record and its --save-scores file."""
    folder = tmp_path_factory.mktemp("run")
    model, processor = tiny_clip(seed=5)
    model.save_pretrained(folder / "clip")
    processor.save_pretrained(folder / "clip")
    out, scores = folder / "a.json", folder / "s.parquet"
    args = ["eval", "--model", str(folder / "clip"), "--data", str(build), "--out", str(out)]
    assert cli.main([*args, "--save-scores", str(scores), "--n-bootstrap", "200"]) == 0
    reset_accelerate()
    return out, scores


def test_reimported_scores_reproduce_every_metric(build, clip_run, tmp_path, capsys):
    record_a, scores = clip_run
    out = tmp_path / "b.json"
    args = ["eval", "--scores", str(scores), "--data", str(build), "--name", "M2"]
    assert (
        cli.main([*args, "--out", str(out), "--model-revision", "v7", "--n-bootstrap", "200"]) == 0
    )
    assert "results written to" in capsys.readouterr().out
    a, b = load_results([record_a, out])  # both pass validation and their digests
    assert b["metrics"] == a["metrics"] and b["samples"] == a["samples"]
    assert b["model"]["id"] == "M2" and b["model"]["revision"] == "v7"
    assert b["model"]["scored_by"] == "imported" and a["model"]["scored_by"] == "encoder"
    assert b["model"]["scores_file"] == {
        "name": "s.parquet",
        "sha256": hashlib.sha256(scores.read_bytes()).hexdigest(),
    }
    # a file with only the two required columns, from plain pandas, in another row order
    table = pd.read_parquet(scores)[["id", "scores"]].iloc[::-1]
    table.to_parquet(tmp_path / "plain.parquet")
    plain = evaluate_scores(tmp_path / "plain.parquet", build, name="M3", n_bootstrap=200)
    assert plain["metrics"] == a["metrics"]
    # a compare mixes encoder and imported records like any others
    assert cli.main(["compare", str(record_a), str(out)]) == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("missing", "has no scores for sample '3' (1 of 12 missing)"),
        ("unknown", "holds sample id 'zz-99' that the build does not have"),
        ("nan", "sample '4' has a score that is not finite"),
        ("shape", "sample '5' has a 2x3 score matrix; it must be 2x2"),
        ("repeated", "holds sample '6' more than once"),
    ],
)
def test_bad_score_files_are_refused_naming_the_sample(
    build, clip_run, tmp_path, capsys, change, message
):
    table = pd.read_parquet(clip_run[1])[["id", "scores"]]
    rows = {
        i: [list(map(float, r)) for r in m]
        for i, m in zip(table["id"], table["scores"], strict=True)
    }
    if change == "missing":
        del rows["3"]
    elif change == "unknown":
        rows["zz-99"] = [[0.0, 0.0], [0.0, 0.0]]
    elif change == "nan":
        rows["4"][1][0] = float("nan")
    elif change == "shape":
        rows["5"] = [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    ids = list(rows) + (["6"] if change == "repeated" else [])
    bad = pd.DataFrame({"id": ids, "scores": [rows[i] for i in ids]})
    bad.to_parquet(tmp_path / "bad.parquet")
    out = tmp_path / "r.json"
    args = ["eval", "--scores", str(tmp_path / "bad.parquet"), "--data", str(build)]
    assert cli.main([*args, "--name", "x", "--out", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert message in error and len(error.splitlines()) == 1
    assert not out.exists()
    with pytest.raises(ScoresFileError):
        evaluate_scores(tmp_path / "bad.parquet", build, name="x")


def test_scores_options_are_checked(build, clip_run, tmp_path, capsys):
    base = [
        "eval",
        "--scores",
        str(clip_run[1]),
        "--data",
        str(build),
        "--out",
        str(tmp_path / "r"),
    ]
    assert cli.main(base) == 2
    assert "--scores needs --name NAME" in capsys.readouterr().err
    assert cli.main([*base, "--name", "x", "--save-scores", str(tmp_path / "s")]) == 2
    assert "--save-scores do(es) not apply to --scores" in capsys.readouterr().err
    (tmp_path / "other.parquet").write_text("not parquet")
    other = ["eval", "--scores", str(tmp_path / "other.parquet"), "--data", str(build)]
    assert cli.main([*other, "--name", "x", "--out", str(tmp_path / "r")]) == 2
    assert "is not a Parquet scores file" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_ids_of_a_source_without_an_id_column_are_row_positions(build, clip_run):
    """BiVLC (like ARO and SugarCrepe) has no id column: a sample's id is its row position in
    `full`, as a string (docs/protocol.md, section 8; README), so a scores file lists "0".."n-1"
    in the build's row order."""
    _, scores = clip_run
    table = pd.read_parquet(scores)
    assert list(table["id"]) == [str(i) for i in range(12)]
    assert list(table["sample"]) == list(range(12))
