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
    "card_label_problem",
    "label_feature_problem",
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


def label_feature_problem(feature: object) -> str | None:
    """Why ``feature`` (a loaded ``bindsplit_label`` feature) is not :data:`LABEL_FEATURE`: not
    a ``ClassLabel``, or other class names or another order (every row would then read as
    another label); ``None`` when it is."""
    if not isinstance(feature, datasets.ClassLabel):
        return f"bindsplit_label is {type(feature).__name__}, not a ClassLabel"
    if list(feature.names) != list(SPLIT_LABELS):
        return (
            f"bindsplit_label's class names are {list(feature.names)}, the format's are "
            f"{list(SPLIT_LABELS)} in this order"
        )
    return None


def card_label_problem(card: str) -> str | None:
    """Why the ``dataset_info`` of a dataset card (its ``README.md`` text) declares
    ``bindsplit_label`` with other class names than :data:`LABEL_FEATURE` (the Hub's viewer and
    ``datasets`` read the names from there); ``None`` when every declaration matches or the card
    declares none."""
    import yaml

    parts = card.split("---", 2)
    if not card.startswith("---") or len(parts) < 3:
        return None
    try:
        header = yaml.safe_load(parts[1]) or {}
    except yaml.YAMLError as error:
        return f"the card's YAML header cannot be read ({str(error).splitlines()[0]})"
    infos = header.get("dataset_info") if isinstance(header, dict) else None
    for info in infos if isinstance(infos, list) else [infos]:
        features = info.get("features") if isinstance(info, dict) else None
        for feature in features if isinstance(features, list) else []:
            if not isinstance(feature, dict) or feature.get("name") != "bindsplit_label":
                continue
            dtype = feature.get("dtype")
            names = dtype.get("class_label", {}).get("names") if isinstance(dtype, dict) else None
            if not isinstance(names, dict):
                return "the card declares bindsplit_label without its class names"
            ordered = [names.get(str(i), names.get(i)) for i in range(len(names))]
            if ordered != list(SPLIT_LABELS):
                return (
                    f"the card names bindsplit_label's classes {ordered}, the format's are "
                    f"{list(SPLIT_LABELS)} in this order"
                )
    return None
