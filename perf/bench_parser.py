"""Binding parser throughput on real COCO captions, side by side with NLTK's own tagger.

The real train2017 + val2017 captions of ``$BINDSPLIT_SHARED/data/coco_mini`` are repeated to
5,000 distinct strings (``_captions.distinct_captions``: the parser parses each distinct caption
once) and measured in one run (best of three rounds, alternating):

- NLTK: ``PerceptronTagger.tag`` on the captions already tokenised the way the parser tokenises
  them (tokenisation excluded; the model loaded once from the JSON files of NLTK's
  ``averaged_perceptron_tagger_eng`` on ``NLTK_DATA`` or ``$BINDSPLIT_SHARED/nltk_data``; this row
  and the ratio to it are left out when NLTK or its data is absent: the parser needs neither);
- ``parse_bindings`` on the raw captions (tokenisation, tagging and every rule included);
- ``parse_many`` with one and with two processes (workers started inside the measurement).

Loading the tagger is timed once too: the shipped weights versus NLTK's JSON model (each worker
process of ``parse_many`` loads the tagger once).

Before timing, the tagger and ``inflect`` are loaded and every distinct caption is parsed once, so
the rounds see the steady state of a long build (the singular forms of the nouns cached). CPU time
over wall time shows the cores each configuration actually got: on a machine shared with other
work, under 1 and 2 mean the two-process speed-up is understated.

Targets: parse_bindings at least 0.8x raw NLTK tagging; two processes at least 1.6x one; COCO
train2017 (592,000 captions) in at most 3 minutes with two processes.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _captions import distinct_captions, real_captions, shared_data

N_CAPTIONS = 5_000
N_TRAIN2017 = 592_000
ROUNDS = 3
TARGET_PARSE_RATIO = 0.8
TARGET_SPEEDUP = 1.6
TARGET_SECONDS = 180.0


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (the parse workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed(work: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of all processes) of one call."""
    cpu, start = _cpu_seconds(), time.perf_counter()
    work()
    return time.perf_counter() - start, _cpu_seconds() - cpu


def _nltk_tagger() -> Any | None:
    """NLTK's PerceptronTagger with its English JSON model, or None when NLTK or the data is
    absent."""
    from bindsplit_datasets.parsing.tagger import SOURCE_RESOURCE

    try:
        from nltk.tag.perceptron import PerceptronTagger
    except ImportError:
        return None
    roots = [Path(p) for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    roots.append(shared_data().parent / "nltk_data")
    for root in roots:
        folder = root / "taggers" / SOURCE_RESOURCE
        parts = [folder / f"{SOURCE_RESOURCE}.{part}.json" for part in ("weights", "tagdict")]
        classes = folder / f"{SOURCE_RESOURCE}.classes.json"
        if all(path.is_file() for path in [*parts, classes]):
            tagger = PerceptronTagger(load=False)
            tagger.model.weights, tagger.tagdict = (json.loads(p.read_text()) for p in parts)
            tagger.classes = tagger.model.classes = set(json.loads(classes.read_text()))
            return tagger
    return None


def main() -> int:
    try:
        real = real_captions()
    except FileNotFoundError as error:
        print(f"skipped: real COCO captions not found ({error.filename}); set BINDSPLIT_SHARED")
        return 0
    from bindsplit_datasets.parsing import parse_bindings, parse_many, tokenise
    from bindsplit_datasets.parsing.tagger import MatrixPerceptronTagger

    captions = distinct_captions(real, N_CAPTIONS)
    tokens = [tokenise(caption) for caption in captions]
    shipped_load, _ = _timed(MatrixPerceptronTagger.shipped)
    start = time.perf_counter()
    nltk_tagger = _nltk_tagger()
    nltk_load = time.perf_counter() - start
    for caption in real:  # warm-up: tagger, inflect, the nouns' singular forms
        parse_bindings(caption)

    measures: dict[str, Callable[[], object]] = {
        "parse": lambda: [parse_bindings(c) for c in captions],
        "many1": lambda: parse_many(captions, num_proc=1),
        "many2": lambda: parse_many(captions, num_proc=2),
    }
    if nltk_tagger is not None:
        measures = {"nltk": lambda: [nltk_tagger.tag(t) for t in tokens], **measures}
    best: dict[str, tuple[float, float]] = {}
    for _ in range(ROUNDS):
        for name, work in measures.items():
            wall, cpu = _timed(work)
            if name not in best or wall < best[name][0]:
                best[name] = (wall, cpu)
    assert parse_many(captions, num_proc=2) == [parse_bindings(c) for c in captions]

    rate = {name: N_CAPTIONS / wall for name, (wall, _) in best.items()}
    labels = {
        "nltk": "NLTK PerceptronTagger.tag (pre-tokenised)",
        "parse": "parse_bindings (all included)",
        "many1": "parse_many, 1 process",
        "many2": "parse_many, 2 processes",
    }
    print(
        f"Binding parser: {N_CAPTIONS:,} distinct variants of {len(real)} real COCO captions, "
        f"best of {ROUNDS}; {os.cpu_count()} CPUs visible"
    )
    print(f"{'measure':<44}{'seconds':>9}{'captions/s':>12}{'cores used':>12}")
    for name, label in labels.items():
        if name in best:
            wall, cpu = best[name]
            print(f"{label:<44}{wall:>9.2f}{rate[name]:>12,.0f}{cpu / wall:>12.2f}")
    print(f"{'load the shipped tagger weights':<44}{shipped_load:>9.2f}")
    if nltk_tagger is not None:
        print(f"{'load NLTK JSON model':<44}{nltk_load:>9.2f}")
    print()
    speedup = rate["many2"] / rate["many1"]
    full = N_TRAIN2017 / rate["many2"]
    if "nltk" in rate:
        parse_ratio = rate["parse"] / rate["nltk"]
        print(
            f"parse_bindings / raw NLTK tagging: {parse_ratio:.2f}x "
            f"(target >= {TARGET_PARSE_RATIO}x)"
        )
    else:
        print("parse_bindings / raw NLTK tagging: not measured (NLTK or its tagger data absent)")
    print(f"parse_many 2 processes / 1 process: {speedup:.2f}x (target >= {TARGET_SPEEDUP}x)")
    cpu_per_caption = {n: best[n][1] / N_CAPTIONS for n in ("many1", "many2")}
    print(
        "  CPU time per caption, all processes: "
        f"{1e3 * cpu_per_caption['many1']:.3f} ms (1 process), "
        f"{1e3 * cpu_per_caption['many2']:.3f} ms (2 processes); with two free cores the "
        f"speed-up would be {2 * cpu_per_caption['many1'] / cpu_per_caption['many2']:.2f}x"
    )
    print(
        f"COCO train2017 ({N_TRAIN2017:,} captions), 2 processes: {full:.0f} s extrapolated "
        f"(target <= {TARGET_SECONDS:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
