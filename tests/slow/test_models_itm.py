"""Pair scorers: a tiny random BLIP ITM model scores a build exactly as a naive per-pair forward
on every configuration, only the distinct pairs are scored, a callable plugs in, and bad ITM
checkpoints are refused naming their weights."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.torch import load_file, save_file
from tiny_models import (
    AroLikeAdapter,
    BivlcLikeAdapter,
    naive_metrics,
    tiny_blip_retrieval,
    tiny_clip,
    write_fake_build,
)
from transformers import AutoProcessor

from bindsplit_datasets import cli, evaluate_model
from bindsplit_datasets.errors import (
    NotAModelFolderError,
    SchemaError,
    UnsupportedModelError,
    WeightsMismatchError,
)
from bindsplit_datasets.models import CallablePairScorer, ItmPairScorer, model_id
from bindsplit_datasets.models.loaders import load_encoder
from bindsplit_datasets.scoring.scorer import Scorer

pytestmark = pytest.mark.usefixtures("test_adapters", "fresh_accelerate")

IMAGES, CAPTIONS = BivlcLikeAdapter.image_columns, BivlcLikeAdapter.caption_columns
CONFIGS = ("full", "seen", "unseen", "partial", "balanced")


@pytest.fixture(scope="module")
def itm_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("itm") / "tiny-blip-itm"
    model, processor = tiny_blip_retrieval(seed=3)
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder


def naive_itm_scores(model, processor, rows, images, captions) -> np.ndarray:
    """One ``model(...)`` forward per (image, caption) pair of every sample: log-odds of a
    match from BLIP's own ITM output, no deduplication, no batching."""
    matrices = []
    with torch.no_grad():
        for row in rows:
            matrix = np.zeros((len(images), len(captions)), dtype=np.float32)
            for i, image in enumerate(images):
                for j, caption in enumerate(captions):
                    inputs = processor(
                        images=row[image].convert("RGB"), text=row[caption], return_tensors="pt"
                    )
                    logits = model(**inputs, use_itm_head=True).itm_score[0]
                    matrix[i, j] = float(logits[1] - logits[0])
            matrices.append(matrix)
    return np.stack(matrices)


def test_cli_itm_folder_equals_naive_per_pair_forward(build, rows, itm_folder, tmp_path):
    out = tmp_path / "r.json"
    args = ["eval", "--model", f"itm:{itm_folder}", "--data", str(build), "--out", str(out)]
    assert cli.main([*args, "--n-bootstrap", "50", "--batch-size", "3"]) == 0
    record = json.loads(out.read_text())
    model, _ = tiny_blip_retrieval(seed=3)
    processor = AutoProcessor.from_pretrained(itm_folder)
    naive = naive_itm_scores(model, processor, rows, IMAGES, CAPTIONS)
    metrics = naive_metrics(naive, rows, BivlcLikeAdapter(), 50)
    for config in CONFIGS:
        assert record["metrics"][f"{config}/n"] == metrics[f"{config}/n"]
        for metric in ("i2t", "t2i", "group"):
            key = f"{config}/{metric}"
            assert (key in record["metrics"]) == (key in metrics)
            if key in metrics:
                assert record["metrics"][key] == metrics[key], key
    assert record["metrics"] == metrics
    assert record["model"]["id"] == "itm:tiny-blip-itm" == model_id(f"itm:{itm_folder}")
    assert record["model"]["scored_by"] == "pair scorer"
    assert record["model"]["class"] == "BlipForImageTextRetrieval"
    assert record["model"]["weights"]  # a folder: its weights identify it


def test_only_distinct_pairs_are_scored(rows):
    model, processor = tiny_blip_retrieval(seed=1)
    scorer = ItmPairScorer(model, processor)
    scored = []
    inner = scorer.score_pairs

    def counting(inputs):
        scored.append(len(inputs["input_ids"]))
        return inner(inputs)

    scorer.score_pairs = counting
    result = Scorer(scorer, batch_size=4).score(rows, IMAGES, CAPTIONS)
    naive = naive_itm_scores(model, processor, rows, IMAGES, CAPTIONS)
    np.testing.assert_allclose(result.scores, naive, atol=1e-5)
    # the rows repeat 5 images: every distinct (image, caption) pair is scored once
    pairs = {
        (row[image].tobytes(), row[caption])
        for row in rows
        for image in IMAGES
        for caption in CAPTIONS
    }
    assert len(pairs) < 4 * len(rows)
    assert result.n_unique_pairs == len(pairs) == sum(scored)


def test_one_by_two_benchmark_scores_two_pairs_per_sample(rows, tmp_path):
    model, processor = tiny_blip_retrieval(seed=2)
    aro = write_fake_build(tmp_path / "aro", rows, "_test_aro_like")
    record = evaluate_model(ItmPairScorer(model, processor), aro, n_bootstrap=0, name="blip")
    naive = naive_itm_scores(model, processor, rows, ("image",), CAPTIONS)
    assert record["metrics"] == naive_metrics(naive, rows, AroLikeAdapter(), 0)
    assert record["model"]["id"] == "blip" and "full/t2i" not in record["metrics"]


def test_callable_hook_and_its_refusals(build, rows):
    clip, processor = tiny_clip(seed=4)

    def score(images, captions):
        inputs = processor(images=images, text=captions, padding=True, return_tensors="pt")
        with torch.no_grad():
            image = clip.get_image_features(pixel_values=inputs["pixel_values"])
            text = clip.get_text_features(input_ids=inputs["input_ids"])
        image = getattr(image, "pooler_output", image)
        text = getattr(text, "pooler_output", text)
        return torch.nn.functional.cosine_similarity(image, text).tolist()

    by_callable = evaluate_model(score, build, name="clip-as-callable", n_bootstrap=0)
    by_encoder = evaluate_model(clip, build, processor=processor, n_bootstrap=0)
    assert by_callable["metrics"] == by_encoder["metrics"]
    assert by_callable["model"]["scored_by"] == "pair scorer"
    assert by_callable["model"]["id"] == "clip-as-callable"
    wrapped = CallablePairScorer(score, name="x")
    assert evaluate_model(wrapped, build, name="renamed", n_bootstrap=0)["model"]["id"] == (
        "renamed"
    )
    with pytest.raises(ValueError, match="needs a name"):
        evaluate_model(score, build)
    with pytest.raises(SchemaError, match="returned 1 rows for a batch of 4 pairs"):
        Scorer(CallablePairScorer(lambda images, captions: [0.0], name="bad"), batch_size=4).score(
            rows, IMAGES, CAPTIONS
        )
    with pytest.raises(SchemaError, match="not finite"):
        Scorer(CallablePairScorer(lambda i, c: [float("nan")] * len(c), name="nan")).score(
            rows, IMAGES, CAPTIONS
        )


def test_bad_itm_checkpoints_are_refused_naming_weights(itm_folder, tmp_path):
    weights = load_file(itm_folder / "model.safetensors")
    for change, word in (("drop", "missing"), ("add", "unexpected")):
        folder = tmp_path / change
        folder.mkdir()
        for item in itm_folder.iterdir():
            if item.name != "model.safetensors":
                (folder / item.name).write_bytes(item.read_bytes())
        changed = dict(weights)
        if change == "drop":
            changed.pop("itm_head.weight")
        else:
            changed["itm_head.extra"] = torch.zeros(2)
        save_file(changed, folder / "model.safetensors")
        with pytest.raises(WeightsMismatchError, match=rf"{word} \['itm_head"):
            load_encoder(f"itm:{folder}")
    clip = tmp_path / "clip"
    model, processor = tiny_clip()
    model.save_pretrained(clip)
    processor.save_pretrained(clip)

    with pytest.raises(UnsupportedModelError, match="is a clip checkpoint; itm: scores BLIP"):
        load_encoder(f"itm:{clip}")
    config = json.loads((clip / "config.json").read_text())
    del config["model_type"]
    (clip / "config.json").write_text(json.dumps(config))
    with pytest.raises(NotAModelFolderError, match="has no model_type"):
        load_encoder(str(clip))
