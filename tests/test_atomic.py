"""Outputs appear only when complete, replace only BindSplit's own previous outputs, respect the
umask, and stale temporaries of interrupted runs are cleaned up."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bindsplit_datasets.atomic import (
    FIGURE_OUTPUT,
    RESULTS_OUTPUT,
    OutputKind,
    atomic_directory,
    atomic_file,
    check_output,
    remove_stale_temporaries,
    write_text,
)
from bindsplit_datasets.errors import BindsplitError, OutputExistsError, OutputPathError

KIND = OutputKind("test output", "test-output/1", "manifest.json")
OTHER_KIND = OutputKind("other output", "other-output/1", "manifest.json")


def write_output(folder: Path, text: str, kind: OutputKind = KIND) -> None:
    """What a writer of ``kind`` puts in its folder: a file and the manifest."""
    (folder / "data.txt").write_text(text, encoding="utf-8")
    (folder / str(kind.manifest)).write_text(json.dumps({"format": kind.format}), "utf-8")


def user_folder(path: Path) -> Path:
    path.mkdir()
    (path / "mine.txt").write_text("keep", encoding="utf-8")
    return path


def dead_pid() -> int:
    """The id of a process that has exited."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_atomic_file_replaces_only_on_success(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "result.json"
    write_text(target, "old")
    with pytest.raises(RuntimeError), atomic_file(target) as temporary:
        temporary.write_text("half", encoding="utf-8")
        raise RuntimeError("interrupted")
    assert target.read_text(encoding="utf-8") == "old"
    with atomic_file(target) as temporary:
        assert temporary.parent == target.parent and temporary != target
        temporary.write_text("new", encoding="utf-8")
        assert target.read_text(encoding="utf-8") == "old"
    assert target.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in target.parent.iterdir()) == ["result.json"]


def test_atomic_directory_replaces_a_previous_output_only_with_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "build"
    with atomic_directory(out, KIND) as folder:
        write_output(folder, "first")
        assert not out.exists()
    assert (out / "data.txt").read_text(encoding="utf-8") == "first"

    with pytest.raises(OutputExistsError, match="holds a previous test output; pass --overwrite"):
        with atomic_directory(out, KIND):
            pass
    with pytest.raises(KeyError), atomic_directory(out, KIND, overwrite=True) as folder:
        write_output(folder, "partial")
        raise KeyError("interrupted")
    assert (out / "data.txt").read_text(encoding="utf-8") == "first"

    with atomic_directory(out, KIND, overwrite=True) as folder:
        write_output(folder, "second")
    assert (out / "data.txt").read_text(encoding="utf-8") == "second"
    assert [p.name for p in tmp_path.iterdir()] == ["build"]


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_folder_bindsplit_did_not_write_is_never_replaced(tmp_path: Path, overwrite) -> None:
    mine = user_folder(tmp_path / "mine")
    with pytest.raises(OutputExistsError, match="is not a previous test output") as error:
        with atomic_directory(mine, KIND, overwrite=overwrite):
            raise AssertionError("the guard must fire before the block runs")
    assert "--overwrite" in str(error.value) and "manifest.json" in str(error.value)
    # another kind's output, a manifest without the tag, an unreadable manifest: all foreign
    other = tmp_path / "other"
    other.mkdir()
    write_output(other, "x", OTHER_KIND)
    untagged = user_folder(tmp_path / "untagged")
    (untagged / "manifest.json").write_text(json.dumps({"format": "mine/1"}), encoding="utf-8")
    binary = user_folder(tmp_path / "binary")
    (binary / "manifest.json").write_bytes(b"\x89PNG\r\n\x1a\n\x00")
    for folder in (other, untagged, binary):
        with pytest.raises(OutputExistsError, match="is not a previous test output"):
            check_output(folder, KIND, overwrite=overwrite)
    assert (mine / "mine.txt").read_text(encoding="utf-8") == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["binary", "mine", "other", "untagged"]


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_file_or_link_is_refused_as_an_output_folder(tmp_path: Path, overwrite) -> None:
    file = tmp_path / "notes.txt"
    file.write_text("keep", encoding="utf-8")
    with pytest.raises(OutputExistsError, match="is a file, not a folder"):
        with atomic_directory(file, KIND, overwrite=overwrite):
            raise AssertionError("the guard must fire before the block runs")
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(OutputExistsError, match="is a symbolic link"):
        check_output(link, KIND, overwrite=overwrite)
    assert file.read_text(encoding="utf-8") == "keep"


def test_an_empty_folder_may_be_used_and_nothing_is_needed_without_a_kind(tmp_path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    with atomic_directory(out, KIND) as folder:
        write_output(folder, "new")
    assert (out / "data.txt").read_text(encoding="utf-8") == "new"
    with pytest.raises(OutputExistsError, match="exists and is not empty"):
        check_output(out, None, overwrite=True)  # no kind: nothing can be recognised as ours


def test_a_file_that_appears_during_the_work_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(OutputExistsError, match="is not a previous test output"):
        with atomic_directory(out, KIND) as folder:
            write_output(folder, "new")
            (out / "mine.txt").write_text("written meanwhile", encoding="utf-8")
    assert [p.name for p in out.iterdir()] == ["mine.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # the temporary is gone too


def test_file_outputs_are_guarded_by_their_own_format_tag(tmp_path: Path) -> None:
    record = tmp_path / "results.json"
    check_output(record, RESULTS_OUTPUT)  # nothing there yet
    record.write_text(json.dumps({"format": RESULTS_OUTPUT.format}), encoding="utf-8")
    with pytest.raises(OutputExistsError, match="holds a previous BindSplit results record"):
        check_output(record, RESULTS_OUTPUT)
    check_output(record, RESULTS_OUTPUT, overwrite=True)
    notes = tmp_path / "notes.json"
    notes.write_text("{}", encoding="utf-8")
    with pytest.raises(OutputExistsError, match="is not a previous BindSplit results record"):
        check_output(notes, RESULTS_OUTPUT, overwrite=True)
    with pytest.raises(OutputExistsError, match="is a folder"):
        check_output(tmp_path, RESULTS_OUTPUT, overwrite=True)


def test_refusals_are_bindsplit_errors_and_file_exists_errors() -> None:
    assert issubclass(OutputExistsError, BindsplitError)
    assert issubclass(OutputExistsError, FileExistsError)
    assert issubclass(OutputExistsError, OutputPathError)


def one_line(error: pytest.ExceptionInfo[BaseException]) -> str:
    message = str(error.value)
    assert "\n" not in message
    return message


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs a /proc file system")
def test_a_system_folder_is_refused_before_any_work() -> None:
    with pytest.raises(OutputPathError) as error:
        with atomic_directory("/proc/bindsplit-output", KIND):
            raise AssertionError("the check must fire before the block runs")
    assert one_line(error) == (
        "cannot write the test output to /proc/bindsplit-output: files cannot be created in "
        "/proc (No such file or directory); choose another --out"
    )


def test_a_path_below_a_regular_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("keep", encoding="utf-8")
    out = tmp_path / "notes.txt" / "deeper" / "out"
    with pytest.raises(OutputPathError) as error:
        check_output(out, RESULTS_OUTPUT, option="--out-dir")
    assert one_line(error) == (
        f"cannot write the BindSplit results record to {out}: {tmp_path / 'notes.txt'} is a "
        "file, not a folder; choose another --out-dir"
    )
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "keep"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write anywhere")
def test_a_folder_without_write_permission_is_refused(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(0o500)
    try:
        with pytest.raises(OutputPathError, match=r"files cannot be created in .*locked"):
            check_output(locked / "out", KIND)
    finally:
        locked.chmod(0o700)


def test_a_name_longer_than_the_file_system_allows_is_refused(tmp_path: Path) -> None:
    out = tmp_path / ("n" * 256)
    with pytest.raises(OutputPathError) as error:
        check_output(out, KIND)
    assert one_line(error).endswith(
        ": its name is 256 bytes long, more than the 255 the file system allows; choose another "
        "--out with a shorter name"
    )


def test_a_250_character_name_is_written_and_its_temporaries_fit(tmp_path: Path) -> None:
    out = tmp_path / ("é" * 2 + "n" * 248)  # 252 bytes
    seen: list[str] = []
    with atomic_directory(out, KIND) as folder:
        seen.append(folder.name)
        write_output(folder, "x")
    assert (out / "data.txt").read_text(encoding="utf-8") == "x"
    with atomic_directory(out, KIND, overwrite=True) as folder:  # replaced: an .old on the way
        write_output(folder, "y")
    assert (out / "data.txt").read_text(encoding="utf-8") == "y"
    assert len(os.fsencode(seen[0])) <= 255 and seen[0].startswith(".éé")
    record = tmp_path / ("r" * 245 + ".json")
    write_text(record, "{}")
    assert record.read_text(encoding="utf-8") == "{}"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([out.name, record.name])


def test_stale_temporaries_of_a_long_name_are_recognised(tmp_path: Path) -> None:
    out = tmp_path / ("n" * 250)
    with atomic_directory(out, KIND) as folder:
        temporary_name = folder.name
        write_output(folder, "x")
    pid = dead_pid()
    stale = tmp_path / temporary_name.replace(f".{os.getpid()}-", f".{pid}-")
    stale.mkdir()
    assert remove_stale_temporaries(out) == [stale]


def test_an_updated_file_may_exist_but_not_be_a_folder(tmp_path: Path) -> None:
    figure = tmp_path / "accuracy.png"
    figure.write_bytes(b"old figure")
    assert check_output(figure, FIGURE_OUTPUT) == figure  # drawn again over the old one
    with pytest.raises(OutputExistsError, match="it is a folder; choose another --out"):
        check_output(tmp_path, FIGURE_OUTPUT)


def test_a_kind_may_recognise_its_files_itself(tmp_path: Path) -> None:
    kind = OutputKind("table", "table/1", recognise=lambda path: path.read_bytes() == b"TABLE")
    table = tmp_path / "t.parquet"
    table.write_bytes(b"TABLE")
    check_output(table, kind, overwrite=True)
    table.write_bytes(b"mine")
    with pytest.raises(OutputExistsError, match=r"is not a previous table \(not recognised\)"):
        check_output(table, kind, overwrite=True)


def test_outputs_respect_the_umask(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        with atomic_directory(tmp_path / "out", KIND) as folder:
            write_output(folder, "x")
        write_text(tmp_path / "file.txt", "x")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "out").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "out" / "data.txt").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "file.txt").stat().st_mode) == 0o644


def test_stale_temporaries_of_dead_runs_are_removed_on_the_next_write(tmp_path: Path) -> None:
    pid = dead_pid()
    out = tmp_path / "build"
    stale_folder = tmp_path / f".build.{pid}-0123abcd.tmp"
    stale_folder.mkdir()
    (stale_folder / "half.parquet").write_bytes(b"half")
    stale_old = tmp_path / f".build.{pid}-89abcdef.old"
    stale_old.mkdir()
    running = tmp_path / f".build.{os.getpid()}-00000000.tmp"  # a run in progress: kept
    running.mkdir()
    keep = [
        tmp_path / ".build.mine.tmp",  # not our naming
        tmp_path / f".build2.{pid}-0123abcd.tmp",  # another output's temporary
        tmp_path / f".build.{pid}-0123abcd.tmp.bak",
    ]
    for path in keep:
        path.write_text("user", encoding="utf-8")
    with atomic_directory(out, KIND) as folder:
        write_output(folder, "x")
    assert not stale_folder.exists() and not stale_old.exists()
    assert running.is_dir() and all(path.read_text(encoding="utf-8") == "user" for path in keep)

    stale_file = tmp_path / f".results.json.{pid}-0123abcd.tmp"
    stale_file.write_text("half", encoding="utf-8")
    write_text(tmp_path / "results.json", "{}")
    assert not stale_file.exists()
    assert remove_stale_temporaries(out) == []


def test_plot_and_export_check_their_output_before_reading_records(tmp_path, capsys) -> None:
    from bindsplit_datasets import cli

    (tmp_path / "notes.txt").write_text("keep", encoding="utf-8")
    missing = str(tmp_path / "no-such-record.json")  # never read: the output is checked first
    figure = tmp_path / "notes.txt" / "accuracy.png"
    assert cli.main(["plot", missing, "--out", str(figure)]) == 2
    assert capsys.readouterr().err == (
        f"bindsplit plot: error: cannot write the figure to {figure}: {tmp_path / 'notes.txt'} "
        "is a file, not a folder; choose another --out\n"
    )
    card = tmp_path / "notes.txt" / "README.md"
    assert cli.main(["export", "model-index", missing, "--readme", str(card)]) == 2
    assert capsys.readouterr().err == (
        f"bindsplit export: error: cannot write the model card to {card}: "
        f"{tmp_path / 'notes.txt'} is a file, not a folder; choose another --readme\n"
    )
