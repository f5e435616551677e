"""Every benchmark script has a test that runs its ``--quick`` mode, so ``make test`` fails when
an API change breaks one (``make bench`` runs them in full)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(path.name for path in (ROOT / "perf").glob("bench_*.py"))


def test_there_are_benchmark_scripts():
    assert {"bench_build.py", "bench_parser.py", "bench_reference.py"} <= set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_each_benchmark_script_runs_quick_in_a_test(script):
    tests = [
        path for path in Path(__file__).parent.glob("test_*.py") if path.name != "test_perf.py"
    ]
    assert any(
        f'"perf/{script}", "--quick"' in path.read_text(encoding="utf-8") for path in tests
    ), f"no test runs perf/{script} --quick"
