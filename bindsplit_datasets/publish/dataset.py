"""Planning the upload of a ``bindsplit build`` folder as a Hub dataset repository.

:func:`inspect_build` checks that a folder is a complete build (manifest, dataset card whose
``configs`` match the Parquet folders shard for shard and row for row, ``full`` the default
configuration); :func:`plan_dataset` turns it into a :class:`~.plan.PublishPlan` for the
canonical repository of its benchmark (``bindsplit/aro`` for ``aro_vga``), another namespace
(``org``) or any ``repo_id``, with the card's loading examples naming that repository.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from .._version import __version__
from ..builds.eval_tasks import EVAL_CONFIG_FILE, format_eval_config
from ..builds.manifest import read_manifest, verify_build
from ..errors import SchemaError
from ..names import MANIFEST_NAME, hub_dataset_id
from .canonical import check_build
from .plan import (
    CARD,
    CommitOptions,
    PlannedFile,
    PublishPlan,
    generated_file,
    left_out,
    local_file,
    publish_record,
    require_folder,
    validate_repo_name,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["BuildFolder", "dataset_repo_id", "inspect_build", "plan_dataset", "retarget_card"]

logger = logging.getLogger(__name__)

DEFAULT_CONFIG = "full"
SHARD_PATTERN = re.compile(r"^(?P<split>[a-z]+)-(?P<index>\d{5})-of-(?P<total>\d{5})\.parquet$")
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
# A string literal naming a dataset repository in the card's code examples: load_dataset("X", ...)
_LOADED_REPO = re.compile(r'load_dataset\(\s*"(?P<repo>[^"]+)"')


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
    _check_license(card.data.get("license"), path)
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
    patterns: list[str] = []
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


def inspect_build(folder: str | Path, *, verify: bool = True) -> BuildFolder:
    """Validate a ``bindsplit build`` folder; raise :class:`SchemaError` naming what is wrong.

    With ``verify`` (the default) the rows are first checked against the manifest
    (:func:`~bindsplit_datasets.builds.manifest.verify_build`), so a build changed after the fact is
    refused before anything is planned; ``verify=False`` skips that check explicitly.

    Checked: the manifest format; the card's YAML (parsed by ``huggingface_hub.DatasetCard``,
    ``configs`` validated by ``datasets``' own reader); ``full`` the default; card, manifest and
    Parquet folders naming the same configurations; each configuration's ``data_files`` matching
    exactly its complete set of shards; row counts (Parquet metadata) equal to the manifest's.
    """
    import pyarrow.parquet as pq

    folder = Path(folder)
    require_folder(folder)
    manifest = verify_build(folder) if verify else read_manifest(folder)
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


def dataset_repo_id(benchmark: str, *, org: str | None = None, repo_id: str | None = None) -> str:
    """The repository a build of ``benchmark`` is published to: ``repo_id`` if given, else the
    canonical id (``bindsplit/aro`` for ``aro_vga``) with ``org`` as namespace if given."""
    return validate_repo_name(repo_id or hub_dataset_id(benchmark, org))


def retarget_card(text: str, repo_id: str) -> tuple[str, str | None]:
    """The card ``text`` with its code examples naming ``repo_id``, and the id they named before
    (``None`` when unchanged).

    The examples are found by their ``load_dataset("X", ...)`` calls; every quoted ``"X"`` in the
    card's body (the YAML metadata is left alone) becomes ``"repo_id"``, which also covers
    ``evaluate_model(model, "X")``. A card whose examples name several repositories, or none, is
    left as it is.

    >>> text = '---\\nlicense: mit\\n---\\nload_dataset("bindsplit/aro", "unseen")\\n'
    >>> retarget_card(text, "my-lab/aro")
    ('---\\nlicense: mit\\n---\\nload_dataset("my-lab/aro", "unseen")\\n', 'bindsplit/aro')
    """
    _, metadata, body = text.split("---", 2) if text.startswith("---") else ("", None, text)
    named = set(_LOADED_REPO.findall(body))
    if len(named) != 1:
        if len(named) > 1:
            logger.warning(
                "the card's examples load several repositories (%s); they are left as they are",
                ", ".join(sorted(named)),
            )
        return text, None
    (old,) = named
    if old == repo_id:
        return text, None
    body = body.replace(f'"{old}"', f'"{repo_id}"')
    return (body if metadata is None else f"---{metadata}---{body}"), old


def _eval_config(build: BuildFolder) -> PlannedFile:
    """The repository's ``eval.yaml``: the build folder's own, else made from its manifest."""
    path = build.path / EVAL_CONFIG_FILE
    if path.is_file():
        return local_file(build.path, path)
    return generated_file(EVAL_CONFIG_FILE, format_eval_config(build.manifest))


def _task_ids(file: PlannedFile) -> str:
    tasks = (yaml.safe_load(file.read()) or {}).get("tasks") or []
    return ", ".join(str(task.get("id")) for task in tasks if isinstance(task, dict))


def plan_dataset(
    folder: str | Path,
    repo_id: str | None = None,
    *,
    org: str | None = None,
    commit_message: str | None = None,
    verify: bool = True,
    **options: Unpack[CommitOptions],
) -> PublishPlan:
    """Plan publishing a built folder as a dataset repository.

    The repository is ``repo_id``, else the canonical one of the build's benchmark in namespace
    ``org`` (default ``bindsplit``). Uploaded: the card (its loading examples retargeted to the
    repository when they name another one), the manifest, every Parquet shard and the publish
    record; the card's ``configs`` make ``load_dataset(repo_id, config)`` work, ``full`` being the
    default. The folder itself is never modified; it is verified against its manifest first
    unless ``verify=False``. ``options`` (``revision``, ``create_pr``, ``private``):
    :class:`~bindsplit_datasets.publish.plan.CommitOptions`, as for every planner.
    """
    build = inspect_build(folder, verify=verify)
    benchmark = str(build.manifest.get("benchmark", "?"))
    chosen = repo_id is not None
    repo_id = dataset_repo_id(benchmark, org=org, repo_id=repo_id)
    if not chosen:  # the canonical name only for the canonical build
        check_build(build.manifest, repo_id)
    card_text = (build.path / CARD).read_text(encoding="utf-8")
    retargeted, previous = retarget_card(card_text, repo_id)
    card = (
        local_file(build.path, build.path / CARD)
        if previous is None
        else generated_file(CARD, retargeted)
    )
    files = [card, _eval_config(build), local_file(build.path, build.path / MANIFEST_NAME)]
    files += [local_file(build.path, path) for paths in build.shards.values() for path in paths]
    files.append(publish_record(card.read(), build_fingerprint=build.manifest.get("fingerprint")))
    version = f"bindsplit {build.manifest.get('bindsplit_version', __version__)}"
    data = build.card.data
    rows = ", ".join(
        f"{name} {n:,}" + (" (default)" if name == build.default_config else "")
        for name, n in build.configs.items()
    )
    summary = [
        ("benchmark", benchmark),
        ("configs", rows),
        ("leaderboard", f"{EVAL_CONFIG_FILE}: tasks {_task_ids(files[1])}"),
        ("card", f"pretty_name {data.pretty_name!r}, license {data.license!r}"),
    ]
    if previous is not None:
        summary.append(("examples", f"load {repo_id!r} (the local card says {previous!r})"))
    return PublishPlan(
        repo_id=repo_id,
        repo_type="dataset",
        files=tuple(files),
        summary=tuple(summary),
        commit_message=commit_message or f"Publish BindSplit build of {benchmark} ({version})",
        **options,
        not_uploaded=left_out(build.path, files),
    )
