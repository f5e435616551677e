"""Spatial relations of the synthetic world: their words, held-out configurations, layouts, truth.

Two shapes of a scene stand in a *configuration* ``(first, axis, second)``: side by side
(``horizontal``: ``first`` on the left) or one over the other (``vertical``: ``first`` above, with
a gap, or resting on ``second``, touching). A configuration is stated by several triples (SPEC
section 1b, in the relation parser's normal form): a horizontal one by ``(first, "to the left
of", second)`` and ``(second, "to the right of", first)``, a vertical one by ``(first, "above",
second)`` and ``(second, "below", first)``, and, when the shapes touch, ``(first, "on top of",
second)``. Every triple names exactly one configuration (:func:`configuration_of`).

Familiarity is controlled per configuration: a held-out configuration is never stated by a
training caption, in any wording, so its triples are unseen in the world's reference index.
:func:`choose_held_out_relations` holds configurations out along three disjoint perfect matchings
of the shapes (a round robin of a seeded shape order): the pairs of the first matching lose both
directions on both axes (their swap samples are fully unseen), the pairs of the second one
direction on each axis (partially unseen), and every other pair keeps both (fully seen). Every
shape is in one pair of each matching, so the seen, partial and unseen strata show every shape
equally often.

The ground truth of a triple in a scene is geometric (:func:`relation_holds`), read from the
objects' tight boxes: side by side when the boxes' x ranges are apart and their y ranges
overlap, one over the other when the reverse; "on top of" when the vertical gap is (nearly)
zero. Layouts (:func:`~.render.place_configuration`) are drawn so that exactly the
configuration's triples hold.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import BindsplitValueError

__all__ = [
    "ABOVE",
    "AXES",
    "BELOW",
    "CONVERSE",
    "Configuration",
    "LEFT_OF",
    "ON_TOP_OF",
    "RELATIONS",
    "RIGHT_OF",
    "TOUCH_TOLERANCE",
    "Triple",
    "caption_wordings",
    "choose_held_out_relations",
    "configuration_of",
    "matchings",
    "relation_holds",
    "wordings",
]

LEFT_OF, RIGHT_OF, ABOVE, BELOW, ON_TOP_OF = (
    "to the left of",
    "to the right of",
    "above",
    "below",
    "on top of",
)
#: Every relation of the world, as its captions state it (the parser's normal form).
RELATIONS: tuple[str, ...] = (LEFT_OF, RIGHT_OF, ABOVE, BELOW, ON_TOP_OF)
#: The relation a test sample's "changed relation" negative states instead.
CONVERSE: dict[str, str] = {
    LEFT_OF: RIGHT_OF,
    RIGHT_OF: LEFT_OF,
    ABOVE: BELOW,
    BELOW: ABOVE,
    ON_TOP_OF: BELOW,
}
AXES: tuple[str, ...] = ("horizontal", "vertical")

#: ``(first, axis, second)``: ``first`` left of (horizontal) or above (vertical) ``second``.
Configuration = tuple[str, str, str]
#: ``(subject shape, relation, object shape)``.
Triple = tuple[str, str, str]

#: Largest vertical gap (a share of the image side) at which two shapes count as touching.
TOUCH_TOLERANCE = 0.005


def configuration_of(triple: Triple) -> Configuration:
    """The configuration a triple states.

    >>> configuration_of(("star", "to the right of", "circle"))
    ('circle', 'horizontal', 'star')
    >>> configuration_of(("star", "on top of", "circle"))
    ('star', 'vertical', 'circle')
    """
    subject, relation, obj = triple
    if relation == LEFT_OF:
        return (subject, "horizontal", obj)
    if relation == RIGHT_OF:
        return (obj, "horizontal", subject)
    if relation in (ABOVE, ON_TOP_OF):
        return (subject, "vertical", obj)
    if relation == BELOW:
        return (obj, "vertical", subject)
    raise BindsplitValueError(f"unknown relation {relation!r}; the world knows {list(RELATIONS)}")


def wordings(configuration: Configuration, *, contact: bool = False) -> tuple[Triple, ...]:
    """The triples that state ``configuration`` (with "on top of" when the shapes touch)."""
    first, axis, second = configuration
    if axis == "horizontal":
        return ((first, LEFT_OF, second), (second, RIGHT_OF, first))
    touching = ((first, ON_TOP_OF, second),) if contact else ()
    return ((first, ABOVE, second), (second, BELOW, first), *touching)


def caption_wordings(configuration: Configuration, *, contact: bool = False) -> tuple[Triple, ...]:
    """The triples a caption of the world uses for ``configuration``: "on top of" (or "below")
    for touching shapes, "above" (or "below") for a gap, so that "above" always means a gap in
    the world's captions (it is still true of touching shapes: :func:`wordings`)."""
    if configuration[1] == "vertical" and contact:
        return tuple(t for t in wordings(configuration, contact=True) if t[1] != ABOVE)
    return wordings(configuration)


def matchings(shapes: Sequence[str], seed: int) -> list[list[tuple[str, str]]]:
    """The rounds of a round robin over a seeded order of ``shapes``: disjoint matchings that
    together pair every two shapes once (an odd count sits one shape out per round)."""
    rng = np.random.default_rng([seed, 0x4E1A])
    order: list[str | None] = [shapes[i] for i in rng.permutation(len(shapes))]
    if len(order) % 2:
        order.append(None)
    n = len(order)
    rounds = []
    for _ in range(n - 1):
        pairs = [(order[i], order[n - 1 - i]) for i in range(n // 2)]
        rounds.append([(a, b) for a, b in pairs if a is not None and b is not None])
        order = [order[0], order[-1], *order[1:-1]]
    return rounds


def choose_held_out_relations(shapes: Sequence[str], seed: int) -> frozenset[Configuration]:
    """The held-out configurations of a world (module docstring): a deterministic function of
    the shapes and the seed; empty for a world of fewer than three shapes (too few matchings)."""
    rounds = matchings(shapes, seed)
    if len(rounds) < 3:
        return frozenset()
    rng = np.random.default_rng([seed, 0x4E1B])
    held: set[Configuration] = set()
    for a, b in rounds[0]:  # fully held out
        for axis in AXES:
            held |= {(a, axis, b), (b, axis, a)}
    for a, b in rounds[1]:  # one direction per axis
        for axis in AXES:
            first, second = (a, b) if rng.integers(2) else (b, a)
            held.add((first, axis, second))
    return frozenset(held)


def relation_holds(
    subject: Sequence[float], relation: str, obj: Sequence[float], image_size: float = 1.0
) -> bool:
    """Whether ``relation`` holds from the ``subject`` box to the ``obj`` box (tight ``[x0, y0,
    x1, y1]`` boxes, y pointing down, in an image of side ``image_size``): the ground truth of a
    triple in a scene.

    >>> left, right = [0.1, 0.4, 0.3, 0.6], [0.5, 0.45, 0.7, 0.65]
    >>> relation_holds(left, "to the left of", right), relation_holds(right, "to the left of", left)
    (True, False)
    >>> top, bottom = [0.4, 0.1, 0.6, 0.3], [0.35, 0.3, 0.65, 0.5]
    >>> [relation_holds(top, r, bottom) for r in ("above", "on top of", "below")]
    [True, True, False]
    """
    a = [float(v) / image_size for v in subject]
    b = [float(v) / image_size for v in obj]
    if relation == RIGHT_OF:
        return relation_holds(b, LEFT_OF, a)
    if relation == BELOW:
        return relation_holds(b, ABOVE, a)
    overlap_x = a[0] < b[2] and b[0] < a[2]
    overlap_y = a[1] < b[3] and b[1] < a[3]
    if relation == LEFT_OF:
        return a[2] <= b[0] and overlap_y
    above = a[3] <= b[1] + TOUCH_TOLERANCE and overlap_x
    if relation == ABOVE:
        return above
    if relation == ON_TOP_OF:
        return above and b[1] - a[3] <= TOUCH_TOLERANCE
    raise BindsplitValueError(f"unknown relation {relation!r}; the world knows {list(RELATIONS)}")
