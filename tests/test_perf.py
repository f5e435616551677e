"""Every ``perf/bench_*.py`` runs to the end in its ``--quick`` mode and prints its tables, so an
API change that breaks a benchmark fails ``make test`` (``make bench`` runs them in full)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: What each script's quick run must print (its tables' titles and checks).
EXPECTED: dict[str, tuple[str, ...]] = {
    "bench_build.py": (
        "bindsplit build aro_vga: 200 generated samples",
        "reading (crop + PNG into Arrow)",
        "parsing/labelling",
        "Parquet writing",
        "rows per configuration: {'full': 200,",
    ),
    "bench_parser.py": (
        "Real SugarCrepe captions, hand-labelled",
        "heldout",
        "SugarCrepe swap_att:",
        "Rule contributions on 40 gold items",
        "rules that change no gold item:",
        "(linear: 10x; target <= 12x)",
        "parse_bindings, tag memory emptied",
        "parse_many 2 processes / 1 process:",
    ),
    "bench_relations.py": (
        "Relation gold set, exact-match triples",
        "heldout",
        "relation-swap pairs (dev):",
        "SugarCrepe swap_obj (label-free):",
        "(linear: 10x)",
        "parse_relations_many, 2 processes",
        "parse_relations / parse_bindings time per caption:",
        "parse_bindings_and_relations / parse_bindings",
    ),
    "bench_reference.py": (
        "the same index from every engine: fingerprint",
        "workers busy (worker time / wall time)",
        "stage combine (s)",
        "speed-up, Ray 2 workers over local 1 process:",
        "planted benchmark caption found: True",
        "Peak memory per stage of the caption digests, 100,000 distinct generated captions",
        "PROJECTION (not a measurement) for 2 billion distinct captions",
        "counting triples / attribute-only:",
    ),
    "bench_scoring.py": (
        "Scorer throughput:",
        "8 samples of 2 images x 2 captions",
        "scorer / raw",
    ),
}


#: The scripts that read the real captions under ``../shared/data``.
NEEDS_SHARED_DATA = frozenset({"bench_parser.py", "bench_reference.py", "bench_relations.py"})


def test_every_benchmark_script_is_checked():
    assert sorted(EXPECTED) == sorted(path.name for path in (ROOT / "perf").glob("bench_*.py"))


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_the_benchmark_runs_in_quick_mode(script, request):
    if script in NEEDS_SHARED_DATA:
        request.getfixturevalue("shared_data")  # skips without ../shared/data
    if script == "bench_reference.py":
        pytest.importorskip("ray")
    done = subprocess.run(
        [sys.executable, f"perf/{script}", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    missing = [line for line in EXPECTED[script] if line not in done.stdout]
    assert missing == [], done.stdout
