"""``perf/bench_parser.py --quick`` runs to the end, so an API change cannot break it unnoticed."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def test_the_parser_benchmark_runs_in_quick_mode(repo_root, shared_data):
    done = subprocess.run(
        [sys.executable, "perf/bench_parser.py", "--quick"],
        cwd=repo_root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for expected in (
        "Real SugarCrepe captions, hand-labelled",
        "heldout",
        "SugarCrepe swap_att:",
        "(linear: 10x; target <= 12x)",
        "parse_bindings, tag memory emptied",
        "parse_many 2 processes / 1 process:",
    ):
        assert expected in out, out
