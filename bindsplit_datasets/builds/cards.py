"""Dataset cards for built BindSplit datasets, and the composition tables they share with
``bindsplit build``, ``bindsplit stats`` and ``bindsplit reproduce`` (:func:`composition_rows`,
:func:`category_rows`, :func:`composition_report`).

A card is rendered from the build manifest alone (plus the per-configuration ``DatasetInfo`` the
builder measured), so every number on it is the manifest's: composition per label (and per
category), both readings of every figure the paper reports (binding and caption level seen rates,
the unseen share over all samples and over samples with bindings), asymmetric share, reference
fingerprint, parser version, source commit or hashes, pairing, leakage. Its YAML is written with
``huggingface_hub.DatasetCardData``: ``pretty_name``, the source benchmark's ``license``,
``task_categories``, ``tags``, ``configs`` (``full`` the default, each pointing at
``<config>/test-*.parquet``) and ``dataset_info`` as ``datasets`` writes it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import datasets
from huggingface_hub import DatasetCard, DatasetCardData

from ..benchmarks import BenchmarkAdapter, get_benchmark
from ..datasets_compat import DatasetInfosDict
from ..metric_core import SMALL_N
from ..names import (
    CONFIGURATION_MEANINGS,
    CONFIGURATIONS,
    DEFAULT_BINDING_KIND,
    SPLIT_LABELS,
    hub_dataset_id,
    install_command,
    size_category,
)
from ..tables import Align, render_table
from .card_source import (
    caption_roles,
    citations,
    format_share,
    leakage_found,
    licences,
    mapping_statement,
    pairing_statement,
    source_identity,
    source_report,
    unofficial_pairing,
)
from .eval_tasks import card_section
from .manifest import build_columns
from .paper import paper_column_note, paper_comparable, paper_figure_notes

__all__ = [
    "CATEGORY_HEADER",
    "COMPOSITION_HEADER",
    "category_rows",
    "composition_report",
    "composition_rows",
    "configs_metadata",
    "flat_composition",
    "render_card",
]


# (key, meaning, key of the paper's figure) of the rates, each paper figure in both readings;
# {units} / {unit} / {any} name the build's binding units (_UNIT_NAMES)
_RATES = (
    ("positive_seen_rate", "positive-caption {units} seen", "positive_seen_rate"),
    ("positive_caption_seen_rate", "positive captions with a {unit} seen", "positive_seen_rate"),
    ("negative_seen_rate", "negative-caption {units} seen", "negative_seen_rate"),
    ("negative_caption_seen_rate", "negative captions with a {unit} seen", "negative_seen_rate"),
    ("asymmetric_share", "samples with familiarity asymmetry", "asymmetric_share"),
)
_UNSEEN_WITH_BINDINGS = "unseen, of samples with {any}"
#: Binding kind -> what a model that exploits familiarity does without (the card).
_BINDING_WORK = {
    "attribute": "binding attributes to objects",
    "relation": "binding relations to their subjects and objects",
    "both": "binding attributes to objects and relations to their subjects and objects",
}
#: Binding kind -> how the composition names its units: all of them, one, and any of them.
_UNIT_NAMES: dict[str, dict[str, str]] = {
    "attribute": {"units": "bindings", "unit": "binding", "any": "bindings"},
    "relation": {"units": "triples", "unit": "triple", "any": "triples"},
    "both": {
        "units": "bindings and triples",
        "unit": "binding or triple",
        "any": "bindings or triples",
    },
}
_BALANCED_ROW = "balanced (equal familiarity above 0)"
#: Header of the composition table (:func:`composition_rows`).
COMPOSITION_HEADER: tuple[str, ...] = ("", "n", "share", "paper")
#: Header of the per-category composition table.
CATEGORY_HEADER: tuple[str, ...] = (
    "category",
    "n",
    "seen",
    "unseen",
    "partial",
    "none",
    "balanced",
    "pos. bindings seen",
    "neg. bindings seen",
    "asymmetric",
)
#: Below this share of the samples the ``unseen`` configuration is called small on the card.
_SMALL_SHARE = 0.1


#: Binding kind -> what labels the samples and which row columns hold the units (the card).
_KIND_STATEMENT = {
    "attribute": (
        "the (attribute, object) bindings their captions state (the paper's protocol)",
        "`caption_bindings` (per caption, its bindings with reference `count` and `seen` flag)",
    ),
    "relation": (
        'the (subject, relation, object) triples their captions state ("a dog sitting on a '
        "couch\" states (dog, sit on, couch); BindSplit's extension of the protocol to relations)",
        "`caption_relations` (per caption, its (subject, relation, object) triples with "
        "reference `count` and `seen` flag)",
    ),
    "both": (
        "their (attribute, object) bindings and (subject, relation, object) triples together",
        "`caption_bindings` and `caption_relations` (per caption, its bindings and its "
        "triples, each with reference `count` and `seen` flag)",
    ),
}


def binding_kind_statement(manifest: Mapping[str, Any]) -> str:
    """The card's sentence naming the build's binding kind (``bindsplit build --bindings``)."""
    kind = manifest.get("binding_kind", DEFAULT_BINDING_KIND)
    return (
        f"**Binding kind: `{kind}`** (`bindsplit build --bindings {kind}`): samples are "
        f'labelled by {_KIND_STATEMENT[kind][0]}; "binding" below means a unit of this kind.'
    )


def flat_composition(composition: Mapping[str, Any]) -> dict[str, float | int | None]:
    """``CompositionStats.to_dict()`` flattened to the keys of ``paper_figures``: ``n``,
    ``{label}_count``, ``{label}_share``, ``unseen_share_with_bindings``, ``balanced_count``,
    ``balanced_share`` and the rates (``positive_seen_rate``, ``positive_caption_seen_rate``,
    ``negative_seen_rate``, ``negative_caption_seen_rate``, ``asymmetric_share``)."""
    flat: dict[str, float | int | None] = {"n": composition["n"]}
    for label in SPLIT_LABELS:
        flat[f"{label}_count"] = composition["counts"][label]
        flat[f"{label}_share"] = composition["shares"][label]
    for key in ("unseen_share_with_bindings", "balanced_count", "balanced_share"):
        flat[key] = composition.get(key)
    for key, _, _ in _RATES:
        flat[key] = composition.get(key)
    return flat


def _figure(figures: Mapping[str, float], key: str) -> str:
    """The paper's figure ``key`` as shown beside ours (shares as percentages)."""
    if key not in figures:
        return ""
    if key.endswith("_count"):
        return f"n = {int(figures[key]):,}"
    return format_share(figures[key])


def _count(value: int | None) -> str:
    return "" if value is None else f"{value:,}"


def composition_rows(
    composition: Mapping[str, Any],
    paper_figures: Mapping[str, float] | None = None,
    binding_kind: str = DEFAULT_BINDING_KIND,
) -> list[tuple[str, str, str, str]]:
    """Rows ``(what, n, share, paper)`` of the composition table: one per label, the total, the
    unseen share of the samples with bindings, the ``balanced`` samples, then the seen rates (each
    at binding and caption level, ``n`` their denominators) and the asymmetric share. ``paper``
    holds the paper's figure beside every reading of it (docs/protocol.md, section 6). The rows
    name the units of ``binding_kind``: "bindings", "triples" (``relation``), or "bindings and
    triples" (``both``)."""
    figures = paper_figures or {}
    names = _UNIT_NAMES[binding_kind]
    rows = []
    for label in SPLIT_LABELS:
        paper = ", ".join(
            f for f in (_figure(figures, f"{label}_share"), _figure(figures, f"{label}_count")) if f
        )
        share = format_share(composition["shares"][label])
        rows.append((label, f"{composition['counts'][label]:,}", share, paper))
    total_share = format_share(1.0 if composition["n"] else None)
    rows.append(("total", f"{composition['n']:,}", total_share, ""))
    rows.append(
        (
            _UNSEEN_WITH_BINDINGS.format(**names),
            f"{composition['counts']['unseen']:,}",
            format_share(composition.get("unseen_share_with_bindings")),
            _figure(figures, "unseen_share"),
        )
    )
    rows.append(
        (
            _BALANCED_ROW,
            _count(composition.get("balanced_count")),
            format_share(composition.get("balanced_share")),
            "",
        )
    )
    denominators = {
        "positive_seen_rate": "n_positive_bindings",
        "positive_caption_seen_rate": "n_positive_captions",
        "negative_seen_rate": "n_negative_bindings",
        "negative_caption_seen_rate": "n_negative_captions",
    }
    for key, meaning, figure in _RATES:
        n = _count(composition.get(denominators[key])) if key in denominators else ""
        rows.append(
            (
                meaning.format(**names),
                n,
                format_share(composition.get(key)),
                _figure(figures, figure),
            )
        )
    return rows


def _count_share(count: int, share: float | None) -> str:
    return f"{count:,} ({format_share(share)})"


def category_rows(composition: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """Rows of the per-category composition table (columns :data:`CATEGORY_HEADER`), sorted by
    category; empty when the composition has no ``by_category``."""
    rows = []
    for name, stats in sorted((composition.get("by_category") or {}).items()):
        rows.append(
            (
                name,
                f"{stats['n']:,}",
                *(
                    _count_share(stats["counts"][label], stats["shares"][label])
                    for label in SPLIT_LABELS
                ),
                _count_share(stats["balanced_count"], stats["balanced_share"]),
                format_share(stats["positive_seen_rate"]),
                format_share(stats["negative_seen_rate"]),
                format_share(stats["asymmetric_share"]),
            )
        )
    return rows


def composition_report(
    composition: Mapping[str, Any],
    benchmark: str,
    paper_figures: Mapping[str, float],
    binding_kind: str = DEFAULT_BINDING_KIND,
) -> str:
    """The composition beside the paper's figures (no paper column without them: another
    reference than the paper's, or a benchmark the paper reports nothing for;
    :func:`paper_column_note` says which), the notes on those figures and the composition by
    category (when the benchmark has categories), as plain text; the rows name the units of
    ``binding_kind``."""
    rows = composition_rows(composition, paper_figures, binding_kind)
    if paper_figures:
        lines = [format_composition(rows)]
    else:
        lines = [
            render_table(("", "n", "share"), [row[:-1] for row in rows], align=("<", ">", ">"))
        ]
    lines += [f"note: {note}" for note in paper_figure_notes(benchmark, paper_figures)]
    categories = category_rows(composition)
    if categories:
        right: list[Align] = [">"] * (len(CATEGORY_HEADER) - 1)
        align: list[Align] = ["<", *right]
        lines += ["", "by category:", render_table(CATEGORY_HEADER, categories, align=align)]
    return "\n".join(lines)


#: The Parquet reader's batch size declared for a configuration of 0 rows (any positive value).
EMPTY_SHARD_BATCH_SIZE = 1000


def configs_metadata(configs: Mapping[str, int]) -> list[dict[str, Any]]:
    """The card's ``configs:`` entries, one per written configuration (``configs``: the
    manifest's rows per configuration), ``full`` the default.

    An empty configuration's shard holds one row group of 0 rows, which the Parquet builder
    would read with a batch size of 0 (an Arrow error); a ``batch_size`` of its own lets
    ``load_dataset(..., streaming=True)`` yield its 0 rows (plain loading of an empty split is
    refused by ``datasets`` itself, huggingface/datasets#8401).
    """
    return [
        {
            "config_name": config,
            "data_files": [{"split": "test", "path": f"{config}/test-*.parquet"}],
            **({"batch_size": EMPTY_SHARD_BATCH_SIZE} if configs[config] == 0 else {}),
            **({"default": True} if config == "full" else {}),
        }
        for config in CONFIGURATIONS
        if config in configs
    ]


def _markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
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
    adapter: BenchmarkAdapter | None = None,
) -> str:
    """The ``README.md`` of a built folder: YAML metadata and a body, from the build manifest.

    ``dataset_infos`` (configuration -> ``DatasetInfo`` with features and split sizes) fills the
    YAML ``dataset_info``; ``repo_id`` (``org/name``) is used in the loading instructions. The
    card is written while building: the benchmark ``adapter`` (default: the registry's) gives
    what the manifest does not record (licence, citation, the paper's figures); the columns
    come from the manifest.
    """
    adapter = adapter or get_benchmark(str(manifest["benchmark"]))
    data = DatasetCardData(
        pretty_name=f"BindSplit {adapter.pretty_name}",
        license=adapter.license.lower(),  # Hub licence ids are lower case
        size_categories=[size_category(int(manifest["composition"]["n"]))],
        source_datasets=[adapter.hub_id] if adapter.hub_id else ["original"],
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
    body = f"{_body(manifest, adapter, repo_id)}\n{card_section(manifest, repo_id)}\n"
    text = f"---\n{data.to_yaml()}\n---\n\n{body}"
    return str(DatasetCard(text))  # parses the YAML back: a card that would not load fails here


def _body(manifest: Mapping[str, Any], adapter: Any, repo_id: str | None) -> str:
    composition = manifest["composition"]
    reference = manifest["reference"]
    columns = build_columns(manifest)
    repo = repo_id or hub_dataset_id(adapter.name)
    leakage = manifest["leakage"]
    report = manifest["source_report"]
    kind = manifest.get("binding_kind", DEFAULT_BINDING_KIND)
    sections = [
        f"# BindSplit {adapter.pretty_name}",
        (
            f"{adapter.pretty_name} split by **binding familiarity** with BindSplit. BindSplit "
            'parses the (attribute, object) bindings of every caption ("a red apple" states '
            '(red, apple)) or its (subject, relation, object) triples ("a dog on a couch" states '
            "(dog, on, couch)), as the build's binding kind says, "
            "labels each binding *seen* or *unseen* by whether it occurs in a "
            "reference caption corpus (a proxy for what a model saw in training), and splits the "
            "benchmark into configurations by those labels. A model that only recognises familiar "
            "bindings scores well on `full` and `seen` but not on `unseen`; reporting the "
            "configurations separately shows generalisation to novel bindings apart from "
            "memorisation, and the `seen` and `balanced` configurations remove the familiarity "
            "shortcut (the positive and negative captions are equally familiar)."
        ),
        binding_kind_statement(manifest),
    ]
    if leakage["override"]:
        sections.append(
            f"> **Leakage override.** The reference corpus contains {leakage_found(leakage)} "
            "verbatim, at or above the threshold of the leakage check, and the build was forced "
            "with `--allow-leakage`. Bindings of those captions count as seen because the "
            "benchmark itself is in the reference: the seen share is inflated."
        )
    if (manifest["source"].get("pairing") or {}).get("mode") == "as-stored":
        sections.append(
            "> **Pairing unchecked.** Built with `--vismin-pairing as-stored`: no ground truth "
            "was applied, and each row's `text_i` is assumed to describe its `image_i` (see "
            "Source)."
        )
    sections += unofficial_pairing(manifest["source"])
    sizes = {config: _config_size(composition, config) for config in CONFIGURATIONS}
    sections += [
        "## Configurations",
        _markdown_table(
            ("configuration", "samples", "holds"),
            [
                (
                    f"`{config}`",
                    f"{n:,}" + (SMALL_MARK if 0 < n < SMALL_N else ""),
                    CONFIGURATION_MEANINGS[config]
                    + (" (0 rows: its shard holds only the schema)" if not n else ""),
                )
                for config, n in sizes.items()
            ],
        ),
        *_small_note(sizes),
        "## Composition",
        (
            "Samples per label (`seen` = every binding seen, `unseen` = none seen, "
            "`partial` = some, `none` = no binding found) and binding familiarity, beside the "
            "figures reported in the BindSplit paper where it reports them. Each of those figures "
            "has two readings, and both are shown beside it: a seen rate at *binding* level (the "
            "share of the captions' bindings that are seen; `n` = bindings) and at *caption* "
            "level (the share of the captions with bindings that have at least one seen binding; "
            "`n` = captions with bindings), and the unseen share over all samples and over the "
            "samples with at least one binding."
        ),
        *_composition_table(manifest, adapter),
        (
            f"Positive captions' {_UNIT_NAMES[kind]['units']} are seen at "
            f"{format_share(composition['positive_seen_rate'])}, "
            f"negative captions' at {format_share(composition['negative_seen_rate'])}; "
            f"{format_share(composition['asymmetric_share'])} of the samples are asymmetric "
            "(the positive caption is more or less familiar than a negative one), which a model "
            f"can exploit without {_BINDING_WORK[kind]}."
        ),
        *[
            f"> **Note on the paper's figures.** {note}"
            for note in (_paper_notes(adapter) if paper_comparable(manifest) else [])
        ],
        *_category_section(composition),
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
        source_identity(manifest["source"], adapter),
        (
            f"Licence of {adapter.pretty_name}: `{adapter.license}`. The rows keep every "
            f"column of the source and add {_KIND_STATEMENT[kind][1]}, "
            "`caption_familiarity` (per caption, the share of "
            "its bindings that are seen), `asymmetric`, `balanced` (the sample belongs to the "
            "`balanced` configuration) and `bindsplit_label` (a `ClassLabel` with the names "
            f"{', '.join(f'`{label}`' for label in SPLIT_LABELS)}). "
            f"{caption_roles(columns)}"
        ),
        *pairing_statement(manifest["source"]),
        *mapping_statement(manifest["source"]),
        _json_block(manifest["source"]),
        source_report(report, leakage),
        "## How to load",
        (
            "```python\nfrom datasets import load_dataset\n\n"
            f'unseen = load_dataset("{repo}", "unseen", split="test")\n'
            f'full = load_dataset("{repo}", split="test")  # the default configuration\n'
            'full.features["bindsplit_label"].int2str(full["bindsplit_label"])  # label names\n```'
        ),
        (
            "`bindsplit_label` stores the class index of its `ClassLabel`; `int2str` gives the "
            "names. To select samples by label, load the configuration (`seen`, `unseen`, "
            "`partial`) rather than filtering `full`."
        ),
        "## How to evaluate",
        (
            "Score every sample's image-caption similarity matrix and report each configuration "
            "(accuracy with an interval valid at any n and its n, the seen-minus-unseen and "
            "seen-minus-partial gaps) with the BindSplit metric. BindSplit is not on the package "
            "index; install it (with the `scoring` extra: torch, transformers, accelerate) from "
            "its repository:\n\n"
            f"```bash\n{install_command('scoring')}\n```\n\n"
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
                *_unseen_limitation(composition),
                "- Counts are of captions stating a binding, not of images; a binding seen once "
                "may still be unfamiliar to a model (raise `min_count` to require more).",
            ]
        ),
        "## Licences",
        licences(adapter),
        "## Citation",
        *citations(adapter),
    ]
    return "\n\n".join(sections) + "\n"


def _composition_table(manifest: Mapping[str, Any], adapter: Any) -> list[str]:
    """The composition table, with the paper's figures beside ours only where they apply (the
    build's reference is the paper's); otherwise without them, and a caveat saying why."""
    kind = manifest.get("binding_kind", DEFAULT_BINDING_KIND)
    rows = composition_rows(manifest["composition"], adapter.paper_figures, kind)
    note = paper_column_note(manifest, adapter)
    if note is None or not adapter.paper_figures:
        return [_markdown_table(COMPOSITION_HEADER, rows)]
    return [
        _markdown_table(COMPOSITION_HEADER[:-1], [row[:-1] for row in rows]),
        f"> **Not comparable with the paper.** {note[0].upper()}{note[1:]}.",
    ]


def _unseen_limitation(composition: Mapping[str, Any]) -> list[str]:
    """The limitation of a small ``unseen`` configuration, where it is small."""
    n, share = composition["counts"]["unseen"], composition["shares"]["unseen"]
    if share is not None and share >= _SMALL_SHARE:
        return []
    return [
        f"- The `unseen` configuration is small ({n:,} samples, {format_share(share)} of this "
        "build): its accuracies have wide confidence intervals (score intervals, valid at any "
        "n; report each accuracy with its n)."
    ]


#: The card's mark of a configuration too small for tight intervals.
SMALL_MARK = "*"


def _small_note(sizes: Mapping[str, int]) -> list[str]:
    """The legend of :data:`SMALL_MARK`, where a configuration carries it."""
    if not any(0 < n < SMALL_N for n in sizes.values()):
        return []
    return [
        f"{SMALL_MARK} Fewer than {SMALL_N} samples: an accuracy on this configuration rests on "
        "a small sample. `bindsplit eval` gives it a score interval that holds at any n "
        "(Wilson by default) and flags it, as it flags a degenerate count (0/n, n/n)."
    ]


def _config_size(composition: Mapping[str, Any], config: str) -> int:
    if config == "full":
        return int(composition["n"])
    if config == "balanced":
        return int(composition.get("balanced_count") or 0)
    return int(composition["counts"][config])


def _paper_notes(adapter: Any) -> list[str]:
    return paper_figure_notes(adapter.name, adapter.paper_figures)


def _category_section(composition: Mapping[str, Any]) -> list[str]:
    rows = category_rows(composition)
    if not rows:
        return []
    return [
        "### Composition by category",
        "Samples per label and `balanced` samples (count and share of the category), the "
        "binding-level seen rates and the asymmetric share, per category of the benchmark.",
        _markdown_table(CATEGORY_HEADER, rows),
    ]


def format_composition(rows: Sequence[tuple[str, str, str, str]]) -> str:
    """The composition table (``what  n  share  paper``) of
    :func:`composition_rows`."""
    return render_table(("", "n", "share", "paper"), rows, align=("<", ">", ">", ">"))
