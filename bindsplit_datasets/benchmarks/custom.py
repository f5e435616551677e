"""Any table of images and captions as a benchmark: ``bindsplit build custom``.

The user names the columns (or gives a spec file in the format of the shipped specs, :mod:`.spec`)
and the generic table adapter reads the rest (:mod:`.table`, :mod:`.table_source`). The pairing
is the one every build is stored in:

* ``image_columns[i]`` pairs with ``caption_columns[i]`` (the *positive* caption of image ``i``);
* the ``caption_columns`` after the last image's are *negatives* of image 0;
* ``hard_positive_columns`` are more captions true of image 0 (seed 003's hard positives). They
  are listed apart from ``caption_columns`` and the build stores them right after the positives,
  before the negatives (the order of
  :class:`~bindsplit_datasets.builds.manifest.BuildColumns`): ``--caption-columns good,bad
  --hard-positive-columns also_good`` gives the caption columns ``good, also_good, bad``.

The mapping (which column has which role) is part of the source identity a custom build records
(``source.mapping`` in its manifest), stated on its card and hashed into its fingerprint, so two
builds of one table with other roles never share a fingerprint.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import BindsplitValueError, SchemaError
from .base import LoadedSource
from .spec import BenchmarkSpec, parse_spec, read_spec
from .table import TableAdapter, spec_adapter
from .table_source import table_columns

__all__ = ["CUSTOM", "CustomAdapter", "custom_adapter", "custom_mapping", "custom_spec"]

#: The benchmark name that stands for a user's table (``bindsplit build custom``), and the
#: default name of such a build.
CUSTOM = "custom"


def custom_spec(
    *,
    image_columns: Sequence[str],
    caption_columns: Sequence[str],
    hard_positive_columns: Sequence[str] = (),
    id_column: str | None = None,
    name: str | None = None,
) -> BenchmarkSpec:
    """The spec of a user's table from its column names (module docstring for the roles).

    Raises:
        SpecError: fewer caption columns than image columns, a column with two roles, a name
            that is not a benchmark name.
    """
    if not image_columns:
        raise BindsplitValueError("name the image column(s) of the table (--image-columns A[,B])")
    if len(caption_columns) < len(image_columns):
        raise BindsplitValueError(
            f"{len(image_columns)} image column(s) need at least as many caption columns, the "
            f"first {len(image_columns)} being the positive caption of each image; got "
            f"--caption-columns {','.join(caption_columns) or '(none)'}"
        )
    n_images = len(image_columns)
    data = {
        "name": name or CUSTOM,
        "columns": {
            "id": id_column,
            "images": list(image_columns),
            "captions": {
                "positive": list(caption_columns[:n_images]),
                "hard_positive": list(hard_positive_columns),
                "negative": list(caption_columns[n_images:]),
            },
        },
    }
    return parse_spec(data, "the command line")


def custom_mapping(spec: BenchmarkSpec) -> dict[str, Any]:
    """Which column has which role: what a custom build records and hashes."""
    return {
        "id": spec.id_column,
        "image": list(spec.image_columns),
        "positive": list(spec.captions.positive),
        "hard_positive": list(spec.captions.hard_positive),
        "negative": list(spec.captions.negative),
        "categories": list(spec.category_columns),
    }


class CustomAdapter(TableAdapter):
    """A user's table, read as a table (module docstring)."""

    def check_columns(self, column_names: Sequence[str], where: str) -> None:
        """One line naming the columns the table lacks and the columns it has."""
        missing = [c for c in self.required_columns if c not in column_names]
        if missing:
            raise SchemaError(
                f"{where} has no column(s) {missing}; its columns are {list(column_names)}: "
                "name those in --image-columns, --caption-columns, --hard-positive-columns and "
                "--id-column (or in the spec file)"
            )

    def check_source(self, source: str | Path | None) -> None:
        """Besides the source's existence: a local table's column names, from its header or
        schema, so that a wrong column name is reported before the reference is read."""
        super().check_source(source)
        if source is None:
            if self.hub_id is None:
                raise BindsplitValueError(
                    "name the table to read: --source FILE, FOLDER or ORG/NAME"
                )
            return
        columns = table_columns(source)
        if columns is not None:
            self.check_columns(columns, str(source))

    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """The table's rows; the source identity records the mapping (:func:`custom_mapping`)."""
        loaded = super().load(source, strict=strict, **options)
        assert self.spec is not None  # made by custom_adapter from a spec
        loaded.identity["mapping"] = custom_mapping(self.spec)
        return loaded


def custom_adapter(spec: BenchmarkSpec | str | Path) -> TableAdapter:
    """The adapter of a user's table described by ``spec`` (a :class:`BenchmarkSpec`, e.g. from
    :func:`custom_spec`, or a spec file to read).

    Raises:
        SpecError: an unreadable or invalid spec file.
        BindsplitValueError: a name that is a shipped benchmark's (its build would be taken for
            that benchmark's), or a spec naming an adapter module (a custom table is read as a
            table).
    """
    from . import get_benchmark, list_benchmarks

    if not isinstance(spec, BenchmarkSpec):
        spec = read_spec(spec)
    if spec.adapter is not None:
        raise BindsplitValueError(
            f"{spec.path}: a custom table is read as a table; remove 'adapter: {spec.adapter}'"
        )
    shipped = set(list_benchmarks())
    shipped |= {alias for known in list_benchmarks() for alias in get_benchmark(known).aliases}
    if spec.name in shipped:
        raise BindsplitValueError(
            f"{spec.name!r} is a shipped benchmark: build it with `bindsplit build {spec.name}`, "
            "or give your table another name (--name, or 'name' in the spec file)"
        )
    return spec_adapter(spec, base=CustomAdapter)()
