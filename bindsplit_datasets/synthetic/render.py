"""Scenes of the synthetic world and their rendering with PIL.

A :class:`Scene` is a list of coloured shapes with positions and sizes in unit coordinates, so the
same scene renders at any resolution. Layouts are drawn from a caller-supplied
``numpy.random.Generator``: the same generator state gives the same scene and the same pixels.
Shapes are drawn at 4x resolution and box-filtered down, which gives clean anti-aliased edges
without any randomness.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from ..errors import BindsplitValueError
from .world import COLOURS

__all__ = [
    "BACKGROUND",
    "DRAWERS",
    "SHAPE_EXTENTS",
    "PlacedObject",
    "Scene",
    "place_configuration",
    "render_scene",
    "sample_layout",
]

#: Background colour: a mid grey, far from every colour in :data:`~.world.COLOURS`.
BACKGROUND: tuple[int, int, int] = (128, 128, 128)

_SUPERSAMPLE = 4
_MIN_RADIUS, _MAX_RADIUS = 0.13, 0.20  # half-size of an object, as a fraction of the image side
_MARGIN = 0.02  # from the image border
_GAP = 0.05  # between the bounding circles of two objects
_MAX_LAYOUT_DRAWS = 1000
# configurations (place_configuration): a gap between shapes that do not touch, and the offset
# of the two centres across the axis
_MIN_CONFIGURATION_GAP, _MAX_CONFIGURATION_GAP = 0.06, 0.2
_JITTER, _CONTACT_JITTER = 0.03, 0.02


@dataclass(frozen=True)
class PlacedObject:
    """One shape of a scene: centre ``(x, y)`` and ``radius`` in unit coordinates (0..1)."""

    shape: str
    colour: str
    x: float
    y: float
    radius: float

    def box(self, image_size: float) -> list[float]:
        """Tight bounding box ``[x0, y0, x1, y1]`` of the drawn shape, in pixels of an
        ``image_size`` image (``1``: unit coordinates)."""
        x0, y0, x1, y1 = SHAPE_EXTENTS[self.shape]
        r = self.radius * image_size
        cx, cy = self.x * image_size, self.y * image_size
        return [cx + x0 * r, cy + y0 * r, cx + x1 * r, cy + y1 * r]


@dataclass(frozen=True)
class Scene:
    """Objects in caption order (the first object is named first)."""

    objects: tuple[PlacedObject, ...]

    def with_colours(self, colours: Sequence[str]) -> Scene:
        """The same layout and shapes with new colours (an attribute swap keeps everything else)."""
        if len(colours) != len(self.objects):
            raise ValueError(f"need {len(self.objects)} colours, got {len(colours)}")
        return Scene(
            tuple(
                PlacedObject(o.shape, c, o.x, o.y, o.radius)
                for o, c in zip(self.objects, colours, strict=True)
            )
        )

    @property
    def shapes(self) -> list[str]:
        return [o.shape for o in self.objects]

    @property
    def colours(self) -> list[str]:
        return [o.colour for o in self.objects]


def sample_layout(rng: np.random.Generator, n_objects: int) -> list[tuple[float, float, float]]:
    """``n_objects`` non-overlapping ``(x, y, radius)`` placements inside the unit square."""
    for _ in range(_MAX_LAYOUT_DRAWS):
        placed: list[tuple[float, float, float]] = []
        for _ in range(n_objects):
            r = float(rng.uniform(_MIN_RADIUS, _MAX_RADIUS))
            x, y = (float(v) for v in rng.uniform(r + _MARGIN, 1.0 - r - _MARGIN, size=2))
            if all(math.hypot(x - px, y - py) >= r + pr + _GAP for px, py, pr in placed):
                placed.append((x, y, r))
            else:
                break
        if len(placed) == n_objects:
            return placed
    raise BindsplitValueError(
        f"cannot place {n_objects} non-overlapping objects; use fewer objects"
    )


# --- shape outlines: unit polygons around (0, 0) with radius <= 1, y pointing down -------------


def _regular(n: int, start_deg: float = -90.0) -> list[tuple[float, float]]:
    return [
        (
            math.cos(math.radians(start_deg + 360.0 * k / n)),
            math.sin(math.radians(start_deg + 360.0 * k / n)),
        )
        for k in range(n)
    ]


def _star(points: int = 5, inner: float = 0.45) -> list[tuple[float, float]]:
    outline = []
    for k in range(2 * points):
        radius = 1.0 if k % 2 == 0 else inner
        angle = math.radians(-90.0 + 180.0 * k / points)
        outline.append((radius * math.cos(angle), radius * math.sin(angle)))
    return outline


def _cross(arm: float = 0.34) -> list[tuple[float, float]]:
    a, b = arm, 0.95
    return [
        (-a, -b),
        (a, -b),
        (a, -a),
        (b, -a),
        (b, a),
        (a, a),
        (a, b),
        (-a, b),
        (-a, a),
        (-b, a),
        (-b, -a),
        (-a, -a),
    ]


_OUTLINES: dict[str, list[tuple[float, float]]] = {
    "square": [(-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)],
    "triangle": [(x, y + 0.15) for x, y in _regular(3)],
    "star": _star(),
    "cross": _cross(),
    "diamond": [(0.0, -1.0), (0.7, 0.0), (0.0, 1.0), (-0.7, 0.0)],
    "hexagon": _regular(6, 0.0),
    "pentagon": _regular(5),
}


_CIRCLE = 0.9  # a circle's radius, as a share of the object's radius


def _draw_circle(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]
) -> None:
    s = _CIRCLE * r
    draw.ellipse([cx - s, cy - s, cx + s, cy + s], fill=fill)


def _polygon_drawer(outline: list[tuple[float, float]]) -> Callable[..., None]:
    def draw_polygon(
        draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]
    ) -> None:
        draw.polygon([(cx + r * x, cy + r * y) for x, y in outline], fill=fill)

    return draw_polygon


#: shape name -> ``(x0, y0, x1, y1)``: the drawn shape's extent around its centre, per unit of
#: radius (y pointing down); a tight box is the centre plus the radius times these
SHAPE_EXTENTS: dict[str, tuple[float, float, float, float]] = {
    "circle": (-_CIRCLE, -_CIRCLE, _CIRCLE, _CIRCLE),
    **{
        name: (
            min(x for x, _ in outline),
            min(y for _, y in outline),
            max(x for x, _ in outline),
            max(y for _, y in outline),
        )
        for name, outline in _OUTLINES.items()
    },
}

#: shape name -> function drawing it at centre (cx, cy) with radius r (pixels) in a fill colour
DRAWERS: dict[str, Callable[..., None]] = {
    "circle": _draw_circle,
    **{name: _polygon_drawer(outline) for name, outline in _OUTLINES.items()},
}


def render_scene(scene: Scene, image_size: int) -> Image.Image:
    """The scene as an ``image_size`` x ``image_size`` RGB image."""
    big = image_size * _SUPERSAMPLE
    canvas = Image.new("RGB", (big, big), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    for obj in scene.objects:
        try:
            drawer = DRAWERS[obj.shape]
        except KeyError:
            raise ValueError(
                f"unknown shape {obj.shape!r}; known shapes: {sorted(DRAWERS)}"
            ) from None
        drawer(draw, obj.x * big, obj.y * big, obj.radius * big, COLOURS[obj.colour])
    return canvas.resize((image_size, image_size), Image.Resampling.BOX)


def place_configuration(
    rng: np.random.Generator,
    shapes: tuple[str, str],
    axis: str,
    *,
    contact: bool = False,
) -> list[tuple[float, float, float]]:
    """``(x, y, radius)`` of ``shapes[0]`` and ``shapes[1]`` (unit coordinates) in the
    configuration ``(shapes[0], axis, shapes[1])``: side by side with a gap, one above the
    other with a gap, or (``contact``) one resting on the other. Inside the image, never
    overlapping."""
    radii = [float(r) for r in rng.uniform(_MIN_RADIUS, _MAX_RADIUS, size=2)]
    extents = [SHAPE_EXTENTS[shape] for shape in shapes]
    along = 0 if axis == "horizontal" else 1  # the axis the shapes follow each other on
    across = 1 - along
    # extents along the axis: (low, high) offsets of each shape from its centre
    low = [e[along] * r for e, r in zip(extents, radii, strict=True)]
    high = [e[along + 2] * r for e, r in zip(extents, radii, strict=True)]
    sizes = (high[0] - low[0]) + (high[1] - low[1])
    room = 1.0 - 2 * _MARGIN - sizes  # at least the largest gap of the smallest pair
    gap = (
        0.0
        if contact
        else float(rng.uniform(_MIN_CONFIGURATION_GAP, min(_MAX_CONFIGURATION_GAP, room)))
    )
    span = sizes + gap
    start = float(rng.uniform(_MARGIN, max(_MARGIN, 1.0 - _MARGIN - span)))
    centre_0 = start - low[0]
    centre_1 = start + (high[0] - low[0]) + gap - low[1]
    jitter = _CONTACT_JITTER if contact else _JITTER
    reach = max(max(-e[across] * r, e[across + 2] * r) for e, r in zip(extents, radii, strict=True))
    middle = float(rng.uniform(_MARGIN + reach + jitter, 1.0 - _MARGIN - reach - jitter))
    offsets = [float(v) for v in rng.uniform(-jitter / 2, jitter / 2, size=2)]
    placed = []
    for centre, offset, radius in zip((centre_0, centre_1), offsets, radii, strict=True):
        x, y = (centre, middle + offset) if along == 0 else (middle + offset, centre)
        placed.append((x, y, radius))
    return placed
