"""The synthetic relation benchmark: the synthetic world's relation-swap samples (docs/protocol.md,
section 7), where the truth of every triple is known from the scene.

``image_0``/``caption_0`` is a scene stating a spatial triple ("a red circle to the left of a blue
square"), ``image_1``/``caption_1`` a scene whose caption is false of ``image_0``: the arguments
exchanged (``negative`` = ``swap``) or the relation changed to its converse (``relation``); see
:mod:`bindsplit_datasets.synthetic.relation_testset`. Triples come from the structured columns
``triple_0``/``triple_1`` (the relation parser agrees with them; a test checks it), bindings from
``objects``/``attributes``; the category is ``{negative}/{relation of caption 0}``. It is always
labelled by its triples (``labelled_by``; ``--bindings`` does not apply): the strata are those of
the triples, every binding being seen.
Sources and reference are the attribute benchmark's (:class:`~.synthetic.Synthetic`): a folder
written by ``write_test_benchmark`` (its ``relations/*.parquet``) or the generated default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..parsing import Binding, Relation, normalise_binding
from . import from_spec
from .synthetic import Synthetic

__all__ = ["SyntheticRelation"]


@from_spec("synthetic_relation")
class SyntheticRelation(Synthetic):
    """The synthetic relation-swap benchmark (see module docstring; its columns and licence:
    ``specs/synthetic_relation.yaml``)."""

    samples_folder: ClassVar[str] = "relations"
    #: Labelled by the triples: every (colour, shape) binding of a sample is seen.
    labelled_by: ClassVar[str] = "relation"

    def caption_bindings(self, row: Mapping[str, Any]) -> list[list[Binding]]:
        """(colour, shape) of each object, in each caption's order (caption 1 names the object
        first when its arguments are swapped)."""
        bindings = {
            shape: normalise_binding(colour, shape)
            for colour, shape in zip(row["attributes"], row["objects"], strict=True)
        }
        return [
            [bindings[row[column][0]], bindings[row[column][2]]]
            for column in ("triple_0", "triple_1")
        ]

    def caption_relations(self, row: Mapping[str, Any]) -> list[list[Relation]]:
        """The triple each caption states, from ``triple_0`` and ``triple_1``."""
        return [[Relation(*row[column])] for column in ("triple_0", "triple_1")]

    def category(self, row: Mapping[str, Any]) -> str | None:
        """``{negative}/{relation}``: ``swap/above``, ``relation/to the left of``."""
        return f"{row['negative']}/{row['triple_0'][1]}"
