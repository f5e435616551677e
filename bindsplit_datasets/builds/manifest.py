"""The owner of the build manifest (``bindsplit.json``): its typed form (:class:`BuildManifest`,
which writes, reads and verifies it), the row fingerprint it records (:func:`rows_fingerprint`),
and the one validator of built folders against it.

A build (docs/architecture.md) is trusted only as far as its files match its manifest: the rows'
fingerprint (:func:`rows_fingerprint`, the function the build records it with), the row count of
every configuration, the label counts of the composition, and every configuration other than
``full`` holding exactly the rows of ``full`` with that label. A label rewritten after the build, a
deleted, truncated or corrupt shard, or a hand-edited manifest (:mod:`.provenance_digest`)
fails :func:`verify_build` with a :class:`BuildVerificationError` naming the file and the fix.
Loading, evaluation and publishing all go through these checks.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import datasets

from .._version import __version__
from ..errors import (
    BindsplitFileNotFoundError,
    BuildVerificationError,
    NotAFolderError,
    SchemaError,
)
from ..labels import config_includes
from ..names import (
    BINDING_KINDS,
    BUILD_FORMAT,
    CONFIGURATIONS,
    DEFAULT_BINDING_KIND,
    MANIFEST_NAME,
    is_hub_id,
    label_name,
)
from ..parquet_files import load_parquet_files, parquet_row_count
from .features import annotation_columns, card_label_problem, label_feature_problem
from .provenance_digest import check_provenance, with_provenance

__all__ = [
    "BUILD_HINT",
    "CARD_NAME",
    "BuildColumns",
    "BuildManifest",
    "REBUILD_FIX",
    "SPLIT",
    "VERIFY_FIX",
    "BuildVerificationError",
    "build_columns",
    "binding_kind",
    "check_annotations",
    "check_manifest",
    "config_files",
    "load_config",
    "local_build",
    "parse_manifest",
    "read_manifest",
    "rows_fingerprint",
    "verify_build",
    "verify_rows",
]

#: How to make a build (ends messages about folders that are not builds).
BUILD_HINT = "make one with `bindsplit build BENCHMARK --out DIR`"
#: How to repair a build whose files are damaged.
REBUILD_FIX = "rebuild it with `bindsplit build BENCHMARK --out DIR --overwrite`"
#: How to get past a failed verification (ends every BuildVerificationError of a check).
VERIFY_FIX = f"{REBUILD_FIX}, or pass --no-verify (verify=False) to use it unchecked"
#: The split every configuration of a build holds.
SPLIT = "test"
_LABEL = "bindsplit_label"
#: File name of a build's dataset card.
CARD_NAME = "README.md"
_ROW_BATCH = 1000


# ---------------------------------------------------------------------------------- manifest
def check_manifest(manifest: Mapping[str, Any], where: str) -> None:
    """Raise :class:`SchemaError` unless ``manifest`` is a BindSplit build manifest: the format
    tag, a ``benchmark`` name and a ``configs`` mapping of configuration to row count."""
    if not isinstance(manifest, Mapping) or manifest.get("format") != BUILD_FORMAT:
        found = manifest.get("format") if isinstance(manifest, Mapping) else type(manifest).__name__
        raise SchemaError(
            f"{where} is not a BindSplit build: its {MANIFEST_NAME} has format {found!r}, "
            f"expected {BUILD_FORMAT!r}; {BUILD_HINT}."
        )
    missing = [key for key in ("benchmark", "configs") if key not in manifest]
    if missing:
        raise SchemaError(
            f"the {MANIFEST_NAME} of {where} lacks {missing}; rebuild it ({BUILD_HINT})."
        )
    configs = manifest["configs"]
    if not isinstance(configs, Mapping) or not all(
        config in CONFIGURATIONS and isinstance(n, int) and not isinstance(n, bool) and n >= 0
        for config, n in configs.items()
    ):
        raise SchemaError(
            f"the {MANIFEST_NAME} of {where} has 'configs' {configs!r}, expected a mapping of "
            f"configuration ({', '.join(CONFIGURATIONS)}) to row count; rebuild it ({BUILD_HINT})."
        )


def binding_kind(manifest: Mapping[str, Any]) -> str:
    """The binding kind a build manifest records (``attribute`` for a manifest written before
    builds had one); an unknown kind is a :class:`SchemaError`."""
    kind = manifest.get("binding_kind", DEFAULT_BINDING_KIND)
    if kind not in BINDING_KINDS:
        raise SchemaError(
            f"the {MANIFEST_NAME} records binding kind {kind!r}, expected one of "
            f"{', '.join(BINDING_KINDS)}; rebuild it ({BUILD_HINT})."
        )
    return str(kind)


def check_annotations(
    dataset: datasets.Dataset, where: str, kind: str = DEFAULT_BINDING_KIND
) -> None:
    """Raise :class:`SchemaError` unless ``dataset`` has every annotation column of a build of
    binding kind ``kind``."""
    columns = annotation_columns(kind)
    missing = [column for column in columns if column not in dataset.column_names]
    if missing:
        raise SchemaError(
            f"{where} is not a BindSplit build: missing annotation column(s) {missing} "
            f"(columns: {dataset.column_names}); {BUILD_HINT}."
        )


def parse_manifest(text: str, where: str) -> dict[str, Any]:
    """The manifest in ``text`` (the contents of ``where``'s ``bindsplit.json``), checked."""
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as error:
        raise SchemaError(
            f"{where}/{MANIFEST_NAME} is not valid JSON ({error}); {BUILD_HINT}."
        ) from None
    check_manifest(manifest, where)
    return manifest


def local_build(data: str | Path) -> Path | None:
    """``data`` as a local path if it exists, ``None`` if it is a Hub dataset id.

    Raises:
        BindsplitFileNotFoundError: ``data`` is neither an existing path nor an ``owner/name`` id.
    """
    if Path(data).exists():
        return Path(data)
    if isinstance(data, Path) or not is_hub_id(str(data)):
        raise BindsplitFileNotFoundError(
            f"{data} is neither a folder nor a Hub dataset id (owner/name); pass a folder made "
            f"by `bindsplit build` or the id of a BindSplit dataset on the Hub."
        )
    return None


def read_manifest(data: str | Path, *, revision: str | None = None) -> dict[str, Any]:
    """The checked ``bindsplit.json`` of a built folder or Hub dataset (``revision``: Hub only).

    Raises:
        BindsplitFileNotFoundError: neither a folder nor a Hub id, or no such Hub dataset.
        NotAFolderError: ``data`` is a file.
        SchemaError: no manifest, or not a BindSplit build manifest.
    """
    folder = local_build(data)
    if folder is not None:
        if not folder.is_dir():
            raise NotAFolderError(f"{folder} is a file; pass the folder made by `bindsplit build`.")
        local = folder / MANIFEST_NAME
        if not local.is_file():
            raise SchemaError(
                f"{folder} is not a BindSplit build: it has no {MANIFEST_NAME}; {BUILD_HINT}."
            )
        try:
            text = local.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise SchemaError(f"{local} is not a text file; {BUILD_HINT}.") from None
        return parse_manifest(text, str(folder))
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import (
        EntryNotFoundError,
        LocalEntryNotFoundError,
        RepositoryNotFoundError,
    )

    try:
        path = hf_hub_download(str(data), MANIFEST_NAME, repo_type="dataset", revision=revision)
    except LocalEntryNotFoundError:  # a subclass of EntryNotFoundError: offline, not absent
        raise BindsplitFileNotFoundError(
            f"cannot read the Hub dataset {data}: the Hub is not reachable (offline, or "
            "HF_HUB_OFFLINE is set) and no copy is cached; connect to the Hub once, or pass a "
            "local folder made by `bindsplit build`."
        ) from None
    except EntryNotFoundError:
        raise SchemaError(
            f"the Hub dataset {data} is not a BindSplit build: it has no {MANIFEST_NAME}; "
            f"{BUILD_HINT}."
        ) from None
    except RepositoryNotFoundError:
        raise BindsplitFileNotFoundError(
            f"no dataset {data} on the Hub (or it is private: log in with `hf auth login`)."
        ) from None
    from ..input_files import check_input_file

    text = check_input_file(path, "build manifest").read_text(encoding="utf-8")
    return parse_manifest(text, str(data))


# ------------------------------------------------------------------------------ verification
def config_files(folder: str | Path, config: str) -> list[Path]:
    """The Parquet shards of configuration ``config`` of the built folder, in shard order."""
    return sorted((Path(folder) / config).glob("*.parquet"))


def load_config(
    folder: str | Path,
    config: str,
    *,
    fix: str = REBUILD_FIX,
    cache_dir: str | Path | None = None,
) -> datasets.Dataset:
    """The rows of configuration ``config`` of the built folder, read by file (a rewritten file
    is re-read, never served from ``datasets``' cache of the folder); 0 rows for a configuration
    without samples. A damaged shard raises :class:`BuildVerificationError` ending with ``fix``."""
    return load_parquet_files(
        config_files(folder, config),
        SPLIT,
        where=str(Path(folder) / config),
        fix=fix,
        error=BuildVerificationError,
        cache_dir=cache_dir,
        allow_empty=True,
    )


def _failed(problem: str) -> BuildVerificationError:
    return BuildVerificationError(f"{problem}; {VERIFY_FIX}")


def verify_rows(
    manifest: Mapping[str, Any], rows: Mapping[str, datasets.Dataset], where: str
) -> None:
    """Check loaded configurations of a build against its ``manifest``.

    ``rows`` maps configuration to its rows. With ``full``: the fingerprint of its rows equals the
    manifest's, its label counts equal the composition, and every other configuration given
    holds exactly the rows of ``full`` with that label, in order. Without ``full``: each
    configuration has the manifest's row count and only rows of its own label.

    Raises:
        BuildVerificationError: the first mismatch, naming the configuration and the fix.
    """
    image_columns = _image_columns(manifest, next(iter(rows.values()), None))
    kind = binding_kind(manifest)
    columns = list(annotation_columns(kind))
    configs = manifest["configs"]
    for config, dataset in rows.items():
        expected = configs.get(config)
        if len(dataset) != expected:
            raise _failed(
                f"{where}/{config} holds {len(dataset)} rows, its {MANIFEST_NAME} records "
                f"{expected}"
            )
        check_annotations(dataset, where, kind)
        problem = label_feature_problem(dataset.features[_LABEL])
        if problem is not None:
            raise _failed(f"{where}/{config}: {problem}, so its rows would read as other labels")
    full = rows.get("full")
    if full is None:
        for config, dataset in rows.items():
            members = dataset.select_columns(columns).to_list()
            wrong = sorted(
                {label_name(row[_LABEL]) for row in members if not config_includes(config, row)}
            )
            if wrong:
                raise _failed(f"{where}/{config} holds rows labelled {wrong} that it excludes")
        return
    recorded = manifest.get("fingerprint")
    mapping = (manifest.get("source") or {}).get("mapping")  # a custom build's column roles
    actual = rows_fingerprint(full, image_columns, kind, mapping)
    if actual != recorded:
        raise _failed(
            f"the rows of {where}/full do not match its {MANIFEST_NAME}: their fingerprint is "
            f"{actual[:16]}, the manifest records {str(recorded)[:16]} (the files were changed "
            "after the build)"
        )
    labels = [label_name(value) for value in full[_LABEL]]
    composition = manifest.get("composition")
    counts = composition.get("counts") if isinstance(composition, Mapping) else None
    if isinstance(counts, Mapping):
        found = Counter(labels)
        if any(found.get(label, 0) != n for label, n in counts.items()) or set(found) - set(counts):
            raise _failed(
                f"the labels of {where}/full ({dict(sorted(found.items()))}) do not match the "
                f"composition in its {MANIFEST_NAME} ({dict(sorted(counts.items()))})"
            )
    annotations = full.select_columns(columns).to_list()
    for config, subset in rows.items():
        if config == "full":
            continue
        expected_rows = full.select(
            [i for i, row in enumerate(annotations) if config_includes(config, row)]
        )
        if rows_fingerprint(subset, image_columns) != rows_fingerprint(
            expected_rows, image_columns
        ):
            raise _failed(
                f"{where}/{config} does not hold exactly the {config!r} rows of {where}/full"
            )


def verify_build(folder: str | Path, *, cache_dir: str | Path | None = None) -> dict[str, Any]:
    """Check the built folder against its manifest and return the manifest.

    Checked: the manifest (format tag, configurations), the dataset card (``README.md``), that
    the configuration folders are exactly the manifest's, every shard readable with the
    manifest's row count per configuration, and the rows themselves (:func:`verify_rows`: the
    fingerprint over ``full``, the composition, each configuration equal to ``full``'s rows of
    its label), then the manifest's provenance digest. Reads every row once (``datasets`` caches
    the Arrow conversion, so loading the folder afterwards costs little).

    Raises:
        BuildVerificationError: the folder does not match its manifest (names the file; the fix
            is to rebuild, or to skip verification explicitly).
        SchemaError: it is not a BindSplit build at all.
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    where = str(folder)
    if not (folder / CARD_NAME).is_file():
        raise _failed(f"{folder} has no {CARD_NAME} (its dataset card)")
    problem = card_label_problem((folder / CARD_NAME).read_text(encoding="utf-8", errors="replace"))
    if problem is not None:
        raise _failed(f"{folder / CARD_NAME}: {problem}, so its rows would read as other labels")
    configs = manifest["configs"]
    if "full" not in configs:
        raise _failed(f"the {MANIFEST_NAME} of {folder} records no 'full' configuration")
    present = {c for c in CONFIGURATIONS if config_files(folder, c)}
    extra = sorted(present - set(configs))
    if extra:
        raise _failed(
            f"{folder} has Parquet files for {extra}, which its {MANIFEST_NAME} does not list"
        )
    for config, expected in configs.items():
        files = config_files(folder, config)
        if not files:
            raise _failed(f"{folder / config} has no Parquet files (the manifest records it)")
        n = sum(parquet_row_count(f, fix=VERIFY_FIX, error=BuildVerificationError) for f in files)
        if n != expected:
            raise _failed(
                f"{folder / config} holds {n} rows, its {MANIFEST_NAME} records {expected}"
            )
    rows = {c: load_config(folder, c, fix=VERIFY_FIX, cache_dir=cache_dir) for c in configs}
    verify_rows(manifest, rows, where)
    check_provenance(manifest, where, fix=VERIFY_FIX, rebuild=REBUILD_FIX)  # after: says less
    return manifest


def _image_columns(
    manifest: Mapping[str, Any], dataset: datasets.Dataset | None
) -> tuple[str, ...]:
    """The image columns the fingerprint hashes by content: the manifest's ``columns`` block,
    else (a manifest written before the block) the rows' columns of ``datasets.Image`` type, so
    that a build of any version is verified by its own files, never by an adapter."""
    columns = manifest.get("columns")
    if isinstance(columns, Mapping) and "image" in columns:
        return tuple(columns["image"])
    if dataset is None:
        return ()
    return tuple(
        name for name, feature in dataset.features.items() if isinstance(feature, datasets.Image)
    )


def build_columns(manifest: Mapping[str, Any], where: str = "the build") -> BuildColumns:
    """Which columns of a build's rows are what, as the build itself records them (the
    manifest's ``columns`` block): what evaluation, cards and exports read instead of asking the
    benchmark adapter, which is consulted only while building.

    Raises:
        SchemaError: the manifest has no ``columns`` block (a build made before BindSplit
            recorded it); the message says to rebuild.
    """
    columns = manifest.get("columns")
    if not isinstance(columns, Mapping) or not columns.get("image") or not columns.get("caption"):
        raise SchemaError(
            f"the {MANIFEST_NAME} of {where} does not describe its columns (no 'columns' block "
            f"with its image and caption columns): it was made by an older BindSplit; "
            f"{REBUILD_FIX}."
        )
    return BuildColumns.from_dict(columns)


# ------------------------------------------------------------------------------ typed manifest
@dataclass(frozen=True)
class BuildColumns:
    """Which columns of a build's rows are what, so that readers need not ask the adapter.

    Attributes:
        image: the image columns, in the benchmark's order (image ``i`` pairs with caption ``i``).
        caption: the caption columns; the first is the positive caption.
        id: the sample id column, ``None`` when the benchmark has none.
        category: the column holding each sample's category (written at build time), ``None``
            for a benchmark without categories.
        macro_group: the column holding each sample's macro-accuracy group (ARO: the attribute
            pair), ``None`` where not defined.
        hard_positive: the caption columns that are *hard positives* of image 0 (seed 003: more
            captions true of the image, worded differently). They are also in ``caption``, right
            after the ``len(image)`` positive captions and before the negatives, so a score
            matrix's columns are positives, hard positives, negatives. Empty for a benchmark
            without hard positives (and then left out of :meth:`to_dict`, so manifests of such
            builds read as before).
    """

    image: tuple[str, ...]
    caption: tuple[str, ...]
    id: str | None = None
    category: str | None = None
    macro_group: str | None = None
    hard_positive: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        n_images, n_hard = len(self.image), len(self.hard_positive)
        if self.caption[n_images : n_images + n_hard] != self.hard_positive:
            raise SchemaError(
                f"the hard-positive columns {list(self.hard_positive)} must follow the "
                f"{n_images} positive caption column(s) in the caption columns "
                f"{list(self.caption)}"
            )

    def to_dict(self) -> dict[str, Any]:
        data = {**asdict(self), "image": list(self.image), "caption": list(self.caption)}
        if self.hard_positive:
            data["hard_positive"] = list(self.hard_positive)
        else:
            del data["hard_positive"]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BuildColumns:
        return cls(
            image=tuple(data["image"]),
            caption=tuple(data["caption"]),
            id=data.get("id"),
            category=data.get("category"),
            macro_group=data.get("macro_group"),
            hard_positive=tuple(data.get("hard_positive", ())),
        )


@dataclass(frozen=True)
class BuildManifest:
    """A build's ``bindsplit.json``, typed: what was built from what, and how to check it.

    :meth:`write` puts it into a build folder, :meth:`read` reads one back (checked), and
    :meth:`verify` checks a folder's files against it (:func:`verify_build`). :meth:`to_dict`
    is the JSON form that every other module reads (results records, cards, publishing).
    """

    benchmark: str
    configs: dict[str, int]
    fingerprint: str
    columns: BuildColumns
    #: The benchmark's display name (cards, ``eval.yaml``), recorded so that readers need no
    #: adapter; ``""``: not recorded (the registry name stands in).
    pretty_name: str = ""
    source: dict[str, Any] = field(default_factory=dict)
    reference: dict[str, Any] = field(default_factory=dict)
    min_count: int = 1
    parser_version: str = ""
    composition: dict[str, Any] = field(default_factory=dict)
    source_report: dict[str, Any] = field(default_factory=dict)
    leakage: dict[str, Any] = field(default_factory=dict)
    bindsplit_version: str = __version__
    #: What the samples are labelled by (``names.BINDING_KINDS``); part of the fingerprint.
    binding_kind: str = DEFAULT_BINDING_KIND

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, format tag first, its provenance digest last."""
        data = {
            "format": BUILD_FORMAT,
            "bindsplit_version": self.bindsplit_version,
            "benchmark": self.benchmark,
            **({"pretty_name": self.pretty_name} if self.pretty_name else {}),
            "binding_kind": self.binding_kind,
            "source": self.source,
            "reference": self.reference,
            "min_count": self.min_count,
            "parser_version": self.parser_version,
            "configs": dict(self.configs),
            "composition": self.composition,
            "source_report": self.source_report,
            "leakage": self.leakage,
            "fingerprint": self.fingerprint,
            "columns": self.columns.to_dict(),
        }
        return with_provenance(data)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "the manifest") -> BuildManifest:
        """The manifest of ``data`` (its JSON form), checked (:func:`check_manifest`).

        Raises:
            SchemaError: not a build manifest, or one without ``fingerprint`` or ``columns``.
        """
        check_manifest(data, where)
        missing = [key for key in ("fingerprint", "columns") if key not in data]
        if missing:
            raise SchemaError(
                f"the {MANIFEST_NAME} of {where} lacks {missing}; rebuild it ({BUILD_HINT})."
            )
        return cls(
            benchmark=str(data["benchmark"]),
            configs=dict(data["configs"]),
            fingerprint=str(data["fingerprint"]),
            columns=BuildColumns.from_dict(data["columns"]),
            pretty_name=str(data.get("pretty_name") or ""),
            source=dict(data.get("source") or {}),
            reference=dict(data.get("reference") or {}),
            min_count=int(data.get("min_count", 1)),
            parser_version=str(data.get("parser_version", "")),
            composition=dict(data.get("composition") or {}),
            source_report=dict(data.get("source_report") or {}),
            leakage=dict(data.get("leakage") or {}),
            bindsplit_version=str(data.get("bindsplit_version", "")),
            binding_kind=binding_kind(data),
        )

    def write(self, folder: str | Path) -> Path:
        """Write ``folder/bindsplit.json`` (the folder being built) and return its path."""
        path = Path(folder) / MANIFEST_NAME
        path.write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")
        return path

    @classmethod
    def read(cls, data: str | Path, *, revision: str | None = None) -> BuildManifest:
        """The checked manifest of a built folder or Hub dataset (:func:`read_manifest`)."""
        return cls.from_dict(read_manifest(data, revision=revision), str(data))

    def verify(self, folder: str | Path, *, cache_dir: str | Path | None = None) -> None:
        """Check that ``folder`` holds exactly what this manifest describes.

        Raises:
            BuildVerificationError: the folder's manifest is not this one, or its files do not
                match it (:func:`verify_build`).
        """
        found = verify_build(folder, cache_dir=cache_dir)
        if found != self.to_dict():
            raise _failed(f"the {MANIFEST_NAME} of {folder} is not the manifest expected")


# ------------------------------------------------------------------------------- fingerprint
def rows_fingerprint(
    dataset: datasets.Dataset,
    image_columns: Sequence[str],
    binding_kind: str = DEFAULT_BINDING_KIND,
    mapping: Mapping[str, Any] | None = None,
) -> str:
    """SHA-256 of the rows of ``dataset`` in order: every column's values, with each image
    represented by the SHA-256 of its bytes (so the fingerprint is independent of Parquet
    encoding details), the build's binding kind (an attribute build's fingerprint is the
    rows' alone, as before builds had a kind) and, for a custom build (``bindsplit build
    custom``), the roles its user gave the columns (``mapping``, its source's ``mapping``)."""
    digest = hashlib.sha256()
    columns = dataset.column_names
    digest.update(json.dumps(columns).encode())
    if binding_kind != DEFAULT_BINDING_KIND:
        digest.update(f"binding_kind={binding_kind}".encode())
    if mapping is not None:
        digest.update(f"mapping={json.dumps(mapping, sort_keys=True)}".encode())
    table = dataset.with_format("arrow")
    for start in range(0, len(dataset), _ROW_BATCH):
        batch = table[start : start + _ROW_BATCH]
        for column in columns:
            values = batch.column(column).to_pylist()
            if column in image_columns:
                values = [_image_digest(value) for value in values]
            digest.update(json.dumps(values, sort_keys=True, default=str).encode())
    return digest.hexdigest()


def _image_digest(value: Mapping[str, Any] | None) -> str | None:
    """SHA-256 of an image cell's bytes, read from its local file when the cell holds a path
    (the build embeds those bytes, so a built folder's rows give the same digest)."""
    if value is None:
        return None
    data = value.get("bytes")
    if data is None and value.get("path") and Path(value["path"]).is_file():
        data = Path(value["path"]).read_bytes()
    if data is not None:
        return hashlib.sha256(data).hexdigest()
    return f"path:{value.get('path')}"
