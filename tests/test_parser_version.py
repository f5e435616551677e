"""``PARSER_VERSION`` by content (parsing/version.py): a human version and the SHA-256 of every
code and data file of the parser, so that changing a word table, the rule table or a rule's code
changes it; a reference index or cached index of another parser is then refused or rebuilt, never
reused silently."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from bindsplit_datasets.errors import ParserMismatchError
from bindsplit_datasets.parsing import PARSER_VERSION
from bindsplit_datasets.parsing.version import (
    HUMAN_VERSION,
    PACKAGE_FOLDER,
    content_digest,
    digest_inputs,
)
from bindsplit_datasets.reference import ReferenceIndex
from bindsplit_datasets.reference import coco as coco_module
from bindsplit_datasets.reference import index as index_module


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "parsing"
    shutil.copytree(PACKAGE_FOLDER, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_the_version_is_the_human_version_and_the_digest_of_every_code_and_data_file():
    assert HUMAN_VERSION == "4.0"
    assert PARSER_VERSION == f"4.0+sha256.{content_digest()}"
    names = {path.relative_to(PACKAGE_FOLDER).as_posix() for path in digest_inputs()}
    assert {
        "rules.py",
        "corrections.py",
        "data/rules.json",
        "data/words/materials.txt",
        "data/averaged_perceptron_tagger_eng.npz",
        "data/word_classes.txt.gz",
    } <= names
    assert all(name.endswith(".py") or name.startswith("data/") for name in names)


@pytest.mark.parametrize(
    ("path", "change"),
    [
        ("data/words/materials.txt", lambda text: text + "burlap\n"),
        ("data/words/colours.txt", lambda text: text.replace("\npale | shade\n", "\n")),
        ("data/rules.json", lambda text: text.replace('"attributive"', '"attributive2"', 1)),
        ("rules.py", lambda text: text.replace("_POSITIONAL", "_POSITION")),
        ("corrections.py", lambda text: text + "\n"),
    ],
)
def test_changing_a_table_or_rule_code_changes_the_version(tmp_path, path, change):
    copy = _copy(tmp_path)
    assert content_digest(copy) == content_digest()
    target = copy / path
    text = target.read_text(encoding="utf-8")
    assert change(text) != text
    target.write_text(change(text), encoding="utf-8")
    assert content_digest(copy) != content_digest()


def test_a_new_table_file_changes_the_version(tmp_path):
    copy = _copy(tmp_path)
    (copy / "data" / "words" / "fabrics.txt").write_text("# fabrics\nnylon\n", encoding="utf-8")
    assert content_digest(copy) != content_digest()


def test_an_index_of_the_parser_before_a_table_change_is_refused(tmp_path, monkeypatch):
    index = ReferenceIndex.from_captions(["a red apple", "a red apple"], progress=False)
    saved = index.save(tmp_path / "reference.parquet")
    assert ReferenceIndex.load(saved).fingerprint == index.fingerprint  # same parser: reused
    copy = _copy(tmp_path)
    materials = copy / "data" / "words" / "materials.txt"
    materials.write_text(materials.read_text(encoding="utf-8") + "burlap\n", encoding="utf-8")
    changed = f"{HUMAN_VERSION}+sha256.{content_digest(copy)}"
    monkeypatch.setattr(index_module, "PARSER_VERSION", changed)
    with pytest.raises(ParserMismatchError) as caught:
        ReferenceIndex.load(saved)
    message = str(caught.value)
    assert "\n" not in message
    assert PARSER_VERSION in message and changed in message
    assert f"Rebuild the index from its corpus (`{index_module.BUILD_COMMAND}`)" in message


def test_the_cached_coco_index_is_keyed_by_the_parser_version(tmp_path, monkeypatch):
    corpus = SimpleNamespace(identity={"kind": "coco"}, path=tmp_path / "captions.json")
    before = coco_module.cached_index_path(corpus, "v1")
    monkeypatch.setattr(coco_module, "PARSER_VERSION", "4.0+sha256.other")
    after = coco_module.cached_index_path(corpus, "v1")
    assert before.parent == after.parent and before != after  # a new parser builds a new index
