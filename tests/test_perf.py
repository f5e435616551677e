"""Every ``perf/bench_*.py`` runs to the end in its ``--quick`` mode and prints its tables, so an
API change that breaks a benchmark fails ``make test`` (``make bench`` runs them in full); so do
``perf/swap_pairs.py``, whose counting is checked on hand-made pairs, and the tagger experiment
(``perf/tagger_experiment.py``)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections import namedtuple
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
        "object-boundary set (bindings_gold_boundaries.json)",
        "sentence set (bindings_gold_sentences.json)",
        "heldout",
        "SugarCrepe swap_att:",
        "Rule effects on bindings and triples, each rule alone switched off (gold 40,",
        "rules with no effect on any gold, held-out or real caption:",
        "(linear: 10x; target <= 12x)",
        "parse_bindings, first pass, fresh process",
        "parse_bindings, steady state",
        "parse_many 2 processes / 1 process:",
    ),
    "bench_relations.py": (
        "relation gold set, exact-match triples",
        "heldout",
        "registers:region:dev",
        "relation-swap pairs (dev, relations_gold_registers.json):",
        "development errors by family",
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
    "bench_spacy_relations.py": (
        "Exact-match triples, P / R / F1 (SPEC section 1b)",
        "relation-swap pairs (dev, relations_gold.json):",
        "Development errors by family",
        "spaCy baseline: skipped in quick mode",
    ),
    "bench_scoring.py": (
        "Scorer throughput:",
        "8 samples of 2 images x 2 captions",
        "scorer / raw",
    ),
}


#: The scripts that read the real captions under ``../shared/data``.
NEEDS_SHARED_DATA = frozenset(
    {"bench_parser.py", "bench_reference.py", "bench_relations.py", "bench_spacy_relations.py"}
)


def test_every_benchmark_script_is_checked():
    assert sorted(EXPECTED) == sorted(path.name for path in (ROOT / "perf").glob("bench_*.py"))


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_the_benchmark_runs_in_quick_mode(script, request):
    if script in NEEDS_SHARED_DATA:
        request.getfixturevalue("shared_data")  # skips without ../shared/data
    if script == "bench_reference.py":
        pytest.importorskip("ray")
    stdout = _run_quick(script)
    missing = [line for line in EXPECTED[script] if line not in stdout]
    assert missing == [], stdout


def _run_quick(script: str, *args: str) -> str:
    """The standard output of ``perf/<script> --quick [args]``, which must exit with 0."""
    done = subprocess.run(
        [sys.executable, f"perf/{script}", "--quick", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _swap_pairs_module():
    """``perf/swap_pairs.py`` imported as a module (``perf/`` is not a package)."""
    if "perf_swap_pairs" not in sys.modules:
        path = ROOT / "perf" / "swap_pairs.py"
        spec = importlib.util.spec_from_file_location("perf_swap_pairs", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclass looks itself up there
        spec.loader.exec_module(module)
    return sys.modules["perf_swap_pairs"]


@pytest.mark.slow
def test_the_swap_pairs_script_runs_in_quick_mode():
    stdout = _run_quick("swap_pairs.py", "--show", "3")
    expected = (
        "split all, 95% Wilson intervals",
        "colorswap: 12 pairs",
        "region: 12 pairs",
        "consistent (both sides exact): ",
        "label-free consistent: ",
        "failing dev pairs:",
    )
    assert [line for line in expected if line not in stdout] == [], stdout


@pytest.mark.slow
def test_the_tagger_experiment_runs_in_quick_mode(shared_data, tmp_path):
    """``perf/tagger_experiment.py --quick``: silver tags, one training pass, both taggers
    evaluated in their own process, the comparison printed and written."""
    out = tmp_path / "tagger.json"
    stdout = _run_quick("tagger_experiment.py", "--out", str(out))
    if stdout.startswith("skipped:"):
        pytest.skip(stdout.strip())
    expected = (
        "training: ",
        "bindings SugarCrepe [heldout]: P ",
        "relations relations_gold_registers [dev]: P ",
        "agreement with silver tags (held-out captions) [all]: share ",
        "correction rules firing on held-out real captions (",
    )
    assert [line for line in expected if line not in stdout] == [], stdout
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["training"]["iterations"] == 1
    assert set(results) >= {"shipped", "caption-trained"}


def test_swap_pairs_counts_hand_made_pairs():
    """``measure`` on two pairs and a made-up parser: exact counts, one failure listed."""
    swap_pairs = _swap_pairs_module()
    Binding = namedtuple("Binding", "attribute object")
    parses = {
        "red cup, blue bowl": [Binding("red", "cup"), Binding("blue", "bowl")],
        "blue cup, red bowl": [Binding("red", "cup"), Binding("blue", "bowl")],  # not swapped
        "brown knob": [Binding("brown", "knob")],
        "teal knob": [Binding("teal", "knob"), Binding("round", "knob")],  # one extra
    }
    items = [
        {"register": "colorswap", "split": "dev", "kind": "swap", "change": ["red", "blue"],
         "a": "red cup, blue bowl", "a_bindings": [["red", "cup"], ["blue", "bowl"]],
         "b": "blue cup, red bowl", "b_bindings": [["blue", "cup"], ["red", "bowl"]]},
        {"register": "region", "split": "heldout", "kind": "replace", "change": ["brown", "teal"],
         "a": "brown knob", "a_bindings": [["brown", "knob"]],
         "b": "teal knob", "b_bindings": [["teal", "knob"]]},
    ]  # fmt: skip
    scores = swap_pairs.measure(items, parses.__getitem__)
    colorswap, region = scores["colorswap"], scores["region"]
    assert (colorswap.pairs, colorswap.true_positives, colorswap.false_positives) == (1, 2, 2)
    assert (colorswap.false_negatives, colorswap.consistent, colorswap.label_free) == (2, 0, 1)
    assert [failure["a"] for failure in colorswap.failures] == ["red cup, blue bowl"]
    assert (region.true_positives, region.false_positives, region.false_negatives) == (2, 1, 0)
    assert (region.consistent, region.label_free, region.failures) == (0, 0, [])
    assert (region.precision, region.recall) == (2 / 3, 1.0)


def test_swap_pairs_label_free_check_reads_the_change():
    label_free = _swap_pairs_module().label_free_consistent
    replace = {"kind": "replace", "change": ["tan", "grey"]}
    assert label_free(replace, {("tan colored", "wall")}, {("grey colored", "wall")})
    assert not label_free(replace, {("tan colored", "wall")}, {("grey", "wall")})
    assert not label_free(replace, set(), set())  # nothing to replace: not consistent
    swap = {"kind": "swap", "change": None}
    assert label_free(swap, {("red", "cup"), ("blue", "bowl")}, {("blue", "cup"), ("red", "bowl")})
    assert not label_free(swap, {("red", "cup"), ("blue", "bowl")}, {("red", "cup")})
    assert not label_free(swap, set(), set())


# --- the spaCy relation baseline, on dependency trees written by hand (no spaCy needed) --------


class _Token:
    """The attributes of a spaCy token that ``perf/spacy_relations.py`` reads."""

    def __init__(self, doc: list, i: int, text: str, pos: str, tag: str, dep: str, head: int):
        self.doc, self.i, self.text, self.lower_ = doc, i, text, text.lower()
        self.pos_, self.tag_, self.dep_, self._head = pos, tag, dep, head
        self.lemma_ = text.lower()

    @property
    def head(self):
        return self.doc[self._head]

    @property
    def children(self):
        return (t for t in self.doc if t._head == self.i and t.i != self.i)

    @property
    def ancestors(self):
        node = self
        while node.head.i != node.i:
            node = node.head
            yield node


def _doc(*rows: str) -> list:
    """A parsed caption from rows "text POS TAG dep head"."""
    doc: list = []
    for i, row in enumerate(rows):
        text, pos, tag, dep, head = row.split()
        doc.append(_Token(doc, i, text, pos, tag, dep, int(head)))
    return doc


def _spacy_relations_module():
    if "perf_spacy_relations" not in sys.modules:
        path = ROOT / "perf" / "spacy_relations.py"
        spec = importlib.util.spec_from_file_location("perf_spacy_relations", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return sys.modules["perf_spacy_relations"]


def test_the_spacy_baseline_reads_hand_made_trees():
    triples = _spacy_relations_module().triples
    sitting = _doc("a DET DT det 1", "dog NOUN NN ROOT 1", "sitting VERB VBG acl 1",
                   "on ADP IN prep 2", "a DET DT det 5", "couch NOUN NN pobj 3")  # fmt: skip
    assert triples(sitting) == [("dog", "sit on", "couch")]
    absolute = _doc("a DET DT det 1", "box NOUN NN ROOT 1", "with ADP IN prep 1",
                    "labels NOUN NNS pobj 2", "on ADP IN prep 3", "it PRON PRP pobj 4")  # fmt: skip
    assert triples(absolute) == [("box", "with", "label"), ("label", "on", "box")]
    passive = _doc("a DET DT det 1", "kite NOUN NN ROOT 1", "flown VERB VBN acl 1",
                   "by ADP IN agent 2", "a DET DT det 5", "boy NOUN NN pobj 3")  # fmt: skip
    assert triples(passive) == [("boy", "fly", "kite")]
    # right association: the phrase after the object relates the object, not the verb
    riding = _doc("men NOUN NNS ROOT 0", "riding VERB VBG acl 0", "motorcycles NOUN NNS dobj 1",
                  "on ADP IN prep 1", "the DET DT det 5", "street NOUN NN pobj 3")  # fmt: skip
    assert triples(riding) == [("man", "ride", "motorcycle"), ("motorcycle", "on", "street")]
    # a position noun with "of" joins the preposition; a transparent noun passes through
    front = _doc("a DET DT det 1", "bowl NOUN NN ROOT 1", "of ADP IN prep 1",
                 "soup NOUN NN pobj 2", "in ADP IN prep 1", "front NOUN NN pobj 4",
                 "of ADP IN prep 5", "a DET DT det 8", "tv NOUN NN pobj 6")  # fmt: skip
    assert triples(front) == [("soup", "in front of", "tv")]
    quoted = _doc("sign NOUN NN ROOT 0", 'saying VERB VBG acl 0', '" PUNCT `` punct 1',
                  "keep VERB VB xcomp 1", "off ADP RP prt 3", "grass NOUN NN dobj 3",
                  "\" PUNCT '' punct 3")  # fmt: skip
    assert triples(quoted) == []
