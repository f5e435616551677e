"""``PARSER_VERSION``: a human version and the SHA-256 of every code and data file of the parser.

Every change to a rule's code, a word table, the rule table, the tagger weights or the word-class
table changes what the parser extracts, and so changes :data:`PARSER_VERSION`, without anyone
having to remember a bump: it is ``"<HUMAN_VERSION>+sha256.<digest>"``, the digest taken over the
relative path and the bytes of every ``.py`` file of :mod:`bindsplit_datasets.parsing` and every
file under its ``data/`` folder, in sorted path order. Every reference index, index cache key,
resumable work folder and build manifest records it, and an index built by another parser is
refused on loading (:class:`~bindsplit_datasets.errors.ParserMismatchError`, saying how to
rebuild it). :data:`HUMAN_VERSION` is bumped by hand for changes a reader should notice.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["HUMAN_VERSION", "PARSER_VERSION", "content_digest", "digest_inputs"]

#: The parser's version for people: bumped by hand for a change of behaviour worth naming.
HUMAN_VERSION = "4.0"
#: The parser package's folder.
PACKAGE_FOLDER = Path(__file__).parent


def digest_inputs(folder: Path = PACKAGE_FOLDER) -> list[Path]:
    """The files the version digest covers: every ``.py`` file of ``folder`` (subpackages
    included) and every file under ``folder/data``, sorted by relative path."""
    files = [
        path
        for path in folder.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and (path.suffix == ".py" or path.relative_to(folder).parts[0] == "data")
    ]
    return sorted(files, key=lambda path: path.relative_to(folder).as_posix())


def content_digest(folder: Path = PACKAGE_FOLDER) -> str:
    """SHA-256 over the relative path, size and bytes of each of :func:`digest_inputs`."""
    digest = hashlib.sha256()
    for path in digest_inputs(folder):
        content = path.read_bytes()
        name = path.relative_to(folder).as_posix().encode()
        digest.update(b"%d:%s%d:" % (len(name), name, len(content)))
        digest.update(content)
    return digest.hexdigest()


#: The version every fingerprint records (see the module docstring).
PARSER_VERSION = f"{HUMAN_VERSION}+sha256.{content_digest()}"
