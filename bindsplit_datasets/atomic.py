"""Writing outputs so that nothing half-written is left in place and nothing of the user's is lost.

Every file or folder BindSplit produces is written under a temporary sibling name and renamed to
its final name only when complete; on any error the temporary is removed and whatever was at the
final path before is untouched. Siblings (not a system temp folder) keep the rename on one file
system, where it is atomic.

Output folders are guarded by :func:`check_output`: BindSplit replaces only what it wrote itself.
Each kind of output carries a manifest with a format tag (:class:`OutputKind`); an existing path
is replaced only when it holds such a manifest of the same kind and the caller passed
``overwrite`` (``--overwrite``). A file where a folder goes, a folder of the user's, or a
previous output without ``overwrite`` is refused before any work starts.

Temporaries are named ``.NAME.PID-RANDOM.tmp`` (``.old`` for a replaced folder on its way out);
ones left behind by a process that no longer runs (killed, power loss) are removed the next time
``NAME`` is written. Files are created with the usual permissions (``0666`` and folders ``0777``,
less the umask), as ``open`` and ``mkdir`` would, not the private modes of :mod:`tempfile`.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .errors import OutputExistsError
from .names import (
    BUILD_FORMAT,
    CHECKPOINT_FORMAT,
    DEMO_FORMAT,
    MANIFEST_NAME,
    RESULTS_FORMAT,
    TRAINSET_FORMAT,
)

__all__ = [
    "BUILD_OUTPUT",
    "CHECKPOINT_OUTPUT",
    "DEMO_OUTPUT",
    "RESULTS_OUTPUT",
    "TRAINSET_OUTPUT",
    "OutputKind",
    "atomic_directory",
    "atomic_file",
    "check_output",
    "remove_stale_temporaries",
    "write_text",
]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class OutputKind:
    """What marks a path as a previous output of one kind, which BindSplit may replace.

    Attributes:
        description: what the output is, for messages ("BindSplit build").
        format: the format tag its manifest holds under ``"format"``.
        manifest: file name of the manifest inside an output folder; ``None`` for an output that
            is itself a JSON file carrying the tag (a results record).
    """

    description: str
    format: str
    manifest: str | None = None

    @property
    def is_folder(self) -> bool:
        return self.manifest is not None

    def marks(self, path: str | os.PathLike[str]) -> bool:
        """Whether ``path`` is a previous output of this kind (its manifest has the tag)."""
        manifest = Path(path) / self.manifest if self.manifest else Path(path)
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return False
        return isinstance(data, dict) and data.get("format") == self.format


#: A folder written by ``bindsplit build``.
BUILD_OUTPUT = OutputKind("BindSplit build", BUILD_FORMAT, MANIFEST_NAME)
#: A folder written by ``bindsplit demo``.
DEMO_OUTPUT = OutputKind("BindSplit demo output", DEMO_FORMAT, "demo.json")
#: A folder written by ``bindsplit synth``.
TRAINSET_OUTPUT = OutputKind("synthetic training set", TRAINSET_FORMAT, "generation.json")
#: A checkpoint folder written by ``bindsplit train-synthetic``.
CHECKPOINT_OUTPUT = OutputKind("synthetic checkpoint", CHECKPOINT_FORMAT, "training_report.json")
#: A results record (JSON file) written by ``bindsplit eval``.
RESULTS_OUTPUT = OutputKind("BindSplit results record", RESULTS_FORMAT)


def check_output(
    path: str | os.PathLike[str], kind: OutputKind | None = None, *, overwrite: bool = False
) -> None:
    """Raise :class:`~bindsplit_datasets.errors.OutputExistsError` unless ``path`` may be
    written as an output of ``kind``. Call it before any work, so a refusal costs nothing.

    A folder output (``kind.manifest`` set, or ``kind=None``) may go where nothing is, or where an
    empty folder is; a file output where nothing is. An existing previous output of ``kind`` is
    replaced only with ``overwrite``. Anything else (a file where a folder goes, a folder where a
    file goes, a symbolic link, a folder or file BindSplit did not write) is refused, with or
    without ``overwrite``.
    """
    path = Path(path)
    if path.is_symlink():
        raise OutputExistsError(
            f"{path} is a symbolic link; BindSplit does not write through links: pass the path it "
            "points to, or choose another --out"
        )
    if not path.exists():
        return
    folder = kind is None or kind.is_folder
    if folder and not path.is_dir():
        raise OutputExistsError(
            f"{path} is a file, not a folder: BindSplit writes a folder there and never replaces "
            "a file; choose another --out"
        )
    if not folder and path.is_dir():
        raise OutputExistsError(f"{path} is a folder; choose a file path for --out")
    if folder and not any(path.iterdir()):
        return
    if kind is None or not kind.marks(path):
        raise OutputExistsError(f"{path} exists and {_not_ours(kind)}")
    if not overwrite:
        raise OutputExistsError(
            f"{path} holds a previous {kind.description}; pass --overwrite (overwrite=True) to "
            "replace it, or choose another --out"
        )


def _not_ours(kind: OutputKind | None) -> str:
    if kind is None:
        return "is not empty; choose another --out, or empty the folder yourself"
    marker = f"{kind.manifest} with format" if kind.is_folder else "format"
    return (
        f"is not a previous {kind.description} (no {marker} {kind.format!r}): BindSplit replaces "
        "only its own outputs, even with --overwrite; choose another --out, or move it away "
        "yourself"
    )


# ------------------------------------------------------------------------------- temporaries
def _temporary_name(path: Path, suffix: str) -> Path:
    return path.parent / f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}{suffix}"


def _temporary_pattern(path: Path) -> re.Pattern[str]:
    return re.compile(rf"^\.{re.escape(path.name)}\.(\d+)-[0-9a-f]{{8}}\.(?:tmp|old)$")


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists on this machine (assumed so where that cannot be told)."""
    if os.name != "posix" or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # no such process / not a process id
        return False
    except PermissionError:  # another user's process
        return True
    return True


def remove_stale_temporaries(path: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporaries of ``path`` that a process no longer running left behind (named
    ``.NAME.PID-RANDOM.tmp``/``.old`` by this module; nothing else is touched); return them."""
    path = Path(path)
    pattern = _temporary_pattern(path)
    removed: list[Path] = []
    try:
        candidates = list(path.parent.iterdir())
    except OSError:
        return removed
    for candidate in candidates:
        match = pattern.match(candidate.name)
        if match is None or _running(int(match.group(1))) or candidate.is_symlink():
            continue
        if candidate.is_dir():
            shutil.rmtree(candidate, ignore_errors=True)
        else:
            candidate.unlink(missing_ok=True)
        logger.info("removed %s, left behind by an interrupted run", candidate)
        removed.append(candidate)
    return removed


def _create_file(path: Path) -> Path:
    while True:
        temporary = _temporary_name(path, ".tmp")
        try:
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return temporary


def _create_folder(path: Path, suffix: str) -> Path:
    while True:
        temporary = _temporary_name(path, suffix)
        try:
            temporary.mkdir(0o777)
        except FileExistsError:
            continue
        return temporary


# ---------------------------------------------------------------------------------- writing
@contextmanager
def atomic_file(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary sibling of ``path`` to write; it replaces ``path`` when the block ends
    without an error, and is removed otherwise. Parent folders are created.

    This replaces an existing file at ``path``: guard user-named outputs with
    :func:`check_output` first.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(path)
    temporary = _create_file(path)
    try:
        yield temporary
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically and return the path."""
    path = Path(path)
    with atomic_file(path) as temporary:
        temporary.write_text(text, encoding="utf-8")
    return path


@contextmanager
def atomic_directory(
    out: str | os.PathLike[str], kind: OutputKind | None = None, *, overwrite: bool = False
) -> Iterator[Path]:
    """Yield an empty temporary sibling folder of ``out``; when the block ends without an error
    it becomes ``out``, otherwise it is removed.

    ``out`` is checked with :func:`check_output` on entry (before the caller's work) and again
    just before the rename, so what was there is replaced only if it is an empty folder or a
    previous output of ``kind`` (with ``overwrite``); it is removed only once the new folder is
    in place. The block must write the manifest of ``kind`` so that the next run recognises it.

    Raises:
        OutputExistsError: ``out`` may not be replaced (see :func:`check_output`).
    """
    out = Path(out)
    check_output(out, kind, overwrite=overwrite)
    out.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(out)
    temporary = _create_folder(out, ".tmp")
    try:
        yield temporary
        check_output(out, kind, overwrite=overwrite)  # it may have changed meanwhile
        _replace_directory(temporary, out)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


def _replace_directory(new: Path, out: Path) -> None:
    if not out.exists():
        new.rename(out)
        return
    old = _create_folder(out, ".old")
    old.rmdir()
    out.rename(old)
    try:
        new.rename(out)
    except BaseException:
        old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)
