"""Reading tagged tokens as units of noun phrases: merged phrases, kinds, tag corrections."""

from __future__ import annotations

from functools import lru_cache

from . import lexicon as lx
from .normalise import singularise

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


def _previous(kinds: list[str], i: int) -> int:
    """Index of the unit before ``i`` skipping adverbs (-1 at the start)."""
    i -= 1
    while i >= 0 and kinds[i] == _ADV:
        i -= 1
    return i
