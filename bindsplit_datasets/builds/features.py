"""The annotation columns BindSplit adds to every benchmark row, declared once.

``caption_bindings``
    Per caption (in the benchmark's caption order), the list of its bindings, each with the
    reference-corpus ``count`` and the ``seen`` flag (``count >= min_count``).
``caption_familiarity``
    Per caption, the fraction of its bindings that are seen; ``None`` for a caption without
    bindings.
``asymmetric``
    Whether the positive caption (caption 0) and the negatives differ in familiarity.
``balanced``
    Whether every caption with bindings has the same familiarity, above zero: the samples of the
    ``balanced`` configuration (``seen`` samples are all balanced, ``unseen`` ones never).
``bindsplit_label``
    ``seen`` / ``unseen`` / ``partial`` / ``none`` (docs/protocol.md, section 3), a
    ``datasets.ClassLabel`` (:data:`LABEL_FEATURE`): rows store the index into
    :data:`~bindsplit_datasets.names.SPLIT_LABELS`, and the Hub's viewer, ``datasets`` and
    :func:`label_name` give the name.

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

from ..names import SPLIT_LABELS

__all__ = [
    "ANNOTATION_COLUMNS",
    "ANNOTATION_FEATURES",
    "BINDING_FEATURE",
    "CATEGORY_COLUMN",
    "GROUP_COLUMNS",
    "GROUP_FEATURE",
    "LABEL_FEATURE",
    "MACRO_GROUP_COLUMN",
    "card_label_problem",
    "label_feature_problem",
    "label_name",
]

BINDING_FEATURE = {
    "attribute": datasets.Value("string"),
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

#: The category column a build writes for a benchmark with categories.
CATEGORY_COLUMN = "bindsplit_category"
#: The macro-accuracy group column a build writes where the benchmark defines groups.
MACRO_GROUP_COLUMN = "bindsplit_macro_group"
GROUP_COLUMNS: tuple[str, ...] = (CATEGORY_COLUMN, MACRO_GROUP_COLUMN)
#: Feature of either group column (``None`` where a row has no group).
GROUP_FEATURE = datasets.Value("string")


def label_name(value: int | str) -> str:
    """A sample's ``bindsplit_label`` as its name: rows read from a build hold the class index,
    annotations made in memory (:meth:`~bindsplit_datasets.labels.SampleAnnotation.to_row`) the
    name.

    >>> label_name(1), label_name("unseen")
    ('unseen', 'unseen')
    """
    return value if isinstance(value, str) else str(LABEL_FEATURE.int2str(value))


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
