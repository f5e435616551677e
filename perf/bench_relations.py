"""Relation parser: quality on the hand-labelled gold set, label-free swap checks, throughput.

Quality. Exact-match triple precision and recall of ``parse_relations`` on
``tests/data/relations_gold.json`` (real SugarCrepe ``replace_rel`` / ``swap_obj`` captions and
written region-description phrases; development and held-out parts, each with its number of
captions). The relation-swap check: on the written phrase pairs whose gold triples differ in one
relation ("cup on table" / "cup under table"), the share whose parses have the same (subject,
object) pairs with exactly one triple differing in its relation (target >= 85%).

Label-free checks on every real sample: in SugarCrepe's ``swap_obj`` the negative caption
exchanges two objects, so its triples should be the positive's with two arguments exchanged; in
``replace_rel`` it replaces a relation, so the parses should differ in one relation. Both shares
are bounded well below 100% by the benchmarks themselves (many swaps move an object into or out of
a clause with no relation: "a man holds a bat while a woman watches").

Time: a caption of many phrases against one ten times as long (linear: about 10x).

Throughput on distinct real SugarCrepe captions (best of three rounds): ``parse_bindings`` and
``parse_relations`` per caption, both from one tagging (``parse_bindings_and_relations``, what a
reference build counting both calls), and ``parse_relations_many`` with one and two processes.

``--quick`` runs every part on a few captions (seconds) and checks nothing: the test suite runs it
so that an API change cannot break the benchmark unnoticed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _captions import shared_data

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import gold_sets  # noqa: E402
import relation_gold  # noqa: E402

TARGET_SWAP_SHARE = 0.85
ROUNDS = 3


def quality() -> None:
    """Gold-set precision and recall per split; the relation-swap and label-free checks."""
    from bindsplit_datasets.parsing import parse_relations

    data = shared_data()
    counts, sizes, _ = relation_gold.score(relation_gold.items(), data, parse_relations)
    print("Relation gold set, exact-match triples (SPEC section 1b)")
    print(f"{'part':<10}{'captions':>10}{'tp':>6}{'fp':>6}{'fn':>6}{'precision':>11}{'recall':>8}")
    for split in ("dev", "heldout"):
        precision, recall = relation_gold.micro(counts[split])
        tp, fp, fn = counts[split]
        print(f"{split:<10}{sizes[split]:>10}{tp:>6}{fp:>6}{fn:>6}{precision:>11.3f}{recall:>8.3f}")
    for split in ("dev", "heldout"):
        pairs = relation_gold.written_swap_pairs(split)
        passed, total = relation_gold.share(pairs, parse_relations, relation_gold.is_relation_swap)
        print(
            f"relation-swap pairs ({split}): {passed}/{total} parse to the same (subject, object) "
            f"pairs with one relation changed ({passed / max(total, 1):.1%}; target >= "
            f"{TARGET_SWAP_SHARE:.0%})"
        )
    checks = (
        ("swap_obj", relation_gold.is_argument_swap, "two arguments exchanged"),
        ("replace_rel", relation_gold.is_relation_swap, "one relation changed"),
    )
    for subset, check, what in checks:
        samples = json.loads((data / "sugarcrepe" / f"{subset}.json").read_text(encoding="utf-8"))
        pairs = [(s["caption"], s["negative_caption"]) for s in samples.values()]
        passed, total = relation_gold.share(pairs, parse_relations, check, skip_empty=True)
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


def throughput(n_captions: int) -> None:
    from bindsplit_datasets.parsing import parse_bindings_and_relations

    from bindsplit_datasets.parsing import parse_bindings, parse_relations, parse_relations_many

    texts = gold_sets.real_texts(shared_data())
    distinct = list(dict.fromkeys(t for k, t in texts.items() if k[0].startswith("sugarcrepe/")))
    warm_up, captions = distinct[:200], distinct[200 : 200 + n_captions]
    for caption in warm_up:  # the models, the lemma table, inflect's singular forms
        parse_relations(caption)
        parse_bindings(caption)
    measures: dict[str, Callable[[], object]] = {
        "parse_bindings (per caption)": lambda: [parse_bindings(c) for c in captions],
        "parse_relations (per caption)": lambda: [parse_relations(c) for c in captions],
        "parse_bindings_and_relations": lambda: [parse_bindings_and_relations(c) for c in captions],
        "parse_relations_many, 1 process": lambda: parse_relations_many(captions, num_proc=1),
        "parse_relations_many, 2 processes": lambda: parse_relations_many(captions, num_proc=2),
    }
    best = {name: min(_timed(work) for _ in range(ROUNDS)) for name, work in measures.items()}
    print(f"\n{n_captions:,} distinct real SugarCrepe captions, best of {ROUNDS}; "
          f"{os.cpu_count()} CPUs visible")  # fmt: skip
    print(f"{'measure':<40}{'seconds':>9}{'captions/s':>12}")
    for name, wall in best.items():
        print(f"{name:<40}{wall:>9.2f}{n_captions / wall:>12,.0f}")
    ratio = best["parse_relations (per caption)"] / best["parse_bindings (per caption)"]
    print(f"parse_relations / parse_bindings time per caption: {ratio:.2f}x")
    both = best["parse_bindings_and_relations"] / best["parse_bindings (per caption)"]
    print(f"parse_bindings_and_relations / parse_bindings (both from one tagging): {both:.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few captions, seconds")
    args = parser.parse_args(argv)
    if not (shared_data() / "sugarcrepe").is_dir():
        print(f"skipped: real captions not found under {shared_data()}; set BINDSPLIT_SHARED")
        return 0
    quality()
    linear_time(100 if args.quick else 1000)
    throughput(50 if args.quick else 3000)
    return 0


if __name__ == "__main__":
    sys.exit(main())
