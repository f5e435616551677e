"""The parser as one pipeline: a caption's stages, in one declared order, and every way of
calling the parser as a view of one run.

:meth:`Pipeline.read` takes a caption through :data:`STAGES`, as far as what is wanted needs:

1. ``tokenise``: :func:`.text.tokenise` (lower case, hyphenated words kept whole);
2. ``tag``: :func:`.virtual_articles.tag_caption` (the shipped tagger; article-less noun phrases
   tagged with their article restored);
3. ``units``: :func:`.units.classify_units` (merged phrases, a kind for every unit);
4. ``corrections``: the passes of the rule table's stage ``correction``, in the table's order
   (:mod:`.patterns`): the tagger's slips mended;
5. ``bindings``: :func:`.rules.read_bindings` (protocol section 1);
6. ``relation-corrections``: the passes of the stage ``relation-correction``, on a copy of the
   units (slips that matter to relations only; the binding reader never sees them);
7. ``chunks``: :func:`.chunks.chunk_units` (noun phrases, prepositions, verb groups);
8. ``relations``: :func:`.relation_rules.read_relations` (SPEC section 1b).

The order of the correction passes is written once, in ``data/rules.json``; no pass joins by being
imported. :func:`parse_bindings`, :func:`parse_relations`, :func:`parse_bindings_and_relations`,
:func:`explain_relations`, :func:`.explain.explain` and the batch forms (:func:`parse_many`,
:func:`parse_relations_many`, :func:`parse_bindings_and_relations_many`) all read through
:data:`PIPELINE`; each takes ``disabled`` (rule names to switch off).

>>> parse_relations("A man and a woman are sitting on a bench next to a bike.")
[Relation(subject='man', relation='sit on', object='bench'), \
Relation(subject='woman', relation='sit on', object='bench'), \
Relation(subject='bench', relation='next to', object='bike')]
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from ..progress import progress as progress_bar
from .batch import _chunks, checked_texts, map_caption_chunks
from .chunks import Chunk, chunk_units
from .kinds import KIND_NAMES
from .normalise import Binding, Relation
from .patterns import Engine
from .relation_rules import read_relations
from .rules import read_bindings
from .ruleset import NO_TRACE, RULES, RuleSet, Trace
from .text import tokenise
from .units import Units, classify_units
from .virtual_articles import tag_caption

__all__ = [
    "BINDINGS",
    "BOTH",
    "PIPELINE",
    "RELATIONS",
    "STAGES",
    "Pipeline",
    "Reading",
    "explain_relations",
    "parse_bindings",
    "parse_bindings_and_relations",
    "parse_bindings_and_relations_many",
    "parse_many",
    "parse_relations",
    "parse_relations_many",
]

#: The stages of a caption's reading, in the order they run.
STAGES = (
    "tokenise",
    "tag",
    "units",
    "corrections",
    "bindings",
    "relation-corrections",
    "chunks",
    "relations",
)
#: What a reading can be asked for.
BINDINGS = frozenset({"bindings"})
RELATIONS = frozenset({"relations"})
BOTH = BINDINGS | RELATIONS

Triple = tuple[str, str, str]


@dataclass
class Reading:
    """One caption's run through the pipeline: what each stage it reached gave.

    ``bindings`` / ``triples`` are ``None`` when they were not asked for; ``kinds_before`` (the
    unit kinds as the tags say, before the corrections) only when asked for (``explain``)."""

    caption: str
    tokens: list[str]
    tags: list[str]
    units: Units
    trace: Trace
    kinds_before: tuple[str, ...] = ()
    bindings: list[Binding] | None = None
    relation_units: Units | None = None
    chunks: list[Chunk] = field(default_factory=list)
    triples: list[Triple] | None = None


class Pipeline:
    """The stages of :data:`STAGES` with the correction passes of a rule table."""

    def __init__(self, rules: RuleSet = RULES) -> None:
        self.corrections = Engine("correction", rules)
        self.relation_corrections = Engine("relation-correction", rules)

    def read(
        self,
        text: str,
        want: frozenset[str] = BINDINGS,
        trace: Trace = NO_TRACE,
        *,
        kinds_before: bool = False,
    ) -> Reading:
        """``text`` through the stages ``want`` needs (bindings, relations or both); rules fire
        through ``trace`` (switched off there, recorded when it records)."""
        tokens = tokenise(text)
        tags = tag_caption(tokens) if tokens else []
        units = classify_units(tokens, tags, trace)
        reading = Reading(text, tokens, tags, units, trace)
        if kinds_before:
            reading.kinds_before = tuple(KIND_NAMES[kind] for kind in units.kind)
        if not tokens:
            reading.bindings = [] if "bindings" in want else None
            reading.triples = [] if "relations" in want else None
            return reading
        self.corrections.run(units)
        if "bindings" in want:
            reading.bindings = read_bindings(units)
        if "relations" in want:
            view = units.copy()
            self.relation_corrections.run(view)
            reading.relation_units = view
            reading.chunks = chunk_units(view)
            reading.triples = list(dict.fromkeys(read_relations(reading.chunks, trace)))
        return reading


#: The parser's pipeline over the shipped rule table.
PIPELINE = Pipeline()


def _trace(disabled: Collection[str]) -> Trace:
    return Trace(frozenset(disabled)) if disabled else NO_TRACE


def _check(text: object, name: str) -> str:
    if not isinstance(text, str):
        raise TypeError(f"{name} expects a caption string, got {type(text).__name__}")
    return text


def parse_bindings(text: str, *, disabled: Collection[str] = ()) -> list[Binding]:
    """The bindings ``text`` states, in order of first occurrence, without duplicates.

    ``disabled`` names rules of :data:`.ruleset.RULES` to switch off (to see what each
    contributes; an unknown name is a
    :class:`~bindsplit_datasets.errors.BindsplitValueError`). Raises ``TypeError`` for anything
    but a string (and :class:`~bindsplit_datasets.errors.PackageDataError` if the installed
    package lost its tagger weights). See :mod:`.rules` for the rules.
    """
    bindings = PIPELINE.read(_check(text, "parse_bindings"), BINDINGS, _trace(disabled)).bindings
    assert bindings is not None
    return bindings


def parse_relations(text: str, *, disabled: Collection[str] = ()) -> list[Relation]:
    """The triples ``text`` states, in order of first occurrence, without duplicates
    (``disabled`` as for :func:`parse_bindings`). Raises ``TypeError`` for anything but a
    string. See :mod:`.relation_rules` for the rules."""
    triples = PIPELINE.read(_check(text, "parse_relations"), RELATIONS, _trace(disabled)).triples
    return [Relation(*triple) for triple in triples or ()]


def parse_bindings_and_relations(
    text: str, *, disabled: Collection[str] = ()
) -> tuple[list[Binding], list[Relation]]:
    """``(parse_bindings(text), parse_relations(text))`` from one run (one tokenisation and
    tagging): what a reference build counting both kinds of binding calls."""
    reading = PIPELINE.read(_check(text, "parse_bindings_and_relations"), BOTH, _trace(disabled))
    return reading.bindings or [], [Relation(*triple) for triple in reading.triples or ()]


def explain_relations(text: str, *, disabled: Collection[str] = ()) -> list[str]:
    """One line per chunk of ``text`` naming the relation rule that read it, then the triples
    found: what ``bindsplit parse --explain`` shows for relations."""
    trace = Trace(frozenset(disabled), record=True)
    reading = PIPELINE.read(_check(text, "explain_relations"), RELATIONS, trace)
    chunks = reading.chunks
    lines = [
        f"{chunks[i].kind:<5} {chunks[i].text or chunks[i].key or '-':<24} {name}"
        for name, i in trace.fired or ()
        if RULES[name].stage == "relation"
    ]
    return lines + [f"-> ({s}, {r}, {o})" for s, r, o in reading.triples or ()]


# --- many captions ----------------------------------------------------------------------------

_Parsed = tuple[tuple[tuple[str, str], ...] | None, tuple[Triple, ...] | None]


def _read_chunk(want: frozenset[str], disabled: frozenset[str], texts: list[str]) -> list[_Parsed]:
    """Bindings and triples of each caption as plain tuples: they cross process boundaries
    several times cheaper than dataclass instances."""
    trace = _trace(disabled)
    parsed: list[_Parsed] = []
    for text in texts:
        reading = PIPELINE.read(text, want, trace)
        bindings = reading.bindings
        parsed.append(
            (
                None if bindings is None else tuple((b.attribute, b.object) for b in bindings),
                None if reading.triples is None else tuple(reading.triples),
            )
        )
    return parsed


def _read_many(
    texts: Iterable[str],
    want: frozenset[str],
    name: str,
    *,
    num_proc: int | None,
    chunksize: int,
    progress: bool,
    disabled: Collection[str],
) -> tuple[list[str], dict[str, _Parsed]]:
    """The captions, and caption -> what ``want`` asks of each distinct caption, read by
    ``num_proc`` processes (:func:`.batch.map_caption_chunks`) in chunks of ``chunksize``."""
    items = checked_texts(texts, name, num_proc, chunksize)
    distinct = list(dict.fromkeys(items))
    if not distinct:
        return items, {}
    Trace(frozenset(disabled))  # unknown rule names fail here, not in a worker
    work = functools.partial(_read_chunk, want, frozenset(disabled))
    parsed: list[_Parsed] = []
    desc = "parsing" if want == BINDINGS else "relations"
    with progress_bar(
        total=len(distinct), unit=" captions", desc=desc, disable=not progress
    ) as bar:
        for part in map_caption_chunks(work, _chunks(distinct, chunksize), num_proc=num_proc):
            parsed.extend(part)
            bar.update(len(part))
    return items, dict(zip(distinct, parsed, strict=True))


def parse_many(
    texts: Iterable[str],
    *,
    num_proc: int | None = None,
    chunksize: int = 512,
    progress: bool = False,
    disabled: Collection[str] = (),
) -> list[list[Binding]]:
    """``[parse_bindings(t) for t in texts]``, computed by ``num_proc`` processes.

    ``num_proc=None`` uses every CPU, ``1`` parses in this process. Each distinct caption is
    parsed once (benchmarks and templated corpora repeat captions); the distinct captions travel
    to the workers in chunks of ``chunksize`` (see :func:`.batch.map_caption_chunks`). Every
    returned list is a fresh list, also for repeated captions.
    """
    items, by_text = _read_many(
        texts, BINDINGS, "parse_many", num_proc=num_proc, chunksize=chunksize,
        progress=progress, disabled=disabled,
    )  # fmt: skip
    return [[Binding(*pair) for pair in by_text[text][0] or ()] for text in items]


def parse_relations_many(
    texts: Iterable[str],
    *,
    num_proc: int | None = None,
    progress: bool = False,
    chunksize: int = 512,
    disabled: Collection[str] = (),
) -> list[list[Relation]]:
    """``[parse_relations(t) for t in texts]``, computed by ``num_proc`` processes, as
    :func:`parse_many`."""
    items, by_text = _read_many(
        texts, RELATIONS, "parse_relations_many", num_proc=num_proc, chunksize=chunksize,
        progress=progress, disabled=disabled,
    )  # fmt: skip
    return [[Relation(*triple) for triple in by_text[text][1] or ()] for text in items]


def parse_bindings_and_relations_many(
    texts: Iterable[str],
    *,
    num_proc: int | None = None,
    progress: bool = False,
    chunksize: int = 512,
    disabled: Collection[str] = (),
) -> list[tuple[list[Binding], list[Relation]]]:
    """``[parse_bindings_and_relations(t) for t in texts]``, as :func:`parse_many`: each caption
    tokenised and tagged once for both."""
    items, by_text = _read_many(
        texts, BOTH, "parse_bindings_and_relations_many", num_proc=num_proc,
        chunksize=chunksize, progress=progress, disabled=disabled,
    )  # fmt: skip
    return [
        (
            [Binding(*pair) for pair in by_text[text][0] or ()],
            [Relation(*triple) for triple in by_text[text][1] or ()],
        )
        for text in items
    ]
