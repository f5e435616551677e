"""NLTK's English averaged-perceptron tagger, evaluated as a matrix.

The binding parser tags every caption of a reference corpus (about 600,000 for COCO train2017), so
tagging dominates its cost, and it must work on a machine that has no NLTK data and no network:
the weights ship with the package (:mod:`.tagger_weights`: the file, its checks, its export from
NLTK's JSON model). :class:`MatrixPerceptronTagger` computes exactly what NLTK's
``PerceptronTagger.tag`` computes with those weights (same features, same float additions in the
same order, same tie break), about four times faster; a test checks that the tags are identical
to NLTK's on real captions. Nothing here imports NLTK or reads NLTK data at run time.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from .tagger_weights import SCALE, SOURCE_RESOURCE, shipped_arrays, split_strings

# SOURCE_RESOURCE: the NLTK data package the weights come from (defined in .tagger_weights)
__all__ = ["SOURCE_RESOURCE", "MatrixPerceptronTagger", "get_tagger"]

#: Tags remembered by feature context before the memory is cleared (an entry is about half a
#: kilobyte, so at most about 250 MB per process).
_SEEN_LIMIT = 500_000
#: Partial score vectors kept before the memory is cleared (about half a kilobyte each, a
#: words-around one with its shortfalls about one).
_VECTOR_LIMIT = 200_000


class MatrixPerceptronTagger:
    """NLTK's averaged-perceptron tagger with its weights in a matrix.

    ``PerceptronTagger.tag`` sums, for each of 14 feature strings, a dict of per-tag weights;
    here each feature is a row of a (features x tags) matrix. The weights have three decimals, so
    their sums in thousandths are exact integers whatever the order: a token's scores are sums of
    cached partial sums (per word, per tags before, per words around), and where the best two
    tie, the float sum over the rows in NLTK's feature order (float additions in the same order,
    absent weights adding 0.0) decides, so the tags are NLTK's exactly. Tags are stored in
    descending order so that ``argmax`` (first maximum) breaks ties towards the larger tag name,
    as NLTK's ``max((score, tag))`` does. Most new tokens (three in four in real captions) need
    no vector sum at all: where the best tag of the word-and-tags group leads the second by more
    than the words around can make up (:meth:`tag`), it is the best tag of the whole sum, and the
    only one.
    """

    _START = ("-START-", "-START2-")
    _END = ("-END-", "-END2-")

    def __init__(self, arrays: Mapping[str, Any]) -> None:
        import numpy as np

        self._tags: list[str] = [str(tag) for tag in arrays["tags"]]
        features = split_strings(arrays["features"])
        self._row: dict[str, int] = {feature: i for i, feature in enumerate(features)}
        indptr = arrays["indptr"]
        matrix = np.zeros((len(features), len(self._tags)))
        rows = np.repeat(np.arange(len(features)), np.diff(indptr))
        matrix[rows, arrays["columns"]] = arrays["milli"] / SCALE
        self._matrix = matrix
        #: The integer type of the summed vectors: 32 bits where no sum of 14 weights can
        #: overflow it (the shipped weights: at most 34.39 in size), 64 bits otherwise.
        largest = int(np.abs(arrays["milli"]).max(initial=0))
        self._int = np.int32 if 14 * largest < 2**31 else np.int64
        self._tagdict: dict[str, str] = {
            word: self._tags[index]
            for word, index in zip(
                split_strings(arrays["tagdict_words"]), arrays["tagdict_tags"].tolist(), strict=True
            )
        }
        #: Tags already computed, by everything their features depend on.
        self._seen: dict[tuple[str, ...], str] = {}
        #: Feature rows by what they depend on (the word, the tags before, the words around).
        self._word_rows: dict[tuple[str, str], tuple[int | None, ...]] = {}
        self._tag_rows: dict[tuple[str, str], tuple[int | None, ...]] = {}
        self._context_rows: dict[tuple[str, ...], tuple[int | None, ...]] = {}
        #: Exact integer (thousandths) score vectors of the same feature groups, summed: of the
        #: words around a token, by (before, before2, after, after2), and of the word and the tags
        #: before it, by (word, normalised word, prev, prev2), each as two rows (the scores in tag
        #: order and reversed: see :meth:`tag`) with what bounds the sum's best tag (see
        #: :meth:`_around`, :meth:`_base`); and of their parts.
        self._around_vectors: dict[tuple[str, str, str, str], tuple[Any, array[int]]] = {}
        self._base_vectors: dict[tuple[str, str, str, str], tuple[Any, int, int]] = {}
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
        return cls(shipped_arrays())

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

    def _vector(self, features: tuple[str, ...]) -> Any:
        """The exact sum, in thousandths, of the weight rows of ``features`` (integer sums do
        not depend on their order)."""
        import numpy as np

        rows = [r for r in map(self._row.get, features) if r is not None]
        return np.rint(self._matrix[rows] * SCALE).astype(np.int64).sum(axis=0)

    def _both_ways(self, vector: Any) -> Any:
        """``vector`` as two rows: as it is and reversed."""
        import numpy as np

        return np.stack((vector, vector[::-1])).astype(self._int)

    def _around(self, key: tuple[str, str, str, str]) -> tuple[Any, array[int]]:
        """The summed vector of the features of the words around a token, ``key`` being
        ``(before, before2, after, after2)``, both ways, and each tag's shortfall from the best
        score (the most the words around add to another tag beyond what they add to it);
        remembered."""
        before, before2, after, after2 = key
        vector = self._vector(
            ("i-1 word " + before, "i-1 suffix " + before[-3:], "i-2 word " + before2,
             "i+1 word " + after, "i+1 suffix " + after[-3:], "i+2 word " + after2),
        )  # fmt: skip
        shortfall = array("q", (vector.max() - vector).tolist())
        around = self._around_vectors[key] = (self._both_ways(vector), shortfall)
        return around

    def _base(self, word: str, w: str, prev: str, prev2: str) -> tuple[Any, int, int]:
        """The summed vectors of the word's, the tags' and the tag-and-word features, both
        ways, with the index of their best tag and its lead over the second best (0 where two
        tie); remembered."""
        import numpy as np

        vectors = self._vectors
        key: tuple[str, ...] = ("w", word, w)
        own = vectors.get(key)
        if own is None:
            own = vectors[key] = self._vector(
                ("bias", "i suffix " + word[-3:], "i pref1 " + (word[0] if word else ""),
                 "i word " + w),
            )  # fmt: skip
        key = ("t", prev, prev2)
        tags = vectors.get(key)
        if tags is None:
            tags = vectors[key] = self._vector(
                ("i-1 tag " + prev, "i-2 tag " + prev2, "i tag+i-2 tag " + prev + " " + prev2)
            )
        key = ("p", prev, w)
        pair = vectors.get(key)
        if pair is None:
            pair = vectors[key] = self._vector(("i-1 tag+i word " + prev + " " + w,))
        vector = own + tags + pair
        best = int(vector.argmax())
        lead = int(vector[best] - np.partition(vector, -2)[-2])
        base = self._base_vectors[word, w, prev, prev2] = (self._both_ways(vector), best, lead)
        return base

    def tag(self, tokens: Sequence[str]) -> list[str]:
        """Penn Treebank tags: exactly ``[t for _, t in PerceptronTagger().tag(tokens)]``.

        A token whose 14 features (its word and the two words on each side, the two tags before
        it) were seen before gets the tag computed then: captions repeat their word windows ("a
        man riding a"), so a long corpus is mostly tagged from memory (see :data:`_SEEN_LIMIT`).
        A new token's scores are exact integer sums of cached partial sums; where two tags tie
        on them, NLTK's float sum in feature order (which breaks the tie as NLTK does) decides.
        Where the base's best tag leads its second by more than the words around add to any tag
        over it, that tag is the sum's one best, with no tie: no sum is needed.
        """
        tagdict, seen = self._tagdict, self._seen
        out: list[Any] = list(map(tagdict.get, tokens))  # tagged by look-up; None: the others
        if None not in out:
            return out
        around_vectors, base_vectors, vectors = (
            self._around_vectors,
            self._base_vectors,
            self._vectors,
        )
        if (
            len(seen) > _SEEN_LIMIT
            or len(around_vectors) + len(base_vectors) + len(vectors) > _VECTOR_LIMIT
        ):
            seen.clear()
            for cache in (self._word_rows, self._tag_rows, self._context_rows):
                cache.clear()
            for vector_cache in (around_vectors, base_vectors, vectors):
                vector_cache.clear()
        context = [*self._START, *map(_normal, tokens), *self._END]
        tags, last = self._tags, len(self._tags) - 1
        prev, prev2 = self._START
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
                    around = around_vectors.get((before, before2, after, after2))
                    if around is None:
                        around = self._around((before, before2, after, after2))
                    base = base_vectors.get((word, w, prev, prev2))
                    if base is None:
                        base = self._base(word, w, prev, prev2)
                    base_rows, best, lead = base
                    around_rows, shortfall = around
                    # the words around add to another tag at most the base's best tag's
                    # shortfall more than to it: a lead no larger may be overtaken, or tied
                    if lead <= shortfall[best]:
                        # the scores in tag order and reversed: the first best score, and the last
                        best, best_reversed = (base_rows + around_rows).argmax(1).tolist()
                        # the first and the last best score differ only where two tie in
                        # thousandths: there NLTK's float order decides
                        if best + best_reversed != last:
                            rows = self._rows(word, prev, prev2, context, i)
                            best = self._matrix[rows].sum(0).argmax()
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
