"""The scorer: per-sample matrices equal a naive full forward, distinct inputs are encoded once,
the embedding cache skips the encoders, and unusable models or data fail clearly."""

from __future__ import annotations

import datasets
import numpy as np
import pyarrow.parquet as pq
import pytest
import torch
from fixtures_sources import label_names
from tiny_models import (
    TINY_CAPTIONS,
    naive_scores,
    png_bytes,
    random_image,
    reset_accelerate,
    tiny_bivlc_like,
    tiny_clip,
    tiny_siglip,
)
from transformers import CLIPModel
from transformers.modeling_outputs import BaseModelOutputWithPooling

from bindsplit_datasets.errors import SchemaError, ScoringOptionError, UnsupportedModelError
from bindsplit_datasets.metric_core import accumulate
from bindsplit_datasets.models.hf import HFEncoder, feature_tensor
from bindsplit_datasets.scoring.cache import EmbeddingCache
from bindsplit_datasets.scoring.scorer import Scorer
from bindsplit_datasets.scoring.scores_file import read_scores, write_scores

# the model stack (torch, transformers): not part of `make test-fast`
pytestmark = pytest.mark.usefixtures("fresh_accelerate")

IMAGES = ("image", "negative_image")
CAPTIONS = ("caption", "negative_caption")


@pytest.fixture(scope="module")
def bivlc_like() -> datasets.Dataset:
    return tiny_bivlc_like(12, n_images=5)


class CountingModel:
    """Counts the items that reach each feature method of a wrapped model."""

    def __init__(self, model) -> None:
        self.counts = {"images": 0, "captions": 0}
        original_image, original_text = model.get_image_features, model.get_text_features

        def get_image_features(pixel_values, **kwargs):
            self.counts["images"] += len(pixel_values)
            return original_image(pixel_values=pixel_values, **kwargs)

        def get_text_features(input_ids, attention_mask=None, **kwargs):
            self.counts["captions"] += len(input_ids)
            return original_text(input_ids=input_ids, attention_mask=attention_mask, **kwargs)

        model.get_image_features = get_image_features
        model.get_text_features = get_text_features


@pytest.mark.parametrize(
    ("build", "padding"),
    [(tiny_clip, True), (tiny_siglip, "max_length")],
    ids=["clip", "siglip"],
)
def test_matrices_equal_naive_full_forward(build, padding, bivlc_like):
    # 16 text positions: all but one of the captions are truncated, in both computations
    model, processor = build(max_text_positions=16)
    result = Scorer(HFEncoder(model, processor), batch_size=3).score(bivlc_like, IMAGES, CAPTIONS)
    expected = naive_scores(
        model, processor, bivlc_like, IMAGES, CAPTIONS, padding=padding, max_length=16
    )
    assert result.scores.shape == (12, 2, 2)
    np.testing.assert_allclose(result.scores, expected, atol=1e-5)
    assert result.n_truncated_captions == 4  # every caption of TINY_CAPTIONS but "two white cats"


def test_text_padding_follows_model_type():
    assert HFEncoder(*tiny_siglip()).text_padding == "max_length"
    assert HFEncoder(*tiny_clip()).text_padding == "longest"
    assert HFEncoder(*tiny_clip(), text_padding="max_length").text_padding == "max_length"


def test_each_distinct_image_and_caption_encoded_once(bivlc_like):
    model, processor = tiny_clip()
    counting = CountingModel(model)
    result = Scorer(HFEncoder(model, processor), batch_size=4).score(bivlc_like, IMAGES, CAPTIONS)
    assert (result.n_unique_images, result.n_unique_captions) == (5, len(TINY_CAPTIONS))
    assert counting.counts == {"images": 5, "captions": len(TINY_CAPTIONS)}
    assert result.n_samples == 12
    # rows 0 and 5 repeat the same images and captions: identical matrices, unlike rows 0 and 1
    np.testing.assert_array_equal(result.scores[5], result.scores[0])
    assert not np.array_equal(result.scores[1], result.scores[0])


def test_images_are_keyed_by_content_not_by_path(tmp_path):
    pixels = png_bytes(random_image(7))
    for name in ("a.png", "b.png"):
        (tmp_path / name).write_bytes(pixels)
    (tmp_path / "c.png").write_bytes(png_bytes(random_image(8)))
    dataset = datasets.Dataset.from_dict(
        {
            "image": [
                {"bytes": None, "path": str(tmp_path / "a.png")},
                {"bytes": pixels, "path": "x.png"},
            ],
            "negative_image": [
                {"bytes": None, "path": str(tmp_path / "b.png")},
                {"bytes": None, "path": str(tmp_path / "c.png")},
            ],
            "caption": ["a red apple", "a red apple"],
            "negative_caption": ["a green apple", "A red apple"],
        },
        features=datasets.Features(
            {
                "image": datasets.Image(),
                "negative_image": datasets.Image(),
                "caption": datasets.Value("string"),
                "negative_caption": datasets.Value("string"),
            }
        ),
    )
    result = Scorer(HFEncoder(*tiny_clip())).score(dataset, IMAGES, CAPTIONS)
    # a.png, b.png and the embedded bytes are one image; captions are keyed by exact string
    assert (result.n_unique_images, result.n_unique_captions) == (2, 3)
    assert result.scores[0, 0, 0] == result.scores[0, 1, 0] == result.scores[1, 0, 0]


class TensorCLIP(CLIPModel):
    """A transformers 4.x-style model: the feature methods return the embeddings tensor."""

    def get_image_features(self, pixel_values):
        return super().get_image_features(pixel_values=pixel_values).pooler_output

    def get_text_features(self, input_ids, attention_mask=None):
        return (
            super()
            .get_text_features(input_ids=input_ids, attention_mask=attention_mask)
            .pooler_output
        )


def test_tensor_and_output_object_models_score_alike(bivlc_like):
    model, processor = tiny_clip(seed=3)
    legacy = TensorCLIP(model.config).eval()
    legacy.load_state_dict(model.state_dict())
    expected = Scorer(HFEncoder(model, processor)).score(bivlc_like, IMAGES, CAPTIONS).scores
    np.testing.assert_array_equal(
        Scorer(HFEncoder(legacy, processor)).score(bivlc_like, IMAGES, CAPTIONS).scores, expected
    )


def test_feature_tensor_accepts_tensors_and_output_objects():
    embeddings = torch.arange(6.0).reshape(2, 3)
    assert feature_tensor(embeddings) is embeddings
    pooled = BaseModelOutputWithPooling(
        last_hidden_state=torch.zeros(2, 4, 3), pooler_output=embeddings
    )
    assert feature_tensor(pooled) is embeddings

    class Output:
        pooler_output = None
        image_embeds = embeddings

    assert feature_tensor(Output()) is embeddings
    with pytest.raises(UnsupportedModelError, match="pooler_output"):
        feature_tensor(("not", "embeddings"))


def test_cache_gives_identical_scores_and_skips_the_encoders(tmp_path, bivlc_like):
    model, processor = tiny_clip()
    first = Scorer(HFEncoder(model, processor), cache_dir=tmp_path).score(
        bivlc_like, IMAGES, CAPTIONS
    )
    assert (first.cache_hits, first.cache_misses) == (0, 10)

    counting = CountingModel(model)
    second = Scorer(HFEncoder(model, processor), cache_dir=tmp_path).score(
        bivlc_like, IMAGES, CAPTIONS
    )
    assert (second.cache_hits, second.cache_misses) == (10, 0)
    assert counting.counts == {"images": 0, "captions": 0}
    np.testing.assert_array_equal(second.scores, first.scores)

    # a superset of the data encodes only what is new
    larger = tiny_bivlc_like(12, n_images=6)
    third = Scorer(HFEncoder(model, processor), cache_dir=tmp_path).score(larger, IMAGES, CAPTIONS)
    assert (third.cache_hits, third.cache_misses) == (10, 1)
    assert counting.counts == {"images": 1, "captions": 0}


def test_cache_key_changes_with_weights_and_preprocessing(tmp_path):
    model, processor = tiny_clip()
    key = Scorer(HFEncoder(model, processor), cache_dir=tmp_path).cache.key
    assert Scorer(HFEncoder(model, processor), cache_dir=tmp_path).cache.key == key
    assert Scorer(HFEncoder(*tiny_clip(seed=1)), cache_dir=tmp_path).cache.key != key
    padded = HFEncoder(model, processor, text_padding="max_length")
    assert Scorer(padded, cache_dir=tmp_path).cache.key != key
    processor.image_processor.image_mean = [0.5, 0.5, 0.5]
    assert Scorer(HFEncoder(model, processor), cache_dir=tmp_path).cache.key != key


def test_cache_store_merges_and_round_trips(tmp_path):
    cache = EmbeddingCache(tmp_path, {"model": "m"})
    cache.store("images", {"a": np.array([1.0, 0.0], dtype=np.float32)})
    cache.store("images", {"b": np.array([0.0, 1.0], dtype=np.float32)})
    stored = EmbeddingCache(tmp_path, {"model": "m"}).load("images")
    assert sorted(stored) == ["a", "b"]
    np.testing.assert_array_equal(stored["b"], [0.0, 1.0])
    assert [p.name for p in cache.directory.iterdir() if p.name.endswith(".tmp")] == []


def test_bf16_mixed_precision_is_close_to_fp32(bivlc_like):
    model, processor = tiny_clip()
    full = Scorer(HFEncoder(model, processor)).score(bivlc_like, IMAGES, CAPTIONS).scores
    reset_accelerate()
    scorer = Scorer(HFEncoder(model, processor), mixed_precision="bf16")
    half = scorer.score(bivlc_like, IMAGES, CAPTIONS)
    assert scorer.mixed_precision == "bf16"
    assert half.scores.dtype == np.float32
    assert not np.array_equal(half.scores, full)  # autocast did run in bf16
    np.testing.assert_allclose(half.scores, full, atol=0.05)


def test_model_without_feature_methods_is_rejected():
    with pytest.raises(
        UnsupportedModelError, match=r"Linear has no get_image_features or get_text_features"
    ):
        HFEncoder(torch.nn.Linear(2, 2), tiny_clip()[1])
    with pytest.raises(ValueError, match="processor"):
        HFEncoder(tiny_clip()[0], None)


def test_the_scorer_takes_only_a_loaded_model():
    """Loading is the model registry's: the scorer refuses a model string or a bare model and
    says how to load it."""
    for model in ("openai/clip-vit-base-patch32", tiny_clip()[0]):
        with pytest.raises(UnsupportedModelError, match="takes a loaded model.*load_model"):
            Scorer(model)


def test_bad_columns_are_named(bivlc_like):
    scorer = Scorer(HFEncoder(*tiny_clip()))
    with pytest.raises(SchemaError, match="no image column 'picture'"):
        scorer.score(bivlc_like, ("picture",), CAPTIONS)
    with pytest.raises(SchemaError, match="'caption' is .*not datasets.Image"):
        scorer.score(bivlc_like, ("caption",), CAPTIONS)
    with pytest.raises(SchemaError, match=r"no caption column\(s\) \['text'\]"):
        scorer.score(bivlc_like, IMAGES, ("text",))


def test_saved_scores_reaggregate_identically(tmp_path, bivlc_like):
    result = Scorer(HFEncoder(*tiny_clip())).score(bivlc_like, IMAGES, CAPTIONS)
    labels = label_names(bivlc_like)
    categories = [
        f"{t}/{s}" for t, s in zip(bivlc_like["type"], bivlc_like["subtype"], strict=True)
    ]
    ids = [str(i) for i in range(12)]
    path = write_scores(tmp_path / "scores.parquet", result.scores, labels, categories, ids=ids)
    loaded = read_scores(path)
    assert loaded["splits"] == list(labels) and loaded["macro_groups"] == [None] * 12
    np.testing.assert_array_equal(np.array(loaded["scores"], dtype=np.float32), result.scores)
    assert accumulate(**loaded) == accumulate(result.scores, labels, categories)
    with pytest.raises(SchemaError, match="not a scores file written by"):
        bivlc_like.select_columns(["caption"]).to_parquet(tmp_path / "other.parquet")
        read_scores(tmp_path / "other.parquet")


def test_bad_mixed_precision_is_refused_before_accelerate_sees_it():
    with pytest.raises(ScoringOptionError, match="unknown mixed precision 'fp8x'; valid: no, bf16"):
        Scorer(HFEncoder(*tiny_clip()), mixed_precision="fp8x")
    # Accelerate keeps one configuration per process: later scorers are unaffected, whatever
    # precision they ask for
    assert Scorer(HFEncoder(*tiny_clip()), mixed_precision="bf16").mixed_precision == "bf16"
    assert Scorer(HFEncoder(*tiny_clip()), mixed_precision="no").mixed_precision == "no"
    with pytest.raises(ScoringOptionError, match="batch_size must be a positive integer"):
        Scorer(HFEncoder(*tiny_clip()), batch_size=0)


def damage_cache(cache: EmbeddingCache, kind: str, edit) -> None:
    """Rewrite the stored ``kind`` embeddings through ``edit(keys, embeddings)``."""
    path = cache.directory / f"{kind}.npz"
    with np.load(path) as stored:
        keys, embeddings = edit(stored["keys"], stored["embeddings"].copy())
    with open(path, "wb") as file:
        np.savez(file, keys=keys, embeddings=embeddings)


def nan_first(keys, embeddings):
    embeddings[0, 0] = np.nan
    return keys, embeddings


def wider(keys, embeddings):
    return keys, np.pad(embeddings, ((0, 0), (0, 2)))


@pytest.mark.parametrize(
    ("damage", "recomputed"),
    [
        ("truncated", {"images": 5, "captions": 5}),
        ("nan", {"images": 1, "captions": 0}),
        # all cached, images and captions disagree in width: which is wrong shows only once the
        # captions are encoded again, then the images are
        ("wrong_width", {"images": 5, "captions": 5}),
        ("captions_wrong_width", {"images": 0, "captions": 5}),
    ],
)
def test_damaged_cache_entries_are_discarded_and_recomputed(
    damage, recomputed, tmp_path, bivlc_like, caplog
):
    model, processor = tiny_clip()
    first = Scorer(HFEncoder(model, processor), cache_dir=tmp_path)
    expected = first.score(bivlc_like, IMAGES, CAPTIONS).scores
    cache = first.cache
    if damage == "truncated":
        for kind in ("images", "captions"):
            path = cache.directory / f"{kind}.npz"
            path.write_bytes(path.read_bytes()[:100])
    elif damage == "nan":
        damage_cache(cache, "images", nan_first)
    elif damage == "wrong_width":
        damage_cache(cache, "images", wider)
    else:
        damage_cache(cache, "captions", wider)

    counting = CountingModel(model)
    result = Scorer(HFEncoder(model, processor), cache_dir=tmp_path).score(
        bivlc_like, IMAGES, CAPTIONS
    )
    assert counting.counts == recomputed
    # an item encoded again in a batch of another size may differ in the last bit
    np.testing.assert_allclose(result.scores, expected, atol=1e-6)
    assert "discarding" in caplog.text
    # the damage is repaired: a third run encodes nothing
    counting.counts.update(images=0, captions=0)
    Scorer(HFEncoder(model, processor), cache_dir=tmp_path).score(bivlc_like, IMAGES, CAPTIONS)
    assert counting.counts == {"images": 0, "captions": 0}


def test_cache_of_images_with_a_foreign_width_is_replaced_when_only_captions_are_fresh(
    tmp_path, bivlc_like
):
    model, processor = tiny_clip()
    first = Scorer(HFEncoder(model, processor), cache_dir=tmp_path)
    expected = first.score(bivlc_like, IMAGES, CAPTIONS).scores
    damage_cache(first.cache, "images", wider)
    (first.cache.directory / "captions.npz").unlink()
    result = Scorer(HFEncoder(model, processor), cache_dir=tmp_path).score(
        bivlc_like, IMAGES, CAPTIONS
    )
    np.testing.assert_allclose(result.scores, expected, atol=1e-6)


def test_scores_file_carries_ids_and_balanced(tmp_path):
    scores = np.array([[[0.9, 0.1]], [[0.2, 0.3]]], dtype=np.float32)
    path = write_scores(
        tmp_path / "s.parquet",
        scores,
        ["seen", "unseen"],
        ids=["a-7", "b-2"],
        balanced=[True, False],
    )
    table = pq.read_table(path)
    assert table.column("id").to_pylist() == ["a-7", "b-2"]
    assert read_scores(path)["balanced"] == [True, False]
    plain = write_scores(tmp_path / "p.parquet", scores, ["seen", "unseen"], ids=["0", "1"])
    assert "balanced" not in read_scores(plain)


def test_worker_processes_and_prefetch_thread_give_the_same_scores(bivlc_like):
    model, processor = tiny_clip()
    threaded = Scorer(HFEncoder(model, processor), batch_size=2, num_workers=0)
    workers = Scorer(HFEncoder(model, processor), batch_size=2, num_workers=2)
    np.testing.assert_array_equal(
        workers.score(bivlc_like, IMAGES, CAPTIONS).scores,
        threaded.score(bivlc_like, IMAGES, CAPTIONS).scores,
    )


def test_a_preprocessing_error_reaches_the_caller(bivlc_like):
    encoder = HFEncoder(*tiny_clip())

    def broken(images):
        raise OSError("cannot identify image file")

    encoder.preprocess_images = broken
    with pytest.raises(OSError, match="cannot identify image file"):
        Scorer(encoder).score(bivlc_like, IMAGES, CAPTIONS)
