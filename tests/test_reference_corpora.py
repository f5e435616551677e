"""Every corpus source of a reference index: text files, COCO caption files (local and by URL),
Hugging Face datasets, Parquet shards (folder, glob, file, fsspec URL), and the specifications
``resolve_reference`` turns into them."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from reference_corpus import CAPTIONS, EXPECTED, naive_counts, write_coco, write_shards

from bindsplit_datasets.errors import EmptyCorpusError, SchemaError
from bindsplit_datasets.parsing import Binding, parse_bindings
from bindsplit_datasets.reference import (
    ParquetShards,
    ReferenceIndex,
    corpora,
    resolve,
    resolve_reference,
)

#: CAPTIONS with unusable values mixed in (Parquet holds strings or nulls only).
SHARD_CAPTIONS = CAPTIONS[:2] + [None, ""] + CAPTIONS[2:] + ["   "]


@pytest.fixture(scope="module")
def index() -> ReferenceIndex:
    return ReferenceIndex.from_captions(CAPTIONS, progress=False)


@pytest.fixture()
def shards(tmp_path) -> Path:
    return write_shards(tmp_path / "shards", SHARD_CAPTIONS)


def shard_sha256(folder: Path, names: list[str]) -> str:
    """The identity hash of shards, computed the obvious way."""
    sha = hashlib.sha256()
    for name in names:
        content = hashlib.sha256((folder / name).read_bytes()).hexdigest()
        sha.update(f"{name}\0sha256:{content}\n".encode())
    return sha.hexdigest()


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


def test_coco_file_and_url(tmp_path):
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

    url = path.as_uri()
    for _ in range(2):
        by_url = ReferenceIndex.from_coco(url, cache_dir=tmp_path / "cache", progress=False)
        assert dict(by_url.items()) == EXPECTED
        path.unlink(missing_ok=True)  # downloaded once, then read from the cache
    assert "url" not in by_url.fingerprint["corpus"]  # a file URL is a local path: not recorded
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


def test_parquet_shards_folder(shards):
    index = ReferenceIndex.from_parquet(shards, progress=False)
    assert dict(index.items()) == EXPECTED
    assert (index.n_captions, index.n_skipped) == (5, 3)
    names = ["part-00000.parquet", "part-00001.parquet", "part-00002.parquet"]
    assert index.fingerprint["corpus"] == {
        "kind": "parquet",
        "name": "shards",
        "column": "caption",
        "n_files": 3,
        "sha256": shard_sha256(shards, names),
    }
    with pytest.raises(ValueError, match=r"shards: caption #1 is empty"):  # rows in file order
        ReferenceIndex.from_parquet(shards, strict=True, progress=False)


def test_parquet_shards_glob_and_single_file(shards):
    glob = ReferenceIndex.from_parquet(shards / "part-0000[01].parquet", progress=False)
    in_two = SHARD_CAPTIONS[0::3] + SHARD_CAPTIONS[1::3]
    assert dict(glob.items()) == naive_counts([c for c in in_two if c and c.strip()])
    corpus = glob.fingerprint["corpus"]
    assert corpus["name"] == "shards/part-0000[01].parquet" and corpus["n_files"] == 2
    assert corpus["sha256"] == shard_sha256(shards, ["part-00000.parquet", "part-00001.parquet"])
    single = ReferenceIndex.from_parquet(shards / "part-00002.parquet", progress=False)
    assert single.fingerprint["corpus"]["name"] == "part-00002.parquet"
    assert single.n_captions + single.n_skipped == len(SHARD_CAPTIONS[2::3])


def test_shard_identity_names_the_corpus_not_where_it_lies(shards, tmp_path):
    here = ReferenceIndex.from_parquet(shards, progress=False)
    moved = shutil.copytree(shards, tmp_path / "elsewhere" / "shards")
    (moved / ".part-99999.parquet").write_bytes((moved / "part-00000.parquet").read_bytes())
    (moved / "_SUCCESS").write_text("")  # hidden files and other files are not shards
    there = ReferenceIndex.from_parquet(moved, progress=False)
    assert there.fingerprint == here.fingerprint
    assert str(tmp_path) not in json.dumps(there.fingerprint)
    pq.write_table(pa.table({"caption": ["a green car"]}), moved / "part-00003.parquet")
    grown = ReferenceIndex.from_parquet(moved, progress=False)
    assert grown.fingerprint["corpus"]["sha256"] != here.fingerprint["corpus"]["sha256"]
    assert grown.count(Binding("green", "car")) == 1


def test_shards_with_another_caption_column(tmp_path):
    folder = write_shards(tmp_path / "alt", CAPTIONS, column="text", n_shards=2)
    with pytest.raises(SchemaError, match=r"part-00000.parquet has no column 'caption'.*id, text"):
        ReferenceIndex.from_parquet(folder, progress=False)
    index = ReferenceIndex.from_parquet(folder, "text", progress=False)
    assert dict(index.items()) == EXPECTED and index.fingerprint["corpus"]["column"] == "text"


def test_shards_from_an_fsspec_url():
    fs = fsspec.filesystem("memory")
    try:
        for shard in range(2):
            with fs.open(f"/captions/data/part-{shard}.parquet", "wb") as handle:
                pq.write_table(pa.table({"caption": CAPTIONS[shard::2]}), handle)
        shards = ParquetShards("memory://captions/data")
        assert shards.relative_files == ["part-0.parquet", "part-1.parquet"]
        index = ReferenceIndex.from_corpus(shards, progress=False)
        assert dict(index.items()) == EXPECTED
        corpus = index.fingerprint["corpus"]
        assert (corpus["name"], corpus["n_files"]) == ("memory://captions/data", 2)
        globbed = ReferenceIndex.from_parquet("memory://captions/data/*-1.parquet", progress=False)
        assert dict(globbed.items()) == naive_counts(CAPTIONS[1::2])
    finally:
        fs.rm("/captions", recursive=True)


def test_shards_that_are_missing_or_empty(tmp_path):
    (tmp_path / "none").mkdir()
    with pytest.raises(FileNotFoundError, match=r"no Parquet files found at .*none"):
        ReferenceIndex.from_parquet(tmp_path / "none", progress=False)
    with pytest.raises(FileNotFoundError, match=r"no Parquet files found at .*absent-\*"):
        ReferenceIndex.from_parquet(tmp_path / "absent-*.parquet", progress=False)
    blank = write_shards(tmp_path / "blank", [None, "", " "], n_shards=2)
    with pytest.raises(EmptyCorpusError, match=r"blank: the corpus has no usable captions \(3"):
        ReferenceIndex.from_parquet(blank, progress=False)


def test_resolve_reference_forms(index, shards, tmp_path):
    saved = index.save(tmp_path / "ref.parquet")
    assert resolve_reference(saved).fingerprint == index.fingerprint
    assert resolve_reference(str(saved), min_count=2).min_count == 2
    assert resolve_reference(index, min_count=3).fingerprint == index.with_min_count(3).fingerprint
    assert resolve_reference(index) is index
    coco = write_coco(tmp_path / "c.json", CAPTIONS)
    assert dict(resolve_reference(coco, progress=False).items()) == EXPECTED
    text = tmp_path / "c.txt"
    text.write_text("\n".join(CAPTIONS))
    assert dict(resolve_reference(text, progress=False).items()) == EXPECTED
    from_shards = ReferenceIndex.from_parquet(shards, progress=False)
    for spec in (shards, str(shards / "*.parquet")):
        found = resolve_reference(spec, min_count=2, progress=False)
        assert dict(found.items()) == EXPECTED and found.min_count == 2
    assert resolve_reference(shards, progress=False).fingerprint == from_shards.fingerprint
    one_shard = resolve_reference(shards / "part-00000.parquet", progress=False)  # not an index
    assert one_shard.fingerprint["corpus"]["kind"] == "parquet"


def test_resolve_reference_names_a_hub_dataset(monkeypatch):
    opened = []

    def hub_dataset(dataset_id, column):
        opened.append((dataset_id, column))
        return corpora.Captions(CAPTIONS, identity={"kind": "hf_dataset", "id": dataset_id})

    monkeypatch.setattr(resolve, "HubDataset", hub_dataset)
    index = resolve_reference("my-org/captions", caption_column="text", progress=False)
    assert opened == [("my-org/captions", "text")] and dict(index.items()) == EXPECTED


def test_resolve_reference_bad_specifications(index, tmp_path):
    with pytest.raises(ValueError, match=r"unknown reference 'coco2014'.*'coco2017'.*\.parquet"):
        resolve_reference("coco2014")
    with pytest.raises(FileNotFoundError, match="nope.parquet"):
        resolve_reference(tmp_path / "nope.parquet")
    with pytest.raises(FileNotFoundError, match="nope.txt"):
        resolve_reference(tmp_path / "nope.txt")
    text = tmp_path / "c.txt"
    text.write_text("a red apple\n")
    with pytest.raises(ValueError, match="caption column applies to Parquet shards"):
        resolve_reference(text, caption_column="caption")
    with pytest.raises(ValueError, match="caption column applies to Parquet shards"):
        resolve_reference("coco2017", caption_column="caption")
    with pytest.raises(ValueError, match=r"http\(s\), ftp or file URL names a COCO caption"):
        resolve_reference("https://example.org/captions.txt")
    with pytest.raises(TypeError, match="cannot use int as a reference"):
        resolve_reference(3)
    with pytest.raises(ValueError, match=r"unknown engine 'spark'; choose one of: local, ray"):
        resolve_reference(text, engine="spark")
    with pytest.raises(ValueError, match="a Ray address needs the ray engine"):
        resolve_reference(text, ray_address="auto")
