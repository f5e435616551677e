"""The harness examples of docs/harnesses.md, run verbatim on built folders with a tiny CLIP: MIEB
(mteb) reads every configuration straight from the folder, CLIP_benchmark reads a SugarCrepe
configuration written back in SugarCrepe's own layout, and both give BindSplit's own accuracies.

Only the model differs from the documented commands: `mteb.get_model` is replaced by the tiny CLIP
in MIEB's own CLIP wrapper, and CLIP_benchmark's `eval` command (which loads OpenCLIP checkpoints)
by the calls it makes (`build_dataset` with the dataset's default task, its collate function
and `image_caption_selection.evaluate`) with the tiny CLIP behind `encode_image`/`encode_text`.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
from pathlib import Path
from typing import Any

import datasets
import pytest
import torch
from fixtures_sources import BIVLC_FEATURES
from fixtures_sugarcrepe import coco_filename, make_sugarcrepe_source
from tiny_models import png_bytes, random_image, tiny_clip

from bindsplit_datasets.builds.builder import build_benchmark
from bindsplit_datasets.evaluation import evaluate_model
from bindsplit_datasets.models.hf import feature_tensor
from bindsplit_datasets.names import CONFIGURATIONS

DOC = Path(__file__).resolve().parents[2] / "docs" / "harnesses.md"
#: The folder name the documented examples use.
BUILT_NAME = "sugarcrepe_bindsplit"

ATTRIBUTES = ("red", "blue", "green", "white", "black", "pink")
OBJECTS = ("dog", "cat", "bus", "cup", "hat", "car")
#: Reference bindings: every attribute with the first three objects.
REFERENCE = [f"a {a} {o}" for a in ATTRIBUTES for o in OBJECTS[:3]]


def sugarcrepe_samples() -> dict[str, list[tuple[int, str, str]]]:
    """Four samples per subset, captions short enough for the tiny CLIP (30 characters), every
    caption distinct from its negative, bindings seen and unseen."""
    samples: dict[str, list[tuple[int, str, str]]] = {}
    image_id = 100
    for k, subset in enumerate(("add_att", "replace_att", "swap_att", "swap_obj", "replace_rel")):
        rows = []
        for i in range(4):
            a1, a2 = ATTRIBUTES[(i + k) % 6], ATTRIBUTES[(i + k + 2) % 6]
            o1, o2 = OBJECTS[(2 * i + k) % 6], OBJECTS[(2 * i + k + 1) % 6]
            rows.append((image_id, f"a {a1} {o1} and a {a2} {o2}", f"a {a2} {o1} and a {a1} {o2}"))
            image_id += 1
        samples[subset] = rows
    return samples


def make_bivlc_noise_source(path: Path, n_rows: int = 24) -> Path:
    """A BiVLC Parquet source whose images are seeded noise (distinct enough for a random CLIP to
    tell apart, so that the two-image accuracies are not all 0)."""
    rows = {
        "image": [{"bytes": png_bytes(random_image(2 * i)), "path": None} for i in range(n_rows)],
        "caption": [f"a {ATTRIBUTES[i % 6]} {OBJECTS[i % 6]} on a mat" for i in range(n_rows)],
        "negative_caption": [
            f"a {ATTRIBUTES[(i + 1) % 6]} {OBJECTS[(i + 4) % 6]} on a mat" for i in range(n_rows)
        ],
        "negative_image": [
            {"bytes": png_bytes(random_image(2 * i + 1)), "path": None} for i in range(n_rows)
        ],
        "type": ["replace"] * n_rows,
        "subtype": ["att"] * n_rows,
    }
    datasets.Dataset.from_dict(rows, features=BIVLC_FEATURES).to_parquet(str(path))
    return path


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The built SugarCrepe and BiVLC folders, the tiny CLIP folder and its processor."""
    root = tmp_path_factory.mktemp("harnesses")
    reference = root / "reference.txt"
    reference.write_text("\n".join(REFERENCE) + "\n", encoding="utf-8")
    source = make_sugarcrepe_source(root / "sugar-crepe", sugarcrepe_samples())
    sugarcrepe = build_benchmark(
        "sugarcrepe",
        out=root / BUILT_NAME,
        source=source,
        reference=reference,
        source_options={"images": source / "val2017"},
    )
    bivlc = build_benchmark(
        "bivlc",
        out=root / "bivlc_bindsplit",
        source=make_bivlc_noise_source(root / "bivlc.parquet"),
        reference=reference,
    )
    # the tests compare accuracies per configuration: each must hold samples
    for built in (sugarcrepe, bivlc):
        assert tuple(built.manifest["configs"]) == CONFIGURATIONS
    model, processor = tiny_clip()
    model.save_pretrained(root / "tiny-clip")
    processor.save_pretrained(root / "tiny-clip")
    return {
        "root": root,
        "source": source,
        "sugarcrepe": sugarcrepe,
        "bivlc": bivlc,
        "model_dir": root / "tiny-clip",
        "model": model.eval(),
        "processor": processor,
    }


def bindsplit_metrics(work: dict[str, Any], built: Path) -> dict[str, Any]:
    record = evaluate_model(str(work["model_dir"]), built, n_bootstrap=10)
    return record["metrics"]


def test_mieb_evaluates_every_configuration_like_bindsplit(work, monkeypatch):
    mteb = pytest.importorskip("mteb")
    from mteb.models.model_implementations.clip_models import CLIPModel

    encoder = CLIPModel(str(work["model_dir"]), revision=None, device="cpu")
    # MIEB's metadata of a CLIP model (image and text modalities); the weights are the tiny CLIP's
    encoder.mteb_model_meta = mteb.get_model_meta("openai/clip-vit-base-patch32")
    monkeypatch.setattr(mteb, "get_model", lambda name, **kwargs: encoder)
    monkeypatch.chdir(work["root"])
    define, run, _ = python_blocks()
    namespace: dict[str, Any] = {}
    exec(define, namespace)  # noqa: S102 - the documented task definition, verbatim
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(run, namespace)  # noqa: S102 - the documented run, verbatim
    scores = {s["hf_subset"]: s for s in namespace["results"].task_results[0].scores["test"]}
    ours = bindsplit_metrics(work, work["sugarcrepe"].path)
    assert set(scores) == set(work["sugarcrepe"].manifest["configs"])
    for config, score in scores.items():
        assert score["text_acc"] == pytest.approx(ours[f"{config}/i2t"], abs=1e-6)
        assert score["image_acc"] == 0.0  # one image: not meaningful in MIEB (see the doc)
        assert f"{config} {score['text_acc']}" in printed.getvalue()
    # a single configuration, and a two-image benchmark: text/image/group accuracies
    unseen = namespace["bindsplit_task"](work["sugarcrepe"].path, ["unseen"])
    assert unseen.metadata.eval_langs == {"unseen": ["eng-Latn"]}
    task = namespace["bindsplit_task"](work["bivlc"].path)
    assert task.images_column_names == ("image", "negative_image")
    results = mteb.evaluate(encoder, tasks=[task], cache=None, show_progress_bar=False)
    ours = bindsplit_metrics(work, work["bivlc"].path)
    for score in results.task_results[0].scores["test"]:
        config = score["hf_subset"]
        assert score["text_acc"] == pytest.approx(ours[f"{config}/i2t"], abs=1e-6)
        assert score["image_acc"] == pytest.approx(ours[f"{config}/t2i"], abs=1e-6)
        assert score["accuracy"] == pytest.approx(ours[f"{config}/group"], abs=1e-6)


class _EncodeMethods(torch.nn.Module):
    """The tiny CLIP behind the two methods CLIP_benchmark's evaluation calls."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def encode_image(self, pixel_values: torch.Tensor) -> torch.Tensor:
        return feature_tensor(self.model.get_image_features(pixel_values=pixel_values))

    def encode_text(self, input_ids: torch.Tensor) -> torch.Tensor:
        return feature_tensor(self.model.get_text_features(input_ids=input_ids))


def test_clip_benchmark_evaluates_each_configuration_written_back(work, monkeypatch):
    pytest.importorskip("clip_benchmark")
    from clip_benchmark.datasets.builder import (
        build_dataset,
        get_dataset_collate_fn,
        get_dataset_default_task,
    )
    from clip_benchmark.metrics import image_caption_selection

    monkeypatch.chdir(work["root"])
    namespace: dict[str, Any] = {}
    exec(python_blocks()[2], namespace)  # noqa: S102 - the documented export, verbatim
    written = {
        config: namespace["write_sugarcrepe_layout"](BUILT_NAME, config, f"check/{config}")
        for config in work["sugarcrepe"].manifest["configs"]
    }
    processor = work["processor"]
    model = _EncodeMethods(work["model"])

    def transform(image):
        return processor.image_processor(images=image.convert("RGB"), return_tensors="pt")[
            "pixel_values"
        ][0]

    def tokenizer(texts):
        return processor.tokenizer(texts, padding=True, truncation=True, return_tensors="pt")[
            "input_ids"
        ]

    ours = bindsplit_metrics(work, work["sugarcrepe"].path)
    for config, subsets in written.items():
        root = Path("clip_benchmark_data") / config  # what the documented loop wrote
        assert sorted(p.stem for p in root.glob("*.json")) == sorted(subsets)
        correct = 0.0
        for subset, n in subsets.items():
            name = f"sugar_crepe/{subset}"
            task = get_dataset_default_task(name)
            assert task == "image_caption_selection"
            dataset = build_dataset(
                name, root=str(root), transform=transform, split="test", task=task
            )
            assert len(dataset) == n
            loader = torch.utils.data.DataLoader(
                dataset, batch_size=4, collate_fn=get_dataset_collate_fn(name)
            )
            metrics = image_caption_selection.evaluate(model, loader, tokenizer, "cpu", amp=False)
            correct += metrics["text_acc"] * n
        assert correct / sum(subsets.values()) == pytest.approx(ours[f"{config}/i2t"], abs=1e-6)
    # the images written back are the COCO files the source named, byte for byte
    unseen = json.loads(next((Path("clip_benchmark_data") / "unseen").glob("*.json")).read_text())
    name = next(iter(unseen.values()))["filename"]
    assert name in {coco_filename(i) for i in range(100, 120)}
    written_image = Path("clip_benchmark_data") / "unseen" / "val2017" / name
    assert written_image.read_bytes() == (work["source"] / "val2017" / name).read_bytes()


def test_the_documented_columns_are_what_load_dataset_returns(work):
    unseen = datasets.load_dataset(str(work["sugarcrepe"].path), "unseen")
    assert list(unseen) == ["test"]
    features = unseen["test"].features
    assert isinstance(features["image"], datasets.Image)
    for column in ("filename", "caption", "negative_caption", "subset"):
        assert features[column] == datasets.Value("string")
    doc = DOC.read_text(encoding="utf-8")
    assert "| `sugarcrepe` | `image` | `caption`, `negative_caption` |" in doc


def bash_blocks() -> list[str]:
    return re.findall(r"```bash\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_documented_loops_skip_an_empty_configuration(tmp_path, monkeypatch):
    """Every binding seen: `unseen` and `partial` have 0 rows (schema-only shards). The MIEB
    task leaves them out, the CLIP_benchmark export writes nothing for them, and the shell loop
    runs the harness only on subset files that exist."""
    import os
    import stat
    import subprocess

    reference = tmp_path / "reference.txt"
    everything = [f"a {a} {o}" for a in ATTRIBUTES for o in OBJECTS]
    reference.write_text("\n".join(everything) + "\n", encoding="utf-8")
    source = make_sugarcrepe_source(tmp_path / "sugar-crepe", sugarcrepe_samples())
    built = build_benchmark(
        "sugarcrepe",
        out=tmp_path / BUILT_NAME,
        source=source,
        reference=reference,
        source_options={"images": source / "val2017"},
    )
    empty = {config for config, n in built.manifest["configs"].items() if not n}
    assert {"unseen", "partial"} <= empty
    monkeypatch.chdir(tmp_path)
    define, _, export = python_blocks()
    if importlib.util.find_spec("mteb") is not None:
        namespace: dict[str, Any] = {}
        exec(define, namespace)  # noqa: S102 - the documented task definition, verbatim
        task = namespace["bindsplit_task"](built.path)
        assert set(task.metadata.eval_langs) == set(built.manifest["configs"]) - empty
    exec(export, {})  # noqa: S102 - the documented export, verbatim
    written = {path.name for path in (tmp_path / "clip_benchmark_data").iterdir()}
    assert written == set(built.manifest["configs"]) - empty
    (tmp_path / "clip_benchmark_data" / "nothing").mkdir()  # a root without subset files
    # the documented shell loop, with a stand-in `clip_benchmark` that logs its --dataset
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "clip_benchmark"
    fake.write_text('#!/bin/sh\necho "$3" >> calls.log\n', encoding="utf-8")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["bash", "-c", bash_blocks()[0]], env=env, check=True)
    calls = (tmp_path / "calls.log").read_text(encoding="utf-8").split()
    assert calls and all(call.startswith("sugar_crepe/") and "*" not in call for call in calls)
