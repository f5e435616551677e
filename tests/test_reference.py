"""The reference index: exact counts, queries, fingerprints, persistence and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from reference_corpus import BAD, CAPTIONS, EXPECTED, naive_counts, naive_relation_counts

from bindsplit_datasets.errors import (
    EmptyCorpusError,
    ParserMismatchError,
    RelationsMissingError,
    SchemaError,
)
from bindsplit_datasets.labels import annotate_sample
from bindsplit_datasets.parsing import PARSER_VERSION, Binding, Relation, parse_bindings
from bindsplit_datasets.reference import (
    ReferenceIndex,
    caption_digest,
    engines,
    normalise_caption,
)
from bindsplit_datasets.reference.index_file import FINGERPRINT_KEYS


@pytest.fixture(scope="module")
def index() -> ReferenceIndex:
    return ReferenceIndex.from_captions(CAPTIONS[:2] + BAD + CAPTIONS[2:], progress=False)


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
    monkeypatch.setattr(engines, "UNIT_ROWS", 50)  # 8 chunks: the workers really run
    one = ReferenceIndex.from_captions(captions, num_proc=1, progress=False)
    two = ReferenceIndex.from_captions(iter(captions), num_proc=2, progress=False)
    assert dict(two.items()) == dict(one.items()) == naive_counts(captions)
    assert two.fingerprint == one.fingerprint
    assert two.n_caption_digests == one.n_caption_digests


def test_bad_caption_inside_a_parallel_build_raises_in_strict_mode(monkeypatch):
    monkeypatch.setattr(engines, "UNIT_ROWS", 2)
    captions = CAPTIONS * 4 + [None] + CAPTIONS
    with pytest.raises(ValueError, match=r"caption #20 is None"):
        ReferenceIndex.from_captions(captions, num_proc=2, strict=True, progress=False)
    lenient = ReferenceIndex.from_captions(captions, num_proc=2, progress=False)
    assert (lenient.n_captions, lenient.n_skipped) == (25, 1)
    assert dict(lenient.items()) == {b: 5 * n for b, n in EXPECTED.items()}


def test_repeated_captions_count_once_per_occurrence():
    index = ReferenceIndex.from_captions(
        ["a red car", "a blue car", "a red car", "a red car"], num_proc=1, progress=False
    )
    assert index.count(Binding("red", "car")) == 3
    assert index.count(Binding("blue", "car")) == 1
    assert index.n_captions == 4


def test_queries_take_plain_tuples(index):
    assert index.count(("red", "apple")) == 3 and index.seen(("blue", "sky"))
    assert ("large", "dog") in index and ("green", "apple") not in index
    assert index.count(("green", "apple")) == 0 and not index.seen(("green", "apple"))
    for bad in ["red apple", ("red",), ("red", 1), ["red", "apple"]]:
        with pytest.raises(TypeError, match=r"a Binding or an \(attribute, object\) tuple"):
            index.seen(bad)
    with pytest.raises(TypeError, match="normalise_binding"):
        index.count(("red", "apple", "x"))


# ----------------------------------------------------------------------------- fingerprint
def test_fingerprint_records_what_seen_means(index):
    fp = index.fingerprint
    # the keys the index file's reader requires, and the triples' flag
    assert set(fp) == FINGERPRINT_KEYS | {"relations"}
    assert fp["relations"] is True and fp["format"] == "bindsplit-reference/3"
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
    assert dict(loaded.relation_items()) == dict(naive_relation_counts(CAPTIONS))
    parquet = pq.ParquetFile(path)
    assert parquet.schema_arrow.names == [
        "attribute",
        "object",
        "count",
        "digest",
        "subject",
        "relation",
    ]
    assert parquet.num_row_groups == 3  # the bindings, the triples, then the caption digests
    bindings = parquet.read_row_group(0)
    assert bindings.column("count").to_pylist() == [1, 1, 2, 1, 3]  # by attribute, object
    assert bindings.column("digest").null_count == 5 == bindings.column("subject").null_count
    triples = parquet.read_row_group(1)
    expected_triples = sorted(naive_relation_counts(CAPTIONS).items())
    assert triples.column("subject").to_pylist() == [t.subject for t, _ in expected_triples]
    assert triples.column("count").to_pylist() == [n for _, n in expected_triples]
    assert triples.column("attribute").null_count == len(expected_triples)
    digests = parquet.read_row_group(2).column("digest").to_pylist()
    assert digests == sorted({caption_digest(c) for c in CAPTIONS})
    assert pq.read_metadata(path).metadata[b"bindsplit.format"] == b"bindsplit-reference/3"
    again = ReferenceIndex.load(loaded.save(tmp_path / "again.parquet"))
    assert again.fingerprint == loaded.fingerprint and dict(again.items()) == EXPECTED
    assert again.content_sha256() == index.content_sha256()


def rewrite(source: Path, target: Path, change) -> Path:
    """``source`` copied row group by row group, its key-value metadata passed through
    ``change`` (a dict of bytes to bytes, edited in place)."""
    parquet = pq.ParquetFile(source)
    meta = dict(parquet.metadata.metadata)
    change(meta)
    with pq.ParquetWriter(target, parquet.schema_arrow, store_schema=False) as writer:
        for group in range(parquet.num_row_groups):
            writer.write_table(parquet.read_row_group(group))
        writer.add_key_value_metadata(meta)
    return target


def test_the_build_record_is_kept_apart_from_the_fingerprint(index, tmp_path):
    assert {k: index.build[k] for k in ("engine", "num_proc")} == {
        "engine": "local",
        "num_proc": None,
    }
    assert set(index.build["seconds"]) == {"read", "parse", "count", "cpu", "combine", "merge"}
    loaded = ReferenceIndex.load(index.save(tmp_path / "ref.parquet"))
    assert loaded.build == index.build and loaded.fingerprint == index.fingerprint


def test_an_index_of_the_older_format_is_refused_in_one_line(index, tmp_path):
    saved = index.save(tmp_path / "ref.parquet")

    def older(meta):
        meta[b"bindsplit.format"] = b"bindsplit-reference/1"

    path = rewrite(saved, tmp_path / "v1.parquet", older)
    with pytest.raises(SchemaError) as caught:
        ReferenceIndex.load(path)
    message = str(caught.value)
    assert "\n" not in message
    assert (
        "older format (bindsplit-reference/1; this version reads bindsplit-reference/3 and "
        "bindsplit-reference/2)" in message
    )
    assert "bindsplit reference build SOURCE --out INDEX.parquet" in message


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
    with pytest.raises(SchemaError, match=r"`bindsplit reference build SOURCE --out INDEX"):
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

    def min_count_5(meta):
        fingerprint = json.loads(meta[b"bindsplit.fingerprint"])
        meta[b"bindsplit.fingerprint"] = json.dumps(fingerprint | {"min_count": 5}).encode()

    altered = rewrite(tmp_path / "good.parquet", tmp_path / "altered.parquet", min_count_5)
    with pytest.raises(SchemaError, match=r"altered.parquet: stored fingerprint does not match"):
        ReferenceIndex.load(altered)


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


# ----------------------------------------------------------------------------- relation triples
def test_triples_are_counted_in_the_same_pass(index):
    expected = naive_relation_counts(CAPTIONS)
    # "a red apple on the grass" states (apple, on, grass) under every reading of SPEC 1b
    assert expected[Relation("apple", "on", "grass")] == 1
    assert index.has_relations and dict(index.relation_items()) == dict(expected)
    assert index.n_relations == len(expected)
    assert index.relation_count(("apple", "on", "grass")) == 1
    assert index.seen_relation(Relation("apple", "on", "grass"))
    assert not index.seen_relation(("grass", "on", "apple"))
    assert index.relation_count(("grass", "on", "apple")) == 0
    assert not index.with_min_count(2).seen_relation(("apple", "on", "grass"))
    assert index.most_common_relations(1) == [(Relation("apple", "on", "grass"), 1)]
    with pytest.raises(TypeError, match=r"\(subject, relation, object\) tuple"):
        index.relation_count(("apple", "grass"))


def test_an_index_without_triples_serves_attributes_and_refuses_relations(index, tmp_path):
    bare = ReferenceIndex.from_captions(CAPTIONS, relations=False, progress=False)
    assert dict(bare.items()) == EXPECTED and not bare.has_relations and bare.n_relations == 0
    assert "relations" not in bare.fingerprint
    assert bare.fingerprint["digest"] != index.fingerprint["digest"]
    loaded = ReferenceIndex.load(bare.save(tmp_path / "bare.parquet"))
    assert not loaded.has_relations and loaded.fingerprint == bare.fingerprint
    with pytest.raises(RelationsMissingError) as caught:
        loaded.require_relations()
    message = str(caught.value)
    assert "\n" not in message and "bindsplit reference build SOURCE --out INDEX.parquet" in message
    with pytest.raises(RelationsMissingError):
        loaded.seen_relation(("apple", "on", "grass"))


def test_an_index_of_format_2_is_read_without_triples(tmp_path):
    """A file written before triples (bindsplit-reference/2: four columns) still loads for
    attribute builds, its fingerprint unchanged, and refuses relation lookups in one line."""
    old = ReferenceIndex(
        dict(EXPECTED),
        caption_digests=np.array([caption_digest(c) for c in CAPTIONS], dtype=np.uint64),
        min_count=1,
        n_captions=5,
        n_skipped=0,
        corpus={"kind": "captions"},
        index_format="bindsplit-reference/2",
    )
    saved = pq.ParquetFile(old.save(tmp_path / "new.parquet"))
    meta = dict(saved.metadata.metadata)
    meta[b"bindsplit.format"] = b"bindsplit-reference/2"
    layout = json.loads(meta[b"bindsplit.layout"])
    for key in ("relations", "relation_row_groups", "n_relations", "relations_sha256"):
        del layout[key]
    meta[b"bindsplit.layout"] = json.dumps(layout).encode()
    columns = ["attribute", "object", "count", "digest"]
    path = tmp_path / "v2.parquet"
    with pq.ParquetWriter(path, saved.schema_arrow.remove(5).remove(4), store_schema=False) as w:
        for group in range(saved.num_row_groups):
            w.write_table(saved.read_row_group(group, columns=columns))
        w.add_key_value_metadata(meta)
    loaded = ReferenceIndex.load(path)
    assert dict(loaded.items()) == EXPECTED and loaded.fingerprint == old.fingerprint
    assert loaded.fingerprint["format"] == "bindsplit-reference/2"
    assert loaded.contains_caption("a large brown dog") and not loaded.has_relations
    with pytest.raises(RelationsMissingError, match="bindsplit-reference/2"):
        loaded.require_relations()


def test_altered_triples_are_refused(index, tmp_path):
    saved = index.save(tmp_path / "ref.parquet")
    parquet = pq.ParquetFile(saved)
    path = tmp_path / "altered.parquet"
    with pq.ParquetWriter(path, parquet.schema_arrow, store_schema=False) as writer:
        for group in range(parquet.num_row_groups):
            table = parquet.read_row_group(group)
            if group == 1:  # the triples: one count raised
                counts = table.column("count").to_pylist()
                counts[0] += 1
                table = table.set_column(2, "count", pa.array(counts, pa.int64()))
            writer.write_table(table)
        writer.add_key_value_metadata(dict(parquet.metadata.metadata))
    with pytest.raises(SchemaError, match="triples do not match their recorded SHA-256"):
        ReferenceIndex.load(path)
