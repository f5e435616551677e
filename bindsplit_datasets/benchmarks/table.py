"""The generic adapter: a benchmark that is a table of image and caption columns, and nothing more.

A shipped spec without an ``adapter`` module (BiVLC, Winoground, ColorSwap) is read by
:class:`TableAdapter`, made into a class of its own by :func:`spec_adapter`: its source is a Hub
dataset at the spec's revision and split, or a local table (:mod:`.table_source`: Parquet, CSV,
JSON lines, image cells as bytes or paths); its captions are free text, parsed (each distinct
caption once); its categories are the spec's category columns.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import datasets

from ..errors import BindsplitValueError
from .base import LoadedSource, ParsedCaptionsAdapter
from .spec import BenchmarkSpec
from .table_source import read_table_source

__all__ = ["TableAdapter", "spec_adapter"]


class TableAdapter(ParsedCaptionsAdapter):
    """A benchmark whose rows are read as a table, declared by its spec (module docstring)."""

    def read_rows(self, source: str | Path | None) -> tuple[datasets.Dataset, dict[str, Any]]:
        """The rows and identity of the Hub source (``source=None``) or of ``source`` (any
        table :func:`read_table_source` reads); required columns checked, image columns typed
        ``datasets.Image``."""
        if source is None:
            if self.hub_id is None:
                raise BindsplitValueError(
                    f"{self.pretty_name} has no Hub source; pass its table (--source)"
                )
            source = self.hub_id
        dataset, identity = read_table_source(
            source,
            split=self.hub_split,
            revision=self.hub_revision,
            image_columns=self.image_columns,
        )
        self.check_columns(dataset.column_names, str(source))
        for column in self.image_columns:
            if not isinstance(dataset.features[column], datasets.Image):
                dataset = dataset.cast_column(column, datasets.Image())
        return dataset, identity

    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """Read the Hub source (``None``), another Hub id, or a local table."""
        self.check_options(options)
        return self.read_table(source, strict=strict)


def spec_adapter(
    spec: BenchmarkSpec, base: type[TableAdapter] = TableAdapter
) -> type[TableAdapter]:
    """A :class:`TableAdapter` subclass (``base``'s) with the class variables of ``spec``."""
    words = re.split(r"[^A-Za-z0-9]+", spec.name)
    class_name = "".join(word[:1].upper() + word[1:] for word in words) + "Benchmark"
    return type(class_name, (base,), {**spec.class_variables(), "__module__": __name__})
