"""Property tests (hypothesis): what must hold for every input, not only for the hand-made ones.

- the parser: no crash on any text (emoji, control characters, NUL), no binding whose words are
  not in the caption, symbols and control characters read as spaces, normalisation idempotent;
- the labels (docs/protocol.md, section 3): equal to a naive reading of the protocol, unchanged by
  the order of the negatives and by repeated bindings, ``seen`` inside ``balanced``, ``unseen``
  and ``none`` outside it, and monotone in ``min_count``;
- the metric's statistics: counts of a dataset cut into batches and merged in any order (and
  through JSON) equal one pass, and so do the metrics computed from them.

Examples are drawn afresh on every run (no example database is written); a failure prints the
``@reproduce_failure`` line that replays it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bindsplit_datasets import metric_core
from bindsplit_datasets.labels import annotate_sample, config_includes
from bindsplit_datasets.names import CONFIGURATIONS, SPLIT_LABELS
from bindsplit_datasets.parsing import (
    Binding,
    clean_text,
    normalise_attribute,
    normalise_binding,
    normalise_object,
    parse_bindings,
    singularise,
    tokenise,
)
from bindsplit_datasets.parsing import lexicon as lx
from bindsplit_datasets.reports.results import count_key, metric_key

# hundreds of parses per property (the tagger's first load included): about 15 s in all
#: No deadline (a slow machine is not a failure) and no example database in the working tree.
PROPERTIES = settings(
    deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow], max_examples=150
)

# --- the parser ----------------------------------------------------------------------------------

ATTRIBUTES = sorted(lx.ATTRIBUTES)
NOUNS = (
    "dog", "dogs", "cat", "shirt", "t-shirts", "teddy bears", "bus", "buses", "glasses",
    "people", "table", "fire hydrant", "trees", "leaves", "women", "children", "apple", "car",
    "horse", "benches", "boxes", "men", "mice", "pants", "scissors", "skis", "umbrellas",
)  # fmt: skip
FUNCTION_WORDS = (
    "a", "an", "the", "and", "or", "with", "on", "in", "of", "two", "is", "are", "very",
    "next to", "wearing", "'s", ",", ".", "!", "-", "not", "no", "who", "that", "behind",
)  # fmt: skip
#: Characters the parser reads as spaces: control characters (NUL), format characters,
#: symbols and emoji (with a variation selector), a private-use code point.
BLANKS = ("\x00", "\x07", "\x7f", "\u200b", "\u200d", "🍎", "🐶\ufe0f", "★", "\ue000", "\t", "\n")

words = st.sampled_from(ATTRIBUTES) | st.sampled_from(NOUNS) | st.sampled_from(FUNCTION_WORDS)
#: Caption-like text: words of the lexicon and nouns, so that bindings are actually found.
captions = st.lists(words, min_size=1, max_size=14).map(" ".join)
#: Any text at all, and caption-like text with arbitrary characters mixed in.
any_text = st.text() | st.builds(
    lambda parts, noise: "".join(p + n for p, n in zip(parts, noise, strict=False)),
    st.lists(words, min_size=1, max_size=10),
    st.lists(st.text(min_size=1, max_size=3), min_size=1, max_size=10),
)


def in_caption(binding: Binding, text: str) -> bool:
    """Every word of the binding is a word of the caption; the object's last word may be the
    singular of one (``dogs`` -> ``dog``)."""
    tokens = set(tokenise(text))
    head, *modifiers = reversed(binding.object.split())
    return (
        all(word in tokens for word in binding.attribute.split())
        and all(word in tokens for word in modifiers)
        and (head in tokens or any(singularise(token) == head for token in tokens))
    )


@PROPERTIES
@given(any_text | captions)
@example("\x00")
@example("a red\x00dog 🐶 and a ‘blue’ cat")
@example("🍎" * 50)
def test_parser_never_crashes_and_binds_only_words_of_the_caption(text: str) -> None:
    bindings = parse_bindings(text)
    assert isinstance(bindings, list) and len(set(bindings)) == len(bindings)
    for binding in bindings:
        assert isinstance(binding, Binding) and binding.attribute and binding.object
        assert in_caption(binding, text), (binding, text)


@PROPERTIES
@given(st.lists(words, min_size=1, max_size=12), st.data())
def test_symbols_and_control_characters_read_as_spaces(parts: list[str], data: Any) -> None:
    """A blank (NUL, emoji, zero-width joiner, ...) between two words is a space: it neither
    joins nor splits words, so the caption states the same bindings."""
    separators = data.draw(st.lists(st.sampled_from(BLANKS), min_size=len(parts) - 1))
    noisy = parts[0] + "".join(
        f"{sep}{part}" for sep, part in zip(separators, parts[1:], strict=False)
    )
    assert parse_bindings(noisy) == parse_bindings(" ".join(parts))


@PROPERTIES
@given(captions)
def test_case_does_not_matter(text: str) -> None:
    assert parse_bindings(text.upper()) == parse_bindings(text)
    assert parse_bindings(text.title()) == parse_bindings(text)


@PROPERTIES
@given(any_text | captions)
def test_text_and_attribute_normalisation_are_idempotent(text: str) -> None:
    for normalise in (clean_text, normalise_attribute):
        once = normalise(text)
        assert normalise(once) == once


@PROPERTIES
@given(captions)
def test_a_parsed_binding_is_already_normalised(text: str) -> None:
    """Normalising a binding the parser returns gives it back: structured sources (ARO's
    ``attributes``/``obj1_name``) and captions meet in the same form."""
    for binding in parse_bindings(text):
        assert normalise_binding(binding.attribute, binding.object) == binding


@PROPERTIES
@given(captions | st.text())
@example("atlases")
@example("theses")
def test_object_normalisation_is_idempotent(text: str) -> None:
    once = normalise_object(text)
    assert normalise_object(once) == once


# --- the labels ----------------------------------------------------------------------------------

POOL = tuple(Binding(a, o) for a in ("red", "wooden", "striped") for o in ("cup", "dog"))


@dataclass
class Counts:
    """A reference: a count per binding and the ``seen`` threshold."""

    counts: dict[Binding, int]
    min_count: int = 1

    def count(self, binding: Binding) -> int:
        return self.counts.get(binding, 0)


samples = st.lists(st.lists(st.sampled_from(POOL), max_size=5), min_size=1, max_size=4)
references = st.builds(
    Counts,
    st.dictionaries(st.sampled_from(POOL), st.integers(0, 4)),
    st.integers(1, 3),
)


@dataclass
class Naive:
    """Section 3 of the protocol read literally, with sets and fractions."""

    label: str
    familiarity: list[Fraction | None] = field(default_factory=list)

    @classmethod
    def of(cls, captions: list[list[Binding]], reference: Counts) -> Naive:
        def seen(binding: Binding) -> bool:
            return reference.count(binding) >= reference.min_count

        union = {binding for caption in captions for binding in caption}
        n_seen = sum(seen(binding) for binding in union)
        label = (
            "none"
            if not union
            else "seen"
            if n_seen == len(union)
            else "unseen"
            if n_seen == 0
            else "partial"
        )
        familiarity = [
            Fraction(sum(seen(b) for b in set(caption)), len(set(caption))) if caption else None
            for caption in captions
        ]
        return cls(label, familiarity)

    @property
    def asymmetric(self) -> bool:
        positive, *negatives = self.familiarity
        return positive is not None and any(f not in (None, positive) for f in negatives)

    @property
    def balanced(self) -> bool:
        defined = {f for f in self.familiarity if f is not None}
        return len(defined) == 1 and defined.pop() > 0


@PROPERTIES
@given(samples, references)
def test_labels_equal_the_protocol_read_literally(
    captions: list[list[Binding]], reference: Counts
) -> None:
    annotation = annotate_sample(captions, reference)
    naive = Naive.of(captions, reference)
    assert annotation.label == naive.label
    assert annotation.caption_familiarity == tuple(
        None if f is None else float(f) for f in naive.familiarity
    )
    assert annotation.asymmetric == naive.asymmetric
    assert annotation.balanced == naive.balanced
    # seen inside balanced; unseen and none outside it
    if annotation.label == "seen":
        assert annotation.balanced
    if annotation.label in ("unseen", "none"):
        assert not annotation.balanced
    # a sample with one caption has no familiarity asymmetry
    if len(captions) == 1:
        assert not annotation.asymmetric


@PROPERTIES
@given(samples, references)
def test_configurations_agree_with_the_annotation(
    captions: list[list[Binding]], reference: Counts
) -> None:
    annotation = annotate_sample(captions, reference)
    row = annotation.to_row()
    holding = {config for config in CONFIGURATIONS if config_includes(config, annotation)}
    assert holding == {c for c in CONFIGURATIONS if config_includes(c, row)}
    by_label = holding & {"seen", "unseen", "partial"}
    assert "full" in holding
    assert by_label == (set() if annotation.label == "none" else {annotation.label})
    assert ("balanced" in holding) == annotation.balanced == row["balanced"]


@PROPERTIES
@given(samples, references, st.randoms(use_true_random=False))
def test_labels_ignore_the_order_of_negatives_and_repeated_bindings(
    captions: list[list[Binding]], reference: Counts, random: Any
) -> None:
    annotation = annotate_sample(captions, reference)
    positive, *negatives = captions
    random.shuffle(negatives)
    shuffled = annotate_sample([positive, *negatives], reference)
    assert (shuffled.label, shuffled.asymmetric, shuffled.balanced) == (
        annotation.label,
        annotation.asymmetric,
        annotation.balanced,
    )
    repeated = annotate_sample([caption + caption for caption in captions], reference)
    assert repeated == annotation


@PROPERTIES
@given(samples, references)
def test_a_higher_min_count_never_makes_a_sample_more_familiar(
    captions: list[list[Binding]], reference: Counts
) -> None:
    low = annotate_sample(captions, reference)
    high = annotate_sample(captions, Counts(reference.counts, reference.min_count + 1))
    for f_low, f_high in zip(low.caption_familiarity, high.caption_familiarity, strict=True):
        assert (f_low is None) == (f_high is None)
        assert f_low is None or f_high <= f_low
    if high.label == "seen":
        assert low.label == "seen"
    if low.label == "unseen":
        assert high.label == "unseen"


# --- the metric's statistics ----------------------------------------------------------------------

SHAPES = ((1, 2), (2, 2), (2, 3))
#: Few distinct values, so that ties (wrong answers) are frequent.
SCORE = st.sampled_from((0.0, 0.25, 0.5, 1.0))


@st.composite
def metric_samples(draw: Any) -> dict[str, Any]:
    n_images, n_captions = draw(st.sampled_from(SHAPES))
    row = st.lists(SCORE, min_size=n_captions, max_size=n_captions)
    return {
        "scores": draw(st.lists(row, min_size=n_images, max_size=n_images)),
        "split": draw(st.sampled_from(SPLIT_LABELS)),
        "category": draw(st.sampled_from(("swap/att", "replace/obj", "", None))),
        "macro_group": draw(st.sampled_from(("brown|white", "red|blue", None))),
        "balanced": draw(st.booleans()),
    }


def statistics(batch: list[dict[str, Any]]) -> metric_core.BindsplitStatistics:
    return metric_core.accumulate(
        [sample["scores"] for sample in batch],
        [sample["split"] for sample in batch],
        [sample["category"] for sample in batch],
        [sample["macro_group"] for sample in batch],
        balanced=[sample["balanced"] for sample in batch],
    )


@PROPERTIES
@given(
    st.lists(metric_samples(), max_size=40),
    st.lists(st.integers(0, 40), max_size=5),
    st.randoms(use_true_random=False),
)
def test_statistics_merged_in_any_order_equal_one_pass(
    dataset: list[dict[str, Any]], cuts: list[int], random: Any
) -> None:
    bounds = sorted({0, len(dataset), *(min(cut, len(dataset)) for cut in cuts)})
    parts = [statistics(dataset[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]
    random.shuffle(parts)
    whole = statistics(dataset)
    assert sum(parts, statistics([])) == whole
    # and through JSON, as processes exchange them
    travelled = [
        metric_core.BindsplitStatistics.from_dict(json.loads(json.dumps(p.to_dict())))
        for p in parts
    ]
    merged = travelled[0] if travelled else statistics([])
    for part in travelled[1:]:
        merged = merged.merge(part)
    assert merged.to_dict() == whole.to_dict()
    options = {"n_bootstrap": 20, "seed": 3, "macro_min_samples": 2}
    assert metric_core.compute_metrics(merged, **options) == metric_core.compute_metrics(
        whole, **options
    )


@PROPERTIES
@given(st.lists(metric_samples(), min_size=1, max_size=30))
def test_counts_add_up_to_the_samples(dataset: list[dict[str, Any]]) -> None:
    whole = statistics(dataset)
    results = metric_core.compute_metrics(whole, n_bootstrap=0)
    assert whole.n == results[count_key("full")] == len(dataset)
    assert sum(results[count_key(label)] for label in ("seen", "unseen", "partial")) == sum(
        sample["split"] != "none" for sample in dataset
    )
    assert results[count_key("balanced")] == sum(sample["balanced"] for sample in dataset)
    i2t = [metric_core.sample_outcome(sample["scores"])[0] for sample in dataset]
    assert results[metric_key("full", "i2t")] == sum(i2t) / len(dataset)
