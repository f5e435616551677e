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

pytestmark = pytest.mark.usefixtures("test_adapters", "fresh_accelerate")


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


def _write(path: Path, ids, matrices) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    scores = pa.array(matrices, type=pa.list_(pa.list_(pa.float64())))
    pq.write_table(pa.table({"id": [str(i) for i in ids], "scores": scores}), path)
    return path


def test_scores_a_billionth_apart_are_compared_exactly(build, clip_run, tmp_path):
    ids = pd.read_parquet(clip_run[1])["id"].tolist()
    matrix = [[1 - 1e-9, 1 - 2e-9], [1 - 2e-9, 1 - 1e-9]]  # float32: four equal scores
    path = _write(tmp_path / "close.parquet", ids, [matrix] * len(ids))
    record = evaluate_scores(path, build, name="close", n_bootstrap=0)
    assert record["metrics"]["full/i2t"] == 1.0 and record["metrics"]["full/t2i"] == 1.0
    tie = _write(tmp_path / "tie.parquet", ids, [[[0.5, 0.5], [0.5, 0.5]]] * len(ids))
    assert evaluate_scores(tie, build, name="tie", n_bootstrap=0)["metrics"]["full/i2t"] == 0.0


def test_a_monotone_transform_of_clip_scores_keeps_every_outcome(build, clip_run, tmp_path):
    import numpy as np

    table = pd.read_parquet(clip_run[1])[["id", "scores"]]
    original = [np.array([list(row) for row in m], dtype=np.float64) for m in table["scores"]]
    squeezed = [(1 + 1e-10 * m).tolist() for m in original]  # all 1.0 in float32
    original = [m.tolist() for m in original]
    a = evaluate_scores(_write(tmp_path / "a.parquet", table["id"], original), build, name="m")
    b = evaluate_scores(_write(tmp_path / "b.parquet", table["id"], squeezed), build, name="m")
    assert b["samples"] == a["samples"] and b["metrics"] == a["metrics"]
    assert 0 < a["metrics"]["full/i2t"]


def test_a_pair_scorer_is_compared_in_the_precision_it_gives(build):
    import numpy as np

    from bindsplit_datasets.evaluation import evaluate_model
    from bindsplit_datasets.models import CallablePairScorer

    def plain(images, captions):
        return [
            float(np.asarray(image).mean() * sum(map(ord, caption)) % 7)
            for image, caption in zip(images, captions, strict=True)
        ]

    def squeezed(images, captions):  # monotone in plain; every score rounds to 1.0 in float32
        return [1 + 1e-12 * score for score in plain(images, captions)]

    a = evaluate_model(CallablePairScorer(plain, name="p"), build, n_bootstrap=0)
    b = evaluate_model(CallablePairScorer(squeezed, name="p"), build, n_bootstrap=0)
    assert b["samples"] == a["samples"]
    assert 0 < sum(a["samples"]["i2t"]) + sum(a["samples"]["t2i"])


def test_scores_made_for_another_build_are_refused_naming_both(
    build, clip_run, tmp_path_factory, capsys
):
    from bindsplit_datasets.loading import load_bindsplit

    rows = tiny_bivlc_like(12, n_images=4)  # the same ids, other images
    other = fake_build(tmp_path_factory.mktemp("other") / "bivlc_like", rows, "_test_bivlc_like")
    mine, theirs = (load_bindsplit(str(b)).fingerprint for b in (build, other))
    assert mine != theirs
    out = tmp_path_factory.mktemp("out") / "r.json"
    capsys.readouterr()
    argv = ["eval", "--scores", str(clip_run[1]), "--data", str(other), "--name", "x"]
    assert cli.main([*argv, "--out", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert mine in error and theirs in error and len(error.splitlines()) == 1
    assert not out.exists()
    with pytest.raises(ScoresFileError, match="made for the build with fingerprint"):
        evaluate_scores(clip_run[1], other, name="x")


def test_ids_of_a_source_without_an_id_column_are_row_positions(build, clip_run):
    """BiVLC (like ARO and SugarCrepe) has no id column: a sample's id is its row position in
    `full`, as a string (docs/protocol.md, section 8; README), so a scores file lists "0".."n-1"
    in the build's row order."""
    _, scores = clip_run
    table = pd.read_parquet(scores)
    assert list(table["id"]) == [str(i) for i in range(12)]
    assert list(table["sample"]) == list(range(12))
