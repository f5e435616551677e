"""Label-free check of the parser on real captions (issue 28): the share of the distinct real
captions under ``$BINDSPLIT_SHARED/data`` (COCO, BiVLC, SugarCrepe; both sides of each pair) whose
set of bindings changes when the articles "a", "an" and "the" are removed. Captions without
articles (region descriptions, alt text) should parse as their written-out form; the target is at
most 0.5%.

    python perf/article_invariance.py [--show N]

prints ``changed/total = share`` and, with ``--show``, N changed captions (article-less form, the
bindings lost and gained) drawn with a fixed seed.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import re
import sys

from _captions import shared_data

_ARTICLES = re.compile(r"\b(a|an|the)\b\s*", re.IGNORECASE)


def real_captions() -> list[str]:
    """Every distinct caption of the shared real samples."""
    shared = shared_data()
    captions: list[str] = []
    for split in ("train", "val"):
        path = shared / f"coco_mini/captions_{split}2017.json"
        captions += [a["caption"] for a in json.loads(path.read_text())["annotations"]]
    with open(shared / "bivlc/bivlc_text_sample.csv", newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            captions += [row["caption"], row["negative_caption"]]
    for path in sorted((shared / "sugarcrepe").glob("*.json")):
        for sample in json.loads(path.read_text(encoding="utf-8")).values():
            captions += [sample["caption"], sample["negative_caption"]]
    return list(dict.fromkeys(captions))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=0, help="print N changed captions")
    args = parser.parse_args(argv)
    from bindsplit_datasets.parsing import parse_bindings

    captions = real_captions()
    changed = []
    for caption in captions:
        bare = _ARTICLES.sub("", caption)
        written, without = set(parse_bindings(caption)), set(parse_bindings(bare))
        if written != without:
            changed.append(
                (bare, sorted(map(str, written - without)), sorted(map(str, without - written)))
            )
    print(f"{len(changed)}/{len(captions)} = {len(changed) / len(captions):.4f}")
    for bare, lost, gained in random.Random(0).sample(changed, min(args.show, len(changed))):
        print(f"{bare!r}\n    lost {lost}; gained {gained}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
