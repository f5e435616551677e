"""The parser's word tables, read from ``data/words/<name>.txt``: the one reader of every table.

The tables are named by word class (``prepositions``, ``determiners``, ``nouns``, ``verbs``, ...)
or, for the attribute lexicon, by attribute category (``materials``, ``colours``, ...). Each file
starts with ``#`` lines saying what the table is for, then holds one entry per line: a word, or a
multi-word phrase with single spaces (``#`` after a space starts a comment). In a table of a word
class an entry is followed by ``|`` and its *uses*, the sets of the class a rule looks for
(``above | always locative relation``: "above" is among the prepositions that state a relation);
a word that several rules look for is written once, with all its uses, and the header says what
each use is for.

:func:`words` reads a table, or one use of it, as a set; :func:`endings` as an ordered tuple of
word endings (for ``str.endswith``); each file is read once per process. Editing a file changes
the parser's results, and its content is part of ``PARSER_VERSION`` (see :mod:`.version`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ..errors import BindsplitValueError, PackageDataError

__all__ = ["WORDS_FOLDER", "description", "endings", "table_names", "uses", "words"]

#: Where the word tables live.
WORDS_FOLDER = Path(__file__).parent / "data" / "words"


@cache
def _lines(name: str) -> tuple[tuple[str, ...], tuple[tuple[str, frozenset[str]], ...]]:
    """(header comment lines, (entry, uses) pairs in file order) of table ``name``."""
    path = WORDS_FOLDER / f"{name}.txt"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PackageDataError(
            f"the parser's word table {path} is missing from the installed package; "
            "reinstall bindsplit-datasets"
        ) from None
    header: list[str] = []
    entries: list[tuple[str, frozenset[str]]] = []
    for line in text.splitlines():
        if line.startswith("#") and not entries:
            header.append(line[1:].strip())
            continue
        line = line.split(" #", 1)[0] if " #" in line else line
        entry, _, used = line.partition(" | ")
        entry = " ".join(entry.split())
        if entry:
            entries.append((entry, frozenset(used.split())))
    return tuple(header), tuple(entries)


def uses(name: str) -> frozenset[str]:
    """The uses the entries of table ``name`` name (empty for a table without uses)."""
    return frozenset().union(*(used for _, used in _lines(name)[1]))


def _entries(name: str, use: str | None) -> tuple[str, ...]:
    if use is not None and use not in uses(name):
        raise BindsplitValueError(
            f"the word table {name!r} has no use {use!r}; its uses are: "
            f"{', '.join(sorted(uses(name))) or 'none'}"
        )
    return tuple(entry for entry, used in _lines(name)[1] if use is None or use in used)


def words(name: str, use: str | None = None) -> frozenset[str]:
    """The entries of table ``name`` as a set, or those of one of its uses ("materials" ->
    {"wood", "stainless steel", ...}; ("prepositions", "locative") -> {"on", "in", ...})."""
    return frozenset(_entries(name, use))


def endings(name: str, use: str | None = None) -> tuple[str, ...]:
    """The entries of table ``name`` (or of one of its uses) in file order, for
    ``str.endswith``."""
    return _entries(name, use)


def description(name: str) -> str:
    """What table ``name`` is for: its header comment, as one paragraph."""
    return " ".join(_lines(name)[0])


def table_names() -> list[str]:
    """The names of every shipped table, sorted."""
    return sorted(path.stem for path in WORDS_FOLDER.glob("*.txt"))
