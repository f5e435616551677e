"""Property tests (hypothesis) of the parser's invariances on generated captions (issue 28, item
5): casing, articles, number (plural / singular) and trailing punctuation do not change the
bindings a caption states.

The captions are drawn from templates (article + attributes + noun, coordinated or in a
prepositional phrase, predicative, "person wearing ...") over word lists written here for the
purpose (no benchmark text). Examples are drawn afresh on every run; a failure prints the
``@reproduce_failure`` line that replays it.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bindsplit_datasets.parsing import parse_bindings

PROPERTIES = settings(
    deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow], max_examples=120
)

#: Attributes of several lexicon categories, and participles.
ADJECTIVES = (
    "red", "blue", "green", "yellow", "black", "white", "brown", "gray", "pink", "purple",
    "dark blue", "light brown", "bright red", "pale yellow", "navy blue", "lime green",
    "wooden", "metal", "glass", "plastic", "leather", "nylon", "wicker", "ceramic", "stone",
    "large", "small", "tall", "short", "big", "tiny", "old", "young", "new",
    "striped", "spotted", "plaid", "round", "square", "shiny", "fluffy", "wet", "empty",
    "broken", "open", "closed", "dirty", "clean", "parked", "sliced", "folded",
)  # fmt: skip
#: Nouns with a regular plural: (singular, plural).
NOUNS = (
    ("dog", "dogs"), ("cat", "cats"), ("car", "cars"), ("chair", "chairs"),
    ("table", "tables"), ("bowl", "bowls"), ("plate", "plates"), ("cup", "cups"),
    ("bag", "bags"), ("hat", "hats"), ("shirt", "shirts"), ("umbrella", "umbrellas"),
    ("bench", "benches"), ("box", "boxes"), ("vase", "vases"), ("door", "doors"),
    ("window", "windows"), ("truck", "trucks"), ("bird", "birds"), ("horse", "horses"),
    ("kite", "kites"), ("pillow", "pillows"), ("lamp", "lamps"), ("boat", "boats"),
)  # fmt: skip
PEOPLE = ("man", "woman", "boy", "girl", "person")
GARMENTS = (("shirt", "shirts"), ("hat", "hats"), ("jacket", "jackets"), ("shoe", "shoes"))
PREPOSITIONS = ("on", "next to", "near", "under", "beside", "behind", "in front of")
ARTICLES = ("a", "the")

adjective = st.sampled_from(ADJECTIVES)
noun = st.sampled_from(NOUNS)


def _phrase(article: str, adjectives: list[str], noun: tuple[str, str], plural: bool) -> str:
    words = " ".join(adjectives)
    if plural:
        return f"{words} {noun[1]}"
    if article == "a" and words[0] in "aeiou":
        article = "an"
    return f"{article} {words} {noun[0]}"


@st.composite
def noun_phrases(draw, plural: bool = False) -> str:
    article = draw(st.sampled_from(ARTICLES))
    adjectives = draw(st.lists(adjective, min_size=1, max_size=2, unique=True))
    return _phrase(article, adjectives, draw(noun), plural)


@st.composite
def captions(draw, plural: bool = False) -> str:
    """A caption of one of the templates, with its noun phrases singular or plural."""
    template = draw(st.integers(0, 3))
    first = draw(noun_phrases(plural))
    if template == 0:
        return first
    second = draw(noun_phrases(plural))
    if template == 1:
        return f"{first} {draw(st.sampled_from(PREPOSITIONS))} {second}"
    if template == 2:
        return f"{first} and {second}"
    person = draw(st.sampled_from(PEOPLE))
    garment = _phrase(
        draw(st.sampled_from(ARTICLES)), [draw(adjective)], draw(st.sampled_from(GARMENTS)), plural
    )
    return f"{'a' if not plural else ''} {person} wearing {garment}".strip()


def without_articles(text: str) -> str:
    return re.sub(r"\b(a|an|the)\s+", "", text)


def bindings(text: str) -> set[tuple[str, str]]:
    return {(b.attribute, b.object) for b in parse_bindings(text)}


@PROPERTIES
@given(captions())
def test_casing_does_not_change_the_bindings(text: str) -> None:
    assert bindings(text.upper()) == bindings(text) == bindings(text.title())
    assert bindings(text.capitalize()) == bindings(text)


@PROPERTIES
@given(captions())
def test_articles_do_not_change_the_bindings(text: str) -> None:
    assert bindings(without_articles(text)) == bindings(text)


@PROPERTIES
@given(captions())
def test_number_does_not_change_the_bindings(singular: str) -> None:
    """The same caption with its nouns in the plural (and no article) states the same bindings:
    objects are singular lemmas."""
    plural = _pluralise(singular)
    assert bindings(plural) == bindings(singular), (singular, plural)


@PROPERTIES
@given(captions(), st.sampled_from((".", "!", " .", "...", ";", ",")))
def test_trailing_punctuation_does_not_change_the_bindings(text: str, mark: str) -> None:
    assert bindings(text + mark) == bindings(text)


@PROPERTIES
@given(captions(plural=True))
def test_plural_captions_bind(text: str) -> None:
    """Every generated noun phrase has attributes, so every plural caption binds something."""
    assert bindings(text)


_PLURALS = {singular: plural for singular, plural in NOUNS + GARMENTS}


def _pluralise(text: str) -> str:
    """The caption with its articles dropped and its nouns (not the people) in the plural."""
    words = without_articles(text).split()
    return " ".join(_PLURALS.get(word, word) for word in words)
