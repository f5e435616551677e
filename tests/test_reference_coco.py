"""The default reference, COCO train2017: downloaded once, cached, checked against its recorded
SHA-256 on every use."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from reference_corpus import CAPTIONS, EXPECTED

from bindsplit_datasets.errors import BindsplitError, ChecksumError, SchemaError
from bindsplit_datasets.reference import (
    ReferenceIndex,
    coco,
    resolve_reference,
)


def _coco_archive(path: Path, captions) -> Path:
    """An annotation archive in the official member layout (with sibling members)."""
    with zipfile.ZipFile(path, "w") as archive:
        train = {"info": {}, "licenses": [], "images": [{"id": 1}]}
        train["annotations"] = [
            {"image_id": 1, "id": i, "caption": c} for i, c in enumerate(captions)
        ]
        archive.writestr(coco.COCO2017_CAPTIONS_MEMBER, json.dumps(train))
        archive.writestr("annotations/captions_val2017.json", json.dumps({"annotations": []}))
        archive.writestr("annotations/instances_train2017.json", "{}")
    return path


def test_coco2017_downloads_once_and_caches_the_index(tmp_path, monkeypatch):
    url = _coco_archive(tmp_path / "annotations_trainval2017.zip", CAPTIONS).as_uri()
    monkeypatch.setattr(coco, "COCO2017_ANNOTATIONS_URL", url)
    downloads, builds = [], []
    download, from_corpus = coco.download, ReferenceIndex.from_corpus.__func__
    monkeypatch.setattr(coco, "download", lambda *a, **k: downloads.append(a) or download(*a, **k))
    monkeypatch.setattr(
        ReferenceIndex,
        "from_corpus",
        classmethod(lambda cls, *a, **k: builds.append(a) or from_corpus(cls, *a, **k)),
    )
    cache = tmp_path / "cache"
    first = ReferenceIndex.coco2017(cache_dir=cache, progress=False)
    assert dict(first.items()) == EXPECTED
    assert first.fingerprint["corpus"]["name"] == "coco2017"
    assert first.fingerprint["corpus"]["url"] == url
    names = sorted(p.name for p in (cache / "coco2017").iterdir())
    assert names[:2] == ["captions_train2017.json", "captions_train2017.json.sha256"]
    assert len(names) == 3 and names[2].startswith("index-")  # archive removed after extraction
    second = ReferenceIndex.coco2017(cache_dir=cache, min_count=2, progress=False)
    assert (len(downloads), len(builds)) == (1, 1)
    assert dict(second.items()) == EXPECTED and second.min_count == 2
    assert second.fingerprint == first.with_min_count(2).fingerprint
    monkeypatch.setenv("BINDSPLIT_CACHE", str(cache))
    third = resolve_reference("coco2017", min_count=3)
    assert (len(downloads), len(builds)) == (1, 1)
    assert third.fingerprint == first.with_min_count(3).fingerprint


def test_coco2017_download_failure_says_where_to_put_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(coco, "COCO2017_ANNOTATIONS_URL", (tmp_path / "gone.zip").as_uri())
    cache = tmp_path / "cache"
    with pytest.raises(BindsplitError, match=r"could not download .*gone.zip.*place it at"):
        ReferenceIndex.coco2017(cache_dir=cache, progress=False)
    assert list((cache / "coco2017").iterdir()) == []  # no partial file left behind


def test_coco2017_rejects_a_wrong_archive(tmp_path, monkeypatch):
    wrong = tmp_path / "annotations_trainval2017.zip"
    with zipfile.ZipFile(wrong, "w") as archive:
        archive.writestr("annotations/instances_train2017.json", "{}")
    monkeypatch.setattr(coco, "COCO2017_ANNOTATIONS_URL", wrong.as_uri())
    cache = tmp_path / "cache"
    with pytest.raises(SchemaError, match=r"is not the COCO annotation archive.*deleted"):
        ReferenceIndex.coco2017(cache_dir=cache, progress=False)
    assert list((cache / "coco2017").iterdir()) == []


def test_a_changed_cached_caption_file_is_named_not_used(tmp_path, monkeypatch):
    url = _coco_archive(tmp_path / "annotations_trainval2017.zip", CAPTIONS).as_uri()
    monkeypatch.setattr(coco, "COCO2017_ANNOTATIONS_URL", url)
    cache = tmp_path / "cache"
    ReferenceIndex.coco2017(cache_dir=cache, progress=False)
    cached = cache / "coco2017" / "captions_train2017.json"
    data = json.loads(cached.read_text())
    data["annotations"][0]["caption"] = "a purple apple"
    cached.write_text(json.dumps(data))
    with pytest.raises(ChecksumError) as caught:
        ReferenceIndex.coco2017(cache_dir=cache, progress=False)
    message = str(caught.value)
    assert str(cached) in message and "SHA-256" in message
    assert f"delete {cached} to download it afresh" in message
    cached.unlink()  # the fix the message names: the file is extracted again from a download
    again = ReferenceIndex.coco2017(cache_dir=cache, progress=False)
    assert dict(again.items()) == EXPECTED
