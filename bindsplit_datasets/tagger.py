"""NLTK's English averaged-perceptron tagger, evaluated with its weights in one matrix.

The binding parser tags every caption of a reference corpus (about 600,000 for COCO train2017), so
tagging dominates its cost. :class:`MatrixPerceptronTagger` loads NLTK's pretrained model and
computes exactly what ``PerceptronTagger.tag`` computes (same features, same weights, same float
additions in the same order, same tie break), about four times faster; a test checks that the tags
are identical to NLTK's on real captions.
"""

from __future__ import annotations

from collections.abc import Sequence

from .nltk_data import TAGGER_RESOURCE, TaggerDataMissingError, download_command

__all__ = ["MatrixPerceptronTagger", "get_tagger"]


class MatrixPerceptronTagger:
    """NLTK's averaged-perceptron tagger with its weights in a matrix.

    ``PerceptronTagger.tag`` sums, for each of 14 feature strings, a dict of per-tag weights;
    here each feature is a row of a (features x tags) matrix and the sum is a NumPy reduction over
    the rows in feature order (float additions in the same order, absent weights adding 0.0), so
    the scores are bit-identical. Tags are stored in descending order so that ``argmax`` (first
    maximum) breaks ties towards the larger tag name, as NLTK's ``max((score, tag))`` does.
    """

    _START = ("-START-", "-START2-")
    _END = ("-END-", "-END2-")

    def __init__(self) -> None:
        import numpy as np
        from nltk.tag.perceptron import PerceptronTagger

        try:
            tagger = PerceptronTagger()
        except LookupError:
            raise TaggerDataMissingError(
                f"NLTK's tagger data ({TAGGER_RESOURCE}) was not found on NLTK_DATA or NLTK's "
                f"default paths; run `{download_command()}` (or set NLTK_DATA to a folder that "
                "has it)"
            ) from None
        self._tagdict: dict[str, str] = tagger.tagdict
        self._tags: list[str] = sorted(tagger.classes, reverse=True)
        column = {tag: i for i, tag in enumerate(self._tags)}
        weights = tagger.model.weights
        self._row: dict[str, int] = {feature: i for i, feature in enumerate(weights)}
        matrix = np.zeros((len(weights), len(self._tags)))
        for i, per_tag in enumerate(weights.values()):
            row = matrix[i]
            for tag, weight in per_tag.items():
                row[column[tag]] = weight
        self._matrix = matrix

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

    def tag(self, tokens: Sequence[str]) -> list[str]:
        """Penn Treebank tags: exactly ``[t for _, t in PerceptronTagger().tag(tokens)]``."""
        context = [*self._START, *map(self._normalise, tokens), *self._END]
        tagdict, row_of, matrix, tags = self._tagdict, self._row.get, self._matrix, self._tags
        prev, prev2 = self._START
        out = []
        for i, word in enumerate(tokens):
            tag = tagdict.get(word)
            if not tag:
                w, before, after = context[i + 2], context[i + 1], context[i + 3]
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
                    "i-2 word " + context[i],
                    "i+1 word " + after,
                    "i+1 suffix " + after[-3:],
                    "i+2 word " + context[i + 4],
                )
                rows = [r for r in map(row_of, features) if r is not None]
                tag = tags[int(matrix[rows].sum(axis=0).argmax())]
            out.append(tag)
            prev2, prev = prev, tag
        return out


_TAGGER: MatrixPerceptronTagger | None = None


def get_tagger() -> MatrixPerceptronTagger:
    """The process-wide tagger, loaded on first use (raises TaggerDataMissingError)."""
    global _TAGGER
    if _TAGGER is None:
        _TAGGER = MatrixPerceptronTagger()
    return _TAGGER
