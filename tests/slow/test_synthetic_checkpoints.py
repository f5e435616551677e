"""The tiny CLIPs shipped with the synthetic world, and the training script that makes them."""

from __future__ import annotations

import json

import pytest
import torch
from transformers import AutoModel, AutoProcessor, CLIPModel, CLIPProcessor

from bindsplit_datasets.downloads import file_digest
from bindsplit_datasets.synthetic import (
    CHECKPOINTS,
    STRATA,
    checkpoint_path,
    default_world,
    generate_test_samples,
    reference_index,
    render_scene,
)
from bindsplit_datasets.synthetic.models import MAX_TEXT_LENGTH
from bindsplit_datasets.synthetic.train import (
    Encoder,
    TrainConfig,
    contrastive_loss,
    evaluate,
    save_checkpoint,
    swap_accuracies,
    train,
)

# the model stack (torch, transformers): not part of `make test-fast`
MAX_CHECKPOINT_BYTES = 10 * 1024 * 1024


@pytest.fixture(scope="module")
def world():
    return default_world()


@pytest.fixture(scope="module")
def index(world):
    return reference_index(world)  # every triple of a seen configuration counted


@pytest.fixture(scope="module")
def seen_samples(world, index):
    """The first seen samples of the default test benchmark (never trained on: new renderings)."""
    samples = generate_test_samples(world, index, n_per_stratum=16)
    return [s for s in samples if s.stratum == "seen"]


def _scores(model, processor, sample, padding):
    images = [render_scene(spec.scene, 64) for spec in sample.specs]
    inputs = processor(
        images=images, text=list(sample.captions), return_tensors="pt", padding=padding
    )
    with torch.no_grad():
        return model(**inputs).logits_per_image  # [image, caption]


@pytest.mark.parametrize("name", sorted(CHECKPOINTS))
def test_shipped_checkpoint_loads_like_any_clip(name, world):
    path = checkpoint_path(name)
    assert (path / "model.safetensors").stat().st_size <= MAX_CHECKPOINT_BYTES
    model = AutoModel.from_pretrained(path)
    processor = AutoProcessor.from_pretrained(path)
    assert isinstance(model, CLIPModel) and isinstance(processor, CLIPProcessor)
    tokenizer = processor.tokenizer
    text_config = model.config.text_config
    # small vocabulary: pool at the tokenizer's real end token, never by the legacy argmax rule
    assert text_config.eos_token_id == tokenizer.eos_token_id != 2
    assert text_config.pad_token_id == tokenizer.pad_token_id
    assert tokenizer("an orange star")["input_ids"][-1] == tokenizer.eos_token_id
    assert tokenizer.unk_token_id in tokenizer("a red zebra")["input_ids"]
    pixels = processor(images=[render_scene(_any_scene(world), 64)], return_tensors="pt")[
        "pixel_values"
    ]
    assert tuple(pixels.shape) == (1, 3, 64, 64)


def _any_scene(world):
    from bindsplit_datasets.synthetic import training_scene

    return training_scene(world, 0, 0).scene


@pytest.mark.parametrize("name", sorted(CHECKPOINTS))
def test_shipped_checkpoint_scores_held_out_seen_samples_correctly(name, seen_samples):
    path = checkpoint_path(name)
    model = AutoModel.from_pretrained(path).eval()
    processor = AutoProcessor.from_pretrained(path)
    first = _scores(model, processor, seen_samples[0], padding=True)
    assert first[0, 0] > first[0, 1] and first[1, 1] > first[1, 0]  # I2T on the first seen sample
    scores = torch.stack([_scores(model, processor, s, padding=True) for s in seen_samples])
    assert swap_accuracies(scores)["i2t"].float().mean() >= 0.75


@pytest.mark.parametrize("name", sorted(CHECKPOINTS))
def test_standard_processor_path_gives_the_training_embeddings(name, world, seen_samples):
    path = checkpoint_path(name)
    model = AutoModel.from_pretrained(path).eval()
    processor = AutoProcessor.from_pretrained(path)
    encoder = Encoder(world)
    sample = seen_samples[1]
    with torch.no_grad():
        images = Encoder.image_embeddings(model, encoder.pixels(sample.specs))
        texts = Encoder.text_embeddings(model, *encoder.tokens(list(sample.captions)))
    expected = model.logit_scale.exp() * images @ texts.T
    for padding in (True, "max_length"):
        torch.testing.assert_close(
            _scores(model, processor, sample, padding), expected, atol=1e-4, rtol=1e-4
        )
    encoded = processor.tokenizer(list(sample.captions), padding="max_length")
    assert len(encoded["input_ids"][0]) == MAX_TEXT_LENGTH


@pytest.mark.parametrize("name", sorted(CHECKPOINTS))
def test_training_report_is_complete(name):
    path = checkpoint_path(name)
    report = json.loads((path / "training_report.json").read_text())
    assert report["model"] == name
    assert report["steps"] > 0 and report["train_seconds"] > 0
    assert report["checkpoint_bytes"] == (path / "model.safetensors").stat().st_size
    assert report["checkpoint_sha256"] == file_digest(path / "model.safetensors")
    assert report["world"]["fingerprint"] == default_world().fingerprint
    assert report["world"]["held_out_relations"] == default_world().to_dict()["held_out_relations"]
    for key in ("accuracy", "relation_accuracy"):  # attribute and relation samples
        assert set(report[key]) == set(STRATA)
        for stratum in STRATA:
            assert report[key][stratum]["n"] == report["evaluation"]["n_per_stratum"]
            assert {"i2t", "t2i", "group"} <= set(report[key][stratum])
    assert "not with the project's scorer" in report["evaluation"]["note"]
    assert (path / "training_report.md").read_text().startswith(f"# Training report: `{name}`")


def test_swap_accuracies_use_strict_comparisons():
    scores = torch.tensor(
        [
            [[0.9, 0.1], [0.2, 0.8]],  # all right
            [[0.9, 0.1], [0.95, 0.97]],  # I2T right, T2I wrong (image 1 beats image 0 on caption 0)
            [[0.5, 0.5], [0.1, 0.9]],  # a tie is wrong
        ]
    )
    result = swap_accuracies(scores)
    assert result["i2t"].tolist() == [True, True, False]
    assert result["t2i"].tolist() == [True, False, True]
    assert result["group"].tolist() == [True, False, False]


def test_contrastive_loss_is_clip_loss_with_shared_captions_as_positives():
    logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 1.5, 0.3], [0.0, 0.2, 1.0]])
    plain = 0.5 * (
        torch.nn.functional.cross_entropy(logits, torch.arange(3))
        + torch.nn.functional.cross_entropy(logits.T, torch.arange(3))
    )
    torch.testing.assert_close(contrastive_loss(logits, ["a", "b", "c"]), plain)
    # captions 0 and 2 are the same text: each of their rows targets both, half each
    log_i2t = torch.log_softmax(logits, dim=1)
    log_t2i = torch.log_softmax(logits.T, dim=1)

    def row(log, i, targets):
        return -sum(log[i, j] for j in targets) / len(targets)

    expected = 0.5 * (
        (row(log_i2t, 0, [0, 2]) + row(log_i2t, 1, [1]) + row(log_i2t, 2, [0, 2])) / 3
        + (row(log_t2i, 0, [0, 2]) + row(log_t2i, 1, [1]) + row(log_t2i, 2, [0, 2])) / 3
    )
    torch.testing.assert_close(contrastive_loss(logits, ["a", "b", "a"]), expected)


@pytest.mark.parametrize("name", ["clip", "negclip"])
def test_training_is_seeded_and_saves_a_loadable_checkpoint(name, world, index, tmp_path):
    config = TrainConfig(model=name, steps=2, batch_size=8, eval_n_per_stratum=2)
    model, report = train(config, world, index=index, progress=False)
    again, _ = train(config, world, index=index, progress=False)
    for (key, a), b in zip(model.state_dict().items(), again.state_dict().values(), strict=True):
        assert torch.equal(a, b), key
    assert report["steps"] == 2 and not report["stopped_early"]
    assert {s: a["n"] for s, a in report["accuracy"].items()} == {s: 2 for s in STRATA}
    assert {s: a["n"] for s, a in report["relation_accuracy"].items()} == {s: 2 for s in STRATA}
    out = save_checkpoint(model, world, report, tmp_path / name)
    assert sorted(p.name for p in out.iterdir()) == [
        "config.json",
        "model.safetensors",
        "preprocessor_config.json",
        "tokenizer.json",
        "tokenizer_config.json",
        "training_report.json",
        "training_report.md",
    ]
    loaded = AutoModel.from_pretrained(out)
    for key, value in model.state_dict().items():
        assert torch.equal(loaded.state_dict()[key], value), key
    samples = list(generate_test_samples(world, index, n_per_stratum=2))
    assert evaluate(loaded, Encoder(world), samples) == report["accuracy"]
