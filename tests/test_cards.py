"""Dataset cards: YAML parsed back with ``huggingface_hub``, ``configs`` matching the folder, and
every number on the card equal to the one recomputed from the rows loaded back."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import datasets
import pytest
from datasets.utils.metadata import MetadataConfigs
from fixtures_sources import make_aro_mirror_source, make_bivlc_source
from huggingface_hub import DatasetCard

from bindsplit_datasets.benchmarks import get_benchmark
from bindsplit_datasets.builds.builder import build_benchmark
from bindsplit_datasets.builds.card_source import format_share
from bindsplit_datasets.builds.cards import (
    category_rows,
    composition_rows,
    flat_composition,
    render_card,
)
from bindsplit_datasets.builds.paper import paper_figure_notes
from bindsplit_datasets.labels import composition
from bindsplit_datasets.names import PAPER_CITATION
from bindsplit_datasets.reports.eval_results import card_section

REFERENCE = ["a red car on the road", "a white dog on the grass", "a black cat on a mat"]
ROWS = [
    {
        "caption": "a red car",
        "negative_caption": "a white dog",
        "type": "replace",
        "subtype": "att",
    },
    {
        "caption": "a purple car",
        "negative_caption": "a golden dog",
        "type": "swap",
        "subtype": "att",
    },
    {
        "caption": "a red car",
        "negative_caption": "a purple dog",
        "type": "replace",
        "subtype": "att",
    },
    {
        "caption": "two people walking",
        "negative_caption": "three people",
        "type": "add",
        "subtype": "obj",
    },
    {
        "caption": "a white dog",
        "negative_caption": "a black dog",
        "type": "replace",
        "subtype": "att",
    },
    {
        "caption": "a black cat",
        "negative_caption": "a golden cat",
        "type": "replace",
        "subtype": "att",
    },
    {
        "caption": "a golden cat",
        "negative_caption": "a black cat",
        "type": "replace",
        "subtype": "att",
    },
]


@pytest.fixture(scope="module")
def reference_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("ref") / "reference.txt"
    path.write_text("\n".join(REFERENCE) + "\n")
    return path


@pytest.fixture(scope="module")
def build(tmp_path_factory, reference_file):
    work = tmp_path_factory.mktemp("cards")
    source = make_bivlc_source(work / "bivlc.parquet", ROWS)
    return build_benchmark(
        "bivlc",
        out=work / "build",
        source=source,
        reference=reference_file,
        repo_id="org/bivlc-split",
    )


@pytest.fixture(scope="module")
def card(build) -> DatasetCard:
    return DatasetCard.load(build.path / "README.md")


def test_card_yaml_parses_back_with_the_dataset_metadata(card):
    data = card.data
    assert data.pretty_name == "BindSplit BiVLC"
    assert data.license == "mit"  # the source benchmark's licence
    assert data.task_categories == ["zero-shot-image-classification"]
    assert {"bindsplit", "compositionality", "bivlc"} <= set(data.tags)


def test_card_configs_match_the_folder(card, build):
    configs = card.data.configs
    folders = sorted(p.name for p in build.path.iterdir() if p.is_dir())
    assert sorted(c["config_name"] for c in configs) == folders == sorted(build.manifest["configs"])
    assert [c["config_name"] for c in configs if c.get("default")] == ["full"]
    for config in configs:
        (entry,) = config["data_files"]
        assert entry["split"] == "test"
        matched = sorted(
            p.relative_to(build.path).as_posix() for p in build.path.glob(entry["path"])
        )
        present = sorted(
            p.relative_to(build.path).as_posix()
            for p in (build.path / config["config_name"]).iterdir()
        )
        assert matched == present
    # datasets reads the same configs and default from the card
    read = MetadataConfigs.from_dataset_card_data(card.data)
    assert read.get_default_config_name() == "full" and sorted(read) == folders


def test_card_dataset_info_is_what_datasets_loads(card, build):
    infos = {info["config_name"]: info for info in card.data.dataset_info}
    assert sorted(infos) == sorted(build.manifest["configs"])
    for config, info in infos.items():
        loaded = datasets.load_dataset(str(build.path), config, split="test")
        assert datasets.Features._from_yaml_list(info["features"]) == loaded.features
        (split,) = info["splits"]
        assert (split["name"], split["num_examples"]) == ("test", len(loaded))
        assert info["download_size"] == sum(
            p.stat().st_size for p in (build.path / config).iterdir()
        )


def _table_rows(markdown: str, heading: str) -> dict[str, list[str]]:
    section = markdown.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        if line.startswith("| ") and not line.startswith("|---"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            rows[cells[0]] = cells[1:]
    return rows


def test_card_numbers_equal_those_recomputed_from_the_rows(card, build):
    full = datasets.load_dataset(str(build.path), "full", split="test")
    rows = full.remove_columns(["image", "negative_image"])
    adapter = get_benchmark("bivlc")
    stats = composition(rows, [adapter.category(row) for row in rows])
    assert stats.to_dict() == build.manifest["composition"]
    table = _table_rows(card.text, "Composition")
    for label in ("seen", "unseen", "partial", "none"):
        assert table[label][:2] == [str(stats.counts[label]), format_share(stats.shares[label])]
    assert table["total"][:2] == [str(stats.n), "100.0%"]
    readings = {
        "positive-caption bindings seen": (stats.n_positive_bindings, stats.positive_seen_rate),
        "positive captions with a binding seen": (
            stats.n_positive_captions,
            stats.positive_caption_seen_rate,
        ),
        "negative-caption bindings seen": (stats.n_negative_bindings, stats.negative_seen_rate),
        "negative captions with a binding seen": (
            stats.n_negative_captions,
            stats.negative_caption_seen_rate,
        ),
    }
    for row, (n, rate) in readings.items():
        assert table[row][:2] == [str(n), format_share(rate)]
    assert table["samples with familiarity asymmetry"][1] == format_share(stats.asymmetric_share)
    # labelled against a text file, not the paper's reference: no paper column, a caveat
    assert table["unseen, of samples with bindings"] == [
        str(stats.counts["unseen"]),
        format_share(stats.unseen_share_with_bindings),
    ]
    assert "> **Not comparable with the paper.** The paper's figures for BiVLC" in card.text
    assert table["balanced (equal familiarity above 0)"][:2] == [
        str(stats.balanced_count),
        format_share(stats.balanced_share),
    ]
    by_category = _table_rows(card.text, "Composition").keys() & stats.by_category.keys()
    assert by_category == {"replace/att", "swap/att", "add/obj"}
    for name, by in stats.by_category.items():
        assert table[name][:2] == [
            str(by.n),
            f"{by.counts['seen']} ({format_share(by.shares['seen'])})",
        ]
    configurations = _table_rows(card.text, "Configurations")
    for config in build.manifest["configs"]:
        n = len(datasets.load_dataset(str(build.path), config, split="test"))
        # fewer than 30 samples (the fixture has 7): flagged, with the legend under the table
        assert configurations[f"`{config}`"][0] == str(n) + ("*" if 0 < n < 30 else "")
    assert "* Fewer than 30 samples: an accuracy on this configuration rests on" in card.text
    # the hand-checkable values against REFERENCE
    assert stats.counts == {"seen": 1, "unseen": 1, "partial": 4, "none": 1}
    assert stats.balanced_count == 1 and stats.by_category["swap/att"].counts["unseen"] == 1


def test_card_states_reference_parser_loading_and_citations(card, build):
    text = card.text
    manifest = build.manifest
    assert f"digest `{manifest['reference']['digest']}`" in text
    assert f"parser version `{manifest['parser_version']}`" in text
    assert manifest["fingerprint"] in text
    assert 'load_dataset("org/bivlc-split", "unseen", split="test")' in text
    assert PAPER_CITATION in text and get_benchmark("bivlc").citation in text
    for heading in ("How to evaluate", "Limitations", "Reference corpus", "Citation"):
        assert f"## {heading}" in text
    assert "Leakage override" not in text


def test_how_to_evaluate_gives_an_install_line_that_works_today(card, repo_root):
    """The package is not on the package index: the card installs it from the repository the
    package names (setup.cfg's url), with the extra evaluate_model needs."""
    import configparser

    from packaging.requirements import Requirement

    section = card.text.split("## How to evaluate", 1)[1].split("\n## ", 1)[0]
    [line] = re.findall(r"^pip install .*$", section, flags=re.M)
    requirement = Requirement(line.removeprefix("pip install ").strip('"'))
    setup = configparser.ConfigParser()
    setup.read(repo_root / "setup.cfg")
    assert requirement.name == setup["metadata"]["name"]
    assert requirement.url == f"git+{setup['metadata']['url']}"
    assert requirement.extras == {"scoring"}
    assert "scoring" in setup["options.extras_require"]
    assert section.index(line) < section.index("evaluate_model(")


def test_leakage_override_is_stated(build):
    manifest = copy.deepcopy(build.manifest)
    manifest["leakage"] = {
        "overlap": 12,
        "n_positive": 14,
        "share": 12 / 14,
        "threshold": 0.2,
        "override": True,
    }
    text = render_card(manifest)
    assert (
        "**Leakage override.** The reference corpus contains 12 of this benchmark's 14 positive "
        "captions (85.7%) verbatim"
    ) in text
    assert "reaches 20.0%" in text and "Override: built with `--allow-leakage`." in text


def test_source_commit_and_pairing_are_stated(build):
    manifest = copy.deepcopy(build.manifest)
    manifest["source"] = {"hub_id": "imirandam/BiVLC", "revision": "main", "sha": "ab" * 20}
    text = render_card(manifest)
    commit = "ab" * 20
    hub = "Read from the Hub dataset `imirandam/BiVLC`, revision `main`"
    assert f"{hub}, at commit `{commit}`." in text
    manifest["source"]["sha"] = None
    assert "this build is not pinned to a commit" in render_card(manifest)
    manifest["source"]["pairing"] = {"mode": "as-stored"}
    text = render_card(manifest)
    assert "> **Pairing unchecked.** Built with `--vismin-pairing as-stored`" in text
    assert "Pairing: **as stored**" in text


def test_source_problems_and_notes_reach_the_card(tmp_path, reference_file):
    captions = [
        ("the white dog and the black cat", "the black dog and the white cat"),
        ("a dog beside a cat", "a cat beside a dog"),
    ]
    source = make_aro_mirror_source(tmp_path / "mirror.parquet", captions)
    result = build_benchmark(
        "aro_vga", out=tmp_path / "aro", source=source, reference=reference_file
    )
    text = (result.path / "README.md").read_text()
    assert "template mismatch: 1" in text
    assert re.search(
        r"- 1 row\(s\) do not fit the template 'the \{attr\} \{obj\} and the \{attr\} \{obj\}'",
        text,
    )
    assert DatasetCard(text).data.license == "mit"
    assert "n = 314" not in text and "Note on the paper" not in text  # not the paper's reference
    coco = {**result.manifest["reference"], "corpus": {"kind": "coco", "name": "coco2017"}}
    text = render_card({**result.manifest, "reference": coco, "min_count": 1})
    assert "| unseen |" in text and "n = 314" in text  # ARO's paper figures: share and split size
    # and the note that those two figures cannot both hold for ARO's 28,748 samples
    assert (
        "> **Note on the paper's figures.** The paper's unseen figures for this benchmark cannot "
        "both hold: its unseen split has n = 314 samples, which is 1.09% of the benchmark's "
        "28,748 samples, while it quotes an unseen share of 1.2% (about 345 samples)."
    ) in text


def test_composition_rows_and_flat_keys():
    stats = {
        "n": 8,
        "counts": {"seen": 4, "unseen": 1, "partial": 2, "none": 1},
        "shares": {"seen": 0.5, "unseen": 0.125, "partial": 0.25, "none": 0.125},
        "positive_seen_rate": 0.75,
        "negative_seen_rate": None,
        "positive_caption_seen_rate": 5 / 7,
        "negative_caption_seen_rate": None,
        "n_positive_bindings": 12,
        "n_negative_bindings": 0,
        "n_positive_captions": 7,
        "n_negative_captions": 0,
        "asymmetric_share": 0.375,
        "balanced_count": 5,
        "balanced_share": 0.625,
        "n_with_bindings": 7,
        "unseen_share_with_bindings": 1 / 7,
    }
    figures = {"unseen_share": 0.012, "unseen_count": 314, "positive_seen_rate": 0.798}
    assert composition_rows(stats, figures) == [
        ("seen", "4", "50.0%", ""),
        ("unseen", "1", "12.5%", "1.2%, n = 314"),
        ("partial", "2", "25.0%", ""),
        ("none", "1", "12.5%", ""),
        ("total", "8", "100.0%", ""),
        ("unseen, of samples with bindings", "1", "14.3%", "1.2%"),
        ("balanced (equal familiarity above 0)", "5", "62.5%", ""),
        ("positive-caption bindings seen", "12", "75.0%", "79.8%"),
        ("positive captions with a binding seen", "7", "71.4%", "79.8%"),
        ("negative-caption bindings seen", "0", "-", ""),
        ("negative captions with a binding seen", "0", "-", ""),
        ("samples with familiarity asymmetry", "", "37.5%", ""),
    ]
    assert flat_composition(stats) == {
        "n": 8,
        "seen_count": 4,
        "seen_share": 0.5,
        "unseen_count": 1,
        "unseen_share": 0.125,
        "partial_count": 2,
        "partial_share": 0.25,
        "none_count": 1,
        "none_share": 0.125,
        "unseen_share_with_bindings": 1 / 7,
        "balanced_count": 5,
        "balanced_share": 0.625,
        "positive_seen_rate": 0.75,
        "positive_caption_seen_rate": 5 / 7,
        "negative_seen_rate": None,
        "negative_caption_seen_rate": None,
        "asymmetric_share": 0.375,
    }
    assert category_rows(stats) == []
    assert category_rows({**stats, "by_category": {"swap": stats}}) == [
        (
            "swap",
            "8",
            "4 (50.0%)",
            "1 (12.5%)",
            "2 (25.0%)",
            "1 (12.5%)",
            "5 (62.5%)",
            "75.0%",
            "-",
            "37.5%",
        )
    ]


def test_paper_figure_notes_only_where_the_figures_disagree():
    assert paper_figure_notes("aro_vga", {"unseen_share": 0.012, "unseen_count": 314})
    assert paper_figure_notes("aro_vga", {"unseen_share": 0.011, "unseen_count": 314}) == []
    assert paper_figure_notes("bivlc", {"unseen_share": 0.018}) == []


def test_render_card_rejects_an_unknown_benchmark(build):
    manifest = dict(build.manifest, benchmark="nope")
    with pytest.raises(ValueError, match="unknown benchmark 'nope'"):
        render_card(manifest)


def test_the_folder_passes_the_publisher_and_loader_checks(build):
    from bindsplit_datasets.loading import load_bindsplit
    from bindsplit_datasets.publish import inspect_build

    folder = inspect_build(build.path)
    assert folder.configs == build.manifest["configs"] and folder.default_config == "full"
    unseen = load_bindsplit(build.path, "unseen")
    assert (
        unseen.benchmark == "bivlc" and len(unseen.dataset) == build.manifest["configs"]["unseen"]
    )


def test_the_paper_column_appears_only_against_the_papers_reference(build):
    manifest = json.loads((build.path / "bindsplit.json").read_text())
    coco = {**manifest["reference"], "corpus": {"kind": "coco", "name": "coco2017"}}
    text = render_card({**manifest, "reference": coco, "min_count": 1})
    table = _table_rows(text, "Composition")
    assert table["unseen"][2] == "1.8%"  # the paper's figure beside ours, in both readings
    assert table["unseen, of samples with bindings"][2] == "1.8%"
    assert "Not comparable with the paper" not in text
    text = render_card({**manifest, "reference": coco, "min_count": 2})
    assert len(_table_rows(text, "Composition")["unseen"]) == 2
    assert "with `min_count` 2, so they are not shown" in text


def test_unseen_is_called_small_only_where_it_is(build):
    manifest = json.loads((build.path / "bindsplit.json").read_text())
    composition = manifest["composition"]
    assert composition["shares"]["unseen"] == 1 / 7  # 14%: not small
    assert "The `unseen` configuration is small" not in render_card(manifest)
    assert "a few percent" not in render_card(manifest)
    rare = {**composition, "counts": {**composition["counts"], "unseen": 2}}
    rare["shares"] = {**composition["shares"], "unseen": 0.02}
    text = render_card({**manifest, "composition": rare})
    assert "The `unseen` configuration is small (2 samples, 2.0% of this build)" in text


def test_card_metadata_names_sizes_sources_and_licences(card, build):
    assert card.data.size_categories == ["n<1K"]
    assert card.data.source_datasets == ["imirandam/BiVLC"]
    licences = card.text.split("## Licences\n", 1)[1].split("\n## ", 1)[0]
    assert "Annotations (captions, negatives, categories) of BiVLC: `mit`" in licences
    assert "COCO 2017 images" in licences and "BiVLC's generated images" in licences
    assert card.text.rstrip().endswith(card_section(build.manifest, "org/bivlc-split"))
    aro = get_benchmark("aro_vga")
    assert aro.image_sources == ("Visual Genome images (CC BY 4.0)",)
