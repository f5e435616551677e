"""Planning the upload of results records to a Hub dataset that leaderboards read.

Each record written by ``bindsplit eval`` (format ``bindsplit-results/1``; validated, complete
and checked against its digest) is identified by (model id, model revision, benchmark, build
fingerprint) and stored once, as ``records/<benchmark>/<model>/<key>.json`` where ``<key>`` is a
digest of that identity. The repository only grows: a path already on the Hub is kept, never
rewritten, so publishing the same records twice uploads nothing the second time.

With ``with_scores`` (``push-results --with-scores``), each record's per-sample scores file
(``bindsplit eval --save-scores``, found beside the record under the name its ``save_scores.path``
gives) is uploaded too, as ``scores/<benchmark>/<model>/<key>.parquet``, as lmms-eval publishes
its per-sample logs: anyone can then score a new model on the same build and run the exact
McNemar test against it, sample by sample. A scores file is uploaded only if it is the record's:
made for its build (fingerprint tag), with hard positives where the record has them (metadata
``bindsplit_hard_positives``; the record's ``samples["i2t_original"]``), and giving, sample by
sample, the record's outcomes (with hard positives, I2T with and without them).

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
    "scores_path",
]

RECORDS_FOLDER = "records"
#: Where the per-sample scores files live in the results dataset (``--with-scores``).
SCORES_FOLDER = "scores"
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


def scores_path(key: RecordKey) -> str:
    """Where a record's per-sample scores live in the repository:
    ``scores/<benchmark>/<model id, "/" as "__">/<digest>.parquet``."""
    return (
        f"{SCORES_FOLDER}/{_segment(key.benchmark)}/{_segment(key.model_id)}/{key.digest}.parquet"
    )


def _scores_file(record: Mapping[str, Any], folder: Path, source: str) -> Path:
    """The per-sample scores file of ``record`` (found in ``folder``, where the record is), checked
    to be the record's: written by ``--save-scores`` for its build, with hard positives exactly
    where the record has them (metadata ``bindsplit_hard_positives``), and giving its outcomes
    (with hard positives, I2T with and without them)."""
    from ..metric_core import sample_outcomes
    from ..reports.keys import ORIGINAL_METRIC
    from ..scoring.scores_file import (
        FINGERPRINT_KEY,
        HARD_POSITIVES_KEY,
        is_scores_file,
        read_imported_scores,
    )

    saved = record.get("save_scores") or {}
    fix = (
        "re-run `bindsplit eval ... --save-scores FILE` and keep the file beside the record, or "
        "publish without --with-scores"
    )
    name = saved.get("path")
    if not name or saved.get("error"):
        raise SchemaError(
            f"{source}: --with-scores needs its per-sample scores, which it lacks; {fix}"
        )
    path = folder / Path(str(name)).name
    if not path.is_file() or not is_scores_file(path):
        raise SchemaError(
            f"{source}: its per-sample scores file {path.name} is not beside it (or is not a "
            f"scores file written by --save-scores); {fix}"
        )
    import pyarrow.parquet as pq

    metadata = pq.read_schema(path).metadata or {}
    tag = metadata.get(FINGERPRINT_KEY, b"").decode(errors="replace")
    if tag != record["dataset"].get("fingerprint"):
        raise SchemaError(
            f"{path} was not made for the build of {source} (fingerprint {tag or 'missing'}, the "
            f"record's {record['dataset'].get('fingerprint')}); {fix}"
        )
    samples = record["samples"]
    i2t, t2i, original = samples["i2t"], samples.get("t2i"), samples.get(ORIGINAL_METRIC)
    hard = metadata.get(HARD_POSITIVES_KEY, b"0").decode(errors="replace")
    if not hard.isdigit() or (int(hard) > 0) != (original is not None):
        has = "has no" if original is None else "has"
        raise SchemaError(
            f"{path} does not score the hard positives of {source} (metadata "
            f"{HARD_POSITIVES_KEY.decode()} {hard!r}; the record {has} {ORIGINAL_METRIC} "
            f"outcomes); {fix}"
        )
    scores = read_imported_scores(path)
    if sorted(scores) != sorted(samples["id"]):
        raise SchemaError(f"{path} does not score the samples of {source}; {fix}")
    counts = [int(hard)] * len(samples["id"]) if original is not None else None
    try:
        outcomes = sample_outcomes([scores[sample] for sample in samples["id"]], counts)
    except ValueError as error:
        raise SchemaError(
            f"{path} does not hold the score matrices of {source} ({error}); {fix}"
        ) from None
    for index, (sample, outcome) in enumerate(zip(samples["id"], outcomes, strict=True)):
        found = (outcome.i2t, outcome.t2i, outcome.i2t_original)
        expected = (
            bool(i2t[index]),
            None if t2i is None else bool(t2i[index]),
            bool(i2t[index] if original is None else original[index]),
        )
        if found != expected:
            raise SchemaError(
                f"{path} does not give the outcomes of {source} (sample {sample!r}); {fix}"
            )
    return path


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

Records published with `bindsplit push-results --with-scores` have their per-sample scores beside
them, at `{SCORES_FOLDER}/<benchmark>/<model id, "/" as "__">/<key>.parquet` (the same key; the
public scores format of `bindsplit eval --save-scores`: `id`, `scores` = one images x captions
matrix per sample): score a new model on the same build and run the exact McNemar test against
any of them, sample by sample, or recompute the metric from them (the metric Space reads them).
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
    with_scores: bool = False,
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
    ``with_scores``: each record's per-sample scores file too (:func:`scores_path`; module
    docstring), refused where a record has none that is its own.
    ``options``: :class:`~.plan.CommitOptions`.
    """
    validate_repo_name(repo_id)
    paths = list(paths)
    explicit = {Path(p) for p in paths if Path(p).is_file()}
    json_files, other = _json_files(paths)
    planned: dict[str, tuple[PlannedFile, Any, str]] = {}
    scores: dict[str, PlannedFile] = {}
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
            if with_scores:
                found_scores = _scores_file(record, path.parent, source)
                target = scores_path(record_key(record, source))
                scores[target] = PlannedFile(
                    target, found_scores.stat().st_size, local_path=found_scores
                )
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
    files += [scores[target] for target in sorted(scores)]
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
            *(
                [("scores", f"{len(scores)} per-sample scores files, in {SCORES_FOLDER}/")]
                if with_scores
                else []
            ),
        ),
        commit_message=commit_message
        or f"Add {len(records)} BindSplit results record(s) (bindsplit {__version__})",
        **options,
        not_uploaded=tuple(not_records),
        overwrite=False,
    )
