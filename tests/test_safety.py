"""Every command that writes a folder keeps what the user put there: a user folder with a user
file is kept with and without --overwrite, a regular file is refused, and a previous output of
the same command is replaced only with --overwrite. Each refusal comes before any work: the work
itself is replaced by a sentinel that fails loudly if reached."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bindsplit_datasets import cli
from bindsplit_datasets.atomic import (
    BUILD_OUTPUT,
    CHECKPOINT_OUTPUT,
    DEMO_OUTPUT,
    TRAINSET_OUTPUT,
    OutputKind,
)
from bindsplit_datasets.synthetic.models import CHECKPOINT_DIR, CHECKPOINTS
from bindsplit_datasets.synthetic.recipes import DEFAULT_OUT


class WorkStarted(Exception):
    """Raised by the sentinel that replaces a command's work: the output guard let it through."""


def sentinel(*args, **kwargs):
    raise WorkStarted


def user_folder(path: Path) -> Path:
    path.mkdir(parents=True)
    (path / "mine.txt").write_text("keep", encoding="utf-8")
    return path


def user_file(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("keep", encoding="utf-8")
    return path


def previous_output(path: Path, kind: OutputKind) -> Path:
    """A folder as a previous run of the command leaves it (its manifest and a file)."""
    path.mkdir(parents=True)
    (path / str(kind.manifest)).write_text(json.dumps({"format": kind.format}), encoding="utf-8")
    (path / "old.txt").write_text("previous run", encoding="utf-8")
    return path


def refused(capsys, argv: list[str], match: str) -> None:
    """``bindsplit argv`` ends with one error line containing ``match`` and exit code 2."""
    assert cli.main(argv) == 2
    stderr = capsys.readouterr().err
    assert "Traceback" not in stderr
    (line,) = [line for line in stderr.splitlines() if line.startswith("bindsplit ")]
    assert ": error: " in line and match in line, line


def check_command_guard(capsys, tmp_path: Path, argv, kind: OutputKind, out_option="--out"):
    """The guard matrix of one command; ``argv(out)`` is its command line writing to ``out``."""
    mine = user_folder(tmp_path / "mine")
    for extra in ([], ["--overwrite"]):
        refused(capsys, [*argv(mine), *extra], f"is not a previous {kind.description}")
        assert [p.name for p in mine.iterdir()] == ["mine.txt"]
        assert (mine / "mine.txt").read_text(encoding="utf-8") == "keep"
    file = user_file(tmp_path / "notes.txt")
    for extra in ([], ["--overwrite"]):
        refused(capsys, [*argv(file), *extra], "is a file, not a folder")
        assert file.read_text(encoding="utf-8") == "keep"
    previous = previous_output(tmp_path / "previous", kind)
    refused(capsys, argv(previous), f"holds a previous {kind.description}; pass --overwrite")
    assert (previous / "old.txt").is_file()
    with pytest.raises(WorkStarted):  # with --overwrite the guard lets the work start
        cli.main([*argv(previous), "--overwrite"])
    assert (previous / "old.txt").is_file()  # still there: only a finished run replaces it
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(WorkStarted):  # an empty folder may be used
        cli.main(argv(empty))


# ----------------------------------------------------------------------------------- build
def test_build_keeps_user_files(tmp_path, capsys, monkeypatch):
    import bindsplit_datasets.builds.builder as builder

    monkeypatch.setattr(builder, "prepare_benchmark", sentinel)
    check_command_guard(
        capsys, tmp_path, lambda out: ["build", "bivlc", "--out", str(out)], BUILD_OUTPUT
    )


# ------------------------------------------------------------------------------------ demo
def test_demo_keeps_user_files(tmp_path, capsys, monkeypatch):
    import bindsplit_datasets.synthetic as synthetic

    monkeypatch.setattr(synthetic, "checkpoint_path", sentinel)
    check_command_guard(capsys, tmp_path, lambda out: ["demo", "--out", str(out)], DEMO_OUTPUT)


# ----------------------------------------------------------------------------------- synth
def test_synth_keeps_user_files(tmp_path, capsys, monkeypatch):
    import bindsplit_datasets.synthetic.world as world

    monkeypatch.setattr(world, "make_world", sentinel)
    check_command_guard(capsys, tmp_path, lambda out: ["synth", "--out", str(out)], TRAINSET_OUTPUT)


@pytest.mark.slow
def test_synth_replaces_its_previous_output_only_with_overwrite(tmp_path, capsys):
    out = tmp_path / "world"
    args = ["synth", "--out", str(out), "--n-train", "2", "--shard-size", "2", "--image-size", "16"]
    assert cli.main(args) == 0
    manifest = json.loads((out / "generation.json").read_text(encoding="utf-8"))
    assert manifest["format"] == TRAINSET_OUTPUT.format and manifest["n_train"] == 2
    (out / "extra.txt").write_text("left by the previous run", encoding="utf-8")
    refused(capsys, args, "holds a previous synthetic training set; pass --overwrite")
    assert (out / "extra.txt").is_file()
    assert cli.main([*args[:4], "3", *args[5:], "--overwrite"]) == 0
    assert not (out / "extra.txt").exists()
    assert json.loads((out / "generation.json").read_text(encoding="utf-8"))["n_train"] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["world"]


# ------------------------------------------------------------------------- train-synthetic
def parse(argv: list[str]):
    return cli.build_parser().parse_args(["train-synthetic", *argv])


def test_train_synthetic_writes_outside_the_package_unless_asked(tmp_path):
    from bindsplit_datasets.synthetic.train import output_folders

    default = output_folders(parse([]))
    assert default == {name: Path(DEFAULT_OUT) / name for name in ("clip", "negclip")}
    assert not any(path.resolve().is_relative_to(CHECKPOINT_DIR) for path in default.values())
    assert output_folders(parse(["--model", "clip", "--out", str(tmp_path)])) == {
        "clip": tmp_path / "clip"
    }
    assert output_folders(parse(["--into-package"])) == CHECKPOINTS
    # the shipped checkpoints are previous outputs, so --into-package may replace them
    assert all(CHECKPOINT_OUTPUT.marks(path) for path in CHECKPOINTS.values())


@pytest.mark.parametrize(
    "argv",
    [
        ["--steps", "0"],
        ["--batch-size", "0"],
        ["--threads", "0"],
        ["--steps", "-3"],
        ["--eval-n", "0"],
        ["--threads", "two"],
        ["--out", "x", "--into-package"],
    ],
)
def test_train_synthetic_refuses_bad_options_before_work(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        parse(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "must be at least 1" in err or "expected an integer" in err or "not allowed" in err


def test_train_synthetic_keeps_user_files(tmp_path, capsys, monkeypatch):
    import bindsplit_datasets.synthetic.train as train

    monkeypatch.setattr(train, "train", sentinel)
    # each checkpoint goes to DIR/<model>: the guard is on DIR/clip and DIR/negclip
    mine = user_folder(tmp_path / "a" / "clip")
    for extra in ([], ["--overwrite"]):
        argv = ["train-synthetic", "--model", "clip", "--out", str(mine.parent), *extra]
        refused(capsys, argv, "is not a previous synthetic checkpoint")
    assert [p.name for p in mine.iterdir()] == ["mine.txt"]
    user_file(tmp_path / "b" / "negclip")
    for extra in ([], ["--overwrite"]):
        argv = ["train-synthetic", "--out", str(tmp_path / "b"), *extra]  # both models
        refused(capsys, argv, "is a file, not a folder")  # before clip is trained
    assert (tmp_path / "b" / "negclip").read_text(encoding="utf-8") == "keep"
    previous = previous_output(tmp_path / "c" / "clip", CHECKPOINT_OUTPUT)
    argv = ["train-synthetic", "--model", "clip", "--out", str(previous.parent)]
    refused(capsys, argv, "holds a previous synthetic checkpoint; pass --overwrite")
    with pytest.raises(WorkStarted):
        cli.main([*argv, "--overwrite"])
    refused(
        capsys,
        ["train-synthetic", "--model", "negclip", "--batch-size", "7", "--out", str(tmp_path)],
        "the batch size must be even, got --batch-size 7",
    )


def test_train_synthetic_replaces_its_previous_checkpoint_only_with_overwrite(
    tmp_path, capsys, monkeypatch
):
    import bindsplit_datasets.synthetic.train as train
    from bindsplit_datasets.synthetic import checkpoint_path
    from bindsplit_datasets.synthetic.models import ModelSize, build_model

    shipped = json.loads((checkpoint_path("clip") / "training_report.json").read_text())
    size = ModelSize(hidden=16, intermediate=32, heads=2, vision_layers=1, text_layers=1)
    steps = iter([11, 22])

    def fake_train(config, world):  # the checkpoint writing is under test, not the training
        return build_model(world, size, seed=0), {**shipped, "steps": next(steps)}

    monkeypatch.setattr(train, "train", fake_train)
    argv = ["train-synthetic", "--model", "clip", "--out", str(tmp_path)]
    assert cli.main(argv) == 0
    report = json.loads((tmp_path / "clip" / "training_report.json").read_text())
    assert report["format"] == CHECKPOINT_OUTPUT.format and report["steps"] == 11
    refused(capsys, argv, "holds a previous synthetic checkpoint")
    assert cli.main([*argv, "--overwrite"]) == 0
    assert json.loads((tmp_path / "clip" / "training_report.json").read_text())["steps"] == 22
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clip"]
