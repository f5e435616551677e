"""evaluate_model, loading of built datasets and `bindsplit eval`: the record equals the metric
of a naive per-sample forward, multi-process runs agree, bad input fails clearly."""

from __future__ import annotations

import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import datasets
import numpy as np
import pyarrow.parquet as pq
import pytest
from fixtures_sources import label_names
from tiny_models import (
    AroLikeAdapter,
    BivlcLikeAdapter,
    naive_metrics,
    naive_scores,
    reset_accelerate,
    tiny_bivlc_like,
    tiny_clip,
    with_group_columns,
    write_fake_build,
)
from transformers import AutoProcessor, CLIPVisionConfig, CLIPVisionModel

import bindsplit_datasets
from bindsplit_datasets import cli, evaluate_model, loading, provenance
from bindsplit_datasets.builds.manifest import rows_fingerprint
from bindsplit_datasets.errors import (
    MissingExtraError,
    OutputPathError,
    SchemaError,
    ScoringOptionError,
    UnsupportedModelError,
)
from bindsplit_datasets.evaluation import parse_configs
from bindsplit_datasets.loading import BindsplitData, load_bindsplit
from bindsplit_datasets.metric_core import (
    SETTINGS_KEYS,
    accumulate,
    compute_metrics,
    sample_outcome,
)
from bindsplit_datasets.models import CallablePairScorer, HFEncoder
from bindsplit_datasets.models.identity import weights_digest
from bindsplit_datasets.reports.results import key_config
from bindsplit_datasets.scoring import scores_file
from bindsplit_datasets.scoring.scores_file import read_scores

# the model stack (torch, transformers): not part of `make test-fast`
pytestmark = pytest.mark.usefixtures("test_adapters", "fresh_accelerate")

CAPTIONS = BivlcLikeAdapter.caption_columns


@pytest.fixture(scope="module")
def saved_model(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("model")
    model, processor = tiny_clip(seed=5)
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder


def expected_metrics(model, processor, rows, adapter, n_bootstrap):
    scores = naive_scores(model, processor, rows, adapter.image_columns, adapter.caption_columns)
    return naive_metrics(scores, rows, adapter, n_bootstrap)


def test_record_equals_metric_of_naive_forward(build, rows):
    model, processor = tiny_clip(seed=5)
    record = evaluate_model(model, build, processor=processor, n_bootstrap=200, batch_size=4)
    assert set(record) == {
        "format",
        "bindsplit_version",
        "model",
        "dataset",
        "metrics",
        "samples",
        "scoring",
        "environment",
        "timings",
        "created",
    }
    assert record["format"] == "bindsplit-results/1"
    assert record["metrics"] == expected_metrics(model, processor, rows, BivlcLikeAdapter(), 200)
    assert record["metrics"]["full/n"] == 12 and "gap/i2t_ci" in record["metrics"]
    assert "gap_partial/i2t_ci" in record["metrics"]
    assert (record["metrics"]["interval_method"], record["metrics"]["n_bootstrap"]) == (
        "wilson",
        200,
    )
    # what made the record: the platform, and this checkout's commit
    environment = record["environment"]
    assert environment["platform"] == platform.platform()
    assert environment["git_commit"] == provenance.git_commit()
    assert environment["bindsplit"] == record["bindsplit_version"]
    # a model built in Python: its class names it, the digest of its weights identifies it
    assert record["model"] == {
        "id": "CLIPModel",
        "revision": None,
        "weights": weights_digest(model),
        "class": "CLIPModel",
        "library": "transformers",
        "requested": None,
        "scored_by": "encoder",
    }
    assert record["dataset"] == {
        "data": str(build),
        "benchmark": "_test_bivlc_like",
        "binding_kind": "attribute",
        "config": "full",
        "fingerprint": rows_fingerprint(
            with_group_columns(rows, "_test_bivlc_like"), BivlcLikeAdapter.image_columns
        ),
        "reference": {"corpus": "test"},
    }
    assert record["scoring"] == {
        "n_samples": 12,
        "n_unique_images": 5,
        "n_unique_captions": 5,
        "n_truncated_captions": 0,
        "text_max_length": 32,
        "batch_size": 4,
        "mixed_precision": "no",
        "cache": {"hits": 0, "misses": 0},
    }
    assert record["environment"]["device"] == "cpu"
    assert record["environment"]["num_processes"] == 1
    assert set(record["timings"]) == {"load_s", "encode_s", "metric_s", "total_s"}
    assert datetime.datetime.fromisoformat(record["created"]).tzinfo is not None
    json.dumps(record)  # serialisable as is


def test_one_by_two_benchmark_has_no_t2i_and_reports_macro(rows, tmp_path):
    build = write_fake_build(tmp_path / "aro_like", rows, "_test_aro_like")
    model, processor = tiny_clip(seed=5)
    record = evaluate_model(
        model, build, processor=processor, n_bootstrap=0, configs="full,partial"
    )
    metrics = record["metrics"]
    expected = expected_metrics(model, processor, rows, AroLikeAdapter(), 0)
    kept = ("full", "partial", *SETTINGS_KEYS)  # the interval settings always
    assert metrics == {k: v for k, v in expected.items() if k.split("/")[0] in kept}
    assert "full/t2i" not in metrics and "full/macro_n_groups" in metrics
    assert not any(key.startswith(("seen/", "gap/")) for key in metrics)
    assert record["scoring"]["n_unique_images"] == 5


def test_in_memory_data_and_configs_subset(rows):
    columns = {"image": list(BivlcLikeAdapter.image_columns), "caption": list(CAPTIONS)}
    manifest = {"format": "bindsplit-build/2", "benchmark": "_test_bivlc_like", "configs": {}}
    data = BindsplitData(rows, {**manifest, "columns": columns})
    model, processor = tiny_clip()
    record = evaluate_model(
        model, data, processor=processor, n_bootstrap=0, configs=["seen", "unseen"]
    )
    prefixes = {key.split("/")[0] for key in record["metrics"] if "/" in key}
    assert prefixes == {"seen", "unseen", "gap"}  # seen - partial needs partial
    assert record["metrics"]["seen/n"] == 4 and record["metrics"]["unseen/n"] == 4


def test_unknown_configuration_lists_valid_ones(build):
    with pytest.raises(
        ValueError, match="unknown configuration.*'seeen'.*full, seen, partial, unseen, balanced"
    ):
        parse_configs("full,seeen")
    with pytest.raises(
        ValueError, match="unknown configuration 'bogus'; valid configurations: full, seen"
    ):
        load_bindsplit(build, "bogus")


def _targets(node):
    return node.targets if hasattr(node, "targets") else [node.target]


def test_one_default_configs_for_evaluation_reports_and_the_demo():
    """DEFAULT_CONFIGS is defined once (reports/results.py, in the order reports tell the
    story: full, seen, partial, unseen, balanced); evaluation takes it as its default."""
    import ast
    import inspect

    from bindsplit_datasets.reports.results import DEFAULT_CONFIGS

    package = Path(bindsplit_datasets.__file__).parent
    defined = sorted(
        path.relative_to(package).as_posix()
        for path in package.rglob("*.py")
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        and "DEFAULT_CONFIGS" in {getattr(target, "id", None) for target in _targets(node)}
    )
    assert defined == ["reports/results.py"]
    assert inspect.signature(evaluate_model).parameters["configs"].default is DEFAULT_CONFIGS
    assert parse_configs(DEFAULT_CONFIGS) == ("full", "seen", "partial", "unseen", "balanced")


def test_loads_every_configuration_of_a_build(build, rows):
    unseen = load_bindsplit(build, "unseen")
    assert len(unseen.dataset) == 4 and set(label_names(unseen.dataset)) == {"unseen"}
    assert unseen.benchmark == "_test_bivlc_like" and unseen.fingerprint == rows_fingerprint(
        with_group_columns(rows, "_test_bivlc_like"), BivlcLikeAdapter.image_columns
    )
    assert isinstance(unseen.dataset.features["image"], datasets.Image)


def test_not_a_bindsplit_build_is_rejected(build, rows, tmp_path):
    plain = tmp_path / "plain"
    shutil.copytree(build, plain)
    (plain / "bindsplit.json").unlink()
    with pytest.raises(SchemaError, match="not a BindSplit build: it has no bindsplit.json"):
        load_bindsplit(plain)

    foreign = tmp_path / "foreign"
    shutil.copytree(build, foreign)
    (foreign / "bindsplit.json").write_text(json.dumps({"format": "something-else/1"}))
    with pytest.raises(SchemaError, match="not a BindSplit build: its bindsplit.json has format"):
        load_bindsplit(foreign)

    partial_rows = rows.remove_columns(["caption_bindings", "caption_familiarity"])
    unannotated = write_fake_build(tmp_path / "unannotated", partial_rows, "_test_bivlc_like")
    missing = r"missing annotation column\(s\) \['caption_bindings', 'caption_familiarity'\]"
    with pytest.raises(SchemaError, match=missing):
        load_bindsplit(unannotated)

    with pytest.raises(FileNotFoundError, match="neither a folder nor a Hub dataset id"):
        load_bindsplit(tmp_path / "missing")


def test_hub_dataset_is_loaded_with_its_manifest(build, monkeypatch):
    calls = []

    def fake_download(repo_id, filename, *, repo_type, revision):
        calls.append(("manifest", repo_id, filename, repo_type, revision))
        return str(build / filename)

    real_load = datasets.load_dataset

    def fake_load(path, name, *, split, revision, cache_dir):
        calls.append(("rows", path, name, split, revision))
        # by file: datasets caches a README-configured folder by its name and configuration only
        files = [str(p) for p in sorted((build / name).glob("*.parquet"))]
        return real_load("parquet", data_files={split: files}, split=split)

    monkeypatch.setattr("huggingface_hub.hf_hub_download", fake_download)
    monkeypatch.setattr(datasets, "load_dataset", fake_load)
    data = load_bindsplit("someone/bivlc-bindsplit", "seen", revision="abc123")
    assert calls == [
        ("manifest", "someone/bivlc-bindsplit", "bindsplit.json", "dataset", "abc123"),
        ("rows", "someone/bivlc-bindsplit", "seen", "test", "abc123"),
    ]
    assert len(data.dataset) == 4 and data.source == "someone/bivlc-bindsplit"


def test_cli_writes_record_scores_and_table(build, saved_model, tmp_path, capsys):
    out, scores = tmp_path / "results.json", tmp_path / "scores.parquet"
    args = ["eval", "--model", str(saved_model), "--data", str(build), "--out", str(out)]
    args += [
        "--save-scores",
        str(scores),
        "--n-bootstrap",
        "100",
        "--cache-dir",
        str(tmp_path / "cache"),
        "--confidence",
        "0.9",
    ]
    assert cli.main(args) == 0
    printed = capsys.readouterr().out
    record = json.loads(out.read_text())
    # the folder's name and a digest of its weights, never the machine's path
    assert record["model"]["id"] == saved_model.name and record["model"]["weights"]
    assert record["scoring"]["cache"] == {"hits": 0, "misses": 10}
    full = record["metrics"]["full/i2t"]
    assert f"{100 * full:.1f} [" in printed and "gap (seen - unseen)" in printed
    # --confidence sets the level of every interval, and the record says so
    assert "90% intervals: Wilson; gaps: Newcombe" in printed
    assert record["metrics"]["confidence"] == 0.9
    # the saved matrices re-aggregate to the same metrics without the model
    stats = accumulate(**read_scores(scores))
    reaggregated = compute_metrics(stats, n_bootstrap=100, seed=0, confidence=0.9)
    assert reaggregated == record["metrics"]
    # imported scores: the same options
    imported = tmp_path / "imported.json"
    scores_args = ["eval", "--scores", str(scores), "--data", str(build), "--name", "m"]
    scores_args += ["--out", str(imported), "--confidence", "0.8"]
    assert cli.main([*scores_args, "--interval-method", "clopper-pearson"]) == 0
    assert "80% intervals: Clopper-Pearson; gaps: Newcombe" in capsys.readouterr().out
    exact = compute_metrics(stats, confidence=0.8, interval_method="clopper-pearson")
    assert json.loads(imported.read_text())["metrics"] == exact

    reset_accelerate()
    assert cli.main(args) == 0  # second run: every embedding comes from the cache
    assert json.loads(out.read_text())["scoring"]["cache"] == {"hits": 10, "misses": 0}
    assert json.loads(out.read_text())["metrics"] == record["metrics"]


def test_cli_errors_are_clear(build, tmp_path, capsys):
    vision_only = tmp_path / "vision_only"
    CLIPVisionModel(
        CLIPVisionConfig(
            hidden_size=8,
            intermediate_size=16,
            num_hidden_layers=1,
            num_attention_heads=2,
            image_size=16,
            patch_size=8,
        )
    ).save_pretrained(vision_only)
    tiny_clip()[1].save_pretrained(vision_only)
    base = ["eval", "--data", str(build), "--out", str(tmp_path / "r.json")]
    assert cli.main([*base, "--model", str(vision_only)]) == 2
    assert (
        "CLIPVisionModel has no get_image_features or get_text_features" in capsys.readouterr().err
    )
    with pytest.raises(SystemExit) as refused:  # by the parser, before any work
        cli.main([*base, "--model", str(vision_only), "--configs", "full,nope"])
    assert refused.value.code == 2
    assert "--configs: unknown configuration 'nope'" in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()
    with pytest.raises(UnsupportedModelError):
        evaluate_model(str(vision_only), build)


def test_two_processes_give_the_same_results(build, saved_model, tmp_path):
    """`accelerate launch --num_processes 2` of `bindsplit eval` on CPU equals one process."""
    script = tmp_path / "bindsplit_with_test_benchmarks.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(Path(__file__).parents[1])!r})\n"
        "import tiny_models\nregistered = tiny_models.register_test_benchmarks()\n"
        "registered.__enter__()\n"
        "from bindsplit_datasets import cli\nsys.exit(cli.main())\n"
    )
    # `--cpu --num_processes 2` runs one process unless MPI is installed; `--multi_gpu` starts two
    # through torch.distributed.run, and ACCELERATE_USE_CPU makes them CPU processes (gloo)
    launch = [str(Path(sys.executable).with_name("accelerate")), "launch", "--multi_gpu"]
    launch += ["--num_processes", "2", "--num_machines", "1", "--dynamo_backend", "no"]
    launch += ["--mixed_precision", "no", str(script), "eval", "--model", str(saved_model)]
    launch += ["--data", str(build), "--out", str(tmp_path / "results.json"), "--batch-size", "2"]
    launch += ["--save-scores", str(tmp_path / "scores.parquet"), "--n-bootstrap", "100"]
    env = {**os.environ, "ACCELERATE_USE_CPU": "true", "OMP_NUM_THREADS": "1"}
    done = subprocess.run(launch, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    two = json.loads((tmp_path / "results.json").read_text())

    one = evaluate_model(str(saved_model), build, batch_size=2, n_bootstrap=100)
    assert (one["environment"]["num_processes"], two["environment"]["num_processes"]) == (1, 2)
    assert two["metrics"] == one["metrics"]
    assert two["scoring"] == one["scoring"]
    # the reference uses the processor both runs loaded from the folder (with torchvision
    # installed, the fast image processor, which resizes slightly differently from the PIL one)
    model, processor = tiny_clip(seed=5)
    np.testing.assert_allclose(
        np.array(read_scores(tmp_path / "scores.parquet")["scores"]),
        naive_scores(
            model,
            AutoProcessor.from_pretrained(saved_model),
            tiny_bivlc_like(12, n_images=5),
            BivlcLikeAdapter.image_columns,
            BivlcLikeAdapter.caption_columns,
        ),
        atol=1e-5,
    )


def test_a_loaded_dataset_is_evaluated_with_its_manifest(build, rows, tmp_path):
    model, processor = tiny_clip(seed=5)
    expected = evaluate_model(model, build, processor=processor, n_bootstrap=0)["metrics"]
    full = load_bindsplit(build).dataset
    manifest = json.loads((build / "bindsplit.json").read_text())
    for given in (manifest, build, build / "bindsplit.json"):
        record = evaluate_model(model, full, processor=processor, n_bootstrap=0, manifest=given)
        assert record["metrics"] == expected
        assert record["dataset"]["fingerprint"] == manifest["fingerprint"]
    # without manifest=: the JSON in the dataset's description
    described = datasets.Dataset(
        full.data,
        info=datasets.DatasetInfo(description=json.dumps(manifest), features=full.features),
    )
    assert evaluate_model(model, described, processor=processor, n_bootstrap=0)["metrics"] == (
        expected
    )
    with pytest.raises(SchemaError, match="carries no BindSplit manifest.*pass manifest="):
        evaluate_model(model, rows, processor=processor)
    with pytest.raises(SchemaError, match="5 rows are no configuration of the build"):
        evaluate_model(model, full.select(range(5)), processor=processor, manifest=manifest)


def test_any_configuration_reports_what_the_full_build_reports_for_it(build, tmp_path):
    """Issue 24: evaluate_model(model, load_dataset(folder, "unseen")["test"]) reports unseen
    accuracy equal to the full build's, however the configuration's rows are passed."""
    model, processor = tiny_clip(seed=5)
    whole = evaluate_model(model, build, processor=processor, n_bootstrap=200)
    manifest = json.loads((build / "bindsplit.json").read_text())
    for config in ("seen", "unseen", "partial"):
        # the full record also lists, with n = 0, categories only other configurations have
        metrics = whole["metrics"]
        empty = {
            k[:-1] for k in metrics if "/category/" in k and k.endswith("/n") and not metrics[k]
        }
        expected = {
            k: v
            for k, v in metrics.items()
            if key_config(k) in (config, *SETTINGS_KEYS) and not k.startswith(tuple(empty))
        }
        n = manifest["configs"][config]
        assert expected[f"{config}/n"] == n > 0 and f"{config}/i2t_ci" in expected
        by_datasets = datasets.load_dataset(str(build), config)["test"]
        assert by_datasets.info.config_name == config
        rows_only = datasets.Dataset(  # no config name: the rows say which configuration
            by_datasets.data,
            info=datasets.DatasetInfo(description=json.dumps(manifest)),
        )
        for data, given in (
            (by_datasets, build),
            (rows_only, None),
            (load_bindsplit(build, config), None),
        ):
            record = evaluate_model(
                model, data, processor=processor, n_bootstrap=200, manifest=given
            )
            assert record["metrics"] == expected  # that configuration only, the same numbers
            assert record["dataset"]["config"] == config
            assert record["dataset"]["fingerprint"] == manifest["fingerprint"]
            assert record["samples"]["label"] == [config] * n
            assert record["samples"]["id"] == [f"{config}/{i}" for i in range(n)]
    assert whole["dataset"]["config"] == "full"
    unseen = load_bindsplit(build, "unseen")
    with pytest.raises(ValueError, match="holds the 'unseen' configuration only.*configs='unseen'"):
        evaluate_model(model, unseen, processor=processor, configs="full,seen")
    record = evaluate_model(model, unseen, processor=processor, n_bootstrap=0, configs="unseen")
    assert {key_config(key) for key in record["metrics"]} - set(SETTINGS_KEYS) == {"unseen"}


def test_name_renames_encoders_and_pair_scorers_on_a_configuration(build):
    model, processor = tiny_clip(seed=5)
    unseen = datasets.load_dataset(str(build), "unseen")["test"]

    def score(images, captions):
        return [float(len(caption)) for caption in captions]

    for scorer, scored_by in (
        (HFEncoder(model, processor), "encoder"),
        (CallablePairScorer(score, name="lengths"), "pair scorer"),
    ):
        record = evaluate_model(scorer, unseen, manifest=build, n_bootstrap=0, name="mine")
        assert (record["model"]["id"], record["model"]["scored_by"]) == ("mine", scored_by)
        assert record["dataset"]["config"] == "unseen" and record["metrics"]["unseen/n"] == 4


def test_samples_block_has_each_outcome_and_source_id(build, rows, tmp_path):
    model, processor = tiny_clip(seed=5)
    record = evaluate_model(
        model, build, processor=processor, n_bootstrap=0, save_scores=tmp_path / "s.parquet"
    )
    naive = naive_scores(model, processor, rows, BivlcLikeAdapter.image_columns, CAPTIONS)
    outcomes = [sample_outcome(matrix) for matrix in naive]
    assert record["samples"] == {
        "id": [str(i) for i in range(12)],  # no id column: the row in `full`
        "label": label_names(rows),
        "balanced": list(rows["balanced"]),
        "i2t": [int(i2t) for i2t, _ in outcomes],
        "t2i": [int(t2i) for _, t2i in outcomes],
    }
    assert record["save_scores"] == {"path": str(tmp_path / "s.parquet"), "error": None}
    assert pq.read_table(tmp_path / "s.parquet").column("id").to_pylist() == record["samples"]["id"]


def test_source_ids_and_balanced_flags_reach_the_record_and_the_metric(rows, tmp_path, monkeypatch):
    with_ids = rows.add_column("pair_id", [f"p{i:03d}" for i in range(12)])
    monkeypatch.setattr(BivlcLikeAdapter, "id_column", "pair_id", raising=False)
    build = write_fake_build(tmp_path / "with_ids", with_ids, "_test_bivlc_like")
    model, processor = tiny_clip(seed=5)
    path = tmp_path / "s.parquet"
    record = evaluate_model(model, build, processor=processor, n_bootstrap=0, save_scores=path)
    balanced = list(rows["balanced"])
    assert record["samples"]["id"] == [f"p{i:03d}" for i in range(12)]
    assert record["samples"]["balanced"] == balanced
    assert record["metrics"]["balanced/n"] == sum(balanced) == 6  # the seen and partial rows
    assert pq.read_table(path).column("id").to_pylist() == record["samples"]["id"]
    assert read_scores(path)["balanced"] == balanced


def test_unwritable_save_scores_fails_before_scoring(build, tmp_path):
    not_a_model = object()  # scoring would fail on it: the path check must come first
    with pytest.raises(OutputPathError, match="it is a folder; choose another --save-scores"):
        evaluate_model(not_a_model, build, save_scores=tmp_path)
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputPathError, match="not a previous BindSplit per-sample scores file"):
        evaluate_model(not_a_model, build, save_scores=tmp_path / "file")
    with pytest.raises(OutputPathError, match="is a file, not a folder"):
        evaluate_model(not_a_model, build, save_scores=tmp_path / "file" / "scores.parquet")
    with pytest.raises(ScoringOptionError, match="unknown mixed precision 'fp9'"):
        evaluate_model(not_a_model, build, mixed_precision="fp9")


def test_failed_save_scores_write_keeps_the_record(build, tmp_path, monkeypatch, caplog):
    refuse_error = OSError(28, "No space left on device")

    def refuse(*args, **kwargs):
        raise refuse_error

    monkeypatch.setattr(scores_file, "write_scores", refuse)
    model, processor = tiny_clip(seed=5)
    path = tmp_path / "scores.parquet"
    record = evaluate_model(model, build, processor=processor, n_bootstrap=0, save_scores=path)
    assert record["metrics"]["full/n"] == 12
    assert record["save_scores"] == {
        "path": str(path),
        "error": "[Errno 28] No space left on device",
    }
    assert "could not write the per-sample scores" in caplog.text and not path.exists()


def test_verify_reaches_loaders_that_take_it(build, monkeypatch):
    calls = []

    def loader(data, config="full", *, revision=None, verify=True):
        calls.append(verify)
        return load_bindsplit(data, config, revision=revision)

    monkeypatch.setattr(loading, "load_bindsplit", loader)
    model, processor = tiny_clip(seed=5)
    evaluate_model(model, build, processor=processor, n_bootstrap=0, verify=False)
    assert calls == [False]


def test_missing_scoring_extra_names_it(build, monkeypatch):
    monkeypatch.setitem(sys.modules, "accelerate", None)
    with pytest.raises(
        MissingExtraError, match=r"pip install 'bindsplit-datasets\[scoring\] @ git\+https"
    ):
        evaluate_model("openai/clip-vit-base-patch32", build)


def test_torchrun_two_cpu_processes_run_data_parallel_with_one_writer(build, saved_model, tmp_path):
    """`torchrun --nproc_per_node 2 ... eval` on CPU: one data-parallel run, one record, equal
    to a single process's."""
    script = tmp_path / "bindsplit_with_test_benchmarks.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(Path(__file__).parents[1])!r})\n"
        "import tiny_models\nregistered = tiny_models.register_test_benchmarks()\n"
        "registered.__enter__()\n"
        "from bindsplit_datasets import cli\nsys.exit(cli.main())\n"
    )
    launch = [str(Path(sys.executable).with_name("torchrun")), "--nproc_per_node", "2", str(script)]
    launch += ["eval", "--model", str(saved_model), "--data", str(build), "--batch-size", "2"]
    launch += ["--out", str(tmp_path / "results.json"), "--n-bootstrap", "100"]
    env = {k: v for k, v in os.environ.items() if k != "ACCELERATE_USE_CPU"}
    env["OMP_NUM_THREADS"] = "1"
    done = subprocess.run(launch, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.count("results written to") == 1  # the main process alone prints
    two = json.loads((tmp_path / "results.json").read_text())
    assert two["environment"]["num_processes"] == 2
    one = evaluate_model(str(saved_model), build, batch_size=2, n_bootstrap=100)
    assert two["metrics"] == one["metrics"] and two["scoring"] == one["scoring"]


def test_a_launch_accelerate_cannot_join_is_refused(monkeypatch):
    from types import SimpleNamespace

    from bindsplit_datasets.scoring.scorer import check_launch

    monkeypatch.setenv("WORLD_SIZE", "2")
    with pytest.raises(ScoringOptionError, match="launcher started 2 processes, but Accelerate"):
        check_launch(SimpleNamespace(num_processes=1))
    check_launch(SimpleNamespace(num_processes=2))


def test_accelerate_launch_of_several_cpu_processes_that_starts_one_warns(monkeypatch, caplog):
    """`accelerate launch --num_processes 2` without GPUs starts one process (its simple
    launcher sets MASTER_ADDR for the two asked for, and no WORLD_SIZE): the run warns, once."""
    from types import SimpleNamespace

    from bindsplit_datasets.scoring import scorer

    scorer._warn_single_process_launch.cache_clear()
    monkeypatch.delenv("WORLD_SIZE", raising=False)
    monkeypatch.setenv("ACCELERATE_USE_CPU", "False")
    monkeypatch.delenv("MASTER_ADDR", raising=False)
    with caplog.at_level("WARNING", logger="bindsplit_datasets"):
        scorer.check_launch(SimpleNamespace(num_processes=1))  # a plain `accelerate launch`
        assert caplog.records == []
        monkeypatch.setenv("MASTER_ADDR", "127.0.0.1")  # as for --num_processes 2
        scorer.check_launch(SimpleNamespace(num_processes=1))
        scorer.check_launch(SimpleNamespace(num_processes=1))
    [warning] = caplog.records
    assert "asked for several processes (--num_processes) but started one" in warning.message
    assert "--multi_gpu --num_processes N" in warning.message
    scorer._warn_single_process_launch.cache_clear()


def test_empty_model_string_is_an_error(build, tmp_path, capsys):
    args = ["eval", "--model", "", "--data", str(build), "--out", str(tmp_path / "r.json")]
    assert cli.main(args) == 2
    assert "the model string is empty" in capsys.readouterr().err


def test_a_build_evaluates_and_verifies_without_its_adapter(build, rows, monkeypatch):
    """Evaluation reads the build's own description (manifest columns, group columns): with the
    adapter that made it gone from the registry, the build still verifies and scores, to the
    same record, categories included."""
    from bindsplit_datasets import benchmarks
    from bindsplit_datasets.builds.manifest import verify_build

    def score(images, captions):
        return [float(len(caption)) for caption in captions]

    scorer = CallablePairScorer(score, name="lengths")
    before = evaluate_model(scorer, build, n_bootstrap=0)
    assert any("/category/" in key for key in before["metrics"])  # the groups were read
    monkeypatch.delitem(benchmarks._REGISTRY, "_test_bivlc_like")
    with pytest.raises(ValueError, match="_test_bivlc_like"):
        benchmarks.get_benchmark("_test_bivlc_like")
    assert verify_build(build)["benchmark"] == "_test_bivlc_like"
    after = evaluate_model(scorer, build, n_bootstrap=0)
    assert after["metrics"] == before["metrics"] and after["samples"] == before["samples"]


@pytest.mark.parametrize("model", ["./nope", "/abs/nope", "itm:/no/such/path"])
def test_a_model_path_that_does_not_exist_is_one_line(build, tmp_path, capsys, model):
    out = tmp_path / "r.json"
    assert cli.main(["eval", "--model", model, "--data", str(build), "--out", str(out)]) == 2
    err = capsys.readouterr().err  # after the progress bars of reading the build
    errors = [line for line in err.splitlines() if "error" in line]
    assert "Traceback" not in err and len(errors) == 1
    name = model.removeprefix("itm:")
    assert errors[0].startswith(f"bindsplit eval: error: {name} is neither a local folder nor")
    assert not out.exists()
