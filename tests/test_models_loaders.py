"""The loader registry and the Encoder interface: model strings are routed by prefix, unknown
prefixes list the valid ones, and any object implementing the interface is scored like the
shipped encoders."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from tiny_models import naive_scores, tiny_bivlc_like, tiny_clip

from bindsplit_datasets.errors import (
    InvalidModelSpecError,
    UnknownModelPrefixError,
    UnsupportedModelError,
)
from bindsplit_datasets.models import (
    LOADERS,
    Encoder,
    HFEncoder,
    ModelIdentity,
    as_encoder,
    load_encoder,
    model_id,
    register_loader,
    split_spec,
)
from bindsplit_datasets.models.identity import weights_digest
from bindsplit_datasets.scoring.scorer import Scorer

IMAGES, CAPTIONS = ("image", "negative_image"), ("caption", "negative_caption")


def test_split_spec_routes_by_prefix(tmp_path):
    assert split_spec("open_clip:ViT-B-32/openai") == ("open_clip", "ViT-B-32/openai")
    assert split_spec("open_clip:hf-hub:org/name") == ("open_clip", "hf-hub:org/name")
    assert split_spec("open_clip:local-dir:/x/y") == ("open_clip", "local-dir:/x/y")
    assert split_spec("hf:openai/clip-vit-base-patch32") == ("hf", "openai/clip-vit-base-patch32")
    assert split_spec("openai/clip-vit-base-patch32") == ("hf", "openai/clip-vit-base-patch32")
    assert split_spec("C:/models/clip") == ("hf", "C:/models/clip")  # a drive, not a prefix
    odd = tmp_path / "run:3"
    odd.mkdir()
    assert split_spec(str(odd)) == ("hf", str(odd))  # an existing path is never split


def test_unknown_prefix_lists_the_valid_ones():
    with pytest.raises(UnknownModelPrefixError) as error:
        load_encoder("hf-hub:laion/CLIP-ViT-B-32")
    message = str(error.value)
    assert message.startswith("unknown model prefix 'hf-hub' in 'hf-hub:laion/CLIP-ViT-B-32'")
    assert "open_clip: open_clip:ARCH/PRETRAINED, open_clip:hf-hub:ORG/NAME" in message
    assert "hf: hf:OWNER/NAME or a local folder" in message


class ListEncoder:
    """A custom encoder: embeddings from a fixed linear map of pixel means and token counts."""

    max_text_length = 16

    def __init__(self) -> None:
        self.module = torch.nn.Linear(3, 4, bias=False)
        torch.nn.init.normal_(self.module.weight, generator=torch.Generator().manual_seed(0))
        self.identity = ModelIdentity(
            "list-encoder", None, weights_digest(self.module), "Linear", "custom"
        )

    def preprocess_images(self, images):
        arrays = [torch.tensor(np.asarray(image), dtype=torch.float32) for image in images]
        return {"means": torch.stack([a.mean(dim=(0, 1)) for a in arrays])}

    def tokenize(self, texts):
        counts = [[len(t), t.count(" "), t.count("a")] for t in texts]
        return {"counts": torch.tensor(counts, dtype=torch.float32)}

    def encode_images(self, inputs):
        return self.module(inputs["means"])

    def encode_texts(self, inputs):
        return self.module(inputs["counts"])

    def count_truncated(self, texts):
        return 0

    def preprocessing(self):
        return {"kind": "means-and-counts"}


def test_any_encoder_object_is_scored(tmp_path):
    encoder = ListEncoder()
    assert isinstance(encoder, Encoder) and as_encoder(encoder) is encoder
    rows = tiny_bivlc_like(6)
    result = Scorer(encoder, cache_dir=tmp_path).score(rows, IMAGES, CAPTIONS)
    with torch.no_grad():
        for row, matrix in zip(rows, result.scores, strict=True):
            images = encoder.encode_images(encoder.preprocess_images([row[c] for c in IMAGES]))
            texts = encoder.encode_texts(encoder.tokenize([row[c] for c in CAPTIONS]))
            expected = torch.nn.functional.normalize(images, dim=-1) @ (
                torch.nn.functional.normalize(texts, dim=-1).T
            )
            np.testing.assert_allclose(matrix, expected.numpy(), atol=1e-6)
    with pytest.raises(InvalidModelSpecError, match="own preprocessing"):
        as_encoder(encoder, "a processor")


def test_registered_loader_gets_the_rest_of_the_string(monkeypatch):
    monkeypatch.setitem(LOADERS, "list", LOADERS["hf"])  # restored after the test
    calls = []

    def load(spec, *, revision, name):
        calls.append((spec, revision, name))
        return ListEncoder()

    register_loader("list", load, "list:ANYTHING")
    encoder = load_encoder("list:some/thing", revision="r1", name="n")
    assert isinstance(encoder, ListEncoder) and calls == [("some/thing", "r1", "n")]


def test_loaded_hugging_face_models_and_strings_become_encoders(tmp_path):
    model, processor = tiny_clip()
    encoder = as_encoder(model, processor, name="mine")
    assert isinstance(encoder, HFEncoder) and encoder.identity.id == "mine"
    rows = tiny_bivlc_like(6)
    np.testing.assert_allclose(
        Scorer(encoder).score(rows, IMAGES, CAPTIONS).scores,
        naive_scores(model, processor, rows, IMAGES, CAPTIONS),
        atol=1e-5,
    )
    model.save_pretrained(tmp_path / "saved")
    processor.save_pretrained(tmp_path / "saved")
    assert as_encoder(tmp_path / "saved").identity.id == "saved"


def test_a_loaded_open_clip_model_points_to_its_wrapper():
    class OpenClipLike(torch.nn.Module):
        def encode_image(self, image):
            return image

        def encode_text(self, text):
            return text

    with pytest.raises(UnsupportedModelError, match=r"OpenClipEncoder\(model, preprocess"):
        as_encoder(OpenClipLike())


def test_model_id_is_what_the_record_will_carry(tmp_path):
    model, processor = tiny_clip()
    folder = tmp_path / "runs" / "clip-ft"
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    assert model_id(str(folder)) == model_id(folder) == "clip-ft"
    assert model_id(str(folder)) == load_encoder(str(folder)).identity.id
    assert model_id("openai/clip-vit-base-patch32") == "openai/clip-vit-base-patch32"
    assert model_id(f"open_clip:local-dir:{folder}") == "open_clip:local-dir:clip-ft"
    assert model_id("open_clip:ViT-B-32/openai") == "open_clip:ViT-B-32/openai"
    assert model_id(str(folder), name="mine") == "mine"
