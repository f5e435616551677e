"""Benchmark specs: every shipped spec read into the adapter it declares, the registry listing spec
and module benchmarks alike, Hub names declared once, and a bad spec file refused in one line
naming the file, the field and the fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from bindsplit_datasets.benchmarks import (
    benchmark_choices,
    from_spec,
    get_benchmark,
    list_benchmarks,
)
from bindsplit_datasets.benchmarks.base import BenchmarkAdapter
from bindsplit_datasets.benchmarks.spec import (
    BenchmarkSpec,
    parse_spec,
    read_spec,
    shipped_specs,
    spec_folder,
)
from bindsplit_datasets.errors import SpecError
from bindsplit_datasets.names import HUB_NAMES, PAPER_CITATION, hub_dataset_id

#: Every benchmark the package ships, each a spec file.
SHIPPED = {
    "aro_vga",
    "aro_vgr",
    "bivlc",
    "colorswap",
    "halftruth",
    "hard_positives",
    "sugarcrepe",
    "sugarcrepe_pp",
    "synthetic",
    "synthetic_relation",
    "vismin",
    "whatsup",
    "winoground",
}

MINIMAL = {
    "name": "mine",
    "columns": {"images": ["picture"], "captions": {"positive": ["good"], "negative": ["bad"]}},
}


def test_every_shipped_benchmark_is_one_spec_file_and_registered():
    files = sorted(p.name for p in spec_folder().iterdir())
    assert files == sorted(f"{name}.yaml" for name in SHIPPED)
    assert set(shipped_specs()) == SHIPPED == set(list_benchmarks())
    for name, spec in shipped_specs().items():
        adapter = get_benchmark(name)
        assert adapter.spec == spec and adapter.name == name
        assert adapter.caption_columns == spec.captions.columns
        assert adapter.hard_positive_columns == spec.captions.hard_positive
        assert adapter.citation.startswith("@") and adapter.license
        assert set(adapter.required_columns) >= set(adapter.image_columns + adapter.caption_columns)
        # a module adapter is named by its spec; a table benchmark has no code of its own
        module = type(adapter).__module__.rsplit(".", 1)[-1]
        assert module == (spec.adapter or "table")


def test_the_synthetic_world_cites_the_paper_and_has_no_leakage_guard():
    adapter = get_benchmark("synthetic")
    assert adapter.citation == PAPER_CITATION and adapter.leakage_guard is False


def test_hub_names_are_the_specs_and_name_the_push_dataset_repositories():
    assert dict(HUB_NAMES) == {name: spec.hub_name for name, spec in shipped_specs().items()}
    assert hub_dataset_id("aro_vga") == "bindsplit/aro"
    assert hub_dataset_id("sugarcrepe_pp") == "bindsplit/sugarcrepe-pp"
    assert hub_dataset_id("winoground", "lab") == "lab/winoground"


def test_unknown_names_list_every_benchmark_open_clip_style():
    with pytest.raises(ValueError, match="unknown benchmark 'winogrond'") as error:
        get_benchmark("winogrond")
    for name in SHIPPED:
        assert name in str(error.value)
    assert "sugarcrepe_pp (alias: sugarcrepe++)" in benchmark_choices()
    assert get_benchmark("sugarcrepe++").name == "sugarcrepe_pp"


def test_a_minimal_spec_fills_the_defaults_and_orders_the_captions():
    data = json.loads(json.dumps(MINIMAL))
    data["columns"]["captions"]["hard_positive"] = ["also_good"]
    spec = parse_spec(data, "mine.yaml")
    assert spec == BenchmarkSpec(
        name="mine",
        pretty_name="mine",
        source=spec.source,
        image_columns=("picture",),
        captions=spec.captions,
        required_columns=("picture", "good", "also_good", "bad"),
        hub_name="mine",
        path="mine.yaml",
    )
    assert spec.caption_columns == ("good", "also_good", "bad")
    assert (spec.source.hub_id, spec.source.split, spec.citation) == (None, "test", "")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"colour": "red"},
            r"mine.yaml: field 'colour' is not a field of a benchmark spec; remove",
        ),
        (
            {"columns": {"images": ["a"], "captions": {"positive": ["b"], "hard": ["c"]}}},
            r"field 'columns.captions.hard' is not a field",
        ),
        ({"name": "two words"}, r"field 'name' 'two words' is not a benchmark name; use letters"),
        ({"name": None}, r"field 'name' is missing; add it"),
        (
            {"columns": {"images": ["a", "b"], "captions": {"positive": ["c"]}}},
            r"field 'columns.captions.positive' has 1 column\(s\) for 2 image column\(s\); list "
            r"one positive caption per image",
        ),
        (
            {"columns": {"images": ["a"], "captions": {"positive": ["b"], "negative": ["a"]}}},
            r"field 'columns.captions' gives column\(s\) \['a'\] two roles",
        ),
        ({"pairing": "crossed"}, r"field 'pairing' is 'crossed'; use one of index, solution"),
        ({"leakage_guard": "yes"}, r"field 'leakage_guard' must be true or false"),
        ({"source": {"hub_id": "not an id"}}, r"field 'source.hub_id' 'not an id' is not a Hub"),
        ({"citation": "Thrush et al."}, r"field 'citation' is not a BibTeX entry"),
        ({"paper_figures": {"unseen_share": "1%"}}, r"field 'paper_figures' must map figure"),
        ({"columns": "image"}, r"field 'columns' must be a mapping of field to value"),
    ],
)
def test_a_bad_spec_is_refused_naming_the_file_the_field_and_the_fix(tmp_path, change, message):
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump({**MINIMAL, **change}), encoding="utf-8")
    with pytest.raises(SpecError, match=message):
        read_spec(path)


def test_a_shipped_spec_must_declare_its_licence_and_hub_name(tmp_path):
    with pytest.raises(SpecError, match="field 'source' is missing"):
        parse_spec(MINIMAL, "x.yaml", shipped=True)
    complete = {**MINIMAL, "source": {"split": "test"}}
    with pytest.raises(SpecError, match="field 'license' is missing"):
        parse_spec(complete, "x.yaml", shipped=True)


def test_unreadable_spec_files_are_named(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: [unclosed\n", encoding="utf-8")
    with pytest.raises(SpecError, match="broken.yaml is not valid YAML"):
        read_spec(broken)
    with pytest.raises(FileNotFoundError, match="benchmark spec .*none.yaml not found"):
        read_spec(tmp_path / "none.yaml")
    as_json = tmp_path / "mine.json"
    as_json.write_text(json.dumps(MINIMAL), encoding="utf-8")
    assert read_spec(as_json).caption_columns == ("good", "bad")


def test_an_adapter_module_must_be_the_one_its_spec_names():
    class Elsewhere(BenchmarkAdapter):  # defined in this test module, not in benchmarks/vismin
        pass

    with pytest.raises(SpecError, match=r"vismin.yaml: field 'adapter' is 'vismin', but .*"):
        from_spec("vismin")(Elsewhere)
    with pytest.raises(SpecError, match="no shipped benchmark spec declares 'nothing'"):
        from_spec("nothing")(Elsewhere)


def test_spec_files_are_package_data(repo_root: Path):
    setup = (repo_root / "setup.cfg").read_text(encoding="utf-8")
    assert "benchmarks/specs/*.yaml" in setup
