"""SugarCrepe (Hsieh et al., NeurIPS 2023 Datasets and Benchmarks): one COCO val2017 image, a
positive caption and a hard negative caption that adds, replaces or swaps an object, attribute or
relation.

Two source layouts are read:

* **official** (the ``data/`` folder of the SugarCrepe repository): one JSON file per subset,
  ``add_att``, ``add_obj``, ``replace_att``, ``replace_obj``, ``replace_rel``, ``swap_att``,
  ``swap_obj`` (``_ent`` is read as ``_obj``, the repository's earlier file names), each
  ``{"<key>": {"filename", "caption", "negative_caption"}}``, plus the COCO val2017 images they
  name. ``source`` is the repository folder, its ``data/`` folder or one subset file; the images
  come from the ``images`` option (``--images``: the val2017 folder) or else are downloaded once
  and cached (:mod:`.coco_images`). ``source=None`` downloads the JSON files from the repository.
  Each sample becomes a row ``image`` (the JPEG's bytes, unchanged), ``filename``, ``caption``,
  ``negative_caption``, ``subset`` (the canonical subset name); subsets in the order above, samples
  in file order. A row whose image is missing from the folder or unreadable is dropped and counted
  (``missing_image``/``unreadable_image``); ``--strict`` fails instead.
* **copy**: a Hub id or local Parquet files with the columns ``image`` (or ``images``, read as
  ``image``), ``caption``, ``negative_caption`` and ``subset``.

``caption`` is the positive caption (the leakage guard looks for it in the reference: SugarCrepe's
positives are COCO val2017 captions), bindings come from the caption parser, and per-category
breakdowns are per ``subset``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import datasets

from ..downloads import default_cache_dir, download, files_digest
from ..errors import BindsplitFileNotFoundError, BindsplitValueError, SchemaError
from ..input_files import check_input_file
from . import from_spec
from .base import (
    LoadedSource,
    ParsedCaptionsAdapter,
    SourceReport,
    drop_rows,
    image_problem,
    read_dataset_source,
)
from .coco_images import coco_val2017_images

__all__ = [
    "RECORD_FIELDS",
    "SUBSETS",
    "SUBSET_ALIASES",
    "SugarCrepe",
    "download_official_source",
    "check_filename",
    "find_subset_files",
    "images_folder",
]

#: The subsets, one JSON file each, in build order.
SUBSETS: tuple[str, ...] = (
    "add_att",
    "add_obj",
    "replace_att",
    "replace_obj",
    "replace_rel",
    "swap_att",
    "swap_obj",
)
#: Earlier file names of the repository, read as the subset they name.
SUBSET_ALIASES: Mapping[str, str] = {
    "add_ent": "add_obj",
    "replace_ent": "replace_obj",
    "swap_ent": "swap_obj",
}
#: The fields of every sample of a subset file.
RECORD_FIELDS: tuple[str, ...] = ("filename", "caption", "negative_caption")
#: The folder of the subset files in the repository.
DATA_FOLDER = "data"
#: Where ``source=None`` downloads the subset files from.
OFFICIAL_URL = "https://raw.githubusercontent.com/RAIVNLab/sugar-crepe/main/data/{subset}.json"

#: Bumped when the rows read from the official layout change, so cached reads are not reused.
_READ_VERSION = 1
#: Temporary column holding each sample's image problem while the official layout is read.
_PROBLEM = "_bindsplit_image_problem"
#: The text fields of a SugarCrepe sample, as the rows store them (after ``image``).
_RECORD_FEATURES = datasets.Features(dict.fromkeys(RECORD_FIELDS, datasets.Value("string")))


def _subset_of(
    path: Path, subsets: Sequence[str] = SUBSETS, aliases: Mapping[str, str] = SUBSET_ALIASES
) -> str | None:
    """The canonical subset a file name stands for (``None``: not a subset file)."""
    if path.suffix != ".json":
        return None
    return path.stem if path.stem in subsets else aliases.get(path.stem)


def find_subset_files(
    folder: str | os.PathLike[str],
    subsets: Sequence[str] = SUBSETS,
    aliases: Mapping[str, str] = SUBSET_ALIASES,
) -> dict[str, Path]:
    """The subset files directly in ``folder``: canonical subset -> file, in ``subsets`` order
    (default: SugarCrepe's :data:`SUBSETS`, with the earlier names ``aliases``; empty if there
    are none).

    Raises:
        SchemaError: a subset has two files (``add_obj.json`` and ``add_ent.json``).
    """
    found: dict[str, Path] = {}
    for path in sorted(Path(folder).glob("*.json")):
        subset = _subset_of(path, subsets, aliases)
        if subset is None:
            continue
        if subset in found:
            raise SchemaError(
                f"{folder} holds two files of the subset {subset!r}: {found[subset].name} and "
                f"{path.name}; keep one"
            )
        found[subset] = path
    return {subset: found[subset] for subset in subsets if subset in found}


def _official_files(
    path: Path, subsets: Sequence[str] = SUBSETS, aliases: Mapping[str, str] = SUBSET_ALIASES
) -> dict[str, Path]:
    """The subset files of an official-layout ``path`` (a subset file, the ``data/`` folder or the
    repository folder); empty if ``path`` is not in that layout."""
    if path.is_file():
        subset = _subset_of(path, subsets, aliases)
        return {subset: path} if subset else {}
    if not path.is_dir():
        return {}
    return find_subset_files(path, subsets, aliases) or (
        find_subset_files(path / DATA_FOLDER, subsets, aliases)
        if (path / DATA_FOLDER).is_dir()
        else {}
    )


def _read_subset(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """The ``(key, sample)`` pairs of one subset file, in file order, each sample checked to have
    :data:`RECORD_FIELDS` as strings and a plain file name."""
    try:
        samples = json.loads(check_input_file(path, "subset file").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SchemaError(f"{path} is not a readable JSON file: {error}") from None
    if not isinstance(samples, dict) or not samples:
        raise SchemaError(
            f"{path} must hold a non-empty JSON object of samples, "
            '{"<key>": {"filename", "caption", "negative_caption"}}, as SugarCrepe\'s files do'
        )
    records = []
    for key, sample in samples.items():
        if not isinstance(sample, dict) or not all(
            isinstance(sample.get(field), str) for field in RECORD_FIELDS
        ):
            raise SchemaError(
                f"{path}: sample {key!r} must have the string fields {list(RECORD_FIELDS)}, got "
                f"{sample!r}"
            )
        check_filename(path, key, sample["filename"])
        records.append((key, {field: sample[field] for field in RECORD_FIELDS}))
    return records


def check_filename(path: Path, key: str, filename: str) -> None:
    """Raise :class:`SchemaError` unless ``filename`` (of sample ``key`` of ``path``) is a plain
    file name, as the COCO val2017 images are named."""
    if not filename or Path(filename).name != filename or filename in (".", ".."):
        raise SchemaError(
            f"{path}: sample {key!r} names the image {filename!r}; expected a file name in "
            "the COCO val2017 folder, such as '000000000139.jpg'"
        )


def images_folder(images: str | os.PathLike[str] | None) -> Path:
    """The val2017 folder given by ``--images`` (or the folder above it), else the cached one."""
    if images is None:
        return coco_val2017_images()
    folder = Path(images).expanduser()
    if not folder.is_dir():
        raise BindsplitFileNotFoundError(
            f"--images {folder} is not a folder; pass the COCO val2017 image folder, or leave "
            "--images out to download it"
        )
    nested = folder / "val2017"
    return nested if nested.is_dir() else folder


def download_official_source(
    cache_dir: str | os.PathLike[str] | None = None, *, progress: bool = True
) -> Path:
    """The subset files of the SugarCrepe repository, downloaded once into
    ``<cache>/sugarcrepe/data`` (:data:`OFFICIAL_URL`); returns that folder."""
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    folder = root / "sugarcrepe" / DATA_FOLDER
    for subset in SUBSETS:
        download(OFFICIAL_URL.format(subset=subset), folder / f"{subset}.json", progress=progress)
    return folder


def _image_stats(folder: Path, filenames: Sequence[str]) -> list[Any]:
    """Size and modification time of every named image (part of the read cache's key)."""
    stats = []
    for name in dict.fromkeys(filenames):
        path = folder / name
        stat = path.stat() if path.is_file() else None
        stats.append([name, stat.st_size, stat.st_mtime_ns] if stat else [name, None, None])
    return stats


def _official_rows(
    samples: Sequence[Mapping[str, Any]], image_dir: str
) -> Iterator[dict[str, Any]]:
    """Each sample with its image file's bytes, or ``image=None`` and the problem in
    ``_PROBLEM``; each distinct image is checked once."""
    folder = Path(image_dir)
    problems: dict[str, str | None] = {}
    for sample in samples:
        name = sample["filename"]
        path = folder / name
        image: dict[str, Any] | None = None
        if name not in problems:
            problems[name] = image_problem({"bytes": None, "path": str(path)})
        if problems[name] is None:
            image = {"bytes": path.read_bytes(), "path": name}
        yield {**sample, "image": image, _PROBLEM: problems[name]}


@from_spec("sugarcrepe")
class SugarCrepe(ParsedCaptionsAdapter):
    """SugarCrepe, every subset; see the module docstring for the layouts it reads (its
    columns, licence and citation: ``specs/sugarcrepe.yaml``)."""

    load_options: ClassVar[tuple[str, ...]] = ("images",)
    #: The subset files of the official layout, in build order, and the earlier file names read
    #: as a subset (class variables, so that SugarCrepe++ reads its files through this code).
    subsets: ClassVar[tuple[str, ...]] = SUBSETS
    subset_aliases: ClassVar[Mapping[str, str]] = SUBSET_ALIASES
    #: The fields of a sample of a subset file, as the rows store them (after ``image``).
    record_features: ClassVar[datasets.Features] = _RECORD_FEATURES

    def read_subset(self, path: Path) -> list[tuple[str, dict[str, Any]]]:
        """The ``(key, sample)`` pairs of one subset file, in file order, checked."""
        return _read_subset(path)

    def download_source(self) -> Path:
        """The folder of the subset files of the official release, downloaded once."""
        return download_official_source()

    def source_url(self) -> str:
        """Where :meth:`download_source` reads the subset files from (recorded in the source
        identity)."""
        return OFFICIAL_URL

    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """Read the official layout (``source=None``: downloaded from the repository) or a copy
        (module docstring).

        Option ``images``: the COCO val2017 image folder of the official layout (default: the
        cached download).
        """
        self.check_options(options)
        images = options.get("images")
        if source is None:
            files = find_subset_files(self.download_source(), self.subsets, self.subset_aliases)
            loaded = self._load_official(files, images_folder(images), strict=strict)
            loaded.identity["url"] = self.source_url()
            return loaded
        path = Path(source).expanduser()
        files = _official_files(path, self.subsets, self.subset_aliases)
        if files:
            return self._load_official(files, images_folder(images), strict=strict)
        if path.is_dir() and not any(path.rglob("*.parquet")):
            raise BindsplitFileNotFoundError(
                f"{path} is not a {self.pretty_name} source: it has no subset files "
                f"({', '.join(f'{s}.json' for s in self.subsets)}) directly or in "
                f"{DATA_FOLDER}/, and no Parquet files"
            )
        if images is not None:
            raise BindsplitValueError(
                f"--images applies to the official layout (the subset JSON files), and {source} "
                "is not one; a Parquet or Hub copy holds its images"
            )
        return self._load_copy(source, strict=strict)

    def _load_copy(self, source: str | Path, *, strict: bool) -> LoadedSource:
        dataset, identity = read_dataset_source(source, hub_revision=None, split=self.hub_split)
        if "image" not in dataset.column_names and "images" in dataset.column_names:
            dataset = dataset.rename_column("images", "image")
        self.check_columns(dataset.column_names, str(source))
        if not isinstance(dataset.features["image"], datasets.Image):
            dataset = dataset.cast_column("image", datasets.Image())
        identity["layout"] = "copy"
        return self.checked_source(dataset, identity, strict=strict)

    def _load_official(
        self, files: Mapping[str, Path], image_dir: Path, *, strict: bool
    ) -> LoadedSource:
        samples: list[dict[str, Any]] = []
        keys: list[tuple[str, str]] = []  # (subset, key in its file) of every sample
        for subset, path in files.items():
            for key, record in self.read_subset(path):
                samples.append({**record, "subset": subset})
                keys.append((subset, key))
        paths = list(files.values())
        json_sha256 = files_digest(paths)
        fingerprint = hashlib.sha256(
            json.dumps(
                [
                    _READ_VERSION,
                    self.name,
                    json_sha256,
                    str(image_dir.resolve()),
                    _image_stats(image_dir, [s["filename"] for s in samples]),
                ]
            ).encode()
        ).hexdigest()
        dataset = datasets.Dataset.from_generator(
            _official_rows,
            features=datasets.Features(
                {
                    "image": datasets.Image(),
                    **self.record_features,
                    "subset": datasets.Value("string"),
                    _PROBLEM: datasets.Value("string"),
                }
            ),
            gen_kwargs={"samples": samples, "image_dir": str(image_dir)},
            fingerprint=fingerprint,
        )
        report = SourceReport()
        sizes = Counter(subset for subset, _ in keys)
        report.notes.append("samples per subset: " + ", ".join(f"{s} {sizes[s]:,}" for s in files))
        absent = [subset for subset in self.subsets if subset not in files]
        if absent:
            report.notes.append(f"subsets not in the source: {', '.join(absent)}")
        aliased = [f"{p.name} as {subset}" for subset, p in files.items() if p.stem != subset]
        if aliased:
            report.notes.append(f"read {', '.join(aliased)}")
        dataset = self._drop_bad_images(dataset, samples, keys, image_dir, report, strict=strict)
        report.n_rows = len(dataset)
        folder = paths[0].parent
        identity = {
            "path": str(folder.resolve()),
            "files": [path.name for path in paths],
            "sha256": json_sha256,
            "layout": "official",
            "images": str(image_dir.resolve()),
            "n_records": len(samples),
        }
        return LoadedSource(dataset=dataset, report=report, identity=identity)

    @staticmethod
    def _drop_bad_images(
        dataset: datasets.Dataset,
        samples: Sequence[Mapping[str, Any]],
        keys: Sequence[tuple[str, str]],
        image_dir: Path,
        report: SourceReport,
        *,
        strict: bool,
    ) -> datasets.Dataset:
        located = (
            (
                position,
                f"{keys[position][0]} sample {keys[position][1]!r} "
                f"({samples[position]['filename']!r} in {image_dir})",
                problem,
            )
            for position, problem in enumerate(dataset[_PROBLEM])
            if problem
        )
        dataset = drop_rows(
            dataset,
            located,
            report,
            strict=strict,
            unit="sample",
            fix="pass --images with the COCO val2017 image folder",
        )
        return dataset.remove_columns(_PROBLEM)
