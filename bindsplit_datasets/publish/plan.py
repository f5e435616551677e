"""What a publish will send: the files, the write calls and their human-readable description.

A :class:`PublishPlan` is built without touching the network by the planners of
:mod:`.dataset`, :mod:`.space` and :mod:`.results`, printed by the dry run
(:meth:`PublishPlan.describe`) and executed by :func:`bindsplit_datasets.publish.hub.execute_plan`.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from .._version import __version__
from ..errors import BindsplitFileNotFoundError, BindsplitValueError, NotAFolderError

__all__ = [
    "CARD",
    "PUBLISH_RECORD",
    "CommitOptions",
    "HubCall",
    "PlannedFile",
    "PublishPlan",
    "validate_repo_name",
]

CARD = "README.md"
#: Written next to a dataset or Space card on every publish: the SHA-256 of the card as uploaded,
#: so that the next publish can tell a card edited on the Hub from the one this tool put there.
PUBLISH_RECORD = "bindsplit-publish.json"


class CommitOptions(TypedDict, total=False):
    """Where a plan commits: keyword arguments of every planner, passed on to its
    :class:`PublishPlan` (defaults: ``revision=None``, the main branch; ``create_pr=False``, a
    direct commit; ``private=None``, the visibility of a new repository left to the Hub)."""

    revision: str | None
    create_pr: bool
    private: bool | None


@dataclass(frozen=True)
class PlannedFile:
    """One file of the commit: a local file, or generated ``content``.

    ``merge`` (a file the repository keeps up to date, such as the results table): given the
    repository's current copy, the content to upload instead, or None when that copy needs no
    change; ``content`` is what is uploaded where the repository has none yet.
    """

    path_in_repo: str
    size: int
    local_path: Path | None = None
    content: bytes | None = None
    merge: Callable[[bytes], bytes | None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if (self.local_path is None) == (self.content is None):
            raise ValueError(f"{self.path_in_repo}: give exactly one of local_path and content")

    def read(self) -> bytes:
        if self.content is not None:
            return self.content
        assert self.local_path is not None  # checked in __post_init__
        return self.local_path.read_bytes()

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
    """What a publish will send, built without touching the network.

    ``overwrite``: the commit replaces files already in the repository (a dataset or Space,
    guarded by the edited-card check), or, when False, files already there are kept and only the
    others are uploaded (the results dataset, which only grows).
    """

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
    overwrite: bool = True

    @property
    def card(self) -> PlannedFile | None:
        return next((file for file in self.files if file.path_in_repo == CARD), None)

    @property
    def total_size(self) -> int:
        return sum(file.size for file in self.files)

    def calls(
        self, files: Sequence[PlannedFile] | None = None, parent_commit: str | None = None
    ) -> list[HubCall]:
        """The write calls :func:`~bindsplit_datasets.publish.hub.execute_plan` makes, in order:
        for ``files`` (default: all of the plan's), on top of ``parent_commit`` when given."""
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
        commit = {
            "repo_id": self.repo_id,
            "operations": tuple(self.files if files is None else files),
            "commit_message": self.commit_message,
            "repo_type": self.repo_type,
            "revision": self.revision,
            "create_pr": self.create_pr,
        }
        if parent_commit is not None:
            commit["parent_commit"] = parent_commit
        calls.append(HubCall("create_commit", commit))
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
        lines.append(f"files:      {len(self.files)}, {human_size(self.total_size)}")
        for file in self.files:
            source = _shown(file.local_path) if file.local_path is not None else "generated"
            if file.merge is not None:
                source = "generated, merged with the repository's copy at upload"
            lines.append(f"  {file.path_in_repo:<{width}}  {human_size(file.size):>9}  <- {source}")
        if self.not_uploaded:
            lines.append(f"not uploaded: {', '.join(self.not_uploaded)}")
        lines.append("steps:")
        lines.append(
            "  1. read-only: the repository's head commit and file list (repo_info); "
            + (
                f"if {CARD} exists on the Hub and differs from this one, check it is the card "
                f"last published (hash in {PUBLISH_RECORD}); else stop (--force overrides)"
                if self.overwrite
                else "files already there are kept and not uploaded again"
                + (
                    "; the files merged at upload are read and updated"
                    if any(file.merge is not None for file in self.files)
                    else ""
                )
            )
        )
        for number, call in enumerate(self.calls(), start=2):
            arguments = ", ".join(
                f"{key}={value!r}"
                for key, value in call.kwargs.items()
                if key not in ("repo_id", "operations")
            )
            if call.method == "create_commit":
                extra = f"{len(self.files)} files{'' if self.overwrite else ' at most'}, "
                arguments += ", parent_commit=<the head read in step 1>"
            else:
                extra = ""
            lines.append(f"  {number}. {call.method}({self.repo_id!r}, {extra}{arguments})")
        return "\n".join(lines)


def human_size(size: int) -> str:
    """``size`` bytes as "512 B", "1.5 kB", "2.0 MB" (decimal units)."""
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
        raise BindsplitValueError(
            f"invalid repository name {repo_id!r}: {error} Use ORG/NAME with letters, digits, "
            "'-', '_' and '.' (no '--' or '..', at most 96 characters)"
        ) from None
    if repo_id.count("/") != 1:
        raise BindsplitValueError(
            f"invalid repository name {repo_id!r}: give the namespace too, as ORG/NAME "
            "(your user name or an organisation)"
        )
    return repo_id


def publish_record(card: bytes, **extra: Any) -> PlannedFile:
    """The generated :data:`PUBLISH_RECORD` for ``card`` (its hash) and ``extra`` fields."""
    record = {
        "tool": "bindsplit",
        "bindsplit_version": __version__,
        "card_sha256": hashlib.sha256(card).hexdigest(),
        **extra,
    }
    content = (json.dumps(record, indent=2, sort_keys=True) + "\n").encode("utf-8")
    return PlannedFile(PUBLISH_RECORD, len(content), content=content)


#: The installed package's folder: files under it are shipped with BindSplit.
_PACKAGE = Path(__file__).resolve().parents[1]


def _shown(path: Path) -> str:
    """A local file as the plan shows it: one shipped with BindSplit (the metric, a Space) by
    its place in the package, not the installation's absolute path; any other as given (a
    path the user named)."""
    try:
        return f"shipped with BindSplit: {Path(os.path.abspath(path)).relative_to(_PACKAGE)}"
    except ValueError:
        return str(path)


def generated_file(path_in_repo: str, text: str) -> PlannedFile:
    content = text.encode("utf-8")
    return PlannedFile(path_in_repo, len(content), content=content)


def local_file(folder: Path, path: Path) -> PlannedFile:
    return PlannedFile(path.relative_to(folder).as_posix(), path.stat().st_size, local_path=path)


def left_out(folder: Path, uploaded: Sequence[PlannedFile]) -> tuple[str, ...]:
    """Files in ``folder`` (relative paths) that no planned file comes from."""
    kept = {file.local_path.resolve() for file in uploaded if file.local_path is not None}
    kept |= {(folder / file.path_in_repo).resolve() for file in uploaded}
    return tuple(
        path.relative_to(folder).as_posix()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and path.resolve() not in kept
    )


def require_folder(folder: Path) -> None:
    if not folder.exists():
        raise BindsplitFileNotFoundError(f"folder not found: {folder}")
    if not folder.is_dir():
        raise NotAFolderError(f"{folder} is not a folder")
