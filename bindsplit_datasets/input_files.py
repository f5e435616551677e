"""Every file BindSplit reads because a user named it, checked before it is opened.

Opening a FIFO blocks until a writer comes (for ever, when none does), and a device or a socket
never ends; :func:`check_input_file` refuses them at once, in one line, wherever a file is read
(scores files, results records and tables, caption corpora, Parquet shards, reference indexes,
manifests, hashed files). A missing path is left to the caller, whose message says what was
expected there.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import NotARegularFileError

__all__ = ["check_input_file"]

#: What each kind of special file is called in messages.
_KINDS: tuple[tuple[object, str], ...] = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


#: What a refused input is told to do instead.
_READ_WHOLE = (
    "BindSplit reads files whole and more than once, so save the data to a file and pass that"
)


def check_input_file(
    path: str | os.PathLike[str], what: str = "input file", *, fix: str = _READ_WHOLE
) -> Path:
    """``path`` as a :class:`~pathlib.Path`, unless it names something other than a regular file
    or a folder (:class:`~bindsplit_datasets.errors.NotARegularFileError`, naming ``what`` and
    ending with ``fix``). Never opens the path, so a FIFO is refused without blocking.

    >>> check_input_file("no/such/file").name
    'file'
    """
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # missing, unreadable, a bad name: the caller's to report
        return path
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return path
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")  # type: ignore[operator]
    raise NotARegularFileError(f"{what} {path} is {kind}, not a regular file; {fix}")
