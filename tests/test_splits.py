"""Split labelling: every label, familiarity, asymmetry and composition figure, computed by hand."""

from __future__ import annotations

from dataclasses import dataclass, field

import datasets
import pytest

from bindsplit_datasets.bindings import Binding
from bindsplit_datasets.features import ANNOTATION_COLUMNS, ANNOTATION_FEATURES
from bindsplit_datasets.splits import (
    CONFIGURATIONS,
    SPLIT_LABELS,
    AnnotatedBinding,
    SampleAnnotation,
    annotate_sample,
    composition,
    config_includes,
    split_label,
)

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
    assert [c for c in CONFIGURATIONS if config_includes(c, "none")] == ["full"]
    assert [c for c in CONFIGURATIONS if config_includes(c, "partial")] == ["full", "partial"]
    assert all(config_includes("full", label) for label in SPLIT_LABELS)
    with pytest.raises(ValueError, match="unknown configuration 'all'"):
        config_includes("all", "seen")


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
        "bindsplit_label": "partial",
    }
    table = datasets.Dataset.from_list([row], features=ANNOTATION_FEATURES)
    assert table[0] == row


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
    "asymmetric_share": 0.2,
}


def test_composition_hand_computed():
    stats = composition(_hand_samples())
    assert stats.to_dict() == EXPECTED_COMPOSITION
    assert (stats.n_positive_bindings, stats.n_negative_bindings) == (5, 6)


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
        "asymmetric_share": None,
    }


def test_composition_rejects_bad_rows():
    with pytest.raises(ValueError, match="lacks the column 'asymmetric'"):
        composition([{"bindsplit_label": "seen", "caption_bindings": []}])
    row = _hand_samples()[0].to_row() | {"bindsplit_label": "familiar"}
    with pytest.raises(ValueError, match="unknown label 'familiar'"):
        composition([row])
