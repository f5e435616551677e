"""Reliability (issue 41): no input can hang a command, a build's provenance is verified, and a
hostile input gets one line and exit code 2. Bounds (captions, template checks, ``parse``'s
stdin), the provenance digest of a build, the checked open of every file the command line
names, model ids as text, and the warnings of silent degradations."""

from __future__ import annotations

import importlib.util
import io
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import datasets
import pytest
from fixtures_sources import aro_vgr_record, make_aro_mirror_source, make_aro_source

from bindsplit_datasets import cli
from bindsplit_datasets.benchmarks import aro_vga, aro_vgr, get_benchmark
from bindsplit_datasets.benchmarks.base import SourceReport, check_captions
from bindsplit_datasets.errors import BindsplitError
from bindsplit_datasets.names import MAX_CAPTION_CHARS

REPO = Path(__file__).resolve().parents[1]


def _python_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}


class Hung(Exception):
    """A call that did not end within its guard's time."""


@contextmanager
def _ends_within(seconds: int) -> Iterator[None]:
    """Fail with :class:`Hung` instead of hanging (a guard against a hang, not a speed test)."""

    def hung(signum, frame):
        raise Hung(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# -------------------------------------------------------------------- templates, linear time
def _naive_vgr(true: str, false: str, relation: str | None = None) -> list[tuple[str, str, str]]:
    """The template read by trying every copula and every "the" (cubic), keeping the splits
    whose subject and object hold no copula (Visual Genome names)."""
    t, f = aro_vgr._words(true), aro_vgr._words(false)
    found = []
    if len(t) < 5 or t[0] != "the":
        return found
    for i in range(2, len(t)):
        for j in range(i + 2, len(t) - 1):
            subject, rel, obj = t[1:i], t[i + 1 : j], t[j + 1 :]
            if t[i] not in ("is", "are") or t[j] != "the":
                continue
            if {"is", "are"} & set(subject + obj):
                continue
            if relation is not None and " ".join(rel) != " ".join(aro_vgr._words(relation)):
                continue
            if f == ["the", *obj, t[i], *rel, "the", *subject]:
                found.append((" ".join(subject), " ".join(rel), " ".join(obj)))
    return found


def _naive_vga(true: str, false: str) -> list[tuple[str, str, str, str]]:
    """The template read by trying every "and the" and every pair of attribute lengths, keeping
    the splits whose phrases hold no "and the"."""
    t, f = aro_vga._normalise_text(true).split(), aro_vga._normalise_text(false)
    found = []
    if not t or t[0] != "the":
        return found
    for k in range(1, len(t) - 1):
        if t[k : k + 2] != ["and", "the"]:
            continue
        left, right = t[1:k], t[k + 2 :]
        for i in range(1, len(left)):
            for j in range(1, len(right)):
                parts = (left[:i], left[i:], right[:j], right[j:])
                if any(" and the " in f" {' '.join(p)} " for p in (left, parts[2] + parts[1])):
                    continue
                if f == " ".join(["the", *parts[2], *parts[1], "and", "the", *parts[0], *parts[3]]):
                    found.append(tuple(" ".join(p) for p in parts))
    return sorted(found, key=lambda p: (len(p[0]) + len(p[2]), p))


_WORDS = ("the", "is", "are", "and", "on", "red", "cup", "left", "of", "to")


def _random_pair(rng: random.Random, template) -> tuple[str, str]:
    """A caption pair from ``template`` with random words (often a fit, sometimes nearly)."""
    phrases = [" ".join(rng.choices(_WORDS, k=rng.randint(1, 3))) for _ in range(4)]
    true, false = template(*phrases)
    if rng.random() < 0.3:  # a near miss: one word of the false caption changed
        words = false.split()
        words[rng.randrange(len(words))] = rng.choice(_WORDS)
        false = " ".join(words)
    return true, false


def test_the_relation_template_equals_the_naive_reading():
    rng = random.Random(41)

    def template(s, r, o, _):
        return f"the {s} is {r} the {o}", f"the {o} is {r} the {s}"

    fitted = 0
    for _ in range(3000):
        true, false = _random_pair(rng, template)
        assert aro_vgr.split_template(true, false) == _naive_vgr(true, false), (true, false)
        relation = " ".join(true.split()[2:4])
        assert aro_vgr.split_template(true, false, relation) == _naive_vgr(true, false, relation)
        fitted += bool(_naive_vgr(true, false))
    assert fitted > 500  # the comparison covers fits, not only misses


def test_the_attribute_template_equals_the_naive_reading():
    rng = random.Random(41)

    def template(a1, o1, a2, o2):
        return f"the {a1} {o1} and the {a2} {o2}", f"the {a2} {o1} and the {a1} {o2}"

    fitted = ambiguous = 0
    for _ in range(3000):
        true, false = _random_pair(rng, template)
        expected = _naive_vga(true, false)
        assert aro_vga.split_template(true, false) == expected, (true, false)
        fitted += bool(expected)
        ambiguous += len(expected) > 1
    assert fitted > 500 and ambiguous > 20


def test_a_30000_word_caption_pair_is_read_in_linear_time():
    """The pair the cubic reading took hours over: every other word a copula or "the"."""
    body = " ".join(["is the"] * 15_000)
    true, false = f"the cup {body} table", f"the table {body} cup"
    pair = " ".join(["and the"] * 15_000)
    with _ends_within(60):
        assert aro_vgr.split_template(true, false) == [("cup", body[3:-4], "table")]
        assert aro_vgr.split_template(true, false[:-1] + "x") == []
        assert aro_vga.split_template(f"the red {pair} cup", f"the blue {pair} mug") == []


# ------------------------------------------------------------------- the longest caption
def _vgr_records(long_caption: str) -> list[dict]:
    records = [aro_vgr_record(i, s, "on", o) for i, (s, o) in enumerate([("cup", "table")] * 3)]
    records[1]["true_caption"] = long_caption
    return records


def test_a_caption_over_the_limit_is_dropped_with_its_row_named(tmp_path):
    source = make_aro_source(
        tmp_path / "vgr",
        records=_vgr_records("the cup is on the " + "table " * 30_000),
        image_format="PNG",
        annotation_file="visual_genome_relation.json",
    )
    loaded = get_benchmark("aro_vgr").load(source)
    assert len(loaded.dataset) == 2 and dict(loaded.report.problems) == {"long_caption": 1}
    assert loaded.report.notes == [
        f"dropped 1 row(s) with a caption over {MAX_CAPTION_CHARS:,} characters (first: row 1, "
        "column 'true_caption': long caption)"
    ]
    with pytest.raises(
        BindsplitError, match=r"row 1, column 'true_caption': long caption; .* at most 2,000 char"
    ):
        get_benchmark("aro_vgr").load(source, strict=True)


def test_a_caption_at_the_limit_is_kept():
    at_limit = "the cup is on the " + "x" * (MAX_CAPTION_CHARS - 18)
    rows = datasets.Dataset.from_dict(
        {"true_caption": [at_limit, at_limit + "y"], "false_caption": ["a", "b"]}
    )
    report = SourceReport()
    kept = check_captions(rows, ("true_caption", "false_caption"), report, strict=False)
    assert len(at_limit) == MAX_CAPTION_CHARS
    assert kept["false_caption"] == ["a"] and dict(report.problems) == {"long_caption": 1}


@pytest.mark.slow  # a subprocess
def test_a_30000_word_caption_in_an_aro_vgr_source_ends_the_build_naming_the_row(tmp_path):
    body = " ".join(["is the"] * 15_000)
    mirror = make_aro_mirror_source(
        tmp_path / "mirror.parquet",
        [("the cup is on the table", "the table is on the cup"), (f"the cup {body} a", "the a")],
    )
    reference = tmp_path / "reference.txt"
    reference.write_text("a cup on a table\n", encoding="utf-8")
    common = ["build", "aro_vgr", "--source", str(mirror), "--reference", str(reference)]
    runs = [
        subprocess.run(
            [sys.executable, "-m", "bindsplit_datasets", *common, "--out", str(tmp_path / out)]
            + extra,
            capture_output=True,
            env=_python_env(),
            text=True,
            timeout=300,  # the cubic template check hung here
        )
        for out, extra in (("strict", ["--strict"]), ("built", []))
    ]
    strict, built = runs
    assert strict.returncode == 2 and "Traceback" not in strict.stderr, strict.stderr
    (line,) = [line for line in strict.stderr.splitlines() if line.startswith("bindsplit")]
    assert "row 1, column 'true_caption': long caption" in line and "at most 2,000 char" in line
    assert built.returncode == 0, built.stderr
    assert "dropped 1 row(s) with a caption over 2,000 characters (first: row 1" in built.stdout


# ------------------------------------------------------------------------ parse's stdin
def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_parse_reads_stdin_a_line_at_a_time_up_to_the_limit(monkeypatch, capsys):
    """Blank lines are skipped, Windows line ends and a last line without one are read, and a
    line of exactly the limit is a caption."""
    at_limit = "a red car " + "x" * (MAX_CAPTION_CHARS - 10)
    _stdin(monkeypatch, b"a red car\r\n\n" + at_limit.encode() + b"\nthe sky")
    assert cli.main(["parse", "--bindings", "attribute"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "a red car\t(red, car)" and out[2] == "the sky\t-" and len(out) == 3
    assert out[1].startswith(at_limit)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"a red car\n" + b"x" * (MAX_CAPTION_CHARS + 1) + b"\n", "stdin line 2 is longer"),
        (b"a red car\n" + "\u00e9".encode() * MAX_CAPTION_CHARS + b"e\n", "stdin line 2 is longer"),
        (b"a red car\n\ncaf\xe9 dog\n", "stdin line 3 is not UTF-8 text ("),
    ],
)
def test_parse_refuses_a_long_or_undecodable_line_naming_it(monkeypatch, capsys, data, message):
    _stdin(monkeypatch, data)
    assert cli.main(["parse"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "a red car\t(red, car)\t-\n"  # the lines before it were parsed
    assert captured.err.count("\n") == 1 and f"bindsplit parse: error: {message}" in captured.err


def test_parse_of_dev_zero_ends_at_once_with_one_line(monkeypatch, capsys):
    with open("/dev/zero", "rb") as zeros:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(zeros, encoding="utf-8"))
        with _ends_within(60):  # it used to read one endless line into memory
            assert cli.main(["parse"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "bindsplit parse: error: stdin line 1 is longer than the longest caption BindSplit reads "
        f"({MAX_CAPTION_CHARS:,} characters); shorten or split it\n"
    )


def test_parse_refuses_a_caption_argument_over_the_limit(capsys):
    assert cli.main(["parse", "a red car", "x" * (MAX_CAPTION_CHARS + 1)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "a red car\t(red, car)\t-\n"
    assert f"caption 2 ({MAX_CAPTION_CHARS + 1:,} characters) is longer" in captured.err


# --------------------------------------------------------------------- a build's provenance
@pytest.fixture(scope="module")
def synthetic_build(tmp_path_factory) -> Path:
    """A small synthetic build (2 samples per stratum, its own reference)."""
    from bindsplit_datasets.builds.builder import build_benchmark
    from bindsplit_datasets.synthetic import default_world, reference_index, write_test_benchmark

    world = default_world()
    folder = tmp_path_factory.mktemp("synthetic")
    index = reference_index(world, n_captions=120)
    source = write_test_benchmark(world, folder / "source", 2, 7, index=index, progress=False)
    return build_benchmark("synthetic", out=folder / "build", source=source, reference=None).path


def _scores_for(build: Path, path: Path) -> Path:
    """A scores file for every sample of ``build`` (caption i scores highest on image i)."""
    import pandas as pd

    from bindsplit_datasets.loading import load_bindsplit

    data = load_bindsplit(build)
    column = data.columns.id
    ids = data.dataset[column] if column else [str(i) for i in range(len(data.dataset))]
    n_images, n_captions = len(data.columns.image), len(data.columns.caption)
    matrix = [[float(i == j) for j in range(n_captions)] for i in range(n_images)]
    pd.DataFrame({"id": [str(i) for i in ids], "scores": [matrix] * len(ids)}).to_parquet(path)
    return path


def _edited(build: Path, tmp_path: Path, **changes) -> Path:
    """A copy of ``build`` whose manifest has ``changes`` (an entry changed to ``None`` is
    removed)."""
    import json
    import shutil

    copy = Path(shutil.copytree(build, tmp_path / "edited"))
    manifest = json.loads((copy / "bindsplit.json").read_text(encoding="utf-8"))
    edited = {k: v for k, v in {**manifest, **changes}.items() if v is not None}
    (copy / "bindsplit.json").write_text(json.dumps(edited), encoding="utf-8")
    return copy


@pytest.mark.parametrize(
    "changes",
    [
        {"benchmark": "aro_vga"},
        {"source": {"hub_id": "gowitheflow/ARO-Visual-Attribution", "revision": "main"}},
        {"reference": {"corpus": {"kind": "coco2017"}}},
    ],
    ids=["benchmark", "source", "reference"],
)
def test_a_manifest_edited_after_the_build_is_refused_by_verify_and_eval(
    synthetic_build, tmp_path, capsys, changes
):
    from bindsplit_datasets.builds.manifest import verify_build
    from bindsplit_datasets.builds.provenance_digest import provenance_digest
    from bindsplit_datasets.errors import BuildVerificationError

    manifest = verify_build(synthetic_build)
    assert manifest["provenance"] == provenance_digest(manifest)
    scores = _scores_for(synthetic_build, tmp_path / "s.parquet")
    eval_argv = ["eval", "--scores", str(scores), "--name", "m"]
    out = tmp_path / "r.json"
    assert cli.main([*eval_argv, "--data", str(synthetic_build), "--out", str(out)]) == 0
    edited = _edited(synthetic_build, tmp_path, **changes)
    with pytest.raises(BuildVerificationError, match="was changed after the build"):
        verify_build(edited)
    capsys.readouterr()
    out = tmp_path / "edited.json"
    assert cli.main([*eval_argv, "--data", str(edited), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bindsplit.json of" in err and "changed after the build" in err
    assert not out.exists()


def test_a_manifest_without_a_provenance_digest_is_read_as_an_older_build(
    synthetic_build, tmp_path, caplog
):
    from bindsplit_datasets.builds.manifest import verify_build

    manifest = verify_build(synthetic_build)
    older = _edited(synthetic_build, tmp_path, provenance=None)
    assert verify_build(older)["benchmark"] == manifest["benchmark"]
    assert "records no provenance digest (an older build)" in caplog.text


# ------------------------------------------------------- FIFOs named anywhere: the checked open
def _subparser(parser, word: str):
    import argparse

    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub = action.choices[word]
    sub.populate()
    return sub


def _file_arguments() -> list[tuple[list[str], str]]:
    """``(command words, option)`` of every path argument of every command (``""``: the
    command's positional path argument), as the command line's guard reads them."""
    import argparse

    from bindsplit_datasets.commands._paths import PATH_ARGUMENTS

    found = []

    def walk(parser: argparse.ArgumentParser, words: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name in action.choices:
                    walk(_subparser(parser, name), [*words, name])
            elif action.dest in PATH_ARGUMENTS and action.choices is None:
                found.append((words, action.option_strings[-1] if action.option_strings else ""))

    walk(cli.build_parser(), [])
    return found


def _argv(words: list[str], option: str, fifo: str) -> list[str]:
    """A command line of ``words`` with ``fifo`` as ``option`` (``""``: the positional path
    argument) and every other required argument filled in with a dummy."""

    from bindsplit_datasets.commands._paths import PATH_ARGUMENTS

    parser = cli.build_parser()
    for word in words:
        parser = _subparser(parser, word)
    required = [g for g in parser._mutually_exclusive_groups if g.required]
    argv = list(words)
    for action in parser._actions:
        names = action.option_strings
        if not names:  # a positional: the target, a choice, or a dummy
            if option == "" and action.dest in PATH_ARGUMENTS:
                argv.append(fifo)
            elif action.nargs != "*":
                argv.append(next(iter(action.choices)) if action.choices else "x")
        elif option in names:
            pair = getattr(action.type, "__name__", "") == "_source"  # BENCHMARK=SRC
            argv += [option, f"bivlc={fifo}" if pair else fifo]
        elif action.required or any(
            group._group_actions[0] is action
            and not {option} & {o for a in group._group_actions for o in a.option_strings}
            for group in required
        ):
            argv += [names[-1], "x"]
    return argv


FILE_ARGUMENTS = _file_arguments()


def test_every_file_argument_is_checked():
    """The path arguments the test below covers are every file and folder a command names."""
    names = {(" ".join(words), option) for words, option in FILE_ARGUMENTS}
    for expected in [
        ("export", "--readme"),
        ("export", "--out"),
        ("eval", "--scores"),
        ("eval", "--save-scores"),
        ("build", "--source"),
        ("build", "--reference"),
        ("build", "--sim-solution"),
        ("reproduce", "--sim-solution"),
        ("stats", "--source"),
        ("plot", "--out"),
        ("compare", ""),
        ("reference info", ""),
        ("push-space", "--wheel"),
        ("install-metric", "--modules-cache"),
    ]:
        assert expected in names
    assert len(names) >= 40


@pytest.mark.parametrize(
    ("words", "option"), FILE_ARGUMENTS, ids=[f"{' '.join(w)} {o}" for w, o in FILE_ARGUMENTS]
)
def test_a_fifo_as_any_file_argument_is_refused_at_once(tmp_path, capsys, words, option):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    argv = _argv(words, option, str(fifo))
    assert any(arg.endswith(str(fifo)) for arg in argv), argv
    with _ends_within(60):  # a reader that opens the FIFO blocks: the test fails here
        assert cli.main(argv) == 2, argv
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{fifo} is a named pipe (FIFO), not a regular file" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # nothing written beside it


def test_the_library_readers_and_the_output_guard_refuse_a_fifo(tmp_path):
    """From Python too (no command line guard): the README of a model index, an output path,
    a Parquet shard, a wheel and a VisMin solution file."""
    from report_records import ALPHA

    from bindsplit_datasets.atomic import RESULTS_OUTPUT, check_output
    from bindsplit_datasets.benchmarks.vismin import read_sim_solution
    from bindsplit_datasets.errors import NotARegularFileError, OutputExistsError, SchemaError
    from bindsplit_datasets.parquet_files import parquet_row_count
    from bindsplit_datasets.publish.wheel import project_wheel
    from bindsplit_datasets.reports.model_index import write_model_index

    fifo = tmp_path / "README.md"
    os.mkfifo(fifo)
    with _ends_within(60):
        with pytest.raises(NotARegularFileError, match="README .* is a named pipe"):
            write_model_index(fifo, [ALPHA])
        with pytest.raises(OutputExistsError, match="a named pipe, a device or a socket"):
            check_output(fifo, RESULTS_OUTPUT, overwrite=True)
        with pytest.raises(SchemaError, match="Parquet file .* is a named pipe"):
            parquet_row_count(fifo, fix="rebuild")
        with pytest.raises(NotARegularFileError, match="wheel .* is a named pipe"):
            project_wheel(fifo)
        with pytest.raises(NotARegularFileError, match="sim_solution file .* is a named pipe"):
            read_sim_solution(fifo)
    assert [p.name for p in tmp_path.iterdir()] == ["README.md"]


# ----------------------------------------------------------------------------- install-metric
@pytest.mark.slow  # evaluate loads the metric in a subprocess
def test_install_metric_into_a_relative_modules_cache_verifies(tmp_path, monkeypatch, capsys):
    """The check that evaluate loads it runs from another folder: a relative cache named from
    here used to point nowhere there, and a working install was reported broken."""
    monkeypatch.chdir(tmp_path)
    assert cli.main(["install-metric", "--modules-cache", "relative/cache"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("installed: evaluate.load('bindsplit') loads relative/cache/")
    assert cli.main(["install-metric", "--modules-cache", "relative/cache"]) == 0  # idempotent


# ------------------------------------------------------------------ model ids are text
MARKUP_ID = r"$\frac{a}{$ x^{"


def _markup_records(tmp_path: Path) -> list[Path]:
    import json

    from report_records import record_from_samples

    labels = ["seen", "seen", "unseen", "unseen", "partial", "seen"]
    paths = []
    for name in (MARKUP_ID, "$$plain$$"):
        value = record_from_samples(name, labels, [1, 1, 0, 1, 0, 1], [1, 0, 0, 1, 1, 1])
        path = tmp_path / f"{len(paths)}.json"
        path.write_text(json.dumps(value), encoding="utf-8")
        paths.append(path)
    return paths


def test_plot_draws_a_model_id_that_looks_like_mathtext(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from bindsplit_datasets.reports.figures import results_figure
    from bindsplit_datasets.reports.results import load_results

    paths = _markup_records(tmp_path)
    for suffix in ("png", "svg"):
        out = tmp_path / f"figure.{suffix}"
        assert cli.main(["plot", *map(str, paths), "--out", str(out)]) == 0, capsys.readouterr()
        assert out.stat().st_size > 0
    figure = results_figure(load_results(paths))
    figure.canvas.draw()  # a mathtext parse of the ids would fail here
    texts = [text.get_text() for legend in figure.legends for text in legend.get_texts()]
    assert texts == [MARKUP_ID, "$$plain$$"]


def test_the_space_shows_a_model_id_as_text():
    from bindsplit_datasets.reports.leaderboard_text import escape_markdown

    shown = escape_markdown(f"left out {MARKUP_ID}")
    assert shown == r"left out <span>$</span>\\frac\{a\}\{<span>$</span> x^\{"
    assert "$$" not in escape_markdown("$$plain$$")


def test_the_model_card_keeps_a_model_id_as_written(tmp_path):
    import yaml

    from bindsplit_datasets.reports.model_index import write_model_index
    from bindsplit_datasets.reports.results import load_results

    readme = write_model_index(tmp_path / "README.md", load_results(_markup_records(tmp_path)[:1]))
    front = readme.read_text(encoding="utf-8").split("---")[1]
    assert yaml.safe_load(front)["model-index"][0]["name"] == MARKUP_ID


# ----------------------------------------------------------- silent degradations, now said
def test_an_untagged_scores_file_is_imported_with_a_warning(synthetic_build, tmp_path, capsys):
    import pyarrow.parquet as pq

    from bindsplit_datasets.builds.manifest import read_manifest
    from bindsplit_datasets.scoring.scores_file import FINGERPRINT_KEY

    untagged = _scores_for(synthetic_build, tmp_path / "untagged.parquet")
    table = pq.read_table(untagged)
    fingerprint = read_manifest(synthetic_build)["fingerprint"].encode()
    tagged = tmp_path / "tagged.parquet"
    pq.write_table(table.replace_schema_metadata({FINGERPRINT_KEY: fingerprint}), tagged)
    argv = ["eval", "--data", str(synthetic_build), "--name", "m"]
    assert cli.main([*argv, "--scores", str(untagged), "--out", str(tmp_path / "u.json")]) == 0
    warned = [line for line in capsys.readouterr().err.splitlines() if "WARNING" in line]
    assert len(warned) == 1 and "untagged.parquet records no build fingerprint" in warned[0]
    assert "nothing tells whether it scored this build" in warned[0]
    assert cli.main([*argv, "--scores", str(tagged), "--out", str(tmp_path / "t.json")]) == 0
    assert "no build fingerprint" not in capsys.readouterr().err


def test_bootstrap_intervals_of_one_sample_are_wilson_and_say_so(synthetic_build, tmp_path):
    """The percentile bootstrap gives 1/1 the "95%" interval [1, 1]: such accuracies get
    Wilson's, their gaps Newcombe's, and the record, the table and the notes say so."""
    from bindsplit_datasets.metric_core import BindsplitStatistics, compute_metrics
    from bindsplit_datasets.reports.intervals import interval_method, interval_note
    from bindsplit_datasets.reports.results import load_results
    from bindsplit_datasets.reports.results_table import table_rows

    one = (0, 0, 0, 0, 1, 0)  # one sample, every metric right
    stats = BindsplitStatistics(splits={"seen": one, "unseen": (0, 0, 1, 0, 0, 0)})
    results = compute_metrics(stats, n_bootstrap=200, interval_method="bootstrap")
    assert results["seen/i2t"] == 1.0 and results["seen/i2t_ci"][0] < 0.3  # not [1, 1]
    assert results["seen/i2t_ci"] == compute_metrics(stats, n_bootstrap=0)["seen/i2t_ci"]
    assert results["small_n_interval_method"] == "wilson"
    assert results["interval_method"] == "bootstrap-percentile"

    scores = _scores_for(synthetic_build, tmp_path / "s.parquet")
    out = tmp_path / "r.json"
    argv = ["eval", "--scores", str(scores), "--data", str(synthetic_build), "--name", "m"]
    assert cli.main([*argv, "--interval-method", "bootstrap", "--out", str(out)]) == 0
    (record,) = load_results([out])
    metrics = record["metrics"]
    assert metrics["small_n_interval_method"] == "wilson"
    for key, interval in metrics.items():
        if key.endswith("_ci"):
            assert interval[1] > interval[0], key  # no zero-width interval
    assert interval_method(metrics, "seen", "i2t") == "wilson"
    assert interval_method(metrics, "gap", "i2t") == "newcombe"
    rows = {(r["configuration"], r["metric"]): r for r in table_rows([record])}
    assert rows["seen", "i2t"]["interval_method"] == "wilson" and rows["seen", "i2t"]["small_n"]
    assert "Wilson (gaps: Newcombe) where flagged *" in interval_note(metrics)


# ------------------------------------------------------------- one line, exit code 2 (issue 41)
def _one_line(capsys, command: str) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("bindsplit")]
    assert "Traceback" not in err and len(lines) == 1, err
    assert lines[0].startswith(f"{command}: error: "), lines[0]
    return lines[0]


def test_out_dot_onto_a_previous_build_is_one_line(synthetic_build, tmp_path, monkeypatch, capsys):
    """Renaming the folder one is in fails with 'Device or resource busy': refused first."""
    import shutil

    previous = Path(shutil.copytree(synthetic_build, tmp_path / "previous"))
    monkeypatch.chdir(previous / "full")
    for out in (".", ".."):
        argv = ["build", "bivlc", "--source", str(tmp_path / "none.parquet"), "--out", out]
        assert cli.main([*argv, "--overwrite"]) == 2
        assert "it is the folder you are in, or holds it" in _one_line(capsys, "bindsplit build")
    assert sorted(p.name for p in previous.iterdir()) == sorted(
        p.name for p in synthetic_build.iterdir()
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["reproduce", "--out", "{file}/x"], "{file} is a file, not a folder"),
        (
            ["eval", "--scores", "{file}", "--data", ".", "--name", "m", "--out", "{file}/r"],
            "is a file, not",
        ),
        (["plot", "{file}", "--out", "{file}/f.png"], "is a file, not a folder"),
    ],
)
def test_an_output_below_a_file_is_one_line(tmp_path, capsys, argv, message):
    afile = tmp_path / "afile"
    afile.write_text("x")
    argv = [arg.replace("{file}", str(afile)) for arg in argv]
    assert cli.main(argv) == 2
    assert message.replace("{file}", str(afile)) in _one_line(capsys, f"bindsplit {argv[0]}")


def _raising(monkeypatch, error_of) -> None:
    """``bindsplit stats`` raises what ``error_of()`` raises (the command's own code, where a
    library raised it)."""
    import bindsplit_datasets.commands.stats as stats

    def run(args):
        error_of()

    monkeypatch.setattr(stats, "run", run)


def _dataset_generation_error() -> None:
    import datasets

    def rows():
        yield {"caption": "a red car"}
        raise ValueError("row 2 is not a row")

    datasets.Dataset.from_generator(rows)


def _unidentified_image() -> None:
    from PIL import Image

    Image.open(io.BytesIO(b"not an image"))


def _offline_hub() -> None:
    from huggingface_hub.errors import OfflineModeIsEnabled

    raise ConnectionError("Couldn't reach 'org/name' on the Hub") from OfflineModeIsEnabled()


def _import_without_memory() -> None:
    raise ImportError("libtorch_cpu.so: failed to map segment from shared object")


@pytest.mark.parametrize(
    ("error_of", "message"),
    [
        (_dataset_generation_error, "the data could not be read (ValueError: row 2 is not a row)"),
        (_unidentified_image, "an image cannot be decoded (cannot identify image file)"),
        (_offline_hub, "the Hub or a remote source cannot be reached (Couldn't reach"),
        (_import_without_memory, "out of memory (libtorch_cpu.so: failed to map segment"),
    ],
    ids=["DatasetGenerationError", "UnidentifiedImageError", "offline", "ImportError-memory"],
)
def test_library_errors_of_the_users_making_are_one_line(monkeypatch, capsys, error_of, message):
    _raising(monkeypatch, error_of)
    assert cli.main(["stats", "bivlc"]) == 2
    assert message in _one_line(capsys, "bindsplit stats")


def test_an_import_error_that_is_a_bug_keeps_its_traceback(monkeypatch):
    def missing():
        raise ImportError("cannot import name 'nothing' from 'somewhere'")

    _raising(monkeypatch, missing)
    with pytest.raises(ImportError, match="cannot import name"):
        cli.main(["stats", "bivlc"])


def test_an_unreachable_hub_source_and_s3_are_one_line(tmp_path, capsys):
    reference = tmp_path / "reference.txt"
    reference.write_text("a red car\n", encoding="utf-8")
    argv = ["build", "bivlc", "--source", "no-org/no-such-dataset", "--reference", str(reference)]
    assert cli.main([*argv, "--out", str(tmp_path / "b")]) == 2  # HF_HUB_OFFLINE in the tests
    assert "cannot be reached" in _one_line(capsys, "bindsplit build")
    pytest.importorskip("fsspec")
    if importlib.util.find_spec("s3fs") is None:
        argv = [
            "reference",
            "build",
            "s3://bucket/captions.txt",
            "--out",
            str(tmp_path / "i.parquet"),
        ]
        assert cli.main(argv) == 2
        assert "pip install s3fs" in _one_line(capsys, "bindsplit reference")


def test_corrupt_parquet_shards_of_a_reference_are_one_line(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    shards = tmp_path / "shards"
    shards.mkdir()
    pq.write_table(pa.table({"caption": ["a red car"] * 10}), shards / "a.parquet")
    (shards / "b.parquet").write_bytes(b"PAR1 not really")
    argv = ["reference", "build", str(shards), "--caption-column", "caption"]
    assert cli.main([*argv, "--out", str(tmp_path / "i.parquet")]) == 2
    line = _one_line(capsys, "bindsplit reference")
    assert "shards: b.parquet is not a readable Parquet file" in line


_EXHAUST_WHILE_IMPORTING = """
import runpy, sys

TARGET, KIND = sys.argv[1], sys.argv[2]

class Exhausting:
    def find_spec(self, name, path=None, target=None):
        if name == TARGET:
            if KIND == "memory":
                raise MemoryError
            raise ImportError(f"{name}.so: cannot allocate memory")
        return None

sys.meta_path.insert(0, Exhausting())
sys.argv = ["bindsplit", "stats", "bivlc", "--source", "x"]
runpy.run_module("bindsplit_datasets", run_name="__main__")
"""


@pytest.mark.parametrize(
    ("module", "kind"),
    [
        ("bindsplit_datasets.commands.stats", "memory"),  # while the parser is made
        ("bindsplit_datasets.benchmarks", "memory"),  # while its arguments are added
        ("datasets", "import"),  # a library that cannot be mapped into memory
        ("bindsplit_datasets.cli", "memory"),  # before the command line exists
    ],
)
def test_memory_exhausted_while_modules_import_is_one_line_exit_2(module, kind):
    """``ulimit -v``: a MemoryError, or an ImportError for want of memory, while the modules
    import (simulated at a chosen module: the real limit that hits there varies by machine)."""
    run = subprocess.run(
        [sys.executable, "-c", _EXHAUST_WHILE_IMPORTING, module, kind],
        capture_output=True,
        env=_python_env(),
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "error: out of memory" in lines[0], run.stderr


def test_a_metric_that_is_none_is_refused_in_one_line_by_the_python_api(tmp_path):
    import copy

    from report_records import ALPHA

    from bindsplit_datasets.errors import BindsplitValueError, SchemaError
    from bindsplit_datasets.reports import format_record_table
    from bindsplit_datasets.reports.eval_results import eval_results
    from bindsplit_datasets.reports.figures import plot_results, results_figure
    from bindsplit_datasets.reports.model_index import model_index

    for key in ("full/i2t", "full/n"):
        record = copy.deepcopy(ALPHA)
        record["metrics"][key] = None
        calls = (
            (format_record_table, (record,)),
            (model_index, ([record],)),
            (eval_results, ([record],)),
            (plot_results, ([record], tmp_path / "f.png")),
        )
        for call, arguments in calls:
            with pytest.raises(SchemaError, match=f"results record 1 of 1: metrics\\['{key}'\\]"):
                call(*arguments)
    with pytest.raises(BindsplitValueError, match="metrics must be a list of metric names"):
        results_figure([ALPHA], None)  # type: ignore[arg-type]
    assert not (tmp_path / "f.png").exists()
