"""``perf/bench_build.py --quick`` runs to the end, so an API change cannot break it unnoticed."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def test_the_build_benchmark_runs_in_quick_mode(repo_root):
    done = subprocess.run(
        [sys.executable, "perf/bench_build.py", "--quick"],
        cwd=repo_root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "bindsplit build aro_vga: 200 generated samples" in out, out
    for stage in ("reading (crop + PNG into Arrow)", "parsing/labelling", "Parquet writing"):
        assert stage in out, out
    assert "rows per configuration: {'full': 200," in out, out
