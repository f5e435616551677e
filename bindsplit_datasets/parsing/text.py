"""Tokenisation of captions the way the tagger was trained (no NLTK data needed)."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["tokenise"]

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
