"""The annotation columns BindSplit adds to every benchmark row, declared once.

Which binding columns a build writes follows its binding kind (``names.BINDING_KINDS``,
:func:`annotation_features`): ``caption_bindings`` for ``attribute`` (the default; exactly
:data:`ANNOTATION_FEATURES`), ``caption_relations`` for ``relation``, both for ``both``. The
familiarity, ``asymmetric``, ``balanced`` and the label are over the units of those columns.

``caption_bindings``
    Per caption (in the benchmark's caption order), the list of its bindings, each with the
    reference-corpus ``count`` and the ``seen`` flag (``count >= min_count``).
``caption_relations``
    Per caption, the list of its (subject, relation, object) triples (SPEC section 1b), each with
    its reference ``count`` and ``seen`` flag.
``caption_familiarity``
    Per caption, the fraction of its bindings (units of the build's kind) that are seen;
    ``None`` for a caption without any.
``asymmetric``
    Whether the positive caption (caption 0) and the negatives differ in familiarity.
``balanced``
    Whether every caption with bindings has the same familiarity, above zero: the samples of the
    ``balanced`` configuration (``seen`` samples are all balanced, ``unseen`` ones never).
``bindsplit_label``
    ``seen`` / ``unseen`` / ``partial`` / ``none`` (docs/protocol.md, section 3), a
    ``datasets.ClassLabel`` (:data:`LABEL_FEATURE`): rows store the index into
    :data:`~bindsplit_datasets.names.SPLIT_LABELS`, and the Hub's viewer, ``datasets`` and
    :func:`~bindsplit_datasets.names.label_name` give the name.

Where the benchmark defines them, the build also writes each sample's group columns
(:data:`GROUP_COLUMNS`), named in the manifest's ``columns``, so that readers take them from the
rows instead of recomputing them through the benchmark adapter:

``bindsplit_category``
    The sample's category of the per-category breakdowns (BiVLC type/subtype, VisMin category
    and pairing, SugarCrepe subset).
``bindsplit_macro_group``
    The sample's group of the macro accuracy (ARO: the attribute pair).
"""

from __future__ import annotations

import datasets

from ..names import BINDING_KINDS, DEFAULT_BINDING_KIND, SPLIT_LABELS

__all__ = [
    "ANNOTATION_COLUMNS",
    "ANNOTATION_FEATURES",
    "BINDING_COLUMNS",
    "BINDING_FEATURE",
    "RELATION_FEATURE",
    "CATEGORY_COLUMN",
    "GROUP_COLUMNS",
    "GROUP_FEATURE",
    "LABEL_FEATURE",
    "MACRO_GROUP_COLUMN",
    "annotation_columns",
    "annotation_features",
]

BINDING_FEATURE = {
    "attribute": datasets.Value("string"),
    "object": datasets.Value("string"),
    "count": datasets.Value("int64"),
    "seen": datasets.Value("bool"),
}

RELATION_FEATURE = {
    "subject": datasets.Value("string"),
    "relation": datasets.Value("string"),
    "object": datasets.Value("string"),
    "count": datasets.Value("int64"),
    "seen": datasets.Value("bool"),
}

#: The feature of ``bindsplit_label``: one class per label, in the order of ``SPLIT_LABELS``.
LABEL_FEATURE = datasets.ClassLabel(names=list(SPLIT_LABELS))

ANNOTATION_FEATURES = datasets.Features(
    {
        "caption_bindings": datasets.List(datasets.List(BINDING_FEATURE)),
        "caption_familiarity": datasets.List(datasets.Value("float64")),
        "asymmetric": datasets.Value("bool"),
        "balanced": datasets.Value("bool"),
        "bindsplit_label": LABEL_FEATURE,
    }
)

ANNOTATION_COLUMNS: tuple[str, ...] = tuple(ANNOTATION_FEATURES)

#: Every per-caption binding column a build may write (each binding kind writes its own).
BINDING_COLUMNS: tuple[str, ...] = ("caption_bindings", "caption_relations")


def annotation_features(binding_kind: str = DEFAULT_BINDING_KIND) -> datasets.Features:
    """The annotation columns of a build of ``binding_kind`` (module docstring); the attribute
    kind's are :data:`ANNOTATION_FEATURES`, unchanged."""
    if binding_kind not in BINDING_KINDS:
        raise ValueError(
            f"unknown binding kind {binding_kind!r}; choose one of {', '.join(BINDING_KINDS)}"
        )
    features: dict[str, object] = {}
    if binding_kind != "relation":
        features["caption_bindings"] = ANNOTATION_FEATURES["caption_bindings"]
    if binding_kind != "attribute":
        features["caption_relations"] = datasets.List(datasets.List(RELATION_FEATURE))
    features.update({k: v for k, v in ANNOTATION_FEATURES.items() if k != "caption_bindings"})
    return datasets.Features(features)


def annotation_columns(binding_kind: str = DEFAULT_BINDING_KIND) -> tuple[str, ...]:
    """The names of :func:`annotation_features`, in order."""
    return tuple(annotation_features(binding_kind))


#: The category column a build writes for a benchmark with categories.
CATEGORY_COLUMN = "bindsplit_category"
#: The macro-accuracy group column a build writes where the benchmark defines groups.
MACRO_GROUP_COLUMN = "bindsplit_macro_group"
GROUP_COLUMNS: tuple[str, ...] = (CATEGORY_COLUMN, MACRO_GROUP_COLUMN)
#: Feature of either group column (``None`` where a row has no group).
GROUP_FEATURE = datasets.Value("string")
