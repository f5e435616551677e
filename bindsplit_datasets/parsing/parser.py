"""``parse_bindings``: tokenise, tag and read a caption; the parser's version and normalisation
record."""

from __future__ import annotations

from . import lexicon as lx
from . import tagger
from .normalise import Binding
from .rules import _bindings
from .text import tokenise

__all__ = ["NORMALISATION", "PARSER_VERSION", "parse_bindings"]

#: Version of the rules and word lists, and the SHA-256 of the shipped tagger weights; bump the
#: number whenever a rule or word list changes (a test enforces this).
PARSER_VERSION = f"2.0+tagger-sha256.{tagger.WEIGHTS_SHA256}"

#: How bindings are normalised; recorded in every reference-index fingerprint.
NORMALISATION: dict[str, object] = {
    "case": "lower",
    "tokeniser": "regex; hyphens inside words read as spaces; possessive 's split off",
    "tagger": f"NLTK's averaged perceptron ({tagger.SOURCE_RESOURCE}), weights shipped",
    "object": "head noun with its compound; split compounds joined; last word singularised with "
    "inflect",
    "invariant_nouns": "singular words ending in s and pluralia tantum kept; glasses -> glass",
    "compounds": "kept (noun runs and the lexicon's compound list)",
    "attribute": "as written, lower case; multi-word lexicon phrases kept; adverbs dropped",
    "colour_suffix": "'X colored' / 'X looking' -> X",
    "lexicon_size": len(lx.ATTRIBUTES),
}


def parse_bindings(text: str) -> list[Binding]:
    """The bindings ``text`` states, in order of first occurrence, without duplicates.

    Raises ``TypeError`` for anything but a string (and
    :class:`~.tagger.TaggerDataError` if the installed package lost its tagger
    weights). See the module docstring for the rules.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_bindings expects a caption string, got {type(text).__name__}")
    tokens = tokenise(text)
    if not tokens:
        return []
    return _bindings(tokens, tagger.get_tagger().tag(tokens))
