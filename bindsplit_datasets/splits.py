"""Split labelling (docs/protocol.md, section 3): label each sample seen/unseen/partial/none, and
summarise.

Everything here is a pure function of the bindings of a sample's captions and a reference index,
so labels can be recomputed (for another ``min_count`` or another corpus) without re-parsing.

Conventions
-----------
* Caption 0 is the sample's *positive* caption, every other caption a *negative*.
* A caption's bindings are taken as a set: a binding listed twice in one caption counts once
  (the parser already returns each binding once; hand-written bindings may not).
* ``B`` is the union of the bindings of all captions. The label is ``none`` when ``B`` is empty,
  ``seen`` when every binding of ``B`` is seen, ``unseen`` when none is, ``partial`` otherwise.
* Familiarity of a caption is the fraction of its bindings that are seen, ``None`` when the
  caption has no bindings (there is nothing to be familiar with, which is not the same as 0.0).
* ``asymmetric`` is true when the positive caption's familiarity differs from the familiarity of
  at least one negative caption, comparing only captions whose familiarity is defined: a caption
  without bindings gives the model no familiarity cue, so a pair involving ``None`` never makes a
  sample asymmetric. A sample with a single caption is never asymmetric. Familiarities are
  compared as exact fractions, so 1/3 and 2/6 are equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from .names import CONFIGURATIONS, SPLIT_LABELS

if TYPE_CHECKING:  # labelling needs only the attribute/object fields, not the parser
    from .bindings import Binding

__all__ = [
    "CONFIGURATIONS",
    "SPLIT_LABELS",
    "AnnotatedBinding",
    "BindingCounts",
    "CompositionStats",
    "SampleAnnotation",
    "annotate_sample",
    "composition",
    "config_includes",
    "split_label",
]


# configuration -> labels of the samples it holds (``none`` samples appear in ``full`` only)
_CONFIG_LABELS: dict[str, frozenset[str]] = {
    "full": frozenset(SPLIT_LABELS),
    "seen": frozenset({"seen"}),
    "unseen": frozenset({"unseen"}),
    "partial": frozenset({"partial"}),
}


class BindingCounts(Protocol):
    """What labelling needs from a reference: a count per binding and the ``min_count`` threshold.

    :class:`bindsplit_datasets.reference.ReferenceIndex` is one; a plain object with these two
    members (for example in tests, or a synthetic world's exact training set) is another.
    """

    min_count: int

    def count(self, binding: Binding) -> int: ...


@dataclass(frozen=True)
class AnnotatedBinding:
    """One binding of one caption with its reference count and seen flag."""

    attribute: str
    object: str
    count: int
    seen: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "attribute": self.attribute,
            "object": self.object,
            "count": self.count,
            "seen": self.seen,
        }


@dataclass(frozen=True)
class SampleAnnotation:
    """The annotation columns of one sample (see :mod:`bindsplit_datasets.features`)."""

    caption_bindings: tuple[tuple[AnnotatedBinding, ...], ...]
    caption_familiarity: tuple[float | None, ...]
    asymmetric: bool
    label: str

    def to_row(self) -> dict[str, Any]:
        """The row dict with exactly the columns of ``features.ANNOTATION_FEATURES``."""
        return {
            "caption_bindings": [
                [b.to_dict() for b in caption] for caption in self.caption_bindings
            ],
            "caption_familiarity": list(self.caption_familiarity),
            "asymmetric": self.asymmetric,
            "bindsplit_label": self.label,
        }


def split_label(seen_flags: Iterable[bool]) -> str:
    """The label of a sample from the seen flags of its distinct bindings ``B``."""
    n_seen = n_total = 0
    for flag in seen_flags:
        n_total += 1
        n_seen += bool(flag)
    if n_total == 0:
        return "none"
    if n_seen == n_total:
        return "seen"
    if n_seen == 0:
        return "unseen"
    return "partial"


def config_includes(config: str, label: str) -> bool:
    """Whether a sample labelled ``label`` belongs in configuration ``config``."""
    try:
        return label in _CONFIG_LABELS[config]
    except KeyError:
        raise ValueError(
            f"unknown configuration {config!r}; expected one of {', '.join(CONFIGURATIONS)}"
        ) from None


def _familiarity(flags: Sequence[bool]) -> Fraction | None:
    return Fraction(sum(flags), len(flags)) if flags else None


def _is_asymmetric(familiarity: Sequence[Fraction | None]) -> bool:
    if not familiarity or familiarity[0] is None:
        return False
    positive = familiarity[0]
    return any(f is not None and f != positive for f in familiarity[1:])


def annotate_sample(
    caption_bindings: Sequence[Sequence[Binding]], index: BindingCounts
) -> SampleAnnotation:
    """Annotate one sample from the bindings of each of its captions (caption 0 = positive).

    Each binding gets ``count = index.count(b)`` and ``seen = count >= index.min_count``; the
    sample gets each caption's familiarity, ``asymmetric`` and its label (module docstring).
    """
    min_count = index.min_count
    counts: dict[Binding, int] = {}
    annotated: list[tuple[AnnotatedBinding, ...]] = []
    familiarity: list[Fraction | None] = []
    for bindings in caption_bindings:
        caption: list[AnnotatedBinding] = []
        for binding in dict.fromkeys(bindings):  # distinct, in order
            if binding not in counts:
                counts[binding] = int(index.count(binding))
            count = counts[binding]
            caption.append(
                AnnotatedBinding(binding.attribute, binding.object, count, count >= min_count)
            )
        annotated.append(tuple(caption))
        familiarity.append(_familiarity([b.seen for b in caption]))
    return SampleAnnotation(
        caption_bindings=tuple(annotated),
        caption_familiarity=tuple(None if f is None else float(f) for f in familiarity),
        asymmetric=_is_asymmetric(familiarity),
        label=split_label(count >= min_count for count in counts.values()),
    )


@dataclass(frozen=True)
class CompositionStats:
    """How a set of samples is composed (the figures of docs/protocol.md, section 6).

    ``counts``/``shares``: samples per label (every label present, zeros included); shares are
    fractions of ``n`` (``None`` when ``n == 0``). ``positive_seen_rate``: seen share of the
    bindings of positive captions, pooled over samples (a binding is counted once per caption it
    appears in); ``negative_seen_rate``: the same over all negative captions; ``None`` when there
    are no such bindings. ``asymmetric_share``: fraction of all ``n`` samples that are asymmetric.
    """

    n: int
    counts: dict[str, int]
    shares: dict[str, float | None]
    positive_seen_rate: float | None
    negative_seen_rate: float | None
    asymmetric_share: float | None
    n_positive_bindings: int = field(default=0)
    n_negative_bindings: int = field(default=0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with the stable keys used by dataset cards and ``bindsplit stats``."""
        return {
            "n": self.n,
            "counts": dict(self.counts),
            "shares": dict(self.shares),
            "positive_seen_rate": self.positive_seen_rate,
            "negative_seen_rate": self.negative_seen_rate,
            "asymmetric_share": self.asymmetric_share,
        }


def _seen_flags(caption: Sequence[Any]) -> list[bool]:
    return [bool(b.seen if isinstance(b, AnnotatedBinding) else b["seen"]) for b in caption]


def _fields(
    annotation: SampleAnnotation | Mapping[str, Any],
) -> tuple[str, bool, Sequence[Sequence[Any]]]:
    if isinstance(annotation, SampleAnnotation):
        return annotation.label, annotation.asymmetric, annotation.caption_bindings
    try:
        return (
            annotation["bindsplit_label"],
            annotation["asymmetric"],
            annotation["caption_bindings"],
        )
    except KeyError as error:
        raise ValueError(
            f"annotation row lacks the column {error.args[0]!r}; composition() needs the columns "
            "'bindsplit_label', 'asymmetric' and 'caption_bindings' (SampleAnnotation.to_row())"
        ) from None


def _rate(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def composition(annotations: Iterable[SampleAnnotation | Mapping[str, Any]]) -> CompositionStats:
    """Composition statistics over samples given as :class:`SampleAnnotation` or row dicts."""
    counts = dict.fromkeys(SPLIT_LABELS, 0)
    n = n_asymmetric = 0
    positive_seen = positive_total = negative_seen = negative_total = 0
    for annotation in annotations:
        label, asymmetric, caption_bindings = _fields(annotation)
        if label not in counts:
            raise ValueError(f"unknown label {label!r}; expected one of {', '.join(SPLIT_LABELS)}")
        n += 1
        counts[label] += 1
        n_asymmetric += bool(asymmetric)
        for position, caption in enumerate(caption_bindings):
            flags = _seen_flags(caption)
            if position == 0:
                positive_seen += sum(flags)
                positive_total += len(flags)
            else:
                negative_seen += sum(flags)
                negative_total += len(flags)
    return CompositionStats(
        n=n,
        counts=counts,
        shares={label: _rate(count, n) for label, count in counts.items()},
        positive_seen_rate=_rate(positive_seen, positive_total),
        negative_seen_rate=_rate(negative_seen, negative_total),
        asymmetric_share=_rate(n_asymmetric, n),
        n_positive_bindings=positive_total,
        n_negative_bindings=negative_total,
    )
