"""What made a result, so that it can be reproduced from itself: the software's versions, the
platform and the package's git commit (when the package runs from a git checkout of its own
repository).

Standard library only; every value is read once per process (the git commit through ``git``
with a short timeout, and never from a repository the package merely sits inside, such as a
project that vendors a virtual environment).
"""

from __future__ import annotations

import functools
import logging
import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

from ._version import __version__

__all__ = ["DIRTY_SUFFIX", "PACKAGES", "environment", "git_commit", "platform_name"]

logger = logging.getLogger(__name__)

#: Appended to the commit when tracked files differ from it (the commit alone does not
#: reproduce the code that ran).
DIRTY_SUFFIX = "+dirty"
#: The packages whose versions a results record names.
PACKAGES: tuple[str, ...] = ("torch", "transformers", "open_clip_torch", "datasets", "accelerate")
_GIT_TIMEOUT_S = 2.0
_SOURCE = Path(__file__).resolve().parent


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=_SOURCE,
            capture_output=True,
            text=True,
            timeout=_GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        logger.debug("git %s failed: %s", " ".join(args), error)
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@functools.lru_cache(maxsize=1)
def git_commit() -> str | None:
    """The commit of the checkout the package runs from (``+dirty`` when tracked files were
    changed), or ``None``: an installed wheel, no git, or a repository that is not the
    package's own (the package folder is not at its top level)."""
    top = _git("rev-parse", "--show-toplevel")
    if top is None or Path(top).resolve() != _SOURCE.parent:
        return None
    commit = _git("rev-parse", "HEAD")
    if commit is None:
        return None
    changes = _git("status", "--porcelain", "--untracked-files=no")
    return commit + DIRTY_SUFFIX if changes else commit


@functools.lru_cache(maxsize=1)
def platform_name() -> str:
    """The operating system and machine, as :func:`platform.platform` names them
    (``Linux-6.8.0-x86_64-with-glibc2.39``)."""
    return platform.platform()


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def environment() -> dict[str, Any]:
    """A results record's ``environment``: the Python and :data:`PACKAGES` versions (``None``
    for one not installed), ``bindsplit`` (the package's version), ``git_commit`` and
    ``platform``."""
    return {
        "python": platform.python_version(),
        **{package: _version(package) for package in PACKAGES},
        "bindsplit": __version__,
        "git_commit": git_commit(),
        "platform": platform_name(),
    }
