"""The shipped tagger: NLTK's tags exactly (on real captions when NLTK's data is at hand, and on
random models always), the export round trip, the file's integrity, and parsing on a machine
without NLTK data."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bindsplit_datasets.parsing import PARSER_VERSION, tagger, tagger_weights, tokenise
from bindsplit_datasets.parsing.version import content_digest, digest_inputs

SOURCE_FILES = [
    f"{tagger_weights.SOURCE_RESOURCE}.{part}.json" for part in ("weights", "tagdict", "classes")
]


def _nltk_model_dir() -> Path | None:
    """NLTK's averaged_perceptron_tagger_eng folder on NLTK_DATA, $BINDSPLIT_SHARED/nltk_data or
    ../shared/nltk_data, or None."""
    roots = [Path(p) for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    shared = os.environ.get("BINDSPLIT_SHARED")
    repo_root = Path(__file__).resolve().parents[1]
    roots.append((Path(shared) if shared else repo_root.parent / "shared") / "nltk_data")
    for root in roots:
        folder = root / "taggers" / tagger_weights.SOURCE_RESOURCE
        if all((folder / name).is_file() for name in SOURCE_FILES):
            return folder
    return None


def _nltk_tagger(model_dir: Path):
    """NLTK's own PerceptronTagger with the JSON model of ``model_dir`` (loaded as NLTK >= 3.9
    loads it: weights, tagdict and the set of classes)."""
    perceptron = pytest.importorskip("nltk.tag.perceptron")
    reference = perceptron.PerceptronTagger(load=False)
    weights, tagdict, classes = (
        json.loads((model_dir / name).read_text(encoding="utf-8")) for name in SOURCE_FILES
    )
    reference.model.weights = weights
    reference.tagdict = tagdict
    reference.classes = reference.model.classes = set(classes)
    return reference


@pytest.fixture(scope="module")
def nltk_model_dir() -> Path:
    folder = _nltk_model_dir()
    if folder is None:
        pytest.skip("NLTK's averaged_perceptron_tagger_eng not found (NLTK_DATA, BINDSPLIT_SHARED)")
    return folder


@pytest.fixture(scope="module")
def nltk_reference(nltk_model_dir):
    return _nltk_tagger(nltk_model_dir)


def _tags(reference, tokens: list[str]) -> list[str]:
    return [tag for _, tag in reference.tag(tokens)]


# ------------------------------------------------------------ the shipped file
def test_shipped_file_is_the_recorded_one_with_its_notice():
    data = tagger_weights._weights_path().read_bytes()
    assert hashlib.sha256(data).hexdigest() == tagger_weights.WEIGHTS_SHA256
    assert Path(str(tagger_weights._weights_path())) in digest_inputs()  # part of PARSER_VERSION
    assert PARSER_VERSION.endswith(content_digest())
    assert len(data) < 4_000_000
    notice = (tagger_weights._weights_path().parent / "NOTICE").read_text(encoding="utf-8")
    assert "MIT License" in notice and "Copyright 2013 Matthew Honnibal" in notice
    assert tagger_weights.SOURCE_RESOURCE in notice


def test_shipped_arrays_have_the_documented_layout():
    arrays = tagger_weights.load_arrays(tagger_weights._weights_path().read_bytes())
    tags = arrays["tags"].tolist()
    assert len(tags) == 45 and tags == sorted(tags, reverse=True) and "NN" in tags
    n_features = len(bytes(arrays["features"]).decode().split("\n"))
    assert arrays["indptr"][0] == 0 and arrays["indptr"][-1] == len(arrays["milli"])
    assert len(arrays["indptr"]) == n_features + 1
    assert len(arrays["columns"]) == len(arrays["milli"])
    assert int(arrays["columns"].max()) < len(tags)
    words = bytes(arrays["tagdict_words"]).decode().split("\n")
    assert len(words) == len(arrays["tagdict_tags"]) and "the" in words


def test_tagger_tags_hand_made_sentences_without_nltk():
    tagged = tagger.get_tagger().tag(tokenise("the dog sits on a red bench"))
    assert tagged == ["DT", "NN", "VBZ", "IN", "DT", "JJ", "NN"]
    assert tagger.get_tagger().tag([]) == []


# --------------------------------------------------- NLTK's tags on the real model
def test_tagger_gives_exactly_nltks_tags_on_hand_made_sentences(nltk_reference):
    sentences = [
        "A man riding a wave on top of a surfboard.",
        "The 1990 red-and-white bus, 12 seats, isn't parked at 8:25.",
        "Xylophonic zorbs glimmer quizzically",
        "-dash 2024 3rd",
        "",
    ]
    for sentence in sentences:
        tokens = tokenise(sentence)
        assert tagger.get_tagger().tag(tokens) == _tags(nltk_reference, tokens), sentence


def test_tagger_gives_exactly_nltks_tags_on_real_captions(nltk_reference, shared_data):
    captions = [
        annotation["caption"]
        for split in ("train", "val")
        for annotation in json.loads(
            (shared_data / f"coco_mini/captions_{split}2017.json").read_text(encoding="utf-8")
        )["annotations"]
    ]
    assert len(captions) >= 700
    for caption in captions:
        tokens = tokenise(caption)
        assert tagger.get_tagger().tag(tokens) == _tags(nltk_reference, tokens), caption


@pytest.mark.slow
def test_export_of_nltks_json_gives_the_shipped_arrays(nltk_model_dir, tmp_path):
    out = tmp_path / "model.npz"
    digest = tagger_weights.export_nltk_model(nltk_model_dir, out)
    assert digest == hashlib.sha256(out.read_bytes()).hexdigest()
    exported = tagger_weights.load_arrays(out.read_bytes())
    shipped = tagger_weights.load_arrays(tagger_weights._weights_path().read_bytes())
    for name, array in shipped.items():
        assert array.dtype == exported[name].dtype and array.tolist() == exported[name].tolist()


# ------------------------------------------- random models: export + matrix == NLTK
#: Few distinct weights, so that ties between tags happen.
WEIGHTS = (-1.5, -0.25, 0.001, 0.5, 1.0, 2.75)


def _random_model(
    rng: random.Random, folder: Path, values: tuple[float, ...] = WEIGHTS
) -> list[str]:
    """A random JSON model in NLTK's layout over a small vocabulary, its weights drawn from
    ``values``; returns the vocabulary."""
    tags = ["NN", "NNS", "JJ", "DT", "VB", "VBZ", "IN", "CC"]
    vocabulary = ["the", "a", "dog", "dogs", "red", "runs", "on", "and", "mat", "-x", "1990", "7"]
    words = [*vocabulary, "-START-", "-START2-", "-END-", "-END2-", "!YEAR", "!DIGITS", "!HYPHEN"]
    features = ["bias"]
    for word in words:
        features += [f"i word {word}", f"i-1 word {word}", f"i+1 word {word}", f"i+2 word {word}"]
        features += [f"i suffix {word[-3:]}", f"i pref1 {word[0]}", f"i-1 suffix {word[-3:]}"]
    for tag in [*tags, "-START-", "-START2-"]:
        features += [f"i-1 tag {tag}", f"i-2 tag {tag}", f"i-1 tag+i word {tag} dog"]
    weights = {}
    for feature in dict.fromkeys(features):
        chosen = rng.sample(tags, rng.randint(0, 4))
        weights[feature] = {tag: rng.choice(values) for tag in chosen}
    tagdict = {"the": "DT", "and": "CC"}
    for name, value in zip(SOURCE_FILES, (weights, tagdict, tags), strict=True):
        (folder / name).write_text(json.dumps(value), encoding="utf-8")
    return vocabulary


def test_export_and_matrix_tagger_equal_nltk_on_random_models(tmp_path):
    rng = random.Random(5)
    for round_ in range(5):
        folder = tmp_path / str(round_)
        folder.mkdir()
        vocabulary = _random_model(rng, folder)
        tagger_weights.export_nltk_model(folder, folder / "model.npz")
        arrays = tagger_weights.load_arrays((folder / "model.npz").read_bytes())
        ours = tagger.MatrixPerceptronTagger(arrays)
        reference = _nltk_tagger(folder)
        for _ in range(200):
            tokens = [rng.choice([*vocabulary, "unseen"]) for _ in range(rng.randint(0, 9))]
            assert ours.tag(tokens) == _tags(reference, tokens), tokens


def test_matrix_tagger_equals_nltk_with_weights_too_large_for_32_bit_sums(tmp_path):
    """Sums of two weights of 2,000,000 overflow 32 bits: the tagger sums in 64 bits then."""
    rng = random.Random(7)
    vocabulary = _random_model(
        rng, tmp_path, values=(-2_000_000.5, 0.001, 1_500_000.25, 2_000_000.0)
    )
    tagger_weights.export_nltk_model(tmp_path, tmp_path / "model.npz")
    ours = tagger.MatrixPerceptronTagger(
        tagger_weights.load_arrays((tmp_path / "model.npz").read_bytes())
    )
    assert ours._int is np.int64
    reference = _nltk_tagger(tmp_path)
    for _ in range(300):
        tokens = [rng.choice([*vocabulary, "unseen"]) for _ in range(rng.randint(0, 9))]
        assert ours.tag(tokens) == _tags(reference, tokens), tokens


def test_export_is_deterministic_and_refuses_inexact_weights(tmp_path):
    _random_model(random.Random(1), tmp_path)
    first = tagger_weights.export_nltk_model(tmp_path, tmp_path / "a.npz")
    assert tagger_weights.export_nltk_model(tmp_path, tmp_path / "b.npz") == first
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
    weights = json.loads((tmp_path / SOURCE_FILES[0]).read_text())
    weights["bias"] = {"NN": 0.0005}
    (tmp_path / SOURCE_FILES[0]).write_text(json.dumps(weights))
    with pytest.raises(ValueError, match="more than 3 decimals"):
        tagger_weights.export_nltk_model(tmp_path, tmp_path / "c.npz")
    assert not (tmp_path / "c.npz").exists()


def test_export_command_line(tmp_path, capsys):
    _random_model(random.Random(2), tmp_path)
    assert tagger_weights._main(["--export", str(tmp_path), str(tmp_path / "m.npz")]) == 0
    digest = hashlib.sha256((tmp_path / "m.npz").read_bytes()).hexdigest()
    out = capsys.readouterr().out
    assert f"sha256 {digest}" in out and "update it to ship this file" in out


# ------------------------------------------------- no NLTK data, no NLTK at run time
@pytest.mark.slow  # a fresh interpreter imports numpy and inflect: a few seconds
def test_parsing_needs_no_nltk_data_and_does_not_import_nltk(tmp_path):
    script = (
        "import sys\n"
        "from bindsplit_datasets.parsing import parse_bindings\n"
        "print([str(b) for b in parse_bindings('a red and white bus next to a glass vase')])\n"
        "print('nltk' in sys.modules)\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "NLTK_DATA"}
    env.update(HOME=str(tmp_path), PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["['red bus', 'white bus', 'glass vase']", "False"]
