"""`bindsplit eval` over several models and builds: one record per pair, skipping done pairs,
--force, outputs checked before any scoring, the single-pair form kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fixtures_sources import aro_records, make_aro_source, make_bivlc_source
from tiny_models import reset_accelerate, tiny_clip

from bindsplit_datasets import cli, evaluation, loading
from bindsplit_datasets.builds.builder import build_benchmark
from bindsplit_datasets.errors import OutputPathError
from bindsplit_datasets.reports.results import record_file_name, write_record
from bindsplit_datasets.runs import check_output_file, plan_runs, same_run

# the model stack (torch, transformers): not part of `make test-fast`
pytestmark = pytest.mark.usefixtures("fresh_accelerate")

REFERENCE = ["a red car on the road", "a white dog on the grass", "a wooden table", "a red chair"]
BIVLC_ROWS = [
    {"caption": "a red car", "negative_caption": "a white dog"},
    {"caption": "a purple car", "negative_caption": "a golden dog"},
    {"caption": "a red car", "negative_caption": "a purple dog"},
    {"caption": "two people walking", "negative_caption": "three people walking"},
    {"caption": "a golden dog", "negative_caption": "a purple car"},
    {"caption": "a white dog", "negative_caption": "a red car"},
]
FILES = [
    "aro_vga__model_a.json",
    "aro_vga__model_b.json",
    "bivlc__model_a.json",
    "bivlc__model_b.json",
]


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[str, Path]:
    """A BiVLC build (2 x 2 samples) and an ARO build (1 x 2) from generated sources."""
    work = tmp_path_factory.mktemp("builds")
    reference = work / "reference.txt"
    reference.write_text("\n".join(REFERENCE) + "\n")
    bivlc = build_benchmark(
        "bivlc",
        out=work / "bivlc",
        source=make_bivlc_source(work / "bivlc.parquet", BIVLC_ROWS),
        reference=reference,
        progress=False,
    )
    aro = build_benchmark(
        "aro_vga",
        out=work / "aro",
        source=make_aro_source(work / "aro_src", records=aro_records(6), image_format="PNG"),
        reference=reference,
        progress=False,
    )
    return {"bivlc": bivlc.path, "aro_vga": aro.path}


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[str, Path]:
    """Two tiny random CLIPs saved as folders ``model_a`` and ``model_b``."""
    root = tmp_path_factory.mktemp("models")
    folders = {}
    for seed, name in enumerate(("model_a", "model_b")):
        model, processor = tiny_clip(seed=seed)
        model.save_pretrained(root / name)
        processor.save_pretrained(root / name)
        folders[name] = root / name
    return folders


def eval_args(models: dict[str, Any], builds: dict[str, Any], *extra: str) -> list[str]:
    args = ["eval"]
    for folder in models.values():
        args += ["--model", str(folder)]
    for folder in builds.values():
        args += ["--data", str(folder)]
    return [*args, "--n-bootstrap", "20", "--batch-size", "4", *extra]


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def test_grid_run_writes_each_pair_then_skips_then_force_redoes(
    models, builds, tmp_path, monkeypatch, capsys
):
    out = tmp_path / "results"
    args = eval_args(models, builds, "--out-dir", str(out))
    calls: list[tuple[str, str]] = []
    real_evaluate = evaluation.evaluate_model

    def counting_evaluate(model, data, **options):
        calls.append((Path(model).name, data.benchmark))
        return real_evaluate(model, data, **options)

    monkeypatch.setattr(evaluation, "evaluate_model", counting_evaluate)
    assert cli.main(args) == 0
    first_output = capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == FILES  # no temporary left behind
    assert calls == [
        ("model_a", "bivlc"),
        ("model_a", "aro_vga"),
        ("model_b", "bivlc"),
        ("model_b", "aro_vga"),
    ]
    for name in FILES:
        record = json.loads((out / name).read_text())
        benchmark, model = name.removesuffix(".json").split("__")
        manifest = json.loads((builds[benchmark] / "bindsplit.json").read_text())
        assert record["model"]["id"] == models[model].name  # the folder's name, never its path
        assert record["dataset"]["benchmark"] == benchmark
        assert record["dataset"]["fingerprint"] == manifest["fingerprint"]
        assert f"results written to {out / name}" in first_output
    assert ("full/t2i" in json.loads((out / FILES[0]).read_text())["metrics"]) is False
    leaderboards = first_output[first_output.index("bivlc: I2T accuracy, 2 models") :]
    assert "aro_vga: I2T accuracy, 2 models" in leaderboards

    # second run: every pair is done, nothing is loaded or scored, nothing is rewritten
    before = snapshot(out)
    calls.clear()

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a done pair was loaded or scored again")

    monkeypatch.setattr(loading, "load_bindsplit", refuse)
    reset_accelerate()
    assert cli.main(args) == 0
    second_output = capsys.readouterr().out
    assert calls == [] and snapshot(out) == before
    assert second_output.count("skipped ") == 4
    assert f"{out / 'bivlc__model_b.json'} already holds its results" in second_output
    assert second_output.endswith(leaderboards)  # the same leaderboards, from the records

    # --force: all four again
    monkeypatch.undo()
    monkeypatch.setattr(evaluation, "evaluate_model", counting_evaluate)
    reset_accelerate()
    assert cli.main([*args, "--force"]) == 0
    assert len(calls) == 4 and "skipped" not in capsys.readouterr().out
    after = snapshot(out)
    assert all(after[name][1] != before[name][1] for name in FILES)


def test_a_changed_build_or_revision_is_not_skipped(builds, tmp_path):
    record = {
        "format": "bindsplit-results/1",
        "model": {
            "id": "org/m",
            "revision": "abc",
            "scored_by": "encoder",
            "source": {"hub": "org/m", "commit": None},  # not in the (offline) Hub cache
        },
        "dataset": {"benchmark": "bivlc", "fingerprint": "f1"},
        "metrics": {},
    }
    assert same_run(record, "org/m", None, "f1")  # no revision asked: the recorded one does
    assert same_run(record, "org/m", "abc", "f1")
    assert not same_run(record, "org/m", "def", "f1")
    assert not same_run(record, "org/other", None, "f1")
    assert not same_run(record, "org/m", None, "f2")
    assert not same_run(record, "org/m", None, None)
    assert not same_run({**record, "metrics": None}, "org/m", None, "f1")  # broken: redo
    # a record of one configuration only (evaluate_model on its rows) is not a run's record
    unseen_only = {**record, "dataset": {**record["dataset"], "config": "unseen"}}
    assert not same_run(unseen_only, "org/m", None, "f1")
    assert same_run(
        {**unseen_only, "dataset": {**record["dataset"], "config": "full"}}, "org/m", None, "f1"
    )
    # a branch or tag asked for matches the record made with that request (its revision is the
    # commit the request resolved to)
    requested = {**record, "model": {**record["model"], "requested": "main"}}
    assert same_run(requested, "org/m", "main", "f1") and same_run(requested, "org/m", "abc", "f1")
    assert not same_run(requested, "org/m", "v2", "f1")

    out = tmp_path / "results"
    out.mkdir()
    manifest = json.loads((builds["bivlc"] / "bindsplit.json").read_text())
    target = out / record_file_name("org/m", "bivlc")
    stale = {**record, "dataset": {"benchmark": "bivlc", "fingerprint": "an older build"}}
    target.write_text(json.dumps(stale))
    [run] = plan_runs(["org/m"], [builds["bivlc"]], out_dir=out)
    assert (run.skip, run.existing, run.build.fingerprint) == (
        False,
        stale,
        manifest["fingerprint"],
    )
    current = genuine_record(builds["bivlc"], record["model"])
    write_record(current, target)
    assert plan_runs(["org/m"], [builds["bivlc"]], out_dir=out)[0].skip
    # the same model and build fingerprint, but not as `bindsplit eval` wrote it: scored again
    unsealed = {**record, "dataset": {"benchmark": "bivlc", "fingerprint": manifest["fingerprint"]}}
    target.write_text(json.dumps(unsealed))
    [run] = plan_runs(["org/m"], [builds["bivlc"]], out_dir=out)
    assert not run.skip and "has no digest" in run.changes[0]
    write_record(current, target)
    assert not plan_runs(["org/m"], [builds["bivlc"]], out_dir=out, force=True)[0].skip
    assert not plan_runs(["org/m"], [builds["bivlc"]], out_dir=out, revision="v2")[0].skip


def genuine_record(build: Path, model: dict[str, Any]) -> dict[str, Any]:
    """A record of ``build`` as `bindsplit eval` writes it (scores imported: no model needed),
    under ``model``'s identity."""
    data = loading.load_bindsplit(build)
    images, captions = len(data.columns.image), len(data.columns.caption)
    matrix = [[float(i == j) for j in range(captions)] for i in range(images)]
    scores = dict.fromkeys(evaluation.sample_ids(data), matrix)
    record = evaluation.evaluate_scores(scores, build, name=model["id"])
    return {**record, "model": {**model, "scored_by": "encoder"}}


def test_a_record_of_another_build_is_not_skipped(builds, tmp_path):
    """The record there names this build's fingerprint, its numbers re-derive from its
    outcomes, but its samples are another build's: its fingerprint was swapped, so the pair is
    scored again, never skipped."""
    out = tmp_path / "results"
    out.mkdir()
    reference = tmp_path / "reference.txt"
    reference.write_text("\n".join(REFERENCE) + "\n")
    shuffled = build_benchmark(  # the same rows in another order: the same sizes, another build
        "bivlc",
        out=tmp_path / "bivlc",
        source=make_bivlc_source(tmp_path / "bivlc.parquet", BIVLC_ROWS[::-1]),
        reference=reference,
        progress=False,
    )
    model = {"id": "org/m", "revision": "abc", "source": {"hub": "org/m", "commit": None}}
    other = genuine_record(shuffled.path, model)
    fingerprint = json.loads((builds["bivlc"] / "bindsplit.json").read_text())["fingerprint"]
    assert other["dataset"]["fingerprint"] != fingerprint
    swapped = {**other, "dataset": {**other["dataset"], "fingerprint": fingerprint}}
    target = out / record_file_name("org/m", "bivlc")
    write_record(swapped, target)
    [run] = plan_runs(["org/m"], [builds["bivlc"]], out_dir=out)
    assert not run.skip and "does not hold the samples of the build" in run.changes[0]
    write_record(genuine_record(builds["bivlc"], model), target)
    assert plan_runs(["org/m"], [builds["bivlc"]], out_dir=out)[0].skip


def test_file_names_are_safe_and_distinct():
    assert record_file_name("openai/clip-vit-base-patch32", "aro_vga") == (
        "aro_vga__openai__clip-vit-base-patch32.json"
    )
    assert record_file_name("open_clip:ViT-B-32/laion2b s34b", "bivlc", "refs/pr/1") == (
        "bivlc__open_clip__ViT-B-32__laion2b__s34b@refs__pr__1.json"
    )


def test_outputs_are_checked_before_any_scoring(models, builds, tmp_path, monkeypatch, capsys):
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("scored despite a bad output")

    monkeypatch.setattr(evaluation, "evaluate_model", refuse)
    out = tmp_path / "results"
    out.mkdir()
    foreign = out / "bivlc__model_b.json"
    foreign.write_text('{"notes": "mine"}')
    assert cli.main(eval_args(models, builds, "--out-dir", str(out))) == 2
    error = capsys.readouterr().err
    assert f"cannot write the BindSplit results record to {foreign}: it exists and is not a " in (
        error
    )
    assert foreign.read_text() == '{"notes": "mine"}' and sorted(out.iterdir()) == [foreign]

    one_model = {"model_a": models["model_a"]}
    one_build = {"bivlc": builds["bivlc"]}
    twice = {"bivlc": builds["bivlc"], "again": f"{builds['bivlc']}/"}
    cases = [
        (eval_args(models, one_build, "--out", str(tmp_path / "r.json")), "use --out-dir DIR"),
        (eval_args(one_model, one_build, "--out", str(out)), f"{out}: it is a folder"),
        (
            eval_args(one_model, one_build, "--out-dir", str(foreign)),
            f"--out-dir {foreign}: it is a file",
        ),
        (
            eval_args(one_model, one_build, "--out-dir", str(foreign / "sub")),
            f"{foreign} is a file, not a folder",
        ),
        (
            eval_args(models, one_build, "--out-dir", str(tmp_path / "x"), "--name", "n"),
            "--name names a single model",
        ),
        (
            eval_args(models, one_build, "--out-dir", str(tmp_path / "x"), "--save-scores", "s"),
            "--save-scores writes one file",
        ),
        (  # two builds of one benchmark (here: one build, spelt twice)
            eval_args(one_model, twice, "--out-dir", str(tmp_path / "x")),
            "would both be written to",
        ),
        (
            eval_args(one_model, one_build, "--out", str(foreign)),
            "BindSplit replaces only its own outputs",
        ),
    ]
    for args, expected in cases:
        assert cli.main(args) == 2, expected
        assert expected in capsys.readouterr().err
    assert not (tmp_path / "x").exists() and not (tmp_path / "r.json").exists()
    with pytest.raises(SystemExit):
        cli.main(eval_args(one_model, one_build, "--out", "a.json", "--out-dir", "b"))


def test_check_output_file(tmp_path):
    assert check_output_file(tmp_path / "new" / "r.json") is None
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe")
    with pytest.raises(OutputPathError, match="not a previous BindSplit results record"):
        check_output_file(tmp_path / "binary.json")
    record = {"format": "bindsplit-results/1", "model": {}}
    (tmp_path / "r.json").write_text(json.dumps(record))
    assert check_output_file(tmp_path / "r.json") == record  # ours, even if incomplete


def fake_record(model: str, data: Any, **options: Any) -> dict[str, Any]:
    return {
        "format": "bindsplit-results/1",
        "model": {"id": options.get("name") or model, "revision": None, "scored_by": "encoder"},
        "dataset": {"data": data.source, "benchmark": data.benchmark, "fingerprint": "f"},
        "metrics": {"full/n": 1, "full/i2t": 1.0},
    }


def test_single_pair_form_and_options_reach_evaluate_model(builds, tmp_path, monkeypatch, capsys):
    seen: list[dict[str, Any]] = []

    def fake_evaluate(model, data, **options):
        seen.append(options)
        return fake_record(model, data, **options)

    monkeypatch.setattr(evaluation, "evaluate_model", fake_evaluate)
    out = tmp_path / "one.json"
    base = ["eval", "--model", "org/m", "--data", str(builds["bivlc"]), "--configs", "full"]
    assert cli.main([*base, "--out", str(out)]) == 0
    assert json.loads(out.read_text())["model"]["id"] == "org/m"
    printed = capsys.readouterr().out
    assert printed.endswith(f"results written to {out}\n") and "I2T accuracy" not in printed
    assert (seen[0]["name"], seen[0]["verify"], seen[0]["configs"]) == (None, True, ("full",))
    assert cli.main([*base, "--out", str(out)]) == 0  # the single-pair form always rewrites

    folder = tmp_path / "named"
    assert cli.main([*base, "--out-dir", str(folder), "--name", "My CLIP", "--no-verify"]) == 0
    assert (seen[-1]["name"], seen[-1]["verify"]) == ("My CLIP", False)
    assert [p.name for p in folder.iterdir()] == ["bivlc__My__CLIP.json"]


def test_a_folder_whose_weights_changed_is_scored_again(models, builds, tmp_path, capsys):
    """Issue 19's reproduction: replace a folder's weights, re-run into the same --out-dir."""
    import shutil

    folder = tmp_path / "m"
    shutil.copytree(models["model_a"], folder)
    args = ["eval", "--model", str(folder), "--data", str(builds["bivlc"])]
    args += ["--out-dir", str(tmp_path / "od"), "--n-bootstrap", "0"]
    assert cli.main(args) == 0
    path = tmp_path / "od" / "bivlc__m.json"
    first = json.loads(path.read_text())
    assert set(first["model"]["source"]) == {"files"}
    capsys.readouterr()
    reset_accelerate()
    shutil.copy(models["model_b"] / "model.safetensors", folder / "model.safetensors")
    assert cli.main(args) == 0
    output = capsys.readouterr().out
    assert "skipped" not in output
    assert f"scoring {folder} on bivlc again: {path} holds other results (the weight files " in (
        output
    )
    second = json.loads(path.read_text())
    assert second["model"]["source"] != first["model"]["source"]
    assert second["model"]["weights"] != first["model"]["weights"]
    # the new numbers are those of the new weights: model_b's own record on the same build
    reset_accelerate()
    own = evaluation.evaluate_model(str(models["model_b"]), builds["bivlc"], n_bootstrap=0)
    assert second["metrics"] == own["metrics"] and second["samples"] == own["samples"]
    reset_accelerate()
    assert cli.main(args) == 0 and "skipped" in capsys.readouterr().out  # unchanged: skipped


def test_a_run_loads_each_model_once_and_digests_its_weights_once(
    models, builds, tmp_path, monkeypatch
):
    """One model string scored on two builds: the registry loads it once and digests its
    weight files once (planning's digest reused when a record had to be compared); the loaded
    parameters are never hashed, the files' digest is the model's identity."""
    from collections import Counter

    from bindsplit_datasets.models import hf
    from bindsplit_datasets.runs import run_planned

    calls: Counter[str] = Counter()

    def counted(key, function):
        def wrapper(*args, **kwargs):
            calls[key] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(hf, "weight_files_digest", counted("files", hf.weight_files_digest))
    monkeypatch.setattr(hf, "weights_digest", counted("parameters", hf.weights_digest))
    monkeypatch.setattr(hf, "load", counted("load", hf.load))
    model, data = str(models["model_a"]), [builds["bivlc"], builds["aro_vga"]]
    out_dir = tmp_path / "od"
    first = run_planned(plan_runs([model], data, out_dir=out_dir), n_bootstrap=0)
    assert calls == {"files": 1, "load": 1}
    assert first[0]["model"]["weights"] == first[0]["model"]["source"]["files"]
    calls.clear()
    reset_accelerate()
    plan = plan_runs([model], data, out_dir=out_dir, force=True)  # compares: digests once
    second = run_planned(plan, n_bootstrap=0)
    assert calls == {"files": 1, "load": 1}
    assert [r["metrics"] for r in second] == [r["metrics"] for r in first]
