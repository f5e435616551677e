"""Planning the upload of results records to a Hub dataset that leaderboards read.

Each record written by ``bindsplit eval`` (format ``bindsplit-results/1``) is identified by
(model id, model revision, benchmark, build fingerprint) and stored once, as
``records/<benchmark>/<model>/<key>.json`` where ``<key>`` is a digest of that identity. The
repository only grows: a path already on the Hub is kept, never rewritten, so publishing the same
records twice uploads nothing the second time. A README (written only if the repository has none)
says how to read the records.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..errors import BindsplitFileNotFoundError, SchemaError
from ..names import RESULTS_FORMAT
from ..reports import validate_record
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

__all__ = ["RecordKey", "plan_results", "record_key", "record_path", "results_card"]

RECORDS_FOLDER = "records"
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
    """The README of a results dataset: what it holds and how a leaderboard reads it."""
    return f"""---
tags:
- bindsplit
- leaderboard
viewer: false
---

# BindSplit results

Results records of BindSplit evaluations (`bindsplit eval`, format `{RESULTS_FORMAT}`): per model
and benchmark build, the I2T, T2I and group accuracies of every configuration (`full`, `seen`,
`unseen`, `partial`, ...) with bootstrap intervals, the seen-minus-unseen gap, and the identity of
the model, the dataset build and the environment.

One JSON file per (model id, model revision, benchmark, build fingerprint), at
`{RECORDS_FOLDER}/<benchmark>/<model id, "/" as "__">/<key>.json`. `bindsplit push-results` adds
records and never rewrites one, so a record here is the first one published for its identity.

```python
import json
from pathlib import Path

from huggingface_hub import snapshot_download

folder = Path(snapshot_download("{repo_id}", repo_type="dataset"))
records = [json.loads(p.read_text()) for p in sorted(folder.glob("{RECORDS_FOLDER}/**/*.json"))]
```

or, with BindSplit installed, print the leaderboards in that folder:
`bindsplit compare {RECORDS_FOLDER}/*/*/*.json`.
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
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        if not explicit:
            return None
        raise SchemaError(
            f"{path} is not a BindSplit results record: not JSON ({error}); pass the RESULTS.json "
            "files written by `bindsplit eval`, or a folder of them"
        ) from None
    items = data if isinstance(data, list) else [data]
    sources = [f"{path}[{i}]" for i in range(len(items))] if isinstance(data, list) else [str(path)]
    is_record = [isinstance(item, dict) and item.get("format") == RESULTS_FORMAT for item in items]
    if not explicit and not (items and all(is_record)):
        return None
    return [
        (validate_record(item, source), source) for item, source in zip(items, sources, strict=True)
    ]


def plan_results(
    paths: Iterable[str | Path],
    repo_id: str,
    *,
    commit_message: str | None = None,
    **options: Unpack[CommitOptions],
) -> PublishPlan:
    """Plan adding the results records in ``paths`` (JSON files, or folders searched recursively
    for them) to the dataset ``repo_id``.

    A file holds one record or a JSON list of records. In folders, JSON files that are not results
    records are left out (listed in the plan); a named file must be one. Two different records with
    the same identity are an error; identical copies are uploaded once. The plan does not
    overwrite: at upload time, records (and the README) already in the repository are kept.
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
    if not planned:
        raise SchemaError(
            f"no results records found in {', '.join(map(str, paths)) or 'nothing'}: pass the "
            f"RESULTS.json files written by `bindsplit eval` (format {RESULTS_FORMAT!r})"
        )
    records = [record for _, record, _ in planned.values()]
    benchmarks = sorted({record["dataset"]["benchmark"] for record in records})
    models = sorted({record["model"]["id"] for record in records})
    files = [generated_file(CARD, results_card(repo_id))]
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
        ),
        commit_message=commit_message
        or f"Add {len(records)} BindSplit results record(s) (bindsplit {__version__})",
        **options,
        not_uploaded=tuple(not_records),
        overwrite=False,
    )
