"""``parse_bindings``: tokenise, tag and read a caption; the parser's version (:mod:`.version`) and
normalisation record."""

from __future__ import annotations

from collections.abc import Collection

from . import lexicon as lx
from . import tagger, telegraphic  # noqa: F401  (telegraphic: its passes join corrections.PASSES)
from .corrections import read_units
from .normalise import Binding
from .rules import read_bindings
from .ruleset import NO_TRACE, Trace
from .text import tokenise
from .version import PARSER_VERSION

__all__ = ["NORMALISATION", "PARSER_VERSION", "parse_bindings"]

#: How bindings are normalised; recorded in every reference-index fingerprint.
NORMALISATION: dict[str, object] = {
    "case": "lower",
    "text": "NFKC; control characters, symbols and emoji read as spaces",
    "tokeniser": "regex; hyphenated words kept whole (hyphenated attribute coordinations split); "
    "possessive 's split off",
    "tagger": f"NLTK's averaged perceptron ({tagger.SOURCE_RESOURCE}), weights shipped",
    "word_classes": "lemminflect 0.2.3's lookup tables (SPECIALIST Lexicon), table shipped",
    "object": "head noun with its compound, as written; last word singularised with inflect",
    "invariant_nouns": "singular words ending in s and pluralia tantum kept; glasses -> glass",
    "compounds": "kept (noun runs and the lexicon's compound list)",
    "attribute": "as written, lower case, hyphens kept; multi-word lexicon phrases and "
    "noun/adjective + participle kept whole ('snow covered', 'cream colored'); adverbs dropped",
    "lexicon_size": len(lx.ATTRIBUTES),
}


def parse_bindings(text: str, *, disabled: Collection[str] = ()) -> list[Binding]:
    """The bindings ``text`` states, in order of first occurrence, without duplicates.

    ``disabled`` names rules of :data:`.ruleset.RULES` to switch off (to see what each
    contributes; an unknown name is a
    :class:`~bindsplit_datasets.errors.BindsplitValueError`). Raises ``TypeError`` for anything
    but a string (and :class:`~bindsplit_datasets.errors.PackageDataError` if the installed
    package lost its tagger weights). See :mod:`.rules` for the rules.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_bindings expects a caption string, got {type(text).__name__}")
    trace = Trace(frozenset(disabled)) if disabled else NO_TRACE
    tokens = tokenise(text)
    if not tokens:
        return []
    return read_bindings(read_units(tokens, tagger.get_tagger().tag(tokens), trace))
