"""Reliability (issue 32): what is computed is what the record says. A resumed reference build
checks its corpus and owns its work folder; an interrupted build stops its workers; bad inputs
and a hostile environment give one line and exit code 2, never a silent wrong result."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from reference_corpus import CAPTIONS, EXPECTED

from bindsplit_datasets import cli
from bindsplit_datasets.errors import ResumeMismatchError, WorkFolderBusyError
from bindsplit_datasets.reference import ReferenceIndex
from bindsplit_datasets.reference.tally import Tally

REPO = Path(__file__).resolve().parents[1]


class Interrupted(Exception):
    """The injected failure."""


def _python_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}


# ------------------------------------------------------------------ reference build --resume
def _interrupt_after_the_last_commit(monkeypatch) -> None:
    def interrupted(self, spill_dir):
        raise Interrupted("killed after the shard committed")

    monkeypatch.setattr(Tally, "finish", interrupted)


def test_a_text_corpus_edited_before_resume_is_refused(tmp_path, monkeypatch):
    text = tmp_path / "captions.txt"
    text.write_text("\n".join(CAPTIONS) + "\n", encoding="utf-8")
    work = tmp_path / "work"
    with monkeypatch.context() as patch:
        _interrupt_after_the_last_commit(patch)
        with pytest.raises(Interrupted):
            ReferenceIndex.from_text_file(text, num_proc=1, progress=False, work_dir=work)
    assert (work / "journal.jsonl").read_text().count("\n") == 2  # header + shard 0 committed
    text.write_text("a green bus\n", encoding="utf-8")  # same name, other captions
    with pytest.raises(ResumeMismatchError, match="differs in corpus.*rerun without --resume"):
        ReferenceIndex.from_text_file(text, num_proc=1, progress=False, work_dir=work, resume=True)


def test_an_unchanged_text_corpus_resumes_to_its_own_counts(tmp_path, monkeypatch):
    text = tmp_path / "captions.txt"
    text.write_text("\n".join(CAPTIONS) + "\n", encoding="utf-8")
    work = tmp_path / "work"
    with monkeypatch.context() as patch:
        _interrupt_after_the_last_commit(patch)
        with pytest.raises(Interrupted):
            ReferenceIndex.from_text_file(text, num_proc=1, progress=False, work_dir=work)
    resumed = ReferenceIndex.from_text_file(
        text, num_proc=1, progress=False, work_dir=work, resume=True
    )
    assert dict(resumed.items()) == EXPECTED
    assert not work.exists()


def test_captions_known_only_once_read_are_counted_again_on_resume(tmp_path, monkeypatch):
    work = tmp_path / "work"
    with monkeypatch.context() as patch:
        _interrupt_after_the_last_commit(patch)
        with pytest.raises(Interrupted):
            ReferenceIndex.from_captions(CAPTIONS, num_proc=1, progress=False, work_dir=work)
    other = ["a green bus", "a green bus"]
    resumed = ReferenceIndex.from_captions(
        iter(other), num_proc=1, progress=False, work_dir=work, resume=True
    )
    assert {(b.attribute, b.object): n for b, n in resumed.items()} == {("green", "bus"): 2}


def test_a_work_folder_in_use_is_refused_at_once_and_left_alone(tmp_path):
    text = tmp_path / "captions.txt"
    text.write_text("\n".join(CAPTIONS) + "\n", encoding="utf-8")
    work = tmp_path / "work"
    owner = Tally(work, {"corpus": "the other run's"})
    journal = (work / "journal.jsonl").read_bytes()
    try:
        for resume in (False, True):
            with pytest.raises(WorkFolderBusyError, match="another reference build is running"):
                ReferenceIndex.from_text_file(
                    text, num_proc=1, progress=False, work_dir=work, resume=resume
                )
        assert (work / "journal.jsonl").read_bytes() == journal
    finally:
        owner.close()
    index = ReferenceIndex.from_text_file(text, num_proc=1, progress=False, work_dir=work)
    assert dict(index.items()) == EXPECTED  # released: the next run may use the folder


_HOLD_THE_FOLDER = """
import sys, time
from bindsplit_datasets.reference.tally import Tally
tally = Tally(sys.argv[1], {"corpus": "another corpus"})
print("holding", flush=True)
time.sleep(120)
"""


def test_a_second_build_into_the_same_out_is_refused_with_one_line(tmp_path, capsys):
    text = tmp_path / "captions.txt"
    text.write_text("\n".join(CAPTIONS) + "\n", encoding="utf-8")
    out = tmp_path / "index.parquet"
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_THE_FOLDER, str(tmp_path / ".index.parquet.build")],
        stdout=subprocess.PIPE,
        env=_python_env(),
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        argv = ["reference", "build", str(text), "--out", str(out), "--num-workers", "1"]
        assert cli.main(argv) == 2
        assert cli.main([*argv, "--resume"]) == 2
    finally:
        holder.kill()
        holder.wait(timeout=30)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all("another reference build is running" in line for line in err)
    assert not out.exists()


# --------------------------------------------------------------------- Ctrl-C on the workers
def _group_is_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


#: ``bindsplit`` with small units of work: the throttle, not the pipe, holds the pool's feeder
#: thread back, the case where the pool's shutdown used to wait on it for ever.
_SMALL_UNITS_CLI = """
import sys
from bindsplit_datasets.reference import engines
engines.UNIT_ROWS = 64
from bindsplit_datasets.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow  # subprocesses
@pytest.mark.parametrize(
    ("how", "code", "line"),
    [("ctrl-c", 130, "interrupted"), ("sigterm", 143, "terminated")],
)
def test_ctrl_c_on_a_two_worker_build_ends_every_worker_and_exits_130(tmp_path, how, code, line):
    """Ctrl-C reaches the whole process group; SIGTERM (``kill PID``) the driver only, whose
    workers must not be left behind nor print a broken pipe."""
    text = tmp_path / "captions.txt"
    colours = ["red", "blue", "green", "small", "wooden", "large"]
    lines = [f"a {colours[i % 6]} car {i}" for i in range(120_000)]
    text.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "index.parquet"
    work = tmp_path / ".index.parquet.build"
    process = subprocess.Popen(
        [sys.executable, "-c", _SMALL_UNITS_CLI, "reference", "build", str(text)]
        + ["--out", str(out), "--num-workers", "2", "-q"],
        stderr=subprocess.PIPE,
        env=_python_env(),
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    try:
        for _ in range(600):  # the pool is running once units are being counted
            if (work / "partial").is_dir() and any((work / "partial").iterdir()):
                break
            if process.poll() is not None:
                pytest.fail(f"the build ended before the interrupt: {process.stderr.read()}")
            time.sleep(0.1)
        if how == "ctrl-c":
            os.killpg(process.pid, signal.SIGINT)
        else:
            os.kill(process.pid, signal.SIGTERM)
        rc = process.wait(timeout=60)  # a hang fails here
        err = process.stderr.read()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert rc == code, err
    assert "Traceback" not in err and "Error" not in err
    assert err.strip().splitlines()[-1] == f"bindsplit reference: {line}"
    for _ in range(100):  # the workers are ended by the driver
        if _group_is_gone(process.pid):
            break
        time.sleep(0.1)
    assert _group_is_gone(process.pid)
    assert not out.exists()
    assert json.loads((work / "journal.jsonl").read_text().splitlines()[0])["corpus"]["sha256"]


# ------------------------------------------------------------------ records that contradict
def _sealed_file(path: Path, value: dict) -> Path:
    from bindsplit_datasets.reports.results import seal_record

    path.write_text(json.dumps(seal_record({**value, "digest": None})), encoding="utf-8")
    return path


def _samples_record() -> dict:
    from report_records import record_from_samples

    labels = ["seen", "seen", "unseen", "unseen", "partial", "seen"]
    return record_from_samples("alpha", labels, [1, 1, 0, 1, 0, 1], [1, 0, 0, 1, 1, 1])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda m: m.update({"full/i2t": 0.10, "full/i2t_ci": [0.9, 1.0]}),
            "full/i2t = 0.1 lies outside its interval [0.9, 1.0]",
        ),
        (lambda m: m.update({"seen/t2i": 0.7}), "seen/t2i = 0.7 but its samples answer 2 of 3"),
        (lambda m: m.update({"unseen/n": 7}), "unseen/n = 7 but its samples list 2 in unseen"),
        (lambda m: m.update({"gap/i2t": 0.9}), "gap/i2t = 0.9 lies outside its interval"),
    ],
)
def test_a_resealed_record_that_contradicts_itself_is_refused_everywhere(
    tmp_path, capsys, change, message
):
    from report_records import ALPHA, BETA

    value = _samples_record()
    change(value["metrics"])
    forged = _sealed_file(tmp_path / "forged.json", value)
    other = _sealed_file(tmp_path / "beta.json", BETA)
    _sealed_file(tmp_path / "alpha.json", ALPHA)
    for argv in (
        ["compare", str(forged), str(other)],
        ["export", "eval-results", str(forged), "--out", str(tmp_path / "mdl")],
        ["export", "results-table", str(forged), "--out", str(tmp_path / "t.parquet")],
    ):
        assert cli.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err and "forged.json contradicts itself" in err
    assert not (tmp_path / "mdl").exists() and not (tmp_path / "t.parquet").exists()


def test_an_unchanged_record_with_samples_passes():
    from bindsplit_datasets.reports.results import validate_record

    assert validate_record(_samples_record())["metrics"]["full/i2t"] == 4 / 6


@pytest.mark.parametrize("benchmark", ["../../../escaped", "a/b", "..", "/abs"])
def test_a_benchmark_name_that_is_a_path_is_refused_before_writing(tmp_path, capsys, benchmark):
    value = _samples_record()
    value["dataset"]["benchmark"] = benchmark
    path = _sealed_file(tmp_path / "r.json", value)
    out = tmp_path / "deep" / "er" / "mdl"
    assert cli.main(["export", "eval-results", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"dataset.benchmark {benchmark!r} is not a plain name" in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["r.json"]


def test_a_record_is_checked_against_its_build_when_at_hand():
    from report_records import record

    from bindsplit_datasets.errors import SchemaError
    from bindsplit_datasets.reports.consistency import check_against_build

    value = record("alpha", {"full": {"i2t": 0.8}, "unseen": {"i2t": 0.5}})  # n 100 and 10
    manifest = {"benchmark": "bivlc", "fingerprint": "f1", "configs": {"full": 100, "unseen": 10}}
    check_against_build(value, manifest, "r.json")
    with pytest.raises(SchemaError, match="unseen/n = 10 but the build's unseen .* 12 rows"):
        check_against_build(value, {**manifest, "configs": {"full": 100, "unseen": 12}}, "r.json")
    with pytest.raises(SchemaError, match="fingerprint f1, not of this bivlc build \\(f2\\)"):
        check_against_build(value, {**manifest, "fingerprint": "f2"}, "r.json")


# ------------------------------------------------------------------------- the leaderboard
def _table(path: Path, rows: list[dict]) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def _row(model: str, value, n, **changes) -> dict:
    row = {
        "model": model,
        "model_revision": None,
        "benchmark": "bivlc",
        "configuration": "full",
        "metric": "i2t",
        "value": value,
        "ci_low": None,
        "ci_high": None,
        "n": n,
        "build_fingerprint": "f1",
        "reference": "coco2017",
        "scored_by": "encoder",
    }
    return {**row, **changes}


def test_the_leaderboard_leaves_out_nan_accuracies_and_negative_counts(tmp_path):
    from bindsplit_datasets.reports.leaderboard_sources import row_problem
    from bindsplit_datasets.reports.leaderboard_view import load_source

    rows = [
        _row("good", 0.7, 10),
        _row("nan", float("nan"), 10),
        _row("negative", 0.6, -3),
        _row("above", 1.5, 10),
        _row("outside", 0.2, 10, ci_low=0.5, ci_high=0.9),
    ]
    source = load_source(_table(tmp_path / "t.parquet", rows))
    assert [r["model"]["id"] for r in source.records] == ["good"]
    assert len(source.skipped) == 1 and "left out 4 rows" in source.skipped[0]
    assert "n -3 is not a sample count" in source.skipped[0]
    assert "value nan is not a fraction" in source.skipped[0]
    assert row_problem(rows[4]) == "value 0.2 lies outside its interval [0.5, 0.9]"


def test_a_results_folder_with_unreadable_files_still_loads_and_says_so(tmp_path):
    from bindsplit_datasets.reports.leaderboard_view import load_source

    records = tmp_path / "records" / "bivlc"
    records.mkdir(parents=True)
    _sealed_file(records / "alpha.json", _samples_record())
    (records / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    source = load_source(tmp_path)
    assert [r["model"]["id"] for r in source.records] == ["alpha"]
    assert len(source.skipped) == 1 and "nested too deeply" in source.skipped[0]
    # no record at all: the table is read; one with strings where numbers go is skipped
    (records / "alpha.json").unlink()
    (records / "deep.json").unlink()
    data = tmp_path / "data"
    data.mkdir()
    _table(data / "a.parquet", [_row("strings", "high", "ten")])
    _table(data / "c.parquet", [_row("null", None, 10)])
    _table(data / "b.parquet", [_row("good", 0.7, 10)])
    source = load_source(tmp_path)
    assert [r["model"]["id"] for r in source.records] == ["good"]
    assert any(
        "a.parquet" in line and "'high' is not a fraction" in line for line in source.skipped
    )
    assert any("c.parquet" in line for line in source.skipped) and len(source.skipped) == 2


# ------------------------------------------------------------------------------- FIFOs
_READ_EVERY_KIND = """
import sys
from bindsplit_datasets.errors import NotARegularFileError
from bindsplit_datasets.evaluation import evaluate_scores
from bindsplit_datasets.reference import ReferenceIndex
from bindsplit_datasets.reports.results import load_results
from bindsplit_datasets.reports.results_table import read_results_table
from bindsplit_datasets.scoring.scores_file import read_scores

fifo = sys.argv[1]
readers = {
    "scores": lambda: evaluate_scores(fifo, "no_build", name="x"),
    "saved scores": lambda: read_scores(fifo),
    "records": lambda: load_results([fifo]),
    "table": lambda: read_results_table(fifo),
    "text corpus": lambda: ReferenceIndex.from_text_file(fifo, progress=False),
    "index": lambda: ReferenceIndex.load(fifo),
}
for name, read in readers.items():
    try:
        read()
    except NotARegularFileError as error:
        print(name, "refused:", error)
"""


def test_a_fifo_is_refused_at_once_by_every_file_reader(tmp_path):
    fifo = tmp_path / "scores.parquet"
    os.mkfifo(fifo)
    run = subprocess.run(
        [sys.executable, "-c", _READ_EVERY_KIND, str(fifo)],
        capture_output=True,
        env=_python_env(),
        text=True,
        timeout=120,  # a reader that opens the FIFO blocks: the test fails here
    )
    lines = run.stdout.splitlines()
    assert [line.split(" refused:")[0] for line in lines] == [
        "scores",
        "saved scores",
        "records",
        "table",
        "text corpus",
        "index",
    ], run.stderr
    assert all("is a named pipe (FIFO), not a regular file" in line for line in lines)


def test_a_fifo_given_to_eval_scores_is_one_line_exit_2(tmp_path):
    fifo = tmp_path / "s.parquet"
    os.mkfifo(fifo)
    run = subprocess.run(
        [sys.executable, "-m", "bindsplit_datasets", "eval", "--scores", str(fifo)]
        + ["--data", str(tmp_path / "build"), "--name", "x", "--out", str(tmp_path / "r.json")],
        capture_output=True,
        env=_python_env(),
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    assert "is a named pipe (FIFO)" in run.stderr and not (tmp_path / "r.json").exists()


# ---------------------------------------------------------------- nothing written elsewhere
@pytest.mark.slow  # subprocesses
def test_build_stats_and_loading_write_nothing_into_the_users_caches(tmp_path):
    from fixtures_sources import make_bivlc_source

    rows = [
        {"caption": "a red car", "negative_caption": "a white dog"},
        {"caption": "a purple car", "negative_caption": "a golden dog"},
    ]
    source = make_bivlc_source(tmp_path / "bivlc.parquet", rows)
    reference = tmp_path / "reference.txt"
    reference.write_text("a red car on the road\na white dog on the grass\n", encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    env = {
        key: value
        for key, value in _python_env().items()
        if not key.startswith(("HF_HOME", "XDG_", "HF_DATASETS_CACHE", "HF_MODULES_CACHE"))
    }
    env.update(
        HOME=str(home),
        HF_DATASETS_CACHE=str(home / ".cache" / "huggingface" / "datasets"),
        BINDSPLIT_CACHE=str(tmp_path / "bindsplit_cache"),
    )
    out = tmp_path / "build"
    common = ["--source", str(source), "--reference", str(reference)]
    for argv in (
        ["build", "bivlc", *common, "--out", str(out)],
        ["stats", "bivlc", *common],
    ):
        run = subprocess.run(
            [sys.executable, "-m", "bindsplit_datasets", *argv],
            capture_output=True,
            env=env,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr
    load = "import sys; from bindsplit_datasets import load_bindsplit; load_bindsplit(sys.argv[1])"
    run = subprocess.run(
        [sys.executable, "-c", load, str(out)], capture_output=True, env=env, text=True
    )
    assert run.returncode == 0, run.stderr
    written = [p.relative_to(home).as_posix() for p in home.rglob("*") if p.is_file()]
    assert written == []
    assert any((tmp_path / "bindsplit_cache" / "datasets").iterdir())  # where the copies went


# ----------------------------------------------------------------------------- install-metric
@pytest.mark.slow  # subprocesses
def test_install_metric_verifies_that_evaluate_loads_it(tmp_path, capsys):
    assert cli.main(["install-metric", "--modules-cache", str(tmp_path / "ok")]) == 0
    assert "installed: evaluate.load('bindsplit') loads" in capsys.readouterr().out
    broken = tmp_path / "broken"
    package = broken / "evaluate_modules" / "metrics"
    package.mkdir(parents=True)
    (broken / "evaluate_modules" / "__init__.py").touch()
    (package / "__init__.py").write_text("raise ImportError('a broken cache entry')\n")
    assert cli.main(["install-metric", "--modules-cache", str(broken)]) == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("bindsplit")]
    assert len(errors) == 1 and "evaluate.load('bindsplit') does not load it" in errors[0]


@pytest.mark.parametrize("odd", ["file_as_cache", "file_as_modules", "below_a_file"])
def test_an_odd_modules_cache_is_one_line_exit_2(tmp_path, capsys, odd):
    cache = tmp_path / "cache"
    if odd == "file_as_cache":
        cache.write_text("not a folder")
    elif odd == "file_as_modules":
        cache.mkdir()
        (cache / "evaluate_modules").write_text("not a folder")
    else:
        (tmp_path / "file").write_text("x")
        cache = tmp_path / "file" / "cache"
    assert cli.main(["install-metric", "--modules-cache", str(cache)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot install the bindsplit metric" in err


# ------------------------------------------------------------------- one line, exit code 2
@pytest.mark.parametrize("model", ["itm:/no/such/path", "/abs/missing", "itm:./nope/x"])
def test_a_missing_model_path_is_a_bindsplit_error(model):
    from bindsplit_datasets.errors import ModelNotFoundError
    from bindsplit_datasets.models.loaders import model_source

    with pytest.raises(ModelNotFoundError, match="neither a local folder nor a Hub model id"):
        model_source(model)


def test_a_closed_output_pipe_ends_quietly(tmp_path):
    from report_records import FILE_ALPHA, FILE_BETA

    pair = (FILE_ALPHA, FILE_BETA)
    files = [str(_sealed_file(tmp_path / f"{i}.json", r)) for i, r in enumerate(pair)]
    process = subprocess.Popen(
        [sys.executable, "-m", "bindsplit_datasets", "compare", *files],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_python_env(),
        text=True,
    )
    process.stdout.close()  # `| head` that has read enough: every write fails with EPIPE
    rc = process.wait(timeout=120)
    err = process.stderr.read()
    assert rc == 141 and err == "", err


def test_memory_exhausted_in_a_command_is_one_line_exit_2(monkeypatch, capsys):
    import bindsplit_datasets.commands.stats as stats

    def exhausted(args):
        raise MemoryError

    monkeypatch.setattr(stats, "run", exhausted)
    assert cli.main(["stats", "bivlc"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bindsplit stats: error: out of memory" in err


_INTERRUPT_IMPORT = """
import runpy, sys

TARGET = sys.argv[1]

class Interrupting:
    def find_spec(self, name, path=None, target=None):
        if name == TARGET:
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupting())
sys.argv = ["bindsplit", "stats", "--help"]
runpy.run_module("bindsplit_datasets", run_name="__main__")
"""


@pytest.mark.parametrize("module", ["bindsplit_datasets.cli", "bindsplit_datasets.commands.stats"])
def test_ctrl_c_while_modules_import_is_exit_130_without_traceback(module):
    run = subprocess.run(
        [sys.executable, "-c", _INTERRUPT_IMPORT, module],
        capture_output=True,
        env=_python_env(),
        text=True,
        timeout=120,
    )
    assert run.returncode == 130 and run.stderr.strip().endswith("interrupted"), run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.slow  # subprocesses
def test_a_file_size_limit_during_reference_build_is_one_line_and_writes_nothing(tmp_path):
    import resource

    text = tmp_path / "captions.txt"
    text.write_text("\n".join(f"a red car number {i}" for i in range(20_000)) + "\n", "utf-8")
    out = tmp_path / "index.parquet"
    limit = 64 * 1024  # the caption digests alone are 160 kB

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    run = subprocess.run(
        [sys.executable, "-m", "bindsplit_datasets", "reference", "build", str(text)]
        + ["--out", str(out), "--num-workers", "1", "-q"],
        capture_output=True,
        env=_python_env(),
        text=True,
        timeout=300,
        preexec_fn=limited,
    )
    lines = [line for line in run.stderr.splitlines() if line.startswith("bindsplit")]
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert len(lines) == 1 and "File too large" in lines[0]
    assert not out.exists()
    assert not [
        p for p in tmp_path.iterdir() if p.name.startswith(".index.parquet.") and p.is_file()
    ]


def test_ties_are_counted_in_the_precision_given():
    from bindsplit_datasets.metric_core import count_ties

    scores = [
        [[0.5, 0.5], [0.5, 0.5]],  # tied
        [[0.9, 0.1], [0.2, 0.8]],
        [[1 - 1e-9, 1 - 2e-9], [1 - 2e-9, 1 - 1e-9]],  # a tie in float32 only
        [[0.9, 0.2], [0.9, 0.8]],  # caption 0 scores both images 0.9: a T2I tie
        [[0.3, 0.3, 0.1]],  # one image, a caption tied
    ]
    assert count_ties(scores) == 3


def test_a_done_run_whose_counts_contradict_the_build_is_run_again(tmp_path):
    from report_records import record, with_samples

    from bindsplit_datasets.runs import Build, _build_contradictions

    value = with_samples(record("alpha", {"full": {"i2t": 0.8}, "unseen": {"i2t": 0.5}}))
    build = Build("b", "bivlc", "f1", None, {"full": 100, "unseen": 10, "seen": 60})
    assert _build_contradictions(value, build, tmp_path / "r.json") == []
    other = Build("b", "bivlc", "f1", None, {"full": 100, "unseen": 11})
    (reason,) = _build_contradictions(value, other, tmp_path / "r.json")
    assert "unseen/n = 10 but the build's unseen configuration has 11 rows" in reason
