"""The synthetic benchmark: BindSplit's own ground-truth world in miniature (docs/protocol.md, 7).

Shapes x colours rendered with PIL, a held-out set of (colour, shape) bindings, a training corpus
that uses seen bindings only, and 2 x 2 attribute-swap samples stratified ``seen`` / ``partial`` /
``unseen`` by the project's own labels against that corpus (see
:mod:`bindsplit_datasets.synthetic`). ``image_0``/``caption_0`` is a scene, ``image_1``/
``caption_1`` the same scene with its two colours swapped.

Source: a folder written by :func:`bindsplit_datasets.synthetic.write_test_benchmark` (its
``test/*.parquet``), or one such Parquet file; with no source, the default test benchmark of the
default world, generated deterministically into a cache folder on first use (options
``n_per_stratum`` and ``seed`` choose another one). Bindings come from the structured columns
``objects``, ``attributes_0``, ``attributes_1`` (the parser agrees with them; a test checks it),
and its reference index is the world's training corpus, saved beside the samples
(:meth:`Synthetic.default_reference`), not COCO.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from ..errors import BindsplitFileNotFoundError, BindsplitValueError
from ..parsing import Binding, normalise_binding
from . import from_spec
from .base import BenchmarkAdapter, LoadedSource, read_dataset_source

__all__ = ["Synthetic", "default_reference_file", "default_source"]


def _cache_root() -> Path:
    """``$BINDSPLIT_CACHE/synthetic`` or ``~/.cache/bindsplit/synthetic``."""
    root = os.environ.get("BINDSPLIT_CACHE") or Path.home() / ".cache" / "bindsplit"
    return Path(root) / "synthetic"


def default_source(n_per_stratum: int | None = None, seed: int | None = None) -> Path:
    """Folder of the default world's test benchmark, generated on first use (deterministic)."""
    from ..reference import ReferenceIndex
    from ..synthetic import (
        DEFAULT_N_PER_STRATUM,
        DEFAULT_TEST_SEED,
        default_world,
        write_test_benchmark,
    )

    n = DEFAULT_N_PER_STRATUM if n_per_stratum is None else int(n_per_stratum)
    s = DEFAULT_TEST_SEED if seed is None else int(seed)
    world = default_world()
    folder = _cache_root() / f"test-{world.fingerprint[:12]}-n{n}-seed{s}"
    if not (folder / "generation.json").is_file():
        index = ReferenceIndex.load(default_reference_file())
        write_test_benchmark(world, folder, n_per_stratum=n, seed=s, index=index, overwrite=True)
    return folder


def default_reference_file() -> Path:
    """The default world's reference index as a saved file, built on first use."""
    from ..synthetic import default_world, reference_index

    world = default_world()
    path = _cache_root() / f"reference-{world.fingerprint[:12]}.parquet"
    if not path.is_file():
        reference_index(world).save(path)
    return path


@from_spec("synthetic")
class Synthetic(BenchmarkAdapter):
    """The synthetic attribute-swap benchmark (see module docstring; its columns and licence:
    ``specs/synthetic.yaml``). Its captions are templated, so they also occur verbatim in its
    reference corpus (the images never do): the spec turns the leakage guard off."""

    load_options: ClassVar[tuple[str, ...]] = ("n_per_stratum", "seed")
    #: The folder of a written test benchmark that holds this benchmark's samples.
    samples_folder: ClassVar[str] = "test"

    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """Read a written test benchmark, or generate the default one (``source=None``)."""
        self.check_options(options)
        if source is None:
            source = default_source(options.get("n_per_stratum"), options.get("seed"))
        elif options:
            raise BindsplitValueError(
                f"options {sorted(options)} only choose the generated default benchmark; "
                "omit them when you pass a source"
            )
        path = Path(source).expanduser()
        folder = path / self.samples_folder
        data = folder if folder.is_dir() else path
        if path.is_dir() and data == path:
            raise BindsplitFileNotFoundError(
                f"{path} is not a synthetic benchmark folder (no {self.samples_folder}/ folder); "
                "write one with bindsplit_datasets.synthetic.write_test_benchmark or pass a "
                "Parquet file"
            )
        dataset, identity = read_dataset_source(data, hub_revision=None, split=self.hub_split)
        self.check_columns(dataset.column_names, str(source))
        identity["generator"] = "bindsplit.synthetic"
        world_file = (path if path.is_dir() else path.parent.parent) / "world.json"
        if world_file.is_file():
            from ..synthetic import SyntheticWorld

            identity["world"] = SyntheticWorld.load(world_file).fingerprint
        loaded = self.checked_source(dataset, identity, strict=strict)
        loaded.report.notes.append(
            "synthetic benchmark: captions are templated, so its captions also occur verbatim in "
            "the world's training corpus (the reference); the images never do"
        )
        return loaded

    def caption_bindings(self, row: Mapping[str, Any]) -> list[list[Binding]]:
        """(colour, shape) of each object, in caption order, for caption 0 and caption 1."""
        objects = row["objects"]
        return [
            [
                normalise_binding(colour, shape)
                for colour, shape in zip(row[column], objects, strict=True)
            ]
            for column in ("attributes_0", "attributes_1")
        ]

    def default_reference(self, source: str | Path | None = None) -> Path:
        """The reference index that belongs to ``source``: its world's training corpus.

        ``source`` is a benchmark folder or a Parquet file inside one, whose index is
        ``reference.parquet`` at the folder's top; ``None``: the default world's index.

        Raises:
            FileNotFoundError: ``source`` has no ``reference.parquet`` beside it.
        """
        if source is None:
            return default_reference_file()
        path = Path(source).expanduser()
        folder = path if path.is_dir() else path.parent
        if folder.name == self.samples_folder:
            folder = folder.parent
        reference = folder / "reference.parquet"
        if not reference.is_file():
            raise BindsplitFileNotFoundError(
                f"no reference.parquet beside {source}: a synthetic benchmark is labelled against "
                "its world's training corpus; name that index with --reference (reference=...)"
            )
        return reference
