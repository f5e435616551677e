"""The Spaces: the metric Space (metrics/bindsplit/app.py) and the leaderboard Space
(spaces/leaderboard/app.py): their pinned environment, their publish plans, and each app started
on 127.0.0.1 and asked through its own API (offline, bounded in time): the metric computes the
metric, the leaderboard shows the rows `bindsplit compare` prints for the same records."""

from __future__ import annotations

import configparser
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest
import yaml
from app_server import REQUEST_TIMEOUT_S, running_app
from packaging.requirements import Requirement

from bindsplit_datasets import cli
from bindsplit_datasets.errors import BindsplitValueError
from bindsplit_datasets.metric_core import accumulate, compute_metrics
from bindsplit_datasets.names import results_dataset_id
from bindsplit_datasets.publish import plan_metric, plan_results, plan_space
from bindsplit_datasets.reports import write_records

REPO_ROOT = Path(__file__).resolve().parents[1]
METRIC = REPO_ROOT / "metrics" / "bindsplit"
LEADERBOARD = REPO_ROOT / "spaces" / "leaderboard"


def front_matter(folder: Path) -> dict:
    text = (folder / "README.md").read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n")[1])


def sdk_version() -> str:
    return str(front_matter(METRIC)["sdk_version"])


def space_extra() -> dict[str, Requirement]:
    parser = configparser.ConfigParser()
    parser.read(REPO_ROOT / "setup.cfg")
    lines = parser["options.extras_require"]["space"].split()
    return {requirement.name: requirement for requirement in map(Requirement, lines)}


def test_space_extra_pins_the_sdk_version_and_is_tested() -> None:
    extra = space_extra()
    assert str(extra["gradio"].specifier) == f"=={sdk_version()}"
    assert set(extra) == {"gradio", "gradio_client"}
    parser = configparser.ConfigParser()
    parser.read(REPO_ROOT / "setup.cfg")
    assert "%(space)s" in parser.get("options.extras_require", "test", raw=True).split()


@pytest.mark.parametrize("folder", [METRIC, LEADERBOARD])
def test_this_environment_is_the_spaces(folder: Path) -> None:
    """What the app tests below run against: the README's gradio and requirements.txt (the
    leaderboard Space's requirement is this package, with its plot extra)."""
    assert metadata.version("gradio") == str(front_matter(folder)["sdk_version"]) == sdk_version()
    for line in (folder / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            assert requirement.specifier.contains(metadata.version(requirement.name)), line
            for extra in requirement.extras:
                for needed in space_extra_of(extra):
                    assert metadata.version(needed), needed


def space_extra_of(extra: str) -> list[str]:
    parser = configparser.ConfigParser()
    parser.read(REPO_ROOT / "setup.cfg")
    return [Requirement(line).name for line in parser["options.extras_require"][extra].split()]


@pytest.fixture
def fake_wheel(tmp_path: Path) -> Path:
    """A file named as the project's wheel (the plan only names and uploads it)."""
    path = tmp_path / "bindsplit_datasets-0.1.0-py3-none-any.whl"
    path.write_bytes(b"PK not a real wheel")
    return path


def test_leaderboard_space_plan(capsys: pytest.CaptureFixture[str], fake_wheel: Path) -> None:
    front = front_matter(LEADERBOARD)
    assert front["sdk"] == "gradio" and front["app_file"] == "app.py"
    assert {"leaderboard", "bindsplit"} <= set(front["tags"])
    assert (LEADERBOARD / "results.txt").read_text(encoding="utf-8").strip() == (
        results_dataset_id()
    )
    plan = plan_space("leaderboard", wheel=fake_wheel)
    assert plan.repo_id == "bindsplit/leaderboard" and plan.repo_type == "space"
    assert [f.path_in_repo for f in plan.files] == [
        "README.md",
        "app.py",
        "requirements.txt",
        "results.txt",
        "wheels/bindsplit_datasets-0.1.0-py3-none-any.whl",
        "bindsplit-publish.json",
    ]
    assert plan.files[3].local_path is not None  # the shipped results.txt, as it is
    # the Space installs BindSplit from the wheel it holds, by a relative path, with the extra
    assert plan.files[2].read() == b"./wheels/bindsplit_datasets-0.1.0-py3-none-any.whl[plot]\n"
    assert plan.files[4].local_path == fake_wheel
    plan = plan_space("leaderboard", org="lab", wheel=fake_wheel)
    assert plan.repo_id == "lab/leaderboard" and plan.files[3].read() == b"lab/bindsplit-results\n"
    plan = plan_space("leaderboard", "me/board", results="me/my-results", wheel=fake_wheel)
    assert plan.repo_id == "me/board" and plan.files[3].read() == b"me/my-results\n"
    with pytest.raises(BindsplitValueError, match="unknown Space 'metric'"):
        plan_space("metric")
    with pytest.raises(BindsplitValueError, match="is not a BindSplit wheel"):
        plan_space("leaderboard", wheel=LEADERBOARD / "app.py")
    argv = ["push-space", "leaderboard", "--org", "lab", "--wheel", str(fake_wheel)]
    assert cli.main(argv) == 0  # a dry run
    out = capsys.readouterr().out
    assert "lab/leaderboard (Space" in out and "dry run: nothing was sent" in out
    assert "wheels/bindsplit_datasets-0.1.0-py3-none-any.whl, installed by requirements.txt" in out


@pytest.mark.slow  # builds the wheel (seconds)
def test_a_pushed_space_installs_bindsplit_from_its_own_files(tmp_path: Path) -> None:
    """The dry-run plan's files, written out as the Space would hold them: pip resolves
    BindSplit from the bundled wheel with the package index switched off."""
    space = tmp_path / "space"
    for file in plan_space("leaderboard").files:  # the wheel built from this checkout
        (space / file.path_in_repo).parent.mkdir(parents=True, exist_ok=True)
        (space / file.path_in_repo).write_bytes(file.read())
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--no-index", "--no-deps"]
    result = subprocess.run(
        [*command, "--report", "-", "--quiet", "-r", "requirements.txt"],
        cwd=space,
        capture_output=True,
        text=True,
        env={**os.environ, "PIP_NO_INPUT": "1"},
    )
    assert result.returncode == 0, result.stderr
    [installed] = json.loads(result.stdout)["install"]
    assert installed["metadata"]["name"] == "bindsplit-datasets"
    assert installed["download_info"]["url"].startswith("file://")
    assert installed["download_info"]["url"].endswith(".whl")


@pytest.mark.slow  # starts a gradio server (a few seconds)
def test_published_space_app_computes_the_metric(tmp_path: Path) -> None:
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    # exactly the files a publish uploads to the Space
    space = tmp_path / "space"
    space.mkdir()
    for file in plan_metric(METRIC, "org/bindsplit").files:
        (space / file.path_in_repo).write_bytes(file.read())

    rng = np.random.default_rng(0)
    samples = {
        "scores": [rng.normal(size=(2, 2)).round(3).tolist() for _ in range(40)],
        "split": [["seen", "unseen", "partial", "none"][i % 4] for i in range(40)],
        "category": [["swap/att", "replace/obj"][i % 2] for i in range(40)],
        "balanced": [i % 4 == 0 or (i % 4 == 2 and i % 3 == 0) for i in range(40)],
    }
    options = {"n_bootstrap": 200, "confidence": 0.9, "seed": 3, "macro_min_samples": 1}
    expected = compute_metrics(
        accumulate(
            samples["scores"],
            samples["split"],
            samples["category"],
            balanced=samples["balanced"],
        ),
        **options,
    )
    assert expected["balanced/n"] == 13 and "seen/category/swap/att/group_ci" in expected

    with running_app(space, tmp_path / "app.log") as url:
        client = Client(url, verbose=False, download_files=False, analytics_enabled=False)
        job = client.submit(json.dumps(samples), *options.values(), api_name="/compute")
        assert job.result(timeout=REQUEST_TIMEOUT_S) == expected

        bad = {**samples, "split": ["seenish", *samples["split"][1:]]}
        job = client.submit(json.dumps(bad), *options.values(), api_name="/compute")
        with pytest.raises(AppError, match="sample 0: unknown split label 'seenish'"):
            job.result(timeout=REQUEST_TIMEOUT_S)


@pytest.mark.slow  # starts a gradio server (a few seconds)
def test_leaderboard_space_shows_the_rows_of_compare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gradio_client import Client
    from leaderboard_records import as_compare_text, compare_rows, leaderboard_records

    # the results dataset as push-results lays it out, and the Space as push-space uploads it
    records = leaderboard_records()
    every = write_records(records, tmp_path / "every.json")
    repo = tmp_path / "results"
    for file in plan_results([every], "org/results").files:
        (repo / file.path_in_repo).parent.mkdir(parents=True, exist_ok=True)
        (repo / file.path_in_repo).write_bytes(file.read())
    space = tmp_path / "space"
    space.mkdir()
    wheel = tmp_path / "bindsplit_datasets-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"not used by the app")
    for file in plan_space("leaderboard", results=str(repo), wheel=wheel).files:
        (space / file.path_in_repo).parent.mkdir(parents=True, exist_ok=True)
        (space / file.path_in_repo).write_bytes(file.read())

    configs = ["full", "seen", "partial", "unseen", "balanced"]
    expected = {}
    for benchmark, reference in [("bivlc", "coco2017"), ("bivlc", "laion2b"), ("vismin", None)]:
        chosen = [
            r
            for r in records
            if r["dataset"]["benchmark"] == benchmark
            and r["dataset"]["reference"]["corpus"]["name"] == (reference or "coco2017")
        ]
        path = write_records(chosen, tmp_path / f"{benchmark}-{reference}.json")
        for metric in ("i2t", "group"):
            assert cli.main(["compare", str(path), "--metric", metric, "--configs", *configs]) == 0
            expected[benchmark, reference, metric] = compare_rows(capsys.readouterr().out)

    with running_app(space, tmp_path / "app.log", PYTHONPATH=str(REPO_ROOT)) as url:
        client = Client(url, verbose=False, download_files=False, analytics_enabled=False)
        for (benchmark, reference, metric), rows in expected.items():
            job = client.submit(benchmark, metric, reference, None, api_name="/leaderboard")
            shown = job.result(timeout=REQUEST_TIMEOUT_S)
            assert as_compare_text(shown["rows"]) == rows, (benchmark, reference, metric)
            assert "exact McNemar" in shown["note"]
            # numbers, not display strings; n, partial and the gap beside them
            first = shown["rows"]["unseen"][0]
            assert isinstance(first["accuracy"], float) and isinstance(first["n"], int)
            assert {"partial", "gap", "gap_low", "gap_high", "gap_partial"} <= set(
                shown["models"][0]
            )
            assert isinstance(shown["models"][0]["gap"], float)
        # the family filter ranks the chosen models only
        job = client.submit("bivlc", "i2t", "coco2017", ["clip"], api_name="/leaderboard")
        shown = job.result(timeout=REQUEST_TIMEOUT_S)
        assert [row["model"] for row in shown["rows"]["full"]] == ["org/clip-b"]
        assert all(
            not row["move"] and not row["within_noise"]
            for rows in shown["rows"].values()
            for row in rows
        )
        # one binding kind, named; a kind the benchmark lacks leaves nothing, and says so
        job = client.submit("bivlc", "i2t", "coco2017", None, "attribute", api_name="/leaderboard")
        assert len(job.result(timeout=REQUEST_TIMEOUT_S)["rows"]["full"]) == 3
        job = client.submit("bivlc", "i2t", "coco2017", None, "relation", api_name="/leaderboard")
        nothing = job.result(timeout=REQUEST_TIMEOUT_S)
        assert nothing["rows"] == {} and nothing["note"] == "no results match the filters"
        # across benchmarks, by hand: unseen I2T on BiVLC CLIP 88.3 > SigLIP 81.7 > NegCLIP 30.0,
        # on VisMin CLIP 41.7 > SigLIP 33.3: Borda CLIP (1 + 1) / 2, SigLIP (1/2 + 0) / 2,
        # NegCLIP 0 / 1
        job = client.submit("i2t", "coco2017", "attribute", api_name="/across")
        across = job.result(timeout=REQUEST_TIMEOUT_S)
        assert [(row["model"], row["rank"], row["borda"]) for row in across["rows"]] == [
            ("org/clip-b", 1, 1.0),
            ("google/siglip-b", 2, 0.25),
            ("org/negclip-b", 3, 0.0),
        ]
        assert across["benchmarks"] == ["bivlc", "vismin"] and across["left_out"] == {}
