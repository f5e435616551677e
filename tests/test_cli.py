"""The command line's error contract: BindSplit's own errors are one line and exit code 2, bugs
keep their traceback, Ctrl-C is one line and exit code 130; bad sources (an image, an empty or
garbage file, a binary CSV, a text file as ARO) are named with their fix."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from fixtures_sources import make_bivlc_source, make_vismin_source, png_bytes

from bindsplit_datasets import cli
from bindsplit_datasets.atomic import atomic_directory
from bindsplit_datasets.errors import (
    BindsplitError,
    BindsplitFileNotFoundError,
    BindsplitValueError,
    SchemaError,
)


def run_failing(monkeypatch, error: BaseException):
    """Run ``bindsplit synth`` with its work replaced by raising ``error``."""
    import bindsplit_datasets.commands.synth as synth

    def fail(args):
        raise error

    monkeypatch.setattr(synth, "run", fail)
    return cli.main(["synth", "--out", "unused"])


def error_line(stderr: str) -> str:
    assert "Traceback" not in stderr
    (line,) = [line for line in stderr.splitlines() if line.startswith("bindsplit ")]
    return line


@pytest.mark.parametrize(
    "error",
    [
        BindsplitError("the problem; the fix"),
        SchemaError("the problem; the fix"),
        BindsplitValueError("the problem; the fix"),
        BindsplitFileNotFoundError("the problem; the fix"),
        PermissionError(errno.EACCES, "Permission denied", "/the/problem"),
        OSError(errno.ENOSPC, "No space left on device"),
    ],
)
def test_user_errors_are_one_line_with_exit_code_2(monkeypatch, capsys, error):
    assert run_failing(monkeypatch, error) == 2
    line = error_line(capsys.readouterr().err)
    assert line.startswith("bindsplit synth: error: ") and line.endswith(str(error).split()[-1])


def test_a_multi_line_message_is_printed_on_one_line(monkeypatch, capsys):
    assert run_failing(monkeypatch, BindsplitError("first\n  second")) == 2
    assert error_line(capsys.readouterr().err) == "bindsplit synth: error: first second"


@pytest.mark.parametrize("error", [ValueError("a bug"), KeyError("a bug"), TypeError("a bug")])
def test_other_exceptions_are_bugs_and_keep_their_traceback(monkeypatch, error):
    with pytest.raises(type(error)):
        run_failing(monkeypatch, error)


def test_verbose_shows_the_traceback_of_user_errors(monkeypatch):
    import bindsplit_datasets.commands.synth as synth

    def fail(args):
        raise SchemaError("the problem")

    monkeypatch.setattr(synth, "run", fail)
    with pytest.raises(SchemaError):
        cli.main(["-v", "synth", "--out", "unused"])


def test_ctrl_c_is_one_line_exit_130_and_leaves_no_temporary(tmp_path, monkeypatch, capsys):
    import bindsplit_datasets.commands.synth as synth

    def interrupted(args):
        with atomic_directory(args.out) as folder:
            (folder / "half.parquet").write_bytes(b"half")
            raise KeyboardInterrupt

    monkeypatch.setattr(synth, "run", interrupted)
    assert cli.main(["synth", "--out", str(tmp_path / "out")]) == 130
    assert capsys.readouterr().err.strip() == "bindsplit synth: interrupted"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["synth", "--out", "x", "--n-train", "0"],
        ["synth", "--out", "x", "--shard-size", "0"],
        ["synth", "--out", "x", "--num-proc", "0"],
        ["demo", "--batch-size", "0"],
        ["demo", "--n-per-stratum", "0"],
        ["demo", "--n-bootstrap", "-1"],
        ["build", "bivlc", "--out", "x", "--min-count", "0"],
        ["stats", "bivlc", "--min-count", "0"],
        ["reproduce", "--batch-size", "0"],
        ["reproduce", "--n-bootstrap", "-1"],
    ],
)
def test_counts_below_their_minimum_are_refused_by_the_parser(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2 and "must be at least" in capsys.readouterr().err


@pytest.mark.parametrize(
    "command",
    [
        ["eval", "--model", "m", "--data", "d", "--out", "o.json"],
        ["compare", "a.json"],
        ["plot", "a.json", "--out", "f.png"],
    ],
)
def test_configs_are_comma_or_space_separated_in_every_command(command, capsys):
    parser = cli.build_parser()
    for given in (["full,seen,unseen"], ["full", "seen", "unseen"], ["full,seen", "unseen"]):
        assert parser.parse_args([*command, "--configs", *given]).configs == [
            "full",
            "seen",
            "unseen",
        ]
    with pytest.raises(SystemExit):
        parser.parse_args([*command, "--configs", "full,sen"])
    assert "--configs: unknown configuration 'sen'; choose from full," in capsys.readouterr().err


# ------------------------------------------------------------------------------ bad sources
@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("sources")
    paths = {
        "reference": folder / "reference.txt",
        "png": folder / "picture.png",
        "garbage": folder / "garbage.parquet",
        "empty_file": folder / "empty.parquet",
        "text": folder / "captions.txt",
    }
    paths["reference"].write_text("a red car on the road\n", encoding="utf-8")
    paths["png"].write_bytes(png_bytes((1, 2, 3)))
    paths["garbage"].write_bytes(b"not parquet at all" * 20)
    paths["empty_file"].write_bytes(b"")
    paths["text"].write_text("the white dog and the black cat\n", encoding="utf-8")
    paths["no_rows"] = make_bivlc_source(folder / "no_rows.parquet", [])
    rows = [{"text_0": "a red car", "text_1": "a blue car", "category": "attribute"}]
    paths["vismin"] = make_vismin_source(folder / "vismin.parquet", rows)
    return paths


@pytest.mark.parametrize(
    ("benchmark", "source", "expected"),
    [
        ("bivlc", "png", "picture.png is not a readable Parquet file (Parquet magic bytes"),
        ("bivlc", "garbage", "garbage.parquet is not a readable Parquet file"),
        ("bivlc", "empty_file", "empty.parquet is not a readable Parquet file"),
        ("bivlc", "no_rows", "no_rows.parquet holds no rows; pass the benchmark as a Parquet"),
        ("aro_vga", "text", "captions.txt is not an ARO VG-Attribution source: it is neither"),
        ("aro_vga", "png", "picture.png is not an ARO VG-Attribution source"),
    ],
)
def test_bad_sources_are_named_with_the_fix(files, capsys, benchmark, source, expected):
    argv = ["stats", benchmark, "--source", str(files[source])]
    assert cli.main([*argv, "--reference", str(files["reference"])]) == 2
    line = error_line(capsys.readouterr().err)
    assert expected in line, line
    assert "pass" in line  # every message says what to pass instead


def test_a_binary_sim_solution_is_named_with_the_fix(files, capsys):
    argv = ["stats", "vismin", "--source", str(files["vismin"]), "--sim-solution"]
    argv += [str(files["png"]), "--reference", str(files["reference"])]
    assert cli.main(argv) == 2
    line = error_line(capsys.readouterr().err)
    assert f"{files['png']} is not a CSV text file" in line
    assert "pass VisMin's sim_solution.csv (columns idx, Text, Image, category)" in line


def test_each_note_of_a_source_is_printed_once(files, capsys):
    argv = ["stats", "vismin", "--source", str(files["vismin"]), "--vismin-pairing", "as-stored"]
    argv += ["--reference"]
    assert cli.main([*argv, str(files["reference"])]) == 0
    captured = capsys.readouterr()
    text = captured.out + captured.err
    notes = [line.split("note: ", 1)[1] for line in text.splitlines() if "note: " in line]
    assert notes, text  # the one-row VisMin source has notes (its pairing, its size)
    for note in notes:
        assert text.count(note) == 1, note


# ------------------------------------------------------------------------------ help, logging
def test_every_command_help_ends_with_two_or_three_examples(capsys):
    for module in cli._command_modules():
        assert 2 <= len(module.EXAMPLES) <= 3, module.NAME
        with pytest.raises(SystemExit) as exit_:
            cli.main([module.NAME, "--help"])
        assert exit_.value.code == 0
        help_text = capsys.readouterr().out
        tail = help_text.rstrip().splitlines()[-len(module.EXAMPLES) - 1 :]
        assert tail == ["examples:", *(f"  {example}" for example in module.EXAMPLES)], tail
        for example in module.EXAMPLES:
            assert example.startswith(f"bindsplit {module.NAME}"), example


@pytest.mark.slow  # a fresh interpreter that imports every command: seconds
def test_python_dash_m_runs_the_command_line():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "bindsplit_datasets", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.startswith("usage: bindsplit ")


@pytest.mark.parametrize("argv", [["-q", "synth", "--out", "x"], ["synth", "--out", "x", "-q"]])
def test_quiet_before_or_after_the_command_silences_info_and_progress(monkeypatch, capsys, argv):
    import logging
    import os

    import bindsplit_datasets.commands.synth as synth

    seen = {}

    def work(args):
        logging.getLogger("bindsplit_datasets.synth").info("an info line")
        logging.getLogger("bindsplit_datasets.synth").warning("a warning line")
        seen["tqdm"] = os.environ.get("TQDM_DISABLE")
        return 0

    monkeypatch.setattr(synth, "run", work)
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    assert cli.main(argv) == 0
    err = capsys.readouterr().err
    assert "a warning line" in err and "an info line" not in err
    assert seen["tqdm"] == "1" and "TQDM_DISABLE" not in os.environ


def test_quiet_silences_the_progress_bars_of_transformers_and_the_hub(monkeypatch):
    """transformers' bars (loading weights) and huggingface_hub's (downloads) ignore
    TQDM_DISABLE; -q turns them off for the command and back on after it, and so does a run off
    a terminal (where the package logs its progress as lines): on a terminal they stay."""
    import transformers.utils.logging as transformers_logging
    from huggingface_hub import utils as hub_utils

    import bindsplit_datasets.commands.synth as synth

    seen = {}

    def work(args):
        seen["transformers"] = transformers_logging.is_progress_bar_enabled()
        seen["hub"] = not hub_utils.are_progress_bars_disabled()
        return 0

    monkeypatch.setattr(synth, "run", work)
    assert transformers_logging.is_progress_bar_enabled()
    assert cli.main(["-q", "synth", "--out", "x"]) == 0
    assert seen == {"transformers": False, "hub": False}
    assert transformers_logging.is_progress_bar_enabled()
    assert not hub_utils.are_progress_bars_disabled()
    assert cli.main(["synth", "--out", "x"]) == 0  # off a terminal (captured): off too
    assert seen == {"transformers": False, "hub": False}
    assert transformers_logging.is_progress_bar_enabled()
    monkeypatch.setattr(cli, "interactive", lambda: True)
    assert cli.main(["synth", "--out", "x"]) == 0  # on a terminal, without -q: left on
    assert seen == {"transformers": True, "hub": True}


def test_only_the_package_logger_is_configured(monkeypatch, capsys):
    import logging

    import bindsplit_datasets.commands.synth as synth

    def work(args):
        logging.getLogger("bindsplit_datasets.synth").info("ours")
        logging.getLogger("open_clip.factory").info("theirs")
        return 0

    monkeypatch.setattr(synth, "run", work)
    assert cli.main(["synth", "--out", "x"]) == 0
    err = capsys.readouterr().err
    assert "INFO bindsplit_datasets.synth: ours" in err and "theirs" not in err
    assert logging.getLogger().level == logging.WARNING  # the root logger is left alone


# ------------------------------------------------------------------------------ bindsplit parse
def test_parse_prints_the_bindings_and_triples_of_each_caption(capsys):
    assert cli.main(["parse", "a red car next to a white dog", "the sky"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "a red car next to a white dog\t(red, car), (white, dog)\t(car, next to, dog)",
        "the sky\t-\t-",
    ]
    assert cli.main(["parse", "--bindings", "attribute", "a red car next to a white dog"]) == 0
    assert capsys.readouterr().out == "a red car next to a white dog\t(red, car), (white, dog)\n"
    assert cli.main(["parse", "--bindings", "relation", "a red car next to a white dog"]) == 0
    assert capsys.readouterr().out == "a red car next to a white dog\t(car, next to, dog)\n"


def test_parse_reads_stdin_and_explains_as_json(monkeypatch, capsys):
    import io
    import json

    monkeypatch.setattr("sys.stdin", io.StringIO("the dog is white\n\na tattooed woman\n"))
    assert cli.main(["parse", "--json", "-"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["caption"] for r in records] == ["the dog is white", "a tattooed woman"]
    assert records[0]["bindings"] == [["white", "dog"]]
    assert [f["rule"] for f in records[0]["rules"] if f["stage"] != "relation"] == ["predicative"]
    assert {f["stage"] for f in records[0]["rules"]} == {"binding", "relation"}  # relation rules
    assert records[1]["kinds_before"] == ["determiner", "noun", "noun"]
    assert records[1]["kinds_after"] == ["determiner", "participle", "noun"]
    assert set(records[0]) >= {"tokens", "tags", "units", "bindings", "relations"}
    assert records[1]["relations"] == []
    monkeypatch.setattr("sys.stdin", io.StringIO("a man riding a horse\n"))
    assert cli.main(["parse", "--json", "--bindings", "attribute"]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["bindings"] == [] and "relations" not in record


def test_parse_explain_names_the_rules_that_fired(capsys):
    assert cli.main(["parse", "--explain", "a tattooed woman"]) == 0
    out = capsys.readouterr().out
    assert "tokens: a/DT tattooed/NN woman/NN" in out
    assert "tattooed/noun->participle" in out
    assert "correction participle-tagged-as-noun at 'tattooed'" in out
    assert "bindings: tattooed woman" in out
