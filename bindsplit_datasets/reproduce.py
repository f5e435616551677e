"""Reproduce the paper's real-data analysis (docs/protocol.md, section 6) end to end.

:func:`reproduce` builds the reference index (COCO train2017 captions by default), builds ARO
VG-Attribution, BiVLC, VisMin and SugarCrepe into BindSplit folders, reports each benchmark's
composition beside the paper's figures (79.8% / 41.8% / 82.5% for ARO; unseen shares 1.2% / 1.8% /
2.3%; the paper reports none for SugarCrepe, so its table stands alone), evaluates every model on
every benchmark (:func:`~bindsplit_datasets.runs.plan_runs`, the runs of ``bindsplit eval
--out-dir``: a record already there of the same model on the same build is kept) and writes the
results records, leaderboards and figures. Every download goes
through the same code users run (the reference's official COCO archive, the benchmarks' Hub
sources, SugarCrepe's repository files and the COCO val2017 images, the models' Hub checkpoints);
passing local ``sources`` (and SugarCrepe's ``images`` option), a local ``reference`` and local
model folders runs the identical pipeline offline.

Output layout::

    OUT/datasets/<benchmark>/           built BindSplit folders (Hub-ready)
    OUT/results/<benchmark>__<model>.json  results records (as ``bindsplit eval --out-dir``)
    OUT/figures/<benchmark>.png          accuracy per configuration, one bar per model
    OUT/composition.txt                 composition beside the paper's figures
    OUT/leaderboard.txt                 leaderboards per benchmark and configuration
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import BindsplitValueError, OutputPathError

__all__ = ["DEFAULT_MODELS", "REAL_BENCHMARKS", "ReproduceResult", "reproduce"]

logger = logging.getLogger(__name__)

#: Models evaluated by default: OpenAI's and LAION's CLIP ViT-B/32.
DEFAULT_MODELS: tuple[str, ...] = (
    "openai/clip-vit-base-patch32",
    "laion/CLIP-ViT-B-32-laion2B-s34B-b79K",
)
#: The real benchmarks: the paper's three, and SugarCrepe.
REAL_BENCHMARKS: tuple[str, ...] = ("aro_vga", "bivlc", "vismin", "sugarcrepe")


@dataclass
class ReproduceResult:
    """Paths written by :func:`reproduce` and the texts it printed."""

    out: Path
    datasets: dict[str, Path] = field(default_factory=dict)
    results: dict[str, list[Path]] = field(default_factory=dict)
    figures: dict[str, Path] = field(default_factory=dict)
    composition: str = ""
    leaderboard: str = ""


def reproduce(
    out: str | Path,
    *,
    models: Sequence[str] = DEFAULT_MODELS,
    benchmarks: Sequence[str] = REAL_BENCHMARKS,
    sources: Mapping[str, str | Path] | None = None,
    source_options: Mapping[str, Mapping[str, Any]] | None = None,
    reference: Any = "coco2017",
    min_count: int = 1,
    batch_size: int = 64,
    mixed_precision: str = "no",
    cache_dir: str | Path | None = None,
    n_bootstrap: int = 1000,
    progress: bool = True,
    echo: Callable[[str], None] | None = None,
) -> ReproduceResult:
    """Build every benchmark, report its composition, evaluate every model (module docstring).

    Args:
        out: output folder (created; existing builds in it are replaced, and a record is
            replaced unless it holds the same model's results on the same build).
        models: Hub ids or local folders of CLIP-like models.
        benchmarks: registered benchmark names.
        sources: per benchmark, a local copy or another Hub id (default: the pinned Hub source).
        source_options: per benchmark, adapter options (VisMin's ``sim_solution``, SugarCrepe's
            ``images``).
        reference: ``coco2017``, a caption file, a saved index or a ``ReferenceIndex``.
        min_count: a binding is seen when it occurs at least this often in the reference.
        batch_size, mixed_precision, cache_dir, n_bootstrap: passed to ``evaluate_model``.
        progress: show progress bars.
        echo: called with the composition text, then the leaderboard, as soon as each is ready
            (the command line prints them).
    """
    from .atomic import write_text
    from .benchmarks import get_benchmark
    from .builds.builder import build_benchmark
    from .builds.cards import composition_rows, format_composition
    from .reference import resolve_reference
    from .reports import format_comparison, plot_results
    from .runs import plan_runs, run_planned

    adapters = {name: get_benchmark(name) for name in benchmarks}  # unknown names fail first
    if not models:
        raise BindsplitValueError("no model given: pass at least one Hub id or local model folder")
    sources = dict(sources or {})
    source_options = dict(source_options or {})
    out = Path(out)
    existing = next((path for path in (out, *out.parents) if path.exists()), None)
    if existing is not None and not existing.is_dir():  # the folder is kept and resumed
        raise OutputPathError(
            f"cannot write the reproduction to {out}: {existing} is a file, not a folder; "
            "choose another --out"
        )
    for folder in ("datasets", "results", "figures"):
        (out / folder).mkdir(parents=True, exist_ok=True)
    result = ReproduceResult(out=out)

    index = resolve_reference(reference, min_count=min_count)
    compositions = []
    for name, adapter in adapters.items():
        logger.info("building %s", name)
        built = build_benchmark(
            name,
            out=out / "datasets" / name,
            source=sources.get(name),
            reference=index,
            min_count=min_count,
            overwrite=True,
            source_options=dict(source_options.get(name, {})),
            progress=progress,
        )
        result.datasets[name] = built.path
        table = format_composition(
            composition_rows(built.manifest["composition"], adapter.paper_figures)
        )
        figures = "" if adapter.paper_figures else "; the paper reports no figures for it"
        compositions.append(
            f"{adapter.pretty_name} ({built.manifest['configs']['full']:,} samples{figures})\n"
            f"{table}"
        )
    result.composition = "\n\n".join(compositions)
    write_text(out / "composition.txt", result.composition + "\n")
    if echo:
        echo(result.composition)

    plan = plan_runs(models, list(result.datasets.values()), out_dir=out / "results")
    all_records = run_planned(
        plan,
        echo=logger.info,
        batch_size=batch_size,
        mixed_precision=mixed_precision,
        cache_dir=cache_dir,
        n_bootstrap=n_bootstrap,
    )
    for name in result.datasets:  # plan and records are model-major: gather each benchmark's
        done = [i for i, run in enumerate(plan) if run.build.benchmark == name]
        result.results[name] = [plan[i].out for i in done]
        records = [all_records[i] for i in done]
        result.figures[name] = plot_results(records, out / "figures" / f"{name}.png")
    result.leaderboard = format_comparison(all_records)
    write_text(out / "leaderboard.txt", result.leaderboard + "\n")
    if echo:
        echo(result.leaderboard)
    write_text(
        out / "reproduce.json",
        json.dumps(
            {
                "models": list(models),
                "benchmarks": list(benchmarks),
                "reference": index.fingerprint,
                "datasets": {k: str(v) for k, v in result.datasets.items()},
                "results": {k: [str(p) for p in v] for k, v in result.results.items()},
                "figures": {k: str(v) for k, v in result.figures.items()},
            },
            indent=2,
        )
        + "\n",
    )
    return result
