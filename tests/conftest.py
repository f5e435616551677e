"""Shared test fixtures. Tests never reach the network: Hub access is switched off here too."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_UPDATE_DOWNLOAD_COUNTS", "0")

REPO_ROOT = Path(__file__).resolve().parents[1]


def _shared_dir() -> Path:
    """Folder with the real reference samples (``data/``): ``$BINDSPLIT_SHARED`` or
    ``../shared``."""
    return Path(os.environ.get("BINDSPLIT_SHARED", REPO_ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real data samples (COCO captions, BiVLC text rows, VisMin solutions); skip if absent."""
    path = _shared_dir() / "data"
    if not path.is_dir():
        pytest.skip(f"real data samples not found at {path} (set BINDSPLIT_SHARED)")
    return path
