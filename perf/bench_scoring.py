"""Scorer throughput: end to end vs the raw encoders on the same inputs, and vs a naive loop.

Measured side by side in one run, on a random-init model (nothing is downloaded) and a synthetic
BiVLC-shaped benchmark (2 JPEG images x 2 captions per sample) in which **every image and every
caption is distinct**, so the scorer's deduplication gives it no advantage:

- **scorer**: ``Scorer.score`` end to end: hashing, JPEG decoding and preprocessing (in DataLoader
  workers on a GPU, in a prefetch thread on the CPU), tokenising, encoding, gathering the
  matrices;
- **raw encoders**: ``encode_images``/``encode_texts`` of the same encoder alone, on the very
  inputs the scorer gives them (the same images preprocessed and the same captions tokenised
  beforehand, in the same batches), moved to the device inside the timer: the cost of the model
  with free data loading;
- **naive**: the usual loop, one sample at a time (its 2 images preprocessed and encoded, its 2
  captions tokenised and encoded), on the first ``--naive-rows`` samples.

Scorer and raw encoders alternate and the best of ``--rounds`` counts (the machine may be
shared). Target: the scorer within 5% of the raw encoders, i.e. decoding and preprocessing
overlap with encoding instead of adding to it. The naive loop's ratio is reported for reference:
on a CPU batching gains little (1.2-1.8x here), on a GPU, where a sample's forward is a few
kernel launches, it is worth 10x and more. ``--library`` picks the Hugging Face CLIP or the
open_clip implementation. The default size is that of ViT-B/32, the smallest CLIP evaluated in
practice; ``--model-size small`` (a ViT-S/32-sized CLIP) shows the limit on a CPU: preprocessing
a 320x240 JPEG costs about 1.4 ms of CPU, some 15% of that encoder's cost, and a CPU that the
encoder already fills cannot hide it.

Measured on 2 shared CPU cores (torch 2.14, transformers 5.x): ViT-B/32-sized CLIP 1.01 (Hugging
Face) and ViT-S-32 1.00 (open_clip); the small Hugging Face CLIP 0.85.

Expected time of a real evaluation (an estimate from FLOPs and typical throughput, not a
measurement): ViT-B/32 costs about 4.4 GFLOPs per image and 1-2 GFLOPs per caption. The four
benchmarks hold about 44k distinct images (ARO VG-A crops ~28.7k, BiVLC ~5.9k, VisMin ~4.2k,
SugarCrepe's COCO images ~5k) and at most 80k distinct captions: some 0.3 PFLOP, which one
current GPU (A100/H100 class, ``--mixed-precision bf16``, 10-20k images/s) encodes in about
10 s. Decoding and resizing the photos costs about 5 ms of CPU per image, some 220 CPU-seconds,
and bounds the run: with 8 workers the whole evaluation of ViT-B/32 on all four benchmarks is
expected to take under a minute (plus reading and hashing the data, a few seconds, and the
bootstrap), and about four minutes with ``--num-workers 0``. The naive loop, at some 10 ms of
kernel launches per sample on top of the same decoding, needs over 10 minutes for the 43k
samples.
"""

from __future__ import annotations

import argparse
import io
import itertools
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import datasets
import numpy as np
import torch
from accelerate import Accelerator
from figures import Figures
from PIL import Image, ImageDraw
from tokenizers import pre_tokenizers

from bindsplit_datasets.models import Encoder, HFEncoder, OpenClipEncoder
from bindsplit_datasets.scoring.scorer import MIXED_PRECISIONS, Scorer

TARGET_RAW = 0.95
#: The figures of this script the README quotes: written by a full run with the defaults (the
#: Hugging Face ViT-B/32-sized CLIP on the CPU), the configuration the README names.
FIGURES = Figures("bench_scoring.py")
IMAGE_COLUMNS = ("image", "negative_image")
CAPTION_COLUMNS = ("caption", "negative_caption")

COLOURS = ("red", "green", "blue", "yellow", "white", "black", "brown", "purple")
OBJECTS = ("apple", "mug", "dog", "cat", "car", "chair", "vase", "bus")
WORDS = ("a", "an", "the", "next", "to", "on", "of", "and", "with", "photo", "table")

#: Hugging Face CLIP sizes, (vision, text) transformer hidden, layers, heads, and projection;
#: open_clip architecture of the same size.
MODEL_SIZES: dict[str, dict[str, Any]] = {
    "small": {
        "vision": (384, 6, 6),
        "text": (256, 4, 4),
        "projection": 256,
        "open_clip": "ViT-S-32",
    },
    "vit-b-32": {
        "vision": (768, 12, 12),
        "text": (512, 12, 8),
        "projection": 512,
        "open_clip": "ViT-B-32",
    },
}


# ---------------------------------------------------------------------------- setup
def word_tokenizer() -> Any:
    """A word-level fast tokenizer over the benchmark's vocabulary (CLIP-like token counts)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from tiny_models import word_level_tokenizer

    return word_level_tokenizer((*COLOURS, *OBJECTS, *WORDS), pre_tokenizers.Whitespace(), 77)


def hf_encoder(size: str) -> HFEncoder:
    """A random-init CLIPModel with the default (fast, when torchvision is installed) image
    processor of CLIP."""
    from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel, CLIPProcessor

    spec = MODEL_SIZES[size]
    tokenizer = word_tokenizer()

    def tower(hidden: int, layers: int, heads: int) -> dict[str, int]:
        return {
            "hidden_size": hidden,
            "num_hidden_layers": layers,
            "num_attention_heads": heads,
            "intermediate_size": 4 * hidden,
        }

    config = CLIPConfig(
        vision_config={**tower(*spec["vision"]), "image_size": 224, "patch_size": 32},
        text_config={
            **tower(*spec["text"]),
            "vocab_size": len(tokenizer),
            "max_position_embeddings": 77,
            "pad_token_id": 0,
            "bos_token_id": 2,
            "eos_token_id": 3,
        },
        projection_dim=spec["projection"],
    )
    torch.manual_seed(0)
    processor = CLIPProcessor(image_processor=CLIPImageProcessor(), tokenizer=tokenizer)
    return HFEncoder(CLIPModel(config).eval(), processor, name=f"random CLIP {size}")


def open_clip_encoder(size: str) -> OpenClipEncoder:
    """A random-init open_clip model with open_clip's own transform and tokenizer."""
    import open_clip

    architecture = MODEL_SIZES[size]["open_clip"]
    torch.manual_seed(0)
    model, _, preprocess = open_clip.create_model_and_transforms(architecture)
    return OpenClipEncoder(
        model, preprocess, open_clip.get_tokenizer(architecture), name=f"random {architecture}"
    )


ENCODERS: dict[str, Callable[[str], Encoder]] = {"hf": hf_encoder, "open_clip": open_clip_encoder}


def jpeg(seed: int, size: int = 320) -> bytes:
    """A JPEG of coloured shapes (decodes like a photo, unlike incompressible noise)."""
    rng = np.random.default_rng(seed)
    image = Image.new("RGB", (size, size * 3 // 4), tuple(int(v) for v in rng.integers(0, 256, 3)))
    draw = ImageDraw.Draw(image)
    for _ in range(8):
        x0, y0 = (int(v) for v in rng.integers(0, size // 2, 2))
        x1, y1 = x0 + int(rng.integers(20, size // 2)), y0 + int(rng.integers(20, size // 2))
        draw.ellipse((x0, y0, x1, y1), fill=tuple(int(v) for v in rng.integers(0, 256, 3)))
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


def build_dataset(rows: int) -> datasets.Dataset:
    """BiVLC-shaped rows in which every image and every caption is distinct."""
    pairs = list(itertools.product(COLOURS, OBJECTS))
    captions = [
        f"a photo of a {c1} {o1} next to a {c2} {o2} on the table"
        for (c1, o1), (c2, o2) in itertools.islice(itertools.permutations(pairs, 2), 2 * rows)
    ]
    if len(captions) < 2 * rows:
        raise SystemExit(f"at most {len(captions) // 2} rows have distinct captions")
    data = {
        "image": [{"bytes": jpeg(2 * r), "path": None} for r in range(rows)],
        "negative_image": [{"bytes": jpeg(2 * r + 1), "path": None} for r in range(rows)],
        "caption": captions[0::2],
        "negative_caption": captions[1::2],
    }
    features = datasets.Features(
        {
            **{c: datasets.Image() for c in IMAGE_COLUMNS},
            **{c: datasets.Value("string") for c in CAPTION_COLUMNS},
        }
    )
    return datasets.Dataset.from_dict(data, features=features)


# ---------------------------------------------------------------------------- measures
def timed(function: Callable[[], Any], device: torch.device) -> float:
    if device.type == "cuda":
        torch.cuda.synchronize()
    start = time.perf_counter()
    function()
    if device.type == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - start


def autocast(device: torch.device, precision: str) -> Any:
    dtype = MIXED_PRECISIONS[precision]
    if dtype is None:
        return torch.autocast(device.type, enabled=False)
    return torch.autocast(device.type, dtype=dtype)


def scorer_batches(
    encoder: Encoder, dataset: datasets.Dataset, batch_size: int
) -> tuple[list[dict[str, torch.Tensor]], list[dict[str, torch.Tensor]]]:
    """The scorer's encoder inputs, made beforehand: distinct images and captions in order of
    first appearance, in batches of ``batch_size``."""
    images = [row[c] for row in dataset for c in IMAGE_COLUMNS]
    texts = [row[c] for row in dataset for c in CAPTION_COLUMNS]

    def batches(items: Sequence[Any], prepare: Callable[[list[Any]], Any]) -> list[Any]:
        return [
            dict(prepare(list(items[start : start + batch_size])))
            for start in range(0, len(items), batch_size)
        ]

    return batches(images, encoder.preprocess_images), batches(texts, encoder.tokenize)


def raw(
    encoder: Encoder,
    pixels: list[dict[str, torch.Tensor]],
    text: list[dict[str, torch.Tensor]],
    device: torch.device,
    precision: str,
) -> None:
    with torch.inference_mode(), autocast(device, precision):
        for batch in pixels:
            encoder.encode_images({k: v.to(device) for k, v in batch.items()})
        for batch in text:
            encoder.encode_texts({k: v.to(device) for k, v in batch.items()})


def naive(
    encoder: Encoder, dataset: datasets.Dataset, device: torch.device, precision: str
) -> None:
    with torch.inference_mode(), autocast(device, precision):
        for row in dataset:
            pixels = encoder.preprocess_images([row[c] for c in IMAGE_COLUMNS])
            text = encoder.tokenize([row[c] for c in CAPTION_COLUMNS])
            encoder.encode_images({k: v.to(device) for k, v in pixels.items()})
            encoder.encode_texts({k: v.to(device) for k, v in text.items()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library", choices=sorted(ENCODERS), default="hf")
    parser.add_argument("--model-size", choices=sorted(MODEL_SIZES), default="vit-b-32")
    parser.add_argument(
        "--rows", type=int, default=None, help="samples (default: 256 small, 64 vit-b-32)"
    )
    parser.add_argument("--naive-rows", type=int, default=16, help="samples of the naive loop")
    parser.add_argument("--rounds", type=int, default=3, help="best of this many (scorer, raw)")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument(
        "--num-workers", type=int, default=None, help="image workers (default: the scorer's)"
    )
    parser.add_argument("--mixed-precision", choices=sorted(MIXED_PRECISIONS), default="no")
    parser.add_argument("--cpu", action="store_true", help="force the CPU even if a GPU is present")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="the small model, 8 samples, one round on the CPU (seconds): checks the script runs",
    )
    args = parser.parse_args()
    if args.quick:
        args.model_size, args.rows, args.naive_rows, args.rounds, args.cpu = "small", 8, 4, 1, True
    rows = args.rows or (256 if args.model_size == "small" else 64)

    accelerator = Accelerator(cpu=args.cpu)
    device = accelerator.device
    encoder = ENCODERS[args.library](args.model_size)
    dataset = build_dataset(rows)
    scorer = Scorer(
        encoder,
        accelerator=accelerator,
        batch_size=args.batch_size,
        mixed_precision=args.mixed_precision,
        num_workers=args.num_workers,
    )
    pixels, text = scorer_batches(encoder, dataset, args.batch_size)
    naive_rows = dataset.select(range(min(args.naive_rows, rows)))

    # warm-up (first calls allocate and pick kernels), then the measures side by side
    raw(encoder, pixels[:1], text[:1], device, args.mixed_precision)
    naive(encoder, naive_rows.select(range(2)), device, args.mixed_precision)
    precision = args.mixed_precision
    scorer_s, raw_s = [], []
    for _ in range(args.rounds):
        scorer_s.append(
            timed(lambda: scorer.score(dataset, IMAGE_COLUMNS, CAPTION_COLUMNS), device)
        )
        raw_s.append(timed(lambda: raw(encoder, pixels, text, device, precision), device))
    naive_s = timed(lambda: naive(encoder, naive_rows, device, precision), device)

    print(
        f"Scorer throughput: {encoder.identity.id} ({args.library}) on {device} (torch threads "
        f"{torch.get_num_threads()}, image workers {scorer.num_workers}, precision "
        f"{args.mixed_precision}), {rows} samples of 2 images x 2 captions, all distinct, "
        f"batch {args.batch_size}, best of {args.rounds}"
    )
    print(f"{'measure':<16}{'seconds':>10}{'samples/s':>12}{'images/s':>12}{'texts/s':>12}")
    throughput = {}
    for name, seconds, samples in (
        ("scorer", min(scorer_s), rows),
        ("raw encoders", min(raw_s), rows),
        ("naive loop", naive_s, len(naive_rows)),
    ):
        throughput[name] = samples / seconds
        print(
            f"{name:<16}{seconds:>10.2f}{samples / seconds:>12.1f}"
            f"{2 * samples / seconds:>12.1f}{2 * samples / seconds:>12.1f}"
        )
    print()
    efficiency = throughput["scorer"] / throughput["raw encoders"]
    speedup = throughput["scorer"] / throughput["naive loop"]
    print(f"scorer / raw encoders: {efficiency:.2f} (target >= {TARGET_RAW})")
    print(f"scorer / naive loop:   {speedup:.1f}x (distinct data: batching only, no deduplication)")
    defaults = (args.library, args.model_size, device.type) == ("hf", "vit-b-32", "cpu")
    if defaults and not args.quick:
        what = "scorer / raw encoders, ViT-B/32-sized Hugging Face CLIP, CPU"
        FIGURES.quote("scoring-raw", f"{efficiency:.2f}x", what)
        FIGURES.save()


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    main()
