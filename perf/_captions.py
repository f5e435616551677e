"""Real COCO captions for the benchmarks, from ``$BINDSPLIT_SHARED/data/coco_mini``.

The parser parses each distinct caption once, so a benchmark that repeated the few hundred real
captions would measure little more than a dictionary lookup. :func:`distinct_captions` repeats
them as *distinct strings* that parse identically (letter case and surrounding spaces vary: the
parser lower-cases and tokenises them away), so every caption costs a full parse, as in a real
corpus of distinct captions.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

_VARIANTS: tuple[Callable[[str], str], ...] = (
    str,
    str.upper,
    str.lower,
    str.title,
    str.swapcase,
    lambda c: f" {c}",
    lambda c: f"{c} ",
    lambda c: f"  {c}",
    lambda c: f"{c}  ",
    lambda c: f" {c.upper()}",
    lambda c: f" {c.title()}",
    lambda c: f" {c.swapcase()}",
)


def shared_data() -> Path:
    """``$BINDSPLIT_SHARED/data`` (default ``../shared/data`` beside the repository)."""
    root = Path(__file__).resolve().parents[1]
    return Path(os.environ.get("BINDSPLIT_SHARED", root.parent / "shared")) / "data"


def real_captions(splits: tuple[str, ...] = ("train", "val")) -> list[str]:
    """The real COCO captions of ``coco_mini`` (raises FileNotFoundError when absent)."""
    captions = []
    for split in splits:
        path = shared_data() / "coco_mini" / f"captions_{split}2017.json"
        annotations = json.loads(path.read_text(encoding="utf-8"))["annotations"]
        captions.extend(annotation["caption"] for annotation in annotations)
    return captions


def distinct_captions(real: list[str], n: int) -> list[str]:
    """``n`` distinct strings made from ``real``, each parsing like its original."""
    variants = dict.fromkeys(variant(c) for variant in _VARIANTS for c in real)
    if len(variants) < n:
        raise ValueError(f"only {len(variants)} distinct variants of {len(real)} captions")
    return list(variants)[:n]
