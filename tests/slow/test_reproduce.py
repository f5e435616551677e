"""`make reproduce`'s pipeline end to end, with every download replaced by a local fixture.

The reference is a COCO-format caption file, the four benchmarks are sources in their exact
source schemas (ARO's original layout with image files, BiVLC's and VisMin's Hub columns,
SugarCrepe's repository layout with its COCO val2017 image folder), and the model is a tiny
random CLIP saved as a Hugging Face folder: only the locations differ from the real run, so this
proves the code path of `bindsplit reproduce` complete.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixtures_sources import (
    make_aro_source,
    make_bivlc_source,
    make_sim_solution,
    make_vismin_source,
)
from fixtures_sugarcrepe import SUGARCREPE_SAMPLES, make_sugarcrepe_source
from tiny_models import tiny_clip

from bindsplit_datasets.cli import main
from bindsplit_datasets.loading import load_bindsplit
from bindsplit_datasets.reports import load_results
from bindsplit_datasets.reports.results import model_slug, record_file_name
from bindsplit_datasets.reproduce import REAL_BENCHMARKS, reproduce

# the model stack (torch, transformers): not part of `make test-fast`
REFERENCE_CAPTIONS = [
    "a white plate on a wooden table",
    "a red bus parked on the street",
    "a black dog on a green lawn",
    "a small cat next to a blue chair",
]

BIVLC_ROWS = [
    {
        "caption": "a red bus near a tree",
        "negative_caption": "a blue bus near a tree",
        "type": "replace",
        "subtype": "att",
    },
    {
        "caption": "a white plate and a wooden table",
        "negative_caption": "a wooden plate and a white table",
        "type": "swap",
        "subtype": "att",
    },
    {
        "caption": "a purple giraffe",
        "negative_caption": "an orange giraffe",
        "type": "replace",
        "subtype": "att",
    },
    {
        "caption": "a man riding a horse",
        "negative_caption": "a horse riding a man",
        "type": "swap",
        "subtype": "rel",
    },
]

VISMIN_ROWS = [
    {
        "text_0": "a black dog on the grass",
        "text_1": "a white dog on the grass",
        "category": "attribute",
    },
    {"text_0": "a striped zebra", "text_1": "a spotted zebra", "category": "attribute"},
    {"text_0": "two cups on a table", "text_1": "three cups on a table", "category": "counting"},
]


def _coco_captions(path: Path, captions: list[str]) -> Path:
    path.write_text(
        json.dumps(
            {
                "info": {},
                "licenses": [],
                "images": [{"id": i} for i in range(len(captions))],
                "annotations": [
                    {"image_id": i, "id": 100 + i, "caption": c} for i, c in enumerate(captions)
                ],
            }
        ),
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def offline_inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("reproduce_inputs")
    model, processor = tiny_clip()
    model_dir = root / "tiny-clip"
    model.save_pretrained(model_dir)
    processor.save_pretrained(model_dir)
    return {
        "model": model_dir,
        "reference": _coco_captions(root / "captions_train2017.json", REFERENCE_CAPTIONS),
        "aro_vga": make_aro_source(root / "aro", 12),
        "bivlc": make_bivlc_source(root / "bivlc.parquet", BIVLC_ROWS),
        "vismin": make_vismin_source(root / "vismin.parquet", VISMIN_ROWS),
        "sugarcrepe": make_sugarcrepe_source(root / "sugar-crepe"),
        # the official VisMin ground truth covers the real release only: this source has its own
        "vismin_solution": make_sim_solution(
            root / "sim_solution.csv", [row["category"] for row in VISMIN_ROWS]
        ),
    }


def test_reproduce_offline_writes_every_output(
    offline_inputs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    echoed: list[str] = []
    result = reproduce(
        out,
        models=[str(offline_inputs["model"])],
        sources={name: offline_inputs[name] for name in REAL_BENCHMARKS},
        source_options={
            "sugarcrepe": {"images": offline_inputs["sugarcrepe"] / "val2017"},
            "vismin": {"sim_solution": offline_inputs["vismin_solution"]},
        },
        reference=offline_inputs["reference"],
        n_bootstrap=20,
        progress=False,
        echo=echoed.append,
    )
    assert sorted(result.datasets) == sorted(REAL_BENCHMARKS)
    assert "sugarcrepe" in REAL_BENCHMARKS
    slug = model_slug(offline_inputs["model"])
    assert slug == "tiny-clip"
    for name, folder in result.datasets.items():
        manifest = json.loads((folder / "bindsplit.json").read_text(encoding="utf-8"))
        assert manifest["benchmark"] == name
        [path] = result.results[name]
        assert path == out / "results" / record_file_name(str(offline_inputs["model"]), name)
        assert path.name == f"{name}__{slug}.json"  # as `bindsplit eval --out-dir` names it
        [record] = load_results([path])
        assert record["dataset"]["fingerprint"] == manifest["fingerprint"]
        assert record["metrics"]["full/n"] == manifest["configs"]["full"]
        assert result.figures[name].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # ARO and SugarCrepe are 1 image x 2 captions: no T2I; BiVLC and VisMin are 2 x 2.
    [aro] = load_results(result.results["aro_vga"])
    [bivlc] = load_results(result.results["bivlc"])
    [sugarcrepe] = load_results(result.results["sugarcrepe"])
    assert "full/t2i" not in aro["metrics"] and "full/t2i" in bivlc["metrics"]
    assert "full/t2i" not in sugarcrepe["metrics"]
    assert bivlc["metrics"]["full/n"] == len(BIVLC_ROWS)
    n_sugarcrepe = sum(len(samples) for samples in SUGARCREPE_SAMPLES.values())
    assert sugarcrepe["metrics"]["full/n"] == n_sugarcrepe
    # the composition sits beside the paper's figures, and both texts are echoed and saved
    assert echoed == [result.composition, result.leaderboard]
    assert "79.8%" in result.composition and "41.8%" in result.composition
    # the paper has no SugarCrepe figures: its table is printed on its own, and says so
    assert (
        f"SugarCrepe ({n_sugarcrepe} samples; the paper reports no figures for it)"
        in result.composition
    )
    assert (out / "composition.txt").read_text(encoding="utf-8") == result.composition + "\n"
    assert slug in (out / "leaderboard.txt").read_text(encoding="utf-8")
    summary = json.loads((out / "reproduce.json").read_text(encoding="utf-8"))
    assert summary["models"] == [str(offline_inputs["model"])]
    # no sample of these tiny sources has every binding in the reference: `seen` is empty,
    # written with 0 rows
    configs = json.loads((result.datasets["bivlc"] / "bindsplit.json").read_text(encoding="utf-8"))[
        "configs"
    ]
    assert configs["seen"] == 0
    assert len(load_bindsplit(result.datasets["bivlc"], "seen").dataset) == 0


def test_reproduce_command_rejects_unknown_benchmark_before_work(
    offline_inputs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "reproduce",
            "--out",
            str(tmp_path / "out"),
            "--benchmarks",
            "bivlc,no_such_benchmark",
            "--models",
            str(offline_inputs["model"]),
            "--reference",
            str(offline_inputs["reference"]),
        ]
    )
    assert code == 2
    assert "unknown benchmark 'no_such_benchmark'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
