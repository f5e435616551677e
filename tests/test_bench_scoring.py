"""``perf/bench_scoring.py --quick`` runs to the end, so an API change cannot break it unnoticed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def test_the_scoring_benchmark_runs_in_quick_mode(repo_root):
    env = {**os.environ, "PYTHONPATH": str(repo_root)}
    done = subprocess.run(
        [sys.executable, "perf/bench_scoring.py", "--quick"],
        cwd=repo_root,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    for expected in ("Scorer throughput:", "8 samples of 2 images x 2 captions", "scorer / raw"):
        assert expected in done.stdout
