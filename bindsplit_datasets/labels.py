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
* ``balanced`` (the configuration of that name) is true when every caption with bindings has the
  same familiarity and it is above zero; captions without bindings are ignored, as for
  ``asymmetric``. So every ``seen`` sample is balanced (even one with a caption without
  bindings), no ``unseen`` or ``none`` sample is, and a ``partial`` sample is when its captions
  are equally, partly familiar (1/2 and 2/4).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

# configuration -> the labels it pools (``none`` samples appear in ``full`` only), the metric's
# own table; ``balanced`` is not a set of labels but the samples whose ``balanced`` flag is set
from .metric_core import BALANCED, LABEL_POOLS
from .names import CONFIGURATIONS, SPLIT_LABELS, label_name

if TYPE_CHECKING:  # labelling needs only the attribute/object fields, not the parser
    from .parsing import Binding

__all__ = [
    "AnnotatedBinding",
    "BindingCounts",
    "CompositionStats",
    "SampleAnnotation",
    "annotate_sample",
    "composition",
    "config_includes",
    "is_balanced",
    "split_label",
]


#: Marks the end of an exhausted iterator.
_END = object()


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


def is_balanced(familiarity: Sequence[float | Fraction | None]) -> bool:
    """Whether every defined familiarity is the same and above zero (module docstring).

    >>> is_balanced([1.0, None, 1.0]), is_balanced([0.5, 0.5]), is_balanced([0.0, 0.0])
    (True, True, False)
    >>> is_balanced([1.0, 0.5]), is_balanced([None, None])
    (False, False)
    """
    defined = [f for f in familiarity if f is not None]
    return bool(defined) and defined[0] > 0 and all(f == defined[0] for f in defined)


@dataclass(frozen=True)
class SampleAnnotation:
    """The annotation columns of one sample (see :mod:`bindsplit_datasets.builds.features`)."""

    caption_bindings: tuple[tuple[AnnotatedBinding, ...], ...]
    caption_familiarity: tuple[float | None, ...]
    asymmetric: bool
    label: str

    @property
    def balanced(self) -> bool:
        """Every caption with bindings is equally familiar, above zero (:func:`is_balanced`);
        equal fractions give equal floats, so the stored familiarities decide exactly."""
        return is_balanced(self.caption_familiarity)

    def to_row(self) -> dict[str, Any]:
        """The row dict with exactly the columns of ``features.ANNOTATION_FEATURES``."""
        return {
            "caption_bindings": [
                [b.to_dict() for b in caption] for caption in self.caption_bindings
            ],
            "caption_familiarity": list(self.caption_familiarity),
            "asymmetric": self.asymmetric,
            "balanced": self.balanced,
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


def config_includes(config: str, annotation: SampleAnnotation | Mapping[str, Any]) -> bool:
    """Whether a sample (a :class:`SampleAnnotation` or its row) belongs in ``config``."""
    if config not in CONFIGURATIONS:
        raise ValueError(
            f"unknown configuration {config!r}; expected one of {', '.join(CONFIGURATIONS)}"
        )
    if config == "full":
        return True
    label, _, balanced, _ = _fields(annotation)
    if config == BALANCED:
        return balanced
    return label in LABEL_POOLS[config]


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

    The paper's figures each have two readings, and both are kept:

    * seen rates of positive / negative captions. *Binding level* (``positive_seen_rate``,
      ``negative_seen_rate``): the seen share of the bindings of those captions, pooled over
      samples (a binding counts once per caption it appears in). *Caption level*
      (``positive_caption_seen_rate``, ``negative_caption_seen_rate``): the share of those
      captions *with bindings* that have at least one seen binding.
    * the unseen share: over all ``n`` samples (``shares["unseen"]``), and over the
      ``n_with_bindings`` samples with at least one binding (``unseen_share_with_bindings``).

    ``counts``/``shares``: samples per label (every label present, zeros included); shares are
    fractions of ``n`` (``None`` when ``n == 0``). ``balanced_count``/``balanced_share``: samples
    of the ``balanced`` configuration. ``asymmetric_share``: fraction of all ``n`` samples that
    are asymmetric. Every rate is ``None`` when its denominator is zero. ``by_category``: the same
    statistics per category (see :func:`composition`), empty without categories.
    """

    n: int
    counts: dict[str, int]
    shares: dict[str, float | None]
    positive_seen_rate: float | None
    negative_seen_rate: float | None
    asymmetric_share: float | None
    n_positive_bindings: int = 0
    n_negative_bindings: int = 0
    positive_caption_seen_rate: float | None = None
    negative_caption_seen_rate: float | None = None
    n_positive_captions: int = 0
    n_negative_captions: int = 0
    balanced_count: int = 0
    balanced_share: float | None = None
    n_with_bindings: int = 0
    unseen_share_with_bindings: float | None = None
    by_category: dict[str, CompositionStats] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with the stable keys used by dataset cards and ``bindsplit stats``
        (``by_category`` only when there are categories)."""
        result: dict[str, Any] = {
            "n": self.n,
            "counts": dict(self.counts),
            "shares": dict(self.shares),
            "positive_seen_rate": self.positive_seen_rate,
            "negative_seen_rate": self.negative_seen_rate,
            "positive_caption_seen_rate": self.positive_caption_seen_rate,
            "negative_caption_seen_rate": self.negative_caption_seen_rate,
            "n_positive_bindings": self.n_positive_bindings,
            "n_negative_bindings": self.n_negative_bindings,
            "n_positive_captions": self.n_positive_captions,
            "n_negative_captions": self.n_negative_captions,
            "asymmetric_share": self.asymmetric_share,
            "balanced_count": self.balanced_count,
            "balanced_share": self.balanced_share,
            "n_with_bindings": self.n_with_bindings,
            "unseen_share_with_bindings": self.unseen_share_with_bindings,
        }
        if self.by_category:
            result["by_category"] = {
                name: stats.to_dict() for name, stats in sorted(self.by_category.items())
            }
        return result


def _seen_flags(caption: Sequence[Any]) -> list[bool]:
    return [bool(b.seen if isinstance(b, AnnotatedBinding) else b["seen"]) for b in caption]


def _fields(
    annotation: SampleAnnotation | Mapping[str, Any],
) -> tuple[str, bool, bool, Sequence[Sequence[Any]]]:
    """Label, asymmetric, balanced and caption bindings of a sample; for a row ``balanced`` is
    recomputed from the bindings' seen flags, so rows need no ``balanced`` column."""
    if isinstance(annotation, SampleAnnotation):
        return (
            annotation.label,
            annotation.asymmetric,
            annotation.balanced,
            annotation.caption_bindings,
        )
    try:
        label, asymmetric, captions = (
            label_name(annotation["bindsplit_label"]),
            annotation["asymmetric"],
            annotation["caption_bindings"],
        )
    except KeyError as error:
        raise ValueError(
            f"annotation row lacks the column {error.args[0]!r}; composition() needs the "
            "columns 'bindsplit_label', 'asymmetric' and 'caption_bindings' "
            "(SampleAnnotation.to_row())"
        ) from None
    balanced = is_balanced([_familiarity(_seen_flags(caption)) for caption in captions])
    return label, bool(asymmetric), balanced, captions


def _rate(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


@dataclass
class _Tally:
    """Running counts behind :class:`CompositionStats`."""

    labels: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SPLIT_LABELS, 0))
    asymmetric: int = 0
    balanced: int = 0
    # [positive, negative] x (seen bindings, bindings, captions with a seen binding, captions
    # with bindings)
    bindings_seen: list[int] = field(default_factory=lambda: [0, 0])
    bindings: list[int] = field(default_factory=lambda: [0, 0])
    captions_seen: list[int] = field(default_factory=lambda: [0, 0])
    captions: list[int] = field(default_factory=lambda: [0, 0])

    def add(
        self, label: str, asymmetric: bool, balanced: bool, captions: Sequence[Sequence[Any]]
    ) -> None:
        self.labels[label] += 1
        self.asymmetric += asymmetric
        self.balanced += balanced
        for position, caption in enumerate(captions):
            side = 0 if position == 0 else 1
            flags = _seen_flags(caption)
            self.bindings_seen[side] += sum(flags)
            self.bindings[side] += len(flags)
            self.captions_seen[side] += any(flags)
            self.captions[side] += bool(flags)

    def stats(self, by_category: dict[str, CompositionStats] | None = None) -> CompositionStats:
        n = sum(self.labels.values())
        with_bindings = n - self.labels["none"]
        return CompositionStats(
            n=n,
            counts=dict(self.labels),
            shares={label: _rate(count, n) for label, count in self.labels.items()},
            positive_seen_rate=_rate(self.bindings_seen[0], self.bindings[0]),
            negative_seen_rate=_rate(self.bindings_seen[1], self.bindings[1]),
            asymmetric_share=_rate(self.asymmetric, n),
            n_positive_bindings=self.bindings[0],
            n_negative_bindings=self.bindings[1],
            positive_caption_seen_rate=_rate(self.captions_seen[0], self.captions[0]),
            negative_caption_seen_rate=_rate(self.captions_seen[1], self.captions[1]),
            n_positive_captions=self.captions[0],
            n_negative_captions=self.captions[1],
            balanced_count=self.balanced,
            balanced_share=_rate(self.balanced, n),
            n_with_bindings=with_bindings,
            unseen_share_with_bindings=_rate(self.labels["unseen"], with_bindings),
            by_category=by_category or {},
        )


def composition(
    annotations: Iterable[SampleAnnotation | Mapping[str, Any]],
    categories: Iterable[str | None] | None = None,
) -> CompositionStats:
    """Composition statistics over samples given as :class:`SampleAnnotation` or row dicts.

    ``categories`` (one per sample, in the same order; ``None`` for a sample without one) adds
    the same statistics per category in ``by_category`` (a benchmark adapter's
    ``category(row)``: BiVLC ``type/subtype``, VisMin ``category``...).
    """
    total = _Tally()
    per_category: dict[str, _Tally] = {}
    names = iter(categories) if categories is not None else None
    for annotation in annotations:
        label, asymmetric, balanced, captions = _fields(annotation)
        if label not in total.labels:
            raise ValueError(f"unknown label {label!r}; expected one of {', '.join(SPLIT_LABELS)}")
        total.add(label, asymmetric, balanced, captions)
        if names is not None:
            try:
                name = next(names)
            except StopIteration:
                raise ValueError("composition(): fewer categories than samples") from None
            if name is not None:
                per_category.setdefault(str(name), _Tally()).add(
                    label, asymmetric, balanced, captions
                )
    if names is not None and next(names, _END) is not _END:
        raise ValueError("composition(): more categories than samples")
    return total.stats({name: tally.stats() for name, tally in per_category.items()})
