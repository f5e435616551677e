# Copyright 2026 The BindSplit Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""One sample's outcomes: the checks of its score matrix, I2T and T2I (strict >), with and
without hard positives, and the outcome cell the statistics of ``bindsplit_core.py`` count.

numpy and the standard library only, like the rest of the metric's core. A sample is an
n_images x n_captions matrix ``S[i][j] = sim(image_i, caption_j)``, caption j the correct caption
of image j; a sample with h hard positives (seed 003: captions worded differently that are still
true of image 0) has them in the columns n_images .. n_images + h - 1, before the negatives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Outcome", "checked_hard_positives", "sample_outcome", "sample_outcomes"]

# A sample's outcome is one of six cells: index 3 * i2t_state + t2i_state, with i2t_state
# 0 = wrong, 1 = right and t2i_state 0 = wrong, 1 = right, 2 = absent (fewer than two images).
# Statistics of samples with hard positives have nine: i2t_state 2 = dropped (right with the
# hard positives left out, wrong with them); the six cells are their first six.
_N_CELLS = 6
_N_CELLS_HARD = 9
_ABSENT = 2
_DROPPED = 2


def _as_matrix(matrix: Any) -> np.ndarray:
    """The validated float matrix of one sample; a ValueError says what is wrong with it."""
    try:
        array = np.asarray(matrix, dtype=np.float64)
    except (ValueError, TypeError) as error:
        if isinstance(matrix, Sequence) and all(isinstance(row, Sequence) for row in matrix):
            lengths = [len(row) for row in matrix]
            if len(set(lengths)) > 1:
                raise ValueError(
                    f"the scores matrix is ragged (row lengths {lengths}); every image needs one "
                    "score per caption"
                ) from None
        raise ValueError(f"the scores matrix is not a matrix of numbers ({error})") from None
    if array.ndim != 2:
        raise ValueError(
            f"the scores must be a 2-D n_images x n_captions matrix, got shape {array.shape}"
        )
    _check_shape(*array.shape)
    _check_finite(array)
    return array


def _check_shape(n_images: int, n_captions: int) -> None:
    if n_captions < 2 or not 1 <= n_images <= n_captions:
        raise ValueError(
            f"the scores matrix is {n_images} x {n_captions} (images x captions); it needs at "
            "least two captions and 1 <= n_images <= n_captions, since caption j is the correct "
            "caption of image j (transpose a captions x images matrix)"
        )


def _check_finite(array: np.ndarray) -> None:
    bad = np.argwhere(~np.isfinite(array))
    if len(bad):
        position = [int(i) for i in bad[0]]
        raise ValueError(
            f"the scores matrix holds {array[tuple(bad[0])]} at {position}; every score must be "
            "a finite number"
        )


def _outcomes(stack: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """I2T and T2I outcomes (bool arrays) of a validated stack of equal-shape matrices (N, I, C).

    I2T: every image i scores its caption strictly above every other caption. T2I (``None`` for
    fewer than two images): every caption j < n_images scores its image strictly above every
    other image.
    """
    n_images, n_captions = stack.shape[1:]
    own = np.eye(n_images, n_captions, dtype=bool)
    diagonal = stack[:, own].reshape(len(stack), n_images)
    rivals = np.where(own, -np.inf, stack)
    i2t = (diagonal > rivals.max(axis=2)).all(axis=1)
    if n_images < 2:
        return i2t, None
    t2i = (diagonal > rivals[:, :, :n_images].max(axis=1)).all(axis=1)
    return i2t, t2i


def _hard_positive_outcomes(
    stack: np.ndarray, hard: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(I2T with the hard positives, I2T without them, T2I) of a validated stack (N, I, C) whose
    samples have ``hard`` >= 1 hard positives, the columns I .. I + hard - 1.

    With them, image 0 is right when its caption and every hard positive score strictly above
    every other caption (the other images' captions and the negatives); every other image keeps
    its rule, the hard positives among its rivals. Without them, the hard-positive columns are
    left out and the rule is :func:`_outcomes`'. T2I compares captions j < I only, which the hard
    positives do not change.
    """
    n_images, n_captions = stack.shape[1:]
    original, t2i = _outcomes(np.delete(stack, np.s_[n_images : n_images + hard], axis=2))
    positive = np.zeros(n_captions, dtype=bool)
    positive[0] = True
    positive[n_images : n_images + hard] = True
    first = stack[:, 0, :]
    right = first[:, positive].min(axis=1) > first[:, ~positive].max(axis=1)
    if n_images > 1:
        own = np.eye(n_images, n_captions, dtype=bool)[1:]
        others = stack[:, 1:, :]
        diagonal = others[:, own].reshape(len(stack), n_images - 1)
        rivals = np.where(own, -np.inf, others).max(axis=2)
        right &= (diagonal > rivals).all(axis=1)
    return right, original, t2i


def _check_hard(n_images: int, n_captions: int, hard: int) -> None:
    if n_images + hard > n_captions or hard > n_captions - 2:
        raise ValueError(
            f"a {n_images} x {n_captions} scores matrix cannot hold {hard} hard positive(s): "
            f"they are the caption columns after the {n_images} positive one(s), and at least "
            "one other caption must remain as a rival of image 0 (pass hard_positives=0 for a "
            "sample without hard positives)"
        )


def sample_outcome(matrix: Any, hard_positives: int = 0) -> tuple[bool, bool | None]:
    """(I2T correct, T2I correct) of one n_images x n_captions matrix (strict >: ties are wrong).

    T2I is ``None`` (absent, not wrong) for a sample with one image. Ties are wrong. With
    ``hard_positives`` = h > 0, the h columns after the positives are hard positives of image 0
    and I2T is their rule (image 0's caption and every hard positive above every other caption).
    Raises ValueError for a ragged, wrongly shaped or non-finite matrix.

    >>> sample_outcome([[0.9, 0.1], [0.2, 0.8]])
    (True, True)
    >>> sample_outcome([[0.6, 0.7], [0.1, 0.8]])
    (False, True)
    >>> sample_outcome([[0.3, 0.3]])
    (False, None)
    >>> sample_outcome([[0.9, 0.5, 0.6]]), sample_outcome([[0.9, 0.5, 0.6]], hard_positives=1)
    ((True, None), (False, None))
    """
    array = _as_matrix(matrix)
    if hard_positives:
        (outcome,) = sample_outcomes([array], [hard_positives])
        return outcome.i2t, outcome.t2i
    i2t, t2i = _outcomes(array[None])
    return bool(i2t[0]), None if t2i is None else bool(t2i[0])


@dataclass(frozen=True)
class Outcome:
    """One sample's outcome: ``i2t`` (with its hard positives, if any), ``t2i`` (``None`` for
    one image) and ``i2t_original`` (I2T with the hard-positive columns left out; ``i2t`` for a
    sample without hard positives)."""

    i2t: bool
    t2i: bool | None
    i2t_original: bool


def sample_outcomes(
    scores: Sequence[Any] | np.ndarray, hard_positives: Sequence[int] | None = None
) -> list[Outcome]:
    """The :class:`Outcome` of every sample (vectorised per matrix shape); ``hard_positives``:
    per sample its number of hard positives (``None``: none). ValueErrors name the sample.

    >>> first, second = sample_outcomes([[[0.9, 0.5, 0.6]], [[0.9, 0.7, 0.6]]], [1, 1])
    >>> first  # the hard positive (0.5) loses to the negative (0.6)
    Outcome(i2t=False, t2i=None, i2t_original=True)
    >>> second.i2t, second.i2t_original
    (True, True)
    """
    cells = _sample_cells(scores, checked_hard_positives(hard_positives, len(scores)))
    states, t2i_states = np.divmod(cells, 3)
    return [
        Outcome(
            i2t=bool(state == 1),
            t2i=None if t2i_state == _ABSENT else bool(t2i_state),
            i2t_original=bool(state != 0),
        )
        for state, t2i_state in zip(states.tolist(), t2i_states.tolist(), strict=True)
    ]


def _equal_shape_stacks(scores: Any) -> list[tuple[list[int], np.ndarray]]:
    """Validated samples as (indices, stack of their matrices) per matrix shape.

    ValueErrors name the index of the first bad sample.
    """
    if not isinstance(scores, np.ndarray) and len(scores):
        try:  # one conversion when every matrix has the same shape (the common case)
            whole = np.asarray(scores, dtype=np.float64)
        except (ValueError, TypeError):
            whole = None
        if whole is not None and whole.ndim == 3:
            scores = whole
    if isinstance(scores, np.ndarray) and scores.ndim == 3 and scores.dtype.kind in "fiu":
        stack = scores.astype(np.float64, copy=False)
        if len(stack):
            try:
                _check_shape(*stack.shape[1:])
            except ValueError as error:
                raise ValueError(f"sample 0: {error}") from None
        bad = np.argwhere(~np.isfinite(stack))
        if len(bad):
            index = int(bad[0][0])
            try:
                _check_finite(stack[index])
            except ValueError as error:
                raise ValueError(f"sample {index}: {error}") from None
        return [(list(range(len(stack))), stack)]
    by_shape: dict[tuple[int, ...], tuple[list[int], list[np.ndarray]]] = {}
    for index, matrix in enumerate(scores):
        try:
            array = _as_matrix(matrix)
        except ValueError as error:
            raise ValueError(f"sample {index}: {error}") from None
        indices, arrays = by_shape.setdefault(array.shape, ([], []))
        indices.append(index)
        arrays.append(array)
    return [(indices, np.stack(arrays)) for indices, arrays in by_shape.values()]


def _sample_cells(scores: Any, hard_positives: Sequence[int] | None = None) -> np.ndarray:
    """The outcome cell (0..5; 6..8: I2T dropped by the hard positives) of every sample."""
    cells = np.empty(len(scores), dtype=np.int64)
    for indices, stack in _equal_shape_stacks(scores):
        if hard_positives is None or not any(hard_positives[i] for i in indices):
            cells[indices] = _stack_cells(stack, 0)  # the common case: one call, no copy
            continue
        hard = np.asarray([hard_positives[i] for i in indices], dtype=np.int64)
        for count in np.unique(hard).tolist():
            chosen = np.flatnonzero(hard == count)
            try:
                cells[np.asarray(indices)[chosen]] = _stack_cells(stack[chosen], count)
            except ValueError as error:
                raise ValueError(f"sample {indices[chosen[0]]}: {error}") from None
    return cells


def _outcome_cells(
    i2t: Sequence[Any], t2i: Sequence[Any] | None, i2t_original: Sequence[Any] | None
) -> list[int]:
    """The outcome cell of every sample known by its outcomes (0/1 or booleans: I2T, T2I where
    samples have two images, I2T without the hard positives where they have them), the cell
    :func:`_sample_cells` gives the matrices that had these outcomes. A ValueError names the
    first sample whose outcomes are not 0/1, or that is right with its hard positives and wrong
    without them (no score matrix does that)."""
    n = len(i2t)
    for name, values in (("t2i", t2i), ("i2t_original", i2t_original)):
        if values is not None and len(values) != n:
            raise ValueError(f"got {n} i2t outcomes but {len(values)} {name} outcomes")
    cells = []
    for index in range(n):
        outcomes = [i2t[index]]
        outcomes += [] if t2i is None else [t2i[index]]
        outcomes += [] if i2t_original is None else [i2t_original[index]]
        if not all(isinstance(value, (int, np.integer)) and value in (0, 1) for value in outcomes):
            raise ValueError(f"sample {index}: outcomes must be 0/1 (or booleans), got {outcomes}")
        right = bool(i2t[index])
        original = right if i2t_original is None else bool(i2t_original[index])
        if right and not original:
            raise ValueError(
                f"sample {index}: right with its hard positives (i2t) but wrong without them "
                "(i2t_original); a sample right with them is right without"
            )
        state = 1 if right else (_DROPPED if original else 0)
        cells.append(3 * state + (_ABSENT if t2i is None else int(bool(t2i[index]))))
    return cells


def _stack_cells(stack: np.ndarray, hard: int) -> np.ndarray:
    """The outcome cells of a stack of equal-shape matrices that have ``hard`` hard positives
    each (a ValueError when their shape cannot hold them)."""
    if hard:
        _check_hard(stack.shape[1], stack.shape[2], hard)
        i2t, original, t2i = _hard_positive_outcomes(stack, hard)
        state = np.where(i2t, 1, np.where(original, _DROPPED, 0))
    else:
        i2t, t2i = _outcomes(stack)
        state = i2t.astype(np.int64)
    t2i_state = np.full(len(stack), _ABSENT) if t2i is None else t2i.astype(np.int64)
    return 3 * state + t2i_state


def checked_hard_positives(values: Sequence[Any] | None, n: int) -> list[int] | None:
    """Per-sample counts of hard positives, or None when none were given; a ValueError names the
    first sample whose count is not an integer >= 0 (``True`` or ``1.0`` are refused)."""
    if values is None:
        return None
    if len(values) != n:
        raise ValueError(f"got {n} score matrices but {len(values)} hard_positives counts")
    for index, value in enumerate(values):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise ValueError(
                f"sample {index}: hard_positives must be a count (an integer >= 0: how many "
                f"caption columns after the positives are hard positives), got {value!r}"
            )
        if value < 0:
            raise ValueError(f"sample {index}: hard_positives must be >= 0, got {value!r}")
    return [int(value) for value in values]
