"""The noun runs both readers read (parsing/chunks.py): the one-pass scan equals the regular
expression it replaced, on every sequence of unit kinds."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bindsplit_datasets.parsing import kinds as un
from bindsplit_datasets.parsing.chunks import noun_runs as _noun_runs
from bindsplit_datasets.parsing.units import Units

_KINDS = (un.NOUN, un.ATTR, un.DET, un.CONJ, un.PREP, un.ADV, un.OTHER)


def _units(kinds: list[str]) -> Units:
    words = [f"w{i}" for i in range(len(kinds))]
    return Units(words, list(words), kinds, ["NN"] * len(kinds))


def test_noun_runs_of_hand_made_kinds():
    assert _noun_runs(_units([])) == []
    assert _noun_runs(_units(list("NNDNAN"))) == [(0, 2), (3, 4), (5, 6)]
    assert _noun_runs(_units(list("DANNCN"))) == [(2, 4), (5, 6)]
    assert _noun_runs(_units(list("DAC"))) == []


@settings(deadline=None, database=None, max_examples=300)
@given(st.lists(st.sampled_from(_KINDS), max_size=20))
def test_noun_runs_equal_the_regular_expression_over_the_kinds(kinds: list[str]) -> None:
    reference = [match.span() for match in re.finditer(f"{un.NOUN}+", "".join(kinds))]
    assert _noun_runs(_units(kinds)) == reference
