"""The shipped word-class table: its content, its integrity check and how it is rebuilt."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest

from bindsplit_datasets.errors import PackageDataError
from bindsplit_datasets.parsing import wordclasses as wc


def test_the_shipped_table_is_the_recorded_file_and_knows_caption_words():
    data = wc._table_path().read_bytes()
    assert hashlib.sha256(data).hexdigest() == wc.TABLE_SHA256
    assert wc.classes("mossy") == wc.ADJECTIVE  # an adjective the tagger calls a noun
    assert wc.classes("kitchen") == wc.NOUN
    assert wc.classes("squinting") == wc.VERB
    assert wc.classes("stove") & wc.NOUN and wc.classes("stove") & wc.VERB  # "stave" past
    assert wc.classes("wii") == 0  # unknown words have no classes
    notice = (wc._table_path().parent / "NOTICE").read_text(encoding="utf-8")
    assert wc.TABLE_FILE in notice and "lemminflect" in notice and "SPECIALIST" in notice


def test_an_altered_table_is_refused(monkeypatch, tmp_path):
    altered = tmp_path / wc.TABLE_FILE
    altered.write_bytes(gzip.compress(b"mossy\t1\n"))
    monkeypatch.setattr(wc, "_table_path", lambda: altered)
    monkeypatch.setattr(wc, "_TABLE", None)
    with pytest.raises(PackageDataError, match="reinstall bindsplit-datasets"):
        wc.classes("mossy")
    monkeypatch.setattr(wc, "_table_path", lambda: tmp_path / "absent.txt.gz")
    with pytest.raises(PackageDataError, match="missing from the installed package"):
        wc.classes("mossy")


def _write_resources(folder: Path) -> None:
    lemma_lu = "stove,noun,stove\nstove,verb,stave\nMossy,adj,mossy\n'd,aux,will\n"
    infl_lu = "kitchen,noun,kitchens\nrun,verb,ran,run,running,runs\nfast,adv,faster/fastest\n"
    for name, text in (("lemma_lu.csv.gz", lemma_lu), ("infl_lu.csv.gz", infl_lu)):
        (folder / name).write_bytes(gzip.compress(text.encode("utf-8")))


def test_export_unites_the_classes_of_every_entry(tmp_path):
    _write_resources(tmp_path)
    out = tmp_path / "table.txt.gz"
    digest = wc.export_table(tmp_path, out)
    assert hashlib.sha256(out.read_bytes()).hexdigest() == digest
    lines = gzip.decompress(out.read_bytes()).decode("utf-8").splitlines()
    table = dict(line.split("\t") for line in lines)
    assert table == {
        "'d": str(wc.VERB),
        "fast": str(wc.ADVERB),
        "faster": str(wc.ADVERB),
        "fastest": str(wc.ADVERB),
        "kitchen": str(wc.NOUN),
        "kitchens": str(wc.NOUN),
        "mossy": str(wc.ADJECTIVE),
        "ran": str(wc.VERB),
        "run": str(wc.VERB),
        "running": str(wc.VERB),
        "runs": str(wc.VERB),
        "stove": str(wc.NOUN | wc.VERB),
    }
    assert lines == sorted(lines)
    assert wc.export_table(tmp_path, tmp_path / "again.txt.gz") == digest  # reproducible


@pytest.mark.slow  # reads all of lemminflect's tables: seconds
def test_export_of_lemminflect_reproduces_the_shipped_table(tmp_path):
    lemminflect = pytest.importorskip("lemminflect")
    resources = Path(lemminflect.__file__).parent / "resources"
    assert wc.export_table(resources, tmp_path / wc.TABLE_FILE) == wc.TABLE_SHA256
    assert wc._main(["--export", str(resources), str(tmp_path / "cli.txt.gz")]) == 0
