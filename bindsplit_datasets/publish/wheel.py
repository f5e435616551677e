"""The project's wheel, bundled into a pushed Space so that the Space installs BindSplit from a
file it holds: the package is not on the package index.

:func:`project_wheel` checks a given wheel, or builds one from the source checkout the package
runs from (``pip wheel --no-deps --no-build-isolation`` on a copy of the files a source
distribution holds, so the checkout gets no ``build/``); an installed package without its
checkout needs ``--wheel`` (``python -m build`` makes one). :func:`space_requirements` rewrites a
Space's ``requirements.txt`` so that its line naming ``bindsplit-datasets`` names the bundled
file instead, by a path relative to the Space's root, with the same extras.
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


def _build(root: Path) -> Path:
    out = Path(tempfile.mkdtemp(prefix="bindsplit-space-wheel-"))
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
    logger.info("building the wheel of %s", root)
    result = subprocess.run(
        [*command, "--wheel-dir", str(out / "dist"), str(source)], capture_output=True, text=True
    )
    built = sorted((out / "dist").glob("*.whl"))
    if result.returncode != 0 or len(built) != 1:
        raise BindsplitValueError(
            f"could not build the wheel of {root} ({result.stderr.strip()[-300:]}); build one "
            "with `python -m build` and pass it with --wheel"
        )
    shutil.rmtree(source)
    return built[0]


def project_wheel(wheel: str | Path | None = None) -> Path:
    """``wheel`` checked to be a BindSplit wheel, or (None) one built from the source checkout
    the package runs from; :class:`BindsplitValueError` where there is none to build from."""
    if wheel is not None:
        path = check_input_file(wheel, "wheel")
        if not path.is_file():
            raise BindsplitFileNotFoundError(f"wheel not found: {path}")
        if not _WHEEL_NAME.fullmatch(path.name):
            raise BindsplitValueError(
                f"{path.name} is not a BindSplit wheel (bindsplit_datasets-VERSION-py3-none-any"
                ".whl); build one with `python -m build`"
            )
        return path
    root = _checkout()
    if root is None:
        raise BindsplitValueError(
            "this installed BindSplit has no source checkout to build its wheel from; pass "
            "--wheel bindsplit_datasets-VERSION-py3-none-any.whl (`python -m build` in a clone)"
        )
    return _build(root)


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
