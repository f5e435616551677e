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
