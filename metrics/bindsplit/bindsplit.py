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
"""BindSplit metric: image-text matching accuracy per seen/unseen binding split, with intervals.

The evaluate face of the metric. Everything it computes comes from ``bindsplit_core.py``,
``bindsplit_outcomes.py``, ``bindsplit_bootstrap.py`` and ``bindsplit_intervals.py`` (numpy and
the standard library only), the sibling modules that ``evaluate.load`` copies along with this
script (it copies the ones this script imports relatively, so it imports from each); this module
only declares the inputs (per configuration) and documents them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import datasets
import evaluate

from .bindsplit_bootstrap import compute_metrics
from .bindsplit_core import PAPER_CITATION, Result, accumulate, checked_flags
from .bindsplit_halftruth import halftruth_metrics
from .bindsplit_intervals import DEFAULT_INTERVAL_METHOD
from .bindsplit_outcomes import checked_hard_positives

__all__ = ["MODES", "OPTIONAL_INPUTS", "Bindsplit", "config_inputs"]

HOMEPAGE = "https://github.com/bindsplit/bindsplit"
CODEBASE = "https://github.com/bindsplit/bindsplit/tree/main/metrics/bindsplit"

_DESCRIPTION = """\
BindSplit scores image-text matching on compositional benchmarks (ARO VG-Attribution, BiVLC,
VisMin, ...) separately for samples whose (attribute, object) bindings (or, for a relation build,
(subject, relation, object) triples) a model has seen in its training captions and for samples
whose bindings are novel. Each sample is a similarity matrix
S[i][j] = sim(image_i, caption_j) in which caption j is the correct caption of image j (for a
1 x 2 sample, caption 0 is the true caption), plus its BindSplit label (seen / unseen / partial /
none) and optionally its `balanced` flag. Reported per configuration full / seen / unseen /
partial (and balanced): I2T accuracy (Winoground text score), T2I accuracy (image score) and group
accuracy where every sample has at least two images, the number of samples, intervals valid at
any n (Wilson score by default), and the seen-minus-unseen and seen-minus-partial gaps with
Newcombe's interval. A tie is wrong (strict >). Samples may carry hard positives (captions worded
differently that are still true of image 0): I2T then requires the positive and every hard
positive above every negative, and the original I2T (hard positives left out) and the drop
between the two are reported beside it.
"""

_KWARGS_DESCRIPTION = """
Computes BindSplit accuracies per binding split.
Args:
    scores (`list` of `list` of `list` of `float`): per sample an n_images x n_captions matrix,
        scores[i][j] = sim(image_i, caption_j), caption j the correct caption of image j. Needs
        at least two captions and 1 <= n_images <= n_captions; all values finite.
    split (`list` of `str`): per sample its `bindsplit_label`: "seen", "unseen", "partial" or
        "none" ("none" samples count in `full` only).
    category (`list` of `str`, configurations naming "category"): per sample a category for the
        breakdown, e.g. BiVLC "swap/att" (type/subtype) or a VisMin category; "" or None leaves a
        sample out of the breakdown.
    macro_group (`list` of `str`, configurations naming "macro_group"): per sample a group for a
        macro average, e.g. ARO's attribute pair "brown|white"; "" or None leaves a sample out of
        the macro average.
    balanced (`list` of `bool`, configurations naming "balanced"): per sample the dataset's
        `balanced` flag (every caption equally familiar, above zero); adds the `balanced`
        configuration.
    hard_positives (`list` of `int`, configurations naming "hard_positives"): per sample its
        number h >= 0 of hard positives, the caption columns n_images .. n_images + h - 1 (after
        the positives, before the negatives: a build's `columns.hard_positive`). Where a sample
        has h > 0, I2T counts it right only if its image 0 scores caption 0 and every hard
        positive strictly above every other caption (images i >= 1 keep their rule, the hard
        positives among their rivals), and `i2t_original` and `i2t_drop` are reported.
        The configuration name, the second argument of `evaluate.load`, declares the optional
        inputs: "default" (none), or any of "category", "macro_group", "balanced",
        "hard_positives" joined by "+", e.g. "category+balanced". In a single `compute` call
        the default configuration also takes them as compute arguments; with `add`/`add_batch`
        or several processes, load the configuration that declares them so that they are
        stored with each sample.
    interval_method (`str`, default "wilson"): the accuracies' intervals: "wilson" (Wilson score)
        or "clopper-pearson" (exact), the gaps then getting Newcombe's hybrid score interval; or
        "bootstrap" (percentile bootstrap of accuracies and gaps alike).
    n_bootstrap (`int`, default 1000): bootstrap resamples per bootstrap interval (the macro
        averages', and every interval's with interval_method "bootstrap"); 0: none.
    confidence (`float`, default 0.95): the level of every interval.
    seed (`int`, default 0): seed of the bootstrap; equal inputs give equal intervals.
    macro_min_samples (`int`, default 25): groups with fewer samples stay out of the macro
        average (ARO's headline macro accuracy uses attribute pairs with at least 25 samples).
    A configuration naming "halftruth" (e.g. "halftruth+category") also reports the half-truth
        metrics of a half-truth build's samples (seed 004): each `scores` a 1 x 3 matrix
        [s(I, anchor), s(I, refinement), s(I, half-truth)], `split` the foil's familiarity,
        `category` "{kind}/{edit}" ("entity/attribute", "relation/swap"); see
        `bindsplit_halftruth.py`.
Returns:
    One flat dict. For each configuration `{config}` in full, seen, unseen, partial, and balanced
    when balanced flags were given:
    `{config}/n` (int); `{config}/i2t`, `{config}/t2i`, `{config}/group`: accuracies in [0, 1],
    T2I and group only where every sample of the configuration has at least two images (absent,
    never 0, otherwise); `{config}/{metric}_ci`: [low, high] interval. An empty
    configuration reports only `{config}/n` = 0.
    `gap/{metric}` and `gap/{metric}_ci`: seen minus unseen, for every metric both report;
    `gap_partial/{metric}` and `gap_partial/{metric}_ci`: seen minus partial (the samples are
    disjoint, so the difference is of independent proportions).
    With hard positives (some sample has h > 0), beside every `i2t` (configurations,
    categories, macro averages, gaps): `i2t_original` (I2T with the hard-positive captions left
    out: the benchmark's own score) and `i2t_drop` = `i2t_original - i2t` (the share of samples
    right without the hard positives and wrong with them), each with `_ci`; the setting
    `drop_interval_method` says how the drop's interval was made (the drop is a proportion of
    samples: the accuracies' method, Wilson by default).
    The settings: `interval_method` ("wilson", "clopper-pearson" or "bootstrap-percentile"),
    `gap_interval_method` ("newcombe" or "bootstrap-percentile"), `macro_interval_method`
    (with macro groups: "bootstrap-percentile"), `confidence`, `n_bootstrap`, `seed`.
    With categories: `{config}/category/{category}/n`, `.../{metric}`, `.../{metric}_ci` for
    every category given (n = 0 where a configuration has none of it).
    With macro groups: `{config}/macro_n_groups` and `{config}/macro_n` (groups with at least
    `macro_min_samples` samples, and their samples), `{config}/macro_{metric}` (unweighted mean
    over those groups) and `{config}/macro_{metric}_ci` (each group resampled within itself).
    With "halftruth": for full, seen and unseen, `{config}/acc_ht` (half-truth accuracy,
    s(I, anchor) > s(I, half-truth)), `{config}/delta` (mean of s(I, anchor) - s(I, half-truth)),
    `{config}/ref_acc` (s(I, refinement) > s(I, half-truth)), each with `_ci` (Wilson; Student t
    for delta), also per `kind/{kind}` and `category/{kind}/{edit}`, and their seen-minus-unseen
    gaps `gap/...` (Newcombe; Welch t for delta); the methods under `halftruth_interval_method`,
    `halftruth_gap_interval_method`, `delta_interval_method`, `delta_gap_interval_method`.
Examples:

    `evaluate.load("bindsplit")` loads the metric once the bindsplit-datasets package is
    installed and `bindsplit install-metric` has run (`make install` runs it); without the
    package, `evaluate.load("bindsplit/bindsplit")` loads the published Space.

    Two 2 x 2 samples (BiVLC, VisMin) labelled seen and two 1 x 2 samples (ARO) labelled unseen:

    >>> import evaluate
    >>> bindsplit = evaluate.load("bindsplit")
    >>> results = bindsplit.compute(
    ...     scores=[
    ...         [[0.9, 0.1], [0.2, 0.8]],  # both images and both captions right
    ...         [[0.6, 0.7], [0.1, 0.8]],  # image 0 prefers caption 1: I2T wrong, T2I right
    ...         [[0.5, 0.5]],  # a tie is wrong
    ...         [[0.4, 0.6]],
    ...     ],
    ...     split=["seen", "seen", "unseen", "unseen"],
    ...     n_bootstrap=200,
    ... )
    >>> results["full/n"], results["full/i2t"], "full/t2i" in results
    (4, 0.25, False)
    >>> results["seen/i2t"], results["seen/t2i"], results["seen/group"]
    (0.5, 1.0, 0.5)
    >>> results["unseen/i2t"], results["gap/i2t"], results["partial/n"]
    (0.0, 0.5, 0)
    >>> low, high = results["seen/i2t_ci"]
    >>> 0.0 <= low <= results["seen/i2t"] <= high <= 1.0
    True
    >>> results["interval_method"], results["gap_interval_method"], results["confidence"]
    ('wilson', 'newcombe', 0.95)

    A breakdown per category needs the "category" configuration:

    >>> by_type = evaluate.load("bindsplit", "category")
    >>> results = by_type.compute(
    ...     scores=[[[0.9, 0.1], [0.2, 0.8]], [[0.6, 0.7], [0.1, 0.8]]],
    ...     split=["seen", "partial"],
    ...     category=["swap/att", "replace/obj"],
    ...     n_bootstrap=0,
    ... )
    >>> results["full/category/swap/att/group"], results["full/category/replace/obj/group"]
    (1.0, 0.0)
    >>> results["seen/category/replace/obj/n"]
    0

    The balanced configuration needs the "balanced" configuration (or a compute argument):

    >>> with_balanced = evaluate.load("bindsplit", "balanced")
    >>> results = with_balanced.compute(
    ...     scores=[[[0.9, 0.1]], [[0.6, 0.7]], [[0.2, 0.1]]],
    ...     split=["seen", "partial", "partial"],
    ...     balanced=[True, True, False],
    ...     n_bootstrap=0,
    ... )
    >>> results["balanced/n"], results["balanced/i2t"], results["partial/i2t"]
    (2, 0.5, 0.5)

    Hard positives (SugarCrepe++: caption 1 true of the image too, caption 2 the negative):

    >>> with_hard = evaluate.load("bindsplit", "hard_positives")
    >>> results = with_hard.compute(
    ...     scores=[[[0.9, 0.7, 0.6]], [[0.9, 0.5, 0.6]]],  # the second: hard positive < negative
    ...     split=["seen", "seen"],
    ...     hard_positives=[1, 1],
    ...     n_bootstrap=0,
    ... )
    >>> results["seen/i2t"], results["seen/i2t_original"], results["seen/i2t_drop"]
    (0.5, 1.0, 0.5)

    Half-truths need the "halftruth" configuration (with "category" for the breakdowns):

    >>> halftruths = evaluate.load("bindsplit", "halftruth+category")
    >>> results = halftruths.compute(
    ...     scores=[[[0.3, 0.4, 0.2]], [[0.3, 0.2, 0.5]], [[0.5, 0.6, 0.5]]],
    ...     split=["seen", "unseen", "unseen"],
    ...     category=["entity/attribute", "relation/swap", "relation/swap"],
    ...     n_bootstrap=0,
    ... )
    >>> round(results["full/acc_ht"], 4), round(results["full/delta"], 4), results["gap/acc_ht"]
    (0.3333, -0.0333, 1.0)
    >>> results["unseen/kind/relation/n"], results["unseen/kind/relation/ref_acc"]
    (2, 0.5)
"""

OPTIONAL_INPUTS: dict[str, datasets.Value] = {
    "category": datasets.Value("string"),
    "macro_group": datasets.Value("string"),
    "balanced": datasets.Value("bool"),
    "hard_positives": datasets.Value("int32"),
}
"""Inputs a configuration may add to ``scores`` and ``split``, with their types. evaluate requires
every declared input on every call, so the optional ones are chosen by the configuration name."""

MODES: tuple[str, ...] = ("halftruth",)
"""Configuration name parts that add results, not inputs: "halftruth" adds the half-truth metrics
(``bindsplit_halftruth.py``)."""


def config_inputs(config_name: str) -> tuple[str, ...]:
    """The optional inputs of a configuration name: "default" -> (), "category+balanced" ->
    ("category", "balanced"), "halftruth+category" -> ("category",); a ValueError lists the
    valid names."""
    if config_name == "default":
        return ()
    names = tuple(config_name.split("+"))
    valid = (*OPTIONAL_INPUTS, *MODES)
    if any(name not in valid for name in names) or len(set(names)) != len(names):
        raise ValueError(
            f"unknown configuration {config_name!r} of the bindsplit metric; valid: 'default', "
            f"or any of {', '.join(valid)} joined by '+' (e.g. 'category+balanced'), naming the "
            "optional inputs it takes and the results it adds"
        )
    return tuple(name for name in names if name in OPTIONAL_INPUTS)


def _features(config_name: str) -> datasets.Features:
    features = {
        "scores": datasets.Sequence(datasets.Sequence(datasets.Value("float64"))),
        "split": datasets.Value("string"),
    }
    features.update({name: OPTIONAL_INPUTS[name] for name in config_inputs(config_name)})
    return datasets.Features(features)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Bindsplit(evaluate.Metric):
    """Seen/unseen binding-split accuracies (I2T, T2I, group) with intervals valid at any n.

    Configurations (``evaluate.load(path, config_name)``): "default" takes ``scores`` and
    ``split``; a name such as "category", "macro_group+balanced" or
    "category+macro_group+balanced" also takes those inputs.
    """

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=PAPER_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_features(self.config_name),
            homepage=HOMEPAGE,
            codebase_urls=[CODEBASE],
            reference_urls=[
                "https://openreview.net/forum?id=C8MlQkr4bw",
                "https://arxiv.org/abs/2204.03162",
            ],
        )

    def add_batch(self, *, predictions=None, references=None, **kwargs) -> None:
        """Add a batch of samples (all inputs of the configuration, one entry per sample)."""
        self._require_inputs(kwargs)
        super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs) -> None:
        """Add one sample (all inputs of the configuration)."""
        self._require_inputs(kwargs, batch=False)
        super().add(prediction=prediction, reference=reference, **kwargs)

    def _require_inputs(self, inputs: Mapping[str, Any], *, batch: bool = True) -> None:
        """A clear error for a declared input left out (evaluate would fail on ``len(None)``),
        for ``balanced`` flags that are not booleans (evaluate would cast ``"no"`` to True) and
        for ``hard_positives`` that are not counts (evaluate would cast ``True`` to 1)."""
        missing = [name for name in self._feature_names() if inputs.get(name) is None]
        if missing:
            raise ValueError(
                f"the bindsplit metric's {self.config_name!r} configuration needs the inputs "
                f"{', '.join(self._feature_names())}; missing: {', '.join(missing)}. Load the "
                "configuration that declares only the inputs you have (default: scores, split)"
            )
        flags = inputs.get("balanced")
        if flags is not None:
            flags = list(flags) if batch else [flags]
            checked_flags(flags, len(flags))
        counts = inputs.get("hard_positives")
        if counts is not None:
            counts = list(counts) if batch else [counts]
            checked_hard_positives(counts, len(counts))

    def _compute(
        self,
        scores: Sequence[Any],
        split: Sequence[str],
        category: Sequence[str | None] | None = None,
        macro_group: Sequence[str | None] | None = None,
        balanced: Sequence[bool] | None = None,
        hard_positives: Sequence[int] | None = None,
        n_bootstrap: int = 1000,
        confidence: float = 0.95,
        seed: int = 0,
        macro_min_samples: int = 25,
        interval_method: str = DEFAULT_INTERVAL_METHOD,
    ) -> dict[str, Result]:
        stats = accumulate(
            scores, split, category, macro_group, balanced=balanced, hard_positives=hard_positives
        )
        results = compute_metrics(
            stats,
            n_bootstrap=n_bootstrap,
            confidence=confidence,
            seed=seed,
            macro_min_samples=macro_min_samples,
            interval_method=interval_method,
        )
        if "halftruth" in self.config_name.split("+"):
            results.update(halftruth_metrics(scores, split, category, confidence=confidence))
        return results
