"""The shipped singular table: inflect's own answers, checked on load, rebuilt by its export."""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import random

import pytest

from bindsplit_datasets.errors import PackageDataError
from bindsplit_datasets.parsing import normalise, singulars


def test_the_table_holds_inflects_answers():
    table = singulars.load_table()
    sample = random.Random(39).sample(sorted(table), 1500)
    assert {word: table[word] for word in sample} == {
        word: singulars._ask_inflect(word) for word in sample
    }
    assert table["zebras"] == "zebra" and table["men"] == "man" and table["dogs"] == "dog"


def test_a_word_the_table_lacks_is_asked_of_inflect():
    assert "blorfles" not in singulars.load_table()
    assert singulars.inflect_singular("blorfles") == "blorfle"
    assert singulars.inflect_singular("zebras") == "zebra"
    assert singulars.inflect_singular("glass") == "glass"  # inflect: no plural


def test_singularise_reads_the_table(monkeypatch):
    """The table decides where it holds the word: a changed answer shows in singularise."""
    table = dict(singulars.load_table())
    table["zebras"] = "horse"
    monkeypatch.setattr(singulars, "load_table", lambda: table)
    normalise.singularise.cache_clear()
    try:
        assert normalise.singularise("zebras") == "horse"
    finally:
        monkeypatch.undo()
        normalise.singularise.cache_clear()
    assert normalise.singularise("zebras") == "zebra"


def test_the_table_holds_every_vocabulary_word_singularise_asks_about():
    words = singulars.table_words()
    assert set(words) == set(singulars.load_table())
    assert all(singulars.asks_inflect(word) for word in words)
    assert not singulars.asks_inflect("glass") and not singulars.asks_inflect("cat")
    assert singulars.asks_inflect("men") and singulars.asks_inflect("cats")


def test_a_changed_table_is_refused(monkeypatch):
    monkeypatch.setattr(singulars, "SINGULARS_SHA256", "0" * 64)
    singulars.load_table.cache_clear()
    try:
        with pytest.raises(PackageDataError, match="reinstall"):
            singulars.load_table()
    finally:
        monkeypatch.undo()
        singulars.load_table.cache_clear()


@pytest.mark.skipif(
    importlib.metadata.version("inflect") != singulars.INFLECT_VERSION,
    reason="the shipped table holds another inflect release's answers",
)
def test_export_reproduces_the_shipped_table(tmp_path):
    out = tmp_path / singulars.SINGULARS_FILE
    digest = singulars.export_singulars(out)
    assert digest == singulars.SINGULARS_SHA256
    assert hashlib.sha256(out.read_bytes()).hexdigest() == digest
    assert "zebras\tzebra\n" in gzip.decompress(out.read_bytes()).decode("utf-8")
