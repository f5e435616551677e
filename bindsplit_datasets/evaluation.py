"""Evaluate a model, or imported scores, on a BindSplit dataset: matrices + metric -> a results
record.

:func:`evaluate_model` scores every sample of the ``full`` configuration once (the scorer encodes
each distinct image and caption once, or scores each distinct pair once for a pair scorer), and
the metric slices it by label; given one other configuration's rows (a ``datasets.Dataset`` of
``unseen``, say), it scores those rows and reports that configuration alone, with the numbers
the ``full`` run reports for it;
:func:`evaluate_scores` takes the per-sample matrices from a scores file written anywhere. Both
reduce the matrices with the metric's functional core and return the results record of
docs/architecture.md: model identity (and ``model.scored_by``: ``encoder``, ``pair scorer`` or
``imported``), dataset identity and fingerprint, the metrics of the requested configurations
(each with its interval and n, plus the seen-minus-unseen and seen-minus-partial gaps, and how
the intervals were made: method, level, resamples, seed; on a build with hard positives, the
manifest's ``columns.hard_positive``, also the original I2T and its drop), each sample's outcome
(for paired comparisons between models), the benchmark's own checks (VisMin's pairing check),
scoring statistics, environment (versions, platform, the package's git commit) and timings.
Records from different runs are therefore comparable and can be merged into leaderboards,
whatever made the scores.

Everything that can be checked without the model is checked first (configurations, mixed
precision, the ``save_scores`` path, the data), so a bad option fails in seconds, not after an
hour of encoding.
"""

from __future__ import annotations

import datetime as _datetime
import logging
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import datasets

from ._version import __version__
from .atomic import OutputKind, check_output
from .errors import BindsplitValueError, require
from .loading import BindsplitData, resolve_data
from .metric_core import (
    DEFAULT_CONFIDENCE,
    DEFAULT_INTERVAL_METHOD,
    GAPS,
    HARD_POSITIVE_SETTINGS_KEYS,
    SETTINGS_KEYS,
    BindsplitStatistics,
    accumulate,
    compute_metrics,
    count_ties,
    sample_outcomes,
)
from .metric_halftruth import HALFTRUTH_SETTINGS, halftruth_results
from .names import HALFTRUTH, RESULTS_FORMAT, SCORES_FORMAT, label_name
from .pairing import PAIRING_COLUMN, format_pairing_check, pairing_check
from .provenance import environment as software_environment
from .reports.keys import ORIGINAL_METRIC
from .reports.results import DEFAULT_CONFIGS, key_config

if TYPE_CHECKING:  # pragma: no cover
    from .models.loaders import ModelCache
    from .scoring.scorer import Scorer

__all__ = [
    "SCORED_BY_IMPORTED",
    "check_interval_options",
    "check_output_path",
    "evaluate_model",
    "evaluate_scores",
    "parse_configs",
    "sample_ids",
    "sample_labels",
    "write_record",
]

logger = logging.getLogger(__name__)

#: ``model.scored_by`` of a record made from a scores file.
SCORED_BY_IMPORTED = "imported"


def parse_configs(
    configs: str | Sequence[str], valid: Sequence[str] = DEFAULT_CONFIGS
) -> tuple[str, ...]:
    """Configurations from ``"full,seen"`` or a sequence; unknown names raise a
    :class:`~bindsplit_datasets.errors.BindsplitValueError` that lists the valid ones."""
    names = [c.strip() for c in configs.split(",")] if isinstance(configs, str) else list(configs)
    names = [name for name in names if name]
    if not names:
        raise BindsplitValueError(
            f"no configuration given; valid configurations: {', '.join(valid)}."
        )
    unknown = [name for name in names if name not in valid]
    if unknown:
        raise BindsplitValueError(
            f"unknown configuration(s) {unknown}; valid configurations: {', '.join(valid)}."
        )
    return tuple(dict.fromkeys(names))


def check_output_path(path: str | Path) -> Path:
    """Raise :class:`~bindsplit_datasets.errors.OutputPathError` unless the per-sample scores can
    be written at ``path`` (a previous scores file there is replaced). Checked before any
    scoring, with the one output check of :func:`~bindsplit_datasets.atomic.check_output`."""
    from .scoring.scores_file import is_scores_file

    kind = OutputKind("BindSplit per-sample scores file", SCORES_FORMAT, recognise=is_scores_file)
    return check_output(path, kind, overwrite=True, option="--save-scores")


def _select_metrics(metrics: dict[str, Any], configs: Sequence[str]) -> dict[str, Any]:
    """The metric keys of ``configs``; a gap only when both its configurations are reported;
    the interval settings always."""
    gaps = {gap for gap, pair in GAPS.items() if set(pair) <= set(configs)}
    kept = set(configs) | gaps | set(SETTINGS_KEYS) | set(HARD_POSITIVE_SETTINGS_KEYS)
    return {key: value for key, value in metrics.items() if key_config(key) in kept}


def check_interval_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` (``compute_metrics``' ``n_bootstrap``, ``confidence``, ``seed``,
    ``interval_method``), or a :class:`~bindsplit_datasets.errors.BindsplitValueError` for those
    the metric refuses, before any scoring (the metric's own check, on no samples)."""
    try:
        compute_metrics(BindsplitStatistics(), **options)
    except ValueError as error:
        raise BindsplitValueError(str(error)) from None
    return dict(options)


def _reported(selected: Sequence[str], config: str) -> tuple[str, ...]:
    """The configurations a record of ``config``'s rows reports: ``selected`` for ``full`` (the
    metric slices it by label), else ``config`` alone, which ``selected`` must name."""
    if config == "full":
        return tuple(selected)
    if config not in selected:
        raise BindsplitValueError(
            f"the dataset holds the {config!r} configuration only, so it cannot report "
            f"{', '.join(selected)}; ask for {config!r} (configs={config!r}), or pass the full "
            "configuration to report the others."
        )
    return (config,)


# ---------------------------------------------------------------------------------------------
# data


@dataclass
class _Rows:
    """What the metric and the record need of every row (images are never decoded)."""

    labels: list[str]
    categories: list[str | None] | None
    macro_groups: list[str | None] | None
    ids: list[str]
    balanced: list[bool] | None
    hard_positives: list[int] | None


def sample_ids(data: BindsplitData) -> list[str]:
    """The id each row's outcome is recorded under (a record's ``samples["id"]``): the source's
    own (where the build names a unique one), else the row in ``full``, or ``CONFIG/ROW`` for a
    row of another configuration (so it never pairs with another row's outcome)."""
    dataset = data.dataset
    name = data.columns.id
    if name and name in dataset.column_names:
        own = [str(value) for value in dataset[name]]
        if len(set(own)) == len(own):
            return own
    prefix = "" if data.config == "full" else f"{data.config}/"
    return [f"{prefix}{index}" for index in range(len(dataset))]


def sample_labels(data: BindsplitData) -> list[str]:
    """Each row's split label (a record's ``samples["label"]``)."""
    return [label_name(value) for value in data.dataset["bindsplit_label"]]


def _rows(data: BindsplitData) -> _Rows:
    """The rows' labels, groups, ids (:func:`sample_ids`), flags and hard-positive counts, read
    from the columns the build describes (the manifest's ``columns``; every row has
    ``len(columns.hard_positive)`` hard positives)."""
    columns = data.columns
    dataset = data.dataset
    present = dataset.column_names

    def column(name: str | None) -> list[Any] | None:
        return list(dataset[name]) if name and name in present else None

    labels = sample_labels(data)
    categories = column(columns.category)
    macro_groups = column(columns.macro_group)
    ids = sample_ids(data)
    balanced = None
    if "balanced" in present:
        balanced = [bool(value) for value in dataset["balanced"]]
    hard = len(columns.hard_positive)
    return _Rows(
        labels=labels,
        categories=categories if categories and any(c is not None for c in categories) else None,
        macro_groups=(
            macro_groups if macro_groups and any(g is not None for g in macro_groups) else None
        ),
        ids=ids,
        balanced=balanced,
        hard_positives=[hard] * len(dataset) if hard else None,
    )


def _statistics(scores: Any, rows: _Rows) -> Any:
    """The metric core's statistics (with the ``balanced`` flags and the hard-positive counts
    when the build has them)."""
    return accumulate(
        scores,
        rows.labels,
        rows.categories,
        rows.macro_groups,
        balanced=rows.balanced,
        hard_positives=rows.hard_positives,
    )


def _samples(scores: Any, rows: _Rows) -> dict[str, list[Any]]:
    """Each sample's id, label and outcomes (0/1), for paired comparisons between models;
    ``t2i`` only when samples have two or more images, ``i2t_original`` (I2T with the hard
    positives left out; ``i2t`` is with them) only when they have hard positives."""
    outcomes = sample_outcomes(scores, rows.hard_positives)
    samples: dict[str, list[Any]] = {"id": rows.ids, "label": rows.labels}
    if rows.balanced is not None:
        samples["balanced"] = rows.balanced
    samples["i2t"] = [int(outcome.i2t) for outcome in outcomes]
    if rows.hard_positives is not None:
        samples[ORIGINAL_METRIC] = [int(outcome.i2t_original) for outcome in outcomes]
    if outcomes and outcomes[0].t2i is not None:
        samples["t2i"] = [int(bool(outcome.t2i)) for outcome in outcomes]
    return samples


# ---------------------------------------------------------------------------------------------
# the record


def _environment(scorer: Scorer | None) -> dict[str, Any]:
    """What made the record (:func:`~bindsplit_datasets.provenance.environment`), and the
    device, for a scored model."""
    environment = software_environment()
    if scorer is not None:
        environment["device"] = str(scorer.accelerator.device)
        environment["num_processes"] = scorer.accelerator.num_processes
    return environment


def _save_scores(
    path: Path, scores: Any, rows: _Rows, fingerprint: str | None = None
) -> dict[str, Any]:
    """Write the per-sample scores; a failure is logged and reported, never raised, so that
    the results of a finished scoring run are not lost."""
    from .scoring.scores_file import write_scores

    try:
        write_scores(
            path,
            scores,
            rows.labels,
            rows.categories,
            rows.macro_groups,
            ids=rows.ids,
            balanced=rows.balanced,
            fingerprint=fingerprint,
            hard_positives=rows.hard_positives[0] if rows.hard_positives else 0,
        )
    except OSError as error:
        logger.warning(
            "could not write the per-sample scores to %s (%s); the results record is complete "
            "without them",
            path,
            error,
        )
        return {"path": str(path), "error": str(error)}
    logger.info("wrote the per-sample scores of %d samples to %s", len(rows.labels), path)
    return {"path": str(path), "error": None}


def _report_ties(scores: Any, hard_positives: Sequence[int] | None) -> None:
    """State ties as ties: a warning with their number (they are scored wrong, not guessed)."""
    tied = count_ties(scores, hard_positives)
    if tied:
        logger.warning(
            "%d of %d samples have a rival scored exactly as high as the right answer: these "
            "ties count as wrong (strict >, SPEC section 5)",
            tied,
            len(scores),
        )


def _record(
    data: BindsplitData,
    scores: Any,
    selected: Sequence[str],
    model: dict[str, Any],
    **interval_options: Any,
) -> dict[str, Any]:
    """The parts of a results record every source of scores shares: model (as given), dataset,
    metrics of ``selected`` (with ``interval_options``: ``n_bootstrap``, ``confidence``,
    ``seed``, ``interval_method``), the benchmark's own checks and the per-sample outcomes."""
    rows = _rows(data)
    _report_ties(scores, rows.hard_positives)
    stats = _statistics(scores, rows)
    metrics = _select_metrics(compute_metrics(stats, **interval_options), selected)
    samples = _samples(scores, rows)
    if data.benchmark == HALFTRUTH:  # its own metrics (AccHT, Δ, refinement) and outcomes
        confidence = interval_options.get("confidence", DEFAULT_CONFIDENCE)
        found, lists = halftruth_results(
            scores, rows.labels, rows.categories, confidence=confidence
        )
        metrics.update({**_select_metrics(found, selected), **HALFTRUTH_SETTINGS})
        samples.update(lists)
    return {
        "format": RESULTS_FORMAT,
        "bindsplit_version": __version__,
        "model": model,
        "dataset": {
            "data": data.source,
            "benchmark": data.benchmark,
            "binding_kind": data.binding_kind,
            "config": data.config,
            "fingerprint": data.fingerprint,
            "reference": data.manifest.get("reference"),
        },
        "metrics": metrics,
        **_pairing_check(data.dataset, samples),
        "samples": samples,
    }


def _pairing_check(dataset: datasets.Dataset, samples: Mapping[str, Any]) -> dict[str, Any]:
    """The pairing check (:func:`~bindsplit_datasets.pairing.pairing_check`) of a build whose
    rows say which were stored crossed (VisMin's ``pairing_crossed``): accuracy on crossed and
    straight rows, which should agree; logged as a warning when not."""
    if PAIRING_COLUMN not in dataset.column_names:
        return {}
    check = pairing_check(dataset[PAIRING_COLUMN], samples)
    if check is None:
        return {}
    if check["suspect"]:
        logger.warning("%s", format_pairing_check(check))
    return {"pairing_check": check}


def _finish(record: dict[str, Any], timings: Mapping[str, float]) -> dict[str, Any]:
    record["timings"] = {key: round(value, 3) for key, value in timings.items()}
    record["created"] = _datetime.datetime.now(_datetime.timezone.utc).isoformat(timespec="seconds")
    return record


def evaluate_model(
    model: Any,
    data: str | Path | BindsplitData | datasets.Dataset,
    *,
    processor: Any = None,
    configs: str | Sequence[str] = DEFAULT_CONFIGS,
    batch_size: int = 64,
    mixed_precision: str | None = None,
    cache_dir: str | Path | None = None,
    save_scores: str | Path | None = None,
    n_bootstrap: int = 1000,
    seed: int = 0,
    confidence: float = DEFAULT_CONFIDENCE,
    interval_method: str = DEFAULT_INTERVAL_METHOD,
    revision: str | None = None,
    accelerator: Any = None,
    num_workers: int | None = None,
    data_revision: str | None = None,
    name: str | None = None,
    verify: bool = True,
    manifest: Mapping[str, Any] | str | Path | None = None,
    model_cache: ModelCache | None = None,
) -> dict[str, Any]:
    """Score ``model`` on a BindSplit dataset and return the results record.

    Args:
        model: a model string (``open_clip:ARCH/PRETRAINED``, ``open_clip:hf-hub:ORG/NAME``,
            ``open_clip:local-dir:PATH``, ``itm:ORG/NAME`` or ``itm:FOLDER`` for a BLIP
            image-text matching head, a Hugging Face Hub id or local folder, loaded at
            ``revision``), an :class:`~bindsplit_datasets.models.Encoder` or
            :class:`~bindsplit_datasets.models.PairScorer`, a loaded Hugging Face model with
            ``get_image_features``/``get_text_features`` and its ``processor``, or a callable
            ``score(images, captions) -> scores`` (one score per aligned pair; needs ``name``),
            or a :class:`~bindsplit_datasets.models.loaders.LoadedModel`.
        data: a folder made by ``bindsplit build`` or a Hub dataset id (at ``data_revision``),
            whose ``full`` configuration is scored; or one configuration of a build, loaded: a
            :class:`~bindsplit_datasets.loading.BindsplitData`, or a ``datasets.Dataset`` (the
            configuration ``datasets`` loaded it as, else the one its rows are) whose manifest is
            ``manifest`` (a dict, the build's ``bindsplit.json`` or its folder) or else the JSON
            in ``dataset.info.description``.
        configs: which configurations to report (``"full,seen"`` or a sequence). ``full`` is
            scored once and the metric slices it by label; the rows of another configuration
            report that configuration only (``dataset.config`` of the record says which), with
            the numbers a ``full`` run reports for it (less the empty breakdowns, ``n = 0``, of
            categories only other configurations have).
        batch_size, mixed_precision, cache_dir, accelerator, num_workers: see
            :class:`~bindsplit_datasets.scoring.scorer.Scorer` (``mixed_precision=None``: the
            Accelerate configuration, else ``"no"``).
        save_scores: also write the per-sample matrices, labels and source ids here (the
            scores file of :mod:`~bindsplit_datasets.scoring.scores_file`), so the metric can be
            recomputed without the model, or the scores imported with :func:`evaluate_scores`.
            The path is checked before scoring; if writing fails anyway, the record is still
            returned and its ``save_scores.error`` says why.
        n_bootstrap, seed, confidence, interval_method: the intervals, as the metric's
            ``compute_metrics`` takes them (Wilson by default; the record's metrics say which).
        name: the model's name in the record (default: its Hub id, open_clip string or folder
            name), for model strings, encoders, pair scorers and callables alike.
        verify: check a loaded build against its manifest, where the loader supports it.
        model_cache: a run's :class:`~bindsplit_datasets.models.loaders.ModelCache`, so that a
            model string scored on several builds is loaded and its weights digested once.

    Under ``accelerate launch`` (or ``torchrun``) every process returns the same record; only
    the main process writes ``save_scores``.
    """
    start = time.perf_counter()
    selected = parse_configs(configs)
    intervals = check_interval_options(
        {
            "n_bootstrap": n_bootstrap,
            "confidence": confidence,
            "seed": seed,
            "interval_method": interval_method,
        }
    )
    require("scoring", "torch", "accelerate", purpose="scoring a model")
    from .scoring.scorer import Scorer, check_mixed_precision

    check_mixed_precision(mixed_precision)
    if save_scores is not None:
        save_scores = check_output_path(save_scores)
    data = resolve_data(data, manifest, data_revision, verify)
    selected = _reported(selected, data.config)
    columns = data.columns
    from .models.loaders import LoadedModel, ModelCache, as_scoring_model

    source = None
    if isinstance(model, (str, os.PathLike)):
        # resolved, its weights described (a later run compares the description) and loaded,
        # each once; a run's cache keeps it for the next build
        model = (model_cache or ModelCache()).get(model, revision=revision, name=name)
    if isinstance(model, LoadedModel):
        scoring_model, source = model.model, model.source
    else:
        scoring_model = as_scoring_model(model, processor, revision=revision, name=name)
    scorer = Scorer(
        scoring_model,
        accelerator=accelerator,
        batch_size=batch_size,
        mixed_precision=mixed_precision,
        cache_dir=cache_dir,
        num_workers=num_workers,
        name=name,
    )
    load_s = time.perf_counter() - start
    matrices = scorer.score(data.dataset, columns.image, columns.caption)

    metric_start = time.perf_counter()
    # ``requested``: the revision asked for (a branch or tag), beside the commit it resolved to
    identity = {
        **scorer.identity.to_record(),
        "requested": revision,
        "scored_by": scorer.scored_by,
        **({"source": source} if source is not None else {}),
    }
    record = _record(data, matrices.scores, selected, identity, **intervals)
    metric_s = time.perf_counter() - metric_start
    record["scoring"] = {
        "n_samples": matrices.n_samples,
        "n_unique_images": matrices.n_unique_images,
        "n_unique_captions": matrices.n_unique_captions,
        **({"n_unique_pairs": matrices.n_unique_pairs} if scorer.is_pair_scorer else {}),
        "n_truncated_captions": matrices.n_truncated_captions,
        "text_max_length": matrices.text_max_length,
        "batch_size": batch_size,
        "mixed_precision": scorer.mixed_precision,
        "cache": {"hits": matrices.cache_hits, "misses": matrices.cache_misses},
    }
    record["environment"] = _environment(scorer)
    if save_scores is not None and scorer.accelerator.is_main_process:
        record["save_scores"] = _save_scores(
            save_scores, matrices.scores, _rows(data), data.fingerprint
        )
    return _finish(
        record,
        {
            "load_s": load_s,
            "encode_s": matrices.encode_s,
            "metric_s": metric_s,
            "total_s": time.perf_counter() - start,
        },
    )


def evaluate_scores(
    scores: str | Path | Mapping[str, Any],
    data: str | Path | BindsplitData | datasets.Dataset,
    *,
    name: str,
    model_revision: str | None = None,
    configs: str | Sequence[str] = DEFAULT_CONFIGS,
    n_bootstrap: int = 1000,
    seed: int = 0,
    confidence: float = DEFAULT_CONFIDENCE,
    interval_method: str = DEFAULT_INTERVAL_METHOD,
    data_revision: str | None = None,
    verify: bool = True,
    manifest: Mapping[str, Any] | str | Path | None = None,
) -> dict[str, Any]:
    """The results record of per-sample scores made elsewhere, without loading a model.

    Args:
        scores: a scores file (Parquet with ``id`` and ``scores`` columns: see
            :mod:`~bindsplit_datasets.scoring.scores_file`), or a mapping ``{sample id: matrix}``.
        data: the build the scores are of (as for :func:`evaluate_model`, its ``full``
            configuration); labels, categories, ``balanced`` and the benchmark's checks always
            come from it, never from the scores.
        name: the model's name in the record (whoever made the scores says which model).
        model_revision: the model's revision, as its makers state it.
        configs, n_bootstrap, seed, confidence, interval_method, data_revision, verify,
            manifest: as for :func:`evaluate_model`.

    Every sample of the build must be scored exactly once with a finite matrix of its shape
    (images x captions), and no unknown id may appear; otherwise
    :class:`~bindsplit_datasets.errors.ScoresFileError` names the sample, in one line. The
    record's ``model.scored_by`` is ``"imported"`` and ``model.scores_file`` names the file and
    its SHA-256.
    """
    from .downloads import file_digest
    from .scoring.scores_file import (
        align_scores,
        check_scores_fingerprint,
        read_imported_scores,
        warn_untagged,
    )

    start = time.perf_counter()
    selected = parse_configs(configs)
    intervals = check_interval_options(
        {
            "n_bootstrap": n_bootstrap,
            "confidence": confidence,
            "seed": seed,
            "interval_method": interval_method,
        }
    )
    if not name or not name.strip():
        raise BindsplitValueError("imported scores need the model's name: pass --name NAME.")
    source: dict[str, Any] | None = None
    path: Path | None = None
    if isinstance(scores, Mapping):
        by_id, where = {str(key): value for key, value in scores.items()}, "the scores"
    else:
        path = Path(scores)
        by_id, where = read_imported_scores(path), str(path)
        source = {"name": path.name, "sha256": file_digest(path)}
    data = resolve_data(data, manifest, data_revision, verify)
    if data.config != "full":
        raise BindsplitValueError(
            f"imported scores are matched against every sample of the build; got its "
            f"{data.config!r} configuration, pass the 'full' configuration (configs= chooses "
            "what the record reports)."
        )
    tagged = path is None or check_scores_fingerprint(path, data.fingerprint)
    ids = _rows(data).ids
    shape = (len(data.columns.image), len(data.columns.caption))
    matrices = align_scores(by_id, ids, shape, where)
    if path is not None and not tagged:
        warn_untagged(path)
    model = {
        "id": name,
        "revision": model_revision,
        "weights": None,
        "class": None,
        "library": None,
        "requested": model_revision,
        "scored_by": SCORED_BY_IMPORTED,
        "scores_file": source,
    }
    record = _record(data, matrices, selected, model, **intervals)
    record["scoring"] = {"n_samples": len(ids)}
    record["environment"] = _environment(None)
    return _finish(record, {"total_s": time.perf_counter() - start})


def write_record(record: dict[str, Any], path: str | Path) -> Path:
    """Write a results record as JSON (temporary sibling, then renamed into place)."""
    from .reports.results import write_record as write

    return write(record, path)
