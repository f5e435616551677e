"""The reference index: exact counts, persistence, fingerprints, every corpus source, bad input."""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bindsplit_datasets import reference
from bindsplit_datasets.bindings import PARSER_VERSION, Binding, parse_bindings
from bindsplit_datasets.errors import BindsplitError, SchemaError
from bindsplit_datasets.reference import (
    EmptyCorpusError,
    ParserMismatchError,
    ReferenceIndex,
    caption_digest,
    normalise_caption,
    resolve_reference,
)
from bindsplit_datasets.splits import annotate_sample

# Hand-made corpus; the bindings each caption states are written beside it (docs/protocol.md,
# section 1).
CAPTIONS = [
    "A red apple and a ceramic mug.",  # (red, apple), (ceramic, mug)
    "a large brown dog",  # (large, dog), (brown, dog)
    "The sky is blue.",  # (blue, sky)
    "a red apple on the grass",  # (red, apple)
    "A red apple and a ceramic mug",  # duplicate of caption 0 once normalised
]
EXPECTED = {
    Binding("red", "apple"): 3,
    Binding("ceramic", "mug"): 2,
    Binding("large", "dog"): 1,
    Binding("brown", "dog"): 1,
    Binding("blue", "sky"): 1,
}
BAD = [None, 42, "", "   \n"]


def naive_counts(captions) -> Counter:
    """The obvious implementation: parse every caption, count every binding."""
    counts: Counter = Counter()
    for caption in captions:
        counts.update(parse_bindings(caption))
    return counts


@pytest.fixture(scope="module")
def index() -> ReferenceIndex:
    return ReferenceIndex.from_captions(CAPTIONS[:2] + BAD + CAPTIONS[2:], progress=False)


def write_coco(path: Path, captions, *, with_annotations: bool = True) -> Path:
    """A caption file in the official COCO layout (info, licenses, images, annotations)."""
    data = {
        "info": {"description": "test", "version": "1.0", "year": 2017},
        "licenses": [{"url": "http://example.org", "id": 1, "name": "test"}],
        "images": [{"license": 1, "file_name": "000000000001.jpg", "id": 1}],
    }
    if with_annotations:
        data["annotations"] = [
            {"image_id": 1, "id": i + 1, "caption": c} for i, c in enumerate(captions)
        ]
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- counting
def test_exact_counts_of_hand_made_captions(index):
    assert dict(index.items()) == EXPECTED
    assert (len(index), index.n_captions, index.n_skipped) == (5, 5, 4)
    assert index.count(Binding("green", "apple")) == 0
    assert index.seen(Binding("blue", "sky")) and not index.seen(Binding("green", "apple"))
    assert Binding("large", "dog") in index and Binding("green", "apple") not in index
    assert index.most_common(3) == [
        (Binding("red", "apple"), 3),
        (Binding("ceramic", "mug"), 2),
        (Binding("blue", "sky"), 1),  # ties in binding order: blue < brown < large
    ]
    assert [b for b, _ in index.most_common()] == [
        Binding("red", "apple"),
        Binding("ceramic", "mug"),
        Binding("blue", "sky"),
        Binding("brown", "dog"),
        Binding("large", "dog"),
    ]


def test_min_count_threshold(index):
    strict = index.with_min_count(2)
    assert strict.seen(Binding("ceramic", "mug")) and not strict.seen(Binding("large", "dog"))
    assert Binding("large", "dog") in strict and strict.count(Binding("large", "dog")) == 1
    assert strict.fingerprint["min_count"] == 2
    assert strict.fingerprint["digest"] != index.fingerprint["digest"]
    assert index.min_count == 1  # the original is unchanged
    built = ReferenceIndex.from_captions(
        CAPTIONS[:2] + BAD + CAPTIONS[2:], min_count=2, progress=False
    )
    assert built.fingerprint == strict.fingerprint
    with pytest.raises(ValueError, match="min_count must be an integer >= 1"):
        index.with_min_count(0)


def test_the_index_is_what_labelling_needs(index):
    ann = annotate_sample(
        [parse_bindings("a red apple and a ceramic mug"), parse_bindings("a ceramic apple")],
        index,
    )
    assert ann.label == "partial"
    assert ann.caption_familiarity == (1.0, 0.0)
    assert ann.asymmetric is True


def test_skipped_captions_raise_in_strict_mode():
    with pytest.raises(ValueError, match=r"caption #1 is None"):
        ReferenceIndex.from_captions(["a red apple", None], strict=True, progress=False)
    with pytest.raises(ValueError, match=r"caption #0 is not a string \(int\)"):
        ReferenceIndex.from_captions([7, "a red apple"], strict=True, progress=False)
    with pytest.raises(ValueError, match=r"caption #1 is empty"):
        ReferenceIndex.from_captions(["a red apple", " "], strict=True, progress=False)
    with pytest.raises(TypeError, match="not a single string"):
        ReferenceIndex.from_captions("a red apple", progress=False)
    with pytest.raises(ValueError, match="num_proc must be an integer >= 1 or None"):
        ReferenceIndex.from_captions(CAPTIONS, num_proc=0, progress=False)


def test_empty_corpus_is_an_error(tmp_path):
    with pytest.raises(EmptyCorpusError, match="no usable captions"):
        ReferenceIndex.from_captions([], progress=False)
    with pytest.raises(EmptyCorpusError, match=r"2 skipped"):
        ReferenceIndex.from_captions([None, ""], progress=False)
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(EmptyCorpusError, match="empty.txt"):
        ReferenceIndex.from_text_file(empty, progress=False)


def test_two_processes_count_exactly_like_one(shared_data, monkeypatch):
    coco = json.loads((shared_data / "coco_mini" / "captions_train2017.json").read_text())
    captions = [a["caption"] for a in coco["annotations"]]
    monkeypatch.setattr(reference, "_PARSE_CHUNKSIZE", 50)  # 8 chunks: the workers really run
    one = ReferenceIndex.from_captions(captions, num_proc=1, progress=False)
    two = ReferenceIndex.from_captions(iter(captions), num_proc=2, progress=False)
    assert dict(two.items()) == dict(one.items()) == naive_counts(captions)
    assert two.fingerprint == one.fingerprint
    assert two.n_caption_digests == one.n_caption_digests


def test_bad_caption_inside_a_parallel_build_raises_in_strict_mode(monkeypatch):
    monkeypatch.setattr(reference, "_PARSE_CHUNKSIZE", 2)
    captions = CAPTIONS * 4 + [None] + CAPTIONS
    with pytest.raises(ValueError, match=r"caption #20 is None"):
        ReferenceIndex.from_captions(captions, num_proc=2, strict=True, progress=False)
    lenient = ReferenceIndex.from_captions(captions, num_proc=2, progress=False)
    assert (lenient.n_captions, lenient.n_skipped) == (25, 1)
    assert dict(lenient.items()) == {b: 5 * n for b, n in EXPECTED.items()}


# ----------------------------------------------------------------------------- fingerprint
def test_fingerprint_records_what_seen_means(index):
    fp = index.fingerprint
    assert set(fp) == {
        "format",
        "corpus",
        "parser_version",
        "normalisation",
        "min_count",
        "n_captions",
        "n_skipped",
        "digest",
    }
    assert fp["parser_version"] == PARSER_VERSION
    assert (fp["min_count"], fp["n_captions"], fp["n_skipped"]) == (1, 5, 4)
    assert fp["corpus"]["kind"] == "captions" and len(fp["corpus"]["sha256"]) == 64
    assert len(fp["digest"]) == 16 and int(fp["digest"], 16) >= 0
    assert json.loads(json.dumps(fp)) == fp
    again = ReferenceIndex.from_captions(CAPTIONS[:2] + BAD + CAPTIONS[2:], progress=False)
    assert again.fingerprint == fp
    other = ReferenceIndex.from_captions(CAPTIONS[:4], progress=False)
    assert other.fingerprint["corpus"]["sha256"] != fp["corpus"]["sha256"]
    named = ReferenceIndex.from_captions(CAPTIONS, corpus={"kind": "mine", "v": 1}, progress=False)
    assert named.fingerprint["corpus"] == {"kind": "mine", "v": 1}


# ----------------------------------------------------------------------------- persistence
def test_parquet_round_trip(index, tmp_path):
    path = index.with_min_count(2).save(tmp_path / "ref.parquet")
    assert [p.name for p in tmp_path.iterdir()] == ["ref.parquet"]  # no temporary left over
    loaded = ReferenceIndex.load(path)
    assert dict(loaded.items()) == EXPECTED
    assert loaded.fingerprint == index.with_min_count(2).fingerprint
    assert (loaded.min_count, loaded.n_captions, loaded.n_skipped) == (2, 5, 4)
    assert loaded.n_caption_digests == index.n_caption_digests == 4
    assert loaded.contains_caption("a large brown dog")
    table = pq.read_table(path)
    assert table.column_names == ["attribute", "object", "count"]
    assert table.column("count").to_pylist() == [1, 1, 2, 1, 3]  # sorted by attribute, object
    again = ReferenceIndex.load(loaded.save(tmp_path / "again.parquet"))
    assert again.fingerprint == loaded.fingerprint and dict(again.items()) == EXPECTED


def _index_from_other_parser(tmp_path: Path) -> Path:
    other = ReferenceIndex(
        {Binding("red", "apple"): 2},
        caption_digests=np.array([caption_digest("a red apple")], dtype=np.uint64),
        min_count=1,
        n_captions=2,
        n_skipped=0,
        corpus={"kind": "captions"},
        parser_version="0.0-old",
    )
    return other.save(tmp_path / "old.parquet")


def test_parser_version_mismatch_needs_opt_in(tmp_path):
    path = _index_from_other_parser(tmp_path)
    with pytest.raises(ParserMismatchError) as caught:
        ReferenceIndex.load(path)
    message = str(caught.value)
    assert "old.parquet" in message and "'0.0-old'" in message and PARSER_VERSION in message
    assert "allow_parser_mismatch=True" in message
    loaded = ReferenceIndex.load(path, allow_parser_mismatch=True)
    assert loaded.count(Binding("red", "apple")) == 2
    assert loaded.fingerprint["parser_version"] == "0.0-old"


def test_foreign_corrupt_and_altered_files(index, tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.parquet"):
        ReferenceIndex.load(tmp_path / "missing.parquet")
    foreign = tmp_path / "foreign.parquet"
    pq.write_table(pa.table({"attribute": ["red"], "object": ["apple"], "count": [1]}), foreign)
    with pytest.raises(SchemaError, match=r"foreign.parquet is not a BindSplit reference index"):
        ReferenceIndex.load(foreign)
    garbage = tmp_path / "garbage.parquet"
    garbage.write_bytes(b"this is not parquet at all")
    with pytest.raises(SchemaError, match=r"garbage.parquet is not a readable Parquet file"):
        ReferenceIndex.load(garbage)
    good = index.save(tmp_path / "good.parquet").read_bytes()
    truncated = tmp_path / "truncated.parquet"
    truncated.write_bytes(good[: len(good) // 2])
    with pytest.raises(SchemaError, match=r"truncated.parquet"):
        ReferenceIndex.load(truncated)
    table = pq.read_table(tmp_path / "good.parquet")
    meta = dict(pq.read_metadata(tmp_path / "good.parquet").metadata)
    fingerprint = json.loads(meta[b"bindsplit.fingerprint"])
    meta[b"bindsplit.fingerprint"] = json.dumps(fingerprint | {"min_count": 5}).encode()
    altered = tmp_path / "altered.parquet"
    with pq.ParquetWriter(altered, table.schema, store_schema=False) as writer:
        writer.write_table(table)
        writer.add_key_value_metadata(meta)
    with pytest.raises(SchemaError, match=r"altered.parquet: stored fingerprint does not match"):
        ReferenceIndex.load(altered)


# ----------------------------------------------------------------------------- sources
def test_text_file(tmp_path):
    path = tmp_path / "captions.txt"
    path.write_text("\n".join(["a red apple", "", "The sky is blue.", "a red apple"]) + "\n")
    index = ReferenceIndex.from_text_file(path, progress=False)
    assert dict(index.items()) == {Binding("red", "apple"): 2, Binding("blue", "sky"): 1}
    assert (index.n_captions, index.n_skipped) == (3, 1)
    assert index.fingerprint["corpus"] == {
        "kind": "text",
        "file": "captions.txt",
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
    }
    with pytest.raises(ValueError, match=r"captions.txt: caption #1 is empty"):
        ReferenceIndex.from_text_file(path, strict=True, progress=False)
    latin = tmp_path / "latin.txt"
    latin.write_bytes("a red caf\xe9 table\n".encode("latin-1"))
    with pytest.raises(SchemaError, match="latin.txt is not UTF-8"):
        ReferenceIndex.from_text_file(latin, progress=False)


def test_coco_file_and_url(tmp_path, monkeypatch):
    path = write_coco(tmp_path / "captions.json", CAPTIONS)
    data = json.loads(path.read_text())
    data["annotations"].append({"image_id": 1, "id": 99})  # no caption: skipped and counted
    path.write_text(json.dumps(data))
    index = ReferenceIndex.from_coco(path, progress=False)
    assert dict(index.items()) == EXPECTED
    assert (index.n_captions, index.n_skipped) == (5, 1)
    corpus = index.fingerprint["corpus"]
    sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
    assert corpus == {"kind": "coco", "file": "captions.json", "sha256": sha256}

    calls = []
    download = reference._download
    monkeypatch.setattr(
        reference, "_download", lambda *a, **k: calls.append(a) or download(*a, **k)
    )
    for _ in range(2):
        by_url = ReferenceIndex.from_coco(
            path.as_uri(), cache_dir=tmp_path / "cache", progress=False
        )
        assert dict(by_url.items()) == EXPECTED
    assert len(calls) == 1  # downloaded once, then read from the cache
    assert by_url.fingerprint["corpus"]["url"] == path.as_uri()
    assert by_url.fingerprint["corpus"]["sha256"] == sha256


def test_coco_files_without_annotations_or_not_json(tmp_path):
    bare = write_coco(tmp_path / "bare.json", [], with_annotations=False)
    with pytest.raises(SchemaError, match=r"bare.json has no 'annotations' list.*'images'"):
        ReferenceIndex.from_coco(bare, progress=False)
    broken = tmp_path / "broken.json"
    broken.write_text('{"annotations": [')
    with pytest.raises(SchemaError, match=r"broken.json is not valid JSON"):
        ReferenceIndex.from_coco(broken, progress=False)
    with pytest.raises(FileNotFoundError, match="absent.json"):
        ReferenceIndex.from_coco(tmp_path / "absent.json")
    empty = write_coco(tmp_path / "empty.json", [])
    with pytest.raises(EmptyCorpusError, match="empty.json"):
        ReferenceIndex.from_coco(empty, progress=False)


def test_real_coco_sample(shared_data):
    path = shared_data / "coco_mini" / "captions_train2017.json"
    captions = [a["caption"] for a in json.loads(path.read_text())["annotations"]]
    index = ReferenceIndex.from_coco(path, progress=False)
    assert len(captions) == index.n_captions == 400 and index.n_skipped == 0
    expected = naive_counts(captions)
    assert dict(index.items()) == expected
    for binding, count in expected.most_common(5):
        assert index.count(binding) == count == sum(binding in parse_bindings(c) for c in captions)
    assert index.fingerprint["corpus"]["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert index.caption_overlap(captions) == 400
    val = json.loads((shared_data / "coco_mini" / "captions_val2017.json").read_text())
    assert index.caption_overlap(a["caption"] for a in val["annotations"]) == 0


def test_hf_dataset_streamed_from_a_local_folder(tmp_path):
    folder = tmp_path / "my_captions"
    (folder / "data").mkdir(parents=True)
    rows = {"id": list(range(len(CAPTIONS) + 1)), "caption": CAPTIONS + [None]}
    pq.write_table(pa.table(rows), folder / "data" / "train-00000-of-00001.parquet")
    index = ReferenceIndex.from_hf_dataset(str(folder), "caption", split="train", progress=False)
    assert dict(index.items()) == EXPECTED
    assert (index.n_captions, index.n_skipped) == (5, 1)
    corpus = index.fingerprint["corpus"]
    assert {k: corpus[k] for k in ("kind", "id", "split", "column", "config")} == {
        "kind": "hf_dataset",
        "id": "my_captions",
        "split": "train",
        "column": "caption",
        "config": None,
    }
    assert corpus["revision"].startswith("sha256:")
    with pytest.raises(SchemaError, match=r"no column 'text'.*id, caption"):
        ReferenceIndex.from_hf_dataset(str(folder), "text", progress=False)


def _coco_archive(path: Path, captions) -> Path:
    """An annotation archive in the official member layout (with sibling members)."""
    with zipfile.ZipFile(path, "w") as archive:
        train = {"info": {}, "licenses": [], "images": [{"id": 1}]}
        train["annotations"] = [
            {"image_id": 1, "id": i, "caption": c} for i, c in enumerate(captions)
        ]
        archive.writestr(reference.COCO2017_CAPTIONS_MEMBER, json.dumps(train))
        archive.writestr("annotations/captions_val2017.json", json.dumps({"annotations": []}))
        archive.writestr("annotations/instances_train2017.json", "{}")
    return path


def test_coco2017_downloads_once_and_caches_the_index(tmp_path, monkeypatch):
    url = _coco_archive(tmp_path / "annotations_trainval2017.zip", CAPTIONS).as_uri()
    monkeypatch.setattr(reference, "COCO2017_ANNOTATIONS_URL", url)
    downloads, builds = [], []
    download, from_coco = reference._download, ReferenceIndex.from_coco.__func__
    monkeypatch.setattr(
        reference, "_download", lambda *a, **k: downloads.append(a) or download(*a, **k)
    )
    monkeypatch.setattr(
        ReferenceIndex,
        "from_coco",
        classmethod(lambda cls, *a, **k: builds.append(a) or from_coco(cls, *a, **k)),
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
    monkeypatch.setattr(reference, "COCO2017_ANNOTATIONS_URL", (tmp_path / "gone.zip").as_uri())
    cache = tmp_path / "cache"
    with pytest.raises(BindsplitError, match=r"could not download .*gone.zip.*place it at"):
        ReferenceIndex.coco2017(cache_dir=cache, progress=False)
    assert list((cache / "coco2017").iterdir()) == []  # no partial file left behind


def test_coco2017_rejects_a_wrong_archive(tmp_path, monkeypatch):
    wrong = tmp_path / "annotations_trainval2017.zip"
    with zipfile.ZipFile(wrong, "w") as archive:
        archive.writestr("annotations/instances_train2017.json", "{}")
    monkeypatch.setattr(reference, "COCO2017_ANNOTATIONS_URL", wrong.as_uri())
    cache = tmp_path / "cache"
    with pytest.raises(SchemaError, match=r"is not the COCO annotation archive.*deleted"):
        ReferenceIndex.coco2017(cache_dir=cache, progress=False)
    assert list((cache / "coco2017").iterdir()) == []


# ----------------------------------------------------------------------------- leakage guard
def test_caption_digests(index):
    assert normalise_caption("  The Sky  is blue. ") == "the sky is blue"
    assert normalise_caption("a dog ...") == "a dog"
    assert caption_digest("The sky is blue.") == caption_digest("the sky is blue")
    assert index.n_caption_digests == 4  # caption 4 repeats caption 0 once normalised
    assert index.contains_caption("the SKY is blue")
    assert not index.contains_caption("the sky is grey")
    texts = [
        "a large  brown dog.",
        "a large brown dog",
        "a small dog",
        3,
        "A RED APPLE ON THE GRASS",
    ]
    assert index.caption_overlap(texts) == 3
    assert index.caption_overlap([]) == 0


# ----------------------------------------------------------------------------- resolve_reference
def test_resolve_reference_forms(index, tmp_path):
    saved = index.save(tmp_path / "ref.parquet")
    assert resolve_reference(saved).fingerprint == index.fingerprint
    assert resolve_reference(str(saved), min_count=2).min_count == 2
    assert resolve_reference(index, min_count=3).fingerprint == index.with_min_count(3).fingerprint
    assert resolve_reference(index) is index
    coco = write_coco(tmp_path / "c.json", CAPTIONS)
    assert dict(resolve_reference(coco).items()) == EXPECTED
    text = tmp_path / "c.txt"
    text.write_text("\n".join(CAPTIONS))
    assert dict(resolve_reference(text).items()) == EXPECTED
    with pytest.raises(ValueError, match=r"unknown reference 'coco2014'.*'coco2017'.*\.parquet"):
        resolve_reference("coco2014")
    with pytest.raises(FileNotFoundError, match="nope.parquet"):
        resolve_reference(tmp_path / "nope.parquet")


def test_repeated_captions_count_once_per_occurrence():
    index = ReferenceIndex.from_captions(
        ["a red car", "a blue car", "a red car", "a red car"], num_proc=1, progress=False
    )
    assert index.count(Binding("red", "car")) == 3
    assert index.count(Binding("blue", "car")) == 1
    assert index.n_captions == 4
