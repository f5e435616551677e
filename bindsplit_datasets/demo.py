"""The offline demo: BindSplit end to end on the synthetic world, with the two shipped tiny CLIPs.

:func:`run_demo` runs the same code that real benchmarks and real models go through, on data
where seen and unseen are known exactly (docs/protocol.md, section 7):

1. the default synthetic world and its reference index (the training corpus's bindings);
2. the test benchmark (attribute-swap samples stratified seen / partial / unseen), built into a
   Hub-ready BindSplit folder with its dataset card (``bindsplit build synthetic``);
3. both shipped checkpoints (``clip``: plain contrastive loss; ``negclip``: swap hard negatives)
   scored with the Accelerate scorer and the ``bindsplit`` metric, in the runs of ``bindsplit
   eval --out-dir`` (:func:`~bindsplit_datasets.runs.plan_runs`);
4. a leaderboard per configuration and the figure (``bindsplit compare`` / ``bindsplit plot``).

The output folder holds ``dataset/`` (the built benchmark), ``results/`` (one results record per
model, named as ``bindsplit eval --out-dir`` names them), ``results.json`` (the same records as
one list, readable by ``bindsplit compare``/``plot``), ``accuracy_by_split.png`` and ``demo.json``
(the manifest that marks the folder as a demo output, so a later run may replace it with
``--overwrite``; nothing else is ever replaced). It is written next to its final place and moved
there only when complete.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._version import __version__
from .atomic import DEMO_OUTPUT, atomic_directory, check_output, write_text

__all__ = ["DEMO_MODELS", "DemoResult", "format_demo_report", "run_demo"]

logger = logging.getLogger(__name__)

#: Shipped checkpoints the demo scores, in report order.
DEMO_MODELS: tuple[str, ...] = ("clip", "negclip")
#: The folder of the per-model results records in the output.
RECORDS_FOLDER = "results"


@dataclass(frozen=True)
class DemoResult:
    """What :func:`run_demo` wrote, and the records it computed."""

    out: Path
    dataset: Path
    results: Path
    figure: Path
    records: list[dict[str, Any]]


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
    from .builds.builder import build_benchmark
    from .reports import plot_results, write_records
    from .reports.results import DEFAULT_CONFIGS
    from .runs import plan_runs, run_planned

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
        dataset = tmp / "dataset"
        build_benchmark("synthetic", out=dataset, source=source, reference=index, progress=progress)
        shutil.rmtree(source)
        plan = [  # one plan per checkpoint: each has its own display name
            run
            for name, path in checkpoints.items()
            for run in plan_runs(
                [str(path)], [dataset], out_dir=tmp / RECORDS_FOLDER, name=model_id(name)
            )
        ]
        scored = run_planned(
            plan, configs=DEFAULT_CONFIGS, batch_size=batch_size, n_bootstrap=n_bootstrap, seed=seed
        )
        records = [_relocated(record, tmp, out) for record in scored]
        write_records(records, tmp / "results.json")
        plot_results(records, tmp / "accuracy_by_split.png", configs=DEFAULT_CONFIGS)
        manifest = {
            "format": DEMO_OUTPUT.format,
            "bindsplit_version": __version__,
            "models": [model_id(name) for name in checkpoints],
            "n_per_stratum": n_per_stratum,
            "n_bootstrap": n_bootstrap,
            "seed": seed,
            "dataset": "dataset",
            "results": "results.json",
            "records": RECORDS_FOLDER,
            "figure": "accuracy_by_split.png",
        }
        write_text(tmp / str(DEMO_OUTPUT.manifest), json.dumps(manifest, indent=2) + "\n")
    return DemoResult(
        out=out,
        dataset=out / "dataset",
        results=out / "results.json",
        figure=out / "accuracy_by_split.png",
        records=records,
    )


def _relocated(record: dict[str, Any], tmp: Path, out: Path) -> dict[str, Any]:
    """``record`` with its dataset path pointing at the final folder instead of ``tmp``."""
    dataset = dict(record["dataset"])
    dataset["data"] = str(dataset["data"]).replace(str(tmp), str(out))
    return {**record, "dataset": dataset}


def format_demo_report(result: DemoResult) -> str:
    """Per-model tables, then the leaderboards of I2T and group per configuration."""
    from .reports import format_comparison
    from .reports import format_record_table as format_table
    from .reports.results import DEFAULT_CONFIGS

    parts = [format_table(record) for record in result.records]
    for metric in ("i2t", "group"):
        parts.append(format_comparison(result.records, metric, configs=DEFAULT_CONFIGS))
    parts.append(
        f"Wrote {result.dataset} (built benchmark with its card), {result.results} and "
        f"{result.figure}."
    )
    return "\n\n".join(parts)
