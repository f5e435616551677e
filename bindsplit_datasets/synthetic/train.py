"""Train the two tiny CLIPs of the synthetic world and write them as Hugging Face checkpoints.

``python -m bindsplit_datasets.synthetic.train --model clip negclip`` (or ``bindsplit
train-synthetic``) trains, from a fixed seed and a deterministic data order:

``clip``
    plain in-batch contrastive loss (CLIP's) on training-corpus scenes (seen bindings and seen
    spatial configurations only);
``negclip``
    the same loss on batches of swap pairs, alternately a scene and its attribute-swapped twin
    (all four bindings seen) and a scene and its relation-swapped twin (the two shapes' places
    and the triple's arguments exchanged, both configurations seen), so every caption's twin is
    an in-batch hard negative (NegCLIP's recipe).

Both run on CPU within a step budget (``--steps``) and a wall-clock safety limit
(``--max-minutes``). Each model is written to ``--out``/<model> (default
``synthetic_checkpoints/<model>``); replacing the checkpoints shipped in the package takes
``--into-package``. The checkpoint folder gets the model, the tokenizer, the image processor and
``training_report.json``/``.md``: configuration (the recipe), steps, wall time, the weights'
size and SHA-256 (``checkpoint_sha256``), and I2T/T2I/group accuracy per label on the synthetic
test benchmark, attribute samples (``accuracy``) and relation samples
(``relation_accuracy``). The accuracies are computed here with plain torch (the strict ``>``
rule of docs/protocol.md, section 5; not the project's scorer and metric), on the default test
benchmark (:func:`~.testset.generate_test_samples` and
:func:`~.relation_testset.generate_relation_samples` with its default seed and size).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from ..atomic import CHECKPOINT_OUTPUT, atomic_directory, check_output
from ..downloads import file_digest
from ..errors import BindsplitValueError
from ..progress import progress as progress_bar
from .corpus import (
    DEFAULT_TRAIN_SEED,
    SceneSpec,
    reference_index,
    seen_relation_swap_pair,
    seen_swap_pair,
    training_scene,
)
from .models import (
    CHECKPOINTS,
    MAX_TEXT_LENGTH,
    ModelSize,
    build_model,
    build_processor,
    save_processor,
)
from .recipes import RECIPES, Recipe, add_arguments, check_options
from .relation_testset import RelationSample, generate_relation_samples
from .render import render_scene
from .testset import (
    DEFAULT_N_PER_STRATUM,
    DEFAULT_TEST_SEED,
    STRATA,
    SwapSample,
    generate_test_samples,
)
from .world import SyntheticWorld, default_world

if TYPE_CHECKING:
    from ..labels import BindingCounts

__all__ = [
    "BATCHES",
    "RECIPES",
    "Encoder",
    "TrainConfig",
    "add_arguments",
    "contrastive_loss",
    "evaluate",
    "main",
    "output_folders",
    "run",
    "save_checkpoint",
    "swap_accuracies",
    "train",
]

logger = logging.getLogger(__name__)

MEASUREMENT_NOTE = (
    "Accuracies computed by bindsplit_datasets.synthetic.train with plain torch (strict '>', "
    "docs/protocol.md, section 5) on the default synthetic test benchmark, not with the project's "
    "scorer/metric."
)


# ----------------------------------------------------------------------------- data order


def plain_batch(world: SyntheticWorld, seed: int, step: int, batch_size: int) -> list[SceneSpec]:
    """Training-corpus scenes ``step * batch_size`` onwards (every scene is seen exactly once)."""
    start = step * batch_size
    return [training_scene(world, seed, start + i) for i in range(batch_size)]


def swap_batch(world: SyntheticWorld, seed: int, step: int, batch_size: int) -> list[SceneSpec]:
    """``batch_size / 2`` seen swap pairs, each scene next to its twin: pair ``k`` of the
    stream is attribute swap pair ``k // 2`` when ``k`` is even, relation swap pair ``k // 2``
    when odd."""
    if batch_size % 2:
        raise BindsplitValueError(
            f"swap batches hold pairs: the batch size must be even, got --batch-size {batch_size}"
        )
    start = step * (batch_size // 2)
    pairs = (seen_swap_pair, seen_relation_swap_pair)
    return [
        spec
        for k in range(start, start + batch_size // 2)
        for spec in pairs[k % 2](world, seed, k // 2)
    ]


#: batch kind -> function(world, seed, step, batch_size) giving the scenes of a training step
BATCHES: dict[str, Callable[[SyntheticWorld, int, int, int], list[SceneSpec]]] = {
    "plain": plain_batch,
    "swap": swap_batch,
}


@dataclass
class TrainConfig:
    """Everything a training run depends on (recorded in the report)."""

    model: str
    steps: int
    batch_size: int = 128
    lr: float = 1e-3
    weight_decay: float = 0.1
    warmup_fraction: float = 0.05
    max_grad_norm: float = 1.0
    seed: int = DEFAULT_TRAIN_SEED
    threads: int = 2
    max_minutes: float = 15.0
    eval_n_per_stratum: int = DEFAULT_N_PER_STRATUM
    eval_seed: int = DEFAULT_TEST_SEED
    size: ModelSize = field(default_factory=ModelSize)

    @property
    def recipe(self) -> Recipe:
        try:
            return RECIPES[self.model]
        except KeyError:
            raise BindsplitValueError(
                f"unknown synthetic model {self.model!r}; choose one of {sorted(RECIPES)}"
            ) from None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["batches"] = self.recipe.batches
        return data


# ----------------------------------------------------------------------------- encoding


class Encoder:
    """Images and captions to unit-norm embeddings, preprocessed as the saved processor does.

    Pixels: ``(x / 255 - mean) / std`` with the image processor's own mean and std (images are
    rendered at the model's size, so its resize and crop are no-ops). Captions: the saved
    tokenizer with ``padding="max_length"``, cached per distinct caption.
    """

    def __init__(self, world: SyntheticWorld) -> None:
        processor = build_processor(world)
        self.tokenizer = processor.tokenizer
        image_processor = processor.image_processor
        self.mean = torch.tensor(image_processor.image_mean, dtype=torch.float32).view(1, 3, 1, 1)
        self.std = torch.tensor(image_processor.image_std, dtype=torch.float32).view(1, 3, 1, 1)
        self.image_size = world.image_size
        self._tokens: dict[str, tuple[list[int], list[int]]] = {}

    def pixels(self, specs: Sequence[SceneSpec]) -> torch.Tensor:
        array = np.stack([np.asarray(render_scene(spec.scene, self.image_size)) for spec in specs])
        x = torch.from_numpy(array).permute(0, 3, 1, 2).float().div_(255.0)
        return (x - self.mean) / self.std

    def tokens(self, captions: Sequence[str]) -> tuple[torch.Tensor, torch.Tensor]:
        missing = [c for c in dict.fromkeys(captions) if c not in self._tokens]
        if missing:
            encoded = self.tokenizer(
                missing, padding="max_length", max_length=MAX_TEXT_LENGTH, truncation=True
            )
            for caption, ids, mask in zip(
                missing, encoded["input_ids"], encoded["attention_mask"], strict=True
            ):
                self._tokens[caption] = (ids, mask)
        ids = torch.tensor([self._tokens[c][0] for c in captions])
        mask = torch.tensor([self._tokens[c][1] for c in captions])
        return ids, mask

    @staticmethod
    def image_embeddings(model: Any, pixel_values: torch.Tensor) -> torch.Tensor:
        features = model.visual_projection(
            model.vision_model(pixel_values=pixel_values).pooler_output
        )
        return features / features.norm(dim=-1, keepdim=True)

    @staticmethod
    def text_embeddings(
        model: Any, input_ids: torch.Tensor, attention_mask: torch.Tensor
    ) -> torch.Tensor:
        output = model.text_model(input_ids=input_ids, attention_mask=attention_mask)
        features = model.text_projection(output.pooler_output)
        return features / features.norm(dim=-1, keepdim=True)


# ----------------------------------------------------------------------------- evaluation


def swap_accuracies(scores: torch.Tensor) -> dict[str, torch.Tensor]:
    """Per-sample I2T, T2I and group correctness of ``(n, 2, 2)`` image x caption scores."""
    diagonal = scores.diagonal(dim1=1, dim2=2)  # S[i][i]
    i2t = (diagonal[:, 0] > scores[:, 0, 1]) & (diagonal[:, 1] > scores[:, 1, 0])
    t2i = (diagonal[:, 0] > scores[:, 1, 0]) & (diagonal[:, 1] > scores[:, 0, 1])
    return {"i2t": i2t, "t2i": t2i, "group": i2t & t2i}


@torch.no_grad()
def evaluate(
    model: Any,
    encoder: Encoder,
    samples: Sequence[SwapSample] | Sequence[RelationSample],
    *,
    batch_size: int = 256,
) -> dict[str, dict[str, Any]]:
    """I2T/T2I/group accuracy and ``n`` per stratum of ``samples`` (accuracy ``None`` if n = 0)."""
    was_training = model.training
    model.eval()
    scores = []
    for start in range(0, len(samples), batch_size // 2):
        chunk = samples[start : start + batch_size // 2]
        specs = [spec for sample in chunk for spec in sample.specs]
        images = Encoder.image_embeddings(model, encoder.pixels(specs)).view(len(chunk), 2, -1)
        texts = Encoder.text_embeddings(model, *encoder.tokens([s.caption for s in specs])).view(
            len(chunk), 2, -1
        )
        scores.append(images @ texts.transpose(1, 2))
    model.train(was_training)
    correct = swap_accuracies(torch.cat(scores))
    strata = np.array([sample.stratum for sample in samples])
    result: dict[str, dict[str, Any]] = {}
    for stratum in STRATA:
        mask = torch.from_numpy(strata == stratum)
        n = int(mask.sum())
        result[stratum] = {
            "n": n,
            **{
                k: round(float(v[mask].float().mean()), 4) if n else None
                for k, v in correct.items()
            },
        }
    return result


# ----------------------------------------------------------------------------- training


def contrastive_loss(logits: torch.Tensor, captions: Sequence[str]) -> torch.Tensor:
    """Symmetric in-batch cross-entropy of ``logits[image, caption]`` (CLIP's loss).

    Two scenes of a batch can share a caption text (the world's captions are templated); such a
    caption describes both images, so the targets spread evenly over every identical caption
    (and image) instead of calling a correct match a negative. With distinct captions this is
    exactly CLIP's loss with targets ``arange(n)``.
    """
    ids = {caption: i for i, caption in enumerate(dict.fromkeys(captions))}
    keys = torch.tensor([ids[c] for c in captions])
    same = (keys[:, None] == keys[None, :]).float()
    targets = same / same.sum(dim=1, keepdim=True)
    return 0.5 * (
        torch.nn.functional.cross_entropy(logits, targets)
        + torch.nn.functional.cross_entropy(logits.T, targets)
    )


def _optimizer(model: torch.nn.Module, config: TrainConfig) -> torch.optim.Optimizer:
    decay = [p for p in model.parameters() if p.ndim >= 2]
    no_decay = [p for p in model.parameters() if p.ndim < 2]
    groups = [
        {"params": decay, "weight_decay": config.weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=config.lr)


def _schedule(config: TrainConfig) -> Callable[[int], float]:
    warmup = max(1, round(config.warmup_fraction * config.steps))

    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        progress = (step - warmup) / max(1, config.steps - warmup)
        return 0.5 * (1.0 + math.cos(math.pi * min(1.0, progress)))

    return factor


def train(
    config: TrainConfig,
    world: SyntheticWorld | None = None,
    *,
    index: BindingCounts | None = None,
    progress: bool = True,
) -> tuple[Any, dict[str, Any]]:
    """Train one model; return it and its report (evaluated on the default test benchmark).

    ``index`` labels the evaluation samples; default: :func:`~.corpus.reference_index` of the world.
    """
    world = world or default_world()
    make_batch = BATCHES[config.recipe.batches]
    torch.set_num_threads(config.threads)
    model = build_model(world, config.size, seed=config.seed)
    model.train()
    encoder = Encoder(world)
    optimizer = _optimizer(model, config)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, _schedule(config))
    max_logit_scale = math.log(100.0)
    losses: list[float] = []
    started = time.perf_counter()
    stopped_early = False
    bar = progress_bar(
        range(config.steps), desc=f"training {config.model}", unit=" steps", disable=not progress
    )
    for step in bar:
        if time.perf_counter() - started > 60.0 * config.max_minutes:
            stopped_early = True
            logger.warning(
                "time limit of %.1f minutes reached after %d steps", config.max_minutes, step
            )
            break
        specs = make_batch(world, config.seed, step, config.batch_size)
        captions = [s.caption for s in specs]
        images = Encoder.image_embeddings(model, encoder.pixels(specs))
        texts = Encoder.text_embeddings(model, *encoder.tokens(captions))
        loss = contrastive_loss(model.logit_scale.exp() * images @ texts.T, captions)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), config.max_grad_norm)
        optimizer.step()
        scheduler.step()
        with torch.no_grad():  # CLIP clamps its temperature; transformers' CLIPModel does not
            model.logit_scale.clamp_(0.0, max_logit_scale)
        losses.append(loss.item())
        if step % 10 == 0:
            bar.set_postfix(loss=f"{np.mean(losses[-10:]):.3f}")
    train_seconds = time.perf_counter() - started
    steps_done = len(losses)

    eval_started = time.perf_counter()
    index = index if index is not None else reference_index(world)
    samples = list(generate_test_samples(world, index, config.eval_n_per_stratum, config.eval_seed))
    accuracies = evaluate(model, encoder, samples)
    relation_samples = list(
        generate_relation_samples(world, index, config.eval_n_per_stratum, config.eval_seed)
    )
    relation_accuracies = evaluate(model, encoder, relation_samples)
    report = {
        "model": config.model,
        "description": config.recipe.description,
        "config": config.to_dict(),
        "world": {
            "fingerprint": world.fingerprint,
            "shapes": list(world.shapes),
            "colours": list(world.colours),
            "held_out": [list(p) for p in world.held_out_pairs],
            "held_out_relations": world.to_dict()["held_out_relations"],
        },
        "steps": steps_done,
        "stopped_early": stopped_early,
        "train_seconds": round(train_seconds, 1),
        "seconds_per_step": round(train_seconds / max(1, steps_done), 3),
        "eval_seconds": round(time.perf_counter() - eval_started, 1),
        "loss": {
            "first": round(losses[0], 4) if losses else None,
            "last_50_mean": round(float(np.mean(losses[-50:])), 4) if losses else None,
        },
        "logit_scale": round(model.logit_scale.exp().item(), 3),
        "n_parameters": sum(p.numel() for p in model.parameters()),
        "accuracy": accuracies,
        "relation_accuracy": relation_accuracies,
        "evaluation": {
            "benchmark": "synthetic (default test benchmark)",
            "n_per_stratum": config.eval_n_per_stratum,
            "seed": config.eval_seed,
            "reference": getattr(index, "fingerprint", None),
            "note": MEASUREMENT_NOTE,
        },
        "environment": {
            "python": platform.python_version(),
            "torch": torch.__version__,
            "transformers": _version("transformers"),
            "threads": config.threads,
            "cpu": platform.processor() or platform.machine(),
        },
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    return model, report


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


# ----------------------------------------------------------------------------- output


def _report_markdown(report: dict[str, Any]) -> str:
    config = report["config"]
    held_out = ", ".join(" ".join(p) for p in report["world"]["held_out"])
    lines = [
        f"# Training report: `{report['model']}`",
        "",
        f"{report['description']}.",
        "",
        f"- steps: {report['steps']} (batch {config['batch_size']}, AdamW lr {config['lr']}, "
        f"{config['warmup_fraction']:.0%} warm-up then cosine decay, weight decay "
        f"{config['weight_decay']}, seed {config['seed']})",
        f"- wall time: {report['train_seconds'] / 60:.1f} min training "
        f"({report['seconds_per_step']} s/step, {config['threads']} CPU threads), "
        f"{report['eval_seconds']:.0f} s evaluation; stopped early: {report['stopped_early']}",
        f"- parameters: {report['n_parameters']:,}; "
        f"checkpoint: {report['checkpoint_bytes']:,} bytes, "
        f"sha256 `{report['checkpoint_sha256']}`",
        f"- loss: {report['loss']['first']} at step 1, {report['loss']['last_50_mean']} "
        f"(mean of the last 50 steps); logit scale {report['logit_scale']}",
        f"- world `{report['world']['fingerprint'][:16]}`, held out: {held_out}; and "
        f"{len(report['world']['held_out_relations'])} spatial configurations of two shapes",
        "",
        "| samples | label | n | I2T | T2I | group |",
        "|---|---|---|---|---|---|",
        *(
            f"| {kind} | {s} | {a['n']} | {a['i2t']:.3f} | {a['t2i']:.3f} | {a['group']:.3f} |"
            for kind, key in (("attribute", "accuracy"), ("relation", "relation_accuracy"))
            for s, a in report[key].items()
        ),
        "",
        report["evaluation"]["note"],
    ]
    return "\n".join(lines) + "\n"


def save_checkpoint(
    model: Any,
    world: SyntheticWorld,
    report: dict[str, Any],
    out: str | Path,
    *,
    overwrite: bool = False,
) -> Path:
    """Write model, processor files and report to a temporary sibling, then rename it to ``out``.

    ``out`` must be new or an empty folder; ``overwrite`` replaces a previous checkpoint (its
    ``training_report.json`` carries the format tag), never anything else.
    """
    with atomic_directory(out, CHECKPOINT_OUTPUT, overwrite=overwrite) as tmp:
        model.save_pretrained(tmp, safe_serialization=True)
        save_processor(world, tmp)
        weights = tmp / "model.safetensors"
        report = {
            "format": CHECKPOINT_OUTPUT.format,
            **report,
            "checkpoint_bytes": weights.stat().st_size,
            "checkpoint_sha256": file_digest(weights),
        }
        (tmp / str(CHECKPOINT_OUTPUT.manifest)).write_text(json.dumps(report, indent=2) + "\n")
        (tmp / "training_report.md").write_text(_report_markdown(report))
    return Path(out)


# ----------------------------------------------------------------------------- command line


def output_folders(args: argparse.Namespace) -> dict[str, Path]:
    """Model name -> the folder its checkpoint goes to: ``--out``/<model>, or with
    ``--into-package`` the package's own checkpoint folder."""
    if args.into_package:
        return {name: CHECKPOINTS[name] for name in args.model}
    return {name: Path(args.out) / name for name in args.model}


def run(args: argparse.Namespace) -> int:
    """Train every requested model and write its checkpoint; print where each went.

    Every output folder and option is checked before the first model trains.
    """
    check_options(args)
    outputs = output_folders(args)
    overwrite = args.overwrite or args.into_package
    for out in outputs.values():
        check_output(out, CHECKPOINT_OUTPUT, overwrite=overwrite)
    for name in args.model:
        if RECIPES[name].batches == "swap" and args.batch_size % 2:
            raise BindsplitValueError(
                f"{name} trains on pairs of scenes: the batch size must be even, got "
                f"--batch-size {args.batch_size}"
            )
    world = default_world()
    for name, out in outputs.items():
        config = TrainConfig(
            model=name,
            steps=args.steps if args.steps is not None else RECIPES[name].steps,
            batch_size=args.batch_size,
            lr=args.lr,
            seed=args.seed,
            threads=args.threads,
            max_minutes=args.max_minutes,
            eval_n_per_stratum=args.eval_n,
        )
        model, report = train(config, world)
        save_checkpoint(model, world, report, out, overwrite=overwrite)
        print(f"{name}: {report['steps']} steps in {report['train_seconds'] / 60:.1f} min -> {out}")
        for kind, key in (("attribute", "accuracy"), ("relation", "relation_accuracy")):
            accuracy = " ".join(
                f"{s}={a['i2t']:.3f}/{a['t2i']:.3f}/{a['group']:.3f}"
                for s, a in report[key].items()
            )
            print(f"  {kind} I2T/T2I/group {accuracy}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bindsplit_datasets.synthetic.train", description=__doc__.splitlines()[0]
    )
    add_arguments(parser)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    return run(parser.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
