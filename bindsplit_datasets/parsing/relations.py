"""Relation bindings: the (subject, relation, object) triples a caption states (SPEC section 1b).

"a dog sitting on a couch" -> (dog, sit on, couch); "a man riding a horse" -> (man, ride, horse);
"a cup to the left of a plate" -> (cup, to the left of, plate). Subject and object are normalised
as the objects of SPEC section 1 (singular lemma, compounds kept, attributes not part of them);
the relation is the verb's lemma with its particle or preposition, or the (multi-word)
preposition as written; copulas and auxiliaries are dropped.

A caption takes the attribute parser's path (:func:`.text.tokenise`, the shipped tagger,
:func:`.corrections.read_units`), is read as chunks (:mod:`.relation_chunks`) and then by the
ordered rules of :mod:`.relation_rules`; the word tables are the plain-text files
``parsing/data/relation_*.txt`` (:mod:`.relation_words`).

>>> parse_relations("A man and a woman are sitting on a bench next to a bike.")
[Relation(subject='man', relation='sit on', object='bench'), \
Relation(subject='woman', relation='sit on', object='bench'), \
Relation(subject='bench', relation='next to', object='bike')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from .batch import _chunks, checked_texts, map_caption_chunks
from .corrections import read_units
from .normalise import Binding
from .relation_chunks import chunk_units
from .relation_rules import read_relations
from .rules import read_bindings
from .ruleset import Trace
from .text import tokenise
from .virtual_articles import tag_caption

__all__ = [
    "Relation",
    "explain_relations",
    "parse_bindings_and_relations",
    "parse_bindings_and_relations_many",
    "parse_relations",
    "parse_relations_many",
]

_T = TypeVar("_T")


@dataclass(frozen=True, order=True)
class Relation:
    """A (subject, relation, object) triple stated by a caption, each part normalised (SPEC §1b)."""

    subject: str
    relation: str
    object: str

    def __str__(self) -> str:
        return f"{self.subject} {self.relation} {self.object}"


def _check(text: object) -> str:
    if not isinstance(text, str):
        raise TypeError(f"parse_relations expects a caption string, got {type(text).__name__}")
    return text


def _triples(text: str) -> list[tuple[str, str, str]]:
    tokens = tokenise(text)
    if not tokens:
        return []
    chunks = chunk_units(read_units(tokens, tag_caption(tokens)))
    return list(dict.fromkeys(read_relations(chunks)))


def parse_relations(text: str) -> list[Relation]:
    """The triples ``text`` states, in order of first occurrence, without duplicates.

    Raises ``TypeError`` for anything but a string. See the module docstring for the rules.
    """
    return [Relation(*triple) for triple in _triples(_check(text))]


def explain_relations(text: str) -> list[str]:
    """One line per chunk of ``text`` naming the rule that read it, then the triples found: what
    ``bindsplit parse --explain`` shows for relations."""
    tokens = tokenise(_check(text))
    if not tokens:
        return []
    chunks = chunk_units(read_units(tokens, tag_caption(tokens)))
    trace = Trace(record=True)
    found = list(dict.fromkeys(read_relations(chunks, trace)))
    lines = [
        f"{chunks[i].kind:<5} {chunks[i].text or chunks[i].key or '-':<24} {name}"
        for name, i in trace.fired or ()
    ]
    return lines + [f"-> ({s}, {r}, {o})" for s, r, o in found]


def _parse_chunk(texts: list[str]) -> list[tuple[tuple[str, str, str], ...]]:
    """Triples of each caption as plain tuples (cheap to send between processes)."""
    return [tuple(_triples(text)) for text in texts]


_Both = tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str, str], ...]]


def _both(text: str) -> _Both:
    """Bindings and triples of one caption from one tagging: the bindings are read first, as
    :func:`.chunk_units` mends the units in place."""
    tokens = tokenise(text)
    if not tokens:
        return (), ()
    units = read_units(tokens, tag_caption(tokens))
    bindings = tuple((b.attribute, b.object) for b in read_bindings(units))
    return bindings, tuple(dict.fromkeys(read_relations(chunk_units(units))))


def _parse_both_chunk(texts: list[str]) -> list[_Both]:
    return [_both(text) for text in texts]


def parse_bindings_and_relations(text: str) -> tuple[list[Binding], list[Relation]]:
    """``(parse_bindings(text), parse_relations(text))`` from one tokenisation and tagging: what a
    reference build counting both kinds of binding calls (about 1.5x the cost of the bindings
    alone, where the two calls cost over twice)."""
    bindings, triples = _both(_check(text))
    return [Binding(*pair) for pair in bindings], [Relation(*triple) for triple in triples]


def _map_distinct(
    items: list[str], func: Callable[[list[str]], list[_T]], num_proc: int | None,
    chunksize: int, progress: bool,
) -> dict[str, _T]:  # fmt: skip
    """``func`` over the distinct captions, in chunks, in worker processes: caption -> result."""
    distinct = list(dict.fromkeys(items))
    from tqdm.auto import tqdm

    parsed: list[_T] = []
    with tqdm(total=len(distinct), unit=" captions", desc="relations", disable=not progress) as bar:
        parts = map_caption_chunks(func, _chunks(distinct, chunksize), num_proc=num_proc)
        for part in parts:
            parsed.extend(part)
            bar.update(len(part))
    return dict(zip(distinct, parsed, strict=True))


def parse_relations_many(
    texts: Iterable[str],
    *,
    num_proc: int | None = None,
    progress: bool = False,
    chunksize: int = 512,
) -> list[list[Relation]]:
    """``[parse_relations(t) for t in texts]``, computed by ``num_proc`` processes.

    As :func:`.batch.parse_many`: ``num_proc=None`` uses every CPU, ``1`` parses in this process;
    each distinct caption is parsed once and travels to the workers in chunks of ``chunksize``;
    every returned list is a fresh list, also for repeated captions.
    """
    items = checked_texts(texts, "parse_relations_many", num_proc, chunksize)
    by_text = _map_distinct(items, _parse_chunk, num_proc, chunksize, progress)
    return [[Relation(*triple) for triple in by_text[text]] for text in items]


def parse_bindings_and_relations_many(
    texts: Iterable[str],
    *,
    num_proc: int | None = None,
    progress: bool = False,
    chunksize: int = 512,
) -> list[tuple[list[Binding], list[Relation]]]:
    """``[parse_bindings_and_relations(t) for t in texts]``, as :func:`parse_relations_many`."""
    items = checked_texts(texts, "parse_bindings_and_relations_many", num_proc, chunksize)
    by_text = _map_distinct(items, _parse_both_chunk, num_proc, chunksize, progress)
    return [
        ([Binding(*pair) for pair in by_text[text][0]], [Relation(*t) for t in by_text[text][1]])
        for text in items
    ]
