"""The verb lemma table: a verb form's lemma ("sitting" -> "sit"), for the relation strings of
SPEC section 1b.

The table (``data/verb_lemmas.txt.gz``, ``form<TAB>lemma`` for every verb form that is not its own
lemma) was derived, like the word-class table, from the lemma lookup of ``lemminflect`` 0.2.3
(MIT; NIH SPECIALIST Lexicon, see ``data/NOTICE``); it is SHA-256 checked on load and part of
``PARSER_VERSION``. ``python -m bindsplit_datasets.parsing.relation_words --export
LEMMINFLECT_RESOURCES OUT`` rebuilds it (a developer tool: lemminflect is not needed at run time).

>>> verb_lemma("sitting"), verb_lemma("flown"), verb_lemma("wearing"), verb_lemma("sit")
('sit', 'fly', 'wear', 'sit')
"""

from __future__ import annotations

import argparse
import csv
import gzip
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .shipped import read_shipped, read_table, write_table

__all__ = ["LEMMA_FILE", "LEMMA_SHA256", "export_lemmas", "verb_lemma"]

#: The shipped verb lemma table, in ``parsing/data``.
LEMMA_FILE = "verb_lemmas.txt.gz"
#: SHA-256 of :data:`LEMMA_FILE`; a different file is refused (the parse would change).
LEMMA_SHA256 = "7e38fbeedd38bcff7b3b56f59dfa3f1fbbc76a00534abf71fcdc126b68a7f2c2"


def _read() -> bytes:
    path = resources.files(__package__) / "data" / LEMMA_FILE
    return read_shipped(path, f"the verb lemma table {LEMMA_FILE}", LEMMA_SHA256)


@lru_cache(maxsize=1)
def _lemmas() -> dict[str, str]:
    return read_table(_read())


def verb_lemma(word: str) -> str:
    """The lemma of a lower-case verb form; a base form or unknown word comes back unchanged."""
    return _lemmas().get(word, word)


# --- developer tool: lemminflect's lemma lookup -> the shipped file ---------------------------


def export_lemmas(resources_dir: str | Path, out: str | Path) -> str:
    """Write the verb lemma table from lemminflect's ``resources/lemma_lu.csv.gz`` (form, class,
    lemmas) and return its SHA-256: lower-case verb and auxiliary forms made of letters, each with
    the first lemma listed, where the form is not its own lemma."""
    table: dict[str, str] = {}
    with gzip.open(Path(resources_dir) / "lemma_lu.csv.gz", "rt", encoding="utf-8") as handle:
        for row in csv.reader(handle):
            if len(row) < 3 or row[1] not in ("verb", "aux"):
                continue
            form, lemma = row[0].lower(), row[2].split("/")[0].lower()
            if form != lemma and form.isalpha() and lemma.isalpha():
                table.setdefault(form, lemma)
    return write_table(sorted(table.items()), out)


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bindsplit_datasets.parsing.relation_words",
        description="Rebuild the shipped verb lemma table from lemminflect's resources folder.",
    )
    parser.add_argument("--export", nargs=2, metavar=("RESOURCES_DIR", "OUT"), required=True)
    args = parser.parse_args(argv)
    print(export_lemmas(*args.export))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_main())
