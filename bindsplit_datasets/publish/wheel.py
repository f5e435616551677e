"""The project's wheel, bundled into a pushed Space so that the Space installs BindSplit from a
file it holds: the package is not on the package index.

:func:`project_wheel` checks a given wheel, or builds one from the source checkout the package
runs from (``pip wheel --no-deps --no-build-isolation`` on a copy of the files a source
distribution holds, so the checkout gets no ``build/``), in a temporary folder that is removed
before it returns, whatever happens: the built wheel (some 13 MB) is held in memory until the
plan is run, so a dry run leaves the system's temporary folder as it found it. An installed
package without its checkout needs ``--wheel`` (``python -m build`` makes one).
:func:`space_requirements` rewrites a Space's ``requirements.txt`` so that its line naming
``bindsplit-datasets`` names the bundled file instead, by a path relative to the Space's root,
with the same extras.
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..errors import BindsplitFileNotFoundError, BindsplitValueError
from ..input_files import check_input_file
from .plan import PlannedFile

__all__ = ["DISTRIBUTION", "WHEEL_FOLDER", "project_wheel", "space_requirements"]

logger = logging.getLogger(__name__)

#: The distribution name (setup.cfg) and the wheel file's form of it.
DISTRIBUTION = "bindsplit-datasets"
_WHEEL_NAME = re.compile(r"bindsplit_datasets-[^-]+-py3-none-any\.whl")
#: Where in a Space the wheel goes.
WHEEL_FOLDER = "wheels"
#: The repository's files a source distribution holds: enough to build the wheel.
_SOURCES = (
    "setup.cfg",
    "pyproject.toml",
    "README.md",
    "LICENSE",
    "bindsplit_datasets",
    "metrics",
    "spaces",
)
_REQUIREMENT = re.compile(r"^\s*bindsplit[-_.]datasets\s*(\[[^\]]*\])?[^#;]*", re.IGNORECASE)


def _checkout() -> Path | None:
    root = Path(__file__).resolve().parents[2]
    return root if all((root / name).exists() for name in _SOURCES) else None


def _build(root: Path) -> tuple[str, bytes]:
    """The name and bytes of the wheel built from ``root`` (its temporary folder removed)."""
    with tempfile.TemporaryDirectory(prefix="bindsplit-space-wheel-") as temporary:
        return _build_in(root, Path(temporary))


def _build_in(root: Path, out: Path) -> tuple[str, bytes]:
    source = out / "src"
    source.mkdir()
    for name in _SOURCES:
        path = root / name
        if path.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
            shutil.copytree(path, source / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(path, source / name)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet"]
    logger.info("building BindSplit's wheel from its checkout")
    result = subprocess.run(
        [*command, "--wheel-dir", str(out / "dist"), str(source)], capture_output=True, text=True
    )
    built = sorted((out / "dist").glob("*.whl"))
    if result.returncode != 0 or len(built) != 1:
        raise BindsplitValueError(
            f"could not build the wheel of BindSplit's checkout ({result.stderr.strip()[-300:]}); "
            "build one with `python -m build` and pass it with --wheel"
        )
    return built[0].name, built[0].read_bytes()


def project_wheel(wheel: str | Path | None = None) -> PlannedFile:
    """The Space's file ``wheels/<wheel name>``: ``wheel`` checked to be a BindSplit wheel (the
    file, uploaded from where it is), or (None) one built from the source checkout the package
    runs from (its bytes; nothing of the build is left on disk); :class:`BindsplitValueError`
    where there is none to build from."""
    if wheel is not None:
        path = check_input_file(wheel, "wheel")
        if not path.is_file():
            raise BindsplitFileNotFoundError(f"wheel not found: {path}")
        if not _WHEEL_NAME.fullmatch(path.name):
            raise BindsplitValueError(
                f"{path.name} is not a BindSplit wheel (bindsplit_datasets-VERSION-py3-none-any"
                ".whl); build one with `python -m build`"
            )
        return PlannedFile(f"{WHEEL_FOLDER}/{path.name}", path.stat().st_size, local_path=path)
    root = _checkout()
    if root is None:
        raise BindsplitValueError(
            "this installed BindSplit has no source checkout to build its wheel from; pass "
            "--wheel bindsplit_datasets-VERSION-py3-none-any.whl (`python -m build` in a clone)"
        )
    name, content = _build(root)
    return PlannedFile(f"{WHEEL_FOLDER}/{name}", len(content), content=content)


def space_requirements(text: str, wheel_name: str) -> str:
    """``requirements.txt`` with each line naming ``bindsplit-datasets`` replaced by the bundled
    wheel (``./wheels/NAME.whl[extras]``); other lines as they are. Raises
    :class:`BindsplitValueError` when no line names it.

    >>> space_requirements("numpy\\nbindsplit-datasets[plot]>=0.1.0\\n", "x.whl")
    'numpy\\n./wheels/x.whl[plot]\\n'
    """
    lines, found = [], False
    for line in text.splitlines():
        match = _REQUIREMENT.match(line)
        if match and not line.lstrip().startswith("#"):
            found = True
            line = f"./{WHEEL_FOLDER}/{wheel_name}{match.group(1) or ''}"
        lines.append(line)
    if not found:
        raise BindsplitValueError(
            f"the Space's requirements.txt names no {DISTRIBUTION}; nothing to bundle the wheel for"
        )
    return "\n".join(lines) + "\n"
