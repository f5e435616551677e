"""Publishing a built dataset folder and the evaluate metric to the Hugging Face Hub.

Publishing is split into a pure *plan* and its *execution* so that nothing is sent by accident:

- :func:`plan_dataset` checks that a folder is a complete ``bindsplit build`` output (manifest,
  dataset card whose ``configs`` match the Parquet folders shard for shard and row for row, ``full``
  the default configuration) and returns a :class:`PublishPlan`: the repository, every file with
  its size, the configurations and a summary of the card. :func:`plan_metric` does the same for
  the metric folder published as an evaluate Space.
- :meth:`PublishPlan.describe` is the dry run the ``hub_scripts`` print; :meth:`PublishPlan.calls`
  lists the exact write calls (``create_repo``, ``create_branch`` for a new ``revision``, one
  ``create_commit`` with every file).
- :func:`execute_plan` makes those calls on any ``HfApi``-like client (tests pass a fake that
  records calls). Before writing it runs the edited-card guard, whose calls are read-only
  (``repo_exists``, ``file_exists``, ``hf_hub_download``): a Hub card that differs from the one
  about to be uploaded is overwritten only if it is the card this tool published last time,
  identified by the SHA-256 stored in ``bindsplit-publish.json`` next to it, or with ``force``.

Everything that can be wrong with the input (repository name, folder, card, token) raises before
the first call to the client.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import yaml

from . import __version__
from .errors import BindsplitError, SchemaError
from .names import BUILD_FORMAT, MANIFEST_NAME

__all__ = [
    "PUBLISH_RECORD",
    "BuildFolder",
    "HubCall",
    "HubClient",
    "PlannedFile",
    "PublishPlan",
    "check_remote_card",
    "execute_plan",
    "inspect_build",
    "plan_dataset",
    "plan_metric",
    "add_publish_arguments",
    "resolve_token",
    "run_publish",
    "script_main",
    "validate_repo_name",
]

logger = logging.getLogger(__name__)

CARD = "README.md"
#: Written next to the card on every publish: the SHA-256 of the card as uploaded, so that the
#: next publish can tell a card edited on the Hub from the one this tool put there.
PUBLISH_RECORD = "bindsplit-publish.json"
DEFAULT_CONFIG = "full"
SHARD_PATTERN = re.compile(r"^(?P<split>[a-z]+)-(?P<index>\d{5})-of-(?P<total>\d{5})\.parquet$")
#: Files an evaluate Space needs besides the metric script ``<name>.py``.
METRIC_SPACE_FILES: tuple[str, ...] = ("README.md", "app.py", "requirements.txt")
METRIC_FRONT_MATTER: dict[str, str] = {"sdk": "gradio", "app_file": "app.py"}
METRIC_TAGS: tuple[str, ...] = ("evaluate", "metric")
#: License identifiers the Hub accepts in card metadata (its validator is case-sensitive).
HUB_LICENSES = frozenset(
    """apache-2.0 mit openrail bigscience-openrail-m creativeml-openrail-m bigscience-bloom-rail-1.0
    bigcode-openrail-m afl-3.0 artistic-2.0 bsl-1.0 bsd bsd-2-clause bsd-3-clause
    bsd-3-clause-clear c-uda cc cc0-1.0 cc-by-2.0 cc-by-2.5 cc-by-3.0 cc-by-4.0 cc-by-sa-3.0
    cc-by-sa-4.0 cc-by-nc-2.0 cc-by-nc-3.0 cc-by-nc-4.0 cc-by-nd-4.0 cc-by-nc-nd-3.0
    cc-by-nc-nd-4.0 cc-by-nc-sa-2.0 cc-by-nc-sa-3.0 cc-by-nc-sa-4.0 cdla-sharing-1.0
    cdla-permissive-1.0 cdla-permissive-2.0 wtfpl ecl-2.0 epl-1.0 epl-2.0 etalab-2.0 eupl-1.1
    eupl-1.2 agpl-3.0 gfdl gpl gpl-2.0 gpl-3.0 lgpl lgpl-2.1 lgpl-3.0 isc h-research
    intel-research lppl-1.3c ms-pl apple-ascl apple-amlr mpl-2.0 odc-by odbl openmdw-1.0
    openrail++ osl-3.0 postgresql ofl-1.1 ncsa unlicense zlib pddl lgpl-lr deepfloyd-if-license
    fair-noncommercial-research-license llama2 llama3 llama3.1 llama3.2 llama3.3 llama4
    grok2-community gemma unknown other""".split()
)
LOGIN_HINT = (
    "run `hf auth login` (or `huggingface-cli login`) or set the HF_TOKEN environment variable"
)


class HubClient(Protocol):
    """The part of :class:`huggingface_hub.HfApi` publishing uses (keyword arguments as HfApi's)."""

    def repo_exists(self, repo_id: str, **kwargs: Any) -> bool: ...

    def file_exists(self, repo_id: str, filename: str, **kwargs: Any) -> bool: ...

    def hf_hub_download(self, repo_id: str, filename: str, **kwargs: Any) -> str: ...

    def create_repo(self, repo_id: str, **kwargs: Any) -> Any: ...

    def create_branch(self, repo_id: str, **kwargs: Any) -> Any: ...

    def create_commit(self, repo_id: str, operations: Any, **kwargs: Any) -> Any: ...


# ---------------------------------------------------------------------------------------------
# Plan
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedFile:
    """One file of the commit: a local file, or generated ``content`` (the publish record)."""

    path_in_repo: str
    size: int
    local_path: Path | None = None
    content: bytes | None = None

    def read(self) -> bytes:
        return self.content if self.content is not None else Path(self.local_path).read_bytes()

    def operation(self) -> Any:
        """The ``CommitOperationAdd`` that uploads this file."""
        from huggingface_hub import CommitOperationAdd

        source = self.content if self.content is not None else str(self.local_path)
        return CommitOperationAdd(path_in_repo=self.path_in_repo, path_or_fileobj=source)


@dataclass(frozen=True)
class HubCall:
    """A write call of the plan: ``HfApi`` method name and keyword arguments (token added later).

    For ``create_commit`` the ``operations`` argument holds the plan's :class:`PlannedFile` s; they
    become ``CommitOperationAdd`` s only when the plan is executed.
    """

    method: str
    kwargs: Mapping[str, Any]


@dataclass(frozen=True)
class PublishPlan:
    """What a publish will send, built without touching the network."""

    repo_id: str
    repo_type: str  # "dataset" or "space"
    files: tuple[PlannedFile, ...]
    summary: tuple[tuple[str, str], ...]  # (heading, text) lines describing the contents
    commit_message: str
    revision: str | None = None
    create_pr: bool = False
    private: bool | None = None
    space_sdk: str | None = None
    not_uploaded: tuple[str, ...] = field(default=())  # files in the folder left out, relative

    @property
    def card(self) -> PlannedFile:
        return next(file for file in self.files if file.path_in_repo == CARD)

    @property
    def total_size(self) -> int:
        return sum(file.size for file in self.files)

    def calls(self) -> list[HubCall]:
        """The write calls :func:`execute_plan` makes, in order."""
        create: dict[str, Any] = {
            "repo_id": self.repo_id,
            "repo_type": self.repo_type,
            "exist_ok": True,
        }
        if self.private is not None:
            create["private"] = self.private
        if self.space_sdk is not None:
            create["space_sdk"] = self.space_sdk
        calls = [HubCall("create_repo", create)]
        if self.revision not in (None, "main"):
            calls.append(
                HubCall(
                    "create_branch",
                    {
                        "repo_id": self.repo_id,
                        "branch": self.revision,
                        "repo_type": self.repo_type,
                        "exist_ok": True,
                    },
                )
            )
        calls.append(
            HubCall(
                "create_commit",
                {
                    "repo_id": self.repo_id,
                    "operations": self.files,
                    "commit_message": self.commit_message,
                    "repo_type": self.repo_type,
                    "revision": self.revision,
                    "create_pr": self.create_pr,
                },
            )
        )
        return calls

    def describe(self) -> str:
        """The human-readable plan (what the dry run prints)."""
        kind = "Space" if self.repo_type == "space" else "dataset"
        lines = [
            f"repository: {self.repo_id} ({kind}, created if missing"
            + (", private" if self.private else "")
            + ")",
            f"revision:   {self.revision or 'main'}"
            + (" (as a pull request)" if self.create_pr else ""),
        ]
        lines += [f"{heading + ':':<12}{text}" for heading, text in self.summary]
        width = max(len(file.path_in_repo) for file in self.files)
        lines.append(f"files:      {len(self.files)}, {_human_size(self.total_size)}")
        for file in self.files:
            source = file.local_path if file.local_path is not None else "generated"
            lines.append(
                f"  {file.path_in_repo:<{width}}  {_human_size(file.size):>9}  <- {source}"
            )
        if self.not_uploaded:
            lines.append(f"not uploaded: {', '.join(self.not_uploaded)}")
        lines.append("steps:")
        lines.append(
            f"  1. read-only: if {CARD} exists on the Hub and differs from this one, check it is "
            f"the card last published (hash in {PUBLISH_RECORD}); else stop (--force overrides)"
        )
        for number, call in enumerate(self.calls(), start=2):
            arguments = ", ".join(
                f"{key}={value!r}"
                for key, value in call.kwargs.items()
                if key not in ("repo_id", "operations")
            )
            extra = f"{len(self.files)} files, " if call.method == "create_commit" else ""
            lines.append(f"  {number}. {call.method}({self.repo_id!r}, {extra}{arguments})")
        return "\n".join(lines)


def _human_size(size: int) -> str:
    value, unit = float(size), "B"
    for larger in ("kB", "MB", "GB"):
        if value < 1000:
            break
        value, unit = value / 1000, larger
    return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"


def validate_repo_name(repo_id: str) -> str:
    """Return ``repo_id`` if it is a valid ``ORG/NAME`` Hub repository id, else raise ValueError.

    Uses ``huggingface_hub``'s own validator and also requires the namespace: a bare ``NAME``
    would silently land in whichever account the token belongs to.
    """
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    try:
        validate_repo_id(repo_id)
    except HFValidationError as error:
        raise ValueError(
            f"invalid repository name {repo_id!r}: {error} Use ORG/NAME with letters, digits, "
            "'-', '_' and '.' (no '--' or '..', at most 96 characters)"
        ) from None
    if repo_id.count("/") != 1:
        raise ValueError(
            f"invalid repository name {repo_id!r}: give the namespace too, as ORG/NAME "
            "(your user name or an organisation)"
        )
    return repo_id


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _publish_record(card: bytes, **extra: Any) -> PlannedFile:
    record = {
        "tool": "bindsplit",
        "bindsplit_version": __version__,
        "card_sha256": _sha256(card),
        **extra,
    }
    content = (json.dumps(record, indent=2, sort_keys=True) + "\n").encode("utf-8")
    return PlannedFile(PUBLISH_RECORD, len(content), content=content)


def _local_file(folder: Path, path: Path) -> PlannedFile:
    return PlannedFile(path.relative_to(folder).as_posix(), path.stat().st_size, local_path=path)


def _left_out(folder: Path, uploaded: Sequence[PlannedFile]) -> tuple[str, ...]:
    kept = {file.path_in_repo for file in uploaded}
    return tuple(
        relative
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        and "__pycache__" not in path.parts
        and (relative := path.relative_to(folder).as_posix()) not in kept
    )


def _require_folder(folder: Path) -> None:
    if not folder.exists():
        raise FileNotFoundError(f"folder not found: {folder}")
    if not folder.is_dir():
        raise NotADirectoryError(f"{folder} is not a folder")


# ---------------------------------------------------------------------------------------------
# Dataset folders
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BuildFolder:
    """A validated ``bindsplit build`` output folder."""

    path: Path
    manifest: dict[str, Any]
    card: Any  # huggingface_hub.DatasetCard
    configs: dict[str, int]  # rows per configuration, in card order
    default_config: str
    shards: dict[str, list[Path]]  # Parquet files per configuration


def _not_a_build(folder: Path, problem: str) -> SchemaError:
    return SchemaError(
        f"{folder} is not a complete BindSplit build: {problem}. Publish a folder written by "
        "`bindsplit build ... --out DIR` (rebuild it if it was changed by hand)"
    )


def _read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST_NAME
    if not path.is_file():
        raise _not_a_build(folder, f"it has no {MANIFEST_NAME} manifest")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise _not_a_build(folder, f"{MANIFEST_NAME} is not JSON ({error})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != BUILD_FORMAT:
        found = manifest.get("format") if isinstance(manifest, dict) else None
        raise _not_a_build(
            folder, f"{MANIFEST_NAME} has format {found!r}, expected {BUILD_FORMAT!r}"
        )
    configs = manifest.get("configs")
    if (
        not isinstance(configs, dict)
        or not configs
        or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in configs.values()
        )
    ):
        raise _not_a_build(
            folder, f"{MANIFEST_NAME} has no 'configs' mapping of configuration to rows"
        )
    return manifest


def _check_license(license: Any, path: Path) -> None:
    """The Hub rejects a card whose ``license`` is not one of its identifiers (checked only online
    by ``DatasetCard.validate``): refuse a wrongly written known one, warn about unknown ones."""
    for value in license if isinstance(license, list) else [license]:
        if value is None or value in HUB_LICENSES:
            continue
        if str(value).lower() in HUB_LICENSES:
            raise SchemaError(
                f"the dataset card {path} has license {value!r}, which the Hub rejects: "
                f"write its Hub identifier {str(value).lower()!r}"
            )
        logger.warning(
            "license %r of %s is not a Hub license identifier known to this version; the Hub may "
            "reject the card (use one of https://huggingface.co/docs/hub/repositories-licenses)",
            value,
            path,
        )


def _read_card(folder: Path) -> tuple[Any, dict[str, dict[str, Any]], str]:
    """The dataset card, its ``configs`` (validated as ``datasets`` reads them) and the default."""
    from datasets.utils.metadata import MetadataConfigs
    from huggingface_hub import DatasetCard

    path = folder / CARD
    if not path.is_file():
        raise _not_a_build(folder, f"it has no {CARD} dataset card")
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---"):
        raise _not_a_build(folder, f"{CARD} has no YAML metadata block")
    try:
        card = DatasetCard(text)
        configs = MetadataConfigs.from_dataset_card_data(card.data)
        default = configs.get_default_config_name()
    except (ValueError, yaml.YAMLError) as error:
        raise SchemaError(f"the dataset card {path} has invalid metadata: {error}") from None
    if not configs:
        raise _not_a_build(folder, f"{CARD} declares no 'configs' in its YAML metadata")
    _check_license(card.data.license, path)
    if default != DEFAULT_CONFIG:
        raise _not_a_build(
            folder,
            f"{CARD} must mark {DEFAULT_CONFIG!r} as the default configuration "
            f"('default: true'), found {default!r}",
        )
    return card, dict(configs), default


def _config_shards(folder: Path, name: str, config: Mapping[str, Any]) -> list[Path]:
    """The Parquet files a card configuration points at: exactly ``DIR/<name>/*.parquet``."""
    data_files = config.get("data_files")
    entries = data_files if isinstance(data_files, list) else [data_files]
    patterns = []
    for entry in entries:
        if not isinstance(entry, dict) or entry.get("split") != "test":
            raise _not_a_build(
                folder, f"configuration {name!r} must list data_files with split 'test'"
            )
        paths = entry["path"]
        patterns.extend([paths] if isinstance(paths, str) else paths)
    matched = sorted(
        {path for pattern in patterns for path in folder.glob(pattern) if path.is_file()}
    )
    present = sorted((folder / name).glob("*.parquet"))
    if not present:
        raise _not_a_build(folder, f"configuration {name!r} has no Parquet files in {name}/")
    if matched != present:
        raise _not_a_build(
            folder,
            f"the card's data_files for {name!r} ({', '.join(patterns)}) match "
            f"{[p.relative_to(folder).as_posix() for p in matched]} but {name}/ holds "
            f"{[p.relative_to(folder).as_posix() for p in present]}",
        )
    totals = set()
    indices = []
    for path in present:
        match = SHARD_PATTERN.match(path.name)
        if match is None:
            raise _not_a_build(
                folder, f"{name}/{path.name} is not named test-0000K-of-0000N.parquet"
            )
        totals.add(int(match["total"]))
        indices.append(int(match["index"]))
    if totals != {len(present)} or sorted(indices) != list(range(len(present))):
        raise _not_a_build(folder, f"the shards of {name!r} are incomplete ({len(present)} files)")
    return present


def inspect_build(folder: str | Path) -> BuildFolder:
    """Validate a ``bindsplit build`` folder; raise :class:`SchemaError` naming what is wrong.

    Checked: the manifest format; the card's YAML (parsed by ``huggingface_hub.DatasetCard``,
    ``configs`` validated by ``datasets``' own reader); ``full`` the default; card, manifest and
    Parquet folders naming the same configurations; each configuration's ``data_files`` matching
    exactly its complete set of shards; row counts (Parquet metadata) equal to the manifest's.
    """
    import pyarrow.parquet as pq

    folder = Path(folder)
    _require_folder(folder)
    manifest = _read_manifest(folder)
    card, card_configs, default = _read_card(folder)
    parquet_folders = sorted({path.parent.name for path in folder.glob("*/*.parquet")})
    names = {
        "card": sorted(card_configs),
        "manifest": sorted(manifest["configs"]),
        "Parquet folders": parquet_folders,
    }
    if len({tuple(value) for value in names.values()}) != 1:
        shown = "; ".join(
            f"{where}: {', '.join(value) or 'none'}" for where, value in names.items()
        )
        raise _not_a_build(folder, f"the configurations do not match ({shown})")
    shards = {name: _config_shards(folder, name, config) for name, config in card_configs.items()}
    for name, paths in shards.items():
        rows = sum(pq.read_metadata(path).num_rows for path in paths)
        if rows != manifest["configs"][name]:
            raise _not_a_build(
                folder,
                f"{name}/ holds {rows} rows but {MANIFEST_NAME} says {manifest['configs'][name]}",
            )
    return BuildFolder(
        path=folder,
        manifest=manifest,
        card=card,
        configs={name: manifest["configs"][name] for name in card_configs},
        default_config=default,
        shards=shards,
    )


def plan_dataset(
    folder: str | Path,
    repo_id: str,
    *,
    revision: str | None = None,
    create_pr: bool = False,
    private: bool | None = None,
    commit_message: str | None = None,
) -> PublishPlan:
    """Plan publishing a built folder as the dataset repository ``repo_id``.

    Uploaded: the card, the manifest, every Parquet shard and the publish record; the card's
    ``configs`` make ``load_dataset(repo_id, config)`` work, ``full`` being the default.
    """
    validate_repo_name(repo_id)
    build = inspect_build(folder)
    files = [
        _local_file(build.path, build.path / CARD),
        _local_file(build.path, build.path / MANIFEST_NAME),
    ]
    files += [_local_file(build.path, path) for paths in build.shards.values() for path in paths]
    files.append(
        _publish_record(files[0].read(), build_fingerprint=build.manifest.get("fingerprint"))
    )
    benchmark = str(build.manifest.get("benchmark", "?"))
    version = f"bindsplit {build.manifest.get('bindsplit_version', __version__)}"
    data = build.card.data
    rows = ", ".join(
        f"{name} {n:,}" + (" (default)" if name == build.default_config else "")
        for name, n in build.configs.items()
    )
    summary = (
        ("benchmark", benchmark),
        ("configs", rows),
        ("card", f"pretty_name {data.pretty_name!r}, license {data.license!r}"),
    )
    return PublishPlan(
        repo_id=repo_id,
        repo_type="dataset",
        files=tuple(files),
        summary=summary,
        commit_message=commit_message or f"Publish BindSplit build of {benchmark} ({version})",
        revision=revision,
        create_pr=create_pr,
        private=private,
        not_uploaded=_left_out(build.path, files),
    )


# ---------------------------------------------------------------------------------------------
# Metric Space
# ---------------------------------------------------------------------------------------------


def _check_front_matter(readme: Path) -> dict[str, Any]:
    from huggingface_hub import SpaceCard

    text = readme.read_text(encoding="utf-8")
    if not text.startswith("---"):
        raise SchemaError(f"{readme} has no YAML front matter; an evaluate Space needs one")
    try:
        metadata = SpaceCard(text).data.to_dict()
    except (ValueError, yaml.YAMLError) as error:
        raise SchemaError(f"{readme} has invalid front matter: {error}") from None
    for key, expected in METRIC_FRONT_MATTER.items():
        if metadata.get(key) != expected:
            raise SchemaError(
                f"{readme} front matter must set {key}: {expected} (found {metadata.get(key)!r})"
            )
    tags = metadata.get("tags") or []
    missing = [tag for tag in METRIC_TAGS if tag not in tags]
    if missing:
        raise SchemaError(
            f"{readme} front matter tags must include {', '.join(METRIC_TAGS)} "
            f"(missing {', '.join(missing)})"
        )
    return metadata


def plan_metric(
    folder: str | Path,
    repo_id: str,
    *,
    revision: str | None = None,
    create_pr: bool = False,
    private: bool | None = None,
    commit_message: str | None = None,
) -> PublishPlan:
    """Plan publishing the metric folder as the evaluate Space ``repo_id`` (gradio SDK).

    ``evaluate.load("ORG/NAME")`` downloads ``NAME.py`` from the Space, so the folder must hold a
    metric script named after the repository, plus README.md (front matter ``sdk: gradio``,
    ``app_file: app.py``, ``tags`` with ``evaluate`` and ``metric``), app.py and requirements.txt.
    """
    validate_repo_name(repo_id)
    folder = Path(folder)
    _require_folder(folder)
    name = repo_id.split("/")[1]
    script = f"{name}.py"
    if not (folder / script).is_file():
        found = sorted(p.name for p in folder.glob("*.py") if p.name != "app.py")
        raise SchemaError(
            f"evaluate.load({repo_id!r}) loads {script} from the Space, but {folder} has no "
            f"{script}; name the repository after the metric script "
            f"({', '.join(found) or 'none found'})"
        )
    missing = [required for required in METRIC_SPACE_FILES if not (folder / required).is_file()]
    if missing:
        raise SchemaError(
            f"{folder} is missing {', '.join(missing)}, which an evaluate Space needs"
        )
    metadata = _check_front_matter(folder / CARD)
    files = [
        _local_file(folder, folder / relative)
        for relative in (CARD, script, *METRIC_SPACE_FILES[1:])
    ]
    files.append(_publish_record(files[0].read()))
    summary = (
        ("metric", f"{script}: evaluate.load({repo_id!r})"),
        (
            "card",
            f"title {metadata.get('title')!r}, sdk {metadata['sdk']}, "
            f"app_file {metadata['app_file']}, tags {metadata['tags']}",
        ),
    )
    return PublishPlan(
        repo_id=repo_id,
        repo_type="space",
        files=tuple(files),
        summary=summary,
        commit_message=commit_message
        or f"Publish the BindSplit evaluate metric (bindsplit {__version__})",
        revision=revision,
        create_pr=create_pr,
        private=private,
        space_sdk=METRIC_FRONT_MATTER["sdk"],
        not_uploaded=_left_out(folder, files),
    )


# ---------------------------------------------------------------------------------------------
# Execution
# ---------------------------------------------------------------------------------------------


def resolve_token(token: str | None = None) -> str:
    """``token``, else the usual Hugging Face login (``HF_TOKEN`` or the stored token)."""
    from huggingface_hub import get_token

    token = token or get_token()
    if not token:
        raise BindsplitError(f"no Hugging Face token found, so nothing was uploaded: {LOGIN_HINT}")
    return token


def check_remote_card(
    plan: PublishPlan, client: HubClient, token: str, *, force: bool = False
) -> None:
    """Refuse to overwrite a Hub card this tool did not publish (edited there), unless ``force``.

    Read-only calls only: ``repo_exists``, then ``file_exists`` / ``hf_hub_download`` of the card
    and, when it differs from the planned one, of :data:`PUBLISH_RECORD`.
    """
    where = {"repo_type": plan.repo_type, "token": token}
    if not client.repo_exists(plan.repo_id, **where):
        return
    at = {**where, "revision": plan.revision}
    if not client.file_exists(plan.repo_id, CARD, **at):
        return
    remote = Path(client.hf_hub_download(plan.repo_id, CARD, **at)).read_bytes()
    if remote == plan.card.read():
        return
    published: dict[str, Any] = {}
    if client.file_exists(plan.repo_id, PUBLISH_RECORD, **at):
        try:
            published = json.loads(
                Path(client.hf_hub_download(plan.repo_id, PUBLISH_RECORD, **at)).read_text("utf-8")
            )
        except json.JSONDecodeError:
            published = {}
    if published.get("card_sha256") == _sha256(remote):
        return
    reason = (
        "was edited on the Hub since it was last published"
        if published
        else f"was not published by BindSplit (no {PUBLISH_RECORD})"
    )
    if force:
        logger.warning("overwriting %s of %s, which %s (--force)", CARD, plan.repo_id, reason)
        return
    raise BindsplitError(
        f"{CARD} of {plan.repo_id} {reason}; nothing was uploaded. Copy the Hub edits into your "
        f"local {CARD} (then publish again), or pass --force to overwrite them"
    )


def execute_plan(plan: PublishPlan, client: HubClient, *, token: str, force: bool = False) -> Any:
    """Run the edited-card guard, then exactly :meth:`PublishPlan.calls`; return the commit info."""
    check_remote_card(plan, client, token, force=force)
    result = None
    for call in plan.calls():
        kwargs = dict(call.kwargs)
        if "operations" in kwargs:
            kwargs["operations"] = [file.operation() for file in kwargs["operations"]]
        result = getattr(client, call.method)(token=token, **kwargs)
    return result


def run_publish(
    plan: PublishPlan,
    *,
    yes: bool,
    force: bool = False,
    client: HubClient | None = None,
    token: str | None = None,
) -> int:
    """The shared body of the ``hub_scripts``: print the plan; with ``yes``, execute it.

    The dry run (``yes=False``) makes no call at all, not even read-only ones.
    """
    print(plan.describe())
    if not yes:
        print("\ndry run: nothing was sent. Run again with --yes to publish.")
        return 0
    token = resolve_token(token)
    if client is None:
        from huggingface_hub import HfApi

        client = HfApi(token=token)
    result = execute_plan(plan, client, token=token, force=force)
    url = getattr(result, "pr_url", None) or getattr(result, "commit_url", None) or plan.repo_id
    print(f"\npublished: {url}")
    return 0


def add_publish_arguments(parser: argparse.ArgumentParser, *, repository: str) -> None:
    """The options both ``hub_scripts`` share (``repository``: "dataset" or "Space")."""
    parser.add_argument(
        "--repo", required=True, metavar="ORG/NAME", help=f"{repository} repository id"
    )
    parser.add_argument(
        "--yes", action="store_true", help="upload (without it: dry run, nothing sent)"
    )
    parser.add_argument(
        "--revision", metavar="BRANCH", help="branch to commit to (created if missing)"
    )
    parser.add_argument(
        "--create-pr", action="store_true", help="open a pull request instead of committing"
    )
    parser.add_argument(
        "--private", action="store_true", default=None, help=f"create the {repository} private"
    )
    parser.add_argument("--force", action="store_true", help="overwrite a card edited on the Hub")
    parser.add_argument("--message", metavar="TEXT", help="commit message")


def script_main(
    planner: Callable[..., PublishPlan],
    args: argparse.Namespace,
    *,
    prog: str,
    client: HubClient | None = None,
) -> int:
    """Plan ``planner(args.folder, args.repo, ...)`` and :func:`run_publish` it; a user error is
    printed as one line (exit code 2) before anything is sent."""
    from .cli import USER_ERRORS

    try:
        plan = planner(
            args.folder,
            args.repo,
            revision=args.revision,
            create_pr=args.create_pr,
            private=args.private,
            commit_message=args.message,
        )
        return run_publish(plan, yes=args.yes, force=args.force, client=client)
    except USER_ERRORS as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return 2
