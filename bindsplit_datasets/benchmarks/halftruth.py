"""The half-truth benchmark: half-truths of any source of images with captions, by familiarity.

A derived benchmark (:mod:`bindsplit_datasets.halftruths`): its rows are made from a source
(``--source``: ``synthetic``, the synthetic relation test set or a folder written by
``write_test_benchmark``; a COCO caption file with ``--images``; a table with ``image_columns``
and ``caption_columns``) against the build's reference index, which decides each foil's
familiarity. Rows keep the source's own columns and add ``anchor``, ``half_truth``,
``refinement``, ``added_unit``, ``added_kind``, ``edit`` and ``added_label``. The image column is
the source's (``image_0``, ``image``, the table's); the captions are ``anchor`` (the positive),
``refinement`` (a hard positive: also true of the image) and ``half_truth`` (the negative). Each
row is labelled by its foil alone (``both`` binding kinds: the foil is an entity or a triple), so
``seen`` / ``unseen`` are the foil's familiarity; the category is ``{added_kind}/{edit}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from ..datasets_compat import progress_bars_off
from ..errors import BindsplitValueError
from ..names import HALFTRUTH, REFERENCE_OPTION
from ..parsing import Binding, Relation, parse_bindings, parse_relations
from . import from_spec
from .base import BenchmarkAdapter, LoadedSource, SourceReport, check_images

__all__ = ["HalfTruthBenchmark"]

_POSITION = "_bindsplit_source_row"


def _columns(value: Any) -> list[str] | None:
    """A column list given as ``"a,b"`` or a sequence (``None`` stays ``None``)."""
    if value is None:
        return None
    names = value.split(",") if isinstance(value, str) else list(value)
    return [name.strip() for name in names if name.strip()]


@from_spec(HALFTRUTH)
class HalfTruthBenchmark(BenchmarkAdapter):
    """Half-truths of a source of captioned images (see module docstring; its caption roles,
    licence and citation: ``specs/halftruth.yaml``). The image column is the source's, set when
    :meth:`load` has read it."""

    #: A half-truth row is labelled by its foil, an entity or a triple.
    labelled_by: ClassVar[str] = "both"
    load_options: ClassVar[tuple[str, ...]] = (
        "units",
        "images",
        "image_columns",
        "caption_columns",
        "max_images",
        "seed",
        REFERENCE_OPTION,
    )

    def check_source(self, source: str | Path | None) -> None:
        from .halftruth_sources import SYNTHETIC

        if source is not None and str(source) == SYNTHETIC:
            return
        super().check_source(source)

    def default_reference(self, source: str | Path | None = None) -> str | Path:
        """The synthetic world's own training corpus for a synthetic source, else COCO
        train2017 (``coco2017``)."""
        from . import get_benchmark
        from .halftruth_sources import SYNTHETIC, source_kind

        if source_kind(source) != "synthetic":
            return "coco2017"
        folder = None if source is None or str(source) == SYNTHETIC else source
        return get_benchmark("synthetic_relation").default_reference(folder)

    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """Read the source and make its half-truth rows against ``options["reference"]`` (the
        build's reference index, which the builder passes)."""
        from ..halftruths.rows import halftruth_rows, sample_positions
        from .halftruth_sources import read_source

        self.check_options(options)
        index = options.get(REFERENCE_OPTION)
        if index is None or isinstance(index, (str, Path)):
            raise BindsplitValueError(
                "half-truths are made against a reference index: build them with `bindsplit build "
                "halftruth` or build_benchmark('halftruth', ...), which pass it"
            )
        units = str(options.get("units") or "both")
        seed = int(options.get("seed") or 0)
        max_images = options.get("max_images")
        captioned = read_source(
            source,
            images=options.get("images"),
            image_columns=_columns(options.get("image_columns")),
            caption_columns=_columns(options.get("caption_columns")),
        )
        report = SourceReport()
        # a seeded sample of the images first (only those are read), each numbered as in the
        # source (its number seeds its half-truths); datasets' bars off: the steps log their own
        chosen = sample_positions(
            len(captioned.dataset), None if max_images is None else int(max_images), seed
        )
        with progress_bars_off():
            numbered = captioned.dataset.select(chosen).flatten_indices()
            numbered = numbered.add_column(_POSITION, chosen)
            checked = check_images(numbered, [captioned.image_column], report, strict=strict)
            kept = list(checked[_POSITION])
            captioned.dataset = checked.remove_columns(_POSITION)
            captioned.captions = [captioned.captions[i] for i in kept]
            self.image_columns = (captioned.image_column,)  # type: ignore[misc]  # the source's
            made = halftruth_rows(
                captioned, index, units=units, seed=seed, numbers=kept, progress=True
            )
        report.n_rows = len(made.dataset)
        report.notes += [
            f"half-truths of {made.n_images:,} images ({units} units, seed {seed}): "
            f"{len(made.dataset):,} rows; {made.without:,} images gave none (no caption with two "
            "units that read back)",
            "each row is labelled by its foil alone (the unit `added_unit` states): seen when "
            "the reference holds it, unseen when not; `caption_bindings` / `caption_relations` "
            "list the foil under `half_truth`. `anchor` and `refinement` are true of the image "
            "(the refinement a hard positive), `half_truth` is not",
            "the verbatim-caption leakage check does not apply: anchors are short descriptions "
            "written from the captions, which a corpus of the same domain holds by chance",
        ]
        identity = {
            **captioned.identity,
            "halftruth": {"units": units, "seed": seed, "max_images": max_images},
        }
        return LoadedSource(dataset=made.dataset, report=report, identity=identity)

    def caption_bindings(self, row: Mapping[str, Any]) -> list[list[Binding]]:
        """The foil (the half-truth's added entity) under the half-truth, nothing else: the
        row's label is the foil's familiarity."""
        foil = parse_bindings(row["added_unit"]) if row["added_kind"] == "entity" else []
        return [[], [], foil]

    def caption_relations(self, row: Mapping[str, Any]) -> list[list[Relation]]:
        """The foil (the half-truth's added triple) under the half-truth, nothing else."""
        foil = parse_relations(row["added_unit"]) if row["added_kind"] == "relation" else []
        return [[], [], foil]

    def category(self, row: Mapping[str, Any]) -> str | None:
        """``{added_kind}/{edit}``: ``entity/attribute``, ``relation/swap``."""
        return f"{row['added_kind']}/{row['edit']}"
