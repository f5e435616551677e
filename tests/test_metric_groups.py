"""Group accuracy for K x K groups (Winoground's text, image and group scores) from the same
metric (docs/protocol.md section 5): against the Winoground paper's definition on hand-made
2 x 2 matrices, against the naive definition for K = 2, 3, 4, and against MIEB's scoring of the
same matrices (``AbsTaskImageTextPairClassification._compute_metrics``, the function MIEB's
Winoground task reports ``text_acc``, ``image_acc`` and ``accuracy`` with), called directly on
score matrices, without a model."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bindsplit_datasets import metric_core

pytestmark = pytest.mark.filterwarnings("error")


def winoground_scores(s: list[list[float]]) -> tuple[bool, bool, bool]:
    """(text, image, group) score of one Winoground example, as the paper writes them with
    f(caption, image) = ``s[image][caption]`` (Thrush et al. 2022, section 3.2):
    text: f(C0, I0) > f(C1, I0) and f(C1, I1) > f(C0, I1);
    image: f(C0, I0) > f(C0, I1) and f(C1, I1) > f(C1, I0); group: both."""

    def f(caption: int, image: int) -> float:
        return s[image][caption]

    text = f(0, 0) > f(1, 0) and f(1, 1) > f(0, 1)
    image = f(0, 0) > f(0, 1) and f(1, 1) > f(1, 0)
    return text, image, text and image


# hand-made 2 x 2 examples, S[i][j] = sim(image i, caption j), with the scores by hand
HAND = [
    ([[0.9, 0.1], [0.2, 0.8]], (True, True, True)),
    ([[0.6, 0.7], [0.1, 0.8]], (False, True, False)),  # image 0 prefers caption 1
    ([[0.9, 0.3], [0.95, 0.99]], (True, False, False)),  # caption 0 prefers image 1
    ([[0.3, 0.9], [0.8, 0.2]], (False, False, False)),  # everything crossed
    ([[0.5, 0.4], [0.6, 0.7]], (True, False, False)),  # caption 0: image 1 (0.6) > image 0
    ([[0.7, 0.6], [0.2, 0.65]], (True, True, True)),  # both rows and columns right, narrowly
    ([[0.8, 0.9], [0.1, 0.95]], (False, True, False)),
    ([[0.5, 0.5], [0.1, 0.9]], (False, True, False)),  # a tie in image 0's row: text wrong
    ([[0.5, 0.1], [0.5, 0.9]], (True, False, False)),  # a tie in caption 0's column
    ([[0.5, 0.5], [0.5, 0.5]], (False, False, False)),
]


@pytest.mark.parametrize(("matrix", "expected"), HAND)
def test_two_by_two_equals_the_winoground_definition(matrix, expected):
    assert winoground_scores(matrix) == expected  # the hand-written scores are the paper's
    i2t, t2i = metric_core.sample_outcome(matrix)
    assert (i2t, t2i, i2t and t2i) == expected


def test_text_image_and_group_accuracy_of_the_hand_made_examples():
    results = metric_core.compute_metrics(
        metric_core.accumulate([m for m, _ in HAND], ["seen"] * len(HAND)), n_bootstrap=0
    )
    n = len(HAND)
    assert results["seen/n"] == n
    assert results["seen/i2t"] == sum(e[0] for _, e in HAND) / n == 5 / 10  # text score
    assert results["seen/t2i"] == sum(e[1] for _, e in HAND) / n == 5 / 10  # image score
    assert results["seen/group"] == sum(e[2] for _, e in HAND) / n == 2 / 10  # group score


def naive_group(matrix: np.ndarray) -> tuple[bool, bool, bool]:
    """K x K: text (every image scores its caption above each other caption), image (every
    caption scores its image above each other image) and group (both), by plain loops."""
    k = len(matrix)
    text = all(matrix[i][i] > matrix[i][j] for i in range(k) for j in range(k) if j != i)
    image = all(matrix[j][j] > matrix[i][j] for j in range(k) for i in range(k) if i != j)
    return text, image, text and image


@pytest.mark.parametrize(("k", "tied"), list(itertools.product((2, 3, 4), (False, True))))
def test_k_by_k_groups_equal_the_naive_definition(k, tied):
    rng = np.random.default_rng(10 * k + tied)
    n = 400
    scores = rng.integers(0, 3, size=(n, k, k)) if tied else rng.normal(size=(n, k, k))
    scores = scores + 1.5 * np.eye(k) * rng.random((n, 1, 1))  # many right, many wrong
    expected = [naive_group(matrix) for matrix in scores]
    outcomes = metric_core.sample_outcomes(scores)
    assert [(o.i2t, o.t2i, o.i2t and o.t2i) for o in outcomes] == expected
    results = metric_core.compute_metrics(
        metric_core.accumulate(scores, ["seen"] * n), n_bootstrap=0
    )
    for index, metric in enumerate(("i2t", "t2i", "group")):
        assert results[f"seen/{metric}"] == pytest.approx(sum(e[index] for e in expected) / n)
    assert 0 < results["seen/group"] < 1  # the draw exercises both outcomes


def _mieb_scores(matrices: list[np.ndarray]) -> dict[str, float]:
    """MIEB's text, image and group accuracy of K x K score matrices: the scoring step of its
    image-text pair classification tasks (Winoground's), called on the matrices directly."""
    mteb = pytest.importorskip("mteb")
    torch = pytest.importorskip("torch")
    task = mteb.get_task("Winoground")  # metadata only: no data, no model
    k = len(matrices[0])
    tensors = [torch.tensor(np.asarray(m), dtype=torch.float64) for m in matrices]
    return dict(task._compute_metrics(tensors, k, k))


@pytest.mark.slow  # imports mteb and torch
def test_mieb_scores_the_same_matrices_the_same():
    # MIEB: text_acc (every image's argmax caption is its own), image_acc (every caption's
    # argmax image is its own), accuracy (both), on the hand-made matrices without ties
    untied = [(m, e) for m, e in HAND if len({v for row in m for v in row}) == 4]
    assert len(untied) == 7
    mieb = _mieb_scores([np.asarray(m) for m, _ in untied])
    ours = metric_core.compute_metrics(
        metric_core.accumulate([m for m, _ in untied], ["seen"] * len(untied)), n_bootstrap=0
    )
    assert mieb["text_acc"] == pytest.approx(ours["seen/i2t"])
    assert mieb["image_acc"] == pytest.approx(ours["seen/t2i"])
    assert mieb["accuracy"] == pytest.approx(ours["seen/group"])
    # K = 2, 3, 4 on continuous scores (no ties), sample by sample
    rng = np.random.default_rng(3)
    for k in (2, 3, 4):
        matrices = list(rng.normal(size=(60, k, k)) + 1.5 * np.eye(k) * rng.random((60, 1, 1)))
        outcomes = metric_core.sample_outcomes(matrices)
        for matrix, outcome in zip(matrices, outcomes, strict=True):
            one = _mieb_scores([matrix])
            assert (one["text_acc"], one["image_acc"], one["accuracy"]) == (
                float(outcome.i2t),
                float(bool(outcome.t2i)),
                float(outcome.i2t and bool(outcome.t2i)),
            ), matrix


@pytest.mark.slow  # imports mteb and torch
def test_mieb_gives_a_tie_to_the_first_index_where_bindsplit_counts_it_wrong():
    """The one difference: MIEB's argmax returns the first of tied maxima, so a tie between
    image 0's caption and another counts as right there; BindSplit (and the Winoground paper's
    strict >) counts it wrong."""
    tie = [[0.5, 0.5], [0.1, 0.9]]
    assert _mieb_scores([np.asarray(tie)])["text_acc"] == 1.0
    assert metric_core.sample_outcome(tie) == (False, True)
    assert winoground_scores(tie)[0] is False
