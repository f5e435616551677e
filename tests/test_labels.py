"""Split labelling: every label, familiarity, asymmetry and composition figure, computed by hand."""

from __future__ import annotations

from dataclasses import dataclass, field

import datasets
import pytest

from bindsplit_datasets.builds.features import ANNOTATION_COLUMNS, ANNOTATION_FEATURES
from bindsplit_datasets.labels import (
    AnnotatedBinding,
    SampleAnnotation,
    annotate_sample,
    composition,
    config_includes,
    is_balanced,
    split_label,
)
from bindsplit_datasets.names import CONFIGURATIONS, SPLIT_LABELS, label_name
from bindsplit_datasets.parsing import Binding

RED_APPLE = Binding("red", "apple")  # count 5
BLUE_MUG = Binding("blue", "mug")  # count 2
CERAMIC_MUG = Binding("ceramic", "mug")  # count 1
RED_MUG = Binding("red", "mug")  # count 0
BLUE_APPLE = Binding("blue", "apple")  # count 0
PURPLE_BANANA = Binding("purple", "banana")  # count 0
STRIPED_CAT = Binding("striped", "cat")  # count 0


@dataclass
class Counts:
    """A minimal reference: anything with ``count(b)`` and ``min_count`` can label samples."""

    min_count: int = 1
    counts: dict[Binding, int] = field(
        default_factory=lambda: {RED_APPLE: 5, BLUE_MUG: 2, CERAMIC_MUG: 1}
    )

    def count(self, binding: Binding) -> int:
        return self.counts.get(binding, 0)


INDEX = Counts()


def test_seen_label_every_binding_seen():
    ann = annotate_sample([[RED_APPLE, BLUE_MUG], [BLUE_MUG, RED_APPLE]], INDEX)
    assert ann.label == "seen"
    assert ann.caption_familiarity == (1.0, 1.0)
    assert ann.asymmetric is False
    assert ann.caption_bindings == (
        (AnnotatedBinding("red", "apple", 5, True), AnnotatedBinding("blue", "mug", 2, True)),
        (AnnotatedBinding("blue", "mug", 2, True), AnnotatedBinding("red", "apple", 5, True)),
    )


def test_unseen_label_no_binding_seen():
    ann = annotate_sample([[PURPLE_BANANA], [STRIPED_CAT]], INDEX)
    assert ann.label == "unseen"
    assert ann.caption_familiarity == (0.0, 0.0)
    assert ann.asymmetric is False
    assert ann.caption_bindings[1] == (AnnotatedBinding("striped", "cat", 0, False),)


def test_partial_label_attribute_swap_is_asymmetric():
    # "a red apple and a blue mug" vs the swapped "a blue apple and a red mug"
    ann = annotate_sample([[RED_APPLE, BLUE_MUG], [BLUE_APPLE, RED_MUG]], INDEX)
    assert ann.label == "partial"
    assert ann.caption_familiarity == (1.0, 0.0)
    assert ann.asymmetric is True


def test_none_label_without_bindings():
    ann = annotate_sample([[], []], INDEX)
    assert ann.label == "none"
    assert ann.caption_familiarity == (None, None)
    assert ann.asymmetric is False
    assert ann.caption_bindings == ((), ())


def test_caption_without_bindings_has_no_familiarity_and_no_asymmetry():
    # B = {red apple}, all seen -> "seen"; the positive has no bindings, so no familiarity cue
    ann = annotate_sample([[], [RED_APPLE]], INDEX)
    assert ann.label == "seen"
    assert ann.caption_familiarity == (None, 1.0)
    assert ann.asymmetric is False
    # a negative without bindings is ignored, the other negative still decides
    assert annotate_sample([[RED_APPLE], [], [PURPLE_BANANA]], INDEX).asymmetric is True
    assert annotate_sample([[RED_APPLE], []], INDEX).asymmetric is False


def test_fractional_familiarity_and_asymmetry_against_any_negative():
    positive = [RED_APPLE, PURPLE_BANANA, BLUE_MUG]  # 2 of 3 seen
    same = [BLUE_MUG, STRIPED_CAT, RED_APPLE]  # 2 of 3 seen
    half = [RED_APPLE, PURPLE_BANANA]  # 1 of 2 seen
    symmetric = annotate_sample([positive, same], INDEX)
    assert symmetric.caption_familiarity == (2 / 3, 2 / 3)
    assert symmetric.asymmetric is False
    assert symmetric.label == "partial"
    asymmetric = annotate_sample([positive, same, half], INDEX)
    assert asymmetric.caption_familiarity == (2 / 3, 2 / 3, 0.5)
    assert asymmetric.asymmetric is True


def test_equal_fractions_with_different_denominators_are_symmetric():
    ann = annotate_sample(
        [[RED_APPLE, PURPLE_BANANA], [RED_APPLE, BLUE_MUG, STRIPED_CAT, BLUE_APPLE]], INDEX
    )
    assert ann.caption_familiarity == (0.5, 0.5)
    assert ann.asymmetric is False


def test_single_caption_sample_is_never_asymmetric():
    ann = annotate_sample([[RED_APPLE, PURPLE_BANANA]], INDEX)
    assert (ann.label, ann.caption_familiarity, ann.asymmetric) == ("partial", (0.5,), False)


def test_min_count_threshold():
    strict = Counts(min_count=2)
    ann = annotate_sample([[CERAMIC_MUG, BLUE_MUG]], strict)
    assert ann.caption_bindings[0] == (
        AnnotatedBinding("ceramic", "mug", 1, False),
        AnnotatedBinding("blue", "mug", 2, True),
    )
    assert ann.label == "partial"
    assert annotate_sample([[CERAMIC_MUG]], strict).label == "unseen"
    assert annotate_sample([[CERAMIC_MUG]], INDEX).label == "seen"


def test_repeated_binding_in_a_caption_counts_once():
    ann = annotate_sample([[RED_APPLE, PURPLE_BANANA, RED_APPLE]], INDEX)
    assert len(ann.caption_bindings[0]) == 2
    assert ann.caption_familiarity == (0.5,)


def test_split_label_from_flags():
    assert [split_label(f) for f in ([], [True, True], [False], [True, False])] == [
        "none",
        "seen",
        "unseen",
        "partial",
    ]


def test_config_includes():
    none = annotate_sample([[], []], INDEX)
    partial = annotate_sample([[RED_APPLE], [PURPLE_BANANA]], INDEX)
    even = annotate_sample([[RED_APPLE, PURPLE_BANANA], [BLUE_MUG, STRIPED_CAT]], INDEX)
    seen = annotate_sample([[RED_APPLE], []], INDEX)
    assert [c for c in CONFIGURATIONS if config_includes(c, none)] == ["full"]
    assert [c for c in CONFIGURATIONS if config_includes(c, partial)] == ["full", "partial"]
    assert [c for c in CONFIGURATIONS if config_includes(c, even)] == [
        "full",
        "partial",
        "balanced",
    ]
    assert [c for c in CONFIGURATIONS if config_includes(c, seen.to_row())] == [
        "full",
        "seen",
        "balanced",
    ]
    with pytest.raises(ValueError, match="unknown configuration 'all'.*partial, balanced"):
        config_includes("all", seen)


@pytest.mark.parametrize(
    ("captions", "balanced"),
    [
        ([[RED_APPLE, BLUE_MUG], [BLUE_MUG, RED_APPLE]], True),  # seen: 1 and 1
        ([[RED_APPLE, PURPLE_BANANA], [BLUE_MUG, STRIPED_CAT, CERAMIC_MUG, RED_MUG]], True),
        ([[RED_APPLE], [], [BLUE_MUG]], True),  # a caption without bindings has no say
        ([[], [RED_APPLE]], True),  # seen although the positive has no bindings
        ([[PURPLE_BANANA], [STRIPED_CAT]], False),  # equal, but zero: unseen
        ([[RED_APPLE, BLUE_MUG], [BLUE_APPLE, RED_MUG]], False),  # 1 vs 0
        ([[RED_APPLE], [RED_APPLE, PURPLE_BANANA]], False),  # 1 vs 1/2
        ([[], []], False),  # none
    ],
)
def test_balanced_means_equal_familiarity_above_zero(captions, balanced):
    ann = annotate_sample(captions, INDEX)
    assert ann.balanced is balanced
    assert ann.to_row()["balanced"] is balanced
    assert is_balanced(ann.caption_familiarity) is balanced


def test_seen_is_within_balanced_and_unseen_outside_it():
    pool = [RED_APPLE, BLUE_MUG, CERAMIC_MUG, RED_MUG, BLUE_APPLE, PURPLE_BANANA, STRIPED_CAT]
    samples = [
        annotate_sample([pool[i : i + a], pool[j : j + b]], INDEX)
        for i in range(len(pool))
        for j in range(len(pool))
        for a in range(3)
        for b in range(3)
    ]
    assert {s.label for s in samples} == set(SPLIT_LABELS)
    assert all(s.balanced for s in samples if s.label == "seen")
    assert not any(s.balanced for s in samples if s.label in ("unseen", "none"))
    assert any(s.balanced for s in samples if s.label == "partial")
    assert not any(s.balanced and s.asymmetric for s in samples)


def test_to_row_has_exactly_the_annotation_columns_and_encodes():
    ann = annotate_sample([[RED_APPLE], [RED_MUG], []], INDEX)
    row = ann.to_row()
    assert tuple(row) == ANNOTATION_COLUMNS
    assert row == {
        "caption_bindings": [
            [{"attribute": "red", "object": "apple", "count": 5, "seen": True}],
            [{"attribute": "red", "object": "mug", "count": 0, "seen": False}],
            [],
        ],
        "caption_familiarity": [1.0, 0.0, None],
        "asymmetric": True,
        "balanced": False,
        "bindsplit_label": "partial",
    }
    table = datasets.Dataset.from_list([row], features=ANNOTATION_FEATURES)
    assert table[0] == row | {"bindsplit_label": 2}  # stored as the ClassLabel's index
    assert label_name(table[0]["bindsplit_label"]) == "partial"


def _hand_samples() -> list[SampleAnnotation]:
    return [
        annotate_sample([[RED_APPLE, BLUE_MUG], [BLUE_MUG, RED_APPLE]], INDEX),  # seen
        annotate_sample([[PURPLE_BANANA], [STRIPED_CAT]], INDEX),  # unseen
        annotate_sample([[RED_APPLE, BLUE_MUG], [BLUE_APPLE, RED_MUG]], INDEX),  # partial, asym
        annotate_sample([[], []], INDEX),  # none
        annotate_sample([[], [RED_APPLE]], INDEX),  # seen
    ]


EXPECTED_COMPOSITION = {
    "n": 5,
    "counts": {"seen": 2, "unseen": 1, "partial": 1, "none": 1},
    "shares": {"seen": 0.4, "unseen": 0.2, "partial": 0.2, "none": 0.2},
    # positive bindings: 2 + 1 + 2 + 0 + 0 = 5, seen 2 + 0 + 2 = 4
    "positive_seen_rate": 0.8,
    # negative bindings: 2 + 1 + 2 + 0 + 1 = 6, seen 2 + 0 + 0 + 0 + 1 = 3
    "negative_seen_rate": 0.5,
    # positive captions with bindings: samples 1, 2, 3; with a seen binding: 1, 3
    "positive_caption_seen_rate": 2 / 3,
    # negative captions with bindings: samples 1, 2, 3, 5; with a seen binding: 1, 5
    "negative_caption_seen_rate": 0.5,
    "n_positive_bindings": 5,
    "n_negative_bindings": 6,
    "n_positive_captions": 3,
    "n_negative_captions": 4,
    "asymmetric_share": 0.2,
    # samples 1 (1 and 1) and 5 (None and 1)
    "balanced_count": 2,
    "balanced_share": 0.4,
    # all but the `none` sample; one of those four is unseen
    "n_with_bindings": 4,
    "unseen_share_with_bindings": 0.25,
}


def test_composition_hand_computed():
    stats = composition(_hand_samples())
    assert stats.to_dict() == EXPECTED_COMPOSITION
    assert (stats.n_positive_bindings, stats.n_negative_bindings) == (5, 6)
    assert stats.by_category == {}


def test_composition_by_category_equals_the_composition_of_each_category():
    samples = _hand_samples()
    categories = ["swap", "add", "swap", None, "add"]
    stats = composition(samples, categories)
    assert {k: v for k, v in stats.to_dict().items() if k != "by_category"} == (
        EXPECTED_COMPOSITION
    )
    assert sorted(stats.by_category) == ["add", "swap"]  # a sample without category is left out
    for name, by in stats.by_category.items():
        naive = composition([s for s, c in zip(samples, categories, strict=True) if c == name])
        assert by == naive
    assert stats.to_dict()["by_category"]["swap"]["counts"] == {
        "seen": 1,
        "unseen": 0,
        "partial": 1,
        "none": 0,
    }
    assert stats.to_dict()["by_category"]["add"]["balanced_count"] == 1
    with pytest.raises(ValueError, match="fewer categories than samples"):
        composition(samples, categories[:-1])
    with pytest.raises(ValueError, match="more categories than samples"):
        composition(samples, [*categories, "extra"])


def test_composition_from_rows_and_dataset_rows_matches():
    samples = _hand_samples()
    rows = [s.to_row() for s in samples]
    assert composition(rows).to_dict() == EXPECTED_COMPOSITION
    table = datasets.Dataset.from_list(rows, features=ANNOTATION_FEATURES)
    assert composition(table).to_dict() == EXPECTED_COMPOSITION
    mixed = samples[:2] + rows[2:]
    assert composition(mixed).to_dict() == EXPECTED_COMPOSITION


def test_composition_of_nothing_has_no_rates():
    assert composition([]).to_dict() == {
        "n": 0,
        "counts": dict.fromkeys(SPLIT_LABELS, 0),
        "shares": dict.fromkeys(SPLIT_LABELS),
        "positive_seen_rate": None,
        "negative_seen_rate": None,
        "positive_caption_seen_rate": None,
        "negative_caption_seen_rate": None,
        "n_positive_bindings": 0,
        "n_negative_bindings": 0,
        "n_positive_captions": 0,
        "n_negative_captions": 0,
        "asymmetric_share": None,
        "balanced_count": 0,
        "balanced_share": None,
        "n_with_bindings": 0,
        "unseen_share_with_bindings": None,
    }


def test_composition_rejects_bad_rows():
    with pytest.raises(ValueError, match="lacks the column 'asymmetric'"):
        composition([{"bindsplit_label": "seen", "caption_bindings": []}])
    row = _hand_samples()[0].to_row() | {"bindsplit_label": "familiar"}
    with pytest.raises(ValueError, match="unknown label 'familiar'"):
        composition([row])


# ------------------------------------------------------------------------ hard positives
def test_hard_positives_are_positive_captions_for_asymmetry():
    # captions: positive (seen), hard positive (unseen), negative (unseen)
    captions = [[RED_APPLE], [PURPLE_BANANA], [STRIPED_CAT]]
    plain = annotate_sample(captions, INDEX)
    with_hard = annotate_sample(captions, INDEX, positive_captions=(0, 1))
    # the label and familiarities do not depend on the roles
    assert plain.label == with_hard.label == "partial"
    assert plain.caption_familiarity == with_hard.caption_familiarity == (1.0, 0.0, 0.0)
    assert plain.asymmetric is True and with_hard.asymmetric is True  # 1.0 vs the negative's 0.0
    assert with_hard.positive_captions == (0, 1) and plain.positive_captions == (0,)
    ann = annotate_sample(
        [[PURPLE_BANANA], [RED_APPLE], [STRIPED_CAT]], INDEX, positive_captions=(0, 1)
    )
    assert ann.asymmetric is True  # the hard positive (1.0) differs from the negative (0.0)
    # two positives that disagree, and no negative: read as positive and negative the captions
    # are asymmetric; as two positives there is no negative to compare with
    assert annotate_sample([[PURPLE_BANANA], [RED_APPLE]], INDEX).asymmetric is True
    ann = annotate_sample([[PURPLE_BANANA], [RED_APPLE]], INDEX, positive_captions=(0, 1))
    assert ann.asymmetric is False
    with pytest.raises(ValueError, match="must hold caption 0"):
        annotate_sample([[RED_APPLE]], INDEX, positive_captions=(1,))


def test_composition_counts_hard_positive_bindings_as_positive():
    annotations = [
        annotate_sample(
            [[RED_APPLE, BLUE_MUG], [BLUE_MUG, RED_APPLE], [RED_MUG, BLUE_APPLE]],
            INDEX,
            positive_captions=(0, 1),
        ),
        annotate_sample(
            [[PURPLE_BANANA], [CERAMIC_MUG], [STRIPED_CAT]], INDEX, positive_captions=(0, 1)
        ),
    ]
    stats = composition(annotations)
    # positive: 2 + 2 seen of 4, then 0 of 1 and 1 of 1 -> 5 of 6; negative: 0 of 2 and 0 of 1
    assert (stats.n_positive_bindings, stats.positive_seen_rate) == (6, 5 / 6)
    assert (stats.n_negative_bindings, stats.negative_seen_rate) == (3, 0.0)
    assert (stats.n_positive_captions, stats.positive_caption_seen_rate) == (4, 3 / 4)
    assert (stats.n_negative_captions, stats.negative_caption_seen_rate) == (2, 0.0)
    # the same samples read back from their rows give the same figures with the build's roles
    rows = [annotation.to_row() for annotation in annotations]
    assert composition(rows, positive_captions=(0, 1)) == stats
    assert composition(rows).n_positive_bindings == 3  # caption 0 only, as before
