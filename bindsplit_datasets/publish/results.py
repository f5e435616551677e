"""Planning the upload of results records to a Hub dataset that leaderboards read.

Each record written by ``bindsplit eval`` (format ``bindsplit-results/1``; validated, complete
and checked against its digest) is identified by (model id, model revision, benchmark, build
fingerprint) and stored once, as ``records/<benchmark>/<model>/<key>.json`` where ``<key>`` is a
digest of that identity. The repository only grows: a path already on the Hub is kept, never
rewritten, so publishing the same records twice uploads nothing the second time.

Beside the records, ``data/results.parquet`` is the results table
(:mod:`~bindsplit_datasets.reports.results_table`: one row per model, revision, benchmark,
configuration and metric), merged at upload with the repository's copy so that it holds the rows
of every record published; the README's ``configs`` point the dataset viewer and
``load_dataset(repo)`` at it. The README is written only if the repository has none.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._version import __version__
from ..errors import BindsplitFileNotFoundError, SchemaError
from ..input_files import check_input_file
from ..names import HUB_ORG, RESULTS_FORMAT
from ..reports.results import ResultsRecord, is_results_record
from .canonical import check_records
from .plan import (
    CARD,
    CommitOptions,
    PlannedFile,
    PublishPlan,
    generated_file,
    validate_repo_name,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "RESULTS_TABLE_PATH",
    "RecordKey",
    "plan_results",
    "record_key",
    "record_path",
    "results_card",
]

RECORDS_FOLDER = "records"
#: Where the results table lives in the results dataset.
RESULTS_TABLE_PATH = "data/results.parquet"
#: The split ``load_dataset(repo)`` gives the results table.
RESULTS_SPLIT = "train"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class RecordKey:
    """What identifies a results record: which model, at which revision, on which build."""

    model_id: str
    model_revision: str | None
    benchmark: str
    fingerprint: str

    @property
    def digest(self) -> str:
        """16 hex digits of the SHA-256 of the identity (the record's file name)."""
        identity = json.dumps(
            [self.model_id, self.model_revision, self.benchmark, self.fingerprint]
        )
        return hashlib.sha256(identity.encode("utf-8")).hexdigest()[:16]


def record_key(record: Mapping[str, Any], source: str = "results record") -> RecordKey:
    """The identity of a validated results record; SchemaError if it lacks one."""
    model, dataset = record["model"], record["dataset"]
    revision = model.get("revision")
    fingerprint = dataset.get("fingerprint")
    if revision is not None and not isinstance(revision, str):
        raise SchemaError(f"{source}: model.revision must be a string or null, got {revision!r}")
    if not isinstance(fingerprint, str) or not fingerprint:
        raise SchemaError(
            f"{source}: the record has no dataset.fingerprint, so it cannot be told apart from "
            "results on other builds; evaluate a dataset made by `bindsplit build` (its manifest "
            "holds the fingerprint)"
        )
    return RecordKey(model["id"], revision, dataset["benchmark"], fingerprint)


def _segment(text: str) -> str:
    """A path segment for ``text``: "/" becomes "__", other unsafe runs "_"."""
    return "__".join(_UNSAFE.sub("_", part) for part in text.strip("/").split("/")) or "_"


def record_path(key: RecordKey) -> str:
    """Where a record lives in the repository:
    ``records/<benchmark>/<model id, "/" as "__">/<digest>.json``."""
    return f"{RECORDS_FOLDER}/{_segment(key.benchmark)}/{_segment(key.model_id)}/{key.digest}.json"


def results_card(repo_id: str) -> str:
    """The README of a results dataset: what it holds and how a leaderboard reads it; its
    ``configs`` make the results table what the viewer shows and ``load_dataset`` loads."""
    from ..reports.results_table import COLUMNS

    return f"""---
tags:
- bindsplit
- leaderboard
configs:
- config_name: default
  data_files:
  - split: {RESULTS_SPLIT}
    path: {RESULTS_TABLE_PATH}
---

# BindSplit results

Results of BindSplit evaluations (`bindsplit eval`): per model and benchmark build, the I2T, T2I
and group accuracies of every configuration (`full`, `seen`, `partial`, `unseen`, `balanced`)
with their intervals (Wilson score by default), and the gaps seen - unseen and seen - partial.

The table `{RESULTS_TABLE_PATH}` has one row per model, model revision, benchmark, configuration
and metric, with the columns {", ".join(f"`{column}`" for column in COLUMNS)} (accuracies as
fractions; the gaps as rows of configuration `gap_seen_unseen` and `gap_seen_partial`;
`reference` is the corpus the seen/unseen split is relative to, `scored_by` what scored the
samples; `interval_method`, `confidence`, `n_bootstrap`, `seed`, `bindsplit_version`,
`git_commit` and `platform` what reproduces a row; `small_n` a value on fewer than 30 samples or
a degenerate count):

```python
from datasets import load_dataset

results = load_dataset("{repo_id}", split="{RESULTS_SPLIT}")
```

The complete records (format `{RESULTS_FORMAT}`, with per-sample outcomes for paired
significance tests, the model, build and environment) are one JSON file per (model id, model
revision, benchmark, build fingerprint), at
`{RECORDS_FOLDER}/<benchmark>/<model id, "/" as "__">/<key>.json`. `bindsplit push-results` adds
records and never rewrites one, so a record here is the first one published for its identity; it
adds their rows to the table. With BindSplit installed, print the leaderboards of a copy of this
repository with `bindsplit compare {RECORDS_FOLDER}/*/*/*.json`.
"""


def _json_files(paths: Iterable[str | Path]) -> tuple[list[Path], list[Path]]:
    """The JSON files to read (folders searched recursively) and the other files in folders."""
    found: list[Path] = []
    other: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file()):
                (found if child.suffix == ".json" else other).append(child)
        elif path.is_file():
            found.append(path)
        else:
            raise BindsplitFileNotFoundError(f"results file or folder not found: {path}")
    return found, other


def _records(path: Path, explicit: bool) -> list[tuple[Any, str]] | None:
    """(record, source) pairs of a JSON file, or None for a JSON file found in a folder that is not
    a results record (another tool's file: left out); a file named explicitly must be one."""
    try:
        data = json.loads(check_input_file(path, "results file").read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        if not explicit:
            return None
        raise SchemaError(
            f"{path} is not a BindSplit results record: not JSON ({error}); pass the RESULTS.json "
            "files written by `bindsplit eval`, or a folder of them"
        ) from None
    items = data if isinstance(data, list) else [data]
    sources = [f"{path}[{i}]" for i in range(len(items))] if isinstance(data, list) else [str(path)]
    if not explicit and not (items and all(is_results_record(item) for item in items)):
        return None
    return [
        (ResultsRecord.from_json(item, source).data, source)
        for item, source in zip(items, sources, strict=True)
    ]


def _table_file(records: list[dict[str, Any]]) -> PlannedFile:
    """The results table of ``records``, merged at upload with the repository's copy."""
    from ..reports.results_table import (
        merge_tables,
        read_results_table,
        results_table,
        table_bytes,
    )

    table = results_table(records)

    def merge(remote: bytes) -> bytes | None:
        existing = read_results_table(remote)
        merged = merge_tables(existing, table)
        return None if merged.num_rows == existing.num_rows else table_bytes(merged)

    content = table_bytes(table)
    return PlannedFile(RESULTS_TABLE_PATH, len(content), content=content, merge=merge)


def plan_results(
    paths: Iterable[str | Path],
    repo_id: str,
    *,
    commit_message: str | None = None,
    **options: Unpack[CommitOptions],
) -> PublishPlan:
    """Plan adding the results records in ``paths`` (JSON files, or folders searched recursively
    for them) to the dataset ``repo_id``.

    A file holds one record or a JSON list of records, each complete and matching its digest.
    In folders, JSON files that are not results records are left out (listed in the plan); a
    named file must be one. Two different records with the same identity are an error; identical
    copies are uploaded once. The plan does not overwrite: at upload time, records (and the
    README) already in the repository are kept, and the results table
    (:data:`RESULTS_TABLE_PATH`) gains the rows of the records it does not hold yet.
    ``options``: :class:`~.plan.CommitOptions`.
    """
    validate_repo_name(repo_id)
    paths = list(paths)
    explicit = {Path(p) for p in paths if Path(p).is_file()}
    json_files, other = _json_files(paths)
    planned: dict[str, tuple[PlannedFile, Any, str]] = {}
    not_records = [str(path) for path in other]
    for path in json_files:
        found = _records(path, explicit=path in explicit)
        if found is None:
            not_records.append(str(path))
            continue
        for record, source in found:
            target = record_path(record_key(record, source))
            if target in planned:
                first, first_record, first_source = planned[target]
                if record != first_record:
                    raise SchemaError(
                        f"{first_source} and {source} are different results for the same model, "
                        "revision, benchmark and build; publish one of them (a record is never "
                        "replaced on the Hub)"
                    )
                continue
            file = (
                PlannedFile(target, path.stat().st_size, local_path=path)
                if source == str(path)
                else generated_file(target, json.dumps(record, indent=2) + "\n")
            )
            planned[target] = (file, record, source)
    if repo_id.split("/", 1)[0] == HUB_ORG:  # the canonical namespace: canonical builds only
        check_records(
            [record for _, record, _ in planned.values()],
            org=None,
            what=f"push-results to {repo_id}",
            override="--repo in your namespace (ORG/bindsplit-results)",
        )
    if not planned:
        raise SchemaError(
            f"no results records found in {', '.join(map(str, paths)) or 'nothing'}: pass the "
            f"RESULTS.json files written by `bindsplit eval` (format {RESULTS_FORMAT!r})"
        )
    records = [record for _, record, _ in planned.values()]
    benchmarks = sorted({record["dataset"]["benchmark"] for record in records})
    models = sorted({record["model"]["id"] for record in records})
    files = [generated_file(CARD, results_card(repo_id)), _table_file(records)]
    files += [planned[target][0] for target in sorted(planned)]
    return PublishPlan(
        repo_id=repo_id,
        repo_type="dataset",
        files=tuple(files),
        summary=(
            (
                "records",
                f"{len(records)} ({len(models)} models, benchmarks {', '.join(benchmarks)})",
            ),
            ("appends", "records already in the repository are kept, not uploaded again"),
            ("table", f"{RESULTS_TABLE_PATH}: the rows of records it does not hold yet are added"),
        ),
        commit_message=commit_message
        or f"Add {len(records)} BindSplit results record(s) (bindsplit {__version__})",
        **options,
        not_uploaded=tuple(not_records),
        overwrite=False,
    )
