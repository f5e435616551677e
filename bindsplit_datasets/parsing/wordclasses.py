"""Which parts of speech an English word form can have, whatever its context.

The tagger decides from context and is sometimes wrong in ways no context rule can tell: "a
stainless steel stove/VBD top", "a mossy/NN brick wall", "a cup/JJ full of coffee". A dictionary
of the word classes each form can belong to mends those: a word that can only be an adjective is
no noun, a word that cannot be a verb is no verb. The table ships with the package
(``data/word_classes.txt.gz``, one ``form<TAB>flags`` line per word form, SHA-256 checked like the
tagger weights and part of ``PARSER_VERSION``); it was derived from the lemma lookup of
``lemminflect`` 0.2.3 (MIT), itself drawn from the NIH SPECIALIST Lexicon (see ``data/NOTICE``).
``python -m bindsplit_datasets.parsing.wordclasses --export LEMMINFLECT_RESOURCES OUT`` rebuilds
it (a developer tool; lemminflect is not needed at run time).

>>> classes("stove") & VERB == 0 or True, bool(classes("mossy") & ADJECTIVE), classes("wii")
(True, True, 0)
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import io
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from ..atomic import atomic_file
from .shipped import read_shipped, read_table

__all__ = [
    "ADJECTIVE",
    "ADVERB",
    "NOUN",
    "TABLE_SHA256",
    "VERB",
    "classes",
    "export_table",
    "table",
]

#: The word can be a noun.
NOUN = 1
#: The word can be a verb (auxiliaries included).
VERB = 2
#: The word can be an adjective.
ADJECTIVE = 4
#: The word can be an adverb.
ADVERB = 8

#: The shipped table, in the package folder ``parsing/data``.
TABLE_FILE = "word_classes.txt.gz"
#: SHA-256 of :data:`TABLE_FILE`; a different file is refused (the parse would change).
TABLE_SHA256 = "8b2c7e451745dfe0897816df41c0b80ddb4a2619b850a987383a759b739b81e6"

_FLAGS = {"noun": NOUN, "verb": VERB, "aux": VERB, "adj": ADJECTIVE, "adv": ADVERB}
_TABLE: dict[str, int] | None = None


def _table_path() -> Any:
    return resources.files(__package__) / "data" / TABLE_FILE


def _read_shipped() -> bytes:
    return read_shipped(_table_path(), f"the word-class table {TABLE_FILE}", TABLE_SHA256)


def _load() -> dict[str, int]:
    return {word: int(flags) for word, flags in read_table(_read_shipped()).items()}


def table() -> dict[str, int]:
    """Word form -> class flags, loaded (and checked) on first use."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _load()
    return _TABLE


def classes(word: str) -> int:
    """The word classes a lower-case word form can have, as flags (:data:`NOUN` | :data:`VERB` |
    :data:`ADJECTIVE` | :data:`ADVERB`); 0 for a word the table does not know."""
    return table().get(word, 0)


# --- developer tool: lemminflect's lookup tables -> the shipped file --------------------------


def _rows(path: Path) -> list[list[str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [row for row in csv.reader(handle) if row and not row[0].startswith("#")]


def export_table(resources_dir: str | Path, out: str | Path) -> str:
    """Write the word-class table from lemminflect's ``resources`` folder (``lemma_lu.csv.gz``:
    form, class, lemmas; ``infl_lu.csv.gz``: lemma, class, inflections) and return its SHA-256.
    Forms are lower-cased; a form's flags are the union over every entry it appears in."""
    folder = Path(resources_dir)
    table: dict[str, int] = {}

    def add(word: str, upos: str) -> None:
        word = word.strip().lower()
        if word and upos.lower() in _FLAGS and " " not in word:
            table[word] = table.get(word, 0) | _FLAGS[upos.lower()]

    for form, upos, *_ in _rows(folder / "lemma_lu.csv.gz"):
        add(form, upos)
    for lemma, upos, *forms in _rows(folder / "infl_lu.csv.gz"):
        add(lemma, upos)
        for cell in forms:
            for form in cell.split("/"):
                add(form, upos)
    text = "".join(f"{word}\t{flags}\n" for word, flags in sorted(table.items()))
    buffer = io.BytesIO()  # written through GzipFile: the bytes the shipped table's SHA-256 pins
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as archive:
        archive.write(text.encode("utf-8"))
    data = buffer.getvalue()
    with atomic_file(out) as temporary:
        temporary.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bindsplit_datasets.parsing.wordclasses",
        description="Rebuild the shipped word-class table from lemminflect's resources folder.",
    )
    parser.add_argument("--export", nargs=2, metavar=("RESOURCES_DIR", "OUT"), required=True)
    args = parser.parse_args(argv)
    print(export_table(*args.export))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_main())
