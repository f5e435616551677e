"""Build time per 1,000 samples of a generated 10,000-sample ARO VG-Attribution source.

The source is written in the original ARO layout (``visual_genome_attribution.json`` + JPEG files
in ``images/``, one record per image, each cropped to its bbox) by the test fixtures' generator;
its images are 160 x 120 photo-like JPEGs (blurred noise and a gradient), small enough to keep
the run under two minutes on two cores. The build is timed stage by stage, side by side in one
run, with a cold ``datasets`` cache:

* reading: ``AROVGAttribution.load`` (open, crop, PNG-encode every image into Arrow);
* parsing/labelling: bindings from the structured fields, the leakage check, labels and
  composition, against an index in which half of the fixture's (attribute, object) pairs are
  seen (built before timing starts);
* Parquet writing: ``write_build`` (annotation columns, four configurations with image bytes
  embedded, rows fingerprint, manifest and card).

The slowest stage is marked; seconds per 1,000 samples let one extrapolate to ARO's 28,748.
``--quick`` times 200 samples instead, to check that the script still runs (``make test`` does).
Reading runs in one process, the default (the adapter's ``num_proc`` option spreads it over
processes, one per 1,000 records at most).
"""

from __future__ import annotations

import argparse
import io
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
N_SAMPLES = 10_000
N_QUICK = 200
N_ARO = 28_748
IMAGE_SIZE = (160, 120)


def _reference_index():
    """An index in which every other (attribute, object) pair of the fixture vocabulary is seen:
    labelling costs the same whatever corpus the counts came from, and no tagger is loaded."""
    import numpy as np

    from bindsplit_datasets.parsing import Binding
    from bindsplit_datasets.reference import ReferenceIndex

    sys.path.insert(0, str(ROOT / "tests"))
    from fixtures_sources import ARO_ATTRIBUTES, ARO_OBJECTS

    pairs = [(a, o) for a in ARO_ATTRIBUTES for o in ARO_OBJECTS]
    counts = {Binding(a, o): 1 + i for i, (a, o) in enumerate(pairs) if i % 2 == 0}
    return ReferenceIndex(
        counts,
        caption_digests=np.zeros(0, dtype=np.uint64),
        min_count=1,
        n_captions=len(counts),
        n_skipped=0,
        corpus={"kind": "benchmark", "pairs": len(counts)},
    )


def _photo_like_jpeg() -> bytes:
    from PIL import Image, ImageFilter

    width, height = IMAGE_SIZE
    red = Image.effect_noise(IMAGE_SIZE, 60).filter(ImageFilter.GaussianBlur(2))
    green = Image.linear_gradient("L").resize(IMAGE_SIZE)
    blue = Image.effect_noise(IMAGE_SIZE, 30)
    buffer = io.BytesIO()
    Image.merge("RGB", [red, green, blue]).save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


def _write_source(folder: Path, n_samples: int) -> Path:
    """The fixture generator's records with photo-sized bboxes, every image the same 160 x 120
    photo-like JPEG."""
    sys.path.insert(0, str(ROOT / "tests"))
    from fixtures_sources import aro_records, make_aro_source

    records = aro_records(n_samples)
    for position, record in enumerate(records):
        record.update(
            bbox_x=position % 40, bbox_y=position % 30, bbox_w=100 + position % 17, bbox_h=75
        )
    return make_aro_source(folder, records=records, image_bytes=_photo_like_jpeg())


def _timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 samples: check that it runs")
    n_samples = N_QUICK if parser.parse_args(argv).quick else N_SAMPLES

    import datasets

    from bindsplit_datasets.benchmarks import get_benchmark
    from bindsplit_datasets.builds.builder import (
        PreparedBenchmark,
        compute_annotations,
        leakage_record,
        write_build,
    )

    datasets.disable_progress_bars()
    work = Path(tempfile.mkdtemp(prefix="bench_build_"))
    try:
        source, generation = _timed(_write_source, work / "aro", n_samples)
        index = _reference_index()
        adapter = get_benchmark("aro_vga")
        datasets.config.HF_DATASETS_CACHE = work / "cache"  # cold: the crops are really made
        loaded, reading = _timed(adapter.load, source)

        def label() -> PreparedBenchmark:
            leakage = leakage_record(adapter, loaded, index)
            annotations = compute_annotations(adapter, loaded, index)
            prepared = PreparedBenchmark(adapter, loaded, index, annotations, leakage)
            prepared.composition()
            return prepared

        prepared, labelling = _timed(label)
        result, writing = _timed(write_build, prepared, work / "build")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    stages = {
        "reading (crop + PNG into Arrow)": reading,
        "parsing/labelling": labelling,
        "Parquet writing (+ fingerprint, card)": writing,
    }
    total = sum(stages.values())
    slowest = max(stages, key=stages.get)
    per_k = n_samples / 1000
    print(
        f"bindsplit build aro_vga: {n_samples:,} generated samples "
        f"({IMAGE_SIZE[0]}x{IMAGE_SIZE[1]} JPEGs), stages in build order"
    )
    print(f"{'stage':40s} {'seconds':>8s} {'s / 1,000':>10s} {'share':>6s}")
    for stage, seconds in stages.items():
        mark = "  <- slowest" if stage == slowest else ""
        print(f"{stage:40s} {seconds:8.2f} {seconds / per_k:10.3f} {seconds / total:6.1%}{mark}")
    print(f"{'total':40s} {total:8.2f} {total / per_k:10.3f} {1:6.0%}")
    print(f"(generating the source, not part of the build: {generation:.2f} s)")
    print(
        f"rows per configuration: {result.manifest['configs']}; "
        f"extrapolated to ARO's {N_ARO:,} records: {total / n_samples * N_ARO:.0f} s"
    )


if __name__ == "__main__":
    main()
