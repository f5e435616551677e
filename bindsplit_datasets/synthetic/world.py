"""The synthetic world: shapes (objects) x colours (attributes) and the held-out bindings.

A world is fully described by its shape and colour names, its held-out (colour, shape) pairs, its
caption templates and the image size, so it can be saved as ``world.json`` and rebuilt exactly.
The held-out set is drawn from a seed. Its core is a set of disjoint 2 x 2 *blocks*: the colours
and the shapes are shuffled and paired off, and block ``i`` holds out both colours of colour pair
``i`` with both shapes of shape pair ``i`` (a fully unseen attribute-swap sample needs four unseen
bindings, so the unseen stratum is made of such blocks). As many blocks as the held-out fraction
allows are used, up to every colour and shape being in one (the default world: 3 blocks, 12 of 36
pairs), so that every colour and every shape takes part in the unseen stratum as in the seen and
partial ones and the strata differ in familiarity, not in which colours and shapes they show.
Further random pairs fill the fraction up. Constraints: every colour and every shape still occurs
in some seen pair (so "unseen" means an unseen *combination*, never an unknown word) and at least
one 2 x 2 block is entirely seen (fully seen swap samples, and the hard negatives of NegCLIP-style
training).

Relations (:mod:`.relations`): the world also holds out spatial configurations of two shapes
(``held_out_relations``, drawn from the same seed by
:func:`~.relations.choose_held_out_relations`), whose relation triples never occur in training
captions.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import BindsplitFileNotFoundError, BindsplitValueError, SchemaError
from ..names import WORLD_FORMAT
from .limits import check_image_size
from .relations import (
    AXES,
    RELATIONS,
    Configuration,
    Triple,
    choose_held_out_relations,
    configuration_of,
)

__all__ = [
    "COLOURS",
    "DEFAULT_COLOURS",
    "DEFAULT_HELD_OUT_FRACTION",
    "DEFAULT_SEED",
    "DEFAULT_SHAPES",
    "DEFAULT_TEMPLATES",
    "SHAPES",
    "Pair",
    "SyntheticWorld",
    "choose_held_out",
    "default_world",
    "make_world",
]


#: Colour names the renderer knows, with clearly distinct RGB values (none close to the background).
COLOURS: Mapping[str, tuple[int, int, int]] = {
    "red": (220, 30, 30),
    "green": (30, 160, 50),
    "blue": (40, 80, 230),
    "yellow": (245, 215, 20),
    "purple": (140, 50, 190),
    "orange": (250, 130, 10),
    "pink": (250, 130, 200),
    "brown": (120, 70, 30),
    "white": (250, 250, 250),
    "black": (15, 15, 15),
}

#: Shape names the renderer knows (see :mod:`bindsplit_datasets.synthetic.render`).
SHAPES: tuple[str, ...] = (
    "circle",
    "square",
    "triangle",
    "star",
    "cross",
    "diamond",
    "hexagon",
    "pentagon",
)

DEFAULT_SHAPES: tuple[str, ...] = SHAPES[:6]
DEFAULT_COLOURS: tuple[str, ...] = ("red", "green", "blue", "yellow", "purple", "orange")
#: A third of the pairs: in the default 6 x 6 world, three disjoint held-out blocks (12 pairs).
DEFAULT_HELD_OUT_FRACTION = 1 / 3
DEFAULT_SEED = 0
DEFAULT_IMAGE_SIZE = 64
#: Caption templates; ``{0}`` and ``{1}`` are object phrases ("a red circle") in scene order.
DEFAULT_TEMPLATES: tuple[str, ...] = ("{0} and {1}",)

#: An (attribute, object) pair of the world: (colour, shape).
Pair = tuple[str, str]

_MAX_DRAWS = 20_000


@dataclass(frozen=True)
class SyntheticWorld:
    """Shapes x colours with a held-out set of (colour, shape) bindings and of spatial
    configurations.

    ``held_out`` holds (colour, shape) pairs, the same (attribute, object) order as a
    :class:`bindsplit_datasets.parsing.Binding`; ``held_out_relations`` holds configurations
    ``(first, axis, second)`` (:mod:`.relations`) whose triples no training caption states.
    ``seed`` and ``held_out_fraction`` record how the held-out sets were drawn
    (:func:`make_world`); the sets themselves are what define the world.
    """

    shapes: tuple[str, ...]
    colours: tuple[str, ...]
    held_out: frozenset[Pair]
    seed: int = DEFAULT_SEED
    held_out_fraction: float = DEFAULT_HELD_OUT_FRACTION
    image_size: int = DEFAULT_IMAGE_SIZE
    templates: tuple[str, ...] = DEFAULT_TEMPLATES
    held_out_relations: frozenset[Configuration] = frozenset()
    _seen: frozenset[Pair] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_names("shape", self.shapes, SHAPES)
        _check_names("colour", self.colours, tuple(COLOURS))
        object.__setattr__(self, "held_out", frozenset((str(c), str(s)) for c, s in self.held_out))
        stray = sorted(
            p for p in self.held_out if p[0] not in self.colours or p[1] not in self.shapes
        )
        if stray:
            raise BindsplitValueError(
                f"held-out pairs {stray} use colours or shapes that are not in the world"
            )
        if self.image_size < 16:
            raise BindsplitValueError(
                f"image size {self.image_size} is too small to draw shapes; use 16 or more"
            )
        for template in self.templates:
            if template.count("{0}") != 1 or template.count("{1}") != 1:
                raise BindsplitValueError(
                    f"caption template {template!r} must contain {{0}} and {{1}} once each"
                )
        configurations = frozenset((str(a), str(x), str(b)) for a, x, b in self.held_out_relations)
        object.__setattr__(self, "held_out_relations", configurations)
        stray_relations = sorted(
            c
            for c in configurations
            if c[1] not in AXES or c[0] == c[2] or {c[0], c[2]} - set(self.shapes)
        )
        if stray_relations:
            raise BindsplitValueError(
                f"held-out configurations {stray_relations} are not (shape, axis, other shape) "
                f"with axis one of {list(AXES)} and shapes of the world"
            )
        object.__setattr__(self, "_seen", frozenset(self.pairs) - self.held_out)

    @property
    def pairs(self) -> tuple[Pair, ...]:
        """Every (colour, shape) pair, colour-major."""
        return tuple(itertools.product(self.colours, self.shapes))

    @property
    def seen_pairs(self) -> tuple[Pair, ...]:
        """The pairs that training scenes may use, in :attr:`pairs` order."""
        return tuple(p for p in self.pairs if p in self._seen)

    @property
    def held_out_pairs(self) -> tuple[Pair, ...]:
        """The held-out pairs, in :attr:`pairs` order."""
        return tuple(p for p in self.pairs if p in self.held_out)

    def is_seen(self, colour: str, shape: str) -> bool:
        """Whether (colour, shape) may appear in training scenes."""
        return (colour, shape) in self._seen

    @property
    def configurations(self) -> tuple[Configuration, ...]:
        """Every configuration ``(first, axis, second)`` of two distinct shapes, axis-major."""
        return tuple(
            (a, axis, b) for axis in AXES for a, b in itertools.permutations(self.shapes, 2)
        )

    @property
    def seen_configurations(self) -> tuple[Configuration, ...]:
        """The configurations that training captions may state, in :attr:`configurations`
        order."""
        return tuple(c for c in self.configurations if c not in self.held_out_relations)

    def is_seen_relation(self, triple: Triple) -> bool:
        """Whether a training caption may state ``(subject shape, relation, object shape)``."""
        return configuration_of(triple) not in self.held_out_relations

    @property
    def vocabulary(self) -> tuple[str, ...]:
        """Every word a caption of this world can contain, sorted."""
        words = {"a", "an", *self.colours, *self.shapes}
        for template in self.templates:
            words.update(template.replace("{0}", " ").replace("{1}", " ").split())
        for relation in RELATIONS:
            words.update(relation.split())
        return tuple(sorted(words))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description; :meth:`from_dict` rebuilds the same world."""
        return {
            "format": WORLD_FORMAT,
            "shapes": list(self.shapes),
            "colours": list(self.colours),
            "held_out": [list(p) for p in self.held_out_pairs],
            "seen": [list(p) for p in self.seen_pairs],
            "seed": self.seed,
            "held_out_fraction": self.held_out_fraction,
            "image_size": self.image_size,
            "templates": list(self.templates),
            "held_out_relations": [
                list(c) for c in self.configurations if c in self.held_out_relations
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SyntheticWorld:
        if data.get("format") != WORLD_FORMAT:
            raise SchemaError(
                f"not a synthetic world description (format {data.get('format')!r}, "
                f"expected {WORLD_FORMAT!r}); write one with `bindsplit synth`"
            )
        world = cls(
            shapes=tuple(data["shapes"]),
            colours=tuple(data["colours"]),
            held_out=frozenset((c, s) for c, s in data["held_out"]),
            seed=int(data["seed"]),
            held_out_fraction=float(data["held_out_fraction"]),
            image_size=int(data["image_size"]),
            templates=tuple(data["templates"]),
            held_out_relations=frozenset(
                (a, axis, b) for a, axis, b in data.get("held_out_relations", ())
            ),
        )
        if "seen" in data and [list(p) for p in world.seen_pairs] != [
            list(p) for p in data["seen"]
        ]:
            raise SchemaError(
                "world description is inconsistent: its 'seen' list is not the complement "
                "of 'held_out'"
            )
        return world

    @property
    def fingerprint(self) -> str:
        """SHA-256 of the canonical description (what a model or benchmark was made from)."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def save(self, path: str | Path) -> Path:
        """Write ``world.json`` (atomically) and return its path."""
        from ..atomic import write_text

        return write_text(path, json.dumps(self.to_dict(), indent=2) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> SyntheticWorld:
        path = Path(path)
        if path.is_dir():
            path = path / "world.json"
        if not path.is_file():
            raise BindsplitFileNotFoundError(
                f"no world description at {path}; write one with `bindsplit synth`"
            )
        return cls.from_dict(json.loads(path.read_text(encoding="utf-8")))


def _check_names(kind: str, names: Sequence[str], known: Sequence[str]) -> None:
    if len(names) < 2:
        raise BindsplitValueError(
            f"a world needs at least two {kind}s (attribute swaps need two); got {list(names)}"
        )
    if len(set(names)) != len(names):
        raise BindsplitValueError(f"duplicate {kind} names in {list(names)}")
    unknown = [n for n in names if n not in known]
    if unknown:
        raise BindsplitValueError(f"unknown {kind}(s) {unknown}; the renderer knows {list(known)}")


def _blocks(cells: Iterable[Pair], colours: Sequence[str], shapes: Sequence[str]) -> int:
    """Number of 2 x 2 blocks (two colours x two shapes) whose four pairs all lie in ``cells``."""
    cells = set(cells)
    n = 0
    for c1, c2 in itertools.combinations(colours, 2):
        shared = [s for s in shapes if (c1, s) in cells and (c2, s) in cells]
        n += len(shared) * (len(shared) - 1) // 2
    return n


def choose_held_out(
    colours: Sequence[str], shapes: Sequence[str], fraction: float, seed: int
) -> frozenset[Pair]:
    """Draw ``round(fraction * n_pairs)`` held-out pairs as the module docstring describes.

    The blocks come from seeded permutations of the colours and shapes; the extra pairs are drawn
    uniformly and redrawn until the constraints hold, so the result is a deterministic function
    of the arguments.

    Raises:
        ValueError: the fraction is out of range or no set of that size meets the constraints.
    """
    if not 0.0 < fraction < 1.0:
        raise BindsplitValueError(
            f"held-out fraction must lie strictly between 0 and 1; got {fraction}"
        )
    pairs = list(itertools.product(colours, shapes))
    k = round(fraction * len(pairs))
    n_blocks = min(k // 4, len(colours) // 2, len(shapes) // 2)
    if n_blocks < 1:
        raise BindsplitValueError(
            f"no held-out set of {k} of the {len(pairs)} pairs holds out a 2 x 2 block (4 pairs); "
            "raise --held-out or add shapes/colours"
        )
    rng = np.random.default_rng([seed, 0x5EED])
    colour_order, shape_order = rng.permutation(len(colours)), rng.permutation(len(shapes))
    blocks = frozenset(
        (colours[colour_order[2 * i + a]], shapes[shape_order[2 * i + b]])
        for i in range(n_blocks)
        for a in (0, 1)
        for b in (0, 1)
    )
    rest = [p for p in pairs if p not in blocks]
    for _ in range(_MAX_DRAWS):
        extra = rng.choice(len(rest), size=k - len(blocks), replace=False)
        chosen = blocks | {rest[i] for i in extra}
        seen = [p for p in pairs if p not in chosen]
        if (
            {c for c, _ in seen} == set(colours)
            and {s for _, s in seen} == set(shapes)
            and _blocks(seen, colours, shapes) >= 1
        ):
            return chosen
    raise BindsplitValueError(
        f"no held-out set of {k} of the {len(pairs)} pairs keeps every colour and shape seen and "
        "leaves a fully seen 2 x 2 block; lower --held-out or add shapes/colours"
    )


def make_world(
    shapes: Sequence[str] = DEFAULT_SHAPES,
    colours: Sequence[str] = DEFAULT_COLOURS,
    *,
    held_out_fraction: float = DEFAULT_HELD_OUT_FRACTION,
    seed: int = DEFAULT_SEED,
    image_size: int = DEFAULT_IMAGE_SIZE,
    templates: Sequence[str] = DEFAULT_TEMPLATES,
) -> SyntheticWorld:
    """A world with seeded held-out sets (:func:`choose_held_out` and
    :func:`~.relations.choose_held_out_relations`).

    Raises:
        BindsplitValueError: an unknown shape or colour, a held-out fraction outside (0, 1), or
            an ``image_size`` outside [``MIN_IMAGE_SIZE``, ``MAX_IMAGE_SIZE``] (``limits``).
    """
    check_image_size(image_size)
    _check_names("shape", shapes, SHAPES)
    _check_names("colour", colours, tuple(COLOURS))
    return SyntheticWorld(
        shapes=tuple(shapes),
        colours=tuple(colours),
        held_out=choose_held_out(colours, shapes, held_out_fraction, seed),
        seed=seed,
        held_out_fraction=held_out_fraction,
        image_size=image_size,
        templates=tuple(templates),
        held_out_relations=choose_held_out_relations(shapes, seed),
    )


@lru_cache(maxsize=1)
def default_world() -> SyntheticWorld:
    """The embedded default world: 6 shapes x 6 colours, 3 held-out blocks (12 pairs) and 18 of
    the 60 spatial configurations held out, seed 0."""
    return make_world()
