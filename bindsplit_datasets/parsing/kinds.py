"""The unit kinds: what a unit of a caption can do in a noun phrase (one character each).

Every unit (a token, or a merged phrase such as "light brown" or "teddy bear", :mod:`.units`) has
one kind. The tagger's tag gives the first (:func:`.units.classify_units`), the correction rules
mend it (``data/rules.json``), and the binding and relation readers read the kinds. A kind is one
character, so that a caption's kinds are one string (:meth:`.units.Units.kinds`); the rule table
and explanations name them in words (:data:`KIND_NAMES`).
"""

from __future__ import annotations

__all__ = [
    "ADV",
    "ATTR",
    "CONJ",
    "COPULA",
    "DET",
    "GERUND",
    "KINDS_BY_NAME",
    "KIND_NAMES",
    "MODIFIERS",
    "NEG",
    "NOUN",
    "OTHER",
    "PART",
    "PREP",
    "REL",
    "VERB",
    "WEAK",
]

NOUN = "N"  # noun (or compound)
ATTR = "A"  # attribute in any attribute slot (adjective, lexicon word, lexicon phrase)
WEAK = "W"  # lexicon word tagged as a verb: an attribute only where a modifier can stand
PART = "V"  # past participle: a modifier only where a modifier can stand
GERUND = "G"  # present participle: likewise, but never right after a preposition
DET = "D"  # determiner, number, quantifier, possessive, non-attribute adjective
ADV = "R"  # adverb (skipped)
CONJ = "C"  # and / or / comma / slash
COPULA = "P"  # a linking verb ("is", "looks")
REL = "T"  # that / which / who
PREP = "I"  # preposition
NEG = "X"  # not / never / n't
VERB = "B"  # base or present-tense verb (VB, VBP)
OTHER = "O"  # anything else (punctuation, finite verbs, pronouns)

#: Kinds that modify a noun when they stand before it.
MODIFIERS = frozenset({ATTR, WEAK, PART, GERUND})

#: What each kind is called in the rule table and in an explanation.
KIND_NAMES: dict[str, str] = {
    NOUN: "noun",
    ATTR: "attribute",
    WEAK: "attribute-or-verb",
    PART: "participle",
    GERUND: "gerund",
    DET: "determiner",
    ADV: "adverb",
    CONJ: "conjunction",
    COPULA: "copula",
    REL: "relative",
    PREP: "preposition",
    NEG: "negation",
    VERB: "verb",
    OTHER: "other",
}
#: Each kind by its name.
KINDS_BY_NAME: dict[str, str] = {name: kind for kind, name in KIND_NAMES.items()}
