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
    ``seen`` / ``unseen`` / ``partial`` / ``none`` (docs/protocol.md, section 3).
"""

from __future__ import annotations

import datasets

__all__ = ["ANNOTATION_COLUMNS", "ANNOTATION_FEATURES", "BINDING_FEATURE"]

BINDING_FEATURE = {
    "attribute": datasets.Value("string"),
    "object": datasets.Value("string"),
    "count": datasets.Value("int64"),
    "seen": datasets.Value("bool"),
}

ANNOTATION_FEATURES = datasets.Features(
    {
        "caption_bindings": datasets.List(datasets.List(BINDING_FEATURE)),
        "caption_familiarity": datasets.List(datasets.Value("float64")),
        "asymmetric": datasets.Value("bool"),
        "balanced": datasets.Value("bool"),
        "bindsplit_label": datasets.Value("string"),
    }
)

ANNOTATION_COLUMNS: tuple[str, ...] = tuple(ANNOTATION_FEATURES)
