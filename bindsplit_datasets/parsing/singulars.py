"""inflect's singular of a plural-looking word, from a shipped table where the word is in it.

``inflect``'s ``singular_noun`` costs about a tenth of a millisecond a word (it tries its rule
lists in turn), and a first pass over new captions asks it of every new word that ends in "s":
the largest single cost of a cold parse after the tagger. The table
(``data/singular_nouns.txt.gz``, ``word<TAB>answer`` per line, the answer empty where inflect
says the word is no plural) holds inflect's answer for every word of the word-class table and of
the tagger's vocabulary that :func:`~bindsplit_datasets.parsing.normalise.singularise` would ask
it of; a word the table does not hold is asked of inflect itself. The table is SHA-256 checked
on load and part of ``PARSER_VERSION``, so the answers no longer move with the installed inflect
for the words it holds. ``python -m bindsplit_datasets.parsing.singulars --export OUT`` rebuilds
it with the installed inflect (a developer tool; :data:`INFLECT_VERSION` names the one that made
the shipped file).

>>> inflect_singular("zebras"), inflect_singular("men"), inflect_singular("glass")
('zebra', 'man', 'glass')
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from . import lexicon as lx
from . import wordlists as wl
from .shipped import read_shipped, read_table, write_table

__all__ = [
    "INFLECT_VERSION",
    "PLURALS_WITHOUT_S",
    "SINGULARS_FILE",
    "SINGULARS_SHA256",
    "asks_inflect",
    "export_singulars",
    "inflect_singular",
    "load_table",
    "table_words",
]

#: The shipped table, in the package folder ``parsing/data``.
SINGULARS_FILE = "singular_nouns.txt.gz"
#: SHA-256 of :data:`SINGULARS_FILE`; a different file is refused (the parse would change).
SINGULARS_SHA256 = "6c01bffeff3a20e1efc4376398041ee3ba63678f2e32b54ef2db4f8d866f879a"
#: The inflect release whose answers the shipped table holds.
INFLECT_VERSION = "7.6.0"
#: Plural nouns without a final s ("men", "feet", "criteria"): other words without one are singular.
PLURALS_WITHOUT_S: frozenset[str] = wl.words("nouns", "plural-without-s")


def asks_inflect(word: str) -> bool:
    """Whether ``normalise.singularise`` asks inflect about a word without a hyphen: one that
    may be a plural (a final s, or one of :data:`PLURALS_WITHOUT_S`) and is none of the words
    inflect would wrongly cut (too short, invariant, "-ss", a singular "-us")."""
    return not (
        len(word) < 3
        or (word[-1] != "s" and word not in PLURALS_WITHOUT_S)
        or word in lx.INVARIANT_NOUNS
        or word.endswith("ss")
        or (word.endswith("us") and word not in lx.PLURAL_US_NOUNS)
    )


@lru_cache(maxsize=1)
def _inflect_engine() -> Any:
    import inflect

    return inflect.engine()


def _ask_inflect(word: str) -> str:
    """inflect's ``singular_noun(word)`` ("" where it answers False), with inflect's run-time
    type checks (typeguard, on every call of every inflect method: two thirds of its time) off
    for the call; the word is always a string, and the answer is the same."""
    engine = _inflect_engine()
    try:
        from typeguard import suppress_type_checks
    except ImportError:  # an inflect without typeguard
        answer = engine.singular_noun(word)
    else:
        with suppress_type_checks():
            answer = engine.singular_noun(word)
    return answer if isinstance(answer, str) else ""


@lru_cache(maxsize=1)
def load_table() -> dict[str, str]:
    """Word -> inflect's answer ("" for no plural), loaded (and checked) on first use."""
    path = resources.files(__package__) / "data" / SINGULARS_FILE
    return read_table(read_shipped(path, f"the singular table {SINGULARS_FILE}", SINGULARS_SHA256))


def inflect_singular(word: str) -> str:
    """inflect's singular of a lower-case word, or the word itself where inflect finds it no
    plural; from the shipped table where the word is in it."""
    answer = load_table().get(word)
    if answer is None:
        answer = _ask_inflect(word)
    return answer or word


# --- developer tool: inflect over the vocabulary -> the shipped file -----------------------------


def table_words() -> list[str]:
    """The words the table holds: those of the word-class table and of the tagger's vocabulary
    (its tag dictionary and ``i word`` features) that ``singularise`` asks inflect about, sorted."""
    from . import wordclasses
    from .tagger_weights import shipped_arrays, split_strings

    arrays = shipped_arrays()
    vocabulary = set(wordclasses.table()) | set(split_strings(arrays["tagdict_words"]))
    vocabulary |= {
        feature[len("i word ") :]
        for feature in split_strings(arrays["features"])
        if feature.startswith("i word ")
    }
    return sorted(word for word in vocabulary if word == word.lower() and asks_inflect(word))


def export_singulars(out: str | Path, words: Iterable[str] | None = None) -> str:
    """Write the table of inflect's answers for ``words`` (default :func:`table_words`) with the
    installed inflect and return its SHA-256."""
    chosen = table_words() if words is None else sorted(set(words))
    return write_table(((word, _ask_inflect(word)) for word in chosen), out)


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bindsplit_datasets.parsing.singulars",
        description="Rebuild the shipped singular table with the installed inflect.",
    )
    parser.add_argument("--export", metavar="OUT", required=True)
    args = parser.parse_args(argv)
    print(export_singulars(args.export))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_main())
