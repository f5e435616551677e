"""Cleaning and tokenisation of captions, the way the tagger was trained (no NLTK data needed).

Text is NFKC-normalised and lower-cased (an ALL-CAPS caption reads as its lower-case form);
control characters (NUL included), symbols and emoji become spaces, so they never join, split or
hide the words around them. Hyphenated words stay one token, as in the tagger's training text
("snow-covered", "t-shirt"), except a hyphenated coordination of attributes ("red-and-white").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from . import lexicon as lx
from . import wordlists as wl

__all__ = ["clean_text", "tokenise"]

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
#: Unicode categories read as a space: control and format characters (NUL, zero-width joiners),
#: symbols (emoji, dingbats, modifier symbols), marks left over after NFKC (emoji variation
#: selectors, keycaps) and unassigned or private code points. None of them is a word, and none
#: may join or split the words around it ("a red 🍎 apple" is "a red apple").
_BLANK_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "So", "Sk", "Mn", "Me"})
_ASCII_CONTROL = re.compile(r"[\x00-\x1f\x7f^]")
#: A word: letters and digits, with hyphens inside kept ("snow-covered", "t-shirt").
_WORD = r"[^\W_]+(?:-[^\W_]+)*"
_TOKEN = re.compile(rf"[^\W_]+(?=n't\b)|n't\b|'[^\W\d_]+|{_WORD}|[^\w\s]")
#: :data:`_TOKEN` without its two "n't" alternatives, which match nothing in a text without
#: "n't" (most captions): the same tokens there, without trying the look-ahead at every word.
_TOKEN_WITHOUT_NT = re.compile(rf"'[^\W\d_]+|{_WORD}|[^\w\s]")
#: Conjunctions inside a hyphenated word that coordinate two attributes ("red-and-white").
_HYPHEN_CONJUNCTIONS: frozenset[str] = wl.words("conjunctions", "hyphen")


@lru_cache(maxsize=4096)
def _blank(char: str) -> bool:
    return unicodedata.category(char) in _BLANK_CATEGORIES


def clean_text(text: str) -> str:
    """NFKC-normalised, lower-case text with typographic quotes made plain and every control
    character, symbol and emoji replaced by a space (see :data:`_BLANK_CATEGORIES`).

    >>> clean_text("A Red\\x00Dog 🐶 and a ‘blue’ cat")
    "a red dog   and a 'blue' cat"
    """
    if text.isascii():  # NFKC leaves ASCII as it is; "`" is its only quote to make plain
        if "`" in text:
            text = text.replace("`", "'")
        if "^" in text or not text.isprintable():
            text = _ASCII_CONTROL.sub(" ", text)
        return text.lower()
    return _clean_normalised(text)


def _clean_normalised(text: str) -> str:
    """:func:`clean_text` of any text, by NFKC normalisation (its ASCII path is the same)."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    if text.isascii():
        return _ASCII_CONTROL.sub(" ", text).lower()
    return "".join(" " if _blank(char) else char for char in text).lower()


def _split_coordination(token: str) -> list[str]:
    """A hyphenated coordination of attributes as separate words ("red-and-white" -> red, and,
    white); any other hyphenated word stays whole ("salt-and-pepper", "snow-covered")."""
    parts = token.split("-")
    if len(parts) < 3 or not _HYPHEN_CONJUNCTIONS.intersection(parts[1:-1]):
        return [token]
    words = [part for part in parts if part not in _HYPHEN_CONJUNCTIONS]
    if not all(lx.lexical_form(word) in lx.ATTRIBUTES for word in words):
        return [token]
    return ["and" if part in _HYPHEN_CONJUNCTIONS else part for part in parts]


def tokenise(text: str) -> list[str]:
    """Lower-case word and punctuation tokens, split the way the tagger was trained: hyphenated
    words stay whole, except coordinated attributes.

    >>> tokenise("A man's red-and-white T-shirt, isn't it?")
    ['a', 'man', "'s", 'red', 'and', 'white', 't-shirt', ',', 'is', "n't", 'it', '?']
    """
    cleaned = clean_text(text)
    if cleaned.isascii() and cleaned.replace(" ", "").replace(".", "").replace(",", "").isalnum():
        # the usual caption: ASCII letters, digits, spaces, full stops and commas only, where
        # the token pattern finds the words between spaces and each "." or "," on its own
        return cleaned.replace(".", " . ").replace(",", " , ").split()
    return _pattern_tokens(cleaned)


def _pattern_tokens(cleaned: str) -> list[str]:
    """:func:`tokenise` of cleaned text, by the token pattern (its fast path gives the same)."""
    words = (_TOKEN if "n't" in cleaned else _TOKEN_WITHOUT_NT).findall(cleaned)
    if "-" not in cleaned:
        return words  # the usual caption: no hyphenated word to look at
    tokens: list[str] = []
    for token in words:
        tokens.extend(_split_coordination(token) if "-" in token else (token,))
    return tokens
