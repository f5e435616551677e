"""Caption parsing: the (attribute, object) bindings (protocol section 1) and the (subject,
relation, object) triples (SPEC section 1b) a caption states.

:mod:`.pipeline` is the parser: the stages of a caption's reading in one declared order, and
``parse_bindings``, ``parse_relations``, ``parse_bindings_and_relations`` and their batch forms
as views of one run; :mod:`.explain` shows a run rule by rule. The stages' modules: :mod:`.text`
(cleaning and tokenisation), :mod:`.virtual_articles` and :mod:`.tagger` (tagging; the weights
shipped in ``data/``, read by :mod:`.tagger_weights`), :mod:`.units` (tagged tokens read as
units of the kinds of :mod:`.kinds`), :mod:`.patterns` (the engine of the correction rules of the
rule table ``data/rules.json``, read by :mod:`.ruleset`; the rules that are no windows in code
named there), :mod:`.rules` (which pairs bind; its helpers in :mod:`.reader`, the predicative
rules in :mod:`.predicates`), :mod:`.chunks` and :mod:`.relation_rules` (the triples),
:mod:`.normalise` (:class:`Binding`, :class:`Relation` and how their words are normalised),
:mod:`.lexicon` (every word list, read from the tables of ``data/words/`` by
:mod:`.wordlists`), :mod:`.version` (``PARSER_VERSION``, by content) and :mod:`.batch` (worker
processes).
"""

from __future__ import annotations

from .batch import map_caption_chunks
from .explain import Explanation, explain
from .normalise import (
    NORMALISATION,
    Binding,
    Relation,
    normalise_attribute,
    normalise_binding,
    normalise_object,
    singularise,
)
from .pipeline import (
    explain_relations,
    parse_bindings,
    parse_bindings_and_relations,
    parse_bindings_and_relations_many,
    parse_many,
    parse_relations,
    parse_relations_many,
)
from .text import clean_text, tokenise
from .version import PARSER_VERSION

__all__ = [
    "NORMALISATION",
    "PARSER_VERSION",
    "Binding",
    "Explanation",
    "Relation",
    "clean_text",
    "explain",
    "explain_relations",
    "map_caption_chunks",
    "normalise_attribute",
    "normalise_binding",
    "normalise_object",
    "parse_bindings",
    "parse_bindings_and_relations",
    "parse_bindings_and_relations_many",
    "parse_many",
    "parse_relations",
    "parse_relations_many",
    "singularise",
    "tokenise",
]
