"""The tagger experiment of issue 39 (item 7): the shipped perceptron fine-tuned on caption text.

Question: would a tagger trained on captions make the correction rules unnecessary, without losing
quality? The correction rules mend the tagger's usual slips on captions by changing a unit's
kind ("a glass/NN vase" -> attribute, "a man rides/NNS" -> verb); a tagger that gave those
units the tag of their corrected kind would make the rule idle.

1. Silver tags. Every real caption under ``$BINDSPLIT_SHARED/data`` (SugarCrepe, COCO mini,
   BiVLC) and every development gold item's text is read by today's parser
   (:func:`~bindsplit_datasets.parsing.explain`). A token whose unit's kind the corrections
   changed gets the Penn tag of its corrected kind (:data:`KIND_TAGS`: noun -> NN / NNS by its
   form, attribute -> JJ, participle -> VBN, verb -> VBZ / VBD / VBP by its form, ...); every
   other token keeps the shipped tagger's tag. The sequence is the one the tagger sees: the
   caption's tokens with the articles :mod:`~bindsplit_datasets.parsing.virtual_articles`
   restores (tagged DT).
2. Held out (never trained on): the text of every held-out gold item (binding gold sets,
   written swap pairs, telegraphic phrases, relation gold sets) and a fixed tenth of the other
   distinct real captions (``random.Random(39)``).
3. Training: NLTK's averaged perceptron (same features as the shipped one, NLTK's own training
   step) started from the shipped weights and averaged over :data:`ITERATIONS` passes of the
   training sentences (shuffled with ``random.Random(0)``); a word of NLTK's look-up table whose
   silver tag disagrees with its look-up tag in at least :data:`TAGDICT_DISAGREEMENT` of its
   training occurrences leaves the table (a looked-up word is never tagged by the model). The
   weights are exported in the shipped format (``tagger_weights.export_nltk_model``) to a
   temporary folder; nothing under ``parsing/`` changes.
4. Evaluation, each tagger in a fresh process (the parser's memories hold tags): the shipped
   tagger against the new one, swapped in for the process-wide tagger
   (``parsing.tagger._TAGGER``), on the binding gold sets, the written swap pairs and the
   telegraphic phrases (precision, recall, consistent pairs), the relation gold sets (triple
   precision, recall, F1, swap pairs), per split; the correction rules that fire
   (``explain``) on the held-out real captions and on all of them; and the agreement of each
   tagger's raw tags with the silver tags on the held-out captions.

Needs NLTK (a development dependency) and the shared samples. Run it from the repository root:
``python perf/tagger_experiment.py [--iterations N] [--out results.json] [--keep-weights
caption_tagger.npz]``; it prints the comparison and writes it as JSON (and the weights, for a
closer look; they are never shipped by this script). Reported in ``docs/tagger_experiment.md``.
``--quick`` trains one pass on the first :data:`QUICK_CAPTIONS` real captions and counts the
firings on the held-out ones only (seconds; it concludes nothing): ``tests/test_perf.py`` runs it
so that a change of the parser's modules cannot break the experiment unnoticed.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from _captions import shared_data

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "perf"))

import gold_sets  # noqa: E402
import relation_gold  # noqa: E402

logger = logging.getLogger("tagger_experiment")

ITERATIONS = 5
#: Share of a look-up word's training occurrences whose silver tag must differ from its
#: look-up tag for the word to leave NLTK's look-up table.
TAGDICT_DISAGREEMENT = 0.1
#: Share of the other real captions held out.
HELDOUT_SHARE = 0.1
#: The real captions (and the development gold texts) a ``--quick`` run reads.
QUICK_CAPTIONS = 300
#: The Penn tag of a corrected kind (the kind names of ``explain``); None: keep the tag.
KIND_TAGS: dict[str, str | None] = {
    "noun": "NN",
    "attribute": "JJ",
    "attribute-or-verb": None,
    "participle": "VBN",
    "gerund": "VBG",
    "determiner": "DT",
    "adverb": "RB",
    "conjunction": "CC",
    "copula": "VBZ",
    "relative": "WDT",
    "preposition": "IN",
    "negation": None,
    "verb": "VBP",
    "other": "VBP",
}
_VERB_TAGS = ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "MD")


# --- 1. silver tags -------------------------------------------------------------------------


def _real_captions() -> list[str]:
    """Every distinct caption of the shared real samples."""
    return list(dict.fromkeys(gold_sets.real_texts(shared_data()).values()))


def _gold_texts() -> tuple[set[str], set[str]]:
    """(development texts, held-out texts) of every gold set."""
    data, texts = shared_data(), gold_sets.real_texts(shared_data())
    dev: set[str] = set()
    heldout: set[str] = set()

    def put(text: str | None, held: bool) -> None:
        if text is not None:
            (heldout if held else dev).add(text)

    for item in gold_sets.items(gold_sets.SUGARCREPE):
        put(gold_sets.text_of(item, texts), item["split"] == "heldout")
    for item in gold_sets.items(gold_sets.ORIGINAL):
        put(gold_sets.text_of(item, texts), item.get("heldout") == 4)
    for item in relation_gold.items():
        put(relation_gold.text_of(item, data), item["split"] == "heldout")
    pairs = json.loads((gold_sets.DATA / "swap_pairs_written.json").read_text(encoding="utf-8"))
    for item in pairs["items"]:
        put(item["a"], item["split"] == "heldout")
        put(item["b"], item["split"] == "heldout")
    telegraphic = json.loads((gold_sets.DATA / "telegraphic_heldout.json").read_text("utf-8"))
    for text, _ in telegraphic["items"]:
        put(text, True)
    return dev - heldout, heldout


def silver(caption: str) -> tuple[list[str], list[str], list[int]] | None:
    """(the words the tagger reads, their silver tags, the position of each caption token among
    the words) of one caption; None for an empty one."""
    from bindsplit_datasets.parsing import explain
    from bindsplit_datasets.parsing import tagger as tagger_module
    from bindsplit_datasets.parsing.normalise import singularise

    seen: list[tuple[list[str], list[str]]] = []
    shipped = tagger_module.get_tagger()
    original = shipped.tag

    def recording(tokens: Any) -> list[str]:
        tags = original(tokens)
        seen.append((list(tokens), list(tags)))
        return tags

    shipped.tag = recording  # type: ignore[method-assign]
    try:
        explanation = explain(caption)
    finally:
        del shipped.tag
    if not explanation.tokens:
        return None
    words, tags = seen[0]  # the caption's own tagging (later calls: rules' look-aheads)
    positions, offset = [], 0
    restored = set(explanation.articles_restored)
    for i in range(len(explanation.tokens)):
        offset += i in restored
        positions.append(i + offset)
    tags = list(tags)
    for i, position in enumerate(positions):
        assert words[position] == explanation.tokens[i], (caption, words, explanation.tokens)
    if len(explanation.kinds_before) != len(explanation.units):
        return words, tags, positions  # a correction merged units: the shipped tags are kept
    token = 0
    for text, before, after in zip(
        explanation.units, explanation.kinds_before, explanation.kinds_after, strict=True
    ):
        width = len(text.split())
        if before != after and width == 1 and KIND_TAGS[after] is not None:
            tags[positions[token]] = _tag_of(text, after, tags[positions[token]], singularise)
        token += width
    return words, tags, positions


def _tag_of(word: str, kind: str, old: str, singularise: Callable[[str], str]) -> str:
    """The Penn tag of ``word`` corrected to ``kind`` (its tag was ``old``)."""
    if kind == "noun":
        return "NNS" if singularise(word) != word else "NN"
    if kind in ("other", "verb"):
        if old in _VERB_TAGS:
            return old
        if word.endswith("s"):
            return "VBZ"
        return "VBD" if word.endswith("ed") else "VBP"
    return KIND_TAGS[kind] or old


# --- 3. training ----------------------------------------------------------------------------


def train(
    sentences: list[tuple[list[str], list[str]]], iterations: int, out: Path
) -> dict[str, Any]:
    """Fine-tune NLTK's shipped perceptron on ``sentences`` and export it to ``out`` (the
    shipped format); returns what changed."""
    from nltk.tag.perceptron import PerceptronTagger

    from bindsplit_datasets.parsing.tagger_weights import SOURCE_RESOURCE, export_nltk_model

    tagger = PerceptronTagger()  # NLTK's own English model: the shipped weights' source
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for words, tags in sentences:
        for word, tag in zip(words, tags, strict=True):
            if word in tagger.tagdict:
                counts[word][tag] += 1
    dropped = sorted(
        word
        for word, seen in counts.items()
        if 1 - seen[tagger.tagdict[word]] / sum(seen.values()) >= TAGDICT_DISAGREEMENT
    )
    for word in dropped:
        del tagger.tagdict[word]
    model = tagger.model
    model.i = 0
    updates = 0
    rng = random.Random(0)
    order = list(sentences)
    for iteration in range(iterations):
        mistakes = total = 0
        for words, tags in order:
            prev, prev2 = tagger.START
            context = tagger.START + [tagger.normalize(w) for w in words] + tagger.END
            for i, word in enumerate(words):
                guess = tagger.tagdict.get(word)
                if not guess:
                    features = tagger._get_features(i, word, context, prev, prev2)
                    guess, _ = model.predict(features)
                    model.update(tags[i], guess, features)
                    mistakes += guess != tags[i]
                    total += 1
                prev2, prev = prev, guess
        updates += mistakes
        logger.info(
            "iteration %d: %d of %d model-tagged tokens wrong", iteration + 1, mistakes, total
        )
        rng.shuffle(order)
    model.average_weights()
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder)
        parts = {
            "weights": model.weights,
            "tagdict": tagger.tagdict,
            "classes": sorted(model.classes),
        }
        for part, value in parts.items():
            (source / f"{SOURCE_RESOURCE}.{part}.json").write_text(json.dumps(value))
        digest = export_nltk_model(source, out)
    return {"tagdict_dropped": dropped, "mistakes_during_training": updates, "sha256": digest}


# --- 4. evaluation (in a fresh process per tagger) ---------------------------------------------


def _use_weights(path: str) -> None:
    """Swap the process-wide tagger for the weights at ``path`` ("shipped": keep it)."""
    if path == "shipped":
        return
    from bindsplit_datasets.parsing import tagger as tagger_module
    from bindsplit_datasets.parsing.tagger_weights import load_arrays

    tagger_module._TAGGER = tagger_module.MatrixPerceptronTagger(
        load_arrays(Path(path).read_bytes())
    )


def _micro(counts: list[int]) -> dict[str, float]:
    precision, recall = gold_sets.micro(counts)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "tp": counts[0],
        "fp": counts[1],
        "fn": counts[2],
        "P": precision,
        "R": recall,
        "F1": f1,
    }


def evaluate(
    weights: str, heldout_captions: list[str], silver_file: Path, *, quick: bool = False
) -> dict[str, Any]:
    """Every measure of one tagger (see the module docstring); ``quick``: the firings counted on
    the held-out captions only."""
    import importlib.util

    from bindsplit_datasets.parsing import explain, parse_bindings, parse_relations
    from bindsplit_datasets.parsing import tagger as tagger_module

    _use_weights(weights)
    data, texts = shared_data(), gold_sets.real_texts(shared_data())
    out: dict[str, Any] = {}

    def by_split(item: dict[str, Any]) -> list[str]:
        return [item["split"]]

    groups, _, _ = gold_sets.score(
        gold_sets.items(gold_sets.SUGARCREPE), texts, parse_bindings, by_split
    )
    out["bindings SugarCrepe"] = {split: _micro(c) for split, c in groups.items()}
    groups, _, _ = gold_sets.score(
        gold_sets.items(gold_sets.ORIGINAL),
        texts,
        parse_bindings,
        lambda item: ["heldout (round 4)" if item.get("heldout") == 4 else "development"],
    )
    out["bindings first set"] = {split: _micro(c) for split, c in groups.items()}
    telegraphic = json.loads((gold_sets.DATA / "telegraphic_heldout.json").read_text("utf-8"))
    counts = [0, 0, 0]
    for text, bindings in telegraphic["items"]:
        gold = {tuple(b) for b in bindings}
        found = {(b.attribute, b.object) for b in parse_bindings(text)}
        counts = [
            counts[0] + len(gold & found),
            counts[1] + len(found - gold),
            counts[2] + len(gold - found),
        ]
    out["bindings telegraphic (held out)"] = {"heldout": _micro(counts)}
    spec = importlib.util.spec_from_file_location(
        "perf_swap_pairs", ROOT / "perf" / "swap_pairs.py"
    )
    assert spec is not None and spec.loader is not None
    swap_pairs = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = swap_pairs
    spec.loader.exec_module(swap_pairs)
    for split in ("dev", "heldout"):
        scores = swap_pairs.measure(swap_pairs.load_items(split=split), parse_bindings)
        for register, score in scores.items():
            out.setdefault(f"swap pairs {register}", {})[split] = {
                "pairs": score.pairs,
                "consistent": score.consistent,
                "share": score.consistent / max(score.pairs, 1),
                "P": score.precision,
                "R": score.recall,
            }
    counts_r, _, _ = relation_gold.score(relation_gold.items(), data, parse_relations)
    out["relations"] = {split: _micro(c) for split, c in counts_r.items()}
    for path in relation_gold.FILES:
        counts_r, _, _ = relation_gold.score(relation_gold.items(path), data, parse_relations)
        out[f"relations {path.stem}"] = {split: _micro(c) for split, c in counts_r.items()}
        for split in ("dev", "heldout"):
            pairs = relation_gold.written_swap_pairs(split, path)
            passed, total = relation_gold.share(
                pairs, parse_relations, relation_gold.is_relation_swap
            )
            out[f"relations {path.stem}"][split]["swap pairs"] = f"{passed}/{total}"
    out["correction firings"] = {}
    everything = heldout_captions if quick else _real_captions()
    for name, captions in (
        ("held-out real captions", heldout_captions),
        ("all real captions", everything),
    ):
        fired: Counter[str] = Counter()
        relation_fired: Counter[str] = Counter()
        for caption in captions:
            explanation = explain(caption)
            fired.update(f.rule for f in explanation.fired if f.stage == "correction")
            relation_fired.update(f.rule for f in explanation.fired if f.stage == "relation")
        out["correction firings"][name] = {
            "captions": len(captions),
            "rules that fire": len(fired),
            "firings": sum(fired.values()),
            "per rule": dict(fired.most_common()),
            "relation rules that fire": len(relation_fired),
        }
    agree = total = 0
    tagger = tagger_module.get_tagger()
    for line in silver_file.read_text(encoding="utf-8").splitlines():
        words, tags = json.loads(line)
        predicted = tagger.tag(words)
        agree += sum(p == t for p, t in zip(predicted, tags, strict=True))
        total += len(tags)
    out["agreement with silver tags (held-out captions)"] = {
        "tokens": total,
        "share": agree / max(total, 1),
    }
    return out


# --- the experiment -------------------------------------------------------------------------


def _silver_sentences(captions: Iterable[str]) -> Iterator[tuple[list[str], list[str]]]:
    for caption in captions:
        read = silver(caption)
        if read is not None:
            yield read[0], read[1]


def _run_evaluation(
    weights: str, heldout: Path, silver_file: Path, out: Path, quick: bool
) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, __file__, "--evaluate", weights, "--heldout", str(heldout),
               "--silver", str(silver_file), "--out", str(out)] + ["--quick"] * quick  # fmt: skip
    subprocess.run(command, check=True, cwd=ROOT, env=env)
    return json.loads(out.read_text(encoding="utf-8"))


def experiment(
    iterations: int, out: Path, keep: Path | None = None, *, quick: bool = False
) -> dict[str, Any]:
    start = time.perf_counter()
    dev_gold, heldout_gold = _gold_texts()
    captions = [c for c in _real_captions() if c not in heldout_gold]
    limit = QUICK_CAPTIONS if quick else None
    captions = captions[:limit]
    rng = random.Random(39)
    heldout_real = sorted(c for c in captions if c not in dev_gold and rng.random() < HELDOUT_SHARE)
    held = set(heldout_real)
    training_texts = [c for c in captions if c not in held]
    training_texts += sorted(dev_gold - set(captions))[:limit]
    logger.info(
        "%d training texts, %d held-out real captions", len(training_texts), len(heldout_real)
    )
    training = list(_silver_sentences(training_texts))
    changed = sum(
        t != s for words, tags in training for t, s in zip(tags, _shipped_tags(words), strict=True)
    )
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        silver_file = work / "heldout_silver.jsonl"
        silver_file.write_text(
            "".join(json.dumps([w, t]) + "\n" for w, t in _silver_sentences(heldout_real)),
            encoding="utf-8",
        )
        heldout_file = work / "heldout.json"
        heldout_file.write_text(json.dumps(heldout_real), encoding="utf-8")
        weights = work / "caption_tagger.npz"
        trained = train(training, iterations, weights)
        if keep is not None:
            keep.write_bytes(weights.read_bytes())
        results = {
            "training": {
                "texts": len(training_texts),
                "tokens": sum(len(w) for w, _ in training),
                "silver tags differing from the shipped tagger's": changed,
                "iterations": iterations,
                **trained,
            },
            "held-out real captions": len(heldout_real),
            "shipped": _run_evaluation(
                "shipped", heldout_file, silver_file, work / "shipped.json", quick
            ),
            "caption-trained": _run_evaluation(
                str(weights), heldout_file, silver_file, work / "new.json", quick
            ),
            "seconds": time.perf_counter() - start,
        }
    out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return results


def _shipped_tags(words: list[str]) -> list[str]:
    from bindsplit_datasets.parsing.tagger import get_tagger

    return get_tagger().tag(words)


def report(results: dict[str, Any]) -> list[str]:
    """The comparison as text lines."""
    training = dict(results["training"])
    dropped = training.pop("tagdict_dropped")
    lines = [f"training: {json.dumps(training)}",
             f"look-up words dropped: {len(dropped)}: {' '.join(dropped[:40])}"]  # fmt: skip
    shipped, new = results["shipped"], results["caption-trained"]
    for measure in shipped:
        if measure == "correction firings":
            continue
        rows = shipped[measure]
        if "share" in rows:  # one row, no splits
            rows, others = {"all": rows}, {"all": new[measure]}
        else:
            others = new[measure]
        for split, row in rows.items():
            other = others.get(split, {})
            cells = []
            for key in ("P", "R", "F1", "share", "swap pairs", "consistent", "pairs"):
                if isinstance(row.get(key), float):
                    cells.append(f"{key} {row[key]:.3f} -> {other.get(key, 0.0):.3f}")
                elif key in row:
                    cells.append(f"{key} {row[key]} -> {other.get(key)}")
            lines.append(f"{measure} [{split}]: " + ", ".join(cells))
    for name in shipped["correction firings"]:
        a, b = shipped["correction firings"][name], new["correction firings"][name]
        lines.append(
            f"correction rules firing on {name} ({a['captions']}): {a['rules that fire']} -> "
            f"{b['rules that fire']} rules, {a['firings']} -> {b['firings']} firings"
        )
    return lines


def _has_nltk_tagger() -> bool:
    """Whether NLTK and its English perceptron model (the shipped weights' source) are at hand."""
    try:
        from nltk.tag.perceptron import PerceptronTagger

        PerceptronTagger()
    except (ImportError, LookupError):
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--out", type=Path, default=Path("tagger_experiment.json"))
    parser.add_argument(
        "--keep-weights", type=Path, help="also write the trained weights here (never shipped)"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="one pass over a few captions (seconds, checks nothing)",
    )
    parser.add_argument("--evaluate", help=argparse.SUPPRESS)
    parser.add_argument("--heldout", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--silver", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    if not (shared_data() / "sugarcrepe").is_dir():
        print(f"skipped: real captions not found under {shared_data()}; set BINDSPLIT_SHARED")
        return 0
    if args.evaluate:
        heldout = json.loads(args.heldout.read_text(encoding="utf-8"))
        result = evaluate(args.evaluate, heldout, args.silver, quick=args.quick)
        args.out.write_text(json.dumps(result), encoding="utf-8")
        return 0
    if not _has_nltk_tagger():
        print("skipped: NLTK or its English tagger model (averaged_perceptron_tagger_eng) absent")
        return 0
    iterations = 1 if args.quick else args.iterations
    results = experiment(iterations, args.out, args.keep_weights, quick=args.quick)
    print("\n".join(report(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
