"""Hugging Face models: weights that do not load are refused by name, the shipped checkpoints
load cleanly, BLIP retrieval checkpoints score with their contrastive heads, BLIP-2 is refused,
and every bad model path or id fails with one clear line."""

from __future__ import annotations

import shutil
import sys

import numpy as np
import pytest
import torch
from safetensors.torch import load_file, save_file
from tiny_models import tiny_bivlc_like, tiny_blip_retrieval, tiny_clip
from transformers import Blip2Config

from bindsplit_datasets.errors import (
    CorruptWeightsError,
    MissingExtraError,
    ModelNotFoundError,
    NotAModelFolderError,
    UnsupportedModelError,
    WeightsMismatchError,
)
from bindsplit_datasets.models import Encoder, HFEncoder, load_encoder
from bindsplit_datasets.models.identity import weights_digest
from bindsplit_datasets.scoring.scorer import Scorer
from bindsplit_datasets.synthetic import checkpoint_path

# the model stack (torch, transformers): not part of `make test-fast`
IMAGES, CAPTIONS = ("image", "negative_image"), ("caption", "negative_caption")


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hf") / "tiny-clip"
    model, processor = tiny_clip(seed=2)
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder


def edited_copy(saved, target, edit):
    """A copy of the saved model whose weights went through ``edit(dict)``."""
    folder = shutil.copytree(saved, target)
    weights = load_file(folder / "model.safetensors")
    edit(weights)
    save_file(weights, str(folder / "model.safetensors"), metadata={"format": "pt"})
    return folder


@pytest.mark.parametrize("name", ["clip", "negclip"])
def test_shipped_checkpoints_load_cleanly(name):
    encoder = load_encoder(str(checkpoint_path(name)))
    assert isinstance(encoder, Encoder) and type(encoder.module).__name__ == "CLIPModel"
    assert encoder.identity.id == name and encoder.identity.weights


def test_a_removed_weight_is_refused_by_name(saved, tmp_path):
    broken = edited_copy(saved, tmp_path / "broken", lambda w: w.pop("text_projection.weight"))
    with pytest.raises(
        WeightsMismatchError, match=r"missing \['text_projection.weight'\]"
    ) as error:
        load_encoder(str(broken))
    assert "\n" not in str(error.value) and "do not fit CLIPModel" in str(error.value)


def test_an_unexpected_weight_is_refused_by_name(saved, tmp_path):
    def add(weights):
        weights["text_model.extra_head.weight"] = torch.zeros(2, 2)

    broken = edited_copy(saved, tmp_path / "extra", add)
    with pytest.raises(
        WeightsMismatchError, match=r"unexpected \['text_model.extra_head.weight'\]"
    ):
        load_encoder(str(broken))


def test_truncated_weights_are_refused(saved, tmp_path):
    broken = shutil.copytree(saved, tmp_path / "truncated")
    path = broken / "model.safetensors"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(CorruptWeightsError, match="cannot be read.*truncated or damaged"):
        load_encoder(str(broken))


def test_bad_paths_and_ids_are_clear(saved, tmp_path):
    with pytest.raises(NotAModelFolderError, match="model.safetensors is a file; pass the folder"):
        load_encoder(str(saved / "model.safetensors"))
    with pytest.raises(NotAModelFolderError, match="has no config.json"):
        load_encoder(str(tmp_path))
    with pytest.raises(ModelNotFoundError, match="neither a local folder nor a Hub model id"):
        load_encoder(str(tmp_path / "missing" / "deep"))
    # tests run offline (conftest): an unknown Hub id cannot be looked up
    with pytest.raises(ModelNotFoundError, match=r"not in the Hugging Face cache.*offline"):
        load_encoder("nobody/no-such-model")
    no_processor = shutil.copytree(saved, tmp_path / "no_processor")
    for name in ("processor_config.json", "tokenizer.json", "tokenizer_config.json"):
        (no_processor / name).unlink(missing_ok=True)
    with pytest.raises(NotAModelFolderError, match="processor.save_pretrained"):
        load_encoder(str(no_processor))


def test_missing_scoring_extra_names_it(saved, monkeypatch):
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(MissingExtraError, match=r"bindsplit-datasets\[scoring\]"):
        load_encoder(str(saved))


def test_identity_of_a_local_folder_is_its_name_and_weights(saved):
    model, _ = tiny_clip(seed=2)
    identity = load_encoder(str(saved)).identity
    assert identity.to_record() == {
        "id": "tiny-clip",
        "revision": None,
        "weights": weights_digest(model),
        "class": "CLIPModel",
        "library": "transformers",
    }
    assert load_encoder(str(saved), name="my clip").identity.id == "my clip"


def test_blip_retrieval_scores_with_its_contrastive_heads(tmp_path):
    model, processor = tiny_blip_retrieval(seed=1)
    model.save_pretrained(tmp_path / "blip")
    processor.save_pretrained(tmp_path / "blip")
    encoder = load_encoder(str(tmp_path / "blip"))
    assert type(encoder.module).__name__ == "BlipForImageTextRetrieval"

    rows = tiny_bivlc_like(6, n_images=13)
    scores = Scorer(encoder).score(rows, IMAGES, CAPTIONS).scores
    expected = []
    with torch.no_grad():
        for row in rows:
            inputs = processor(
                images=[row[c] for c in IMAGES],
                text=[row[c] for c in CAPTIONS],
                padding=True,
                return_tensors="pt",
            )
            # BLIP's own image-text contrastive similarity (cosine of the projected [CLS] states)
            expected.append(encoder.module(**inputs, use_itm_head=False).itm_score.numpy())
    np.testing.assert_allclose(scores, np.stack(expected), atol=1e-5)
    assert np.ptp(scores) > 0.005  # not a constant


def test_blip2_is_refused_with_the_reason(tmp_path):
    Blip2Config().save_pretrained(tmp_path / "blip2")
    with pytest.raises(UnsupportedModelError, match="BLIP-2 .*Blip2ForImageTextRetrieval"):
        load_encoder(str(tmp_path / "blip2"))


def test_loaded_models_need_feature_methods_and_a_processor():
    with pytest.raises(UnsupportedModelError, match="Linear has no get_image_features"):
        HFEncoder(torch.nn.Linear(2, 2), tiny_clip()[1])
    with pytest.raises(ValueError, match="a processor is needed"):
        HFEncoder(tiny_clip()[0], None)


def test_a_hub_model_is_recorded_by_id_and_commit(saved, tmp_path, monkeypatch):
    # a Hub cache holding "someone/tiny-clip" at one commit, as a download leaves it
    commit = "0123456789abcdef0123456789abcdef01234567"
    repo = tmp_path / "hub" / "models--someone--tiny-clip"
    shutil.copytree(saved, repo / "snapshots" / commit)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hub"))
    identity = load_encoder("someone/tiny-clip").identity
    assert (identity.id, identity.revision, identity.weights) == ("someone/tiny-clip", commit, None)
