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


def test_ctrl_c_on_a_two_worker_build_ends_every_worker_and_exits_130(tmp_path):
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
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches the whole group
        rc = process.wait(timeout=60)  # a hang fails here
        err = process.stderr.read()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert rc == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1].endswith("interrupted")
    for _ in range(100):  # the workers are ended by the driver
        if _group_is_gone(process.pid):
            break
        time.sleep(0.1)
    assert _group_is_gone(process.pid)
    assert not out.exists()
    assert json.loads((work / "journal.jsonl").read_text().splitlines()[0])["corpus"]["sha256"]
