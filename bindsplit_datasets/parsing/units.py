"""Tagged tokens read as the units of noun phrases: the unit kinds, the tables that decide them,
and the classification of each unit by its tag.

A unit is a token or a merged multi-word phrase (a lexicon attribute such as "light brown", a
lexicalised compound such as "teddy bear"). Each unit has its text as written (what a binding
reports), its lexical key (hyphens read as spaces: how the lexicon looks it up, so that
"snow-covered" finds "snow covered") and a *kind*: what it can do in a noun phrase.

:func:`classify_units` merges the phrases and gives every unit the kind its tag says;
the correction rules (``data/rules.json``, applied by :mod:`.patterns`) then mend the tagger's
usual slips. The tag and word tables of the classification are here (read from ``data/words/``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from . import lexicon as lx
from . import wordclasses as wc
from . import wordlists as wl
from .kinds import (
    ADV,
    ATTR,
    CONJ,
    COPULA,
    DET,
    GERUND,
    NEG,
    NOUN,
    OTHER,
    PART,
    PREP,
    REL,
    VERB,
    WEAK,
)
from .normalise import singularise
from .ruleset import NO_TRACE, Trace

__all__ = ["Units", "classify_units"]

_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
_ADJ_TAGS = frozenset({"JJ", "JJR", "JJS"})
_DET_TAGS = frozenset({"DT", "PDT", "PRP$", "WP$", "CD", "POS"})
_ADV_TAGS = frozenset({"RB", "RBR", "RBS"})
_CONJ_WORDS: frozenset[str] = wl.words("conjunctions", "coordinating")
_REL_WORDS: frozenset[str] = wl.words("pronouns", "relative")
_NEGATIONS: frozenset[str] = wl.words("adverbs", "negation")
_ARTICLES: frozenset[str] = wl.words("determiners", "article")
#: Tags of finite verbs.
_VERB_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})


class Units:
    """The units of one caption: parallel lists of written text, lexical key and kind.

    Attributes:
        text: each unit as written (lower case, hyphens kept): what a binding reports.
        key: each unit's lexical key (hyphens read as spaces): what the lexicon looks up.
        kind: each unit's kind (the module's kind constants).
        tag: the tagger's tag of each unit's first token.
        trace: the rules switched off for this caption and, when explaining, those that fired.
    """

    __slots__ = ("key", "kind", "n", "tag", "text", "trace")

    def __init__(
        self,
        text: list[str],
        key: list[str],
        kind: list[str],
        tag: list[str],
        trace: Trace = NO_TRACE,
    ) -> None:
        self.text, self.key, self.kind, self.tag, self.n = text, key, kind, tag, len(kind)
        self.trace = trace

    def copy(self) -> Units:
        """Another :class:`Units` with copies of these lists (the same trace): what a later
        stage may change without changing what an earlier one read."""
        return Units(list(self.text), list(self.key), list(self.kind), list(self.tag), self.trace)

    def kinds(self) -> str:
        """The units' kinds as one string (each kind is one character), for a pass to see at
        once, with ``in`` or a regular expression, whether anything it acts on occurs."""
        return "".join(self.kind)

    def is_verb(self, i: int) -> bool:
        """Whether unit ``i`` is a verb or copula (not a participle or gerund)."""
        return self.kind[i] == COPULA or (self.kind[i] == OTHER and self.tag[i] in _VERB_TAGS)

    def previous(self, i: int) -> int:
        """Index of the unit before ``i``, adverbs skipped (-1 at the start)."""
        i -= 1
        while i >= 0 and self.kind[i] == ADV:
            i -= 1
        return i

    def following(self, i: int) -> int:
        """Index of the unit after ``i``, adverbs skipped (``n`` at the end)."""
        i += 1
        while i < self.n and self.kind[i] == ADV:
            i += 1
        return i

    def kind_at(self, i: int) -> str:
        """The kind of unit ``i``, :data:`OTHER` outside the caption."""
        return self.kind[i] if 0 <= i < self.n else OTHER

    def key_at(self, i: int) -> str:
        """The key of unit ``i``, "" outside the caption."""
        return self.key[i] if 0 <= i < self.n else ""

    def ends_phrase(self, i: int) -> bool:
        """Whether nothing but a conjunction or punctuation follows unit ``i`` (adverbs skipped)."""
        j = self.following(i)
        return j == self.n or self.kind[j] == CONJ or not self.key[j][0].isalnum()

    def serial_comma(self, i: int) -> bool:
        """Whether the comma at ``i`` is followed by "and"/"or": ", and" is one conjunction."""
        return self.key[i] == "," and i + 1 < self.n and self.key[i + 1] in ("and", "or")


def _phrase_table() -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """First word -> (words, kind) of every multi-word compound / lexicon phrase, longest first."""
    table: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for phrases, kind in ((lx.COMPOUND_NOUNS, NOUN), (lx.ATTRIBUTES, ATTR)):
        for phrase in phrases:
            words = tuple(phrase.split())
            if len(words) > 1:
                table.setdefault(words[0], []).append((words, kind))
    for entries in table.values():
        entries.sort(key=lambda entry: (-len(entry[0]), entry))
    return table


_PHRASES = _phrase_table()
#: The first words of the phrases.
_FIRST_WORDS = frozenset(_PHRASES)
#: First word -> the second words of its phrases: a phrase can start only where one follows, as
#: written or, ending a two-word compound noun, singularised (those in the second table).
_SECOND_WORDS = {
    first: frozenset(words[1] for words, _ in entries) for first, entries in _PHRASES.items()
}
_SINGULAR_SECOND_WORDS = {
    first: frozenset(words[1] for words, kind in entries if len(words) == 2 and kind == NOUN)
    for first, entries in _PHRASES.items()
}


@lru_cache(maxsize=1 << 16)
def _kind(word: str, tag: str) -> str:
    """The kind of a single token from its lexical key and tag."""
    if word in _CONJ_WORDS:
        return CONJ
    if not word[0].isalnum():
        return OTHER  # punctuation, whatever the tagger says (a quote mark tagged JJ)
    if tag in _NOUN_TAGS:
        if word in lx.INTENSIFIERS or (word in lx.ADVERB_NOUNS and word not in lx.SPATIAL):
            return ADV  # "an otherwise/NN dark room", "a well/NN lit room", "outdoors/NNS"
        if word in lx.NEVER_NOUNS or word in ("one", "ones"):
            return DET  # "a lone/NN woman", "a small black one/NN"
        if word in lx.ATTRIBUTES and " " in word:
            return ATTR  # "light-brown/NN"
        return PREP if word in lx.PREPOSITIONS else NOUN
    if word in lx.NON_ATTRIBUTES:  # whatever its tag: "left/VBN side", "near/IN"
        if tag in ("IN", "TO"):
            return PREP
        return ADV if word in lx.SPATIAL else DET  # "a small outside/JJ restaurant"
    if word in lx.ATTRIBUTES:  # "has pink/VBN tiles", "has wooden/VBN cabinets": no verbs
        could_be_verb = word not in lx.COLOURS and wc.classes(word) & wc.VERB
        return WEAK if tag.startswith("VB") and could_be_verb else ATTR
    if tag in _ADJ_TAGS:
        if word in lx.PREPOSITIONS:
            return PREP  # "beside/JJ"
        return ADV if word in lx.INTENSIFIERS else ATTR  # "dimly/JJ lit"
    if word in lx.COPULAS and tag.startswith("VB"):
        return COPULA
    if word in _REL_WORDS:
        return REL
    if word in _NEGATIONS:
        return NEG
    if tag in ("VBN", "VBD"):
        return PART
    if tag == "VBG":
        return GERUND
    if tag in _DET_TAGS:
        return DET
    if tag in _ADV_TAGS or word in lx.INTENSIFIERS:
        return ADV
    if tag in ("IN", "TO") or (tag == "RP" and word in lx.PREPOSITIONS):
        return PREP  # "go around/RP fallen trees"
    if tag in ("VB", "VBP"):
        return VERB
    return OTHER


@lru_cache(maxsize=1 << 16)
def _token_kind(token: str, tag: str) -> str:
    """The kind of a single token as written (hyphens kept) with its tag: "park-like",
    "dog-like" are adjectives whatever the tagger says; any other token goes by its key."""
    if token.endswith("-like"):
        return ATTR
    return _kind(token.replace("-", " "), tag)


def _phrase_matches(keys: Sequence[str], start: int, words: tuple[str, ...], kind: str) -> bool:
    last = len(words) - 1
    for offset, expected in enumerate(words):
        key = keys[start + offset]
        if key != expected and not (
            offset == last and kind == NOUN and singularise(key) == expected
        ):
            return False
    return True


def _verb_particle(keys: Sequence[str], tags: Sequence[str], i: int) -> bool:
    """Whether token ``i`` is the particle or preposition of the verb before it ("letting
    off/RP", "gives off/IN"), so no phrase starts there; after a copula it is not ("is off
    white")."""
    return (
        i > 0
        and tags[i] in ("RP", "IN")
        and tags[i - 1].startswith("VB")
        and keys[i - 1] not in lx.COPULAS
    )


def _verb_after_plural(keys: Sequence[str], tags: Sequence[str], i: int) -> bool:
    """Whether token ``i`` is a word in -ing right after a plural noun ("zebras drinking water"):
    the verb of that subject, so no compound starts there (a plural is no compound's first part:
    "drinking water" is one noun only after no noun or a singular one)."""
    return (
        i > 0
        and keys[i].endswith("ing")
        and tags[i - 1] in ("NN", "NNS")
        and singularise(keys[i - 1]) != keys[i - 1]
    )


def classify_units(tokens: Sequence[str], tags: Sequence[str], trace: Trace = NO_TRACE) -> Units:
    """Merge multi-word phrases and classify every unit by its key and tag; the tagger's slips
    are left for the correction rules (:mod:`.patterns`) to correct."""
    hyphens = "-" in "".join(tokens)
    keys = [token.replace("-", " ") for token in tokens] if hyphens else list(tokens)
    text, kind, tag = list(tokens), list(map(_token_kind, tokens, tags)), list(tags)
    if _FIRST_WORDS.isdisjoint(keys):  # no phrase can start anywhere: one unit per token
        return Units(text, keys, kind, tag, trace)
    first_words = _PHRASES.keys() & keys
    merged: list[tuple[int, int, str]] = []  # (start, end, kind) of each phrase, left to right
    free = 0
    for i, word in enumerate(keys):
        if i < free or word not in first_words or i + 1 == len(keys):
            continue
        following = keys[i + 1]
        if following not in _SECOND_WORDS[word] and not (
            _SINGULAR_SECOND_WORDS[word] and singularise(following) in _SINGULAR_SECOND_WORDS[word]
        ):
            continue  # no phrase of this first word can match here
        for words, phrase_kind in _PHRASES[word]:
            end = i + len(words)
            if end <= len(tokens) and _phrase_matches(keys, i, words, phrase_kind):
                if _verb_particle(keys, tags, i) or _verb_after_plural(keys, tags, i):
                    continue  # "letting off/RP white smoke": not "off white"
                merged.append((i, end, phrase_kind))
                free = end
                break
    if not merged:
        return Units(text, keys, kind, tag, trace)
    units: tuple[list[str], ...] = ([], [], [], [])  # text, key, kind, tag; one pass: linear
    done = 0
    for start, end, phrase_kind in merged:
        for out, column in zip(units, (text, keys, kind, tag), strict=True):
            out.extend(column[done:start])
        units[0].append(" ".join(tokens[start:end]))
        units[1].append(" ".join(keys[start:end]))
        units[2].append(phrase_kind)
        units[3].append(tags[start])
        done = end
    for out, column in zip(units, (text, keys, kind, tag), strict=True):
        out.extend(column[done:])
    return Units(units[0], units[1], units[2], units[3], trace)
