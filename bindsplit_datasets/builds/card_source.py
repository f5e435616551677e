"""The dataset card's sections on where a build's rows come from: the source and its identity,
the VisMin pairing, the leakage check, and the licences of annotations and images; and
:func:`format_share`, the one way shares are written on cards and in composition tables.

Each function renders one part from the build manifest (or the benchmark adapter), so that
:mod:`bindsplit_datasets.builds.cards` composes the card without holding every wording itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..names import PAPER_CITATION
from .manifest import BuildColumns

__all__ = [
    "caption_roles",
    "citations",
    "format_share",
    "leakage_found",
    "licences",
    "mapping_statement",
    "pairing_statement",
    "source_identity",
    "source_report",
    "unofficial_pairing",
]


def format_share(value: float | None) -> str:
    """A fraction as a percentage with one decimal (``"-"`` for ``None``).

    >>> format_share(0.1234), format_share(None)
    ('12.3%', '-')
    """
    return "-" if value is None else f"{100 * value:.1f}%"


def citations(adapter: Any) -> list[str]:
    """The card's citations: BindSplit's, then the benchmark's (a custom table may give none)."""
    own = (
        [f"{adapter.pretty_name}:", f"```bibtex\n{adapter.citation}\n```"]
        if adapter.citation
        else [f"{adapter.pretty_name}: no citation was given."]
    )
    return ["BindSplit:", f"```bibtex\n{PAPER_CITATION}\n```", *own]


def licences(adapter: Any) -> str:
    """Licences of what the rows hold: the benchmark's annotations, its images, BindSplit's
    columns."""
    images = "; ".join(adapter.image_sources) or "the benchmark's own images"
    return "\n".join(
        [
            f"- Annotations (captions, negatives, categories) of {adapter.pretty_name}: "
            f"`{adapter.license}` (the `license` of this card).",
            f"- Images: {images}.",
            "- BindSplit's annotation columns (`caption_bindings`, `caption_familiarity`, "
            "`asymmetric`, `balanced`, `bindsplit_label`): Apache-2.0.",
        ]
    )


def source_identity(source: Mapping[str, Any], adapter: Any) -> str:
    """Where the rows were read from: the Hub commit, or the local files and their hash."""
    if "hub_id" in source:
        where = f"Read from the Hub dataset `{source['hub_id']}`, revision `{source['revision']}`"
        if source.get("sha"):
            return f"{where}, at commit `{source['sha']}`."
        return (
            f"{where}; its commit could not be resolved (the Hub was unreachable and the rows "
            "came from the local cache), so this build is not pinned to a commit."
        )
    if "sha256" in source:
        files = source.get("files") or [source.get("path")]
        where = (
            f"the local file `{files[0]}`"
            if files == [source.get("path")]
            else f"`{source.get('path')}`: {', '.join(f'`{f}`' for f in files)}"
        )
        return f"Read from {where} (SHA-256 of the contents `{source['sha256']}`)."
    return f"Read from {adapter.pretty_name}'s source as described below."


def _names(columns: Sequence[str]) -> str:
    return ", ".join(f"`{c}`" for c in columns)


def caption_roles(columns: BuildColumns) -> str:
    """How the build's images and captions pair and which captions are positive, hard positive
    or negative (docs/protocol.md, sections 3 and 5)."""
    pairs = (
        f"Image columns {_names(columns.image)} pair with caption columns {_names(columns.caption)}"
    )
    if not columns.hard_positive:
        return (
            f"{pairs}; `{columns.caption[0]}` is the positive caption of the familiarity "
            "statistics."
        )
    n_images, n_hard = len(columns.image), len(columns.hard_positive)
    negatives = columns.caption[n_images + n_hard :]
    parts = [
        f"`{caption}` is the positive caption of `{image}`"
        for image, caption in zip(columns.image, columns.caption, strict=False)
    ]
    hard = "is a hard positive" if n_hard == 1 else "are hard positives"
    parts.append(
        f"{_names(columns.hard_positive)} {hard} of `{columns.image[0]}` (further captions true "
        "of it, worded differently)"
    )
    if negatives:
        negative = "is a negative" if len(negatives) == 1 else "are negatives"
        parts.append(f"{_names(negatives)} {negative} of `{columns.image[0]}`")
    return (
        f"{pairs}: {'; '.join(parts)}. `{columns.caption[0]}` and the hard positives are the "
        "positive captions of the familiarity statistics: the bindings of hard positives count "
        "as positive bindings."
    )


def mapping_statement(source: Mapping[str, Any]) -> list[str]:
    """The column roles a user gave a custom build (``bindsplit build custom``), recorded in
    its source identity and hashed into its fingerprint."""
    mapping = source.get("mapping")
    if not mapping:
        return []
    roles = [
        f"{label}: {_names(mapping[key])}"
        for key, label in (
            ("image", "images"),
            ("positive", "positive captions"),
            ("hard_positive", "hard positives"),
            ("negative", "negatives"),
            ("categories", "categories"),
        )
        if mapping.get(key)
    ]
    if mapping.get("id"):
        roles.insert(0, f"id: `{mapping['id']}`")
    return [
        "Mapping: a table built with `bindsplit build custom`, whose columns were given these "
        f"roles: {'; '.join(roles)}. The mapping is part of the build's fingerprint."
    ]


def unofficial_pairing(source: Mapping[str, Any]) -> list[str]:
    """The warning of a build paired by a ground truth that is not the official file."""
    pairing = source.get("pairing") or {}
    if pairing.get("mode") != "solution" or pairing.get("official", True):
        return []
    return [
        f"> **Not the official ground truth.** Built with `--sim-solution {pairing['solution']}`, "
        f"whose SHA-256 `{pairing['sha256']}` differs from that of the official "
        "sim_solution.csv shipped with BindSplit: rows are paired as that file says, which may "
        "not be the benchmark's pairing. Compare results only with builds of the same file."
    ]


def pairing_statement(source: Mapping[str, Any]) -> list[str]:
    """The pairing statement of a source whose identity records one (VisMin)."""
    pairing = source.get("pairing")
    if not pairing:
        return []
    if pairing.get("mode") == "as-stored":
        return [
            "Pairing: **as stored** (`--vismin-pairing as-stored`). No ground truth was applied: "
            "each row's `text_i` is assumed to describe its `image_i`, unchecked."
        ]
    return [
        f"Pairing: the ground truth `{pairing['solution']}` ({pairing['origin']}, SHA-256 "
        f"`{pairing['sha256']}`) says that {pairing['crossed']:,} of {pairing['rows']:,} source "
        "rows have `text_0` describing `image_1`; their images were swapped, so that `text_i` "
        "describes `image_i` in every row, and the boolean column `pairing_crossed` marks them. "
        "Evaluation breaks results down by category and crossed/straight rows."
    ]


def leakage_found(leakage: Mapping[str, Any]) -> str:
    """``"12 of this benchmark's 96 positive captions (12.5%)"``."""
    if leakage.get("n_positive") is None:
        return f"{leakage['overlap']:,} of this benchmark's own positive captions"
    return (
        f"{leakage['overlap']:,} of this benchmark's {leakage['n_positive']:,} positive captions "
        f"({format_share(leakage.get('share'))})"
    )


def source_report(report: Mapping[str, Any], leakage: Mapping[str, Any]) -> str:
    lines = [f"Rows read: {report['n_rows']:,}."]
    problems = report.get("problems") or {}
    if problems:
        lines.append(
            "Problems counted while reading: "
            + ", ".join(
                f"{name.replace('_', ' ')}: {count:,}" for name, count in sorted(problems.items())
            )
            + "."
        )
    lines += [f"- {note}" for note in report.get("notes") or []]
    found = f"{leakage_found(leakage)} occur verbatim in the reference"
    if not leakage.get("guard", True):
        lines.append(
            f"Leakage check: off for this benchmark, whose reference is by design its own "
            f"training corpus ({found})."
        )
        return "\n".join(lines)
    threshold = leakage.get("threshold")
    rule = (
        ""
        if threshold is None
        else f"; a build is refused when the share reaches {format_share(threshold)} (the "
        "reference would then contain the benchmark's own source; COCO captions also repeat "
        "by chance, so a few are expected)"
    )
    override = " Override: built with `--allow-leakage`." if leakage["override"] else ""
    lines.append(f"Leakage check: {found}{rule}.{override}")
    return "\n".join(lines)
