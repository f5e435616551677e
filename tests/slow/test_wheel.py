"""The built wheel ships what an installed package needs and nothing of the repository's own.

The wheel is built (``pip wheel --no-deps --no-build-isolation``) from a copy of the files a
source distribution holds, so the working tree gets no ``build/`` or ``*.egg-info``. Checked: every
file of the package folder (the metric and the leaderboard Space, reached through their links,
included) is in the wheel with the same bytes; the shipped data files by name (tagger weights and
word-class table with their NOTICE, the VisMin solution CSV with its NOTICE, the tiny CLIP
checkpoints, the metric module, the Space, ``py.typed``); no tests, caches or compiled files; and
the installed wheel runs: ``python -m bindsplit_datasets --help`` and the metric's hash.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bindsplit_datasets.benchmarks.vismin import OFFICIAL_SOLUTION
from bindsplit_datasets.metric import metric_hash
from bindsplit_datasets.parsing.tagger_weights import WEIGHTS_SHA256

# builds a wheel (seconds), installs it and starts Python twice
REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "bindsplit_datasets"
#: What a source distribution holds: enough to build the wheel.
SOURCES = ("setup.cfg", "pyproject.toml", "README.md", "LICENSE", PACKAGE, "metrics", "spaces")
#: Files the installed package reads at run time, by name.
REQUIRED = (
    "parsing/data/averaged_perceptron_tagger_eng.npz",
    "parsing/data/word_classes.txt.gz",
    "parsing/data/NOTICE",
    # the parser's word tables and rule examples: every one of them
    *sorted(
        path.relative_to(REPO_ROOT / PACKAGE).as_posix()
        for path in (REPO_ROOT / PACKAGE / "parsing" / "data").rglob("*")
        if path.is_file()
    ),
    f"benchmarks/data/{OFFICIAL_SOLUTION['file']}",
    "benchmarks/data/NOTICE",
    "publish/data/canonical_builds.json",
    "_metric/bindsplit/bindsplit.py",
    "_metric/bindsplit/bindsplit_bootstrap.py",
    "_metric/bindsplit/bindsplit_halftruth.py",
    "_metric/bindsplit/bindsplit_intervals.py",
    "halftruths/data/relation_entailments.txt",
    "halftruths/data/written_relation_words.txt",
    "_metric/bindsplit/bindsplit_core.py",
    "_metric/bindsplit/bindsplit_outcomes.py",
    "_metric/bindsplit/README.md",
    "_metric/bindsplit/app.py",
    "_metric/bindsplit/requirements.txt",
    "_spaces/leaderboard/app.py",
    "_spaces/leaderboard/README.md",
    "_spaces/leaderboard/requirements.txt",
    "synthetic/checkpoints/clip/model.safetensors",
    "synthetic/checkpoints/negclip/model.safetensors",
    "py.typed",
)


def _is_source_file(path: Path) -> bool:
    return path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("wheel")
    source = root / "src"
    source.mkdir()
    for name in SOURCES:
        path = REPO_ROOT / name
        if path.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
            shutil.copytree(path, source / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(path, source / name)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    subprocess.run(
        [*command, "--quiet", "--wheel-dir", str(root / "dist"), str(source)],
        check=True,
        capture_output=True,
    )
    [built] = (root / "dist").glob("*.whl")
    return built


@pytest.fixture(scope="module")
def members(wheel: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: archive.read(name) for name in archive.namelist() if not name.endswith("/")}


def test_the_wheel_ships_every_file_of_the_package(members: dict[str, bytes]) -> None:
    folder = REPO_ROOT / PACKAGE
    expected = {
        path.relative_to(folder).as_posix(): path
        for parent, _, names in os.walk(folder, followlinks=True)  # into _metric and _spaces
        for path in (Path(parent) / name for name in names)
        if _is_source_file(path)
    }
    shipped = {
        name.removeprefix(f"{PACKAGE}/"): content
        for name, content in members.items()
        if name.startswith(f"{PACKAGE}/")
    }
    assert sorted(set(expected) - set(shipped)) == []
    assert sorted(set(shipped) - set(expected)) == []
    for name, path in expected.items():
        assert shipped[name] == path.read_bytes(), name


def test_the_wheel_ships_the_data_the_package_reads(members: dict[str, bytes]) -> None:
    for name in REQUIRED:
        assert f"{PACKAGE}/{name}" in members, name
    weights = members[f"{PACKAGE}/parsing/data/averaged_perceptron_tagger_eng.npz"]
    assert hashlib.sha256(weights).hexdigest() == WEIGHTS_SHA256
    solution = members[f"{PACKAGE}/benchmarks/data/{OFFICIAL_SOLUTION['file']}"]
    assert hashlib.sha256(solution).hexdigest() == OFFICIAL_SOLUTION["sha256"]
    assert members[f"{PACKAGE}/py.typed"] == b""


def test_the_wheel_holds_nothing_of_the_repository(members: dict[str, bytes]) -> None:
    top = {name.split("/", 1)[0] for name in members}
    assert top == {PACKAGE, "bindsplit_datasets-0.1.0.dist-info"}
    assert not [name for name in members if "__pycache__" in name or name.endswith(".pyc")]
    metadata = members["bindsplit_datasets-0.1.0.dist-info/entry_points.txt"].decode()
    assert "bindsplit = bindsplit_datasets.cli:main" in metadata
    assert "bindsplit_datasets-0.1.0.dist-info/licenses/LICENSE" in members


def test_the_installed_wheel_runs(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", target, wheel],
        check=True,
        capture_output=True,
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    code = "import bindsplit_datasets.metric as m; print(m.METRIC_DIR); print(m.metric_hash())"
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    folder, digest = run.stdout.split()
    assert Path(folder).is_relative_to(target) and digest == metric_hash()
    help_run = subprocess.run(
        [sys.executable, "-m", PACKAGE, "--help"], cwd=tmp_path, env=env, capture_output=True
    )
    assert help_run.returncode == 0 and b"usage: bindsplit" in help_run.stdout


def test_a_push_space_dry_run_leaves_the_temporary_folder_as_it_found_it(tmp_path: Path) -> None:
    """The dry run builds the project's wheel (13 MB) in a temporary folder and removes it: the
    system's temporary folder (``TMPDIR``, here an empty one) is as empty afterwards, and the
    output names no temporary or checkout path."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    run = subprocess.run(
        [sys.executable, "-m", PACKAGE, "push-space", "leaderboard"],
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(temporary), "PYTHONPATH": str(REPO_ROOT)},
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "dry run: nothing was sent" in run.stdout
    assert "wheels/bindsplit_datasets-0.1.0-py3-none-any.whl" in run.stdout
    assert sorted(path.name for path in temporary.iterdir()) == []
    for text in (run.stdout, run.stderr):
        assert str(temporary) not in text and str(REPO_ROOT) not in text
