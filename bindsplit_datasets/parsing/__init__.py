"""Caption parsing: the (attribute, object) bindings a caption states (protocol section 1).

One module per stage of a caption's path: :mod:`.text` (cleaning and tokenisation),
:mod:`.tagger` (NLTK's English perceptron tagger; its weights shipped in ``data/``, read by
:mod:`.tagger_weights`),
:mod:`.units` (tagged tokens read as noun-phrase units: their kinds and tables),
:mod:`.corrections` (the tagger's usual slips corrected; those the word-class table shows in
:mod:`.word_class_slips`, those around verbs in :mod:`.verb_slips`, those of telegraphic text
without articles or verbs in :mod:`.telegraphic`, :mod:`.telegraphic_words` and
:mod:`.telegraphic_subjects`), :mod:`.rules` (which pairs
bind; its helpers in :mod:`.reader`, the predicative rules in :mod:`.predicates`),
:mod:`.normalise` (the :class:`Binding` and how its words are normalised), :mod:`.lexicon` (the
attribute lexicon, and the namespace of every word list: :mod:`.grammar_words` holds the closed
word classes, :mod:`.noun_tables` the noun tables), :mod:`.parser` (``parse_bindings``),
:mod:`.version` (``PARSER_VERSION``, by content), :mod:`.batch` (many captions, in worker
processes), :mod:`.ruleset` (the named rules, their order and examples:
``data/rules.json``), :mod:`.wordlists` (the word tables: ``data/words/*.txt``) and
:mod:`.explain` (``explain``: how one caption was read, rule by rule).
"""

from __future__ import annotations

from .batch import map_caption_chunks, parse_many
from .explain import Explanation, explain
from .normalise import (
    Binding,
    normalise_attribute,
    normalise_binding,
    normalise_object,
    singularise,
)
from .parser import NORMALISATION, PARSER_VERSION, parse_bindings
from .relations import (
    Relation,
    explain_relations,
    parse_bindings_and_relations,
    parse_relations,
    parse_relations_many,
)
from .text import clean_text, tokenise

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
    "parse_many",
    "parse_relations",
    "parse_relations_many",
    "singularise",
    "tokenise",
]
