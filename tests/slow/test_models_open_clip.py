"""open_clip models: scores equal a naive per-sample open_clip forward (through the scorer,
evaluate_model and `bindsplit eval`), weights that do not load and bad model strings are refused
with one clear error."""

from __future__ import annotations

import json
import shutil
import sys

import numpy as np
import open_clip
import pytest
import torch
from fixtures_sources import label_names
from safetensors.torch import load_file, save_file
from tiny_models import (
    BivlcLikeAdapter,
    naive_open_clip_scores,
    tiny_bivlc_like,
    tiny_open_clip_dir,
)

from bindsplit_datasets import cli, evaluate_model
from bindsplit_datasets.errors import (
    CorruptWeightsError,
    InvalidModelSpecError,
    MissingExtraError,
    ModelNotFoundError,
    NotAModelFolderError,
    WeightsMismatchError,
)
from bindsplit_datasets.metric_core import GAPS, SETTINGS_KEYS, accumulate, compute_metrics
from bindsplit_datasets.models import Encoder, OpenClipEncoder, load_encoder
from bindsplit_datasets.models.open_clip import parse_spec
from bindsplit_datasets.names import CONFIGURATIONS
from bindsplit_datasets.scoring.scorer import Scorer

# the model stack (torch, transformers): not part of `make test-fast`
pytestmark = pytest.mark.usefixtures("test_adapters")

IMAGES, CAPTIONS = BivlcLikeAdapter.image_columns, BivlcLikeAdapter.caption_columns


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tiny_open_clip_dir(tmp_path_factory.mktemp("open_clip") / "tiny-oc", seed=3)


@pytest.fixture(scope="module")
def reference(folder):
    """The model as open_clip itself loads it, with its own transform and tokenizer."""
    model, preprocess = open_clip.create_model_from_pretrained(f"local-dir:{folder}")
    return model.eval(), preprocess, open_clip.get_tokenizer(f"local-dir:{folder}")


@pytest.fixture(scope="module")
def rows():
    # images repeat across samples but never within one: the naive forward of a batch holding
    # one image twice gives two embeddings a rounding error apart, where the scorer's single
    # embedding is an exact tie (a wrong T2I), so outcomes of such samples cannot be compared
    return tiny_bivlc_like(12, n_images=13)


@pytest.fixture(scope="module")
def naive(reference, rows):
    return naive_open_clip_scores(*reference, rows, IMAGES, CAPTIONS)


def naive_metrics(naive, rows, n_bootstrap):
    adapter = BivlcLikeAdapter()
    categories = [adapter.category(row) for row in rows]
    stats = accumulate(naive.numpy(), label_names(rows), categories, balanced=rows["balanced"])
    return compute_metrics(stats, n_bootstrap=n_bootstrap, seed=0)


def test_parse_spec_splits_architecture_and_tag_or_passes_schemas():
    assert parse_spec("ViT-B-32/laion2b_s34b_b79k") == ("ViT-B-32", "laion2b_s34b_b79k")
    assert parse_spec("ViT-B-32//data/ckpt.pt") == ("ViT-B-32", "/data/ckpt.pt")
    assert parse_spec("ViT-B-32") == ("ViT-B-32", None)
    assert parse_spec("hf-hub:laion/CLIP-ViT-B-32") == ("hf-hub:laion/CLIP-ViT-B-32", None)
    assert parse_spec("local-dir:/a/b/c") == ("local-dir:/a/b/c", None)


def test_scores_equal_naive_open_clip_forward(folder, naive, rows):
    encoder = load_encoder(f"open_clip:local-dir:{folder}")
    assert isinstance(encoder, Encoder) and isinstance(encoder, OpenClipEncoder)
    result = Scorer(encoder, batch_size=3).score(rows, IMAGES, CAPTIONS)
    assert result.scores.shape == (12, 2, 2)
    assert torch.allclose(torch.from_numpy(result.scores), naive, atol=1e-6)
    # 8 tokens: "a blue mug next to a dog" and "a dog next to a blue mug" are truncated, in both
    assert (result.n_truncated_captions, result.text_max_length) == (2, 8)


def test_count_truncated_matches_the_tokenizer(folder, reference):
    encoder = load_encoder(f"open_clip:local-dir:{folder}")
    tokenizer = reference[2]
    texts = ["two cats", "a red apple on a table", "a blue mug next to a dog", "x " * 40, ""]
    expected = sum(len(tokenizer.encode(text)) + 2 > 8 for text in texts)
    assert encoder.count_truncated(texts) == expected == 2


def test_identity_names_the_folder_and_digests_the_weights(folder, tmp_path):
    encoder = load_encoder(f"open_clip:local-dir:{folder}")
    record = encoder.identity.to_record()
    assert record["id"] == "open_clip:local-dir:tiny-oc"
    assert record["class"] == "CLIP" and record["library"] == "open_clip"
    assert str(folder.parent) not in json.dumps(record)
    # the same weights elsewhere: the same digest; a display name changes only the id
    copy = shutil.copytree(folder, tmp_path / "elsewhere")
    moved = load_encoder(f"open_clip:local-dir:{copy}", name="my model")
    assert moved.identity.weights == encoder.identity.weights
    assert moved.identity.id == "my model"
    other = load_encoder(f"open_clip:local-dir:{tiny_open_clip_dir(tmp_path / 'o', seed=4)}")
    assert other.identity.weights != encoder.identity.weights


def test_evaluate_model_and_cli_equal_naive_on_every_configuration(folder, build, naive, rows):
    expected = naive_metrics(naive, rows, 100)
    record = evaluate_model(f"open_clip:local-dir:{folder}", build, n_bootstrap=100, batch_size=5)
    numbers = {key.split("/")[0] for key in record["metrics"] if key not in SETTINGS_KEYS}
    assert numbers == {*CONFIGURATIONS, *GAPS}
    assert record["metrics"] == expected
    assert record["model"]["id"] == "open_clip:local-dir:tiny-oc"
    i2t = [int((m[0, 0] > m[0, 1]) and (m[1, 1] > m[1, 0])) for m in naive.numpy()]
    assert record["samples"]["i2t"] == i2t

    out = build.parent / "results.json"
    args = ["eval", "--model", f"open_clip:local-dir:{folder}", "--data", str(build)]
    assert cli.main([*args, "--out", str(out), "--n-bootstrap", "100"]) == 0
    assert json.loads(out.read_text())["metrics"] == expected


def test_a_removed_weight_is_refused_by_name(folder, tmp_path):
    broken = shutil.copytree(folder, tmp_path / "broken")
    weights = load_file(broken / "open_clip_model.safetensors")
    del weights["text_projection"]
    weights["extra.bias"] = torch.zeros(2)
    save_file(weights, str(broken / "open_clip_model.safetensors"))
    with pytest.raises(
        WeightsMismatchError,
        match=r"missing \['text_projection'\]; unexpected \['extra.bias'\]\)",
    ) as error:
        load_encoder(f"open_clip:local-dir:{broken}")
    assert "\n" not in str(error.value)


def test_truncated_weights_are_refused(folder, tmp_path):
    broken = shutil.copytree(folder, tmp_path / "truncated")
    path = broken / "open_clip_model.safetensors"
    path.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(CorruptWeightsError, match="truncated or damaged"):
        load_encoder(f"open_clip:local-dir:{broken}")


def test_model_strings_without_usable_weights_are_refused(folder, tmp_path):
    with pytest.raises(InvalidModelSpecError, match=r"names no weights.*laion2b_s34b_b79k"):
        load_encoder("open_clip:ViT-B-32")
    with pytest.raises(InvalidModelSpecError, match=r"'nope' is neither a pretrained tag.*openai"):
        load_encoder("open_clip:ViT-B-32/nope")
    with pytest.raises(InvalidModelSpecError, match=r"unknown open_clip architecture.*ViT-B-32"):
        load_encoder("open_clip:ViT-Q-99/openai")
    with pytest.raises(InvalidModelSpecError, match="revision applies to Hugging Face"):
        load_encoder(f"open_clip:local-dir:{folder}", revision="main")
    with pytest.raises(ModelNotFoundError, match="no folder"):
        load_encoder(f"open_clip:local-dir:{tmp_path / 'missing'}")
    (tmp_path / "file.bin").write_bytes(b"x")
    with pytest.raises(NotAModelFolderError, match="is a file"):
        load_encoder(f"open_clip:local-dir:{tmp_path / 'file.bin'}")
    with pytest.raises(NotAModelFolderError, match="no open_clip_config.json"):
        load_encoder(f"open_clip:local-dir:{tmp_path}")
    weightless = tmp_path / "weightless"
    weightless.mkdir()
    shutil.copy(folder / "open_clip_config.json", weightless)
    with pytest.raises(NotAModelFolderError, match=r"has no weights \(\*.safetensors"):
        load_encoder(f"open_clip:local-dir:{weightless}")


def test_offline_hub_model_is_a_clear_error():
    with pytest.raises(ModelNotFoundError, match="cannot load open_clip:hf-hub:nobody/nothing"):
        load_encoder("open_clip:hf-hub:nobody/nothing")


def test_missing_openclip_extra_names_it(folder, monkeypatch):
    monkeypatch.setitem(sys.modules, "open_clip", None)
    with pytest.raises(MissingExtraError, match=r"bindsplit-datasets\[openclip\]"):
        load_encoder(f"open_clip:local-dir:{folder}")


def test_open_clip_encoder_wraps_a_model_loaded_in_python(reference, naive, rows):
    model, preprocess, tokenizer = reference
    encoder = OpenClipEncoder(model, preprocess, tokenizer, name="mine")
    scores = Scorer(encoder).score(rows, IMAGES, CAPTIONS).scores
    np.testing.assert_allclose(scores, naive.numpy(), atol=1e-6)
    assert encoder.identity.id == "mine"
