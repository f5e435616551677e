"""The offline demo: BindSplit end to end on the synthetic world, with the two shipped tiny CLIPs.

:func:`run_demo` runs the same code that real benchmarks and real models go through, on data
where seen and unseen are known exactly (docs/protocol.md, section 7):

1. the default synthetic world and its reference index (the training corpus's bindings and
   relation triples);
2. the test benchmark: attribute-swap samples stratified seen / partial / unseen, built into a
   Hub-ready BindSplit folder with its dataset card (``bindsplit build synthetic``); its
   relation-swap samples, stratified by their triples (``bindsplit build synthetic_relation``);
   and the half-truths of a sample of the relation samples' images, split by the familiarity of
   their foils (``bindsplit build halftruth --source synthetic``), all three from ground truth:
   the world says what every image shows;
3. both shipped checkpoints (``clip``: plain contrastive loss; ``negclip``: swap hard negatives)
   scored on the three builds with the Accelerate scorer and the ``bindsplit`` metric, in the
   runs of ``bindsplit eval --out-dir`` (:func:`~bindsplit_datasets.runs.plan_runs`);
4. per model the attribute and relation tables and the half-truth table (AccHT, Δ, refinement
   accuracy by unit kind and foil familiarity), a leaderboard per configuration and the figure
   (``bindsplit compare`` / ``bindsplit plot``);
5. a benchmark with *hard positives* (seed 003) in SugarCrepe++'s layout: the same samples as a
   table of ``image``, ``caption`` (the scene), ``caption2`` (its hard positive: the same scene
   with its two objects named in the other order) and ``negative_caption`` (the colour swap),
   described by a spec file and built as any user's table (``bindsplit build custom --spec``),
   then scored by both checkpoints.

The output folder holds ``dataset/`` (the attribute build), ``relations/`` (the relation build),
``halftruths/`` (the half-truth build), ``results/`` (one results record per model and build,
named as ``bindsplit eval --out-dir`` names them), ``results.json`` (the same records as one
list, readable by ``bindsplit compare``/``plot``), ``accuracy_by_split.png`` (the attribute and
relation builds), ``hard_positives/`` (``spec.yaml``, the built ``dataset/``, its ``results/`` and
``results.json``) and ``demo.json``
(the manifest that marks the folder as a demo output, so a later run may replace it with
``--overwrite``; nothing else is ever replaced). It is written next to its final place and moved
there only when complete.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._version import __version__
from .atomic import DEMO_OUTPUT, atomic_directory, check_output, write_text
from .names import HALFTRUTH

__all__ = ["DEMO_MODELS", "DemoResult", "format_demo_report", "run_demo"]

logger = logging.getLogger(__name__)

#: Shipped checkpoints the demo scores, in report order.
DEMO_MODELS: tuple[str, ...] = ("clip", "negclip")
#: The folder of the per-model results records in the output.
RECORDS_FOLDER = "results"
#: The builds of the demo output, by folder: the attribute and relation splits, the half-truths.
BUILDS: dict[str, str] = {
    "dataset": "synthetic",
    "relations": "synthetic_relation",
    "halftruths": HALFTRUTH,
}
#: Images of the relation test set the half-truths are made from (a seeded sample; each gives
#: about ten half-truths).
HALFTRUTH_IMAGES = 200
#: The folder of the hard-positive benchmark in the output, and its benchmark name.
HARD_POSITIVES_FOLDER = "hard_positives"
HARD_POSITIVES_NAME = "synthetic_hard_positives"
#: The spec of the hard-positive table (``bindsplit build custom --spec``), written beside it.
HARD_POSITIVES_SPEC: dict[str, Any] = {
    "name": HARD_POSITIVES_NAME,
    "pretty_name": "Synthetic Shapes with hard positives",
    "source": {
        "layout": "SugarCrepe++'s columns, written by `bindsplit demo` from the synthetic "
        "test benchmark"
    },
    "columns": {
        "id": "id",
        "images": ["image"],
        "captions": {
            "positive": ["caption"],
            "hard_positive": ["caption2"],
            "negative": ["negative_caption"],
        },
        "categories": ["stratum"],
    },
    "license": "Apache-2.0",
    "image_sources": ["images rendered by BindSplit (Apache-2.0)"],
    # templated captions also occur verbatim in the world's training corpus, the reference
    "leakage_guard": False,
}


@dataclass(frozen=True)
class DemoResult:
    """What :func:`run_demo` wrote, and the records it computed."""

    out: Path
    dataset: Path
    results: Path
    figure: Path
    records: list[dict[str, Any]]
    relations: Path | None = None
    halftruths: Path | None = None
    #: The hard-positive benchmark's folder (its spec, build and results) and its records.
    hard_positives: Path | None = None
    hard_positive_records: list[dict[str, Any]] = field(default_factory=list)


def model_id(name: str) -> str:
    """The name a shipped checkpoint is reported under."""
    return f"bindsplit/synthetic-{name}"


def run_demo(
    out: str | Path = "demo_output",
    *,
    n_per_stratum: int | None = None,
    models: Sequence[str] = DEMO_MODELS,
    batch_size: int = 256,
    n_bootstrap: int = 1000,
    seed: int = 0,
    overwrite: bool = False,
    progress: bool = True,
) -> DemoResult:
    """Generate, build, score and report the synthetic benchmark into ``out``.

    Args:
        out: output folder: new, an empty folder, or (with ``overwrite``) a previous demo
            output; anything else is refused before any work.
        n_per_stratum: test samples per label (default: the benchmark's, 500).
        models: shipped checkpoints to score (``clip``, ``negclip``).
        batch_size: encoder batch size.
        n_bootstrap: bootstrap resamples (the metric's macro averages; accuracies and gaps get
            closed-form intervals).
        seed: bootstrap seed.
        overwrite: replace a previous demo output at ``out``.
        progress: show progress bars.

    Raises:
        OutputExistsError: ``out`` may not be written (checked before any work).
    """
    out = Path(out)
    check_output(out, DEMO_OUTPUT, overwrite=overwrite)  # before any work (and heavy import)
    from .synthetic import (
        DEFAULT_N_PER_STRATUM,
        checkpoint_path,
        default_world,
        reference_index,
        write_test_benchmark,
    )

    checkpoints = {name: checkpoint_path(name) for name in models}  # a missing one fails fast
    import yaml

    from .benchmarks.custom import custom_adapter
    from .builds.builder import build_benchmark
    from .reports import plot_results, write_records
    from .reports.results import DEFAULT_CONFIGS

    n_per_stratum = DEFAULT_N_PER_STRATUM if n_per_stratum is None else n_per_stratum
    with atomic_directory(out, DEMO_OUTPUT, overwrite=overwrite) as tmp:
        world = default_world()
        logger.info("building the reference index of the synthetic world")
        index = reference_index(world, progress=progress)
        source = write_test_benchmark(
            world,
            tmp / "source",
            n_per_stratum=n_per_stratum,
            index=index,
            progress=progress,
        )
        options: dict[str, dict[str, Any]] = {
            "halftruths": {"source_options": {"max_images": HALFTRUTH_IMAGES}},
        }
        for folder, benchmark in BUILDS.items():
            build_benchmark(
                benchmark,
                out=tmp / folder,
                source=source,
                reference=index,
                progress=progress,
                **options.get(folder, {}),
            )
        hard = tmp / HARD_POSITIVES_FOLDER
        hard.mkdir()
        table = hard_positive_table(source, hard / "table.parquet")
        spec = hard / "spec.yaml"
        write_text(spec, yaml.safe_dump(HARD_POSITIVES_SPEC, sort_keys=False))
        hard_dataset = hard / "dataset"
        build_benchmark(
            custom_adapter(spec), out=hard_dataset, source=table, reference=index, progress=progress
        )
        table.unlink()
        shutil.rmtree(source)
        scores = {"configs": DEFAULT_CONFIGS, "batch_size": batch_size, "n_bootstrap": n_bootstrap}
        builds = [tmp / folder for folder in BUILDS]
        records = _score(checkpoints, builds, tmp / RECORDS_FOLDER, tmp, out, seed, **scores)
        hard_records = _score(
            checkpoints, [hard_dataset], hard / RECORDS_FOLDER, tmp, out, seed, **scores
        )
        write_records(records, tmp / "results.json")
        write_records(hard_records, hard / "results.json")
        plotted = [r for r in records if r["dataset"]["benchmark"] != HALFTRUTH]
        plot_results(plotted, tmp / "accuracy_by_split.png", configs=DEFAULT_CONFIGS)
        manifest = {
            "format": DEMO_OUTPUT.format,
            "bindsplit_version": __version__,
            "models": [model_id(name) for name in checkpoints],
            "n_per_stratum": n_per_stratum,
            "n_bootstrap": n_bootstrap,
            "seed": seed,
            "dataset": "dataset",
            "relations": "relations",
            "halftruths": "halftruths",
            "halftruth_images": HALFTRUTH_IMAGES,
            "results": "results.json",
            "records": RECORDS_FOLDER,
            "figure": "accuracy_by_split.png",
            "hard_positives": HARD_POSITIVES_FOLDER,
        }
        write_text(tmp / str(DEMO_OUTPUT.manifest), json.dumps(manifest, indent=2) + "\n")
    return DemoResult(
        out=out,
        dataset=out / "dataset",
        results=out / "results.json",
        figure=out / "accuracy_by_split.png",
        records=records,
        relations=out / "relations",
        halftruths=out / "halftruths",
        hard_positives=out / HARD_POSITIVES_FOLDER,
        hard_positive_records=hard_records,
    )


def _score(
    checkpoints: dict[str, Path],
    datasets: list[Path],
    records_folder: Path,
    tmp: Path,
    out: Path,
    seed: int,
    **options: Any,
) -> list[dict[str, Any]]:
    """Both checkpoints' records on each of ``datasets`` (by checkpoint, then build), written
    into ``records_folder`` as ``bindsplit eval --out-dir`` writes them, pointing at the final
    folder."""
    from .runs import plan_runs, run_planned

    plan = [  # one plan per checkpoint: each has its own display name
        run
        for name, path in checkpoints.items()
        for run in plan_runs([str(path)], datasets, out_dir=records_folder, name=model_id(name))
    ]
    scored = run_planned(plan, seed=seed, **options)
    return [_relocated(record, tmp, out) for record in scored]


def hard_positive_caption(caption: str) -> str:
    """The same scene in other words: its two object phrases in the other order (the world's
    template ``"{0} and {1}"``).

    >>> hard_positive_caption("a red circle and a blue square")
    'a blue square and a red circle'
    """
    phrases = caption.split(" and ")
    if len(phrases) != 2:
        raise ValueError(f"{caption!r} does not name two objects as '{{0}} and {{1}}'")
    return f"{phrases[1]} and {phrases[0]}"


def hard_positive_table(source: Path, path: Path) -> Path:
    """The synthetic test benchmark at ``source`` as a table in SugarCrepe++'s columns, written
    to ``path``: ``id``, ``image`` (the scene), ``caption``, ``caption2`` (its hard positive,
    :func:`hard_positive_caption`), ``negative_caption`` (the colour swap, true of the other
    image) and ``stratum``."""
    from .datasets_compat import progress_bars_off
    from .parquet_files import load_parquet_files

    rows = load_parquet_files(
        sorted((source / "test").glob("*.parquet")), "test", where=str(source), fix="rerun"
    )
    rows = rows.select_columns(["id", "image_0", "caption_0", "caption_1", "stratum"])
    rows = rows.rename_columns(
        {"image_0": "image", "caption_0": "caption", "caption_1": "negative_caption"}
    )
    hard = [hard_positive_caption(caption) for caption in rows["caption"]]
    rows = rows.add_column("caption2", hard)
    rows = rows.select_columns(
        ["id", "image", "caption", "caption2", "negative_caption", "stratum"]
    )
    with progress_bars_off():  # the demo logs its own steps
        rows.to_parquet(str(path))
    return path


def _relocated(record: dict[str, Any], tmp: Path, out: Path) -> dict[str, Any]:
    """``record`` with its dataset path pointing at the final folder instead of ``tmp``."""
    dataset = dict(record["dataset"])
    dataset["data"] = str(dataset["data"]).replace(str(tmp), str(out))
    return {**record, "dataset": dataset}


def format_demo_report(result: DemoResult) -> str:
    """Per model its attribute and relation tables and its half-truth table, then every model's
    attribute and relation splits side by side (seen, unseen and the gap), the leaderboards of
    I2T and group per configuration (attribute and relation builds) and of AccHT (half-truths),
    then the hard-positive benchmark."""
    from .metric_halftruth import HALFTRUTH_CONFIGURATIONS
    from .reports import format_comparison
    from .reports import format_record_table as format_table
    from .reports.halftruth_tables import format_halftruth_table, has_halftruths
    from .reports.results import DEFAULT_CONFIGS
    from .reports.tables import format_split_gaps

    splits = [r for r in result.records if not has_halftruths(r)]
    halftruths = [r for r in result.records if has_halftruths(r)]
    parts = [
        format_halftruth_table(record) if has_halftruths(record) else format_table(record)
        for record in result.records
    ]
    if splits:  # each model's attribute split beside its relation split
        parts.append(format_split_gaps(splits))
    for metric in ("i2t", "group"):
        parts.append(format_comparison(splits, metric, configs=DEFAULT_CONFIGS))
    if halftruths:
        configs = HALFTRUTH_CONFIGURATIONS
        parts.append(format_comparison(halftruths, "acc_ht", configs=configs))
    if result.hard_positive_records:
        parts.append(
            "Hard positives (seed 003): the same samples in SugarCrepe++'s layout, `caption2` "
            "naming the scene's objects in the other order, built with `bindsplit build custom "
            f"--spec {result.hard_positives}/spec.yaml`:"
        )
        parts += [format_table(record) for record in result.hard_positive_records]
        parts.append(
            format_comparison(result.hard_positive_records, "i2t", configs=DEFAULT_CONFIGS)
        )
    parts.append(
        f"Wrote {result.dataset} (attribute build with its card), {result.relations} (relation "
        f"build), {result.halftruths} (half-truth build), {result.results}, {result.figure}"
        + (f" and {result.hard_positives}" if result.hard_positive_records else "")
        + "."
    )
    return "\n\n".join(parts)
