"""Writing outputs so that nothing half-written is ever left in place.

Every file or folder BindSplit produces is written under a temporary sibling name and renamed to
its final name only when complete; on any error the temporary is removed and whatever was at the
final path before is untouched. Siblings (not a system temp folder) keep the rename on one file
system, where it is atomic.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["atomic_directory", "atomic_file", "write_text"]


@contextmanager
def atomic_file(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary sibling of ``path`` to write; it replaces ``path`` when the block ends
    without an error, and is removed otherwise. Parent folders are created."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    temporary = Path(name)
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
def atomic_directory(out: str | os.PathLike[str], *, overwrite: bool = False) -> Iterator[Path]:
    """Yield an empty temporary sibling folder of ``out``; when the block ends without an error
    it becomes ``out`` (an existing ``out`` is removed only once the new one is in place),
    otherwise it is removed.

    Raises:
        FileExistsError: ``out`` exists and ``overwrite`` is false (checked before any work).
    """
    out = Path(out)
    if out.exists() and not overwrite:
        raise FileExistsError(f"{out} already exists: choose another folder or overwrite it")
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        yield temporary
        _replace_directory(temporary, out)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


def _replace_directory(new: Path, out: Path) -> None:
    if not out.exists():
        new.rename(out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".old", dir=out.parent))
    old.rmdir()
    out.rename(old)
    try:
        new.rename(out)
    except BaseException:
        old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)
