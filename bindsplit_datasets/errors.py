"""Exception types. Every error BindSplit raises on bad input says what is wrong and how to fix
it.

The command line prints an error of these types as one line (exit code 2) and lets any other
exception show its traceback, since that is a bug. Each type also derives from the built-in
exception a caller would naturally catch (``ValueError``, ``FileNotFoundError``, ...), so code
written against the built-in types keeps working.
"""

from __future__ import annotations

import errno

__all__ = [
    "BindsplitError",
    "BindsplitFileNotFoundError",
    "BindsplitValueError",
    "BuildVerificationError",
    "NotAFolderError",
    "OutputExistsError",
    "OutputPathError",
    "ResumeMismatchError",
    "SchemaError",
    "SaveScoresError",
    "ScoresFileError",
    "ScoringOptionError",
    "is_user_error",
]

#: Operating-system errors about the user's machine (permissions, space), not a bug.
_ENVIRONMENT_ERRNOS = frozenset(
    getattr(errno, name)
    for name in ("EACCES", "EPERM", "ENOSPC", "EDQUOT", "EROFS")
    if hasattr(errno, name)
)


class BindsplitError(Exception):
    """Base class for BindSplit's own errors; the command line prints their message, no
    traceback."""


class BindsplitValueError(BindsplitError, ValueError):
    """An option or argument with a value BindSplit cannot use (unknown name, out of range)."""


class BindsplitFileNotFoundError(BindsplitError, FileNotFoundError):
    """An input the user named (file, folder, Hub id) does not exist."""


class NotAFolderError(BindsplitError, NotADirectoryError):
    """An input that must be a folder is a file."""


class OutputPathError(BindsplitError, ValueError):
    """An output path BindSplit cannot write (a system folder such as ``/proc``, a path below a
    regular file, a folder without write permission, a name too long for the file system), or
    may not replace (:class:`OutputExistsError`); found before any work, nothing was written.
    Raised by :func:`bindsplit_datasets.atomic.check_output`, the one check of output paths."""


class OutputExistsError(OutputPathError, FileExistsError):
    """The output path holds something BindSplit may not replace (a file, a foreign folder, or a
    previous output without ``--overwrite``); nothing was written."""


class SchemaError(BindsplitError, ValueError):
    """Input that does not have the expected schema (missing column, wrong format, foreign file)."""


class BuildVerificationError(SchemaError):
    """A built dataset folder does not match its manifest: changed, truncated or corrupt files."""


class ResumeMismatchError(BindsplitValueError):
    """``--resume`` found the checkpoint of another build (other corpus files, parser or
    options) than the one asked for; nothing was counted."""


def is_user_error(error: BaseException) -> bool:
    """Whether ``error`` is the user's to fix, to be printed as one line: one of BindSplit's own
    errors, a denied permission or a full disk. Anything else is a bug and keeps its
    traceback."""
    if isinstance(error, BindsplitError):
        return True
    return isinstance(error, OSError) and error.errno in _ENVIRONMENT_ERRNOS


class ScoringOptionError(BindsplitError, ValueError):
    """An invalid scorer option (mixed precision, batch size, workers, launcher)."""


class ScoresFileError(SchemaError):
    """A per-sample scores file that does not fit the build it is imported for (a sample missing
    or repeated, an unknown id, a matrix of the wrong shape, a value that is not finite)."""


class SaveScoresError(BindsplitError, OSError):
    """``--save-scores`` could not write its file after scoring (the results record was kept)."""
