"""Publishing to the Hub, against a fake client that records every call (no network).

The fake built folder and metric folder are made here, in the layout of docs/architecture.md.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import datasets
import pytest
from huggingface_hub import DatasetCard

from bindsplit_datasets import publish
from bindsplit_datasets.errors import BindsplitError, SchemaError
from bindsplit_datasets.publish import (
    PUBLISH_RECORD,
    execute_plan,
    inspect_build,
    plan_dataset,
    plan_metric,
    validate_repo_name,
)

REPO_ROOT = Path(__file__).resolve().parents[1]
TOKEN = "hf_test_token"
READ_ONLY = {"repo_exists", "file_exists", "hf_hub_download"}

# rows per configuration and shards per configuration of the fake build
ROWS = {"full": 6, "seen": 3, "unseen": 1, "partial": 2}
SHARDS = {"full": 2, "seen": 1, "unseen": 1, "partial": 1}


def card_text(configs: dict[str, int] = SHARDS, default: str = "full") -> str:
    lines = ["---", "pretty_name: BindSplit BiVLC", "license: mit", "configs:"]
    for name in configs:
        lines += [
            f"- config_name: {name}",
            "  data_files:",
            "  - split: test",
            f"    path: {name}/test-*.parquet",
        ]
        if name == default:
            lines.append("  default: true")
    return "\n".join([*lines, "---", "", "# BindSplit: BiVLC", "", "Seen and unseen splits.", ""])


def write_build(folder: Path) -> Path:
    """A small folder in the exact layout `bindsplit build` writes."""
    folder.mkdir(parents=True)
    for name, rows in ROWS.items():
        (folder / name).mkdir()
        captions = [f"{name} caption {i}" for i in range(rows)]
        shards = SHARDS[name]
        for index in range(shards):
            part = captions[index::shards]
            datasets.Dataset.from_dict(
                {
                    "caption": part,
                    "bindsplit_label": [name if name != "full" else "seen"] * len(part),
                }
            ).to_parquet(str(folder / name / f"test-{index:05d}-of-{shards:05d}.parquet"))
    manifest = {
        "format": "bindsplit-build/1",
        "bindsplit_version": "0.1.0",
        "benchmark": "bivlc",
        "configs": ROWS,
        "fingerprint": "0" * 64,
    }
    (folder / "bindsplit.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    (folder / "README.md").write_text(card_text(), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def pristine_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_build(tmp_path_factory.mktemp("pristine") / "build")


@pytest.fixture
def build(pristine_build: Path, tmp_path: Path) -> Path:
    """A fresh copy of the fake build that a test may damage."""
    return Path(shutil.copytree(pristine_build, tmp_path / "build"))


METRIC_README = """\
---
title: BindSplit
emoji: 🧩
sdk: gradio
sdk_version: 4.44.0
app_file: app.py
pinned: false
tags:
- evaluate
- metric
---

# BindSplit metric
"""

METRIC_SCRIPT = '''\
"""A stand-in metric with the layout of the real one."""

import datasets
import evaluate


class Bindsplit(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="stand-in",
            citation="",
            features=datasets.Features({"predictions": datasets.Value("int32")}),
        )

    def _compute(self, predictions):
        return {"n": len(predictions)}
'''


@pytest.fixture
def metric_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "bindsplit"
    folder.mkdir()
    (folder / "README.md").write_text(METRIC_README, encoding="utf-8")
    (folder / "bindsplit.py").write_text(METRIC_SCRIPT, encoding="utf-8")
    (folder / "app.py").write_text(
        "import evaluate\nfrom evaluate.utils import launch_gradio_widget\n\n"
        'launch_gradio_widget(evaluate.load("bindsplit"))\n',
        encoding="utf-8",
    )
    (folder / "requirements.txt").write_text("evaluate\ngradio\n", encoding="utf-8")
    return folder


class FakeHub:
    """Records every call; repositories are {(repo_type, repo_id): {revision: {path: bytes}}}."""

    def __init__(self, downloads: Path) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.repos: dict[tuple[str, str], dict[str, dict[str, bytes]]] = {}
        self.downloads = downloads

    def _files(self, repo_id: str, repo_type: str, revision: str | None) -> dict[str, bytes]:
        return self.repos.get((repo_type, repo_id), {}).get(revision or "main", {})

    def repo_exists(self, repo_id: str, *, repo_type: str, token: str) -> bool:
        self.calls.append(
            ("repo_exists", {"repo_id": repo_id, "repo_type": repo_type, "token": token})
        )
        return (repo_type, repo_id) in self.repos

    def file_exists(
        self, repo_id: str, filename: str, *, repo_type: str, revision: str | None, token: str
    ) -> bool:
        self.calls.append(
            ("file_exists", {"repo_id": repo_id, "filename": filename, "revision": revision})
        )
        return filename in self._files(repo_id, repo_type, revision)

    def hf_hub_download(
        self, repo_id: str, filename: str, *, repo_type: str, revision: str | None, token: str
    ) -> str:
        self.calls.append(
            ("hf_hub_download", {"repo_id": repo_id, "filename": filename, "revision": revision})
        )
        path = self.downloads / f"{len(self.calls)}-{Path(filename).name}"
        path.write_bytes(self._files(repo_id, repo_type, revision)[filename])
        return str(path)

    def create_repo(self, repo_id: str, **kwargs: Any) -> None:
        self.calls.append(("create_repo", {"repo_id": repo_id, **kwargs}))
        self.repos.setdefault((kwargs["repo_type"], repo_id), {"main": {}})

    def create_branch(self, repo_id: str, **kwargs: Any) -> None:
        self.calls.append(("create_branch", {"repo_id": repo_id, **kwargs}))
        branches = self.repos[(kwargs["repo_type"], repo_id)]
        branches.setdefault(kwargs["branch"], dict(branches["main"]))

    def create_commit(self, repo_id: str, operations: Any, **kwargs: Any) -> Any:
        recorded = [(op.path_in_repo, op.path_or_fileobj) for op in operations]
        self.calls.append(("create_commit", {"repo_id": repo_id, "operations": recorded, **kwargs}))
        revision = (
            f"refs/pr/{len(self.calls)}" if kwargs["create_pr"] else kwargs["revision"] or "main"
        )
        files = self.repos[(kwargs["repo_type"], repo_id)].setdefault(revision, {})
        for path, source in recorded:
            files[path] = source if isinstance(source, bytes) else Path(source).read_bytes()
        pr_url = f"https://hub/{repo_id}/discussions/1" if kwargs["create_pr"] else None
        return SimpleNamespace(commit_url=f"https://hub/{repo_id}/commit/abc", pr_url=pr_url)

    def writes(self) -> list[tuple[str, dict[str, Any]]]:
        return [call for call in self.calls if call[0] not in READ_ONLY]


@pytest.fixture
def hub(tmp_path: Path) -> FakeHub:
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    return FakeHub(downloads)


@pytest.fixture
def logged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("huggingface_hub.get_token", lambda: TOKEN)


@pytest.fixture
def logged_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("huggingface_hub.get_token", lambda: None)


def load_script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        f"hub_script_{name}", REPO_ROOT / "hub_scripts" / f"{name}.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


push_dataset = load_script("push_dataset")
push_metric = load_script("push_metric")

EXPECTED_FILES = [
    "README.md",
    "bindsplit.json",
    "full/test-00000-of-00002.parquet",
    "full/test-00001-of-00002.parquet",
    "seen/test-00000-of-00001.parquet",
    "unseen/test-00000-of-00001.parquet",
    "partial/test-00000-of-00001.parquet",
    PUBLISH_RECORD,
]


def expected_writes(plan: publish.PublishPlan) -> list[tuple[str, dict[str, Any]]]:
    """The plan's calls as the fake records them."""
    calls = []
    for call in plan.calls():
        kwargs = {**call.kwargs, "token": TOKEN}
        if "operations" in kwargs:
            kwargs["operations"] = [
                (
                    file.path_in_repo,
                    file.content if file.content is not None else str(file.local_path),
                )
                for file in kwargs["operations"]
            ]
        calls.append((call.method, kwargs))
    return calls


# --- the plan and the dry run ----------------------------------------------------------------


def test_dry_run_sends_nothing_and_lists_every_file(
    build: Path, hub: FakeHub, logged_out: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert push_dataset.main([str(build), "--repo", "org/bindsplit-bivlc"], client=hub) == 0
    assert hub.calls == []  # not even read-only calls, and no token needed
    out = capsys.readouterr().out
    for path in EXPECTED_FILES:
        assert path in out
    assert "full 6 (default), seen 3, unseen 1, partial 2" in out
    assert "pretty_name 'BindSplit BiVLC', license 'mit'" in out
    assert "dry run: nothing was sent" in out


def test_plan_contents(build: Path) -> None:
    plan = plan_dataset(build, "org/bindsplit-bivlc")
    assert [file.path_in_repo for file in plan.files] == EXPECTED_FILES
    for file in plan.files[:-1]:
        assert file.local_path == build / file.path_in_repo
        assert file.size == file.local_path.stat().st_size
    record = json.loads(plan.files[-1].content)
    assert record["card_sha256"] == hashlib.sha256((build / "README.md").read_bytes()).hexdigest()
    assert record["build_fingerprint"] == "0" * 64
    assert [call.method for call in plan.calls()] == ["create_repo", "create_commit"]
    assert plan.calls()[0].kwargs == {
        "repo_id": "org/bindsplit-bivlc",
        "repo_type": "dataset",
        "exist_ok": True,
    }
    assert plan.not_uploaded == ()


def test_yes_makes_exactly_the_planned_calls(
    build: Path, hub: FakeHub, logged_in: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        push_dataset.main([str(build), "--repo", "org/bindsplit-bivlc", "--yes"], client=hub) == 0
    )
    plan = plan_dataset(build, "org/bindsplit-bivlc")
    assert hub.writes() == expected_writes(plan)
    # a new repository: the only read-only call is the existence check of the card guard
    assert [call[0] for call in hub.calls] == ["repo_exists", "create_repo", "create_commit"]
    uploaded = hub.repos[("dataset", "org/bindsplit-bivlc")]["main"]
    assert sorted(uploaded) == sorted(EXPECTED_FILES)
    assert uploaded["README.md"] == (build / "README.md").read_bytes()
    assert "published: https://hub/org/bindsplit-bivlc/commit/abc" in capsys.readouterr().out


def test_revision_and_pull_request(build: Path, hub: FakeHub, logged_in: None) -> None:
    argv = [
        str(build),
        "--repo",
        "org/bindsplit-bivlc",
        "--yes",
        "--revision",
        "v2",
        "--create-pr",
        "--private",
    ]
    assert push_dataset.main(argv, client=hub) == 0
    plan = plan_dataset(build, "org/bindsplit-bivlc", revision="v2", create_pr=True, private=True)
    assert hub.writes() == expected_writes(plan)
    methods = [method for method, _ in hub.writes()]
    assert methods == ["create_repo", "create_branch", "create_commit"]
    create_repo, create_branch, commit = (kwargs for _, kwargs in hub.writes())
    assert create_repo["private"] is True
    assert create_branch["branch"] == "v2" and create_branch["exist_ok"] is True
    assert commit["revision"] == "v2" and commit["create_pr"] is True


def test_the_folder_the_plan_accepts_is_loadable_by_configuration(build: Path) -> None:
    build_info = inspect_build(build)
    card = DatasetCard.load(build / "README.md")
    assert [c["config_name"] for c in card.data.to_dict()["configs"]] == list(build_info.configs)
    assert build_info.configs == ROWS and build_info.default_config == "full"
    unseen = datasets.load_dataset(str(build), "unseen", split="test")
    assert unseen["caption"] == ["unseen caption 0"]
    default = datasets.load_dataset(str(build), split="test")
    assert sorted(default["caption"]) == [f"full caption {i}" for i in range(6)]


# --- the edited-card guard -------------------------------------------------------------------


def test_republishing_an_unchanged_or_rebuilt_card_is_allowed(
    build: Path, hub: FakeHub, logged_in: None
) -> None:
    first = plan_dataset(build, "org/ds")
    execute_plan(first, hub, token=TOKEN)
    hub.calls.clear()
    execute_plan(first, hub, token=TOKEN)  # identical card: no need to read the publish record
    assert [c[0] for c in hub.calls if c[0] in READ_ONLY] == [
        "repo_exists",
        "file_exists",
        "hf_hub_download",
    ]

    (build / "README.md").write_text(
        card_text().replace("Seen and unseen", "Rebuilt"), encoding="utf-8"
    )
    hub.calls.clear()
    execute_plan(
        plan_dataset(build, "org/ds"), hub, token=TOKEN
    )  # Hub card is the one we published
    assert hub.writes()[-1][0] == "create_commit"
    assert "Rebuilt" in hub.repos[("dataset", "org/ds")]["main"]["README.md"].decode()


def test_a_card_edited_on_the_hub_is_not_overwritten_without_force(
    build: Path, hub: FakeHub, logged_in: None, capsys: pytest.CaptureFixture[str]
) -> None:
    execute_plan(plan_dataset(build, "org/ds"), hub, token=TOKEN)
    remote = hub.repos[("dataset", "org/ds")]["main"]
    remote["README.md"] += b"\nA note added on the Hub.\n"
    hub.calls.clear()

    assert push_dataset.main([str(build), "--repo", "org/ds", "--yes"], client=hub) == 2
    assert "edited on the Hub" in capsys.readouterr().err
    assert hub.writes() == []
    assert remote["README.md"].endswith(b"A note added on the Hub.\n")

    assert push_dataset.main([str(build), "--repo", "org/ds", "--yes", "--force"], client=hub) == 0
    assert remote["README.md"] == (build / "README.md").read_bytes()


def test_a_card_not_published_by_bindsplit_is_not_overwritten(build: Path, hub: FakeHub) -> None:
    hub.repos[("dataset", "org/ds")] = {
        "main": {"README.md": b"---\nlicense: mit\n---\nhand made\n"}
    }
    with pytest.raises(BindsplitError, match="not published by BindSplit"):
        execute_plan(plan_dataset(build, "org/ds"), hub, token=TOKEN)
    assert hub.writes() == []


# --- bad input: errors before anything is sent -----------------------------------------------


@pytest.mark.parametrize(
    ("repo", "expected"),
    [
        ("org/bad name", "invalid repository name"),
        ("org/na..me", "invalid repository name"),
        ("org--x/name", "invalid repository name"),
        ("org/name.git", "invalid repository name"),
        ("justname", "ORG/NAME"),
        ("a/b/c", "invalid repository name"),
        ("", "invalid repository name"),
    ],
)
def test_bad_repository_names(
    build: Path,
    hub: FakeHub,
    logged_in: None,
    capsys: pytest.CaptureFixture[str],
    repo: str,
    expected: str,
) -> None:
    with pytest.raises(ValueError, match=expected):
        validate_repo_name(repo)
    assert push_dataset.main([str(build), "--repo", repo, "--yes"], client=hub) == 2
    assert expected in capsys.readouterr().err
    assert hub.calls == []


def damage_no_manifest(folder: Path) -> None:
    (folder / "bindsplit.json").unlink()


def damage_wrong_format(folder: Path) -> None:
    (folder / "bindsplit.json").write_text(
        json.dumps({"format": "bindsplit-results/1"}), encoding="utf-8"
    )


def damage_no_configs_in_card(folder: Path) -> None:
    (folder / "README.md").write_text("---\nlicense: mit\n---\n# card\n", encoding="utf-8")


def damage_no_yaml(folder: Path) -> None:
    (folder / "README.md").write_text("# just a title\n", encoding="utf-8")


def damage_bad_yaml(folder: Path) -> None:
    (folder / "README.md").write_text("---\nconfigs: [unclosed\n---\n", encoding="utf-8")


def damage_missing_config_folder(folder: Path) -> None:
    shutil.rmtree(folder / "partial")


def damage_extra_parquet_folder(folder: Path) -> None:
    shutil.copytree(folder / "seen", folder / "other")


def damage_missing_shard(folder: Path) -> None:
    (folder / "full" / "test-00001-of-00002.parquet").unlink()


def damage_row_count(folder: Path) -> None:
    manifest = json.loads((folder / "bindsplit.json").read_text(encoding="utf-8"))
    manifest["configs"]["seen"] = 4
    (folder / "bindsplit.json").write_text(json.dumps(manifest), encoding="utf-8")


def damage_default(folder: Path) -> None:
    (folder / "README.md").write_text(card_text(default="seen"), encoding="utf-8")


def damage_license(folder: Path) -> None:
    (folder / "README.md").write_text(card_text().replace("mit", "MIT"), encoding="utf-8")


def damage_data_files(folder: Path) -> None:
    text = card_text().replace("path: unseen/test-*.parquet", "path: seen/test-*.parquet")
    (folder / "README.md").write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (damage_no_manifest, "no bindsplit.json"),
        (damage_wrong_format, "expected 'bindsplit-build/1'"),
        (damage_no_configs_in_card, "declares no 'configs'"),
        (damage_no_yaml, "no YAML metadata"),
        (damage_bad_yaml, "invalid metadata"),
        (damage_missing_config_folder, "configurations do not match"),
        (damage_extra_parquet_folder, "Parquet folders: full, other, partial, seen, unseen"),
        (damage_missing_shard, "shards of 'full' are incomplete"),
        (damage_row_count, "seen/ holds 3 rows but bindsplit.json says 4"),
        (damage_default, "found 'seen'"),
        (damage_data_files, "data_files for 'unseen'"),
        (damage_license, "license 'MIT', which the Hub rejects: write its Hub identifier 'mit'"),
    ],
)
def test_not_a_build_folder(
    build: Path,
    hub: FakeHub,
    logged_in: None,
    capsys: pytest.CaptureFixture[str],
    damage: Any,
    expected: str,
) -> None:
    damage(build)
    with pytest.raises(SchemaError, match=expected):
        inspect_build(build)
    assert push_dataset.main([str(build), "--repo", "org/ds", "--yes"], client=hub) == 2
    assert expected in capsys.readouterr().err
    assert hub.calls == []


def test_missing_folder(tmp_path: Path, hub: FakeHub, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        push_dataset.main([str(tmp_path / "nowhere"), "--repo", "org/ds", "--yes"], client=hub) == 2
    )
    assert "folder not found" in capsys.readouterr().err and hub.calls == []


def test_missing_token_at_upload_time(
    build: Path, hub: FakeHub, logged_out: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert push_dataset.main([str(build), "--repo", "org/ds", "--yes"], client=hub) == 2
    error = capsys.readouterr().err
    assert "no Hugging Face token" in error and "hf auth login" in error and "HF_TOKEN" in error
    assert hub.calls == []


def test_script_runs_as_a_program(build: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(REPO_ROOT / "hub_scripts" / "push_dataset.py"),
            str(build),
            "--repo",
            "org/ds",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "full/test-00001-of-00002.parquet" in result.stdout and "dry run" in result.stdout


# --- the metric Space ------------------------------------------------------------------------


def test_metric_plan_and_upload(metric_folder: Path, hub: FakeHub, logged_in: None) -> None:
    (metric_folder / "notes.txt").write_text("scratch", encoding="utf-8")
    plan = plan_metric(metric_folder, "org/bindsplit")
    assert [f.path_in_repo for f in plan.files] == [
        "README.md",
        "bindsplit.py",
        "app.py",
        "requirements.txt",
        PUBLISH_RECORD,
    ]
    assert plan.not_uploaded == ("notes.txt",)
    assert (
        push_metric.main(
            ["--repo", "org/bindsplit", "--folder", str(metric_folder), "--yes"], client=hub
        )
        == 0
    )
    assert hub.writes() == expected_writes(plan)
    assert hub.writes()[0] == (
        "create_repo",
        {
            "repo_id": "org/bindsplit",
            "repo_type": "space",
            "exist_ok": True,
            "space_sdk": "gradio",
            "token": TOKEN,
        },
    )


@pytest.mark.slow  # importing evaluate imports transformers
def test_metric_space_layout_loads_with_evaluate(
    metric_folder: Path, hub: FakeHub, tmp_path: Path
) -> None:
    """The Space holds what evaluate.load("org/bindsplit") needs: bindsplit.py at its root."""
    import evaluate

    execute_plan(plan_metric(metric_folder, "org/bindsplit"), hub, token=TOKEN)
    space = tmp_path / "space" / "bindsplit"
    space.mkdir(parents=True)
    for path, content in hub.repos[("space", "org/bindsplit")]["main"].items():
        (space / path).write_bytes(content)
    assert {"README.md", "app.py", "requirements.txt", "bindsplit.py"} <= {
        p.name for p in space.iterdir()
    }
    metric = evaluate.load(str(space))
    assert metric.compute(predictions=[1, 0, 1]) == {"n": 3}


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda f: (f / "README.md").write_text(METRIC_README.replace("gradio", "streamlit")),
            "sdk: gradio",
        ),
        (
            lambda f: (f / "README.md").write_text(
                METRIC_README.replace("app_file: app.py", "app_file: main.py")
            ),
            "app_file: app.py",
        ),
        (
            lambda f: (f / "README.md").write_text(METRIC_README.replace("- metric\n", "")),
            "missing metric",
        ),
        (lambda f: (f / "README.md").write_text("# no front matter\n"), "no YAML front matter"),
        (lambda f: (f / "app.py").unlink(), "missing app.py"),
        (lambda f: (f / "requirements.txt").unlink(), "missing requirements.txt"),
        (lambda f: (f / "bindsplit.py").rename(f / "other.py"), "has no bindsplit.py"),
    ],
)
def test_metric_folder_problems(
    metric_folder: Path,
    hub: FakeHub,
    logged_in: None,
    capsys: pytest.CaptureFixture[str],
    change: Any,
    expected: str,
) -> None:
    change(metric_folder)
    argv = ["--repo", "org/bindsplit", "--folder", str(metric_folder), "--yes"]
    assert push_metric.main(argv, client=hub) == 2
    assert expected in capsys.readouterr().err
    assert hub.calls == []


def test_metric_repository_must_be_named_after_the_script(metric_folder: Path) -> None:
    with pytest.raises(SchemaError, match=r"loads metrics\.py .*bindsplit\.py"):
        plan_metric(metric_folder, "org/metrics")


def test_real_metric_folder_is_publishable() -> None:
    folder = REPO_ROOT / "metrics" / "bindsplit"
    if not all(
        (folder / name).is_file()
        for name in ("README.md", "bindsplit.py", "app.py", "requirements.txt")
    ):
        pytest.skip("metrics/bindsplit is not complete yet")
    plan = plan_metric(folder, "org/bindsplit")
    assert {f.path_in_repo for f in plan.files} >= {
        "README.md",
        "bindsplit.py",
        "app.py",
        "requirements.txt",
    }
