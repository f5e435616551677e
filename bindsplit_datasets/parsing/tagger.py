"""NLTK's English averaged-perceptron tagger, shipped with the package and evaluated as a matrix.

The binding parser tags every caption of a reference corpus (about 600,000 for COCO train2017), so
tagging dominates its cost, and it must work on a machine that has no NLTK data and no network.
The pretrained weights of NLTK's ``averaged_perceptron_tagger_eng`` (MIT; a port of Matthew
Honnibal's textblob-aptagger; see ``parsing/data/NOTICE``) therefore ship inside the package in a
compact file, :data:`WEIGHTS_FILE`, whose SHA-256 is :data:`WEIGHTS_SHA256` (checked on load, and
part of the parser version). :class:`MatrixPerceptronTagger` computes exactly what NLTK's
``PerceptronTagger.tag`` computes with those weights (same features, same float additions in the
same order, same tie break), about four times faster; a test checks that the tags are identical
to NLTK's on real captions. Nothing here imports NLTK or reads NLTK data at run time.

The file is a NumPy ``.npz`` archive of plain arrays (no pickles):

``tags``
    the 45 Penn Treebank tags, in descending order (see :class:`MatrixPerceptronTagger`);
``features``
    the feature strings, UTF-8, joined by newlines (row ``i`` of the weight matrix is feature
    ``i``);
``indptr``, ``columns``, ``milli``
    the weights in compressed sparse rows: row ``i``'s non-zero weights are
    ``milli[indptr[i]:indptr[i + 1]] / 1000`` in the tag columns ``columns[indptr[i]:...]``.
    NLTK rounds every averaged weight to three decimals, so thousandths are exact: ``k / 1000``
    and the parse of the decimal text are both the double nearest to the same rational number;
``tagdict_words``, ``tagdict_tags``
    the words NLTK tags by look-up (UTF-8, newline-joined) and their tags' indices in ``tags``.

Developers regenerate it from the JSON files NLTK (>= 3.9) reads, without NLTK itself::

    python -m bindsplit_datasets.parsing.tagger --export SRC_DIR OUT.npz

(``SRC_DIR`` is ``taggers/averaged_perceptron_tagger_eng`` of an NLTK data folder); the export
refuses weights that thousandths cannot represent exactly. Replacing the shipped file means
updating :data:`WEIGHTS_SHA256`; the file's content is part of ``PARSER_VERSION``.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import logging
import sys
import zipfile
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..atomic import atomic_file
from ..errors import PackageDataError

__all__ = [
    "SOURCE_RESOURCE",
    "WEIGHTS_FILE",
    "WEIGHTS_SHA256",
    "MatrixPerceptronTagger",
    "export_nltk_model",
    "get_tagger",
    "load_arrays",
]

logger = logging.getLogger(__name__)

#: NLTK data package the shipped weights come from.
SOURCE_RESOURCE = "averaged_perceptron_tagger_eng"
#: The shipped weights, in the package folder ``parsing/data``.
WEIGHTS_FILE = f"{SOURCE_RESOURCE}.npz"
#: SHA-256 of :data:`WEIGHTS_FILE`; a different file is refused (the parse would change).
WEIGHTS_SHA256 = "dd665a62eeebe96c40eddba319f1392d410e8a2c1fd62ad6207661fbf0053ae5"

_DATA_FOLDER = "data"
_ARRAYS = ("tags", "features", "indptr", "columns", "milli", "tagdict_words", "tagdict_tags")
_SCALE = 1000
#: Tags remembered by feature context before the memory is cleared (an entry is about half a
#: kilobyte, so at most about 250 MB per process).
_SEEN_LIMIT = 500_000
#: Partial score vectors kept before the memory is cleared (about half a kilobyte each).
_VECTOR_LIMIT = 200_000


def _weights_path() -> Any:
    return resources.files(__package__) / _DATA_FOLDER / WEIGHTS_FILE


def _join(strings: Sequence[str]) -> Any:
    import numpy as np

    return np.frombuffer("\n".join(strings).encode("utf-8"), dtype=np.uint8)


def _split(blob: Any) -> list[str]:
    return bytes(blob).decode("utf-8").split("\n")


def load_arrays(data: bytes) -> dict[str, Any]:
    """The arrays of a weights file's bytes (see the module docstring for their meaning)."""
    import numpy as np

    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        return {name: archive[name] for name in _ARRAYS}


def _read_shipped() -> bytes:
    path = _weights_path()
    try:
        data = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        raise PackageDataError(
            f"the tagger weights {WEIGHTS_FILE} are missing from the installed package "
            f"(looked at {path}); reinstall bindsplit-datasets"
        ) from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != WEIGHTS_SHA256:
        raise PackageDataError(
            f"the tagger weights at {path} have SHA-256 {digest}, not {WEIGHTS_SHA256}: the file "
            "was changed or damaged; reinstall bindsplit-datasets"
        )
    return data


class MatrixPerceptronTagger:
    """NLTK's averaged-perceptron tagger with its weights in a matrix.

    ``PerceptronTagger.tag`` sums, for each of 14 feature strings, a dict of per-tag weights;
    here each feature is a row of a (features x tags) matrix. The weights have three decimals, so
    their sums in thousandths are exact integers whatever the order: a token's scores are sums of
    cached partial sums (per word, per tags before, per words around), and where the best two
    tie, the float sum over the rows in NLTK's feature order (float additions in the same order,
    absent weights adding 0.0) decides, so the tags are NLTK's exactly. Tags are stored in
    descending order so that ``argmax`` (first maximum) breaks ties towards the larger tag name,
    as NLTK's ``max((score, tag))`` does.
    """

    _START = ("-START-", "-START2-")
    _END = ("-END-", "-END2-")

    def __init__(self, arrays: Mapping[str, Any]) -> None:
        import numpy as np

        self._tags: list[str] = [str(tag) for tag in arrays["tags"]]
        features = _split(arrays["features"])
        self._row: dict[str, int] = {feature: i for i, feature in enumerate(features)}
        indptr = arrays["indptr"]
        matrix = np.zeros((len(features), len(self._tags)))
        rows = np.repeat(np.arange(len(features)), np.diff(indptr))
        matrix[rows, arrays["columns"]] = arrays["milli"] / _SCALE
        self._matrix = matrix
        self._tagdict: dict[str, str] = {
            word: self._tags[index]
            for word, index in zip(
                _split(arrays["tagdict_words"]), arrays["tagdict_tags"].tolist(), strict=True
            )
        }
        #: Tags already computed, by everything their features depend on.
        self._seen: dict[tuple[str, ...], str] = {}
        #: Feature rows by what they depend on (the word, the tags before, the words around).
        self._word_rows: dict[tuple[str, str], tuple[int | None, ...]] = {}
        self._tag_rows: dict[tuple[str, str], tuple[int | None, ...]] = {}
        self._context_rows: dict[tuple[str, ...], tuple[int | None, ...]] = {}
        #: Exact integer (thousandths) score vectors of the same feature groups, summed.
        self._vectors: dict[tuple[str, ...], Any] = {}

    def _rows(self, word: str, prev: str, prev2: str, context: list[str], i: int) -> list[int]:
        """The weight-matrix rows of token ``i``'s 14 features, in NLTK's order (so that their
        float additions happen in the same order), absent features left out."""
        row = self._row.get
        w = context[i + 2]
        own = self._word_rows.get((word, w))
        if own is None:
            own = self._word_rows[word, w] = (
                row("bias"),
                row("i suffix " + word[-3:]),
                row("i pref1 " + (word[0] if word else "")),
                row("i word " + w),
            )
        tags = self._tag_rows.get((prev, prev2))
        if tags is None:
            tags = self._tag_rows[prev, prev2] = (
                row("i-1 tag " + prev),
                row("i-2 tag " + prev2),
                row("i tag+i-2 tag " + prev + " " + prev2),
            )
        around_key = (context[i + 1], context[i], context[i + 3], context[i + 4])
        around = self._context_rows.get(around_key)
        if around is None:
            before, before2, after, after2 = around_key
            around = self._context_rows[around_key] = (
                row("i-1 word " + before),
                row("i-1 suffix " + before[-3:]),
                row("i-2 word " + before2),
                row("i+1 word " + after),
                row("i+1 suffix " + after[-3:]),
                row("i+2 word " + after2),
            )
        rows = (*own[:3], *tags, own[3], row("i-1 tag+i word " + prev + " " + w), *around)
        return [r for r in rows if r is not None]

    @classmethod
    def shipped(cls) -> MatrixPerceptronTagger:
        """The tagger with the weights shipped in the package (raises
        :class:`~bindsplit_datasets.errors.PackageDataError` when they are missing or
        altered)."""
        return cls(load_arrays(_read_shipped()))

    @staticmethod
    def _normalise(word: str) -> str:
        # PerceptronTagger.normalize
        if "-" in word and word[0] != "-":
            return "!HYPHEN"
        if word.isdigit() and len(word) == 4:
            return "!YEAR"
        if word and word[0].isdigit():
            return "!DIGITS"
        return word.lower()

    def _vector(self, key: tuple[str, ...], features: tuple[str, ...]) -> Any:
        """The exact sum, in thousandths, of the weight rows of ``features``, cached by ``key``
        (integer sums do not depend on their order)."""
        import numpy as np

        rows = [r for r in map(self._row.get, features) if r is not None]
        vector = np.rint(self._matrix[rows] * _SCALE).astype(np.int64).sum(axis=0)
        self._vectors[key] = vector
        return vector

    def _around(self, key: tuple[str, ...]) -> Any:
        """The summed vector of the features of the words around a token, ``key`` being
        ``("c", before, before2, after, after2)``."""
        _, before, before2, after, after2 = key
        return self._vector(
            key,
            ("i-1 word " + before, "i-1 suffix " + before[-3:], "i-2 word " + before2,
             "i+1 word " + after, "i+1 suffix " + after[-3:], "i+2 word " + after2),
        )  # fmt: skip

    def _base(self, word: str, w: str, prev: str, prev2: str) -> Any:
        """The summed vectors of the word's, the tags' and the tag-and-word features."""
        vectors = self._vectors
        key: tuple[str, ...] = ("w", word, w)
        own = vectors.get(key)
        if own is None:
            own = self._vector(
                key,
                ("bias", "i suffix " + word[-3:], "i pref1 " + (word[0] if word else ""),
                 "i word " + w),
            )  # fmt: skip
        key = ("t", prev, prev2)
        tags = vectors.get(key)
        if tags is None:
            tags = self._vector(
                key, ("i-1 tag " + prev, "i-2 tag " + prev2, "i tag+i-2 tag " + prev + " " + prev2)
            )
        key = ("p", prev, w)
        pair = vectors.get(key)
        if pair is None:
            pair = self._vector(key, ("i-1 tag+i word " + prev + " " + w,))
        return own + tags + pair

    def tag(self, tokens: Sequence[str]) -> list[str]:
        """Penn Treebank tags: exactly ``[t for _, t in PerceptronTagger().tag(tokens)]``.

        A token whose 14 features (its word and the two words on each side, the two tags before
        it) were seen before gets the tag computed then: captions repeat their word windows ("a
        man riding a"), so a long corpus is mostly tagged from memory (see :data:`_SEEN_LIMIT`).
        A new token's scores are exact integer sums of cached partial sums; where two tags tie
        on them, NLTK's float sum in feature order (which breaks the tie as NLTK does) decides.
        """
        context = [*self._START, *map(_normal, tokens), *self._END]
        tagdict, matrix, tags, seen = self._tagdict, self._matrix, self._tags, self._seen
        last, vectors = len(tags) - 1, self._vectors
        if len(seen) > _SEEN_LIMIT or len(self._vectors) > _VECTOR_LIMIT:
            seen.clear()
            for cache in (self._word_rows, self._tag_rows, self._context_rows, self._vectors):
                cache.clear()
        prev, prev2 = self._START
        out: list[Any] = list(map(tagdict.get, tokens))  # tagged by look-up; None: the others
        for i, tag in enumerate(out):
            if tag is None:
                word = tokens[i]
                before2, before, w, after, after2 = context[i : i + 5]
                key = (word, prev, prev2, before2, before, after, after2)
                tag = seen.get(key)
                if tag is None:
                    # exact scores in thousandths: the sums of the features' rows, grouped by
                    # what they depend on (the word and the tags before; the words around), each
                    # group's sum computed once
                    group = ("c", before, before2, after, after2)
                    around = vectors.get(group)
                    if around is None:
                        around = self._around(group)
                    group = ("b", word, w, prev, prev2)
                    base = vectors.get(group)
                    if base is None:
                        base = vectors[group] = self._base(word, w, prev, prev2)
                    scores = base + around
                    best = int(scores.argmax())
                    # the first and the last best score differ only where two tie in
                    # thousandths: there NLTK's float order decides
                    if best + int(scores[::-1].argmax()) != last:
                        best = int(
                            matrix[self._rows(word, prev, prev2, context, i)].sum(0).argmax()
                        )
                    tag = seen[key] = tags[best]
                out[i] = tag
            prev2, prev = prev, tag
        return out


#: ``_normalise`` of each word, remembered (it runs on every token of every caption).
_normal = lru_cache(maxsize=1 << 17)(MatrixPerceptronTagger._normalise)

_TAGGER: MatrixPerceptronTagger | None = None


def get_tagger() -> MatrixPerceptronTagger:
    """The process-wide tagger with the shipped weights, loaded on first use."""
    global _TAGGER
    if _TAGGER is None:
        _TAGGER = MatrixPerceptronTagger.shipped()
    return _TAGGER


# --- developer tool: NLTK's JSON model -> the shipped file -----------------------------------


def _arrays_from_json(source: Path) -> dict[str, Any]:
    """The shipped arrays of NLTK's JSON model files in ``source`` (exactness checked)."""
    import numpy as np

    def read(part: str) -> Any:
        return json.loads((source / f"{SOURCE_RESOURCE}.{part}.json").read_text(encoding="utf-8"))

    weights: dict[str, dict[str, float]] = read("weights")
    tagdict: dict[str, str] = read("tagdict")
    tags = sorted(read("classes"), reverse=True)
    column = {tag: i for i, tag in enumerate(tags)}
    strings = [*weights, *tagdict]
    if any("\n" in text for text in strings) or len(tags) > 255:
        raise ValueError(f"{source}: a feature or word contains a newline, or too many tags")
    indptr, columns, values = [0], [], []
    for per_tag in weights.values():
        for tag, weight in per_tag.items():
            columns.append(column[tag])
            values.append(weight)
        indptr.append(len(values))
    exact = np.asarray(values, dtype=np.float64)
    milli = np.rint(exact * _SCALE).astype(np.int32)
    if not np.array_equal(milli / _SCALE, exact):
        raise ValueError(f"{source}: weights with more than 3 decimals cannot be stored exactly")
    return {
        "tags": np.asarray(tags),
        "features": _join(list(weights)),
        "indptr": np.asarray(indptr, dtype=np.int32),
        "columns": np.asarray(columns, dtype=np.uint8),
        "milli": milli,
        "tagdict_words": _join(list(tagdict)),
        "tagdict_tags": np.asarray([column[tag] for tag in tagdict.values()], dtype=np.uint8),
    }


def export_nltk_model(source: str | Path, out: str | Path) -> str:
    """Write the compact weights file ``out`` from the JSON files of NLTK's
    ``averaged_perceptron_tagger_eng`` folder ``source``; returns its SHA-256.

    Deterministic: fixed member order and timestamps, so a given zlib gives identical bytes.
    """
    import numpy as np

    arrays = _arrays_from_json(Path(source))
    with atomic_file(out) as temporary:
        with zipfile.ZipFile(temporary, "w") as archive:
            for name in _ARRAYS:
                buffer = io.BytesIO()
                np.lib.format.write_array(buffer, arrays[name], allow_pickle=False)
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                archive.writestr(
                    info, buffer.getvalue(), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9
                )
        temporary.chmod(0o644)
        digest = hashlib.sha256(temporary.read_bytes()).hexdigest()
    logger.info("wrote %s (sha256 %s)", out, digest)
    return digest


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bindsplit_datasets.parsing.tagger",
        description="Developer tool: convert NLTK's averaged_perceptron_tagger_eng JSON files "
        "into the compact weights file shipped in bindsplit_datasets/parsing/data.",
    )
    parser.add_argument(
        "--export",
        nargs=2,
        metavar=("SRC_DIR", "OUT"),
        required=True,
        help="folder with the three averaged_perceptron_tagger_eng.*.json files; output .npz",
    )
    args = parser.parse_args(argv)
    digest = export_nltk_model(*args.export)
    print(f"{args.export[1]}: sha256 {digest}")
    if digest != WEIGHTS_SHA256:
        print("  (differs from the shipped WEIGHTS_SHA256: update it to ship this file)")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
