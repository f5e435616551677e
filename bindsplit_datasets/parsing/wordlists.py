"""The parser's word tables, read from ``data/words/<name>.txt`` (one table per file).

Each file starts with ``#`` lines saying what the table is for and which module reads it, then
holds one entry per line (a word, or a multi-word phrase with single spaces; ``#`` starts a
comment). :func:`words` reads a table as a set, :func:`endings` as an ordered tuple of word
endings (for ``str.endswith``); each file is read once per process. Editing a file changes the
parser's results, and its content is part of ``PARSER_VERSION`` (see :mod:`.version`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ..errors import PackageDataError

__all__ = ["WORDS_FOLDER", "description", "endings", "table_names", "words"]

#: Where the word tables live.
WORDS_FOLDER = Path(__file__).parent / "data" / "words"


@cache
def _lines(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(header comment lines, entries) of table ``name``."""
    path = WORDS_FOLDER / f"{name}.txt"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PackageDataError(
            f"the parser's word table {path} is missing from the installed package; "
            "reinstall bindsplit-datasets"
        ) from None
    header: list[str] = []
    entries: list[str] = []
    for line in text.splitlines():
        if line.startswith("#") and not entries:
            header.append(line[1:].strip())
            continue
        entry = line.split(" #", 1)[0].strip() if " #" in line else line.strip()
        if entry:
            entries.append(" ".join(entry.split()))
    return tuple(header), tuple(entries)


def words(name: str) -> frozenset[str]:
    """The entries of table ``name`` as a set ("materials" -> {"wood", "stainless steel", ...})."""
    return frozenset(_lines(name)[1])


def endings(name: str) -> tuple[str, ...]:
    """The entries of table ``name`` in file order, for ``str.endswith``."""
    return _lines(name)[1]


def description(name: str) -> str:
    """What table ``name`` is for: its header comment, as one paragraph."""
    return " ".join(_lines(name)[0])


def table_names() -> list[str]:
    """The names of every shipped table, sorted."""
    return sorted(path.stem for path in WORDS_FOLDER.glob("*.txt"))
