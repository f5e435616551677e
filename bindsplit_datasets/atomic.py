"""Writing outputs so that nothing half-written is left in place and nothing of the user's is lost.

Every file or folder BindSplit produces is written under a temporary sibling name and renamed to
its final name only when complete; on any error the temporary is removed and whatever was at the
final path before is untouched. Siblings (not a system temp folder) keep the rename on one file
system, where it is atomic.

Every output path is checked by :func:`check_output` before any work (the one check, with one
message form everywhere): that it can be written at all, and that BindSplit replaces only what it
wrote itself.
Each kind of output carries a manifest with a format tag (:class:`OutputKind`); an existing path
is replaced only when it holds such a manifest of the same kind and the caller passed
``overwrite`` (``--overwrite``). A file where a folder goes, a folder of the user's, or a
previous output without ``overwrite`` is refused before any work starts.

Temporaries are named ``.NAME.PID-RANDOM.tmp`` (``.old`` for a replaced folder on its way out;
a ``NAME`` too long for that to fit 255 bytes is shortened and suffixed with a digest of it);
ones left behind by a process that no longer runs (killed, power loss) are removed the next time
``NAME`` is written. Files are created with the usual permissions (``0666`` and folders ``0777``,
less the umask), as ``open`` and ``mkdir`` would, not the private modes of :mod:`tempfile`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import secrets
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .errors import OutputExistsError, OutputPathError
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
    "FIGURE_OUTPUT",
    "MODEL_CARD_OUTPUT",
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

#: Longest file name, in bytes, where the file system does not say (ext4, XFS, APFS, NTFS).
_NAME_MAX = 255
#: Bytes of a temporary's name left for the output's name: ``.NAME.PID-RANDOM.tmp`` with a
#: process id of up to 10 digits stays within :data:`_NAME_MAX`.
_STEM_MAX = _NAME_MAX - len(".") - len(".") - 10 - len("-") - 8 - len(".tmp")


@dataclass(frozen=True)
class OutputKind:
    """What marks a path as a previous output of one kind, which BindSplit may replace.

    Attributes:
        description: what the output is, for messages ("BindSplit build").
        format: the format tag its manifest holds under ``"format"``.
        manifest: file name of the manifest inside an output folder; ``None`` for an output that
            is itself a file: a JSON file carrying the tag (a results record), or a file that
            ``recognise`` tells apart.
        recognise: for a file whose format tag is not a JSON ``"format"`` key (a Parquet file
            with the tag in its metadata), the test of whether a path is such a previous output.
        updates: a file output that updates (or replaces) the file the user names, which may
            therefore exist: a model card whose metadata is rewritten, a figure drawn again.
    """

    description: str
    format: str
    manifest: str | None = None
    recognise: Callable[[Path], bool] | None = field(default=None, compare=False)
    updates: bool = False

    @property
    def is_folder(self) -> bool:
        return self.manifest is not None

    def marks(self, path: str | os.PathLike[str]) -> bool:
        """Whether ``path`` is a previous output of this kind (its manifest has the tag)."""
        if self.recognise is not None:
            return self.recognise(Path(path))
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
#: A figure file written by ``bindsplit plot`` (drawn again over a previous one).
FIGURE_OUTPUT = OutputKind("figure", "figure", updates=True)
#: A model card whose metadata ``bindsplit export model-index --readme`` updates in place.
MODEL_CARD_OUTPUT = OutputKind("model card", "model card", updates=True)


def check_output(
    path: str | os.PathLike[str],
    kind: OutputKind | None = None,
    *,
    overwrite: bool = False,
    option: str = "--out",
) -> Path:
    """Raise :class:`~bindsplit_datasets.errors.OutputPathError` unless ``path`` may be written
    as an output of ``kind``; return it. The one check of every output path: call it before any
    work, so a refusal costs nothing.

    Refused, with one line ``cannot write <what> to <path>: <reason>; <fix>``:

    * a path that cannot be written: a name longer than the file system allows, a path below a
      regular file, a folder where files cannot be created (``/proc``, read-only, no permission;
      tried by creating and removing the temporary BindSplit would write, so what the check
      accepts the write can do);
    * a symbolic link, a file where a folder goes, a folder where a file goes;
    * the current folder or a folder above it (``--out .``): it cannot be replaced by a rename;
    * something BindSplit did not write (a folder of the user's, a foreign file), with or without
      ``overwrite`` (:class:`~bindsplit_datasets.errors.OutputExistsError`);
    * a previous output of ``kind`` without ``overwrite`` (``OutputExistsError``).

    A folder output (``kind.manifest`` set, or ``kind=None``) may go where nothing is or where
    an empty folder is; a file output where nothing is. ``option`` names the argument in the fix.
    """
    path = Path(path)
    what = f"the {kind.description}" if kind is not None else "the output"
    where = f"cannot write {what} to {path}"
    fix = f"choose another {option}"
    _check_name_length(path, where, fix)
    if path.is_symlink():
        raise OutputExistsError(
            f"{where}: it is a symbolic link, and BindSplit does not write through links; pass "
            f"the path it points to, or {fix}"
        )
    if path.exists() and Path.cwd().resolve().is_relative_to(path.resolve()):
        raise OutputPathError(
            f"{where}: it is the folder you are in, or holds it, and BindSplit writes an output "
            f"beside its place and renames it there, which a folder in use cannot be; {fix}, or "
            "run from another folder"
        )
    _check_existing(path, kind, overwrite, where, fix)
    _check_writable(path, where, fix)
    return path


def _check_name_length(path: Path, where: str, fix: str) -> None:
    limit = _name_max(_existing_ancestor(path))
    size = len(os.fsencode(path.name))
    if size > limit:
        raise OutputPathError(
            f"{where}: its name is {size} bytes long, more than the {limit} the file system "
            f"allows; {fix} with a shorter name"
        )


def _check_existing(
    path: Path, kind: OutputKind | None, overwrite: bool, where: str, fix: str
) -> None:
    if not path.exists():
        return
    folder = kind is None or kind.is_folder
    if folder and not path.is_dir():
        raise OutputExistsError(
            f"{where}: it is a file, not a folder, and BindSplit writes a folder there and never "
            f"replaces a file; {fix}"
        )
    if not folder and path.is_dir():
        raise OutputExistsError(f"{where}: it is a folder; {fix} that names a file")
    if not folder and not path.is_file():  # reading or replacing it would block or destroy it
        raise OutputExistsError(
            f"{where}: it is a named pipe, a device or a socket, not a regular file, and "
            f"BindSplit writes regular files only; {fix}"
        )
    if kind is not None and kind.updates:
        return
    if folder and not any(path.iterdir()):
        return
    if kind is None:
        raise OutputExistsError(
            f"{where}: it exists and is not empty; {fix}, or empty the folder yourself"
        )
    if not kind.marks(path):
        marker = f"{kind.manifest} with format" if kind.is_folder else "format"
        found = f"no {marker} {kind.format!r}" if kind.recognise is None else "not recognised"
        raise OutputExistsError(
            f"{where}: it exists and is not a previous {kind.description} ({found}), and "
            f"BindSplit replaces only its own outputs, even with --overwrite; {fix}, or move it "
            "away yourself"
        )
    if not overwrite:
        raise OutputExistsError(
            f"{where}: it holds a previous {kind.description}; pass --overwrite "
            f"(overwrite=True) to replace it, or {fix}"
        )


def _check_writable(path: Path, where: str, fix: str) -> None:
    """Create and remove, in the nearest existing folder above ``path``, a folder named as the
    temporary of ``path`` will be: the only reliable test (``os.access`` says yes to root in
    ``/proc``, and says nothing of read-only file systems or name limits)."""
    ancestor = _existing_ancestor(path)
    if not ancestor.is_dir():
        raise OutputPathError(f"{where}: {ancestor} is a file, not a folder; {fix}")
    probe = ancestor / _temporary_name(path, ".tmp").name
    try:
        probe.mkdir(0o700)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise OutputPathError(
            f"{where}: files cannot be created in {ancestor} ({reason}); {fix}"
        ) from None
    probe.rmdir()


def _existing_ancestor(path: Path) -> Path:
    """``path``'s parent, or the nearest of its ancestors that exists."""
    ancestor = path.absolute().parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    return ancestor


def _name_max(folder: Path) -> int:
    """Longest file name, in bytes, of the file system of ``folder`` (255 where not told)."""
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (AttributeError, OSError, ValueError):
        return _NAME_MAX


# ------------------------------------------------------------------------------- temporaries
def _temporary_stem(path: Path) -> str:
    """``path``'s name as its temporaries carry it: the name itself when the temporary name fits
    the usual 255-byte limit, else its first bytes and a digest of the whole."""
    name = path.name
    encoded = os.fsencode(name)
    if len(encoded) <= _STEM_MAX:
        return name
    digest = hashlib.sha256(encoded).hexdigest()[:8]
    head = encoded[: _STEM_MAX - len(digest) - 1].decode("utf-8", errors="ignore")
    return f"{head}~{digest}"


def _temporary_name(path: Path, suffix: str) -> Path:
    return path.parent / f".{_temporary_stem(path)}.{os.getpid()}-{secrets.token_hex(4)}{suffix}"


def _temporary_pattern(path: Path) -> re.Pattern[str]:
    stem = re.escape(_temporary_stem(path))
    return re.compile(rf"^\.{stem}\.(\d+)-[0-9a-f]{{8}}\.(?:tmp|old)$")


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
