"""Shared test fixtures. Tests never reach the network: Hub access is switched off here too, and
every cache a test may write (``datasets``' Arrow cache, evaluate's modules cache, BindSplit's
download cache) is a private folder of the session, so no test reads or fills a user's cache."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_UPDATE_DOWNLOAD_COUNTS", "0")
# The tests' models are tiny: one intra-op thread per process (torch, numpy's BLAS) is faster
# than a pool whose synchronisation costs more than the work, and keeps a shared 2-core machine
# from being oversubscribed (measured: a BLIP ITM reference forward, 12 s with 2 threads on a
# busy machine, 0.5 s with 1). Read when torch is first imported, here and in subprocesses.
for _threads in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

REPO_ROOT = Path(__file__).resolve().parents[1]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-parser-snapshot",
        action="store_true",
        default=False,
        help="rewrite tests/data/parser_snapshot.json (every gold item's bindings and the parser "
        "rules that fired) and tests/data/relation_snapshot.json (every relation gold item's "
        "bindings, triples and rules fired) from the running parser; review their diffs before "
        "committing",
    )


def _shared_dir() -> Path:
    """Folder with the real reference samples (``data/``): ``$BINDSPLIT_SHARED`` or
    ``../shared``."""
    return Path(os.environ.get("BINDSPLIT_SHARED", REPO_ROOT.parent / "shared"))


@pytest.fixture(autouse=True, scope="session")
def _private_caches(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point ``datasets``' cache, evaluate's modules and downloads caches and BindSplit's cache
    at folders of this session (also for the subprocesses tests start).

    A library not imported yet reads the variable when it is; one already imported has its
    setting patched. Importing evaluate only for this would cost every session seconds (it
    loads much of the model stack), so it is not imported here."""
    evaluate_cache = tmp_path_factory.mktemp("hf_evaluate_cache")
    caches = {
        ("datasets.config", "HF_DATASETS_CACHE"): tmp_path_factory.mktemp("hf_datasets_cache"),
        ("evaluate.config", "HF_MODULES_CACHE"): tmp_path_factory.mktemp("hf_modules_cache"),
        # evaluate's downloads cache (install-metric writes there too) is derived from it
        ("evaluate.config", "HF_EVALUATE_CACHE"): evaluate_cache,
    }
    with pytest.MonkeyPatch.context() as patch:
        for (module, setting), folder in caches.items():
            patch.setenv(setting, str(folder))
            if module in sys.modules:
                patch.setattr(sys.modules[module], setting, folder)
        if "evaluate.config" in sys.modules:
            downloads = evaluate_cache / "downloads"
            patch.setattr(sys.modules["evaluate.config"], "DOWNLOADED_EVALUATE_PATH", downloads)
        patch.setenv("BINDSPLIT_CACHE", str(tmp_path_factory.mktemp("bindsplit_cache")))
        yield


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


@pytest.fixture(scope="module")
def test_adapters() -> Iterator[None]:
    """The test-only benchmark adapters of ``tiny_models``, registered for one module's tests
    (use: ``pytestmark = pytest.mark.usefixtures("test_adapters")``)."""
    from tiny_models import register_test_benchmarks

    with register_test_benchmarks():
        yield


@pytest.fixture(scope="module")
def rows() -> Any:
    """The model tests' tiny BiVLC-like rows (``tiny_models.tiny_bivlc_like``: 12 samples, 2
    images x 2 captions each, 5 distinct images), once per module. A module that scores other
    rows defines its own ``rows``; :func:`build` then writes those."""
    from tiny_models import tiny_bivlc_like

    return tiny_bivlc_like(12, n_images=5)


@pytest.fixture(scope="module")
def build(rows: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``rows`` written as a build of the test benchmark ``_test_bivlc_like`` (the layout of
    ``bindsplit build``: every configuration, card, manifest), once per module."""
    from tiny_models import write_fake_build

    folder = tmp_path_factory.mktemp("build") / "bivlc_like"
    return write_fake_build(folder, rows, "_test_bivlc_like")


@pytest.fixture
def fresh_accelerate() -> Iterator[None]:
    """Accelerate keeps one configuration per process; a test that scores starts from none."""
    from tiny_models import reset_accelerate

    reset_accelerate()
    yield
    reset_accelerate()
