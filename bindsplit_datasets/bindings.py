"""(attribute, object) bindings of captions (docs/protocol.md, section 1).

A caption is lower-cased, tokenised by a regular expression (no NLTK data needed), tagged with
NLTK's averaged-perceptron tagger and read by the rules below. What counts as a binding:

Attribute words
    adjectives, every word of the attribute lexicon (:mod:`bindsplit_datasets.lexicon`: colours,
    materials, patterns, sizes, shapes, textures, states, ages, common qualities and origins)
    whatever its tag, and participles used as modifiers right after a determiner or adjective
    ("a parked car", "a smiling man") or, past participles, a preposition ("with sliced apples").
    A word the tagger calls an adjective that is not in the lexicon and has no adjective ending
    is read as a noun before another noun ("kitchen/JJ scene" is a compound, not (kitchen,
    scene)). Multi-word attributes stay whole: shaded colours and other lexicon phrases ("light
    brown", "stainless steel", "hard boiled") and noun + participle compounds ("snow covered",
    "tree lined"). "cream colored" / "nice looking" keep only the attribute ("cream", "nice");
    degree adverbs are dropped ("very large" -> "large").
Positions
    *attributive*: the modifiers between a determiner and the object ("a large brown dog" ->
    (large, dog), (brown, dog)), including *conjoined* ones ("a red and white bus", with a serial
    comma "a green, yellow, and red kite"); a modifier binds to the noun it precedes, not to
    coordinated nouns after it ("tall trees and buildings" -> (tall, tree)). *Elliptical*
    conjuncts whose noun is left out bind to the noun of the last one ("one black and one white
    cat", "two red and three blue balloons" -> both). *Predicative*: adjectives after a copula
    ("is", "are", "looks", "seems", ...) bind to the subject: the noun before the copula or before
    "that/which/who is", climbing out of a prepositional phrase ("the dog on the bed is white" ->
    dog) except after a group or container noun ("a bowl of soup is hot" -> soup); negated
    predicates ("is not empty") are skipped. A past participle counts there only coordinated with
    an adjective and with nothing after it ("the shop is closed and dark"; not "is parked on the
    street"). The main verb after a relative clause is no noun ("a cat that is grey sleeps on the
    sofa" -> (grey, cat)), and a copula right after one has the same subject ("a car that is red
    looks new" -> (new, car)). *Colour participles*: a colour after "painted", "dyed", ... binds to
    the noun before the participle or to the subject of the copula before it ("a wall painted
    blue", "a door that is painted red"), not when it modifies a noun after it ("painted red
    flowers"). Nothing else binds: post-nominal phrases ("a cup full of tea", "a bed covered with
    clothes"), secondary predicates ("holding the door open") and elliptical phrases without a
    noun after them ("one grown and one baby, standing") are not attribute slots.
Objects
    the head noun with its compound ("teddy bear", "fire hydrant", "tennis racket": a run of nouns
    is one object; :data:`~bindsplit_datasets.lexicon.COMPOUND_NOUNS` lists compounds whose first
    word is an adjective or gerund, e.g. "hot dog", "living room"), except lexicon words at its
    left edge, which are attributes ("glass vase" -> (glass, vase)). Compounds written as two
    words are joined (:data:`~bindsplit_datasets.lexicon.SPLIT_COMPOUNDS`: "lap top" -> "laptop",
    "tea pot" -> "teapot"). The last word is singularised
    with ``inflect`` ("bananas" -> "banana", "people" -> "person"); singular words ending in "s"
    and pluralia tantum stay ("bus", "scissors", "jeans"); "glasses" becomes "glass".
Never attributes
    numbers, quantifiers and count words, determiners, order words and position words (two,
    several, many, other, lone, solo, left, top, front, next, ...), possessives, nouns inside a
    compound ("teddy" in "teddy bear"), and participles that describe only with the word before
    them when they stand alone ("different sized boxes"; but "medium sized", "large sized" ->
    "large"). Hyphens inside words are read as spaces, so "red-and-white" is conjoined and
    "snow-covered" == "snow covered".

The tagger is NLTK's pretrained English model, shipped with the package
(:mod:`bindsplit_datasets.tagger`: NLTK's tags exactly, without NLTK or its data at run time).
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

from . import lexicon as lx
from . import tagger

__all__ = [
    "NORMALISATION",
    "PARSER_VERSION",
    "Binding",
    "normalise_attribute",
    "normalise_binding",
    "normalise_object",
    "parse_bindings",
    "map_caption_chunks",
    "parse_many",
    "singularise",
    "tokenise",
]

logger = logging.getLogger(__name__)

_R = TypeVar("_R")

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


@dataclass(frozen=True, order=True)
class Binding:
    """An (attribute, object) pair stated by a caption, both normalised (docs/protocol.md, section
    1)."""

    attribute: str
    object: str

    def __str__(self) -> str:
        return f"{self.attribute} {self.object}"


# --- tokenisation ----------------------------------------------------------------------------

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
_INNER_HYPHEN = re.compile(r"(?<=[^\W_])-(?=[^\W_])")
_TOKEN = re.compile(r"[^\W_]+(?=n't\b)|n't\b|'[^\W\d_]+|[^\W_]+|[^\w\s]")


def tokenise(text: str) -> list[str]:
    """Lower-case word and punctuation tokens, split the way the tagger was trained.

    >>> tokenise("A man's red-and-white T-shirt, isn't it?")
    ['a', 'man', "'s", 'red', 'and', 'white', 't', 'shirt', ',', 'is', "n't", 'it', '?']
    """
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES).lower()
    return _TOKEN.findall(_INNER_HYPHEN.sub(" ", text))


# --- normalisation ---------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _inflect_engine() -> Any:
    import inflect

    return inflect.engine()


@lru_cache(maxsize=1 << 16)
def singularise(word: str) -> str:
    """The singular of a lower-case noun; words that are not plural come back unchanged.

    >>> [singularise(w) for w in ("bananas", "bus", "buses", "people", "scissors", "cactus")]
    ['banana', 'bus', 'bus', 'person', 'scissors', 'cactus']
    """
    if (
        len(word) < 3
        or word in lx.INVARIANT_NOUNS
        or word.endswith("ss")
        or (word.endswith("us") and word not in lx.PLURAL_US_NOUNS)
    ):
        return word
    singular = _inflect_engine().singular_noun(word)
    return singular if isinstance(singular, str) and singular else word


def _words(text: str) -> list[str]:
    return " ".join(tokenise(text)).replace(" '", "'").split()


def normalise_object(noun_phrase: str) -> str:
    """The object form of a noun phrase: lower case, compound kept, split compounds joined, last
    word singular.

    >>> normalise_object("Teddy Bears"), normalise_object("fire-hydrants"), normalise_object("bus")
    ('teddy bear', 'fire hydrant', 'bus')
    >>> normalise_object("lap tops"), normalise_object("Tea Pot")
    ('laptop', 'teapot')
    """
    return _object_of(_words(noun_phrase))


def _object_of(units: Sequence[str]) -> str:
    """Normalised words (or multi-word units) of a noun phrase -> its object form: split compounds
    joined (:data:`~bindsplit_datasets.lexicon.SPLIT_COMPOUNDS`), last word singular."""
    words: list[str] = []
    for word in " ".join(units).split():
        if words:
            joined = lx.SPLIT_COMPOUNDS.get(f"{words[-1]} {word}") or lx.SPLIT_COMPOUNDS.get(
                f"{words[-1]} {singularise(word)}"
            )
            if joined:
                words[-1] = joined
                continue
        words.append(word)
    if not words:
        return ""
    return " ".join([*words[:-1], singularise(words[-1])])


def normalise_attribute(attribute: str) -> str:
    """The attribute form of a modifier: lower case, hyphens read as spaces, spaces collapsed.

    >>> normalise_attribute(" Light-Brown ")
    'light brown'
    """
    return " ".join(_words(attribute))


def normalise_binding(attribute: str, object: str) -> Binding:
    """A :class:`Binding` from structured fields (e.g. ARO's ``attributes`` / ``obj1_name``),
    normalised exactly as the parser normalises what it reads in captions."""
    return Binding(normalise_attribute(attribute), normalise_object(object))


# --- rules -----------------------------------------------------------------------------------

# Unit kinds: what a token (or merged phrase) can do in a noun phrase.
_NOUN = "N"  # noun (or compound)
_ATTR = "A"  # attribute in any attribute slot (adjective, lexicon word, lexicon phrase)
_WEAK = "W"  # lexicon word tagged as a verb: an attribute only where a modifier can stand
_PART = "V"  # past participle: a modifier only where a modifier can stand
_GERUND = "G"  # present participle: likewise, but never right after a preposition
_DET = "D"  # determiner, number, quantifier, possessive, non-attribute adjective
_ADV = "R"  # adverb (skipped)
_CONJ = "C"  # and / or / comma
_COPULA = "P"
_REL = "T"  # that / which / who
_PREP = "I"
_NEG = "X"
_VERB = "B"  # base or present-tense verb (VB, VBP): read as a noun after "a/the + attribute"
_OTHER = "O"

_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
_ADJ_TAGS = frozenset({"JJ", "JJR", "JJS"})
_DET_TAGS = frozenset({"DT", "PDT", "PRP$", "WP$", "CD", "POS"})
_ADV_TAGS = frozenset({"RB", "RBR", "RBS"})
_CONJ_WORDS = frozenset({"and", "or", "&", ","})
_REL_WORDS = frozenset({"that", "which", "who"})
_NEGATIONS = frozenset({"not", "n't", "never"})
_DISTRIBUTIVES = frozenset({"all", "both", "each", "either", "neither"})
_ARTICLES = frozenset({"a", "an", "the"})
_PLURAL_COPULAS = frozenset({"are", "were", "'re"})
#: Determiners of the conjuncts of an elliptical phrase ("one black and one white cat").
_ELLIPSIS_DETERMINERS = _ARTICLES | frozenset(
    {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
)
_MODIFIERS = frozenset({_ATTR, _WEAK, _PART, _GERUND})
#: What may stand left of a participle that modifies a noun ("a parked car", "with sliced apples").
_MODIFIER_CONTEXT = frozenset({_DET, _ATTR, _WEAK, _PART, _GERUND, _CONJ, _PREP})
#: What may stand right of a word the tagger calls an adjective when it really is one.
_AFTER_ADJECTIVE = frozenset({_NOUN, _ATTR, _WEAK, _PART, _GERUND, _CONJ})


def _phrase_table() -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """First word -> (words, kind) of every multi-word compound / lexicon phrase, longest first."""
    table: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for phrases, kind in (
        (lx.COMPOUND_NOUNS, _NOUN),
        (lx.SPLIT_COMPOUNDS, _NOUN),
        (lx.ATTRIBUTES, _ATTR),
    ):
        for phrase in phrases:
            words = tuple(phrase.split())
            if len(words) > 1:
                table.setdefault(words[0], []).append((words, kind))
    for entries in table.values():
        entries.sort(key=lambda entry: (-len(entry[0]), entry))
    return table


_PHRASES = _phrase_table()


@lru_cache(maxsize=1 << 16)
def _is_adjective(word: str) -> bool:
    """Whether a word the tagger calls an adjective is one: a lexicon word or a typical ending."""
    return word in lx.ATTRIBUTES or (
        len(word) > 4
        and word.endswith(lx.ADJECTIVE_SUFFIXES)
        and not word.endswith(lx.NOUN_ENDINGS)
        and word not in lx.SUFFIX_EXCEPTIONS
    )


@lru_cache(maxsize=1 << 16)
def _is_participle(word: str) -> bool:
    """Whether a word in -ing is the participle of a verb of :data:`lexicon.VERBS_3SG`
    ("standing" <- "stands", "sitting" <- "sits", "grazing" <- "grazes"), not a noun
    ("flooring", "building")."""
    if not word.endswith("ing") or word in lx.SUFFIX_EXCEPTIONS:
        return False
    stem = word[:-3]
    candidates = {stem + "s", stem + "es", stem + "e" + "s"}
    if len(stem) > 2 and stem[-1] == stem[-2]:
        candidates.add(stem[:-1] + "s")  # sitting -> sits
    if stem.endswith("y"):
        candidates.add(stem[:-1] + "ies")  # lying -> lies
    return not candidates.isdisjoint(lx.VERBS_3SG)


def _kind(word: str, tag: str) -> str:
    if tag in _NOUN_TAGS:
        if word in lx.INTENSIFIERS:
            return _ADV  # "an otherwise/NN dark room", "a well/NN lit room"
        if word in lx.NEVER_NOUNS:
            return _DET  # "a lone/NN woman"
        return _PREP if word in lx.PREPOSITIONS else _NOUN
    if word in lx.NON_ATTRIBUTES:  # whatever its tag: "left/VBN side", "near/IN"
        return _PREP if tag in ("IN", "TO") else _DET
    if word in lx.ATTRIBUTES:
        return _WEAK if tag.startswith("VB") else _ATTR
    if word in lx.BOUND_PARTICIPLES and tag in _ADJ_TAGS:
        return _PART  # "different sized/JJ boxes": an attribute only with the word before it
    if tag in _ADJ_TAGS:
        return _ADV if word in lx.INTENSIFIERS else _ATTR  # "dimly/JJ lit"
    if word in lx.COPULAS and tag.startswith("VB"):
        return _COPULA
    if word in _CONJ_WORDS:
        return _CONJ
    if word in _REL_WORDS:
        return _REL
    if word in _NEGATIONS:
        return _NEG
    if tag in ("VBN", "VBD"):
        return _PART
    if tag == "VBG":
        return _GERUND
    if tag in _DET_TAGS:
        return _DET
    if tag in _ADV_TAGS or word in lx.INTENSIFIERS:
        return _ADV
    if tag in ("IN", "TO"):
        return _PREP
    if tag in ("VB", "VBP"):
        return _VERB
    return _OTHER


def _phrase_matches(tokens: list[str], start: int, words: tuple[str, ...], kind: str) -> bool:
    last = len(words) - 1
    for offset, expected in enumerate(words):
        token = tokens[start + offset]
        if token != expected and not (
            offset == last and kind == _NOUN and singularise(token) == expected
        ):
            return False
    return True


def _units(tokens: list[str], tags: list[str]) -> tuple[list[str], list[str]]:
    """Merge multi-word phrases and classify every unit: (unit texts, unit kinds)."""
    texts: list[str] = []
    kinds: list[str] = []
    i, n = 0, len(tokens)
    while i < n:
        word = tokens[i]
        for words, kind in _PHRASES.get(word, ()):
            end = i + len(words)
            if end <= n and _phrase_matches(tokens, i, words, kind):
                texts.append(" ".join(tokens[i:end]))
                kinds.append(kind)
                i = end
                break
        else:
            texts.append(word)
            kinds.append(_kind(word, tags[i]))
            i += 1
    _correct_tags(texts, kinds)
    return texts, kinds


def _correct_tags(texts: list[str], kinds: list[str]) -> None:
    """Correct the tagger's usual slips inside noun phrases, in place.

    - "pretty" before an attribute is a degree adverb.
    - The tagger calls many nouns adjectives: before another noun ("kitchen/JJ scene", "ski/JJ
      slope"), before a participle ("a lamp/JJ shining"), before "and" + noun, and at the end of a
      noun phrase ("a couch/JJ behind"). A word it tags as an adjective that is neither in the
      lexicon nor has an adjective ending is a noun there. Right to left, so that "wii/JJ game/JJ
      controller" becomes one compound.
    - A verb after its subject tagged as a plural noun ("a woman sits/NNS on"; a base form after a
      plural or coordinated subject: "flags hang/NN from", "a black and a white dog play/NN") is
      a verb, and so is the -ing form of such a verb ending a noun run ("a girl
      standing/NN by"), and the main verb after the predicate of a relative clause ("a cat that
      is grey sleeps/NNS on the sofa").
    - A base-form verb right after "a/an/the" + attributes is a noun ("a heart shaped cake/VB").
    """
    n = len(kinds)
    for i in range(n - 1, -1, -1):
        if kinds[i] != _ATTR:
            continue
        if texts[i] in lx.INTENSIFIERS and i + 1 < n and kinds[i + 1] in (_ATTR, _WEAK):
            kinds[i] = _ADV  # "a pretty large dog"
            continue
        if _is_adjective(texts[i]):
            continue
        after = kinds[i + 1] if i + 1 < n else _OTHER
        before = kinds[i - 1] if i > 0 else _OTHER
        if (
            (after in (_NOUN, _GERUND, _PART) and texts[i + 1] not in lx.SUFFIX_WORDS)
            or (after == _CONJ and i + 2 < n and kinds[i + 2] == _NOUN)
            or (
                after not in _AFTER_ADJECTIVE
                and before in (_DET, _ATTR, _WEAK, _NOUN, _PART, _GERUND)
            )
        ):
            kinds[i] = _NOUN
    for i in range(1, n):
        if kinds[i] == _NOUN and kinds[i - 1] == _NOUN:
            text = texts[i]
            ends_run = i + 1 == n or kinds[i + 1] != _NOUN
            if text in lx.VERBS_3SG or (
                ends_run
                and i + 1 < n
                and _is_base_verb(text)
                and _plural_subject(texts, kinds, i - 1)
            ):
                kinds[i] = _COPULA if text in lx.COPULAS else _OTHER
            elif ends_run and _is_participle(text):
                kinds[i] = _GERUND
        elif kinds[i] == _VERB and _after_article_and_attributes(kinds, texts, i):
            if i + 1 == n or kinds[i + 1] in (_PREP, _CONJ, _REL, _COPULA, _OTHER):
                kinds[i] = _NOUN
    _relative_main_verbs(texts, kinds)


@lru_cache(maxsize=1 << 12)
def _is_base_verb(word: str) -> bool:
    """Whether a word is the base form of a verb of :data:`lexicon.VERBS_3SG` ("hang" <-
    "hangs", "watch" <- "watches", "fly" <- "flies")."""
    forms = {word + "s", word + "es"}
    if word.endswith("y"):
        forms.add(word[:-1] + "ies")
    return not forms.isdisjoint(lx.VERBS_3SG)


def _plural_subject(texts: list[str], kinds: list[str], last: int) -> bool:
    """Whether the noun run ending at ``last`` is plural, or the last of coordinated noun phrases
    ("a dog and a white cat", "a black and a white dog")."""
    if singularise(texts[last]) != texts[last]:
        return True
    j = last
    while j >= 0 and kinds[j] == _NOUN:
        j -= 1
    while j >= 0 and kinds[j] in (_ATTR, _WEAK, _ADV):
        j -= 1
    if j < 0 or kinds[j] != _DET:
        return False
    k = _previous(kinds, j)
    return k >= 0 and texts[k] == "and"


def _after_article_and_attributes(kinds: list[str], texts: list[str], i: int) -> bool:
    """Whether attributes, and before them an article, stand right before unit ``i``."""
    j = _previous(kinds, i)
    if j < 0 or kinds[j] not in (_ATTR, _WEAK):
        return False
    while j >= 0 and kinds[j] in (_ATTR, _WEAK, _ADV, _CONJ):
        j -= 1
    return j >= 0 and kinds[j] == _DET and texts[j] in _ARTICLES


def _relative_main_verbs(texts: list[str], kinds: list[str]) -> None:
    """After "that/which/who" + copula + attributes, a lone noun that is a verb form (third person
    after "is", base form after "are") is the main verb of the sentence, not the noun the
    attributes modify: "a cat that is grey sleeps/NNS on the sofa"."""
    n = len(kinds)
    for copula in range(1, n):
        if kinds[copula] != _COPULA or kinds[copula - 1] != _REL:
            continue
        j, attribute = copula + 1, False
        while j < n and kinds[j] in (_ATTR, _WEAK, _ADV, _CONJ):
            attribute = attribute or kinds[j] in (_ATTR, _WEAK)
            j += 1
        if not attribute or j >= n or kinds[j] != _NOUN or (j + 1 < n and kinds[j + 1] == _NOUN):
            continue
        text = texts[j]
        if text in lx.VERBS_3SG or (texts[copula] in _PLURAL_COPULAS and _is_base_verb(text)):
            kinds[j] = _COPULA if text in lx.COPULAS else _OTHER


def _noun_runs(kinds: list[str]) -> list[tuple[int, int]]:
    """(start, end) of every maximal run of nouns, end exclusive."""
    runs = []
    i, n = 0, len(kinds)
    while i < n:
        if kinds[i] == _NOUN:
            start = i
            while i < n and kinds[i] == _NOUN:
                i += 1
            runs.append((start, i))
        else:
            i += 1
    return runs


def _lone_attribute_noun(
    texts: list[str], kinds: list[str], i: int, *, predicate: bool = False
) -> bool:
    """A lexicon word tagged as a noun on its own, followed by more modifiers ("cloudy/NN blue
    sky", "grey/NN and red walls") or, with ``predicate``, after a copula ("the apples look
    ripe/NN"): an attribute, not an object."""
    if kinds[i] != _NOUN or texts[i] not in lx.ATTRIBUTES or (i > 0 and kinds[i - 1] == _NOUN):
        return False
    n = len(kinds)
    after = kinds[i + 1] if i + 1 < n else _OTHER
    if predicate:
        return after != _NOUN
    if after == _CONJ:  # "grey and red walls", "glass and metal table"; not "a glass and cups"
        j = i + 3 if _serial_comma(texts, i + 1) else i + 2
        while j < n and kinds[j] == _ADV:
            j += 1
        if j >= n or kinds[j] in (_ATTR, _WEAK, _PART):
            return j < n
        following = j + 1 < n and (
            (kinds[j + 1] == _NOUN and texts[j] in lx.ATTRIBUTES)  # "and metal table"
            or (kinds[j + 1] == _PART and texts[j + 1] in lx.NOUN_PARTICIPLES)  # ", tree lined"
        )
        return kinds[j] == _NOUN and following
    return after in (_ATTR, _WEAK, _PART) or (i + 1 < n and texts[i + 1] in lx.SUFFIX_WORDS)


def _is_modifier(texts: list[str], kinds: list[str], i: int) -> bool:
    return kinds[i] in _MODIFIERS or _lone_attribute_noun(texts, kinds, i)


def _serial_comma(texts: list[str], i: int) -> bool:
    """Whether the comma at ``i`` is followed by "and"/"or": ", and" is one conjunction."""
    return texts[i] == "," and i + 1 < len(texts) and texts[i + 1] in ("and", "or")


def _previous(kinds: list[str], i: int) -> int:
    """Index of the unit before ``i`` skipping adverbs (-1 at the start)."""
    i -= 1
    while i >= 0 and kinds[i] == _ADV:
        i -= 1
    return i


def _modifier_ok(texts: list[str], kinds: list[str], i: int) -> bool:
    """Whether the participle / verb-tagged lexicon word at ``i`` modifies the noun after it:
    something that opens or continues a noun phrase stands to its left. A present participle
    needs a determiner or an attribute there ("a sleeping cat"; not "men all eating bananas",
    "finished chopping onions", "holding and eating bananas", "riding horses" after a noun or
    preposition)."""
    j = _previous(kinds, i)
    if kinds[i] != _GERUND:
        return j < 0 or kinds[j] in _MODIFIER_CONTEXT or _lone_attribute_noun(texts, kinds, j)
    if j < 0:
        return False
    if kinds[j] == _DET:
        return texts[j] not in _DISTRIBUTIVES
    if kinds[j] == _CONJ:
        k = _previous(kinds, j)
        return k >= 0 and (kinds[k] in (_ATTR, _WEAK) or _lone_attribute_noun(texts, kinds, k))
    return kinds[j] in (_ATTR, _WEAK) or _lone_attribute_noun(texts, kinds, j)


def _split_object(texts: list[str], start: int, end: int) -> tuple[int, str]:
    """Lexicon words at the left edge of a noun run are attributes: (object start, object)."""
    while end - start > 1 and texts[start] in lx.ATTRIBUTES:
        start += 1
    return start, _object_of(texts[start:end])


def _attributive(
    texts: list[str], kinds: list[str], start: int, end: int, found: list[tuple[int, Binding]]
) -> None:
    """Bindings of the noun run ``[start, end)`` with the modifiers before it. A run that is the
    noun of a compound attribute ("snow" in "white snow covered slope") takes the modifiers right
    before it, not conjoined ones ("snowy, tree lined path" says nothing about the tree)."""
    in_attribute = end < len(kinds) and kinds[end] == _PART and texts[end] in lx.NOUN_PARTICIPLES
    head, obj = _split_object(texts, start, end)
    for i in range(start, head):
        found.append((i, Binding(texts[i], obj)))
    i = start - 1
    while i >= 0:
        kind, text = kinds[i], texts[i]
        if kind == _ATTR or _lone_attribute_noun(texts, kinds, i):
            found.append((i, Binding(text, obj)))
        elif kind == _ADV:
            pass
        elif kind == _CONJ:
            j = _previous(kinds, i)
            if j >= 0 and _serial_comma(texts, j):
                j = _previous(kinds, j)  # "green, yellow, and red"
            if in_attribute or j < 0 or not _is_modifier(texts, kinds, j):
                return
        elif text in lx.SUFFIX_WORDS and i > 0 and _is_modifier(texts, kinds, i - 1):
            pass  # "cream colored", "nice looking": the attribute before it binds
        elif (
            kind == _PART
            and text in lx.NOUN_PARTICIPLES
            and i > 0
            and _noun_like(texts, kinds, i - 1)
        ):
            noun = texts[i - 1]
            if text in lx.SUFFIX_WORDS and noun in lx.ATTRIBUTES:
                found.append((i - 1, Binding(noun, obj)))  # "cream/NN colored"
            else:
                found.append((i - 1, Binding(f"{noun} {text}", obj)))  # "snow covered"
            if i < 2 or kinds[i - 2] != _CONJ:
                return  # "white snow covered slope": white snow, not a white slope
            i -= 1  # "a snowy, tree lined path": on to the conjunction
        elif kind in (_WEAK, _PART, _GERUND) and _modifier_ok(texts, kinds, i):
            if text not in lx.BOUND_PARTICIPLES:  # "different sized boxes": no attribute
                found.append((i, Binding(text, obj)))
        elif kind == _DET and texts[i] in _ELLIPSIS_DETERMINERS and not in_attribute:
            if any(i < position < start for position, _ in found):
                _elided(texts, kinds, i, obj, found)
            return
        else:
            return
        i -= 1


def _colour_noun(texts: list[str], kinds: list[str], i: int) -> bool:
    """A colour the tagger calls a noun, standing alone ("a brown/NN and a white horse")."""
    return (
        kinds[i] == _NOUN
        and texts[i] in lx.COLOURS
        and texts[i] not in lx.COLOUR_NOUNS
        and (i == 0 or kinds[i - 1] != _NOUN)
        and (i + 1 == len(kinds) or kinds[i + 1] != _NOUN)
    )


def _elided(
    texts: list[str], kinds: list[str], determiner: int, obj: str, found: list[tuple[int, Binding]]
) -> None:
    """Ellipsis: in "one black and one white cat" the conjuncts before the last one ("one
    black"), each a determiner and attributes with the noun left out, describe the same noun.
    ``determiner`` opens the last conjunct, which has attributes of its own."""
    while True:
        conjunction = _previous(kinds, determiner)
        if conjunction < 0 or kinds[conjunction] != _CONJ:
            return
        k = _previous(kinds, conjunction)
        if k >= 0 and _serial_comma(texts, k):
            k = _previous(kinds, k)
        attributes = []
        while k >= 0 and (kinds[k] in (_ATTR, _WEAK, _ADV) or _colour_noun(texts, kinds, k)):
            if kinds[k] != _ADV:
                attributes.append(k)
            k -= 1
        if not attributes or k < 0 or kinds[k] != _DET or texts[k] not in _ELLIPSIS_DETERMINERS:
            return
        found.extend((a, Binding(texts[a], obj)) for a in attributes)
        determiner = k


def _noun_like(texts: list[str], kinds: list[str], i: int) -> bool:
    """A noun, or a word the tagger calls an adjective that is none ("snow/JJ covered")."""
    return kinds[i] == _NOUN or (kinds[i] == _ATTR and not _is_adjective(texts[i]))


def _subject_runs(
    texts: list[str], kinds: list[str], copula: int, run_ending: dict[int, tuple[int, int]]
) -> list[tuple[int, int]]:
    """Noun runs a predicate after the copula at ``copula`` describes (may be empty)."""
    end = copula - 1
    climb = True
    if end >= 0 and kinds[end] == _REL:
        end -= 1
        climb = False
    run = run_ending.get(end)
    if run is None:
        return []
    runs = [run]
    while True:
        j = run[0] - 1
        while j >= 0 and kinds[j] in (_DET, _ATTR, _ADV, _PART, _GERUND, _WEAK):
            j -= 1
        earlier = run_ending.get(j - 1)
        if j < 1 or earlier is None:
            break
        if kinds[j] == _CONJ and texts[j] == "and" and len(runs) == 1:
            runs.append(earlier)  # "the cat and the dog are white"
            break
        if not climb or kinds[j] != _PREP or texts[j] not in lx.LOCATIVE_PREPOSITIONS:
            break
        if texts[j] == "of" and texts[earlier[1] - 1] in lx.GROUP_NOUNS:
            break  # "a bowl of soup is hot": the soup
        runs = [earlier]
        run = earlier
    return runs


def _predicative(
    texts: list[str],
    kinds: list[str],
    copula: int,
    subjects: list[tuple[int, int]],
    found: list[tuple[int, Binding]],
) -> int:
    """Bindings of the adjectives after the copula at ``copula`` with its subject noun runs;
    returns the index where the predicate ends.

    Past participles count only coordinated with an attribute and with nothing after them ("is
    closed and dark"; not "is parked next to", "is wet and covered in snow"); a colour participle
    passes its colours on ("is painted red")."""
    attributes: list[int] = []
    participles: list[int] = []
    i, n = copula + 1, len(kinds)
    while i < n:
        kind = kinds[i]
        if kind in (_ATTR, _WEAK) or _lone_attribute_noun(texts, kinds, i, predicate=True):
            attributes.append(i)
        elif texts[i] in lx.COLOUR_PARTICIPLES and (colours := _colours_after(texts, kinds, i)):
            attributes.extend(colours)
            i = colours[-1]
        elif kind == _PART and _ends_phrase(texts, kinds, i):
            participles.append(i)
        elif kind == _NEG:
            return i
        elif kind == _CONJ:
            if not attributes and not participles:
                return i
        elif kind != _ADV and texts[i] not in lx.INTENSIFIERS:  # "are all white"
            break
        i += 1
    if not attributes or (i < n and kinds[i] == _NOUN):
        return i  # nothing predicated, or the adjectives modify the noun after them
    attributes = sorted(attributes + participles)
    for start, end in subjects:
        obj = _split_object(texts, start, end)[1]
        found.extend((a, Binding(texts[a], obj)) for a in attributes)
    return i


def _ends_phrase(texts: list[str], kinds: list[str], i: int) -> bool:
    """Whether nothing but a conjunction or punctuation follows unit ``i`` (adverbs skipped)."""
    j = i + 1
    while j < len(kinds) and kinds[j] == _ADV:
        j += 1
    return j == len(kinds) or kinds[j] == _CONJ or not texts[j][0].isalnum()


def _colours_after(texts: list[str], kinds: list[str], participle: int) -> list[int]:
    """The colours right after a colour participle ("painted light blue and white"), or none
    when they modify a noun after them ("painted red flowers")."""
    colours: list[int] = []
    j, n = participle + 1, len(kinds)
    while j < n:
        if texts[j] in lx.COLOURS:
            colours.append(j)
        elif not (kinds[j] == _ADV or (kinds[j] == _CONJ and colours)):
            break
        j += 1
    if j < n and kinds[j] == _NOUN:
        return []
    return colours


def _colour_participles(
    texts: list[str],
    kinds: list[str],
    run_ending: dict[int, tuple[int, int]],
    found: list[tuple[int, Binding]],
) -> None:
    """Bindings of the colours after a colour participle right after a noun ("a wall painted
    blue" -> (blue, wall))."""
    for i, text in enumerate(texts):
        if text in lx.COLOUR_PARTICIPLES and i - 1 in run_ending:
            colours = _colours_after(texts, kinds, i)
            if colours:
                obj = _split_object(texts, *run_ending[i - 1])[1]
                found.extend((c, Binding(texts[c], obj)) for c in colours)


def _bindings(tokens: list[str], tags: list[str]) -> list[Binding]:
    texts, kinds = _units(tokens, tags)
    runs = _noun_runs(kinds)
    run_ending = {end - 1: (start, end) for start, end in runs}
    found: list[tuple[int, Binding]] = []
    inherited: dict[int, list[tuple[int, int]]] = {}
    for i, kind in enumerate(kinds):
        if kind == _COPULA:
            subjects = inherited.get(i) or _subject_runs(texts, kinds, i, run_ending)
            end = _predicative(texts, kinds, i, subjects, found)
            if kinds[i - 1] == _REL and end < len(kinds) and kinds[end] == _COPULA:
                inherited[end] = subjects  # "a car that is red looks new": the car looks new
    _colour_participles(texts, kinds, run_ending, found)
    predicated = {i for i, _ in found}
    for start, end in runs:
        if end - start == 1 and (start in predicated or _lone_attribute_noun(texts, kinds, start)):
            continue  # "cloudy/NN blue sky", "looks clean and tidy/NN": an attribute, no object
        _attributive(texts, kinds, start, end, found)
    found.sort(key=lambda item: item[0])
    return list(dict.fromkeys(binding for _, binding in found))


def parse_bindings(text: str) -> list[Binding]:
    """The bindings ``text`` states, in order of first occurrence, without duplicates.

    Raises ``TypeError`` for anything but a string (and
    :class:`~bindsplit_datasets.tagger.TaggerDataError` if the installed package lost its tagger
    weights). See the module docstring for the rules.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_bindings expects a caption string, got {type(text).__name__}")
    tokens = tokenise(text)
    if not tokens:
        return []
    return _bindings(tokens, tagger.get_tagger().tag(tokens))


# --- many captions ---------------------------------------------------------------------------


def _load_models() -> None:
    """Load the tagger and ``inflect`` (seconds each): once per process, before any caption."""
    tagger.get_tagger()
    _inflect_engine()


def _parse_chunk(texts: list[str]) -> list[tuple[tuple[str, str], ...]]:
    """Bindings of each caption as plain tuples: they cross process boundaries several times
    cheaper than dataclass instances."""
    return [tuple((b.attribute, b.object) for b in parse_bindings(text)) for text in texts]


def _chunks(texts: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(texts), size):
        yield texts[start : start + size]


def map_caption_chunks(
    func: Callable[[list[str]], _R], chunks: Iterable[list[str]], *, num_proc: int | None = None
) -> Iterator[_R]:
    """``map(func, chunks)`` in chunk order, computed by ``num_proc`` processes (``None``: every
    CPU) that load the tagger and ``inflect`` once each.

    The models are loaded here first (a missing tagger fails before any work, and workers started
    with ``fork`` inherit them). With one worker, or fewer than two chunks, everything runs in
    this process: starting workers would cost more than it saves. ``chunks`` is consumed lazily,
    so a stream of any length is never held in memory; ``func`` must be picklable (module level).
    """
    chunks = iter(chunks)
    head = list(itertools.islice(chunks, 2))
    _load_models()
    workers = num_proc or os.cpu_count() or 1
    if workers == 1 or len(head) < 2:
        yield from map(func, itertools.chain(head, chunks))
        return
    import multiprocessing

    logger.debug("parsing caption chunks with %d processes", workers)
    with multiprocessing.get_context().Pool(workers, initializer=_load_models) as pool:
        yield from pool.imap(func, itertools.chain(head, chunks))


def parse_many(
    texts: Iterable[str],
    *,
    num_proc: int | None = None,
    chunksize: int = 512,
    progress: bool = False,
) -> list[list[Binding]]:
    """``[parse_bindings(t) for t in texts]``, computed by ``num_proc`` processes.

    ``num_proc=None`` uses every CPU, ``1`` parses in this process. Each distinct caption is
    parsed once (benchmarks and templated corpora repeat captions); the distinct captions travel
    to the workers in chunks of ``chunksize`` (see :func:`map_caption_chunks`). Every returned
    list is a fresh list, also for repeated captions.
    """
    if num_proc is not None and (isinstance(num_proc, bool) or not isinstance(num_proc, int)):
        raise TypeError(f"num_proc must be an int or None, got {num_proc!r}")
    if num_proc is not None and num_proc < 1:
        raise ValueError(f"num_proc must be >= 1 (or None for every CPU), got {num_proc}")
    if isinstance(chunksize, bool) or not isinstance(chunksize, int) or chunksize < 1:
        raise ValueError(f"chunksize must be an int >= 1, got {chunksize!r}")
    if isinstance(texts, (str, bytes)):
        raise TypeError(
            f"parse_many expects a sequence of caption strings, got a single "
            f"{type(texts).__name__}; pass a list (parse_many([text])) or call parse_bindings(text)"
        )
    items = list(texts)
    for position, text in enumerate(items):
        if not isinstance(text, str):
            raise TypeError(
                f"parse_many expects caption strings; item {position} is {type(text).__name__}"
            )
    if not items:
        return []
    distinct = list(dict.fromkeys(items))

    from tqdm.auto import tqdm

    parsed: list[tuple[tuple[str, str], ...]] = []
    with tqdm(total=len(distinct), unit=" captions", desc="parsing", disable=not progress) as bar:
        chunks = _chunks(distinct, chunksize)
        for part in map_caption_chunks(_parse_chunk, chunks, num_proc=num_proc):
            parsed.extend(part)
            bar.update(len(part))
    by_text = dict(zip(distinct, parsed, strict=True))
    return [[Binding(*pair) for pair in by_text[text]] for text in items]
