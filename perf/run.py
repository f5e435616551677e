"""Run every ``perf/bench_*.py`` in turn (sorted by name), each as its own process.

Each script is run with this interpreter, a header before its table and its wall time after it.
``--quick`` is passed on to every script (its small mode, the one ``make test`` runs); other
arguments select the scripts whose names contain them. The exit status is 1 when any script
fails (the failures are listed at the end), else 0.

A full run (not ``--quick``) ends by copying the figures the scripts wrote into
``docs/benchmarks.md`` to where the README quotes them (``perf/figures.py``), so that the README's
figures are those of the last ``make bench``, never retyped.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import figures

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark scripts whose names contain any of ``argv`` (all when empty)."""
    args = sys.argv[1:] if argv is None else argv
    quick = ["--quick"] if "--quick" in args else []
    wanted = [arg for arg in args if arg != "--quick"]
    scripts = [
        path
        for path in sorted(HERE.glob("bench_*.py"))
        if not wanted or any(word in path.name for word in wanted)
    ]
    if not scripts:
        print(f"no benchmark script matches {wanted} in {HERE}", file=sys.stderr)
        return 1
    failed = []
    for script in scripts:
        print(f"=== {script.name} ===", flush=True)
        start = time.perf_counter()
        code = subprocess.run([sys.executable, str(script), *quick], cwd=HERE.parent).returncode
        print(f"--- {script.name}: exit {code}, {time.perf_counter() - start:.1f} s\n", flush=True)
        if code:
            failed.append(script.name)
    if not quick:
        changed = figures.update_readme()
        print(f"README.md: {len(changed)} figure(s) rewritten from docs/benchmarks.md")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
