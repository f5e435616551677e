"""Executing a :class:`~.plan.PublishPlan` on the Hub (or on any ``HfApi``-like client).

:func:`execute_plan` first reads the target revision's head commit and file list
(``repo_info``), then makes exactly the plan's write calls, committing with
``parent_commit`` = that head: if anyone commits to the revision between the read and the commit,
the Hub refuses the commit and nothing is changed. What the read decides:

- a plan that overwrites (dataset, Space): the edited-card guard. A Hub card that differs from the
  one about to be uploaded is overwritten only if it is the card this tool published last time,
  identified by the SHA-256 in ``bindsplit-publish.json`` next to it, or with ``force``;
- a plan that only adds (results): files already in the repository are kept and not uploaded,
  except a file merged at upload (the results table), which is read and updated where it
  changes.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from ..errors import BindsplitError
from .plan import CARD, PUBLISH_RECORD, PlannedFile, PublishPlan

__all__ = [
    "HubClient",
    "PublishResult",
    "RemoteState",
    "check_remote_card",
    "execute_plan",
    "hub_client",
    "publish",
    "read_remote",
    "resolve_token",
]

logger = logging.getLogger(__name__)

LOGIN_HINT = (
    "run `hf auth login` (or `huggingface-cli login`) or set the HF_TOKEN environment variable"
)


class HubClient(Protocol):
    """The part of :class:`huggingface_hub.HfApi` publishing uses (keyword arguments as HfApi's)."""

    def repo_info(self, repo_id: str, **kwargs: Any) -> Any: ...

    def hf_hub_download(self, repo_id: str, filename: str, **kwargs: Any) -> str: ...

    def create_repo(self, repo_id: str, **kwargs: Any) -> Any: ...

    def create_branch(self, repo_id: str, **kwargs: Any) -> Any: ...

    def create_commit(self, repo_id: str, operations: Any, **kwargs: Any) -> Any: ...


@dataclass(frozen=True)
class RemoteState:
    """The target revision as read before writing: its head commit (``None`` for a repository
    that does not exist yet) and its files."""

    head: str | None
    files: frozenset[str]


@dataclass(frozen=True)
class PublishResult:
    """What a publish did: the commit or pull request URL (``None`` when nothing was new), the
    files uploaded and the files kept because the repository already had them."""

    url: str | None
    uploaded: tuple[str, ...]
    kept: tuple[str, ...]


def read_remote(plan: PublishPlan, client: HubClient, token: str) -> RemoteState:
    """Head commit and files of the plan's revision; a branch that does not exist yet is read
    from the default branch, which it will be created from."""
    from huggingface_hub.errors import RepositoryNotFoundError, RevisionNotFoundError

    where = {"repo_type": plan.repo_type, "token": token}
    try:
        try:
            info = client.repo_info(plan.repo_id, revision=plan.revision, **where)
        except RevisionNotFoundError:
            info = client.repo_info(plan.repo_id, revision=None, **where)
    except RepositoryNotFoundError:
        return RemoteState(head=None, files=frozenset())
    return RemoteState(
        head=info.sha, files=frozenset(sibling.rfilename for sibling in info.siblings or ())
    )


def _download(
    client: HubClient, plan: PublishPlan, state: RemoteState, name: str, token: str
) -> bytes:
    path = client.hf_hub_download(
        plan.repo_id, name, repo_type=plan.repo_type, revision=state.head, token=token
    )
    return Path(path).read_bytes()


def check_remote_card(
    plan: PublishPlan, client: HubClient, token: str, state: RemoteState, *, force: bool = False
) -> None:
    """Refuse to overwrite a Hub card this tool did not publish (edited there), unless ``force``.

    Read-only: downloads, at the head commit read in ``state``, the card and, when it differs
    from the planned one, :data:`~.plan.PUBLISH_RECORD`.
    """
    card = plan.card
    if card is None or CARD not in state.files:
        return
    remote = _download(client, plan, state, CARD, token)
    if remote == card.read():
        return
    published: dict[str, Any] = {}
    if PUBLISH_RECORD in state.files:
        try:
            published = json.loads(_download(client, plan, state, PUBLISH_RECORD, token))
        except (json.JSONDecodeError, UnicodeDecodeError):
            published = {}
    if (
        isinstance(published, dict)
        and published.get("card_sha256") == hashlib.sha256(remote).hexdigest()
    ):
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


def execute_plan(
    plan: PublishPlan, client: HubClient, *, token: str, force: bool = False
) -> PublishResult:
    """Read the target revision, run the guard of the plan's kind, then make the plan's write
    calls for the files to upload, committing on top of the head that was read."""
    from huggingface_hub.errors import HfHubHTTPError

    state = read_remote(plan, client, token)
    files: Sequence[PlannedFile] = plan.files
    if plan.overwrite:
        check_remote_card(plan, client, token, state, force=force)
    else:
        files = [
            updated
            for file in plan.files
            if (updated := _updated(file, client, plan, state, token)) is not None
        ]
    uploaded = {file.path_in_repo for file in files}
    kept = tuple(file.path_in_repo for file in plan.files if file.path_in_repo not in uploaded)
    if not any(file.path_in_repo != CARD for file in files) and not plan.overwrite:
        logger.info("%s already holds every file: nothing to upload", plan.repo_id)
        return PublishResult(url=None, uploaded=(), kept=kept)
    result = None
    for call in plan.calls(files, parent_commit=state.head):
        kwargs = dict(call.kwargs)
        if "operations" in kwargs:
            kwargs["operations"] = [file.operation() for file in kwargs["operations"]]
        try:
            result = getattr(client, call.method)(token=token, **kwargs)
        except HfHubHTTPError as error:
            if call.method == "create_commit" and _status(error) in (409, 412):
                raise BindsplitError(
                    f"{plan.repo_id} changed while publishing (a commit landed after it was "
                    "read); nothing was uploaded. Run the command again"
                ) from error
            raise
    url = getattr(result, "pr_url", None) or getattr(result, "commit_url", None) or plan.repo_id
    return PublishResult(url=url, uploaded=tuple(file.path_in_repo for file in files), kept=kept)


def _updated(
    file: PlannedFile, client: HubClient, plan: PublishPlan, state: RemoteState, token: str
) -> PlannedFile | None:
    """What an adding plan uploads for ``file``: the file where the repository lacks it; for a
    file merged at upload, the merge of the repository's copy (None if unchanged); else None
    (the repository's copy is kept)."""
    if file.path_in_repo not in state.files:
        return file
    if file.merge is None:
        return None
    merged = file.merge(_download(client, plan, state, file.path_in_repo, token))
    if merged is None:
        return None
    return PlannedFile(file.path_in_repo, len(merged), content=merged)


def _status(error: Any) -> int | None:
    response = getattr(error, "response", None)
    return getattr(response, "status_code", None)


def resolve_token(token: str | None = None) -> str:
    """``token``, else the usual Hugging Face login (``HF_TOKEN`` or the stored token)."""
    from huggingface_hub import get_token

    token = token or get_token()
    if not token:
        raise BindsplitError(f"no Hugging Face token found, so nothing was uploaded: {LOGIN_HINT}")
    return token


def hub_client(token: str) -> HubClient:
    """The client :func:`publish` uses: ``huggingface_hub.HfApi`` with ``token``."""
    from huggingface_hub import HfApi

    return cast(HubClient, HfApi(token=token))


def publish(
    plan: PublishPlan,
    *,
    token: str | None = None,
    client: HubClient | None = None,
    force: bool = False,
) -> PublishResult:
    """Execute ``plan`` with the user's login (``token`` or the stored one) on ``client``
    (default :func:`hub_client`); every check that needs no network has run when the plan was
    made."""
    token = resolve_token(token)
    return execute_plan(plan, client or hub_client(token), token=token, force=force)
