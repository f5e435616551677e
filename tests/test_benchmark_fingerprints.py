"""The build fingerprints of the existing benchmarks, pinned to their exact values.

Each benchmark is built from the test fixtures in its own source schema (tests/fixtures_sources.py,
tests/fixtures_sugarcrepe.py) against a fixed reference, and the ``fingerprint`` of its
``bindsplit.json`` is compared with the value recorded before the benchmarks became declarative
specs (``benchmarks/specs/``): moving a benchmark's description from code to a data file must not
change a single built row. A deliberate change of the rows (a parser change that reads one of
these captions otherwise, a new annotation column) changes these values; update them only then,
saying why in the commit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import datasets
import pytest
from fixtures_sources import (
    aro_record,
    aro_vgr_record,
    make_aro_mirror_source,
    make_aro_source,
    make_bivlc_source,
    make_sim_solution,
    make_vismin_source,
)
from fixtures_sugarcrepe import image_colour, jpeg_bytes, make_sugarcrepe_source

from bindsplit_datasets.builds.builder import build_benchmark

REFERENCE = [
    "a red car on the road",
    "a white dog on the grass",
    "a black cat on a sofa",
    "a wooden table in a kitchen",
    "a dog on the grass",
    "a cup on a wooden table",
]

#: The fingerprint of every fixture build, recorded at the commit before the move to specs.
PINNED: dict[str, str] = {
    "aro_vga": "2e7248e449037460a6d729c5e3d44560b947783e1529023facf06316d0f5a21c",
    "aro_vga_mirror": "c9018c7aa345ef7ed54d2d2e2946ae36abfde3bc3bf1f92a6d11b97adf490289",
    "aro_vgr": "f8a100c172df83f60da7c6f431259a60f7f8840639022b9ff77324a1f9895261",
    "aro_vgr_relation": "15cffc8161d651864ae959f152917c5b1e7c4a9191c189e57bd0dda1069f295e",
    "bivlc": "02c87b4d3e3e43e1ff6a3dcb7c59a646f5c00c676d3228e3f991131738044f98",
    "sugarcrepe": "1810c789e1556700029ffb61cc8fef2402511a41485a59dd5ddefbdf91016d1d",
    "sugarcrepe_copy": "19682805e1d3ba2616ed24e9efda4208dd15050dc41319a0d3779bf1f39b8837",
    # the synthetic world's boxes are the shapes' tight boxes since relations are read from them
    "synthetic": "be2976c966fd0b09244203fc23012d53f42c1d8cdefdf9add55744d110a55a4f",
    "vismin": "ed1bfb38458433b254bb6f6508964864ab678a97d7365798790274ba554c27d8",
    "vismin_as_stored": "333b00dec7367d359975bb58726feaab56c31b6f63da88e9a8c70e58ca502158",
}


def _bivlc(folder: Path) -> dict[str, Any]:
    rows = [
        {"caption": "a red car", "negative_caption": "a white dog"},
        {"caption": "a purple car", "negative_caption": "a golden dog", "type": "swap"},
        {"caption": "a red car", "negative_caption": "a purple dog", "subtype": "obj"},
        {"caption": "two people walking", "negative_caption": "three people walking"},
    ]
    return {"benchmark": "bivlc", "source": make_bivlc_source(folder / "bivlc.parquet", rows)}


_VISMIN_ROWS = [
    {"text_0": "a red car", "text_1": "a white dog", "category": "attribute"},
    {"text_0": "a purple car", "text_1": "a red car", "category": "attribute"},
    {"text_0": "a cat on a sofa", "text_1": "a dog on a sofa", "category": "object"},
]


def _vismin(folder: Path) -> dict[str, Any]:
    categories = [row["category"] for row in _VISMIN_ROWS]
    solution = make_sim_solution(folder / "solution.csv", categories, swapped={1})
    source = make_vismin_source(folder / "vismin.parquet", _VISMIN_ROWS, swapped={1})
    return {"benchmark": "vismin", "source": source, "source_options": {"sim_solution": solution}}


def _vismin_as_stored(folder: Path) -> dict[str, Any]:
    source = make_vismin_source(folder / "vismin.parquet", _VISMIN_ROWS)
    return {"benchmark": "vismin", "source": source, "source_options": {"pairing": "as-stored"}}


def _aro_vga(folder: Path) -> dict[str, Any]:
    records = [
        aro_record(0, "red", "car", "white", "dog"),
        aro_record(1, "black", "cat", "wooden", "table"),
        aro_record(2, "purple", "car", "golden", "dog"),
    ]
    source = make_aro_source(folder / "aro", records=records, image_format="PNG")
    return {"benchmark": "aro_vga", "source": source}


def _aro_vga_mirror(folder: Path) -> dict[str, Any]:
    captions = [
        ("the red car and the white dog", "the white car and the red dog"),
        ("a dog running on a beach", "a beach running on a dog"),
    ]
    source = make_aro_mirror_source(folder / "mirror.parquet", captions)
    return {"benchmark": "aro_vga", "source": source}


def _aro_vgr_records() -> list[dict[str, Any]]:
    return [
        aro_vgr_record(0, "dog", "on", "grass"),
        aro_vgr_record(1, "cup", "on", "table"),
        aro_vgr_record(2, "cat", "under", "table"),
    ]


def _aro_vgr(folder: Path) -> dict[str, Any]:
    source = make_aro_source(
        folder / "aro_vgr",
        records=_aro_vgr_records(),
        image_format="PNG",
        annotation_file="visual_genome_relation.json",
    )
    return {"benchmark": "aro_vgr", "source": source}


def _aro_vgr_relation(folder: Path) -> dict[str, Any]:
    return {**_aro_vgr(folder), "binding_kind": "relation"}


def _sugarcrepe(folder: Path) -> dict[str, Any]:
    root = make_sugarcrepe_source(folder / "repo")
    return {
        "benchmark": "sugarcrepe",
        "source": root,
        "source_options": {"images": root / "val2017"},
    }


def _sugarcrepe_copy(folder: Path) -> dict[str, Any]:
    features = datasets.Features(
        {
            "images": datasets.Image(),
            "caption": datasets.Value("string"),
            "negative_caption": datasets.Value("string"),
            "subset": datasets.Value("string"),
        }
    )
    rows = [(139, "a dog on a green lawn", "a black dog on a green lawn", "add_att")]
    rows += [(724, "a wooden table and a red chair", "a red table and a wooden chair", "swap_att")]
    columns = {
        "images": [{"bytes": jpeg_bytes(image_colour(i)), "path": None} for i, *_ in rows],
        "caption": [row[1] for row in rows],
        "negative_caption": [row[2] for row in rows],
        "subset": [row[3] for row in rows],
    }
    path = folder / "sugarcrepe.parquet"
    datasets.Dataset.from_dict(columns, features=features).to_parquet(str(path))
    return {"benchmark": "sugarcrepe", "source": path}


def _synthetic(folder: Path) -> dict[str, Any]:
    from bindsplit_datasets.synthetic import default_world, reference_index, write_test_benchmark

    world = default_world()
    index = reference_index(world, n_captions=120)
    out = write_test_benchmark(world, folder / "synthetic", 2, 7, index=index, progress=False)
    return {"benchmark": "synthetic", "source": out, "reference": index}


FIXTURES = {
    "bivlc": _bivlc,
    "vismin": _vismin,
    "vismin_as_stored": _vismin_as_stored,
    "aro_vga": _aro_vga,
    "aro_vga_mirror": _aro_vga_mirror,
    "aro_vgr": _aro_vgr,
    "aro_vgr_relation": _aro_vgr_relation,
    "sugarcrepe": _sugarcrepe,
    "sugarcrepe_copy": _sugarcrepe_copy,
    "synthetic": _synthetic,
}


def fixture_fingerprint(name: str, folder: Path) -> str:
    """The manifest fingerprint of the fixture build ``name``, built under ``folder``."""
    (folder / "inputs").mkdir(parents=True, exist_ok=True)
    inputs = FIXTURES[name](folder / "inputs")
    reference = folder / "reference.txt"
    reference.write_text("\n".join(REFERENCE) + "\n")
    inputs.setdefault("reference", reference)
    benchmark = inputs.pop("benchmark")
    result = build_benchmark(benchmark, out=folder / "build", **inputs)
    return str(result.manifest["fingerprint"])


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_fixture_builds_keep_their_pinned_fingerprints(name, tmp_path):
    assert fixture_fingerprint(name, tmp_path) == PINNED[name]
