"""Exception types. Every error BindSplit raises on bad input says what is wrong and how to fix
it.

The command line prints an error of these types as one line (exit code 2) and lets any other
exception show its traceback, since that is a bug. Each type also derives from the built-in
exception a caller would naturally catch (``ValueError``, ``FileNotFoundError``, ...), so code
written against the built-in types keeps working.
"""

from __future__ import annotations

import errno
import importlib
import pickle
import re
import zipfile
from collections.abc import Callable, Iterable
from types import ModuleType

from .names import REPOSITORY_URL

__all__ = [
    "BindsplitError",
    "BindsplitFileNotFoundError",
    "BindsplitValueError",
    "BuildVerificationError",
    "ChecksumError",
    "CorruptWeightsError",
    "EmptyCorpusError",
    "InvalidModelSpecError",
    "LeakageError",
    "MetricInstallError",
    "MissingExtraError",
    "MissingProcessorError",
    "ModelNotFoundError",
    "NotAFolderError",
    "NotAModelFolderError",
    "NotARegularFileError",
    "OutputExistsError",
    "OutputPathError",
    "PackageDataError",
    "ParserMismatchError",
    "RelationsMissingError",
    "ResumeMismatchError",
    "SchemaError",
    "SaveScoresError",
    "SpecError",
    "ScoresFileError",
    "ScoringOptionError",
    "UnknownModelPrefixError",
    "UnsupportedModelError",
    "WeightsMismatchError",
    "WorkFolderBusyError",
    "corrupt_weights",
    "describe_error",
    "is_corrupt_weights",
    "is_user_error",
    "require",
    "user_error_line",
    "weights_mismatch",
]

#: The distribution name in the pip command of a missing extra.
_DISTRIBUTION = "bindsplit-datasets"

#: Operating-system errors about the user's machine (permissions, space, a path below a file, a
#: busy folder), not a bug.
_ENVIRONMENT_ERRNOS = frozenset(
    getattr(errno, name)
    for name in ("EACCES", "EPERM", "ENOSPC", "EDQUOT", "EROFS", "EFBIG", "ENOTDIR", "EBUSY")
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


class NotARegularFileError(BindsplitError, OSError):
    """An input file that is a FIFO, a device or a socket (reading it would block or never end);
    raised by :func:`bindsplit_datasets.input_files.check_input_file` before it is opened."""


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


class WorkFolderBusyError(BindsplitError, BlockingIOError):
    """Another run holds the work folder (a second build into the same ``--out``); nothing was
    counted or written."""


class Terminated(BaseException):  # noqa: N818 (a signal, like KeyboardInterrupt)
    """SIGTERM, raised in the command line's main thread so that a command stops as on Ctrl-C:
    ``with`` blocks and ``finally`` clauses run (worker pools stopped, temporaries removed)."""


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _cause(error: BaseException) -> str:
    """The first line of what caused ``error`` (its ``__cause__``, else itself)."""
    cause = error.__cause__ or error.__context__ or error
    text = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {text[0]}" if text else type(cause).__name__


def _own(error: BaseException) -> str:
    return _one_line(str(error))


def _memory(error: BaseException) -> str:
    # a MemoryError often has no message
    detail = _one_line(str(error))
    return (
        f"out of memory{f' ({detail})' if detail else ''}: raise the memory limit "
        "(ulimit -v) or use fewer workers (--num-workers) or a smaller batch"
    )


def _environment(error: BaseException) -> str | None:
    """A denied permission, a full disk, a file-size limit, a path below a file, a busy
    folder: the user's machine, not a bug."""
    number = getattr(error, "errno", None)
    if number is None and error.args:  # pyarrow's file errors carry the errno in their message
        known = any(f"[Errno {n}]" in str(error) for n in _ENVIRONMENT_ERRNOS)
        return _one_line(str(error)) if known else None
    return _one_line(str(error)) if number in _ENVIRONMENT_ERRNOS else None


def _unreadable_data(error: BaseException) -> str:
    return (
        f"the data could not be read ({_one_line(_cause(error))}); a file of the source or "
        "build is damaged or not in the expected format: fix or download it again, or rebuild"
    )


def _not_an_image(error: BaseException) -> str:
    reason = re.sub(r"\s*<[^>]*>", "", _one_line(str(error)))  # no "<_io.BytesIO at 0x...>"
    return (
        f"an image cannot be decoded ({reason}): the data holds bytes that are "
        "not an image; fix the source and rebuild (a build checks every image it keeps)"
    )


def _unreachable(error: BaseException) -> str:
    return (
        f"the Hub or a remote source cannot be reached ({_one_line(str(error))}); connect to "
        "the network (and unset HF_HUB_OFFLINE), or pass a local copy"
    )


#: What an ImportError's message says when the cause is the machine (no memory to map a
#: library), not the program.
_MEMORY_WORDS = ("cannot allocate memory", "failed to map segment", "out of memory")


def _failed_import(error: BaseException) -> str | None:
    """An import that failed for lack of memory (``ulimit -v``), or an optional protocol
    library fsspec asks for ("Install s3fs to access S3"); any other ImportError is a bug."""
    text = _one_line(str(error))
    if any(words in text.lower() for words in _MEMORY_WORDS):
        return _memory(error)
    if text.startswith("Install ") and " to access " in text:
        package = text.split()[1]
        return f"{text}: pip install {package}, or copy the data to a local file"
    return None


#: The exceptions that are the user's to fix, printed as one line (exit code 2), by the name
#: ``module.Class`` of their class (matched along its MRO, most specific first, so that no
#: library is imported here): each maps to the line it prints, or to ``None`` for an instance
#: that is a bug after all. Anything else is a bug and keeps its traceback.
USER_ERRORS: dict[str, Callable[[BaseException], str | None]] = {
    f"{__name__}.BindsplitError": _own,
    "builtins.MemoryError": _memory,
    "builtins.OSError": _environment,
    "builtins.ConnectionError": _unreachable,
    "requests.exceptions.ConnectionError": _unreachable,
    "huggingface_hub.errors.OfflineModeIsEnabled": _unreachable,
    "datasets.exceptions.DatasetGenerationError": _unreadable_data,
    "PIL.UnidentifiedImageError": _not_an_image,
    "builtins.ImportError": _failed_import,
}


def user_error_line(error: BaseException) -> str | None:
    """The one line the command line prints for ``error`` if it is the user's to fix
    (:data:`USER_ERRORS`), else ``None``: a bug."""
    for cls in type(error).__mro__:
        describe = USER_ERRORS.get(f"{cls.__module__}.{cls.__qualname__}")
        if describe is not None:
            line = describe(error)
            if line is not None:
                return line
    return None


def is_user_error(error: BaseException) -> bool:
    """Whether ``error`` is the user's to fix, to be printed as one line (:data:`USER_ERRORS`:
    one of BindSplit's own errors, a denied permission, a full disk or a file-size limit
    (``ulimit -f``), memory exhausted (``ulimit -v``), an unreachable Hub, unreadable data).
    Anything else is a bug and keeps its traceback."""
    return user_error_line(error) is not None


def describe_error(error: BaseException) -> str:
    """``error`` as the one line the command line prints."""
    return user_error_line(error) or _one_line(str(error))


class ScoringOptionError(BindsplitError, ValueError):
    """An invalid scorer option (mixed precision, batch size, workers, launcher)."""


class ScoresFileError(SchemaError):
    """A per-sample scores file that does not fit the build it is imported for (a sample missing
    or repeated, an unknown id, a matrix of the wrong shape, a value that is not finite)."""


class SaveScoresError(BindsplitError, OSError):
    """``--save-scores`` could not write its file after scoring (the results record was kept)."""


# ----------------------------------------------------------------------- installation and data
class MissingExtraError(BindsplitError, ImportError):
    """A package of an optional extra (``scoring``, ``openclip``, ``plot``, ``distributed``) is
    not installed; raised by :func:`require`, whose message gives the pip command."""


class PackageDataError(BindsplitError):
    """A data file shipped in the package (the tagger weights, the word-class table) is missing
    or is not the file this version was built with; reinstalling fixes it."""


class ChecksumError(BindsplitError):
    """A downloaded or cached file does not have its expected checksum (MD5 given for the
    download, or the SHA-256 recorded when it was cached)."""


def require(
    extra: str, *modules: str, purpose: str | None = None, instead: str | None = None
) -> list[ModuleType]:
    """Import ``modules`` (in order), or raise :class:`MissingExtraError` naming the module, what
    needs it (``purpose``, when given), the extra that installs it with its pip command and,
    when given, what to do ``instead``. The one check of optional dependencies, so every missing
    extra reads the same.

    >>> [module.__name__ for module in require("plot", "json", purpose="a figure")]
    ['json']
    >>> try:
    ...     require("plot", "no_such_module", purpose="a figure")
    ... except MissingExtraError as error:
    ...     for part in str(error).split("; "):
    ...         print(part)
    a figure needs no_such_module, which cannot be imported (No module named 'no_such_module')
    it comes with the 'plot' extra: pip install 'bindsplit-datasets[plot] @ git+https://github.com/bindsplit/bindsplit'.
    """
    imported = []
    for name in modules:
        try:
            imported.append(importlib.import_module(name))
        except ImportError as error:
            subject = f"{purpose} needs {name}, which" if purpose else name
            alternative = f", or {instead}" if instead else ""
            raise MissingExtraError(
                f"{subject} cannot be imported ({error}); it comes with the {extra!r} extra: "
                f"pip install '{_DISTRIBUTION}[{extra}] @ git+{REPOSITORY_URL}'{alternative}."
            ) from None
    return imported


class MetricInstallError(BindsplitError, OSError):
    """``install-metric`` could not install the metric in evaluate's modules cache (a file where
    a folder goes, a path that cannot be written), or ``evaluate.load("bindsplit")`` does not
    load what it installed."""


# ------------------------------------------------------------------------------------ reference
class EmptyCorpusError(BindsplitError, ValueError):
    """A reference corpus without a single usable caption."""


class ParserMismatchError(BindsplitError):
    """A saved reference index was built by another parser version or normalisation than the
    running one."""


class RelationsMissingError(SchemaError):
    """A relation build (``--bindings relation|both``) was given a reference index without
    relation triples (an index of the older format, or one built without them)."""


class SpecError(SchemaError):
    """A benchmark spec file (``benchmarks/specs/``, ``bindsplit build custom --spec``) that does
    not describe a benchmark: the message names the file, the field and the fix."""


class LeakageError(BindsplitError):
    """The reference contains a large share of the benchmark's own positive captions
    (docs/protocol.md, section 2)."""


# --------------------------------------------------------------------------------------- models
class UnknownModelPrefixError(BindsplitValueError):
    """A model string whose ``prefix:`` names no registered loader."""


class InvalidModelSpecError(BindsplitValueError):
    """A model that cannot be used as passed (unknown architecture or tag, an option that does
    not apply to it)."""


class ModelNotFoundError(BindsplitFileNotFoundError):
    """Neither a local model folder nor a model the Hub (or its local cache) has."""


class NotAModelFolderError(BindsplitError, ValueError):
    """A path that exists but is not a loadable model folder (a file, no config, no weights)."""


class WeightsMismatchError(BindsplitError, ValueError):
    """A checkpoint whose weights do not fill the model (missing, unexpected or reshaped)."""


class CorruptWeightsError(BindsplitError, ValueError):
    """A weights file that cannot be read (truncated download, damaged file)."""


class UnsupportedModelError(BindsplitError, TypeError):
    """A model the scorer cannot use (it lacks the image/text feature methods)."""


class MissingProcessorError(BindsplitError, ValueError):
    """A loaded model passed without the processor that prepares its inputs."""


def is_corrupt_weights(error: BaseException) -> bool:
    """Whether ``error`` comes from reading a damaged weights file (safetensors, torch zip or
    pickle)."""
    if type(error).__name__ == "SafetensorError":
        return True
    if isinstance(error, (EOFError, pickle.UnpicklingError, zipfile.BadZipFile)):
        return True
    return isinstance(error, RuntimeError) and "PytorchStreamReader" in str(error)


def corrupt_weights(where: str, error: BaseException) -> CorruptWeightsError:
    """The error for ``error`` raised while reading the weights of ``where``."""
    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
    return CorruptWeightsError(
        f"the weights of {where} cannot be read ({reason}): the file is truncated or damaged; "
        "delete it (or its Hugging Face cache entry) and download or save it again."
    )


def weights_mismatch(
    where: str,
    model_class: str,
    *,
    missing: Iterable[str] = (),
    unexpected: Iterable[str] = (),
    reshaped: Iterable[str] = (),
    errors: Iterable[str] = (),
) -> WeightsMismatchError | None:
    """The error for a checkpoint that did not fill ``model_class``; ``None`` when it did."""
    problems = [
        f"{label} {sorted(names)}"
        for label, names in (
            ("missing", set(missing)),
            ("unexpected", set(unexpected)),
            ("wrong shape", set(reshaped)),
            ("errors", set(errors)),
        )
        if names
    ]
    if not problems:
        return None
    return WeightsMismatchError(
        f"the weights of {where} do not fit {model_class} ({'; '.join(problems)}); BindSplit does "
        "not score weights that did not load: re-download or re-save the checkpoint, or load it "
        "with the class it was saved from."
    )
