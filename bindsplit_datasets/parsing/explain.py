""":func:`explain`: how the parser read one caption, step by step (``bindsplit parse --explain``).

An :class:`Explanation` holds the caption's tokens and the tagger's tags (with the tokens before
which an article was restored for tagging, :mod:`.virtual_articles`), its units (tokens, or
merged phrases such as "light brown") with their kind as the tags say and after the tag
corrections, the named rules of :data:`.ruleset.RULES` that fired (a rule fires when it changes
a unit's kind, chooses a subject or adds a binding; a relation rule when it reads a chunk of the
relation parser), the bindings and the relation triples: one run of the pipeline
(:meth:`.pipeline.Pipeline.read`), as :func:`.pipeline.parse_bindings_and_relations` makes, that
records the firings; :func:`.pipeline.parse_bindings` records none, and gives the same bindings.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from .kinds import KIND_NAMES
from .normalise import Binding, Relation
from .pipeline import BOTH, PIPELINE
from .ruleset import RULES, Trace
from .virtual_articles import article_sites

__all__ = ["Explanation", "Firing", "explain"]


#: The stages whose rules :attr:`Explanation.rules` lists (the others are relations').
_READ_STAGES = ("correction", "binding")


@dataclass(frozen=True)
class Firing:
    """One rule that fired: its name and stage, and the unit it fired at (for a relation rule,
    the index and text of the relation parser's chunk it read)."""

    rule: str
    stage: str
    unit: int
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "stage": self.stage, "unit": self.unit, "text": self.text}


@dataclass(frozen=True)
class Explanation:
    """How the parser read ``caption`` (see the module docstring)."""

    caption: str
    tokens: tuple[str, ...]
    tags: tuple[str, ...]
    #: Tokens before which an article was restored for tagging (:mod:`.virtual_articles`).
    articles_restored: tuple[int, ...]
    units: tuple[str, ...]
    kinds_before: tuple[str, ...]
    kinds_after: tuple[str, ...]
    fired: tuple[Firing, ...]
    bindings: tuple[Binding, ...]
    relations: tuple[Relation, ...]

    @property
    def rules(self) -> tuple[str, ...]:
        """The names of the correction and binding rules that fired, each once, in order of
        first firing."""
        return tuple(dict.fromkeys(f.rule for f in self.fired if f.stage in _READ_STAGES))

    @property
    def relation_rules(self) -> tuple[str, ...]:
        """The names of the relation rules (and of the corrections only relations see) that fired,
        each once, in order of first firing."""
        return tuple(dict.fromkeys(f.rule for f in self.fired if f.stage not in _READ_STAGES))

    def to_dict(self) -> dict[str, Any]:
        """The explanation as JSON-ready data (``bindsplit parse --json``)."""
        return {
            "caption": self.caption,
            "tokens": list(self.tokens),
            "tags": list(self.tags),
            "articles_restored": list(self.articles_restored),
            "units": list(self.units),
            "kinds_before": list(self.kinds_before),
            "kinds_after": list(self.kinds_after),
            "rules": [firing.to_dict() for firing in self.fired],
            "bindings": [[b.attribute, b.object] for b in self.bindings],
            "relations": [[r.subject, r.relation, r.object] for r in self.relations],
        }

    def lines(self) -> list[str]:
        """The explanation as text lines, for a reader."""
        lines = [f"caption: {self.caption}"]
        lines.append(
            "tokens: " + " ".join(f"{t}/{g}" for t, g in zip(self.tokens, self.tags, strict=True))
        )
        if self.articles_restored:
            words = ", ".join(repr(self.tokens[i]) for i in self.articles_restored)
            lines.append(f"tagged with an article restored before: {words}")
        units = []
        for text, before, after in zip(
            self.units, self.kinds_before, self.kinds_after, strict=True
        ):
            units.append(f"{text}/{before}" if before == after else f"{text}/{before}->{after}")
        lines.append("units (kind from the tags -> after corrections): " + " | ".join(units))
        lines.append("rules fired:" if self.fired else "rules fired: none")
        for firing in self.fired:
            lines.append(f"  {firing.stage:<10} {firing.rule} at {firing.text!r}")
        lines.append("bindings: " + (", ".join(map(str, self.bindings)) or "none"))
        lines.append("relations: " + (", ".join(map(str, self.relations)) or "none"))
        return lines


def explain(caption: str, *, disabled: Collection[str] = ()) -> Explanation:
    """How the parser reads ``caption``, with the rules named in ``disabled`` switched off.

    >>> [str(b) for b in explain("a dog is white").bindings]
    ['white dog']
    """
    if not isinstance(caption, str):
        raise TypeError(f"explain expects a caption string, got {type(caption).__name__}")
    trace = Trace(frozenset(disabled), record=True)
    reading = PIPELINE.read(caption, BOTH, trace, kinds_before=True)
    units, chunks = reading.units, reading.chunks
    view = reading.relation_units or units
    fired = []
    for name, position in trace.fired or ():
        stage = RULES[name].stage
        if stage == "relation":
            text = chunks[position].text or chunks[position].key
        else:
            text = (view if stage == "relation-correction" else units).text[position]
        fired.append(Firing(name, stage, position, text))
    return Explanation(
        caption=caption,
        tokens=tuple(reading.tokens),
        tags=tuple(reading.tags),
        articles_restored=tuple(article_sites(reading.tokens)),
        units=tuple(units.text),
        kinds_before=reading.kinds_before,
        kinds_after=tuple(KIND_NAMES[kind] for kind in units.kind),
        fired=tuple(fired),
        bindings=tuple(reading.bindings or ()),
        relations=tuple(Relation(*triple) for triple in reading.triples or ()),
    )
