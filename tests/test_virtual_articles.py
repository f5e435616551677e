"""Article-less noun phrases are tagged with their article restored (parsing/virtual_articles.py):
where the restored articles go, that the tags are those of the written-out caption, and that the
captions then parse as written."""

from __future__ import annotations

import pytest

from bindsplit_datasets.parsing import explain, parse_bindings, tagger
from bindsplit_datasets.parsing.text import tokenise
from bindsplit_datasets.parsing.virtual_articles import article_sites, tag_caption


@pytest.mark.parametrize(
    ("caption", "sites"),
    [
        # after a preposition or a third-person verb, before two or more words
        ("elephant standing near flowering tree", [3]),
        ("skillet contains diced meat", [2]),
        ("man sits on wooden bench by lake", [3]),
        # none: a determiner, possessive, number, colour or preposition opens the phrase
        ("dog near the flowering tree", []),
        ("cat on his lap", []),
        ("man with two dogs", []),
        ("woman in black and white", []),
        ("cat next to wooden pillow", []),  # "next" before "to": no article before "to"
        # after a verb a one-word phrase too; after a preposition none ("in front of")
        ("horse pulling trolley behind it", [2]),
        ("man in front of car", []),
        ("people on top of hill", []),
        # none: a one-word phrase after a preposition, or the caption's first phrase
        ("dog on bed.", []),
        ("yawning statue on plinth", []),
        ("", []),
    ],
)
def test_articles_are_restored_before_bare_phrases_after_prepositions_and_verbs(caption, sites):
    assert article_sites(tokenise(caption)) == sites


def test_the_tags_are_those_of_the_caption_with_its_articles_written():
    bare = tokenise("elephant standing near flowering tree on grassy hill")
    written = tokenise("elephant standing near a flowering tree on a grassy hill")
    tags = tagger.get_tagger().tag(written)
    expected = [tag for token, tag in zip(written, tags, strict=True) if token != "a"]
    assert tag_caption(bare) == expected
    assert len(tag_caption(bare)) == len(bare)
    assert tag_caption(["dog"]) == tagger.get_tagger().tag(["dog"])


def test_the_article_agrees_with_the_noun_after_the_first_word():
    # "the" before a plural phrase, "a" before a singular one: each tags as written out
    for bare, written in (
        ("man walks past parked cars", "man walks past the parked cars"),
        ("man walks past parked car", "man walks past a parked car"),
    ):
        kept = [t for t in tokenise(written) if t not in ("a", "the")]
        tags = tagger.get_tagger().tag(tokenise(written))
        expected = [
            g for t, g in zip(tokenise(written), tags, strict=True) if t not in ("a", "the")
        ]
        assert kept == tokenise(bare)
        assert tag_caption(tokenise(bare)) == expected


@pytest.mark.parametrize(
    ("bare", "written"),
    [
        ("elephant standing near flowering tree.", "An elephant standing near a flowering tree."),
        ("giraffes look over railing blockade.", "Giraffes look over a railing blockade."),
        ("person in residential area stops near walking sign.",
         "A person in a residential area stops near a walking sign."),
    ],
)  # fmt: skip
def test_article_less_captions_parse_as_written(bare, written):
    assert parse_bindings(bare) == parse_bindings(written)


def test_an_explanation_names_the_tokens_an_article_was_restored_before():
    explanation = explain("elephant standing near flowering tree")
    assert explanation.articles_restored == (3,)
    assert explanation.to_dict()["articles_restored"] == [3]
    assert "tagged with an article restored before: 'flowering'" in explanation.lines()
    assert explain("an elephant near a flowering tree").articles_restored == ()
