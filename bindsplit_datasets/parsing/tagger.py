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

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from .tagger_weights import SCALE, SOURCE_RESOURCE, shipped_arrays, split_strings

# SOURCE_RESOURCE: the NLTK data package the weights come from (defined in .tagger_weights)
__all__ = ["SOURCE_RESOURCE", "MatrixPerceptronTagger", "get_tagger"]

#: Tags remembered by feature context before the memory is cleared (an entry is about half a
#: kilobyte, so at most about 250 MB per process).
_SEEN_LIMIT = 500_000
#: Tokens whose tag-free feature sums are gathered at once (the tokens of a caption, unless it
#: is longer): a bound on the memory one gather takes (about 18 kilobytes a token).
_BLOCK = 64
#: Feature rows (by word) and tag vectors (by the two tags before) kept before the memory is
#: cleared (a few hundred bytes each).
_VECTOR_LIMIT = 200_000


class MatrixPerceptronTagger:
    """NLTK's averaged-perceptron tagger with its weights in a matrix.

    ``PerceptronTagger.tag`` sums, for each of 14 feature strings, a dict of per-tag weights;
    here each feature is a row of a (features x tags) matrix of the weights in thousandths. The
    weights have three decimals, so their sums in thousandths are exact integers whatever the
    order; where the best two tie, the float sum over the rows in NLTK's feature order (float
    additions in the same order, absent weights adding 0.0) decides, so the tags are NLTK's
    exactly. Tags are stored in descending order so that ``argmax`` (first maximum) breaks ties
    towards the larger tag name, as NLTK's ``max((score, tag))`` does.

    Ten of a token's 14 features do not depend on the tags before it (its word, the two words on
    each side): their sums are taken for all the tokens of a caption that need them at once, in
    one gather from the matrix (:meth:`_fixed`); the other four are added token by token, as the
    tags before it are known, from a vector remembered per pair of tags before and one row.
    """

    _START = ("-START-", "-START2-")
    _END = ("-END-", "-END2-")

    def __init__(self, arrays: Mapping[str, Any]) -> None:
        import numpy as np

        self._tags: list[str] = [str(tag) for tag in arrays["tags"]]
        features = split_strings(arrays["features"])
        self._row: dict[str, int] = {feature: i for i, feature in enumerate(features)}
        indptr = arrays["indptr"]
        #: The integer type of the weights in thousandths and of their sums: 32 bits where no
        #: sum of 14 weights can overflow it (the shipped weights: at most 34.39 in size), 64
        #: bits otherwise.
        largest = int(np.abs(arrays["milli"]).max(initial=0))
        self._int = np.int32 if 14 * largest < 2**31 else np.int64
        #: One row per feature and a last row of zeros, the row of an absent feature.
        matrix = np.zeros((len(features) + 1, len(self._tags)), dtype=self._int)
        rows = np.repeat(np.arange(len(features)), np.diff(indptr))
        matrix[rows, arrays["columns"]] = arrays["milli"]
        self._matrix = matrix
        self._absent = len(features)
        self._tagdict: dict[str, str] = {
            word: self._tags[index]
            for word, index in zip(
                split_strings(arrays["tagdict_words"]), arrays["tagdict_tags"].tolist(), strict=True
            )
        }
        #: Tags already computed, by everything their features depend on.
        self._seen: dict[tuple[str, ...], str] = {}
        #: The rows of the features of a token's own word (by (word, normalised word)) and of
        #: those a normalised word gives the tokens around it (by the word), absent features as
        #: the row of zeros.
        self._own_rows_of: dict[tuple[str, str], tuple[int, ...]] = {}
        self._around_rows_of: dict[str, tuple[int, ...]] = {}
        #: The summed vector of the features of the two tags before a token, by (prev, prev2).
        self._tag_vectors: dict[tuple[str, str], Any] = {}

    def _rows(self, word: str, prev: str, prev2: str, context: list[str], i: int) -> list[int]:
        """The weight-matrix rows of token ``i``'s 14 features, in NLTK's order (so that their
        float additions happen in the same order), absent features left out."""
        before2, before, w, after, after2 = context[i : i + 5]
        features = (
            "bias",
            "i suffix " + word[-3:],
            "i pref1 " + (word[0] if word else ""),
            "i-1 tag " + prev,
            "i-2 tag " + prev2,
            "i tag+i-2 tag " + prev + " " + prev2,
            "i word " + w,
            "i-1 tag+i word " + prev + " " + w,
            "i-1 word " + before,
            "i-1 suffix " + before[-3:],
            "i-2 word " + before2,
            "i+1 word " + after,
            "i+1 suffix " + after[-3:],
            "i+2 word " + after2,
        )
        return [r for r in map(self._row.get, features) if r is not None]

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

    def _own_rows(self, word: str, w: str) -> tuple[int, ...]:
        """The rows of the features of a token's own word (``w``: its normalised form);
        remembered."""
        row, absent = self._row.get, self._absent
        rows = self._own_rows_of[word, w] = (
            row("bias", absent),
            row("i suffix " + word[-3:], absent),
            row("i pref1 " + (word[0] if word else ""), absent),
            row("i word " + w, absent),
        )
        return rows

    def _around_rows(self, w: str) -> tuple[int, ...]:
        """The rows of the features a normalised word gives the tokens around it: as the word
        before (``i-1 word``, ``i-1 suffix``), the one before that (``i-2 word``), the word after
        (``i+1 word``, ``i+1 suffix``) and the one after that (``i+2 word``); remembered."""
        row, absent = self._row.get, self._absent
        rows = self._around_rows_of[w] = (
            row("i-1 word " + w, absent),
            row("i-1 suffix " + w[-3:], absent),
            row("i-2 word " + w, absent),
            row("i+1 word " + w, absent),
            row("i+1 suffix " + w[-3:], absent),
            row("i+2 word " + w, absent),
        )
        return rows

    def _fixed(self, tokens: Sequence[str], context: list[str], positions: list[int]) -> Any:
        """The summed vectors of the ten features that do not depend on tags, of the tokens at
        ``positions``, one row each: one gather from the matrix for the caption."""
        own_of, around_of = self._own_rows_of, self._around_rows_of
        rows: list[int] = []
        for i in positions:
            word, before2, before, w, after, after2 = tokens[i], *context[i : i + 5]
            rows += own_of.get((word, w)) or self._own_rows(word, w)
            rows += (around_of.get(before) or self._around_rows(before))[:2]
            rows.append((around_of.get(before2) or self._around_rows(before2))[2])
            rows += (around_of.get(after) or self._around_rows(after))[3:5]
            rows.append((around_of.get(after2) or self._around_rows(after2))[5])
        gathered = self._matrix.take(rows, axis=0)
        return gathered.reshape(len(positions), 10, -1).sum(1, dtype=self._int)

    def _tag_vector(self, prev: str, prev2: str) -> Any:
        """The summed vector of the features of the two tags before a token; remembered."""
        row, absent = self._row.get, self._absent
        rows = [
            row("i-1 tag " + prev, absent),
            row("i-2 tag " + prev2, absent),
            row("i tag+i-2 tag " + prev + " " + prev2, absent),
        ]
        vector = self._tag_vectors[prev, prev2] = self._matrix[rows].sum(0, dtype=self._int)
        return vector

    def tag(self, tokens: Sequence[str]) -> list[str]:
        """Penn Treebank tags: exactly ``[t for _, t in PerceptronTagger().tag(tokens)]``.

        A token whose 14 features (its word and the two words on each side, the two tags before
        it) were seen before gets the tag computed then: captions repeat their word windows ("a
        man riding a"), so a long corpus is mostly tagged from memory (see :data:`_SEEN_LIMIT`).
        A new token's scores are the exact sum in thousandths of its features' rows (see the
        class docstring); where two tags tie on it, NLTK's float sum in feature order (which
        breaks the tie as NLTK does) decides.
        """
        tagdict, seen = self._tagdict, self._seen
        out: list[Any] = list(map(tagdict.get, tokens))  # tagged by look-up; None: the others
        if None not in out:
            return out
        tag_vectors, own_of, around_of = self._tag_vectors, self._own_rows_of, self._around_rows_of
        if len(seen) > _SEEN_LIMIT or len(own_of) + len(around_of) > _VECTOR_LIMIT:
            for cache in (seen, tag_vectors, own_of, around_of):
                cache.clear()
        context = [*self._START, *map(_normal, tokens), *self._END]
        tags, matrix, row = self._tags, self._matrix, self._row.get
        last = len(tags) - 1
        # the tag-free sums of the next tokens not in the tag dictionary (a block at a time:
        # a caption of any length gathers at most _BLOCK tokens' rows at once)
        fixed: Any = None  # the sums of the tokens at `at`, one row each (see _fixed)
        at: dict[int, int] = {}
        prev, prev2 = self._START
        for i, tag in enumerate(out):
            if tag is None:
                word = tokens[i]
                before2, before, w, after, after2 = context[i : i + 5]
                key = (word, prev, prev2, before2, before, after, after2)
                tag = seen.get(key)
                if tag is None:
                    row_of = at.get(i)
                    if row_of is None:
                        block = range(i, min(i + _BLOCK, len(out)))
                        positions = [j for j in block if out[j] is None]
                        fixed = self._fixed(tokens, context, positions)
                        at = {j: k for k, j in enumerate(positions)}
                        row_of = 0
                    own = fixed[row_of]
                    vector = tag_vectors.get((prev, prev2))
                    if vector is None:
                        vector = self._tag_vector(prev, prev2)
                    scores = own + vector
                    pair = row("i-1 tag+i word " + prev + " " + w)
                    if pair is not None:
                        scores += matrix[pair]
                    best = int(scores.argmax())
                    # the first and the last best score differ only where two tie in
                    # thousandths: there NLTK's float order decides
                    if last - int(scores[::-1].argmax()) != best:
                        rows = self._rows(word, prev, prev2, context, i)
                        best = int((matrix[rows] / SCALE).sum(0).argmax())
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
