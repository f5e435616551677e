"""``bindsplit reference build / info / lookup``, and ``bindsplit build --reference`` given a
folder of Parquet caption shards (offline)."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest
from fixtures_sources import label_names, make_bivlc_source
from reference_corpus import CAPTIONS, EXPECTED, naive_relation_counts, write_shards

from bindsplit_datasets import cli
from bindsplit_datasets.reference import ReferenceIndex

# Reference captions as shards, and BiVLC rows labelled by hand against them.
REFERENCE = ["a red car on the road", "a white dog on the grass", None, "a black cat on a sofa"]
BIVLC_ROWS = [
    {"caption": "a red car", "negative_caption": "a white dog"},  # seen
    {"caption": "a purple car", "negative_caption": "a golden dog"},  # unseen
    {"caption": "a red car", "negative_caption": "a purple dog"},  # partial
    {"caption": "two people walking", "negative_caption": "three people walking"},  # none
]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """An index built by the command from a folder of shards (CAPTIONS + one null caption)."""
    work = tmp_path_factory.mktemp("reference_command")
    shards = write_shards(work / "shards", [*CAPTIONS, None])
    out = work / "index.parquet"
    argv = ["reference", "build", str(shards), "--out", str(out), "--num-workers", "1"]
    assert cli.main(argv) == 0
    return out


def test_build_writes_the_index_of_the_shards(built, capsys):
    index = ReferenceIndex.load(built)
    assert dict(index.items()) == EXPECTED
    assert (index.n_captions, index.n_skipped, index.min_count) == (5, 1, 1)
    assert index.fingerprint["corpus"]["name"] == "shards"
    assert (index.build["engine"], index.build["num_proc"]) == ("local", 1)
    out = built.with_name("min2.parquet")
    capsys.readouterr()
    assert cli.main(["reference", "build", str(built), "--out", str(out), "--min-count", "2"]) == 0
    again = ReferenceIndex.load(out)
    assert again.fingerprint == index.with_min_count(2).fingerprint
    assert capsys.readouterr().out == (
        f"wrote {out}: 5 distinct bindings and {again.n_relations} distinct relation triples "
        "from 5 captions (1 skipped), min_count 2, "
        f"fingerprint {again.fingerprint['digest']}\n"
    )


def test_info_prints_fingerprint_counts_and_most_common_bindings(built, capsys):
    assert cli.main(["reference", "info", str(built), "--top", "3"]) == 0
    printed = capsys.readouterr().out
    index = ReferenceIndex.load(built)
    lines = printed.splitlines()
    assert lines[:2] == [f"index: {built}", f"fingerprint: {index.fingerprint['digest']}"]
    start = lines.index("{")
    end = lines.index("}", start)
    assert json.loads("\n".join(lines[start : end + 1])) == index.fingerprint
    assert lines[end + 1 :] == [
        "built with: the local engine, 1 worker",
        "captions: 5 (1 skipped; 4 distinct)",
        "distinct bindings: 5 (5 seen at min_count 1)",
        "most common bindings (top 3):",
        "count  attribute  object",
        "    3  red        apple",
        "    2  ceramic    mug",
        "    1  blue       sky",
        *lines[end + 9 :],
    ]
    (triple, count), *_ = naive_relation_counts(CAPTIONS).most_common()
    assert lines[end + 9 : end + 12] == [
        f"distinct relation triples: {index.n_relations}",
        "most common relation triples (top 3):",
        "count  subject  relation  object",
    ]
    assert lines[end + 12].split() == [str(count), triple.subject, triple.relation, triple.object]


def test_lookup_prints_each_binding_and_triple_with_count_and_status(built, capsys):
    captions = ["A red apple and a green mug.", "The sky is blue", "a red apple on the grass"]
    captions.append("two people")
    assert cli.main(["reference", "lookup", str(built), *captions, "--min-count", "2"]) == 0
    printed = capsys.readouterr().out
    digest = ReferenceIndex.load(built).with_min_count(2).fingerprint["digest"]
    assert printed.splitlines() == [
        f"reference {digest} (5 captions), min_count 2",
        "",
        "caption: 'A red apple and a green mug.' (verbatim in the reference: no)",
        "attribute  object  count  status",
        "red        apple       3  seen",
        "green      mug         0  unseen",
        "no relation triple found",
        "",
        "caption: 'The sky is blue' (verbatim in the reference: yes)",
        "attribute  object  count  status",
        "blue       sky         1  unseen",
        "no relation triple found",
        "",
        # (apple, on, grass): in one reference caption, under min_count 2
        "caption: 'a red apple on the grass' (verbatim in the reference: yes)",
        "attribute  object  count  status",
        "red        apple       3  seen",
        "subject  relation  object  count  status",
        "apple    on        grass       1  unseen",
        "",
        "caption: 'two people' (verbatim in the reference: no)",
        "no attribute-object binding found",
        "no relation triple found",
    ]


def test_lookup_in_an_index_without_triples_says_so(tmp_path, capsys):
    path = tmp_path / "bindings_only.parquet"
    ReferenceIndex.from_captions(CAPTIONS, relations=False).save(path)
    assert cli.main(["reference", "lookup", str(path), "a red apple on the grass"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == (
        "relation triples: none in this index (it counts bindings only); rebuild it from its "
        "corpus with `bindsplit reference build` to look triples up"
    )
    assert lines[3:] == [
        "caption: 'a red apple on the grass' (verbatim in the reference: yes)",
        "attribute  object  count  status",
        "red        apple       3  seen",
    ]


def test_bad_input_is_one_message_and_writes_nothing(built, tmp_path, capsys):
    before = sorted(p.name for p in built.parent.iterdir())
    capsys.readouterr()
    cases = [
        (
            ["build", str(built), "--out", str(built)],
            "holds a previous BindSplit reference index; pass --overwrite",
        ),
        (["build", str(built), "--out", str(tmp_path / "i.pq")], "must end in .parquet"),
        (["build", "nowhere", "--out", str(tmp_path / "i.parquet")], "unknown reference"),
        (
            ["build", str(built), "--out", str(tmp_path / "i.parquet"), "--ray-address", "auto"],
            "a Ray address needs the ray engine",
        ),
        (["info", str(tmp_path / "absent.parquet")], "absent.parquet not found"),
    ]
    for argv, message in cases:
        assert cli.main(["reference", *argv]) == 2
        assert message in capsys.readouterr().err
    assert sorted(p.name for p in built.parent.iterdir()) == before
    assert list(tmp_path.iterdir()) == []


def test_build_a_benchmark_against_a_shard_folder_offline(tmp_path, capsys):
    shards = write_shards(tmp_path / "reference_shards", REFERENCE, n_shards=2)
    source = make_bivlc_source(tmp_path / "bivlc.parquet", BIVLC_ROWS)
    out = tmp_path / "bivlc_split"
    argv = ["build", "bivlc", "--source", str(source), "--reference", str(shards)]
    assert cli.main([*argv, "--out", str(out)]) == 0
    manifest = json.loads((out / "bindsplit.json").read_text())
    assert manifest["configs"] == {"full": 4, "seen": 1, "unseen": 1, "partial": 1, "balanced": 1}
    reference = manifest["reference"]
    assert reference == ReferenceIndex.from_parquet(shards, progress=False).fingerprint
    assert reference["corpus"]["kind"] == "parquet"
    assert reference["corpus"]["name"] == "reference_shards"
    assert (reference["n_captions"], reference["n_skipped"]) == (3, 1)
    assert str(tmp_path) not in json.dumps(reference)  # names the corpus, not where it lies
    full = datasets.load_dataset(str(out), "full", split="test")
    assert label_names(full) == ["seen", "unseen", "partial", "none"]
    assert f"wrote {out}" in capsys.readouterr().out
