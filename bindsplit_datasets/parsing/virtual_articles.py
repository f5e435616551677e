"""Noun phrases without an article, tagged as if it were written.

Captions without articles (region descriptions, alt text, telegraphic COCO captions) should give
the bindings of their written-out form: "elephant standing near flowering tree" those of "an
elephant standing near a flowering tree". The tagger was trained on full sentences, and without
the article it reads the phrase's first word differently ("near flowering/VBG tree" against "near
a flowering/NN tree"); every rule after it then sees another caption. So the caption is tagged
with an article restored where one is usually left out: after a preposition, a third-person
verb or a participle that takes an object, before a noun phrase (of at least two words after a
preposition) that no determiner, possessive, pronoun, number, particle or colour opens ("a"
when the phrase's last word is singular, "the" when it is plural). The restored articles are
dropped from the tags again; the parser never sees them as words. Word tables:
``data/words/prepositions.txt`` (use ``article-site``),
``data/words/article_blockers.txt``.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import lexicon as lx
from . import tagger
from . import wordlists as wl
from .singulars import PLURALS_WITHOUT_S

__all__ = ["article_sites", "tag_caption"]

#: Prepositions after which an article is restored before a phrase of two or more words.
_PREPOSITION_SITES: frozenset[str] = wl.words("prepositions", "article-site")
#: Verbs after which one is restored before any noun phrase, one word long too: third-person
#: verbs and participles that usually take an object ("pulling trolley behind it").
_VERB_SITES: frozenset[str] = lx.VERBS_3SG | lx.OBJECT_GERUNDS
#: Words before which none is: what opens a noun phrase itself, prepositions, verbs, colours
#: ("in black and white" names clothes; "on red" a light).
_BLOCKERS: frozenset[str] = (
    wl.words("article_blockers") | _PREPOSITION_SITES | _VERB_SITES | lx.PREPOSITIONS | lx.COLOURS
)
#: Words that end a noun phrase: conjunctions and copulas.
_PHRASE_ENDS: frozenset[str] = frozenset(("and", "or")) | lx.COPULAS
#: Endings of singular words in -s ("glass", "bus", "tennis").
_SINGULAR_ENDINGS: tuple[str, ...] = wl.endings("endings", "singular-s")


def _opens_phrase(first: str, second: str, *, one_word: bool) -> bool:
    """Whether a noun phrase without an article starts at ``first`` (followed by ``second``):
    of two or more words unless ``one_word`` ("in front of", "of people sitting" and "of food
    and" open none)."""
    if not first.isalpha() or first in _BLOCKERS or not second.isalpha():
        return False
    return one_word or (second not in _BLOCKERS and second not in _PHRASE_ENDS)


def _plural_phrase(tokens: Sequence[str], start: int) -> bool:
    """Whether the last word of the phrase from ``start`` (its words up to a blocker, a
    conjunction or punctuation, four at most) is plural: its likely head noun."""
    last = tokens[start]
    for word in tokens[start + 1 : start + 4]:
        if not word.isalpha() or word in _BLOCKERS or word in _PHRASE_ENDS:
            break
        last = word
    return (last[-1] == "s" and not last.endswith(_SINGULAR_ENDINGS)) or last in PLURALS_WITHOUT_S


def article_sites(tokens: Sequence[str]) -> list[int]:
    """The positions before which an article is restored (a position ``i`` means between token
    ``i - 1`` and token ``i``) among lower-case ``tokens``, as :func:`.text.tokenise` gives
    them (the word tables are lower-case)."""
    sites = []
    for i in range(len(tokens) - 2):
        after_verb = tokens[i] in _VERB_SITES
        if (after_verb or tokens[i] in _PREPOSITION_SITES) and _opens_phrase(
            tokens[i + 1], tokens[i + 2], one_word=after_verb
        ):
            sites.append(i + 1)
    return sites


def tag_caption(tokens: Sequence[str]) -> list[str]:
    """Penn Treebank tags of lower-case ``tokens`` (:func:`.text.tokenise`'s), each article-less
    noun phrase tagged with its article restored (see the module's docstring); one tag per
    token."""
    sites = article_sites(tokens)
    if not sites:
        return tagger.get_tagger().tag(tokens)
    words: list[str] = []
    positions: list[int] = []
    restored = iter(sites)
    site = next(restored)
    for i, token in enumerate(tokens):
        if i == site:
            words.append("the" if _plural_phrase(tokens, i) else "a")
            site = next(restored, -1)
        positions.append(len(words))
        words.append(token)
    tags = tagger.get_tagger().tag(words)
    return [tags[p] for p in positions]
