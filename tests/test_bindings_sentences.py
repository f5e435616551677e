"""The gold set of random real SugarCrepe captions labelled for issue 39 item 9
(``tests/data/bindings_gold_sentences.json``): well formed, held out by position, and the parser's
precision and recall on it above a floor (the measured figures, less a margin)."""

from __future__ import annotations

from collections import Counter

import gold_sets

from bindsplit_datasets.parsing import Binding, normalise_binding, parse_bindings

#: Measured P/R when each batch was labelled, before the rules of item 9 (batches A-C),
#: less a margin: development (332 captions) 0.956 / 0.956, held out (147) 0.992 / 1.000.
TARGETS = {"development": (0.94, 0.94), "heldout": (0.96, 0.97)}


def test_sentence_set_is_well_formed():
    items = gold_sets.items(gold_sets.SENTENCES)
    assert len({item["id"] for item in items}) == len(items) >= 450
    labelled = {
        (i["source"]["file"], i["source"]["key"], i["source"]["column"])
        for path in (gold_sets.SUGARCREPE, gold_sets.BOUNDARIES)
        for i in gold_sets.items(path)
        if "source" in i
    }
    for item in items:
        source = item["source"]
        assert (source["file"], source["key"], source["column"]) not in labelled, item["id"]
        position = int(item["id"].split("-")[1][1:])  # held out by its position in the draw
        assert item["split"] == ("heldout" if position % 10 in (2, 5, 8) else "development")
        for attribute, obj in item["bindings"]:  # labels are already normalised
            assert normalise_binding(attribute, obj) == Binding(attribute, obj), item["id"]
    splits = Counter(item["split"] for item in items)
    assert 0.25 <= splits["heldout"] / len(items) <= 0.35, splits


def test_sentence_set_precision_and_recall(shared_data):
    texts = gold_sets.real_texts(shared_data)
    items = gold_sets.items(gold_sets.SENTENCES)
    groups, errors, skipped = gold_sets.score(
        items, texts, parse_bindings, lambda item: [item["split"]]
    )
    report = "\n".join(["sentence gold set", *gold_sets.table(groups), *errors])
    assert skipped == 0
    for split, (p_min, r_min) in TARGETS.items():
        precision, recall = gold_sets.micro(groups[split])
        assert precision >= p_min and recall >= r_min, report
