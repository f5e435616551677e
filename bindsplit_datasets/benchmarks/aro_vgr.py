"""ARO VG-Relation (Yuksekgonul et al., ICLR 2023): one image, a true caption and a false one with
the relation's two objects exchanged ("the horse is eating the grass" / "the grass is eating the
horse").

The source layouts are ARO VG-Attribution's (:mod:`.aro_vga`, whose reading code this adapter
shares):

* **original** (the ARO repository's layout): a folder with ``visual_genome_relation.json`` (a
  list of records with at least ``image_path``, ``bbox_x``/``bbox_y``/``bbox_w``/``bbox_h``,
  ``relation_name``, ``true_caption`` and ``false_caption``: the fields ARO's own loader
  ``dataset_zoo/aro_datasets.py::VG_Relation`` reads) and an ``images/`` folder. Each image is
  converted to RGB and cropped to the bbox, as ARO's loader does; every record field is kept.
* **Hub mirror** ``gowitheflow/ARO-Visual-Relation`` (or a local Parquet copy): ``image``,
  ``true_caption``, ``false_caption``.

Relation triples (SPEC section 1b) come from the record, not the parser: ARO writes each caption
as ``"the {subject} is {relation_name} the {object}"`` and the false caption with subject and
object exchanged, so a record names its relation and its two objects. :func:`split_template`
reads them off the two captions (with ``relation_name`` where the record has it); subject and
object are normalised as objects (:func:`~bindsplit_datasets.parsing.normalise_object`), and the
relation takes the parser's normal form of that very triple in the true caption (its verb
lemma: "is wearing" -> "wear"), or, where the parser reads the pair otherwise, the relation as
written ("to the left of"). The true caption states ``(subject, relation, object)``, the false
one ``(object, relation, subject)``. A row that does not fit the template is kept, its triples
come from the relation parser, and it is counted as ``template_mismatch``.

Attribute bindings (``--bindings attribute|both``) come from the caption parser (VG-Relation's
captions name objects, rarely attributes). ``macro_group`` is ``relation_name``: ARO reports
VG-Relation's accuracy per relation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

import datasets

from ..errors import BindsplitError, SchemaError
from ..parsing import Relation, normalise_object, parse_relations
from . import from_spec
from .aro_vga import AROVGAttribution
from .base import ParsedCaptionsAdapter, SourceReport

__all__ = ["AROVGRelation", "RELATION_FIELDS", "TEMPLATE", "split_template"]

#: The annotation file of the original layout.
ANNOTATION_FILE = "visual_genome_relation.json"
#: The fields every record of the original layout must have (those ARO's loader reads).
RELATION_FIELDS: tuple[str, ...] = (
    "image_path",
    "bbox_x",
    "bbox_y",
    "bbox_w",
    "bbox_h",
    "relation_name",
    "true_caption",
    "false_caption",
)
#: ARO's VG-Relation caption template (the false caption exchanges subject and object).
TEMPLATE = "the {subject} is {relation} the {object}"

_SPACES = re.compile(r"\s+")
_COPULAS = ("is", "are")


def _words(text: str) -> list[str]:
    return _SPACES.sub(" ", text).strip().lower().rstrip(".").split()


def _first_copula(words: list[str]) -> int | None:
    return next((k for k, word in enumerate(words) if word in _COPULAS), None)


def split_template(
    true_caption: str, false_caption: str, relation: str | None = None
) -> list[tuple[str, str, str]]:
    """The ``(subject, relation, object)`` such that the true caption is
    ``"the {subject} is {relation} the {object}"`` and the false caption
    ``"the {object} is {relation} the {subject}"`` (case, spaces and a final period ignored;
    ``are`` as well as ``is``), as a list of one; with ``relation``, only a split of that
    relation. Empty when the row does not fit.

    Subject and object are Visual Genome object names, never a copula: each caption's first
    ``is``/``are`` is its copula, so the split is found in one pass over the words (time linear
    in the captions' length: a hostile record cannot stall a build).

    >>> split_template("the horse is eating the grass", "the grass is eating the horse")
    [('horse', 'eating', 'grass')]
    >>> split_template("The cup is to the left of the plate.", "the plate is to the left of the "
    ...                "cup")
    [('cup', 'to the left of', 'plate')]
    """
    true, false = _words(true_caption), _words(false_caption)
    if len(true) < 5 or len(false) != len(true) or true[0] != "the" or false[0] != "the":
        return []
    body, swapped = true[1:], false[1:]
    a, b = _first_copula(body), _first_copula(swapped)
    if not a or not b or body[a] != swapped[b]:
        return []
    end = len(body) - b  # the object starts here; its "the" is just before
    if end - a < 3 or body[end - 1] != "the":
        return []
    if swapped != body[end:] + body[a:end] + body[:a]:
        return []
    text = " ".join(body[a + 1 : end - 1])
    if relation is not None and text != " ".join(_words(relation)):
        return []
    return [(" ".join(body[:a]), text, " ".join(body[end:]))]


@lru_cache(maxsize=1 << 16)
def _triples(subject: str, relation: str, obj: str, true_caption: str) -> tuple[Relation, Relation]:
    """The true and the false caption's triple: subject and object normalised as objects, the
    relation in the parser's normal form of this pair in the true caption (else as written)."""
    s, o = normalise_object(subject), normalise_object(obj)
    form = relation
    for triple in parse_relations(true_caption):
        if (triple.subject, triple.object) == (s, o):
            form = triple.relation
            break
    return Relation(s, form, o), Relation(o, form, s)


@from_spec("aro_vgr")
class AROVGRelation(AROVGAttribution):
    """ARO VG-Relation; see the module docstring for the layouts it reads and its triples (its
    source, columns, licence and citation: ``specs/aro_vgr.yaml``)."""

    annotation_file: ClassVar[str] = ANNOTATION_FILE
    record_fields: ClassVar[tuple[str, ...]] = RELATION_FIELDS

    @staticmethod
    def _check_record(annotation_file: Path, position: int, record: Mapping[str, Any]) -> None:
        if not isinstance(record["relation_name"], str) or not record["relation_name"].strip():
            raise SchemaError(
                f"{annotation_file}: record {position} must name its relation "
                f"('relation_name'), got {record['relation_name']!r}"
            )

    def _check_template(
        self, dataset: datasets.Dataset, report: SourceReport, *, strict: bool
    ) -> None:
        captions = dataset.select_columns(list(self.caption_columns)).to_dict()
        relations = (
            dataset["relation_name"]
            if "relation_name" in dataset.column_names
            else [None] * len(dataset)
        )
        mismatched: list[int] = []
        rows = zip(captions["true_caption"], captions["false_caption"], relations, strict=True)
        for position, (true, false, relation) in enumerate(rows):
            if split_template(true or "", false or "", relation):
                continue
            if strict:
                raise BindsplitError(
                    f"row {position} does not fit the ARO VG-Relation template {TEMPLATE!r} "
                    f"(true: {true!r}, false: {false!r}); build without --strict to take its "
                    "triples from the relation parser"
                )
            mismatched.append(position)
        if mismatched:
            report.problems["template_mismatch"] += len(mismatched)
            first = mismatched[0]
            report.notes.append(
                f"{len(mismatched)} row(s) do not fit the template {TEMPLATE!r}; their triples "
                f"come from the relation parser (first: row {first}, "
                f"{captions['true_caption'][first]!r})"
            )

    def _load_original(self, annotation_file: Path, *, strict: bool, num_proc: int | None) -> Any:
        loaded = super()._load_original(annotation_file, strict=strict, num_proc=num_proc)
        self._check_template(loaded.dataset, loaded.report, strict=strict)
        return loaded

    # ------------------------------------------------------------------------------ triples
    def _fit(self, row: Mapping[str, Any]) -> tuple[str, str, str] | None:
        fits = split_template(
            row["true_caption"] or "", row["false_caption"] or "", row.get("relation_name")
        )
        return fits[0] if fits else None

    def caption_relations(self, row: Mapping[str, Any]) -> list[list[Relation]]:
        """True caption: (subject, relation, object); false caption: (object, relation,
        subject), from the record (module docstring); the parser where it does not fit."""
        fit = self._fit(row)
        if fit is None:
            return [parse_relations(row[column] or "") for column in self.caption_columns]
        true, false = _triples(*fit, row["true_caption"])
        return [[true], [false]]

    caption_bindings = ParsedCaptionsAdapter.caption_bindings
    all_caption_bindings = ParsedCaptionsAdapter.all_caption_bindings

    def macro_group(self, row: Mapping[str, Any]) -> str | None:
        """The relation (``relation_name``, else the one the captions state): ARO reports
        VG-Relation per relation."""
        relation = row.get("relation_name")
        if isinstance(relation, str) and relation.strip():
            return relation
        fit = self._fit(row)
        return fit[1] if fit else None
