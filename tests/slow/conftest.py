"""The slow tests: the demo, subprocesses, servers, browsers, training and whatever needs the model
stack (torch, transformers). Every test in this folder is marked ``slow`` by where it lies, so
``make test-fast`` (``-m "not slow"``, and this folder not even collected) leaves them out and
``make test`` runs them; a slow test in a module of ``tests/`` carries the mark itself."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test collected from this folder ``slow``."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.slow)
