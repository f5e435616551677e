"""Load a built BindSplit dataset (a folder written by ``bindsplit build`` or its Hub copy).

A build is the benchmark's rows plus BindSplit's annotation columns, in four configurations
(``full``/``seen``/``unseen``/``partial``), and a ``bindsplit.json`` manifest that names the
benchmark, the reference corpus and the fingerprint of the rows (docs/architecture.md). Both are
needed to evaluate a model: the rows give the images, captions, labels and groups, the manifest
says which columns are which (``columns``) and makes results comparable across runs. No benchmark
adapter is asked: a build describes itself.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import datasets

from .builds.features import annotation_columns
from .builds.manifest import (
    REBUILD_FIX,
    SPLIT,
    VERIFY_FIX,
    BuildColumns,
    binding_kind,
    build_columns,
    check_annotations,
    check_manifest,
    load_config,
    local_build,
    read_manifest,
    verify_build,
    verify_rows,
)
from .builds.provenance_digest import check_provenance
from .errors import BindsplitValueError, SchemaError
from .labels import config_includes
from .names import BUILD_FORMAT, CONFIGURATIONS, is_hub_id
from .parquet_files import empty_dataset

__all__ = [
    "BindsplitData",
    "check_config",
    "load_bindsplit",
    "local_source",
    "resolve_data",
]


@dataclass
class BindsplitData:
    """One configuration of a BindSplit build: its rows, the manifest, and where it is from."""

    dataset: datasets.Dataset
    manifest: dict[str, Any]
    config: str = "full"
    #: The folder or Hub id it was loaded from (recorded in results).
    source: str = "<in-memory>"
    revision: str | None = None

    def __post_init__(self) -> None:
        check_manifest(self.manifest, self.source)
        check_annotations(self.dataset, self.source, binding_kind(self.manifest))

    @property
    def benchmark(self) -> str:
        return str(self.manifest["benchmark"])

    @property
    def binding_kind(self) -> str:
        """What the build labels by (``attribute`` for a build made before builds had a kind)."""
        return binding_kind(self.manifest)

    @property
    def fingerprint(self) -> str | None:
        return self.manifest.get("fingerprint")

    @property
    def configs(self) -> tuple[str, ...]:
        """Configurations of the build (from the manifest)."""
        return tuple(self.manifest.get("configs") or CONFIGURATIONS)

    @property
    def columns(self) -> BuildColumns:
        """Which columns are images, captions, ids and groups, as the build recorded them (the
        manifest's ``columns``): no benchmark adapter is needed to read or score a build."""
        return build_columns(self.manifest, self.source)


def check_config(config: str, valid: Sequence[str]) -> None:
    """Raise :class:`~bindsplit_datasets.errors.BindsplitValueError` unless ``config`` is one of
    ``valid``; the message names them."""
    if config not in valid:
        raise BindsplitValueError(
            f"unknown configuration {config!r}; valid configurations: {', '.join(valid)}."
        )


def _empty_hub_config(repo_id: str, config: str, revision: str | None) -> datasets.Dataset:
    """The 0-row configuration ``config`` of a Hub build, from its shard (schema only)."""
    from huggingface_hub import hf_hub_download

    shard = hf_hub_download(
        repo_id, f"{config}/{SPLIT}-00000-of-00001.parquet", repo_type="dataset", revision=revision
    )
    return empty_dataset(shard)


def load_bindsplit(
    data: str | Path,
    config: str = "full",
    *,
    revision: str | None = None,
    cache_dir: str | Path | None = None,
    verify: bool = True,
) -> BindsplitData:
    """Rows of configuration ``config`` of a built folder or Hub dataset, with the manifest.

    With ``verify`` (the default) the data must match its manifest before it is used: a local
    folder is checked in full by :func:`~bindsplit_datasets.builds.manifest.verify_build`; from
    the Hub, ``full`` is checked the same way (fingerprint and composition), another
    configuration for its row count and labels only (checking it against ``full`` would
    download ``full`` too).
    ``verify=False`` (``--no-verify``) skips this for a build changed on purpose.

    Raises:
        FileNotFoundError: ``data`` is neither a folder nor a Hub id.
        SchemaError: it is not a BindSplit build (no manifest, no annotation columns).
        BuildVerificationError: (a ``SchemaError``) its files do not match its manifest, or a
            Parquet file is truncated or corrupt.
        ValueError: unknown ``config``; the message lists the build's configurations.
    """
    folder = local_build(data)
    if folder is not None and verify:
        manifest = verify_build(folder, cache_dir=cache_dir)
    else:
        manifest = read_manifest(data, revision=revision)
        if verify:  # from the Hub: what the build says it was made from, checked first
            check_provenance(manifest, str(data), fix=VERIFY_FIX, rebuild=REBUILD_FIX)
    check_config(config, tuple(manifest["configs"]))
    if folder is not None:
        dataset = load_config(folder, config, cache_dir=cache_dir)
    elif manifest["configs"][config] == 0:  # `datasets` refuses an empty split: read the shard
        dataset = _empty_hub_config(str(data), config, revision)
    else:
        dataset = datasets.load_dataset(
            str(data),
            config,
            split=SPLIT,
            revision=revision,
            cache_dir=str(cache_dir) if cache_dir is not None else None,
        )
        if verify:
            verify_rows(manifest, {config: dataset}, str(data))
    source = str(data) if folder is None else local_source(folder)
    return BindsplitData(dataset, manifest, config=config, source=source, revision=revision)


def local_source(folder: str | Path) -> str:
    """How a local build is named where its results say what they were evaluated on: its path
    as given, written so that it is never read as a Hub id (a folder ``bindsplit/bivlc`` is
    ``./bindsplit/bivlc``: the build in that folder, not the published ``bindsplit/bivlc``).

    >>> local_source("bindsplit/bivlc"), local_source("aro_bindsplit"), local_source("/srv/b")
    ('./bindsplit/bivlc', 'aro_bindsplit', '/srv/b')
    """
    text = Path(folder).as_posix()
    return f"./{text}" if is_hub_id(text) else text


def _manifest_of(
    dataset: datasets.Dataset, manifest: Mapping[str, Any] | str | Path | None
) -> dict[str, Any]:
    """The build manifest of a loaded dataset: ``manifest`` as given (a dict, a build folder or
    its ``bindsplit.json``), else the JSON in ``dataset.info.description``."""
    if isinstance(manifest, Mapping):
        return dict(manifest)
    if manifest is not None:
        path = Path(manifest)
        if path.is_dir():
            return read_manifest(path)
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise SchemaError(
                f"cannot read the manifest {path} ({error}); pass the build's bindsplit.json, "
                "its folder, or the manifest as a dict."
            ) from None
    try:
        found = json.loads(dataset.info.description or "")
    except json.JSONDecodeError:
        found = None
    if not isinstance(found, dict) or found.get("format") != BUILD_FORMAT:
        raise SchemaError(
            "this datasets.Dataset carries no BindSplit manifest (its info.description is not "
            "one); pass manifest= the build's bindsplit.json, its folder, or the dict, or pass "
            "the build folder or Hub id as data."
        )
    return found


def _dataset_config(dataset: datasets.Dataset, manifest: Mapping[str, Any]) -> str:
    """The configuration of the build that ``dataset`` holds whole: the one ``datasets`` loaded
    it as (``info.config_name``) or, for rows made otherwise, the one whose row count and labels
    they have (``full`` for a manifest without row counts).

    Raises:
        SchemaError: the rows are no configuration of the build, or those of several.
    """
    sizes: Mapping[str, int] = manifest.get("configs") or {}
    if not sizes:
        return "full"
    n = len(dataset)
    named = dataset.info.config_name
    candidates = [named] if named in sizes else [c for c in sizes if sizes[c] == n]
    if "full" in candidates and sizes["full"] == n:
        return "full"
    rows = dataset.select_columns(list(annotation_columns(binding_kind(manifest))))
    found = [
        config
        for config in candidates
        if sizes[config] == n and all(config_includes(config, row) for row in rows)
    ]
    if len(found) == 1:
        return found[0]
    counts = ", ".join(f"{config} {count}" for config, count in sizes.items())
    if not found:
        raise SchemaError(
            f"the dataset's {n} rows are no configuration of the build (rows per configuration: "
            f"{counts}); pass one configuration whole, as datasets.load_dataset or "
            "load_bindsplit loads it."
        )
    raise SchemaError(
        f"the dataset's {n} rows are the build's {' and '.join(found)} configurations alike; "
        "pass load_bindsplit(data, CONFIG) to say which."
    )


def resolve_data(
    data: str | Path | BindsplitData | datasets.Dataset,
    manifest: Mapping[str, Any] | str | Path | None,
    revision: str | None,
    verify: bool,
) -> BindsplitData:
    """``data`` as rows with their manifest and configuration: a build folder or Hub id is
    loaded whole (``full``); a loaded ``BindsplitData`` keeps its configuration; a
    ``datasets.Dataset``'s is found by :func:`_dataset_config`. What
    :func:`~bindsplit_datasets.evaluation.evaluate_model` reads."""
    if isinstance(data, datasets.Dataset):
        loaded = BindsplitData(data, _manifest_of(data, manifest))  # checks both
        loaded.config = _dataset_config(data, loaded.manifest)
        return loaded
    if isinstance(data, BindsplitData):
        return data
    return load_bindsplit(data, "full", revision=revision, verify=verify)
