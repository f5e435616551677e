"""Builds by binding kind (``--bindings relation|both``, SPEC section 1b): ARO VG-Relation from its
records, SugarCrepe / BiVLC / VisMin relation samples from the relation parser, all against a
hand-made reference corpus whose triples the test controls; the kind in the manifest, the
fingerprint, the card and the results record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixtures_sources import (
    aro_vgr_record,
    label_names,
    make_aro_source,
    make_bivlc_source,
    make_vismin_source,
)
from fixtures_sugarcrepe import make_sugarcrepe_source

from bindsplit_datasets.benchmarks import get_benchmark
from bindsplit_datasets.builds.builder import build_benchmark, prepare_benchmark
from bindsplit_datasets.builds.manifest import rows_fingerprint
from bindsplit_datasets.cli import main
from bindsplit_datasets.errors import RelationsMissingError
from bindsplit_datasets.evaluation import evaluate_scores
from bindsplit_datasets.loading import load_bindsplit
from bindsplit_datasets.parsing import Binding, Relation, parse_relations
from bindsplit_datasets.reference import ReferenceIndex

#: The reference corpus: the triples the labels below are computed from.
REFERENCE = [
    "a cup on a table",  # (cup, on, table)
    "a cat on a bed",  # (cat, on, bed)
    "a bed on a cat",  # (bed, on, cat)
    "a man wearing a shirt",  # (man, wear, shirt) once lemmatised
    "a black cat",  # (black, cat): an attribute binding, no triple
]

#: ARO VG-Relation records (subject, relation_name, object) and their labels by construction.
ARO_RECORDS = [
    ("cup", "on", "table", "partial"),  # true seen, false (table, on, cup) unseen
    ("cat", "on", "bed", "seen"),  # both (cat, on, bed) and (bed, on, cat) seen
    ("dog", "under", "chair", "unseen"),  # neither seen
    ("man", "wearing", "shirt", "partial"),  # (man, wear, shirt) seen, (shirt, wear, man) not
]


def wear() -> str:
    """The relation the parser reads in "a man wearing a shirt" (its verb lemma, SPEC 1b)."""
    (triple,) = parse_relations("a man wearing a shirt")
    assert (triple.subject, triple.object) == ("man", "shirt")
    return triple.relation


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("relations")


@pytest.fixture(scope="module")
def reference_file(work) -> Path:
    path = work / "reference.txt"
    path.write_text("\n".join(REFERENCE) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def aro_source(work) -> Path:
    records = [aro_vgr_record(i, s, r, o) for i, (s, r, o, _) in enumerate(ARO_RECORDS)]
    return make_aro_source(
        work / "aro_vgr",
        records=records,
        image_format="PNG",
        annotation_file="visual_genome_relation.json",
    )


@pytest.fixture(scope="module")
def aro_build(work, aro_source, reference_file):
    return build_benchmark(
        "aro_vgr",
        out=work / "aro_vgr_build",
        source=aro_source,
        reference=reference_file,
        binding_kind="relation",
    )


# ----------------------------------------------------------------------------- ARO VG-Relation
def test_aro_vgr_triples_come_from_the_records(aro_source):
    adapter = get_benchmark("aro_vgr")
    loaded = adapter.load(aro_source)
    assert loaded.identity["files"] == ["visual_genome_relation.json"]
    assert loaded.report.problems == {}
    triples = adapter.all_caption_relations(loaded.dataset)
    assert triples[0] == [[Relation("cup", "on", "table")], [Relation("table", "on", "cup")]]
    assert triples[2] == [[Relation("dog", "under", "chair")], [Relation("chair", "under", "dog")]]
    assert triples[3] == [[Relation("man", wear(), "shirt")], [Relation("shirt", wear(), "man")]]
    assert [adapter.macro_group(row) for row in loaded.dataset.remove_columns("image")] == [
        "on",
        "on",
        "under",
        "wearing",
    ]


def test_aro_vgr_build_gives_the_labels_known_by_construction(aro_build, reference_file):
    folder = aro_build.path
    manifest = json.loads((folder / "bindsplit.json").read_text())
    assert manifest["benchmark"] == "aro_vgr" and manifest["binding_kind"] == "relation"
    data = load_bindsplit(folder)
    assert label_names(data.dataset) == [label for *_, label in ARO_RECORDS]
    assert "caption_relations" in data.dataset.column_names
    assert "caption_bindings" not in data.dataset.column_names
    first = data.dataset[0]
    assert first["caption_relations"] == [
        [{"subject": "cup", "relation": "on", "object": "table", "count": 1, "seen": True}],
        [{"subject": "table", "relation": "on", "object": "cup", "count": 0, "seen": False}],
    ]
    assert first["caption_familiarity"] == [1.0, 0.0] and first["asymmetric"]
    assert data.dataset[1]["balanced"] and not data.dataset[2]["balanced"]
    assert manifest["configs"] == {"full": 4, "seen": 1, "unseen": 1, "partial": 2, "balanced": 1}
    # the same source by attribute bindings: another build, another fingerprint
    other = prepare_benchmark("aro_vgr", source=folder.parent / "aro_vgr", reference=reference_file)
    assert other.binding_kind == "attribute" and set(other.labels) == {"none"}
    card = (folder / "README.md").read_text()
    assert "**Binding kind: `relation`**" in card and "`caption_relations`" in card


def test_the_binding_kind_is_part_of_the_fingerprint_and_the_results_record(aro_build, work):
    manifest = aro_build.manifest
    scores = {str(i): [[1.0, 0.0]] for i in range(len(ARO_RECORDS))}
    record = evaluate_scores(scores, aro_build.path, name="oracle", n_bootstrap=10)
    assert record["dataset"]["binding_kind"] == "relation"
    assert record["dataset"]["fingerprint"] == manifest["fingerprint"]
    # the kind is hashed with the rows: the same rows under another kind fingerprint otherwise
    data = load_bindsplit(aro_build.path)
    assert rows_fingerprint(data.dataset, ("image",), "relation") == manifest["fingerprint"]
    assert rows_fingerprint(data.dataset, ("image",), "both") != manifest["fingerprint"]


def test_a_relation_build_refuses_an_index_without_triples(work, aro_source, reference_file):
    bare = ReferenceIndex.from_text_file(reference_file, relations=False, progress=False)
    path = bare.save(work / "bare.parquet")
    with pytest.raises(RelationsMissingError) as caught:
        prepare_benchmark("aro_vgr", source=aro_source, reference=path, binding_kind="relation")
    message = str(caught.value)
    assert "\n" not in message and "bindsplit reference build" in message
    assert prepare_benchmark("aro_vgr", source=aro_source, reference=path).labels  # attribute: ok


def test_build_command_takes_the_binding_kind(work, aro_source, reference_file, capsys):
    out = work / "cli_build"
    argv = ["build", "aro_vgr", "--source", str(aro_source), "--reference", str(reference_file)]
    assert main([*argv, "--out", str(out), "--bindings", "relation"]) == 0
    assert json.loads((out / "bindsplit.json").read_text())["binding_kind"] == "relation"
    printed = capsys.readouterr().out
    # the composition names the units it counts, on the terminal and on the card
    card = (out / "README.md").read_text()
    for text in (printed, card):
        assert "positive-caption triples seen" in text
        assert "negative captions with a triple seen" in text
        assert "unseen, of samples with triples" in text
        assert "positive-caption bindings seen" not in text
    assert "Positive captions' triples are seen at" in card
    assert "binding relations to their subjects and objects" in card
    assert "binding attributes to objects" not in card
    # the paper reports no composition for ARO VG-Relation: said, not dropped silently
    assert (
        "note: no paper column: the BindSplit paper reports no composition figures for "
        "ARO VG-Relation" in printed
    )
    with pytest.raises(SystemExit):
        main([*argv, "--out", str(work / "bad"), "--bindings", "verbs"])
    assert "--bindings" in capsys.readouterr().err


# ----------------------------------------------------------------------------- parsed captions
SUGARCREPE = {
    "replace_rel": [
        # (cat, on, bed) seen, (cat, under, bed) unseen
        (139, "the cat on the bed", "the cat under the bed"),
        (285, "a dog under a chair", "a dog on a chair"),  # neither seen
    ],
    "swap_obj": [
        (776, "the cat on the bed", "the bed on the cat"),  # both seen
    ],
}
SUGARCREPE_LABELS = {
    ("the cat on the bed", "the cat under the bed"): "partial",
    ("a dog under a chair", "a dog on a chair"): "unseen",
    ("the cat on the bed", "the bed on the cat"): "seen",
}


def test_sugarcrepe_relation_subsets_labelled_by_triples(work, reference_file):
    root = make_sugarcrepe_source(work / "sugarcrepe", SUGARCREPE)
    prepared = prepare_benchmark(
        "sugarcrepe",
        source=root / "data",
        source_options={"images": root / "val2017"},
        reference=reference_file,
        binding_kind="relation",
    )
    rows = prepared.source.dataset.select_columns(["caption", "negative_caption"]).to_list()
    found = {
        (r["caption"], r["negative_caption"]): a.label
        for r, a in zip(rows, prepared.annotations, strict=True)
    }
    assert found == SUGARCREPE_LABELS
    swap = next(
        a
        for r, a in zip(rows, prepared.annotations, strict=True)
        if r["negative_caption"] == "the bed on the cat"
    )
    assert [
        [(t.subject, t.relation, t.object, t.seen) for t in c] for c in swap.caption_relations
    ] == [
        [("cat", "on", "bed", True)],
        [("bed", "on", "cat", True)],
    ]
    # label-free check of swap_obj: the negative's triple is the positive's, arguments exchanged
    (positive,), (negative,) = swap.caption_relations
    assert (negative.subject, negative.object) == (positive.object, positive.subject)


def test_bivlc_and_vismin_relation_samples(work, reference_file):
    bivlc = make_bivlc_source(
        work / "bivlc.parquet",
        [
            {
                "caption": "the cat on the bed",
                "negative_caption": "the cat under the bed",
                "subtype": "rel",
            },
            {"caption": "a black cat on a bed", "negative_caption": "a black cat under a bed"},
        ],
    )
    by_relation = prepare_benchmark(
        "bivlc", source=bivlc, reference=reference_file, binding_kind="relation"
    )
    assert by_relation.labels == ["partial", "partial"]
    by_attribute = prepare_benchmark("bivlc", source=bivlc, reference=reference_file)
    assert by_attribute.labels == ["none", "seen"]  # only (black, cat), seen
    both = prepare_benchmark("bivlc", source=bivlc, reference=reference_file, binding_kind="both")
    assert both.labels == ["partial", "partial"]
    row = both.annotations[1].to_row()
    assert row["caption_bindings"][1] == [
        {"attribute": "black", "object": "cat", "count": 1, "seen": True}
    ]
    assert row["caption_familiarity"] == [1.0, 0.5]  # (black, cat) seen, (cat, under, bed) not
    vismin = make_vismin_source(
        work / "vismin.parquet",
        [
            {
                "text_0": "a dog under a chair",
                "text_1": "a chair under a dog",
                "category": "relation",
            }
        ],
    )
    prepared = prepare_benchmark(
        "vismin",
        source=vismin,
        reference=reference_file,
        binding_kind="relation",
        source_options={"pairing": "as-stored"},
    )
    assert prepared.labels == ["unseen"]


def test_a_build_of_both_kinds_reads_each_distinct_caption_once(work, monkeypatch):
    from bindsplit_datasets.parsing import pipeline

    bivlc = make_bivlc_source(
        work / "bivlc-both.parquet",
        [
            {"caption": "a black cat on a bed", "negative_caption": "a black cat under a bed"},
            {"caption": "a black cat on a bed", "negative_caption": "a red cup near a plate"},
        ],
    )
    adapter = get_benchmark("bivlc")
    dataset = adapter.load(bivlc).dataset
    separately = (adapter.all_caption_bindings(dataset), adapter.all_caption_relations(dataset))
    read: list[tuple[str, frozenset[str]]] = []
    real = pipeline.PIPELINE.read

    def spy(text, want=pipeline.BINDINGS, *args, **kwargs):
        read.append((text, want))
        return real(text, want, *args, **kwargs)

    monkeypatch.setattr(pipeline.PIPELINE, "read", spy)
    assert adapter.all_caption_bindings_and_relations(dataset) == separately
    assert sorted(read) == sorted(
        (text, pipeline.BOTH)
        for text in ("a black cat on a bed", "a black cat under a bed", "a red cup near a plate")
    )


# ----------------------------------------------------------------------------- reports
def test_compare_and_the_leaderboard_show_the_binding_kind():
    from leaderboard_records import leaderboard_records

    from bindsplit_datasets.reports.leaderboard_view import binding_kinds, board
    from bindsplit_datasets.reports.leaderboards import format_comparison

    records = [
        r
        for r in leaderboard_records()
        if r["dataset"]["benchmark"] == "bivlc" and r["dataset"]["fingerprint"] == "f1-coco2017"
    ]
    relation = [
        {**r, "dataset": {**r["dataset"], "binding_kind": "relation", "fingerprint": "rel"}}
        for r in records
    ]
    text = format_comparison(records + relation, configs=["full"])
    attribute_block, relation_block = text.split("\n\n")
    assert attribute_block.startswith("bivlc: ") and "bindings" not in attribute_block
    assert relation_block.startswith("bivlc (relation bindings): ")
    header = next(
        line for line in relation_block.splitlines() if line.split()[:2] == ["rank", "model"]
    )
    assert header.split()[:3] == ["rank", "model", "bindings"]
    assert all(
        line.split()[2] == "relation"
        for line in relation_block.splitlines()
        if line.split()[:1] and line.split()[0].isdigit()  # a ranked row
    )
    assert binding_kinds(records + relation, "bivlc") == ["attribute", "relation"]
    view = board(records + relation, "bivlc", kind="relation")
    assert view.overview_columns()[:3] == ["rank", "model", "binding_kind"]
    assert view.overview() and {line[2] for line in view.overview()} == {"relation"}
    assert "different builds" in board(records + relation, "bivlc").note  # kinds never mixed


# ----------------------------------------------------------------------------- labels
class _Counts:
    """A hand-made reference: what labelling asks of one."""

    min_count = 1

    def count(self, binding):
        return {Binding("red", "apple"): 2}.get(binding, 0)

    def relation_count(self, triple):
        return {Relation("apple", "on", "table"): 1}.get(triple, 0)


def test_labels_follow_section_3_with_triples_in_place_of_pairs():
    from bindsplit_datasets.builds.features import ANNOTATION_COLUMNS, annotation_columns
    from bindsplit_datasets.labels import annotate_sample, composition, config_includes

    counts = _Counts()
    bindings = [[Binding("red", "apple")], [Binding("red", "apple")]]
    triples = [[Relation("apple", "on", "table")], [Relation("table", "on", "apple")]]
    by_attribute = annotate_sample(bindings, counts, caption_relations=triples)
    assert by_attribute.label == "seen" and by_attribute.caption_relations is None
    assert tuple(by_attribute.to_row()) == ANNOTATION_COLUMNS
    by_relation = annotate_sample(None, counts, caption_relations=triples, binding_kind="relation")
    assert (by_relation.label, by_relation.asymmetric) == ("partial", True)
    assert by_relation.caption_familiarity == (1.0, 0.0) and not by_relation.balanced
    row = by_relation.to_row()
    assert tuple(row) == annotation_columns("relation")
    assert row["caption_relations"][1] == [
        {"subject": "table", "relation": "on", "object": "apple", "count": 0, "seen": False}
    ]
    both = annotate_sample(bindings, counts, caption_relations=triples, binding_kind="both")
    assert both.label == "partial" and both.caption_familiarity == (1.0, 0.5)
    assert tuple(both.to_row()) == annotation_columns("both")
    # rows and annotations give the same composition and configurations
    for annotation in (by_relation, both):
        assert composition([annotation.to_row()]).to_dict() == composition([annotation]).to_dict()
        for config in ("seen", "unseen", "partial", "balanced"):
            assert config_includes(config, annotation.to_row()) == config_includes(
                config, annotation
            )
    stats = composition([by_relation])
    assert (stats.positive_seen_rate, stats.negative_seen_rate) == (1.0, 0.0)
    with pytest.raises(ValueError, match="caption_relations"):
        annotate_sample(bindings, counts, binding_kind="relation")
    with pytest.raises(ValueError, match="unknown binding kind 'verbs'"):
        annotate_sample(bindings, counts, binding_kind="verbs")
