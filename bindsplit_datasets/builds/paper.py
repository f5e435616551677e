"""The BindSplit paper's figures beside a build: whether they apply to it, why not where they
do not, and where the paper's own figures for a benchmark disagree with each other.

The paper measured its composition figures (docs/protocol.md, section 6) by attribute bindings
against COCO train2017 captions with ``min_count`` 1; a build labelled otherwise, or a benchmark
the paper reports nothing for, shows no paper column, and :func:`paper_column_note` says why
(the card, ``bindsplit build`` and ``bindsplit stats``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..names import DEFAULT_BINDING_KIND
from .card_source import format_share

__all__ = ["paper_column_note", "paper_comparable", "paper_figure_notes"]

#: Samples of each benchmark as the paper counted them, to check its figures against each other.
_PAPER_SOURCE_ROWS: dict[str, int] = {"aro_vga": 28_748}


#: The reference the paper's figures were measured against: its corpus name and ``min_count``.
_PAPER_REFERENCE = ("coco2017", 1)


def paper_comparable(manifest: Mapping[str, Any]) -> bool:
    """Whether the paper's figures apply to this build: it is labelled against the reference
    they were measured against (COCO train2017 captions, ``min_count`` 1) and by attribute
    bindings, as the paper's are."""
    return _paper_difference(manifest) is None


def _paper_difference(manifest: Mapping[str, Any]) -> str | None:
    """How the build's labelling differs from the paper's (``"by `relation` bindings"``,
    ``"against `x` with `min_count` 2"``), or ``None`` when it is the paper's. ``manifest``: a
    build manifest, or any mapping with its ``reference``, ``min_count`` and ``binding_kind``."""
    kind = manifest.get("binding_kind", DEFAULT_BINDING_KIND)
    if kind != "attribute":
        return f"by `{kind}` bindings"
    corpus = (manifest.get("reference") or {}).get("corpus") or {}
    if (corpus.get("name"), manifest.get("min_count")) == _PAPER_REFERENCE:
        return None
    used = (
        corpus.get("name") or corpus.get("file") or corpus.get("id") or corpus.get("kind")
    ) or "another corpus"
    return f"against `{used}` with `min_count` {manifest.get('min_count')}"


def paper_column_note(manifest: Mapping[str, Any], adapter: Any) -> str | None:
    """Why a composition of this build shows no paper column, in one sentence (``None`` when it
    shows one): the paper reports no figures for the benchmark, or the build is labelled
    otherwise than the paper's figures were measured. ``manifest`` as for
    :func:`paper_comparable`."""
    if not adapter.paper_figures:
        return f"the BindSplit paper reports no composition figures for {adapter.pretty_name}"
    difference = _paper_difference(manifest)
    if difference is None:
        return None
    return (
        f"the paper's figures for {adapter.pretty_name} were measured by attribute bindings "
        f"against COCO train2017 captions (`coco2017`) with `min_count` 1; this build is "
        f"labelled {difference}, so they are not shown beside its figures"
    )


def paper_figure_notes(benchmark: str, paper_figures: Mapping[str, float]) -> list[str]:
    """Notes on the paper's own figures for ``benchmark`` where they contradict each other: an
    unseen split size and an unseen share that cannot both hold for the benchmark's size."""
    rows = _PAPER_SOURCE_ROWS.get(benchmark)
    count, share = paper_figures.get("unseen_count"), paper_figures.get("unseen_share")
    if not rows or count is None or share is None:
        return []
    implied = count / rows
    if format_share(implied) == format_share(share):
        return []
    return [
        f"The paper's unseen figures for this benchmark cannot both hold: its unseen split has "
        f"n = {int(count):,} samples, which is {100 * implied:.2f}% of the benchmark's "
        f"{rows:,} samples, while it quotes an unseen share of {format_share(share)} "
        f"(about {share * rows:,.0f} samples). Both figures are shown beside ours; the unseen "
        "share is reported over all samples and over the samples with at least one binding."
    ]
