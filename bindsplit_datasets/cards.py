"""Dataset cards for built BindSplit datasets, and the composition table they share with
``bindsplit stats``.

A card is rendered from the build manifest alone (plus the per-configuration ``DatasetInfo`` the
builder measured), so every number on it is the manifest's: composition per label, binding seen
rates, asymmetric share, reference fingerprint, parser version, leakage. Its YAML is written with
``huggingface_hub.DatasetCardData``: ``pretty_name``, the source benchmark's ``license``,
``task_categories``, ``tags``, ``configs`` (``full`` the default, each pointing at
``<config>/test-*.parquet``) and ``dataset_info`` as ``datasets`` writes it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import datasets
from datasets.info import DatasetInfosDict
from huggingface_hub import DatasetCard, DatasetCardData

from .benchmarks import get_benchmark
from .names import CONFIGURATIONS, PAPER_CITATION, SPLIT_LABELS, hub_dataset_id

__all__ = [
    "composition_rows",
    "configs_metadata",
    "flat_composition",
    "format_share",
    "render_card",
]


_CONFIG_MEANING = {
    "full": "every sample of the benchmark (including `none`: no binding found)",
    "seen": "every binding of every caption is seen in the reference: no familiarity shortcut",
    "unseen": "no binding of any caption is seen in the reference: entirely novel bindings",
    "partial": "some bindings seen, some unseen",
}
_RATES = (
    ("positive_seen_rate", "positive-caption bindings seen"),
    ("negative_seen_rate", "negative-caption bindings seen"),
    ("asymmetric_share", "samples with familiarity asymmetry"),
)


def format_share(value: float | None) -> str:
    """A fraction as a percentage with one decimal (``"-"`` for ``None``).

    >>> format_share(0.1234), format_share(None)
    ('12.3%', '-')
    """
    return "-" if value is None else f"{100 * value:.1f}%"


def flat_composition(composition: Mapping[str, Any]) -> dict[str, float | int | None]:
    """``CompositionStats.to_dict()`` flattened to the keys of ``paper_figures``: ``n``,
    ``{label}_count``, ``{label}_share``, ``positive_seen_rate``, ``negative_seen_rate``,
    ``asymmetric_share``."""
    flat: dict[str, float | int | None] = {"n": composition["n"]}
    for label in SPLIT_LABELS:
        flat[f"{label}_count"] = composition["counts"][label]
        flat[f"{label}_share"] = composition["shares"][label]
    for key, _ in _RATES:
        flat[key] = composition[key]
    return flat


def _figure(figures: Mapping[str, float], key: str) -> str:
    """The paper's figure ``key`` as shown beside ours (shares as percentages)."""
    if key not in figures:
        return ""
    if key.endswith("_count"):
        return f"n = {int(figures[key]):,}"
    return format_share(figures[key])


def composition_rows(
    composition: Mapping[str, Any], paper_figures: Mapping[str, float] | None = None
) -> list[tuple[str, str, str, str]]:
    """Rows ``(what, n, share, paper)`` of the composition table: one per label, the total, then
    the binding seen rates and the asymmetric share; ``paper`` holds the paper's figure where it
    reports one (docs/protocol.md, section 6)."""
    figures = paper_figures or {}
    rows = []
    for label in SPLIT_LABELS:
        paper = ", ".join(
            f for f in (_figure(figures, f"{label}_share"), _figure(figures, f"{label}_count")) if f
        )
        share = format_share(composition["shares"][label])
        rows.append((label, f"{composition['counts'][label]:,}", share, paper))
    total_share = format_share(1.0 if composition["n"] else None)
    rows.append(("total", f"{composition['n']:,}", total_share, ""))
    for key, meaning in _RATES:
        rows.append((meaning, "", format_share(composition[key]), _figure(figures, key)))
    return rows


def configs_metadata(configs: Mapping[str, int]) -> list[dict[str, Any]]:
    """The card's ``configs:`` entries, one per written configuration (``configs``: the
    manifest's rows per configuration), ``full`` the default."""
    return [
        {
            "config_name": config,
            "data_files": [{"split": "test", "path": f"{config}/test-*.parquet"}],
            **({"default": True} if config == "full" else {}),
        }
        for config in CONFIGURATIONS
        if config in configs
    ]


def _markdown_table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _json_block(value: Any) -> str:
    return "```json\n" + json.dumps(value, indent=2, sort_keys=True) + "\n```"


def render_card(
    manifest: Mapping[str, Any],
    *,
    dataset_infos: Mapping[str, datasets.DatasetInfo] | None = None,
    repo_id: str | None = None,
) -> str:
    """The ``README.md`` of a built folder: YAML metadata and a body, from the build manifest.

    ``dataset_infos`` (configuration -> ``DatasetInfo`` with features and split sizes) fills the
    YAML ``dataset_info``; ``repo_id`` (``org/name``) is used in the loading instructions.
    """
    adapter = get_benchmark(str(manifest["benchmark"]))
    data = DatasetCardData(
        pretty_name=f"BindSplit {adapter.pretty_name}",
        license=adapter.license.lower(),  # Hub licence ids are lower case
        language=["en"],
        task_categories=["zero-shot-image-classification"],
        tags=[
            "bindsplit",
            "compositionality",
            "clip",
            "vision-language",
            "benchmark",
            adapter.name,
        ],
        configs=configs_metadata(manifest["configs"]),
    )
    if dataset_infos:
        DatasetInfosDict(dict(dataset_infos)).to_dataset_card_data(data)
    text = f"---\n{data.to_yaml()}\n---\n\n{_body(manifest, adapter, repo_id)}"
    return str(DatasetCard(text))  # parses the YAML back: a card that would not load fails here


def _body(manifest: Mapping[str, Any], adapter: Any, repo_id: str | None) -> str:
    composition = manifest["composition"]
    reference = manifest["reference"]
    repo = repo_id or hub_dataset_id(adapter.name)
    leakage = manifest["leakage"]
    report = manifest["source_report"]
    sections = [
        f"# BindSplit {adapter.pretty_name}",
        (
            f"{adapter.pretty_name} split by **binding familiarity** with BindSplit. BindSplit "
            'parses the (attribute, object) bindings of every caption ("a red apple" states '
            "(red, apple)), labels each binding *seen* or *unseen* by whether it occurs in a "
            "reference caption corpus (a proxy for what a model saw in training), and splits the "
            "benchmark into configurations by those labels. A model that only recognises familiar "
            "bindings scores well on `full` and `seen` but not on `unseen`; reporting the "
            "configurations separately shows generalisation to novel bindings apart from "
            "memorisation, and the `seen` configuration removes the familiarity shortcut (the "
            "positive and negative captions are equally familiar)."
        ),
    ]
    if leakage["override"]:
        sections.append(
            f"> **Leakage override.** The reference corpus contains {leakage['overlap']:,} of this "
            "benchmark's own positive captions verbatim, and the build was forced with "
            "`--allow-leakage`. Bindings of those captions count as seen because the benchmark "
            "itself is in the reference: the seen share is inflated."
        )
    sections += [
        "## Configurations",
        _markdown_table(
            ("configuration", "samples", "holds"),
            [
                (
                    f"`{config}`",
                    f"{composition['n'] if config == 'full' else composition['counts'][config]:,}",
                    _CONFIG_MEANING[config]
                    + ("" if config in manifest["configs"] else " (empty: not written)"),
                )
                for config in CONFIGURATIONS
            ],
        ),
        "## Composition",
        (
            "Samples per label (`seen` = every binding seen, `unseen` = none seen, "
            "`partial` = some, `none` = no binding found) and binding familiarity, beside the "
            "figures reported in the BindSplit paper where it reports them."
        ),
        _markdown_table(
            ("", "n", "share", "paper"),
            composition_rows(composition, adapter.paper_figures),
        ),
        (
            "Positive captions' bindings are seen at "
            f"{format_share(composition['positive_seen_rate'])}, "
            f"negative captions' at {format_share(composition['negative_seen_rate'])}; "
            f"{format_share(composition['asymmetric_share'])} of the samples are asymmetric "
            "(the positive caption is more or less familiar than a negative one), which a model "
            "can exploit without binding attributes to objects."
        ),
        "## Reference corpus",
        (
            f"Bindings are labelled against the reference with digest `{reference.get('digest')}`: "
            f"{reference.get('n_captions', 0):,} captions, `min_count` = {manifest['min_count']} "
            f"(a binding is seen when it occurs in at least {manifest['min_count']} caption(s)), "
            f"parser version `{manifest['parser_version']}`. Its fingerprint:"
        ),
        _json_block(reference),
        f"Build fingerprint (SHA-256 of the rows): `{manifest['fingerprint']}`.",
        "## Source",
        (
            f"Built from {adapter.pretty_name} (licence `{adapter.license}`); the rows keep every "
            "column of the source and add `caption_bindings` (per caption, its bindings with "
            "reference `count` and `seen` flag), `caption_familiarity` (per caption, the share of "
            "its bindings that are seen), `asymmetric` and `bindsplit_label`. Image columns "
            f"{', '.join(f'`{c}`' for c in adapter.image_columns)} pair with caption columns "
            f"{', '.join(f'`{c}`' for c in adapter.caption_columns)}; "
            f"`{adapter.caption_columns[0]}` is the positive caption of the familiarity statistics."
        ),
        _json_block(manifest["source"]),
        _source_report(report, leakage),
        "## How to load",
        (
            "```python\nfrom datasets import load_dataset\n\n"
            f'unseen = load_dataset("{repo}", "unseen", split="test")\n'
            f'full = load_dataset("{repo}", split="test")  # the default configuration\n```'
        ),
        "## How to evaluate",
        (
            "Score every sample's image-caption similarity matrix and report each configuration "
            "(accuracy, bootstrap interval, seen-minus-unseen gap) with the BindSplit metric:\n\n"
            "```python\nfrom bindsplit_datasets import evaluate_model\n\n"
            f'record = evaluate_model("openai/clip-vit-base-patch32", "{repo}")\n'
            'print(record["metrics"]["unseen/i2t"], record["metrics"]["gap/i2t"])\n```'
        ),
        "## Limitations",
        "\n".join(
            [
                "- The reference corpus is a proxy for a model's training data; labels are exact "
                "only for a model trained on exactly that corpus.",
                "- Bindings of free-text captions come from a rule-based parser and a tagger: "
                "some bindings are missed or wrong (ARO VG-Attribution uses its structured fields "
                "instead).",
                "- The `unseen` configuration is small (a few percent of a benchmark at most): "
                "its accuracies have wide confidence intervals.",
                "- Counts are of captions stating a binding, not of images; a binding seen once "
                "may still be unfamiliar to a model (raise `min_count` to require more).",
            ]
        ),
        "## Citation",
        "BindSplit:",
        f"```bibtex\n{PAPER_CITATION}\n```",
        f"{adapter.pretty_name}:",
        f"```bibtex\n{adapter.citation}\n```",
    ]
    return "\n\n".join(sections) + "\n"


def _source_report(report: Mapping[str, Any], leakage: Mapping[str, Any]) -> str:
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
    if leakage.get("guard", True):
        lines.append(
            f"Leakage check: {leakage['overlap']:,} of the benchmark's positive captions occur "
            "verbatim in the reference"
            + (" (override: built with `--allow-leakage`)." if leakage["override"] else ".")
        )
    else:
        lines.append(
            f"Leakage check: off for this benchmark, whose reference is by design its own "
            f"training corpus ({leakage['overlap']:,} positive captions occur in it verbatim)."
        )
    return "\n".join(lines)
