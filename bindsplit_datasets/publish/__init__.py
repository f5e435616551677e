"""Publishing to the Hugging Face Hub: built datasets, the metric Space and results records.

Publishing is split into a pure *plan* and its *execution*, so that nothing is sent by accident:

- :func:`plan_dataset` (:mod:`.dataset`) checks that a folder is a complete ``bindsplit build``
  output and plans it for its canonical repository (``bindsplit/aro`` for ``aro_vga``; ``org``
  or ``repo_id`` choose another); :func:`plan_metric` (:mod:`.space`) plans the metric folder as
  the evaluate Space ``bindsplit/bindsplit`` and :func:`plan_space` a shipped Space (the
  leaderboard ``bindsplit/leaderboard``); :func:`plan_results` (:mod:`.results`) plans adding
  results records to a dataset that leaderboards read, each record stored once, and the results
  table updated.
- A :class:`PublishPlan` (:mod:`.plan`) lists every file and the exact write calls;
  :meth:`PublishPlan.describe` is the dry run.
- :func:`publish` / :func:`execute_plan` (:mod:`.hub`) read the target revision once, apply the
  guard of the plan's kind (a card edited on the Hub is not overwritten; results already there
  are kept), and commit on top of the revision they read.

Everything that can be wrong with the input (repository name, folder, card, records, token)
raises before the first call to the Hub. The command line (``bindsplit push-dataset``,
``push-metric``, ``push-results``, ``push-space``) and ``hub_scripts/`` are thin callers of these
functions.
"""

from __future__ import annotations

from .dataset import BuildFolder, dataset_repo_id, inspect_build, plan_dataset, retarget_card
from .hub import (
    HubClient,
    PublishResult,
    RemoteState,
    check_remote_card,
    execute_plan,
    hub_client,
    publish,
    read_remote,
    resolve_token,
)
from .plan import CARD, PUBLISH_RECORD, HubCall, PlannedFile, PublishPlan, validate_repo_name
from .results import (
    RESULTS_TABLE_PATH,
    RecordKey,
    plan_results,
    record_key,
    record_path,
    results_card,
    scores_path,
)
from .space import plan_metric, plan_space

__all__ = [
    "CARD",
    "PUBLISH_RECORD",
    "RESULTS_TABLE_PATH",
    "BuildFolder",
    "HubCall",
    "HubClient",
    "PlannedFile",
    "PublishPlan",
    "PublishResult",
    "RecordKey",
    "RemoteState",
    "check_remote_card",
    "dataset_repo_id",
    "execute_plan",
    "hub_client",
    "inspect_build",
    "plan_dataset",
    "plan_metric",
    "plan_results",
    "plan_space",
    "publish",
    "read_remote",
    "record_key",
    "record_path",
    "resolve_token",
    "results_card",
    "retarget_card",
    "scores_path",
    "validate_repo_name",
]
