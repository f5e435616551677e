"""The word tables of the relation parser (SPEC section 1b), read from plain-text files in
``parsing/data/relation_*.txt`` (a comment header, one entry per line), and the verb lemma table.

Each table is a frozen set of lower-case entries; :data:`TABLES_SHA256` is the SHA-256 of every
table file and of the verb lemma table, so that whatever changes a parse changes the version the
relation parser reports (:data:`.relations.RELATION_PARSER_VERSION`).

The verb lemma table (``data/verb_lemmas.txt.gz``, ``form<TAB>lemma`` for every verb form that is
not its own lemma) was derived, like the word-class table, from the lemma lookup of
``lemminflect`` 0.2.3 (MIT; NIH SPECIALIST Lexicon, see ``data/NOTICE``);
``python -m bindsplit_datasets.parsing.relation_words --export LEMMINFLECT_RESOURCES OUT`` rebuilds
it (a developer tool: lemminflect is not needed at run time).

>>> verb_lemma("sitting"), verb_lemma("flown"), verb_lemma("wearing"), verb_lemma("sit")
('sit', 'fly', 'wear', 'sit')
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..atomic import atomic_file
from .shipped import read_shipped

__all__ = [
    "ANIMATE_NOUNS",
    "AUXILIARIES",
    "BLOCKING_PREPOSITIONS",
    "CONTAINER_NOUNS",
    "LIGHT_VERBS",
    "LOCATIVE_PARTICIPLES",
    "PARTICLES",
    "PARTITIVE_NOUNS",
    "PHRASAL_PREPOSITIONS",
    "PICTURE_NOUNS",
    "POSITION_NOUNS",
    "PREPOSITIONS",
    "PRONOUNS",
    "SUBJECT_PRONOUNS",
    "TABLES_SHA256",
    "TIME_NOUNS",
    "export_lemmas",
    "verb_lemma",
]

#: The shipped verb lemma table, in ``parsing/data``.
LEMMA_FILE = "verb_lemmas.txt.gz"
#: SHA-256 of :data:`LEMMA_FILE`; a different file is refused (the parse would change).
LEMMA_SHA256 = "7e38fbeedd38bcff7b3b56f59dfa3f1fbbc76a00534abf71fcdc126b68a7f2c2"

_digest = hashlib.sha256()


def _data(name: str) -> Any:
    return resources.files(__package__) / "data" / name


def _read(name: str, sha256: str | None = None) -> bytes:
    what = "the verb lemma table" if name == LEMMA_FILE else "the relation word table"
    return read_shipped(_data(name), f"{what} {name}", sha256)


def _table(name: str) -> frozenset[str]:
    """The entries of ``data/relation_<name>.txt``: lines that are neither blank nor comments."""
    data = _read(f"relation_{name}.txt")
    _digest.update(name.encode() + b"\0" + data)
    lines = (line.strip().lower() for line in data.decode("utf-8").splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


#: Nouns of people and animals: a participle after them relates them.
ANIMATE_NOUNS = _table("animate_nouns")
#: Single prepositions that state a relation ("on", "under", "with").
PREPOSITIONS = _table("prepositions")
#: Multi-word prepositions as tuples of words, longest first ("to the left of", "next to").
PHRASAL_PREPOSITIONS: tuple[tuple[str, ...], ...] = tuple(
    sorted((tuple(p.split()) for p in _table("phrasal_prepositions")), key=lambda w: (-len(w), w))
)
#: Prepositions that state no relation ("of", "for", "without").
BLOCKING_PREPOSITIONS = _table("blocking_prepositions")
#: Container nouns: before "of" they stay what a following preposition phrase relates.
CONTAINER_NOUNS = _table("container_nouns")
#: Partitive, quantity and picture nouns: before "of" the noun after it is the argument.
PARTITIVE_NOUNS = _table("partitive_nouns")
#: Picture nouns: at a caption's start, before "of", the noun after it is the argument.
PICTURE_NOUNS = _table("picture_nouns")
#: Position nouns: no argument on their own; "PREP the NOUN of" is a multi-word preposition.
POSITION_NOUNS = _table("position_nouns")
#: Nouns of time: no argument ("in the daytime").
TIME_NOUNS = _table("time_nouns")
#: Pronouns: no argument.
PRONOUNS = _table("pronouns")
#: Personal subject pronouns that stand for the caption's first subject.
SUBJECT_PRONOUNS = _table("subject_pronouns")
#: Auxiliaries and copulas, dropped from a relation.
AUXILIARIES = _table("auxiliaries")
#: Lemmas of verbs that state no relation on their own ("get", "seem").
LIGHT_VERBS = _table("light_verbs")
#: Participles after which "by" names a place, not the agent ("parked by the road").
LOCATIVE_PARTICIPLES = _table("locative_participles")
#: Particles of phrasal verbs ("blow out", "show off").
PARTICLES = _table("particles")


@lru_cache(maxsize=1)
def _lemmas() -> dict[str, str]:
    data = _read(LEMMA_FILE, LEMMA_SHA256)
    table = {}
    for line in gzip.decompress(data).decode("utf-8").splitlines():
        form, _, lemma = line.partition("\t")
        table[form] = lemma
    return table


_digest.update(LEMMA_SHA256.encode())
#: SHA-256 over every table file and the verb lemma table's checksum.
TABLES_SHA256 = _digest.hexdigest()


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
    text = "".join(f"{form}\t{lemma}\n" for form, lemma in sorted(table.items()))
    data = gzip.compress(text.encode("utf-8"), mtime=0)
    with atomic_file(out) as temporary:
        temporary.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


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
