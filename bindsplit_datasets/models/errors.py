"""Errors of loading a model for scoring. Each message is one line that names the problem and
the fix; the command line prints it without a traceback."""

from __future__ import annotations

import importlib
import pickle
import zipfile
from collections.abc import Iterable
from types import ModuleType

from ..errors import BindsplitError

__all__ = [
    "CorruptWeightsError",
    "InvalidModelSpecError",
    "MissingExtraError",
    "MissingProcessorError",
    "ModelNotFoundError",
    "NotAModelFolderError",
    "UnknownModelPrefixError",
    "UnsupportedModelError",
    "WeightsMismatchError",
    "corrupt_weights",
    "is_corrupt_weights",
    "require",
    "weights_mismatch",
]


class MissingExtraError(BindsplitError, ImportError):
    """A package of an optional extra (``scoring``, ``openclip``) is not installed."""


class UnknownModelPrefixError(BindsplitError, ValueError):
    """A model string whose ``prefix:`` names no registered loader."""


class InvalidModelSpecError(BindsplitError, ValueError):
    """A model that cannot be used as passed (unknown architecture or tag, an option that does
    not apply to it)."""


class ModelNotFoundError(BindsplitError, FileNotFoundError):
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


def require(extra: str, *modules: str) -> list[ModuleType]:
    """Import ``modules``, or raise :class:`MissingExtraError` naming the extra to install."""
    imported = []
    for name in modules:
        try:
            imported.append(importlib.import_module(name))
        except ImportError as error:
            raise MissingExtraError(
                f"{name} cannot be imported ({error}); it comes with the {extra!r} extra: "
                f"pip install 'bindsplit-datasets[{extra}]'."
            ) from None
    return imported


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
