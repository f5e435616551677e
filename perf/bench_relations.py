"""Relation parser: quality on the hand-labelled gold set, label-free swap checks, throughput.

Quality. Exact-match triple precision, recall and F1 of ``parse_relations`` on the relation gold
sets (``tests/relation_gold.py``: ``relations_gold.json``, real SugarCrepe ``replace_rel`` /
``swap_obj`` captions and written region phrases; ``relations_gold_registers.json``, issue 39's
set in the hidden gold's registers: real captions of the other subsets, COCO and BiVLC, region
phrases by family, sentences), per split and per file and register, each with its number of
captions. The relation-swap check: on the written phrase pairs whose gold triples differ in one
relation ("cup on table" / "cup under table"), the share whose parses have the same (subject,
object) pairs with exactly one triple differing in its relation (target >= 85%; 90% on the
hidden region pairs). The development items that differ from their gold, by error family (read
from the caption and the differing triples) and, for written items, by the family they were
written for: where the triples are lost.

Label-free checks on every real sample: in SugarCrepe's ``swap_obj`` the negative caption
exchanges two objects, so its triples should be the positive's with two arguments exchanged; in
``replace_rel`` it replaces a relation, so the parses should differ in one relation. Both shares
are bounded well below 100% by the benchmarks themselves (many swaps move an object into or out of
a clause with no relation: "a man holds a bat while a woman watches").

Time: a caption of many phrases against one ten times as long (linear: about 10x).

Throughput on distinct real SugarCrepe captions, each measure a first pass in a fresh process over
captions it never parsed (the models loaded on other captions first; best of three rounds):
``parse_bindings`` and ``parse_relations`` per caption, both from one tagging
(``parse_bindings_and_relations``, what a reference build or ``build --bindings both`` counting
both calls), and ``parse_relations_many`` with one and two processes (workers' start included);
the readings' costs compared by CPU time.

``--quick`` runs every part on a few captions (seconds) and checks nothing: the test suite runs it
so that an API change cannot break the benchmark unnoticed. A full run writes the figures the
README quotes into ``docs/benchmarks.md`` (``perf/figures.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _captions import shared_data
from figures import Figures

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import gold_sets  # noqa: E402
import relation_gold  # noqa: E402

TARGET_SWAP_SHARE = 0.85
ROUNDS = 3
#: The figures of this script the README quotes (written by a full run).
FIGURES = Figures("bench_relations.py")
#: The README's names of the gold set's parts.
PARTS = {"dev": "development", "heldout": "held out"}


def quality_table(parse: Callable[[str], Any], title: str, figures: Figures | None = None) -> None:
    """Precision, recall and F1 of ``parse`` per split and per file and register; the share of
    relation-swap pairs parsed as one; the development errors per family. With ``figures``, the
    table of the two gold sets and the swap shares are the figures the README quotes."""
    data = shared_data()
    items = relation_gold.items()
    first = {item["id"] for item in relation_gold.items(relation_gold.GOLD)}

    def groups_of(item: dict[str, Any]) -> list[str]:
        """The item's split, and its file, register and split."""
        name = "first" if item["id"] in first else "registers"
        kind = item.get("register", "caption" if isinstance(item["source"], dict) else "region")
        return [item["split"], f"{name}:{kind}:{item['split']}"]

    counts, sizes, _ = relation_gold.score(items, data, parse, groups_of)
    print(f"{title}: relation gold set, exact-match triples (SPEC section 1b)")
    print(f"{'part':<26}{'captions':>9}{'tp':>6}{'fp':>6}{'fn':>6}{'precision':>11}{'recall':>8}"
          f"{'F1':>7}")  # fmt: skip
    for group in ("dev", "heldout", *sorted(g for g in counts if ":" in g)):
        precision, recall = relation_gold.micro(counts[group])
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        tp, fp, fn = counts[group]
        print(f"{group:<26}{sizes[group]:>9}{tp:>6}{fp:>6}{fn:>6}{precision:>11.3f}"
              f"{recall:>8.3f}{f1:>7.3f}")  # fmt: skip
    if figures is not None:
        figures.quote("relations-quality", _readme_table(counts, sizes), "triple P / R / F1")
    for split in ("dev", "heldout"):
        for path in relation_gold.FILES:
            pairs = relation_gold.written_swap_pairs(split, path)
            passed, total = relation_gold.share(pairs, parse, relation_gold.is_relation_swap)
            if figures is not None:
                figures.quote(
                    f"relations-swap-{SETS[path.name]}-{split}",
                    f"{passed} of {total}",
                    f"written relation-swap pairs ({PARTS[split]}) with one relation changed",
                )
            print(
                f"relation-swap pairs ({split}, {path.name}): {passed}/{total} parse to the same "
                f"(subject, object) pairs with one relation changed "
                f"({passed / max(total, 1):.1%}; target >= {TARGET_SWAP_SHARE:.0%})"
            )
    dev = [item for item in items if item["split"] == "dev"]
    found = relation_gold.disagreements(dev, data, parse)
    print(f"development errors by family ({len(found)} of {len(dev)} items differ; a family is "
          "read from the caption and the differing triples, the first that fits)")  # fmt: skip
    print(f"{'family':<42}{'items':>6}{'missed':>8}{'extra':>7}")
    for name, (n, missed, extra) in sorted(
        relation_gold.family_table(found).items(), key=lambda kv: -(kv[1][1] + kv[1][2])
    ):
        print(f"{name:<42}{n:>6}{missed:>8}{extra:>7}")
    labelled: dict[str, list[int]] = {}
    for item, (_, missed, extra) in found:
        if "family" in item:
            row = labelled.setdefault(item["family"], [0, 0, 0])
            row[0], row[1], row[2] = row[0] + 1, row[1] + len(missed), row[2] + len(extra)
    print("written development items that differ, by the family they were written for:")
    for name, (n, missed, extra) in sorted(labelled.items(), key=lambda kv: -(kv[1][1] + kv[1][2])):
        print(f"  {name:<40}{n:>6}{missed:>8}{extra:>7}")


#: The README's names of the two gold files.
SETS = {"relations_gold.json": "first", "relations_gold_registers.json": "registers"}


def _readme_table(counts: dict[str, Any], sizes: dict[str, int]) -> str:
    """The README's table: precision, recall and F1 of each gold set's two parts."""
    table = ["| set, part | captions | precision | recall | F1 |", "|---|---|---|---|---|"]
    for name, label in (("first", "first set"), ("registers", "register set")):
        for split in ("dev", "heldout"):
            groups = [g for g in counts if g.startswith(f"{name}:") and g.endswith(f":{split}")]
            tp, fp, fn = (sum(counts[g][i] for g in groups) for i in range(3))
            precision, recall = relation_gold.micro((tp, fp, fn))
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
            cells = [f"{label}, {PARTS[split]}", f"{sum(sizes[g] for g in groups):,}",
                     f"{precision:.3f}", f"{recall:.3f}", f"{f1:.3f}"]  # fmt: skip
            if split == "heldout":
                cells = [f"**{cell}**" for cell in cells]
            table.append("| " + " | ".join(cells) + " |")
    return "\n".join(table)


def quality() -> None:
    """Gold-set precision and recall per split; the relation-swap and label-free checks."""
    from bindsplit_datasets.parsing import parse_relations

    data = shared_data()
    quality_table(parse_relations, "parse_relations", FIGURES)
    checks = (
        ("swap_obj", relation_gold.is_argument_swap, "two arguments exchanged"),
        ("replace_rel", relation_gold.is_relation_swap, "one relation changed"),
    )
    for subset, check, what in checks:
        samples = json.loads((data / "sugarcrepe" / f"{subset}.json").read_text(encoding="utf-8"))
        pairs = [(s["caption"], s["negative_caption"]) for s in samples.values()]
        passed, total = relation_gold.share(pairs, parse_relations, check, skip_empty=True)
        FIGURES.quote(
            f"relations-{subset.replace('_', '-')}",
            f"{passed / max(total, 1):.0%} ({passed:,} of {total:,})",
            f"SugarCrepe {subset} samples with triples that parse to the positive's with {what}",
        )
        print(
            f"SugarCrepe {subset} (label-free): {passed}/{total} samples with triples parse to the "
            f"positive's triples with {what} ({passed / max(total, 1):.1%}; "
            f"{len(pairs) - total} of {len(pairs)} samples without triples)"
        )


def _timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def linear_time(repeats: int) -> None:
    """Time of one caption of ``repeats`` and of ``10 * repeats`` phrases with relations."""
    from bindsplit_datasets.parsing import parse_relations

    phrase = "a dog on a mat and a cat under a table, "
    short = min(_timed(lambda: parse_relations(phrase * repeats)) for _ in range(3))
    long = min(_timed(lambda: parse_relations(phrase * (10 * repeats))) for _ in range(2))
    print(
        f"one caption of {10 * len(phrase) * repeats:,} characters: {long:.2f} s, "
        f"{long / short:.1f}x the time of one of {len(phrase) * repeats:,} (linear: 10x)"
    )


#: The measures of :func:`throughput`, each made in a fresh process: name -> label.
MEASURES = {
    "bindings": "parse_bindings (per caption)",
    "relations": "parse_relations (per caption)",
    "both": "parse_bindings_and_relations",
    "many1": "parse_relations_many, 1 process",
    "many2": "parse_relations_many, 2 processes",
}


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (the parse workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed_captions(n_captions: int) -> tuple[list[str], list[str]]:
    """(warm-up captions, timed captions): distinct real SugarCrepe captions, disjoint."""
    texts = gold_sets.real_texts(shared_data())
    distinct = list(dict.fromkeys(t for k, t in texts.items() if k[0].startswith("sugarcrepe/")))
    return distinct[:200], distinct[200 : 200 + n_captions]


def _run_child(measure: str, n_captions: int) -> None:
    """In this fresh process, after a warm-up on other captions (the models, the lemma table):
    one measure of :data:`MEASURES` on a first pass over the timed captions; prints wall and CPU
    seconds as JSON."""
    from bindsplit_datasets.parsing import (
        parse_bindings,
        parse_bindings_and_relations,
        parse_relations,
        parse_relations_many,
    )

    warm_up, captions = _timed_captions(n_captions)
    for caption in warm_up:
        parse_bindings_and_relations(caption)
    work: dict[str, Callable[[], object]] = {
        "bindings": lambda: [parse_bindings(c) for c in captions],
        "relations": lambda: [parse_relations(c) for c in captions],
        "both": lambda: [parse_bindings_and_relations(c) for c in captions],
        "many1": lambda: parse_relations_many(captions, num_proc=1),
        "many2": lambda: parse_relations_many(captions, num_proc=2),
    }
    cpu, start = _cpu_seconds(), time.perf_counter()
    work[measure]()
    print(json.dumps({"wall": time.perf_counter() - start, "cpu": _cpu_seconds() - cpu}))


def throughput(n_captions: int, rounds: int = ROUNDS) -> None:
    """Each measure of :data:`MEASURES` on a first pass in a fresh process over captions it
    never parsed (best of ``rounds`` by wall time), with the CPU seconds it took; the ratios of
    the readings to ``parse_bindings`` by CPU time (which a shared machine's load leaves
    comparable)."""
    best: dict[str, tuple[float, float]] = {}
    for _ in range(rounds):
        for measure in MEASURES:
            done = subprocess.run(
                [sys.executable, __file__, "--child", measure, str(n_captions)],
                capture_output=True, text=True, check=True, env=dict(os.environ),
            )  # fmt: skip
            timed = json.loads(done.stdout.strip().splitlines()[-1])
            if measure not in best or timed["wall"] < best[measure][0]:
                best[measure] = (timed["wall"], timed["cpu"])
    print(f"\n{n_captions:,} distinct real SugarCrepe captions, a first pass in a fresh process, "
          f"best of {rounds}; {os.cpu_count()} CPUs visible")  # fmt: skip
    print(f"{'measure':<40}{'seconds':>9}{'captions/s':>12}{'cores used':>12}{'/CPU-s':>10}")
    for measure, label in MEASURES.items():
        wall, cpu = best[measure]
        print(f"{label:<40}{wall:>9.2f}{n_captions / wall:>12,.0f}{cpu / wall:>12.2f}"
              f"{n_captions / max(cpu, 1e-9):>10,.0f}")  # fmt: skip
    bindings_cpu = max(best["bindings"][1], 1e-9)
    ratio = FIGURES.quote(
        "relations-time",
        f"{best['relations'][1] / bindings_cpu:.1f}x",
        "parse_relations / parse_bindings, CPU time of a first pass",
    )
    print(f"parse_relations / parse_bindings time per caption: {ratio} (CPU time)")
    both = FIGURES.quote(
        "relations-both",
        f"{best['both'][1] / bindings_cpu:.1f}x",
        "both from one tagging / parse_bindings, CPU time of a first pass",
    )
    print(
        f"parse_bindings_and_relations / parse_bindings (both from one tagging): {both} (CPU time)"
    )
    FIGURES.quote(
        "relations-rate",
        f"{n_captions / best['relations'][0]:,.0f}",
        "parse_relations, captions a second, first pass",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few captions, seconds")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)  # a measure, in a fresh process
    args = parser.parse_args(argv)
    if args.child:
        _run_child(args.child[0], int(args.child[1]))
        return 0
    if not (shared_data() / "sugarcrepe").is_dir():
        print(f"skipped: real captions not found under {shared_data()}; set BINDSPLIT_SHARED")
        return 0
    quality()
    linear_time(100 if args.quick else 1000)
    throughput(50 if args.quick else 3000, 1 if args.quick else ROUNDS)
    if not args.quick:
        FIGURES.save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
