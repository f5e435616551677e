"""Load a built BindSplit dataset (a folder written by ``bindsplit build`` or its Hub copy).

A build is the benchmark's rows plus BindSplit's annotation columns, in four configurations
(``full``/``seen``/``unseen``/``partial``), and a ``bindsplit.json`` manifest that names the
benchmark, the reference corpus and the fingerprint of the rows (docs/architecture.md). Both are
needed to evaluate a model: the rows give the images, captions and labels, the manifest says which
benchmark adapter pairs the images with the captions and makes results comparable across runs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import datasets

from .errors import SchemaError
from .features import ANNOTATION_COLUMNS
from .names import BUILD_FORMAT, CONFIGURATIONS, MANIFEST_NAME

__all__ = [
    "BindsplitData",
    "check_config",
    "load_bindsplit",
    "read_manifest",
]

#: The configurations of every build, ``full`` first (docs/protocol.md, section 3).

_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
_BUILD_HINT = "make one with `bindsplit build BENCHMARK --out DIR`"


@dataclass
class BindsplitData:
    """One configuration of a BindSplit build: its rows, the manifest, and where it is from."""

    dataset: datasets.Dataset
    manifest: dict[str, Any]
    config: str = "full"
    #: The folder or Hub id it was loaded from (recorded in results).
    source: str = "<in-memory>"
    revision: str | None = None
    _adapter: Any = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        check_manifest(self.manifest, self.source)
        check_annotations(self.dataset, self.source)

    @property
    def benchmark(self) -> str:
        return str(self.manifest["benchmark"])

    @property
    def fingerprint(self) -> str | None:
        return self.manifest.get("fingerprint")

    @property
    def configs(self) -> tuple[str, ...]:
        """Configurations of the build (from the manifest)."""
        return tuple(self.manifest.get("configs") or CONFIGURATIONS)

    @property
    def adapter(self) -> Any:
        """The benchmark adapter that says which columns are images and captions."""
        if self._adapter is None:
            from .benchmarks import get_benchmark

            self._adapter = get_benchmark(self.benchmark)
        return self._adapter


def check_manifest(manifest: Mapping[str, Any], where: str) -> None:
    """Raise :class:`SchemaError` unless ``manifest`` is a BindSplit build manifest."""
    if not isinstance(manifest, Mapping) or manifest.get("format") != BUILD_FORMAT:
        found = manifest.get("format") if isinstance(manifest, Mapping) else type(manifest).__name__
        raise SchemaError(
            f"{where} is not a BindSplit build: its {MANIFEST_NAME} has format {found!r}, "
            f"expected {BUILD_FORMAT!r}; {_BUILD_HINT}."
        )
    missing = [key for key in ("benchmark", "configs") if key not in manifest]
    if missing:
        raise SchemaError(
            f"the {MANIFEST_NAME} of {where} lacks {missing}; rebuild it ({_BUILD_HINT})."
        )


def check_annotations(dataset: datasets.Dataset, where: str) -> None:
    """Raise :class:`SchemaError` unless ``dataset`` has every annotation column."""
    missing = [column for column in ANNOTATION_COLUMNS if column not in dataset.column_names]
    if missing:
        raise SchemaError(
            f"{where} is not a BindSplit build: missing annotation column(s) {missing} "
            f"(columns: {dataset.column_names}); {_BUILD_HINT}."
        )


def check_config(config: str, valid: Sequence[str], empty: Sequence[str] = ()) -> None:
    """Raise :class:`ValueError` unless ``config`` is one of ``valid``: for a configuration in
    ``empty`` (no samples, so the build has no files for it) the message says so; otherwise it
    names the valid configurations."""
    if config in empty:
        raise ValueError(
            f"configuration {config!r} of this build has no samples (BindSplit writes no files "
            f"for an empty configuration); configurations with samples: {', '.join(valid)}."
        )
    if config not in valid:
        raise ValueError(
            f"unknown configuration {config!r}; valid configurations: {', '.join(valid)}."
        )


def _is_local(data: str | Path) -> bool:
    if Path(data).exists():
        return True
    if isinstance(data, Path) or not _HUB_ID.match(str(data)):
        raise FileNotFoundError(
            f"{data} is neither a folder nor a Hub dataset id (owner/name); pass a folder made "
            f"by `bindsplit build` or the id of a BindSplit dataset on the Hub."
        )
    return False


def _parse_manifest(text: str, where: str) -> dict[str, Any]:
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as error:
        raise SchemaError(
            f"{where}/{MANIFEST_NAME} is not valid JSON ({error}); {_BUILD_HINT}."
        ) from None
    check_manifest(manifest, where)
    return manifest


def read_manifest(data: str | Path, *, revision: str | None = None) -> dict[str, Any]:
    """The ``bindsplit.json`` of a built folder or Hub dataset (``revision``: Hub only)."""
    if _is_local(data):
        folder = Path(data)
        if not folder.is_dir():
            raise NotADirectoryError(
                f"{folder} is a file; pass the folder made by `bindsplit build`."
            )
        path = folder / MANIFEST_NAME
        if not path.is_file():
            raise SchemaError(
                f"{folder} is not a BindSplit build: it has no {MANIFEST_NAME}; {_BUILD_HINT}."
            )
        return _parse_manifest(path.read_text(encoding="utf-8"), str(folder))
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import EntryNotFoundError, RepositoryNotFoundError

    try:
        path = hf_hub_download(str(data), MANIFEST_NAME, repo_type="dataset", revision=revision)
    except EntryNotFoundError:
        raise SchemaError(
            f"the Hub dataset {data} is not a BindSplit build: it has no {MANIFEST_NAME}; "
            f"{_BUILD_HINT}."
        ) from None
    except RepositoryNotFoundError:
        raise FileNotFoundError(
            f"no dataset {data} on the Hub (or it is private: log in with `hf auth login`)."
        ) from None
    return _parse_manifest(Path(path).read_text(encoding="utf-8"), str(data))


def load_bindsplit(
    data: str | Path,
    config: str = "full",
    *,
    revision: str | None = None,
    cache_dir: str | Path | None = None,
) -> BindsplitData:
    """Rows of configuration ``config`` of a built folder or Hub dataset, with the manifest.

    Raises:
        FileNotFoundError: ``data`` is neither a folder nor a Hub id.
        SchemaError: it is not a BindSplit build (no manifest, no annotation columns).
        ValueError: unknown ``config``; the message lists the build's configurations.
    """
    manifest = read_manifest(data, revision=revision)
    counts = manifest.get("composition", {}).get("counts", {})
    empty = [c for c in ("seen", "unseen", "partial") if counts.get(c) == 0]
    check_config(config, tuple(manifest["configs"]), empty)
    path = str(Path(data)) if _is_local(data) else str(data)
    dataset = datasets.load_dataset(
        path,
        config,
        split="test",
        revision=None if Path(path).exists() else revision,
        cache_dir=str(cache_dir) if cache_dir is not None else None,
    )
    return BindsplitData(dataset, manifest, config=config, source=str(data), revision=revision)
