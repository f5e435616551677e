"""``perf/bench_reference.py --quick`` runs to the end (the three engines agree, the format and
memory sections pass their checks), so an API change cannot break it unnoticed."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def test_the_reference_benchmark_runs_in_quick_mode(repo_root, shared_data):
    pytest.importorskip("ray")
    done = subprocess.run(
        [sys.executable, "perf/bench_reference.py", "--quick"],
        cwd=repo_root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for expected in (
        "the same index from every engine: fingerprint",
        "workers busy (worker time / wall time)",
        "stage combine (s)",
        "speed-up, Ray 2 workers over local 1 process:",
        "planted benchmark caption found: True",
        "Peak memory per stage of the caption digests, 100,000 distinct generated captions",
        "PROJECTION (not a measurement) for 2 billion distinct captions",
    ):
        assert expected in out, out
