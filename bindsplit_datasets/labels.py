"""Split labelling (docs/protocol.md, section 3): label each sample seen/unseen/partial/none, and
summarise.

Everything here is a pure function of the bindings of a sample's captions and a reference index,
so labels can be recomputed (for another ``min_count`` or another corpus) without re-parsing.

A sample is labelled by its *binding units*, chosen by the build's binding kind
(:data:`~bindsplit_datasets.names.BINDING_KINDS`, SPEC section 1b): the (attribute, object)
bindings (``attribute``, the paper's and the default), the (subject, relation, object) triples
(``relation``), or both together (``both``). Everything below says "binding" for a unit of
whichever kind.

Conventions
-----------
* Caption 0 is the sample's *positive* caption; so are its *hard positives* (more captions true of
  image 0, worded differently: seed 003), at the positions the build gives
  (``positive_captions``); every other caption is a *negative*. Bindings of hard positives are
  positive bindings wherever positive and negative captions are told apart: the familiarity
  statistics and ``asymmetric``.
* A caption's bindings are taken as a set: a binding listed twice in one caption counts once
  (the parser already returns each binding once; hand-written bindings may not).
* ``B`` is the union of the bindings of all captions. The label is ``none`` when ``B`` is empty,
  ``seen`` when every binding of ``B`` is seen, ``unseen`` when none is, ``partial`` otherwise.
* Familiarity of a caption is the fraction of its bindings that are seen, ``None`` when the
  caption has no bindings (there is nothing to be familiar with, which is not the same as 0.0).
* ``asymmetric`` is true when the familiarity of a positive caption differs from the familiarity
  of a negative caption, comparing only captions whose familiarity is defined: a caption
  without bindings gives the model no familiarity cue, so a pair involving ``None`` never makes a
  sample asymmetric. A sample with a single caption is never asymmetric, nor one whose captions
  are all positive. Familiarities are compared as exact fractions, so 1/3 and 2/6 are equal.
* ``balanced`` (the configuration of that name) is true when every caption with bindings has the
  same familiarity and it is above zero; captions without bindings are ignored, as for
  ``asymmetric``. So every ``seen`` sample is balanced (even one with a caption without
  bindings), no ``unseen`` or ``none`` sample is, and a ``partial`` sample is when its captions
  are equally, partly familiar (1/2 and 2/4).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

# configuration -> the labels it pools (``none`` samples appear in ``full`` only), the metric's
# own table; ``balanced`` is not a set of labels but the samples whose ``balanced`` flag is set
from .metric_core import BALANCED, LABEL_POOLS
from .names import BINDING_KINDS, CONFIGURATIONS, DEFAULT_BINDING_KIND, SPLIT_LABELS, label_name

if TYPE_CHECKING:  # labelling needs only the attribute/object fields, not the parser
    from .parsing import Binding, Relation

__all__ = [
    "AnnotatedBinding",
    "AnnotatedRelation",
    "BindingCounts",
    "RelationCounts",
    "CompositionStats",
    "SampleAnnotation",
    "annotate_sample",
    "check_binding_kind",
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


class RelationCounts(Protocol):
    """What labelling by triples needs from a reference: a count per triple and ``min_count``
    (:class:`~bindsplit_datasets.reference.ReferenceIndex` with triples is one)."""

    min_count: int

    def relation_count(self, triple: Relation) -> int: ...


def check_binding_kind(kind: str) -> str:
    """``kind`` if it is one of :data:`~bindsplit_datasets.names.BINDING_KINDS`, else a
    ``ValueError`` naming them."""
    if kind not in BINDING_KINDS:
        raise ValueError(
            f"unknown binding kind {kind!r}; choose one of {', '.join(BINDING_KINDS)} (--bindings)"
        )
    return kind


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
class AnnotatedRelation:
    """One relation triple of one caption with its reference count and seen flag."""

    subject: str
    relation: str
    object: str
    count: int
    seen: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "relation": self.relation,
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
    """The annotation columns of one sample (see :mod:`bindsplit_datasets.builds.features`).

    ``caption_bindings`` is ``None`` in a ``relation`` build, ``caption_relations`` outside
    ``relation`` and ``both`` builds; familiarity, ``asymmetric`` and the label are over the
    units of ``binding_kind``. ``positive_captions``: the positions of the positive captions
    (caption 0 and the hard positives; not a column of the row, the build's manifest gives it).
    """

    caption_bindings: tuple[tuple[AnnotatedBinding, ...], ...] | None
    caption_familiarity: tuple[float | None, ...]
    asymmetric: bool
    label: str
    caption_relations: tuple[tuple[AnnotatedRelation, ...], ...] | None = None
    binding_kind: str = DEFAULT_BINDING_KIND
    positive_captions: tuple[int, ...] = (0,)

    @property
    def units(self) -> list[list[AnnotatedBinding | AnnotatedRelation]]:
        """Per caption, the binding units the label is over (bindings, then triples)."""
        return _caption_units(self.caption_bindings, self.caption_relations)

    @property
    def balanced(self) -> bool:
        """Every caption with bindings is equally familiar, above zero (:func:`is_balanced`);
        equal fractions give equal floats, so the stored familiarities decide exactly."""
        return is_balanced(self.caption_familiarity)

    def to_row(self) -> dict[str, Any]:
        """The row dict with exactly the columns of ``features.annotation_features(kind)``
        (``features.ANNOTATION_FEATURES`` for the attribute kind)."""
        row: dict[str, Any] = {}
        if self.caption_bindings is not None:
            row["caption_bindings"] = [
                [b.to_dict() for b in caption] for caption in self.caption_bindings
            ]
        if self.caption_relations is not None:
            row["caption_relations"] = [
                [r.to_dict() for r in caption] for caption in self.caption_relations
            ]
        row.update(
            {
                "caption_familiarity": list(self.caption_familiarity),
                "asymmetric": self.asymmetric,
                "balanced": self.balanced,
                "bindsplit_label": self.label,
            }
        )
        return row


def _caption_units(
    bindings: Sequence[Sequence[Any]] | None, relations: Sequence[Sequence[Any]] | None
) -> list[list[Any]]:
    """Per caption, its bindings then its triples (either may be absent)."""
    columns = [column for column in (bindings, relations) if column is not None]
    if not columns:
        return []
    return [[unit for caption in parts for unit in caption] for parts in zip(*columns, strict=True)]


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
    label, _, balanced, _, _ = _fields(annotation)
    if config == BALANCED:
        return balanced
    return label in LABEL_POOLS[config]


def _familiarity(flags: Sequence[bool]) -> Fraction | None:
    return Fraction(sum(flags), len(flags)) if flags else None


def _is_asymmetric(familiarity: Sequence[Fraction | None], positives: Collection[int]) -> bool:
    """Whether a defined positive familiarity differs from a defined negative one."""
    sides: tuple[set[Fraction], set[Fraction]] = (set(), set())
    for position, value in enumerate(familiarity):
        if value is not None:
            sides[position not in positives].add(value)
    positive, negative = sides
    return any(p != n for p in positive for n in negative)


def annotate_sample(
    caption_bindings: Sequence[Sequence[Binding]] | None,
    index: BindingCounts | RelationCounts,
    *,
    caption_relations: Sequence[Sequence[Relation]] | None = None,
    binding_kind: str = DEFAULT_BINDING_KIND,
    positive_captions: Collection[int] = (0,),
) -> SampleAnnotation:
    """Annotate one sample from the bindings (and/or triples) of each of its captions (caption
    0 = positive; ``positive_captions``: caption 0 and the hard positives, by position),
    labelled by the units of ``binding_kind``.

    Each binding gets ``count = index.count(b)``, each triple ``count = index.relation_count(t)``,
    and ``seen = count >= index.min_count``; the sample gets each caption's familiarity,
    ``asymmetric`` and its label over the units of its kind (module docstring). The ``attribute``
    kind needs ``caption_bindings`` (and ignores ``caption_relations``), ``relation`` needs
    ``caption_relations`` (and ignores ``caption_bindings``), ``both`` needs both, with as many
    captions each.
    """
    kind = check_binding_kind(binding_kind)
    positives = tuple(sorted(set(positive_captions)))
    if 0 not in positives or any(p < 0 for p in positives):
        raise ValueError(
            f"positive_captions {list(positive_captions)} must hold caption 0 (the positive "
            "caption) and the positions of the hard positives"
        )
    with_bindings = kind != "relation"
    with_relations = kind != "attribute"
    if (with_bindings and caption_bindings is None) or (
        with_relations and caption_relations is None
    ):
        raise ValueError(
            f"a {kind} annotation needs "
            + {"attribute": "caption_bindings", "relation": "caption_relations"}.get(
                kind, "caption_bindings and caption_relations"
            )
        )
    min_count = index.min_count
    counts: dict[Any, int] = {}

    def count_of(unit: Any, lookup: Any) -> int:
        if unit not in counts:
            counts[unit] = int(lookup(unit))
        return counts[unit]

    annotated: list[tuple[AnnotatedBinding, ...]] = []
    triples: list[tuple[AnnotatedRelation, ...]] = []
    if with_bindings:
        assert caption_bindings is not None
        for bindings in caption_bindings:
            caption: list[AnnotatedBinding] = []
            for binding in dict.fromkeys(bindings):  # distinct, in order
                count = count_of(binding, index.count)  # type: ignore[union-attr]
                caption.append(
                    AnnotatedBinding(binding.attribute, binding.object, count, count >= min_count)
                )
            annotated.append(tuple(caption))
    if with_relations:
        assert caption_relations is not None
        lookup = index.relation_count  # type: ignore[union-attr]
        for relations in caption_relations:
            stated: list[AnnotatedRelation] = []
            for triple in dict.fromkeys(relations):
                count = count_of(triple, lookup)
                stated.append(
                    AnnotatedRelation(
                        triple.subject, triple.relation, triple.object, count, count >= min_count
                    )
                )
            triples.append(tuple(stated))
    if with_bindings and with_relations and len(annotated) != len(triples):
        raise ValueError(
            f"caption_bindings has {len(annotated)} captions and caption_relations "
            f"{len(triples)}: give both for every caption"
        )
    units = _caption_units(
        annotated if with_bindings else None, triples if with_relations else None
    )
    familiarity = [_familiarity([u.seen for u in caption]) for caption in units]
    return SampleAnnotation(
        caption_bindings=tuple(annotated) if with_bindings else None,
        caption_familiarity=tuple(None if f is None else float(f) for f in familiarity),
        asymmetric=_is_asymmetric(familiarity, positives),
        label=split_label(count >= min_count for count in counts.values()),
        caption_relations=tuple(triples) if with_relations else None,
        binding_kind=kind,
        positive_captions=positives,
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
    return [
        bool(b.seen if isinstance(b, AnnotatedBinding | AnnotatedRelation) else b["seen"])
        for b in caption
    ]


def _fields(
    annotation: SampleAnnotation | Mapping[str, Any],
) -> tuple[str, bool, bool, Sequence[Sequence[Any]], tuple[int, ...] | None]:
    """Label, asymmetric, balanced, caption binding units and positive captions of a sample
    (``None`` for a row, which does not record them); for a row ``balanced`` is recomputed
    from the units' seen flags, so rows need no ``balanced`` column. A row's units are those of
    the binding columns it has (``caption_bindings`` and/or ``caption_relations``: a build
    writes those of its binding kind)."""
    if isinstance(annotation, SampleAnnotation):
        return (
            annotation.label,
            annotation.asymmetric,
            annotation.balanced,
            annotation.units,
            annotation.positive_captions,
        )
    try:
        label, asymmetric = (label_name(annotation["bindsplit_label"]), annotation["asymmetric"])
        if "caption_bindings" not in annotation and "caption_relations" not in annotation:
            raise KeyError("caption_bindings")
    except KeyError as error:
        raise ValueError(
            f"annotation row lacks the column {error.args[0]!r}; composition() needs the "
            "columns 'bindsplit_label', 'asymmetric' and 'caption_bindings' or "
            "'caption_relations' (SampleAnnotation.to_row())"
        ) from None
    captions = _caption_units(
        annotation.get("caption_bindings"), annotation.get("caption_relations")
    )
    balanced = is_balanced([_familiarity(_seen_flags(caption)) for caption in captions])
    return label, bool(asymmetric), balanced, captions, None


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
        self,
        label: str,
        asymmetric: bool,
        balanced: bool,
        captions: Sequence[Sequence[Any]],
        positives: Collection[int] = (0,),
    ) -> None:
        self.labels[label] += 1
        self.asymmetric += asymmetric
        self.balanced += balanced
        for position, caption in enumerate(captions):
            side = 0 if position in positives else 1
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
    *,
    positive_captions: Collection[int] = (0,),
) -> CompositionStats:
    """Composition statistics over samples given as :class:`SampleAnnotation` or row dicts.

    ``categories`` (one per sample, in the same order; ``None`` for a sample without one) adds
    the same statistics per category in ``by_category`` (a benchmark adapter's
    ``category(row)``: BiVLC ``type/subtype``, VisMin ``category``...). ``positive_captions``:
    the positions of the positive captions of row dicts (caption 0 and the build's hard
    positives, ``BuildColumns``); an annotation carries its own.
    """
    total = _Tally()
    per_category: dict[str, _Tally] = {}
    names = iter(categories) if categories is not None else None
    for annotation in annotations:
        label, asymmetric, balanced, captions, positives = _fields(annotation)
        if positives is None:
            positives = tuple(positive_captions)
        if label not in total.labels:
            raise ValueError(f"unknown label {label!r}; expected one of {', '.join(SPLIT_LABELS)}")
        total.add(label, asymmetric, balanced, captions, positives)
        if names is not None:
            try:
                name = next(names)
            except StopIteration:
                raise ValueError("composition(): fewer categories than samples") from None
            if name is not None:
                per_category.setdefault(str(name), _Tally()).add(
                    label, asymmetric, balanced, captions, positives
                )
    if names is not None and next(names, _END) is not _END:
        raise ValueError("composition(): more categories than samples")
    return total.stats({name: tally.stats() for name, tally in per_category.items()})
