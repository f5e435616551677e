"""Evaluation runs over several models and builds: one results record per (model, benchmark).

:func:`plan_runs` decides, before any model is loaded, where each (model, build) pair's record
goes, whether it can be written there, and whether it is already done: a pair is skipped when
its file already holds a results record of the same model on the same build (dataset
fingerprint), unless ``force``. The same model means the same id and revision *and* the same
weights (:func:`~bindsplit_datasets.models.loaders.model_source`: a digest of a folder's weight
files, the commit a Hub id resolves to, an open_clip string and its checkpoint's digest), so a
folder whose weights were replaced is scored again, and the plan says what changed.
:func:`run_planned` then scores the remaining pairs (each build is loaded once) and writes each
record as soon as it is ready, so an interrupted run resumes where it stopped.

Output rules: a record is written to a temporary sibling and renamed into place; a file that is
not a BindSplit results record is never overwritten; a folder where a file is expected, or an
output that cannot be written, fails before anything is scored.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .atomic import RESULTS_OUTPUT, check_output
from .errors import BindsplitError, BindsplitValueError, OutputPathError
from .models.loaders import ModelCache, model_id, model_source
from .models.source import source_changes
from .reports.results import record_file_name, validate_record

__all__ = [
    "Build",
    "PlannedRun",
    "check_output_file",
    "plan_runs",
    "read_build",
    "run_differences",
    "run_planned",
    "same_run",
]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Build:
    """A built dataset to evaluate on, identified by its manifest (read before any scoring)."""

    data: str
    benchmark: str
    fingerprint: str | None
    revision: str | None = None
    #: Rows per configuration (the manifest's ``configs``): a record of this build has these n.
    sizes: Mapping[str, int] | None = None


@dataclass(frozen=True)
class PlannedRun:
    """One (model, build) pair: where its record goes, and the record already there, if any.

    ``skip``: that record is of the same model on the same build (and ``force`` was not given);
    ``changes``: otherwise, what differs between that record and this run, in words; ``name``:
    the model's display name in its record (None: its id), the name its file is named after.
    """

    model: str
    build: Build
    out: Path
    existing: dict[str, Any] | None
    skip: bool
    changes: tuple[str, ...] = ()
    name: str | None = None
    #: What identifies the model's weights, when planning described them (to compare with the
    #: record there); scoring reuses it instead of digesting the weights again.
    source: dict[str, Any] | None = None


def read_build(data: str | os.PathLike[str], revision: str | None = None) -> Build:
    """The benchmark and fingerprint of a built folder or Hub dataset, from its manifest only."""
    from .builds.manifest import read_manifest

    manifest = read_manifest(str(data), revision=revision)
    sizes = manifest.get("configs")
    return Build(
        str(data), str(manifest["benchmark"]), manifest.get("fingerprint"), revision, sizes
    )


def check_output_file(path: str | os.PathLike[str], option: str = "--out") -> dict[str, Any] | None:
    """Whether a results record may be written to ``path``; the record already there, if any.

    Returns None when nothing is there yet. Raises
    :class:`~bindsplit_datasets.errors.OutputPathError` (the one output check,
    :func:`~bindsplit_datasets.atomic.check_output`) when ``path`` is a folder, holds anything
    but a BindSplit results record (never overwritten), or cannot be written.
    """
    path = check_output(path, RESULTS_OUTPUT, overwrite=True, option=option)
    if not path.exists():
        return None
    existing: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return existing


def run_differences(
    record: Mapping[str, Any],
    model: str,
    revision: str | None,
    fingerprint: str | None,
    source: Mapping[str, Any] | None = None,
) -> list[str]:
    """What differs between the run that made ``record`` and a run of ``model`` at ``revision``
    (whose weights are ``source``, when given) on the build with ``fingerprint``, in words; empty
    when ``record`` holds that run's results. A requested revision matches the record made at it
    or with that request (a branch or tag: its ``revision`` is the commit it resolved to); a run
    without ``revision`` accepts the revision the record was made at."""
    try:
        validate_record(record)
    except BindsplitError as error:
        return [f"the record there is not valid ({error})"]
    recorded = record["model"]
    changes = []
    if recorded["id"] != model:
        changes.append(f"it holds model {recorded['id']!r}")
    if revision is not None and revision not in (
        recorded.get("revision"),
        recorded.get("requested"),
    ):
        changes.append(f"it was made at revision {recorded.get('revision')!r}")
    if fingerprint is None or record["dataset"].get("fingerprint") != fingerprint:
        changes.append("it was made on another build (fingerprint)")
    config = record["dataset"].get("config", "full")
    if config != "full":
        changes.append(f"it holds the {config!r} configuration only")
    if source is not None:
        changes.extend(source_changes(recorded.get("source"), source))
    return changes


def same_run(
    record: Mapping[str, Any],
    model: str,
    revision: str | None,
    fingerprint: str | None,
    source: Mapping[str, Any] | None = None,
) -> bool:
    """Whether ``record`` holds the results of that run (:func:`run_differences` is empty)."""
    return not run_differences(record, model, revision, fingerprint, source)


def plan_runs(
    models: Sequence[str],
    data: Sequence[str | os.PathLike[str]],
    *,
    out: str | os.PathLike[str] | None = None,
    out_dir: str | os.PathLike[str] | None = None,
    name: str | None = None,
    revision: str | None = None,
    data_revision: str | None = None,
    force: bool = False,
) -> list[PlannedRun]:
    """Every (model, build) pair, model-major, with its output checked (module docstring).

    Exactly one of ``out`` (one pair: the record's file, always rewritten) and ``out_dir`` (one
    file per pair, named by :func:`record_file_name` after ``name`` or the model, skipped when
    already done) is given. ``name``: display name of a single model.

    Raises:
        ValueError: a bad combination (both or neither output, ``out`` with several pairs,
            ``name`` with several models, two pairs mapping to one file).
        OutputPathError: an output that cannot or must not be written.
    """
    models, data = list(dict.fromkeys(models)), list(dict.fromkeys(map(str, data)))
    if not models or not data:
        raise BindsplitValueError("pass at least one --model and one --data")
    if (out is None) == (out_dir is None):
        raise BindsplitValueError(
            "pass exactly one of --out FILE (one model on one dataset) and --out-dir DIR "
            "(one results record per model and dataset)"
        )
    if name is not None and len(models) > 1:
        raise BindsplitValueError(
            "--name names a single model; it cannot be used with several --model"
        )
    if out is not None and len(models) * len(data) > 1:
        raise BindsplitValueError(
            f"--out writes one results record, but {len(models)} model(s) x {len(data)} "
            "dataset(s) were given; use --out-dir DIR to write one record per pair"
        )
    builds = [read_build(item, data_revision) for item in data]
    if out is not None:
        existing = check_output_file(out, "--out")
        return [PlannedRun(models[0], builds[0], Path(out), existing, skip=False, name=name)]

    folder = Path(str(out_dir))
    if folder.exists() and not folder.is_dir():
        raise OutputPathError(f"cannot write into --out-dir {folder}: it is a file; pass a folder")
    plan: list[PlannedRun] = []
    claimed: dict[Path, tuple[str, str]] = {}
    for model in models:
        source: dict[str, Any] | None = None
        for build in builds:
            path = folder / record_file_name(name or model, build.benchmark, revision)
            if path in claimed:
                other_model, other_data = claimed[path]
                raise BindsplitValueError(
                    f"{model} on {build.data} and {other_model} on {other_data} would both be "
                    f"written to {path}: evaluate builds of one benchmark, or models whose names "
                    "differ only in characters a file name cannot hold, into different --out-dir"
                )
            claimed[path] = (model, build.data)
            existing = check_output_file(path, "--out-dir")
            changes: list[str] = []
            if existing is not None:
                if source is None:  # digests the weights once per model, only when needed
                    source = model_source(model, revision)
                recorded_as = model_id(model, name=name)  # the id its record carries
                changes = run_differences(
                    existing, recorded_as, revision, build.fingerprint, source
                )
                if not changes:  # the record there must also agree with the build at hand
                    changes = _build_contradictions(existing, build, path)
            done = existing is not None and not changes
            plan.append(
                PlannedRun(
                    model,
                    build,
                    path,
                    existing,
                    skip=done and not force,
                    changes=tuple(changes),
                    name=name,
                    source=source,
                )
            )
    return plan


def _build_contradictions(record: Mapping[str, Any], build: Build, path: Path) -> list[str]:
    """Why ``record`` (of ``build``'s fingerprint) cannot be the build's result: it is not a
    record as ``bindsplit eval`` wrote it (digest, per-sample outcomes, its numbers re-derived
    from them), a configuration's ``n`` is not the build's row count, or, for a local build, its
    samples are not the build's rows (a fingerprint swapped for this build's); empty when
    none."""
    from .reports.consistency import check_against_build, check_build_samples
    from .reports.results import ResultsRecord

    manifest = {"benchmark": build.benchmark, "fingerprint": build.fingerprint}
    try:
        ResultsRecord.from_json(record, str(path))
        check_against_build(record, {**manifest, "configs": build.sizes or {}}, str(path))
        if Path(build.data).is_dir():
            ids, labels = _build_samples(build)
            check_build_samples(record, ids, labels, str(path), f"the build {build.data}")
    except BindsplitError as error:
        return [f"it is not this build's result ({error})"]
    return []


def _build_samples(build: Build) -> tuple[list[str], list[str]]:
    """The ids and labels of a local build's ``full`` rows, as a record of it lists them (its
    manifest and files as they are: verifying the rows is scoring's part)."""
    from .builds.manifest import load_config, read_manifest
    from .evaluation import sample_ids, sample_labels
    from .loading import BindsplitData

    manifest = read_manifest(build.data)
    data = BindsplitData(load_config(build.data, "full"), manifest, source=build.data)
    return sample_ids(data), sample_labels(data)


def run_planned(
    plan: Sequence[PlannedRun],
    *,
    evaluate: Callable[..., dict[str, Any]] | None = None,
    write: bool = True,
    echo: Callable[[str], None] = lambda text: None,
    **options: Any,
) -> list[dict[str, Any]]:
    """Score every pair of ``plan`` that is not skipped and return all records, in plan order.

    ``options`` go to ``evaluate`` (default:
    :func:`~bindsplit_datasets.evaluation.evaluate_model`), with each run's ``name`` and the
    run's ``model_cache``; each build's ``full`` configuration is loaded once, each model once.
    ``write``: write each new record (false on all but the main process of a distributed run);
    ``echo`` receives each record's table, each skip and each written path.
    """
    from .evaluation import write_record
    from .reports.tables import format_record_table

    if evaluate is None:
        from .evaluation import evaluate_model

        evaluate = evaluate_model
    loaded: dict[str, Any] = {}
    revision = options.get("revision")
    # each model loaded once for every build it scores, its weights digested once (by planning,
    # when a record on disk had to be compared, else when loading)
    models = ModelCache(
        {(run.model, revision): run.source for run in plan if run.source is not None}
    )
    records = []
    for run in plan:
        if run.skip and run.existing is not None:
            fingerprint = str(run.build.fingerprint)[:12]
            echo(
                f"skipped {run.model} on {run.build.benchmark}: {run.out} already holds its "
                f"results on this build ({fingerprint}); --force redoes it"
            )
            records.append(run.existing)
            continue
        if run.build.data not in loaded:
            from .loading import load_bindsplit

            loaded[run.build.data] = load_bindsplit(
                run.build.data,
                "full",
                revision=run.build.revision,
                verify=bool(options.get("verify", True)),
            )
        if run.changes:
            echo(
                f"scoring {run.model} on {run.build.benchmark} again: {run.out} holds other "
                f"results ({'; '.join(run.changes)})"
            )
        # names, not paths: a model or build may sit in a temporary folder (the demo's)
        logger.info("evaluating %s on %s", run.name or run.model, run.build.benchmark)
        record = evaluate(
            run.model, loaded[run.build.data], name=run.name, model_cache=models, **options
        )
        if write:
            write_record(record, run.out)
        echo(format_record_table(record))
        echo(f"results written to {run.out}")
        records.append(record)
    return records
