"""`bindsplit demo` end to end on a reduced sample count: the shipped checkpoints, the builder,
the scorer, the metric and the figure, offline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import bindsplit_datasets
from bindsplit_datasets.atomic import DEMO_OUTPUT
from bindsplit_datasets.cli import main
from bindsplit_datasets.demo import BUILDS, DEMO_MODELS, model_id, run_demo
from bindsplit_datasets.reports import load_results
from bindsplit_datasets.reports.record_model import results_schema
from bindsplit_datasets.reports.results import DEFAULT_CONFIGS, record_file_name

# the model stack (torch, transformers): not part of `make test-fast`
N_PER_STRATUM = 12


def test_demo_writes_dataset_results_and_figure(tmp_path: Path, capsys) -> None:
    out = tmp_path / "demo_output"
    code = main(
        ["demo", "--out", str(out), "--n-per-stratum", str(N_PER_STRATUM), "--n-bootstrap", "50"]
    )
    assert code == 0
    captured = capsys.readouterr()
    printed = captured.out
    # what the user reads names no temporary folder and no file of the installed package (the
    # demo builds and scores in a temporary folder, with the shipped checkpoints)
    for text in (captured.out, captured.err):
        assert ".tmp" not in text and str(Path(bindsplit_datasets.__file__).parent) not in text
    # off a terminal the progress is logged as lines, and no library draws a bar among them
    assert "\r" not in captured.err
    assert "INFO bindsplit_datasets.progress: synthetic test set: 100%" in captured.err
    assert "Creating parquet" not in captured.err and "Loading weights" not in captured.err
    records = load_results([out / "results.json"])
    models = [model_id("clip"), model_id("negclip")]
    assert [(r["model"]["id"], r["dataset"]["benchmark"]) for r in records] == [
        (model, benchmark) for model in models for benchmark in BUILDS.values()
    ]
    manifest = json.loads((out / "dataset" / "bindsplit.json").read_text(encoding="utf-8"))
    assert manifest["benchmark"] == "synthetic"
    counts = {"seen": N_PER_STRATUM, "unseen": N_PER_STRATUM, "partial": N_PER_STRATUM, "none": 0}
    assert manifest["composition"]["counts"] == counts
    relations = json.loads((out / "relations" / "bindsplit.json").read_text(encoding="utf-8"))
    assert relations["binding_kind"] == "relation"
    assert relations["composition"]["counts"] == counts  # labelled by their triples
    halftruths = json.loads((out / "halftruths" / "bindsplit.json").read_text(encoding="utf-8"))
    assert (
        halftruths["configs"]["seen"] + halftruths["configs"]["unseen"]
        == (halftruths["configs"]["full"])
    )
    for record in (r for r in records if r["dataset"]["benchmark"] == "synthetic"):
        assert record["dataset"]["data"] == "dataset"  # its name: records carry no local path
        assert record["dataset"]["fingerprint"] == manifest["fingerprint"]
        for config in DEFAULT_CONFIGS:
            # balanced: the seen samples and the partial ones (an attribute swap keeps both
            # captions equally familiar: each states one held-out binding of two)
            expected = {"full": 3, "balanced": 2}.get(config, 1) * N_PER_STRATUM
            assert record["metrics"][f"{config}/n"] == expected
            assert 0.0 <= record["metrics"][f"{config}/group"] <= 1.0
        assert "gap/i2t" in record["metrics"]
        # per-sample outcomes carry the source's own ids, so they join back to the benchmark
        samples = record["samples"]
        assert samples["id"][:2] == ["seen-00000", "seen-00001"]
        assert samples["label"][:2] == ["seen", "seen"] and len(samples["i2t"]) == 3 * N_PER_STRATUM
        assert record["model"]["id"] in printed
    for record in (r for r in records if r["dataset"]["benchmark"] == "synthetic_relation"):
        assert record["dataset"]["binding_kind"] == "relation" and "gap/i2t" in record["metrics"]
    for record in (r for r in records if r["dataset"]["benchmark"] == "halftruth"):
        for key in ("full/acc_ht", "gap/acc_ht_ci", "seen/kind/relation/delta", "unseen/ref_acc"):
            assert key in record["metrics"], key
    # the same records one per file, named as `bindsplit eval --out-dir` names them
    names = sorted(
        record_file_name(model, benchmark) for model in models for benchmark in BUILDS.values()
    )
    assert sorted(p.name for p in (out / "results").iterdir()) == names
    assert load_results([out / "results" / name for name in names]) == sorted(
        records, key=lambda r: record_file_name(r["model"]["id"], r["dataset"]["benchmark"])
    )
    # every record the demo writes validates against the published JSON Schema
    validator = Draft202012Validator(results_schema())
    for path in [out / "results.json", *(out / "results").iterdir()]:
        value = json.loads(path.read_text(encoding="utf-8"))
        for record in value if isinstance(value, list) else [value]:
            assert not list(validator.iter_errors(record)), path
    assert (out / "accuracy_by_split.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "I2T accuracy" in printed and "group accuracy" in printed
    assert "synthetic_relation (relation bindings): I2T accuracy" in printed
    # each model's attribute split beside its relation split, with the gap and its interval
    side_by_side = printed.split("I2T accuracy by split, side by side\n", 1)[1].splitlines()
    for model in models:
        for build in ("synthetic (attribute bindings)", "synthetic_relation (relation bindings)"):
            row = f"{model} {build} "
            assert any(" ".join(line.split()).startswith(row) for line in side_by_side[2:6])
    assert "AccHT accuracy, 2 models" in printed
    for line in ("entity    seen - unseen", "relation  unseen", "relation/swap"):
        assert line in printed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo_output"]  # no temporaries left
    # the manifest marks the folder as a demo output, which a later --overwrite may replace
    demo = json.loads((out / "demo.json").read_text(encoding="utf-8"))
    assert demo["format"] == DEMO_OUTPUT.format and DEMO_OUTPUT.marks(out)
    assert demo["models"] == models
    assert demo["n_per_stratum"] == N_PER_STRATUM
    # a benchmark with hard positives, in SugarCrepe++'s layout, built as a user's table
    hard = out / "hard_positives"
    assert demo["hard_positives"] == "hard_positives"
    hard_manifest = json.loads((hard / "dataset" / "bindsplit.json").read_text(encoding="utf-8"))
    assert hard_manifest["benchmark"] == "synthetic_hard_positives"
    assert hard_manifest["columns"]["caption"] == ["caption", "caption2", "negative_caption"]
    assert hard_manifest["columns"]["hard_positive"] == ["caption2"]
    assert hard_manifest["source"]["mapping"]["hard_positive"] == ["caption2"]
    # the same samples as the synthetic benchmark: the same labels
    assert hard_manifest["composition"]["counts"] == manifest["composition"]["counts"]
    hard_records = load_results([hard / "results.json"])
    assert [r["model"]["id"] for r in hard_records] == [model_id("clip"), model_id("negclip")]
    assert all(r["metrics"]["full/n"] == 3 * N_PER_STRATUM for r in hard_records)
    assert "Hard positives (seed 003)" in printed and "synthetic_hard_positives" in printed
    # its records carry the hard-positive keys and validate against the published schema too
    per_model = load_results(sorted((hard / "results").iterdir()))
    assert sorted(r["model"]["id"] for r in per_model) == sorted(model_id(n) for n in DEMO_MODELS)
    for path in [hard / "results.json", *(hard / "results").iterdir()]:
        value = json.loads(path.read_text(encoding="utf-8"))
        for record in value if isinstance(value, list) else [value]:
            assert not list(validator.iter_errors(record)), path
            assert "i2t_original" in record["samples"], path
            assert record["metrics"]["drop_interval_method"] == "wilson", path
            assert {"full/i2t_drop_ci", "gap/i2t_original"} <= set(record["metrics"]), path
    assert not (hard / "table.parquet").exists()


@pytest.mark.parametrize("overwrite", [False, True])
def test_demo_never_replaces_a_user_folder(tmp_path: Path, overwrite) -> None:
    out = tmp_path / "demo_output"
    out.mkdir()
    (out / "mine.txt").write_text("keep", encoding="utf-8")
    with pytest.raises(FileExistsError, match="demo_output: it exists and is not a previous"):
        run_demo(out, n_per_stratum=2, overwrite=overwrite, progress=False)
    assert [p.name for p in out.iterdir()] == ["mine.txt"]
