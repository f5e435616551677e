"""The binding rules: which (attribute, object) pairs a caption states (protocol section 1).

A caption is lower-cased, tokenised by a regular expression (no NLTK data needed), tagged with
NLTK's averaged-perceptron tagger and read by the rules below. What counts as a binding:

Attribute words
    adjectives, every word of the attribute lexicon (:mod:`.lexicon`: colours,
    materials, patterns, sizes, shapes, textures, states, ages, common qualities and origins)
    whatever its tag, and participles used as modifiers right after a determiner or adjective
    ("a parked car", "a smiling man") or, past participles, a preposition ("with sliced apples").
    A word the tagger calls an adjective that is not in the lexicon and has no adjective ending
    is read as a noun before another noun ("kitchen/JJ scene" is a compound, not (kitchen,
    scene)). Multi-word attributes stay whole: shaded colours and other lexicon phrases ("light
    brown", "stainless steel", "hard boiled") and noun + participle compounds ("snow covered",
    "tree lined"). "cream colored" / "nice looking" keep only the attribute ("cream", "nice");
    degree adverbs are dropped ("very large" -> "large").
Positions
    *attributive*: the modifiers between a determiner and the object ("a large brown dog" ->
    (large, dog), (brown, dog)), including *conjoined* ones ("a red and white bus", with a serial
    comma "a green, yellow, and red kite"); a modifier binds to the noun it precedes, not to
    coordinated nouns after it ("tall trees and buildings" -> (tall, tree)). *Elliptical*
    conjuncts whose noun is left out bind to the noun of the last one ("one black and one white
    cat", "two red and three blue balloons" -> both). *Predicative*: adjectives after a copula
    ("is", "are", "looks", "seems", ...) bind to the subject: the noun before the copula or before
    "that/which/who is", climbing out of a prepositional phrase ("the dog on the bed is white" ->
    dog) except after a group or container noun ("a bowl of soup is hot" -> soup); negated
    predicates ("is not empty") are skipped. A past participle counts there only coordinated with
    an adjective and with nothing after it ("the shop is closed and dark"; not "is parked on the
    street"). The main verb after a relative clause is no noun ("a cat that is grey sleeps on the
    sofa" -> (grey, cat)), and a copula right after one has the same subject ("a car that is red
    looks new" -> (new, car)). *Colour participles*: a colour after "painted", "dyed", ... binds to
    the noun before the participle or to the subject of the copula before it ("a wall painted
    blue", "a door that is painted red"), not when it modifies a noun after it ("painted red
    flowers"). Nothing else binds: post-nominal phrases ("a cup full of tea", "a bed covered with
    clothes"), secondary predicates ("holding the door open") and elliptical phrases without a
    noun after them ("one grown and one baby, standing") are not attribute slots.
Objects
    the head noun with its compound ("teddy bear", "fire hydrant", "tennis racket": a run of nouns
    is one object; :data:`.lexicon.COMPOUND_NOUNS` lists compounds whose first
    word is an adjective or gerund, e.g. "hot dog", "living room"), except lexicon words at its
    left edge, which are attributes ("glass vase" -> (glass, vase)). Compounds written as two
    words are joined (:data:`.lexicon.SPLIT_COMPOUNDS`: "lap top" -> "laptop",
    "tea pot" -> "teapot"). The last word is singularised
    with ``inflect`` ("bananas" -> "banana", "people" -> "person"); singular words ending in "s"
    and pluralia tantum stay ("bus", "scissors", "jeans"); "glasses" becomes "glass".
Never attributes
    numbers, quantifiers and count words, determiners, order words and position words (two,
    several, many, other, lone, solo, left, top, front, next, ...), possessives, nouns inside a
    compound ("teddy" in "teddy bear"), and participles that describe only with the word before
    them when they stand alone ("different sized boxes"; but "medium sized", "large sized" ->
    "large"). Hyphens inside words are read as spaces, so "red-and-white" is conjoined and
    "snow-covered" == "snow covered".

The tagger is NLTK's pretrained English model, shipped with the package
(:mod:`.tagger`: NLTK's tags exactly, without NLTK or its data at run time).
"""

from __future__ import annotations

from . import lexicon as lx
from .normalise import Binding, object_of
from .units import (
    _ADV,
    _ATTR,
    _CONJ,
    _COPULA,
    _DET,
    _DISTRIBUTIVES,
    _ELLIPSIS_DETERMINERS,
    _GERUND,
    _MODIFIER_CONTEXT,
    _MODIFIERS,
    _NEG,
    _NOUN,
    _OTHER,
    _PART,
    _PREP,
    _REL,
    _WEAK,
    _is_adjective,
    _previous,
    _units,
)  # fmt: skip


def _noun_runs(kinds: list[str]) -> list[tuple[int, int]]:
    """(start, end) of every maximal run of nouns, end exclusive."""
    runs = []
    i, n = 0, len(kinds)
    while i < n:
        if kinds[i] == _NOUN:
            start = i
            while i < n and kinds[i] == _NOUN:
                i += 1
            runs.append((start, i))
        else:
            i += 1
    return runs


def _lone_attribute_noun(
    texts: list[str], kinds: list[str], i: int, *, predicate: bool = False
) -> bool:
    """A lexicon word tagged as a noun on its own, followed by more modifiers ("cloudy/NN blue
    sky", "grey/NN and red walls") or, with ``predicate``, after a copula ("the apples look
    ripe/NN"): an attribute, not an object."""
    if kinds[i] != _NOUN or texts[i] not in lx.ATTRIBUTES or (i > 0 and kinds[i - 1] == _NOUN):
        return False
    n = len(kinds)
    after = kinds[i + 1] if i + 1 < n else _OTHER
    if predicate:
        return after != _NOUN
    if after == _CONJ:  # "grey and red walls", "glass and metal table"; not "a glass and cups"
        j = i + 3 if _serial_comma(texts, i + 1) else i + 2
        while j < n and kinds[j] == _ADV:
            j += 1
        if j >= n or kinds[j] in (_ATTR, _WEAK, _PART):
            return j < n
        following = j + 1 < n and (
            (kinds[j + 1] == _NOUN and texts[j] in lx.ATTRIBUTES)  # "and metal table"
            or (kinds[j + 1] == _PART and texts[j + 1] in lx.NOUN_PARTICIPLES)  # ", tree lined"
        )
        return kinds[j] == _NOUN and following
    return after in (_ATTR, _WEAK, _PART) or (i + 1 < n and texts[i + 1] in lx.SUFFIX_WORDS)


def _is_modifier(texts: list[str], kinds: list[str], i: int) -> bool:
    return kinds[i] in _MODIFIERS or _lone_attribute_noun(texts, kinds, i)


def _serial_comma(texts: list[str], i: int) -> bool:
    """Whether the comma at ``i`` is followed by "and"/"or": ", and" is one conjunction."""
    return texts[i] == "," and i + 1 < len(texts) and texts[i + 1] in ("and", "or")


def _modifier_ok(texts: list[str], kinds: list[str], i: int) -> bool:
    """Whether the participle / verb-tagged lexicon word at ``i`` modifies the noun after it:
    something that opens or continues a noun phrase stands to its left. A present participle
    needs a determiner or an attribute there ("a sleeping cat"; not "men all eating bananas",
    "finished chopping onions", "holding and eating bananas", "riding horses" after a noun or
    preposition)."""
    j = _previous(kinds, i)
    if kinds[i] != _GERUND:
        return j < 0 or kinds[j] in _MODIFIER_CONTEXT or _lone_attribute_noun(texts, kinds, j)
    if j < 0:
        return False
    if kinds[j] == _DET:
        return texts[j] not in _DISTRIBUTIVES
    if kinds[j] == _CONJ:
        k = _previous(kinds, j)
        return k >= 0 and (kinds[k] in (_ATTR, _WEAK) or _lone_attribute_noun(texts, kinds, k))
    return kinds[j] in (_ATTR, _WEAK) or _lone_attribute_noun(texts, kinds, j)


def _split_object(texts: list[str], start: int, end: int) -> tuple[int, str]:
    """Lexicon words at the left edge of a noun run are attributes: (object start, object)."""
    while end - start > 1 and texts[start] in lx.ATTRIBUTES:
        start += 1
    return start, object_of(texts[start:end])


def _attributive(
    texts: list[str], kinds: list[str], start: int, end: int, found: list[tuple[int, Binding]]
) -> None:
    """Bindings of the noun run ``[start, end)`` with the modifiers before it. A run that is the
    noun of a compound attribute ("snow" in "white snow covered slope") takes the modifiers right
    before it, not conjoined ones ("snowy, tree lined path" says nothing about the tree)."""
    in_attribute = end < len(kinds) and kinds[end] == _PART and texts[end] in lx.NOUN_PARTICIPLES
    head, obj = _split_object(texts, start, end)
    for i in range(start, head):
        found.append((i, Binding(texts[i], obj)))
    i = start - 1
    while i >= 0:
        kind, text = kinds[i], texts[i]
        if kind == _ATTR or _lone_attribute_noun(texts, kinds, i):
            found.append((i, Binding(text, obj)))
        elif kind == _ADV:
            pass
        elif kind == _CONJ:
            j = _previous(kinds, i)
            if j >= 0 and _serial_comma(texts, j):
                j = _previous(kinds, j)  # "green, yellow, and red"
            if in_attribute or j < 0 or not _is_modifier(texts, kinds, j):
                return
        elif text in lx.SUFFIX_WORDS and i > 0 and _is_modifier(texts, kinds, i - 1):
            pass  # "cream colored", "nice looking": the attribute before it binds
        elif (
            kind == _PART
            and text in lx.NOUN_PARTICIPLES
            and i > 0
            and _noun_like(texts, kinds, i - 1)
        ):
            noun = texts[i - 1]
            if text in lx.SUFFIX_WORDS and noun in lx.ATTRIBUTES:
                found.append((i - 1, Binding(noun, obj)))  # "cream/NN colored"
            else:
                found.append((i - 1, Binding(f"{noun} {text}", obj)))  # "snow covered"
            if i < 2 or kinds[i - 2] != _CONJ:
                return  # "white snow covered slope": white snow, not a white slope
            i -= 1  # "a snowy, tree lined path": on to the conjunction
        elif kind in (_WEAK, _PART, _GERUND) and _modifier_ok(texts, kinds, i):
            if text not in lx.BOUND_PARTICIPLES:  # "different sized boxes": no attribute
                found.append((i, Binding(text, obj)))
        elif kind == _DET and texts[i] in _ELLIPSIS_DETERMINERS and not in_attribute:
            if any(i < position < start for position, _ in found):
                _elided(texts, kinds, i, obj, found)
            return
        else:
            return
        i -= 1


def _colour_noun(texts: list[str], kinds: list[str], i: int) -> bool:
    """A colour the tagger calls a noun, standing alone ("a brown/NN and a white horse")."""
    return (
        kinds[i] == _NOUN
        and texts[i] in lx.COLOURS
        and texts[i] not in lx.COLOUR_NOUNS
        and (i == 0 or kinds[i - 1] != _NOUN)
        and (i + 1 == len(kinds) or kinds[i + 1] != _NOUN)
    )


def _elided(
    texts: list[str], kinds: list[str], determiner: int, obj: str, found: list[tuple[int, Binding]]
) -> None:
    """Ellipsis: in "one black and one white cat" the conjuncts before the last one ("one
    black"), each a determiner and attributes with the noun left out, describe the same noun.
    ``determiner`` opens the last conjunct, which has attributes of its own."""
    while True:
        conjunction = _previous(kinds, determiner)
        if conjunction < 0 or kinds[conjunction] != _CONJ:
            return
        k = _previous(kinds, conjunction)
        if k >= 0 and _serial_comma(texts, k):
            k = _previous(kinds, k)
        attributes = []
        while k >= 0 and (kinds[k] in (_ATTR, _WEAK, _ADV) or _colour_noun(texts, kinds, k)):
            if kinds[k] != _ADV:
                attributes.append(k)
            k -= 1
        if not attributes or k < 0 or kinds[k] != _DET or texts[k] not in _ELLIPSIS_DETERMINERS:
            return
        found.extend((a, Binding(texts[a], obj)) for a in attributes)
        determiner = k


def _noun_like(texts: list[str], kinds: list[str], i: int) -> bool:
    """A noun, or a word the tagger calls an adjective that is none ("snow/JJ covered")."""
    return kinds[i] == _NOUN or (kinds[i] == _ATTR and not _is_adjective(texts[i]))


def _subject_runs(
    texts: list[str], kinds: list[str], copula: int, run_ending: dict[int, tuple[int, int]]
) -> list[tuple[int, int]]:
    """Noun runs a predicate after the copula at ``copula`` describes (may be empty)."""
    end = copula - 1
    climb = True
    if end >= 0 and kinds[end] == _REL:
        end -= 1
        climb = False
    run = run_ending.get(end)
    if run is None:
        return []
    runs = [run]
    while True:
        j = run[0] - 1
        while j >= 0 and kinds[j] in (_DET, _ATTR, _ADV, _PART, _GERUND, _WEAK):
            j -= 1
        earlier = run_ending.get(j - 1)
        if j < 1 or earlier is None:
            break
        if kinds[j] == _CONJ and texts[j] == "and" and len(runs) == 1:
            runs.append(earlier)  # "the cat and the dog are white"
            break
        if not climb or kinds[j] != _PREP or texts[j] not in lx.LOCATIVE_PREPOSITIONS:
            break
        if texts[j] == "of" and texts[earlier[1] - 1] in lx.GROUP_NOUNS:
            break  # "a bowl of soup is hot": the soup
        runs = [earlier]
        run = earlier
    return runs


def _predicative(
    texts: list[str],
    kinds: list[str],
    copula: int,
    subjects: list[tuple[int, int]],
    found: list[tuple[int, Binding]],
) -> int:
    """Bindings of the adjectives after the copula at ``copula`` with its subject noun runs;
    returns the index where the predicate ends.

    Past participles count only coordinated with an attribute and with nothing after them ("is
    closed and dark"; not "is parked next to", "is wet and covered in snow"); a colour participle
    passes its colours on ("is painted red")."""
    attributes: list[int] = []
    participles: list[int] = []
    i, n = copula + 1, len(kinds)
    while i < n:
        kind = kinds[i]
        if kind in (_ATTR, _WEAK) or _lone_attribute_noun(texts, kinds, i, predicate=True):
            attributes.append(i)
        elif texts[i] in lx.COLOUR_PARTICIPLES and (colours := _colours_after(texts, kinds, i)):
            attributes.extend(colours)
            i = colours[-1]
        elif kind == _PART and _ends_phrase(texts, kinds, i):
            participles.append(i)
        elif kind == _NEG:
            return i
        elif kind == _CONJ:
            if not attributes and not participles:
                return i
        elif kind != _ADV and texts[i] not in lx.INTENSIFIERS:  # "are all white"
            break
        i += 1
    if not attributes or (i < n and kinds[i] == _NOUN):
        return i  # nothing predicated, or the adjectives modify the noun after them
    attributes = sorted(attributes + participles)
    for start, end in subjects:
        obj = _split_object(texts, start, end)[1]
        found.extend((a, Binding(texts[a], obj)) for a in attributes)
    return i


def _ends_phrase(texts: list[str], kinds: list[str], i: int) -> bool:
    """Whether nothing but a conjunction or punctuation follows unit ``i`` (adverbs skipped)."""
    j = i + 1
    while j < len(kinds) and kinds[j] == _ADV:
        j += 1
    return j == len(kinds) or kinds[j] == _CONJ or not texts[j][0].isalnum()


def _colours_after(texts: list[str], kinds: list[str], participle: int) -> list[int]:
    """The colours right after a colour participle ("painted light blue and white"), or none
    when they modify a noun after them ("painted red flowers")."""
    colours: list[int] = []
    j, n = participle + 1, len(kinds)
    while j < n:
        if texts[j] in lx.COLOURS:
            colours.append(j)
        elif not (kinds[j] == _ADV or (kinds[j] == _CONJ and colours)):
            break
        j += 1
    if j < n and kinds[j] == _NOUN:
        return []
    return colours


def _colour_participles(
    texts: list[str],
    kinds: list[str],
    run_ending: dict[int, tuple[int, int]],
    found: list[tuple[int, Binding]],
) -> None:
    """Bindings of the colours after a colour participle right after a noun ("a wall painted
    blue" -> (blue, wall))."""
    for i, text in enumerate(texts):
        if text in lx.COLOUR_PARTICIPLES and i - 1 in run_ending:
            colours = _colours_after(texts, kinds, i)
            if colours:
                obj = _split_object(texts, *run_ending[i - 1])[1]
                found.extend((c, Binding(texts[c], obj)) for c in colours)


def _bindings(tokens: list[str], tags: list[str]) -> list[Binding]:
    texts, kinds = _units(tokens, tags)
    runs = _noun_runs(kinds)
    run_ending = {end - 1: (start, end) for start, end in runs}
    found: list[tuple[int, Binding]] = []
    inherited: dict[int, list[tuple[int, int]]] = {}
    for i, kind in enumerate(kinds):
        if kind == _COPULA:
            subjects = inherited.get(i) or _subject_runs(texts, kinds, i, run_ending)
            end = _predicative(texts, kinds, i, subjects, found)
            if kinds[i - 1] == _REL and end < len(kinds) and kinds[end] == _COPULA:
                inherited[end] = subjects  # "a car that is red looks new": the car looks new
    _colour_participles(texts, kinds, run_ending, found)
    predicated = {i for i, _ in found}
    for start, end in runs:
        if end - start == 1 and (start in predicated or _lone_attribute_noun(texts, kinds, start)):
            continue  # "cloudy/NN blue sky", "looks clean and tidy/NN": an attribute, no object
        _attributive(texts, kinds, start, end, found)
    found.sort(key=lambda item: item[0])
    return list(dict.fromkeys(binding for _, binding in found))
