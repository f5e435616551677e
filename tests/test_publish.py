"""Publishing to the Hub, against a fake Hub in memory that records every call (no network).

The fake built folder, metric folder and results records are made here, in the layout of
docs/architecture.md.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import datasets
import httpx2
import pytest
import yaml
from huggingface_hub import DatasetCard
from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError, RevisionNotFoundError

from bindsplit_datasets import publish
from bindsplit_datasets.builds.features import LABEL_FEATURE
from bindsplit_datasets.builds.manifest import read_manifest
from bindsplit_datasets.errors import BindsplitError, BindsplitValueError, SchemaError
from bindsplit_datasets.names import RESULTS_FORMAT
from bindsplit_datasets.publish import (
    PUBLISH_RECORD,
    canonical,
    execute_plan,
    inspect_build,
    plan_dataset,
    plan_metric,
    plan_results,
    validate_repo_name,
)
from bindsplit_datasets.publish import dataset as publish_dataset
from bindsplit_datasets.publish import hub as publish_hub
from bindsplit_datasets.reports.results import seal_record
from bindsplit_datasets.reports.results_table import read_results_table

REPO_ROOT = Path(__file__).resolve().parents[1]
TOKEN = "hf_test_token"
READ_ONLY = {"repo_info", "hf_hub_download"}

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
    body = [
        "# BindSplit: BiVLC",
        "",
        "Seen and unseen splits.",
        "",
        "```python",
        'unseen = load_dataset("bindsplit/bivlc", "unseen", split="test")',
        'record = evaluate_model("openai/clip-vit-base-patch32", "bindsplit/bivlc")',
        "```",
        "",
    ]
    return "\n".join([*lines, "---", "", *body])


#: What a BiVLC build read from its Hub source against COCO says it is (publish/canonical.py).
CANONICAL = {
    "reference": {"corpus": {"kind": "coco", "name": "coco2017"}},
    "min_count": 1,
    "source": {"hub_id": "imirandam/BiVLC", "revision": "main", "sha": "1" * 40},
}
#: The fake build's fingerprint, published as canonical (on the Hub, in these tests): what makes
#: it the canonical build, whatever its manifest says.
CANONICAL_FINGERPRINT = "0" * 64


def write_build(folder: Path) -> Path:
    """A small folder in the exact layout `bindsplit build` writes."""
    folder.mkdir(parents=True)
    for name, rows in ROWS.items():
        (folder / name).mkdir()
        captions = [f"{name} caption {i}" for i in range(rows)]
        shards = SHARDS[name]
        for index in range(shards):
            part = captions[index::shards]
            label = LABEL_FEATURE.str2int(name if name != "full" else "seen")
            datasets.Dataset.from_dict(
                {"caption": part, "bindsplit_label": [label] * len(part)},
                features=datasets.Features(
                    {"caption": datasets.Value("string"), "bindsplit_label": LABEL_FEATURE}
                ),
            ).to_parquet(str(folder / name / f"test-{index:05d}-of-{shards:05d}.parquet"))
    manifest = {
        "format": "bindsplit-build/2",
        "bindsplit_version": "0.1.0",
        "benchmark": "bivlc",
        "pretty_name": "BiVLC",
        "configs": ROWS,
        "fingerprint": CANONICAL_FINGERPRINT,
        "columns": {
            "image": ["image", "negative_image"],
            "caption": ["caption", "negative_caption"],
        },
        # the canonical build's reference and source: it may go to bindsplit/bivlc
        **CANONICAL,
    }
    (folder / "bindsplit.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    (folder / "README.md").write_text(card_text(), encoding="utf-8")
    return folder


@pytest.fixture(autouse=True)
def _published_canonical_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every benchmark's canonical build, as published on the Hub, has the fake build's
    fingerprint (the guard reads it from the Hub, never from a local folder)."""
    monkeypatch.setattr(
        canonical, "_published_fingerprint", lambda benchmark: CANONICAL_FINGERPRINT
    )


@pytest.fixture(autouse=True)
def _rows_not_verified(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake build above has the layout of a build but not its annotated rows, so planning
    reads its manifest without checking the rows; tests/test_manifest.py checks that a real
    build changed after the fact is refused by the push dry run."""
    monkeypatch.setattr(publish_dataset, "verify_build", read_manifest)


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
"""A stand-in metric with the layout of the real one: a wrapper and its core."""

import datasets
import evaluate

from .stand_in_core import count


class Bindsplit(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="stand-in",
            citation="",
            features=datasets.Features({"predictions": datasets.Value("int32")}),
        )

    def _compute(self, predictions):
        return {"n": count(predictions)}
'''


@pytest.fixture
def metric_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "bindsplit"
    folder.mkdir()
    (folder / "README.md").write_text(METRIC_README, encoding="utf-8")
    (folder / "bindsplit.py").write_text(METRIC_SCRIPT, encoding="utf-8")
    (folder / "stand_in_core.py").write_text(
        "def count(values):\n    return len(values)\n", encoding="utf-8"
    )
    (folder / "app.py").write_text("import gradio\n", encoding="utf-8")
    (folder / "requirements.txt").write_text("numpy\n", encoding="utf-8")
    return folder


def http_error(kind: type[HfHubHTTPError], status: int, message: str) -> HfHubHTTPError:
    request = httpx2.Request("GET", "https://hub.test")
    return kind(message, response=httpx2.Response(status, request=request))


class FakeHub:
    """A Hub in memory: every commit is a snapshot {path: bytes}, refs point at commits, and every
    call is recorded. ``before_commit`` runs inside the next ``create_commit`` before it applies,
    like a commit someone else lands at that moment."""

    def __init__(self, downloads: Path) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.refs: dict[tuple[str, str], dict[str, str]] = {}  # (type, id) -> ref -> commit
        self.commits: dict[str, dict[str, bytes]] = {}
        self.downloads = downloads
        self.before_commit: Callable[[], None] | None = None

    def _commit(self, key: tuple[str, str], ref: str, files: dict[str, bytes]) -> str:
        sha = hashlib.sha1(str(len(self.commits)).encode()).hexdigest()
        self.commits[sha] = files
        self.refs[key][ref] = sha
        return sha

    def head(self, repo_type: str, repo_id: str, ref: str = "main") -> str:
        return self.refs[(repo_type, repo_id)][ref]

    def files(self, repo_type: str, repo_id: str, ref: str = "main") -> dict[str, bytes]:
        return self.commits[self.head(repo_type, repo_id, ref)]

    def edit(self, repo_type: str, repo_id: str, path: str, content: bytes) -> None:
        """A commit made by someone else on main (a web edit), creating the repository if new."""
        key = (repo_type, repo_id)
        files = dict(self.files(repo_type, repo_id)) if key in self.refs else {}
        self.refs.setdefault(key, {})
        self._commit(key, "main", {**files, path: content})

    def repo_info(
        self, repo_id: str, *, repo_type: str, revision: str | None, token: str
    ) -> SimpleNamespace:
        self.calls.append(
            ("repo_info", {"repo_id": repo_id, "repo_type": repo_type, "revision": revision})
        )
        if (repo_type, repo_id) not in self.refs:
            raise http_error(RepositoryNotFoundError, 404, f"{repo_id} not found")
        sha = self.refs[(repo_type, repo_id)].get(revision or "main")
        if sha is None:
            raise http_error(RevisionNotFoundError, 404, f"revision {revision} not found")
        return SimpleNamespace(
            sha=sha, siblings=[SimpleNamespace(rfilename=path) for path in self.commits[sha]]
        )

    def hf_hub_download(
        self, repo_id: str, filename: str, *, repo_type: str, revision: str, token: str
    ) -> str:
        self.calls.append(
            ("hf_hub_download", {"repo_id": repo_id, "filename": filename, "revision": revision})
        )
        path = self.downloads / f"{len(self.calls)}-{Path(filename).name}"
        path.write_bytes(self.commits[revision][filename])
        return str(path)

    def create_repo(self, repo_id: str, **kwargs: Any) -> None:
        self.calls.append(("create_repo", {"repo_id": repo_id, **kwargs}))
        key = (kwargs["repo_type"], repo_id)
        if key not in self.refs:
            self.refs[key] = {}
            self._commit(key, "main", {".gitattributes": b"*.parquet filter=lfs\n"})

    def create_branch(self, repo_id: str, **kwargs: Any) -> None:
        self.calls.append(("create_branch", {"repo_id": repo_id, **kwargs}))
        refs = self.refs[(kwargs["repo_type"], repo_id)]
        refs.setdefault(kwargs["branch"], refs["main"])

    def create_commit(self, repo_id: str, operations: Any, **kwargs: Any) -> Any:
        recorded = [(op.path_in_repo, op.path_or_fileobj) for op in operations]
        self.calls.append(("create_commit", {"repo_id": repo_id, "operations": recorded, **kwargs}))
        if self.before_commit is not None:
            self.before_commit()
            self.before_commit = None
        key = (kwargs["repo_type"], repo_id)
        branch = kwargs["revision"] or "main"
        parent = kwargs.get("parent_commit")
        if parent is not None and not kwargs["create_pr"] and self.refs[key][branch] != parent:
            raise http_error(HfHubHTTPError, 412, "A commit has happened since. Please refresh")
        files = dict(self.commits[parent or self.refs[key][branch]])
        for path, source in recorded:
            files[path] = source if isinstance(source, bytes) else Path(source).read_bytes()
        ref = f"refs/pr/{len(self.calls)}" if kwargs["create_pr"] else branch
        self._commit(key, ref, files)
        pr_url = f"https://hub/{repo_id}/discussions/1" if kwargs["create_pr"] else None
        return SimpleNamespace(commit_url=f"https://hub/{repo_id}/commit/abc", pr_url=pr_url)

    def writes(self) -> list[tuple[str, dict[str, Any]]]:
        return [call for call in self.calls if call[0] not in READ_ONLY]


@pytest.fixture
def hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeHub:
    """The fake Hub, also what the command line and the scripts publish to."""
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    fake = FakeHub(downloads)
    monkeypatch.setattr(publish_hub, "hub_client", lambda token: fake)
    return fake


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
push_results = load_script("push_results")

EXPECTED_FILES = [
    "README.md",
    "eval.yaml",
    "bindsplit.json",
    "full/test-00000-of-00002.parquet",
    "full/test-00001-of-00002.parquet",
    "seen/test-00000-of-00001.parquet",
    "unseen/test-00000-of-00001.parquet",
    "partial/test-00000-of-00001.parquet",
    PUBLISH_RECORD,
]


def expected_writes(
    plan: publish.PublishPlan, parent_commit: str | None = None, files: Any = None
) -> list[tuple[str, dict[str, Any]]]:
    """The plan's calls as the fake records them."""
    calls = []
    for call in plan.calls(files, parent_commit=parent_commit):
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
    assert push_dataset.main([str(build)]) == 0
    assert hub.calls == []  # not even read-only calls, and no token needed
    out = capsys.readouterr().out
    assert "repository: bindsplit/bivlc (dataset" in out  # the benchmark's canonical repository
    for path in EXPECTED_FILES:
        assert path in out
    assert "full 6 (default), seen 3, unseen 1, partial 2" in out
    assert "pretty_name 'BindSplit BiVLC', license 'mit'" in out
    assert "dry run: nothing was sent" in out


def test_plan_contents(build: Path) -> None:
    plan = plan_dataset(build)
    assert plan.repo_id == "bindsplit/bivlc"
    assert [file.path_in_repo for file in plan.files] == EXPECTED_FILES
    for file in plan.files[:-1]:  # the card names this repository already: uploaded as it is
        if file.path_in_repo == "eval.yaml":  # made from the manifest: the build has none
            continue
        assert file.local_path == build / file.path_in_repo
        assert file.size == file.local_path.stat().st_size
    tasks = yaml.safe_load(plan.files[1].content)["tasks"]
    configs = read_manifest(build)["configs"]
    gaps = ("gap_seen_unseen", "gap_seen_partial")  # on full: seen, unseen, partial have rows
    assert [task["id"] for task in tasks] == [
        f"{config}_{metric}" for config in (*configs, *gaps) for metric in ("i2t", "t2i", "group")
    ]
    assert {task["split"] for task in tasks} == {"test"}
    record = json.loads(plan.files[-1].content)
    assert record["card_sha256"] == hashlib.sha256((build / "README.md").read_bytes()).hexdigest()
    assert record["build_fingerprint"] == "0" * 64
    assert [call.method for call in plan.calls()] == ["create_repo", "create_commit"]
    assert plan.calls()[0].kwargs == {
        "repo_id": "bindsplit/bivlc",
        "repo_type": "dataset",
        "exist_ok": True,
    }
    assert plan.not_uploaded == ()


@pytest.mark.parametrize(
    ("benchmark", "options", "expected"),
    [
        ("bivlc", {}, "bindsplit/bivlc"),
        ("aro_vga", {}, "bindsplit/aro"),
        ("aro_vga", {"org": "my-lab"}, "my-lab/aro"),
        ("aro_vga", {"repo_id": "me/aro-coco"}, "me/aro-coco"),
        ("aro_vga", {"org": "my-lab", "repo_id": "me/aro-coco"}, "me/aro-coco"),  # --repo wins
    ],
)
def test_default_repository_follows_the_benchmark(
    build: Path, benchmark: str, options: dict[str, str], expected: str
) -> None:
    manifest = json.loads((build / "bindsplit.json").read_text(encoding="utf-8"))
    from bindsplit_datasets.benchmarks import get_benchmark

    source = {**manifest["source"], "hub_id": get_benchmark(benchmark).hub_id}  # its canonical
    (build / "bindsplit.json").write_text(
        json.dumps({**manifest, "benchmark": benchmark, "source": source})
    )
    assert plan_dataset(build, **options).repo_id == expected


def test_the_card_examples_name_the_target_repository(
    build: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local = (build / "README.md").read_bytes()
    plan = plan_dataset(build, org="my-lab")
    card = plan.card.content.decode("utf-8")
    assert plan.card.local_path is None and plan.card.size == len(plan.card.content)
    assert 'load_dataset("my-lab/bivlc", "unseen", split="test")' in card
    assert 'evaluate_model("openai/clip-vit-base-patch32", "my-lab/bivlc")' in card
    assert "bindsplit/bivlc" not in card
    assert card == local.decode("utf-8").replace('"bindsplit/bivlc"', '"my-lab/bivlc"')
    assert DatasetCard(card).data.to_dict() == DatasetCard(local.decode()).data.to_dict()
    assert (build / "README.md").read_bytes() == local  # the build folder is never modified
    record = json.loads(plan.files[-1].content)
    assert record["card_sha256"] == hashlib.sha256(plan.card.content).hexdigest()
    assert plan.not_uploaded == ()
    assert push_dataset.main([str(build), "--org", "my-lab"]) == 0
    out = capsys.readouterr().out
    assert "load 'my-lab/bivlc' (the local card says 'bindsplit/bivlc')" in out
    assert "README.md" in out and "<- generated" in out


def test_a_card_without_loading_examples_is_uploaded_as_it_is(build: Path) -> None:
    text = (build / "README.md").read_text(encoding="utf-8")
    (build / "README.md").write_text(text.split("```python")[0], encoding="utf-8")
    plan = plan_dataset(build, org="my-lab")
    assert plan.card.local_path == build / "README.md"


def test_yes_makes_exactly_the_planned_calls(
    build: Path, hub: FakeHub, logged_in: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert push_dataset.main([str(build), "--repo", "org/bindsplit-bivlc", "--yes"]) == 0
    plan = plan_dataset(build, "org/bindsplit-bivlc")
    assert hub.writes() == expected_writes(plan)  # a new repository: no parent commit
    # a new repository: the only read-only call is the one that finds it missing
    assert [call[0] for call in hub.calls] == ["repo_info", "create_repo", "create_commit"]
    uploaded = hub.files("dataset", "org/bindsplit-bivlc")
    assert sorted(uploaded) == sorted([*EXPECTED_FILES, ".gitattributes"])
    assert uploaded["README.md"] == plan.card.read()
    assert b'load_dataset("org/bindsplit-bivlc"' in uploaded["README.md"]
    assert "published: https://hub/org/bindsplit-bivlc/commit/abc" in capsys.readouterr().out


def test_revision_and_pull_request(build: Path, hub: FakeHub, logged_in: None) -> None:
    hub.edit("dataset", "org/ds", "notes.md", b"an existing repository")
    head = hub.head("dataset", "org/ds")
    argv = [str(build), "--repo", "org/ds", "--yes", "--revision", "v2", "--create-pr"]
    assert push_dataset.main([*argv, "--private"]) == 0
    plan = plan_dataset(build, "org/ds", revision="v2", create_pr=True, private=True)
    # the branch does not exist yet: it is read from main, which it is created from
    assert hub.calls[:2] == [
        ("repo_info", {"repo_id": "org/ds", "repo_type": "dataset", "revision": "v2"}),
        ("repo_info", {"repo_id": "org/ds", "repo_type": "dataset", "revision": None}),
    ]
    assert hub.writes() == expected_writes(plan, parent_commit=head)
    methods = [method for method, _ in hub.writes()]
    assert methods == ["create_repo", "create_branch", "create_commit"]
    create_repo, create_branch, commit = (kwargs for _, kwargs in hub.writes())
    assert create_repo["private"] is True
    assert create_branch["branch"] == "v2" and create_branch["exist_ok"] is True
    assert commit["revision"] == "v2" and commit["create_pr"] is True
    assert "README.md" not in hub.files("dataset", "org/ds", "v2")  # a pull request, not v2


def test_the_folder_the_plan_accepts_is_loadable_by_configuration(build: Path) -> None:
    build_info = inspect_build(build)
    card = DatasetCard.load(build / "README.md")
    assert [c["config_name"] for c in card.data.to_dict()["configs"]] == list(build_info.configs)
    assert build_info.configs == ROWS and build_info.default_config == "full"
    unseen = datasets.load_dataset(str(build), "unseen", split="test")
    assert unseen["caption"] == ["unseen caption 0"]
    default = datasets.load_dataset(str(build), split="test")
    assert sorted(default["caption"]) == [f"full caption {i}" for i in range(6)]


# --- reading the Hub before writing: the edited-card guard and the parent commit --------------


def test_republishing_an_unchanged_or_rebuilt_card_is_allowed(
    build: Path, hub: FakeHub, logged_in: None
) -> None:
    first = plan_dataset(build, "org/ds")
    execute_plan(first, hub, token=TOKEN)
    hub.calls.clear()
    head = hub.head("dataset", "org/ds")
    execute_plan(first, hub, token=TOKEN)  # identical card: no need to read the publish record
    assert [c for c in hub.calls if c[0] in READ_ONLY] == [
        ("repo_info", {"repo_id": "org/ds", "repo_type": "dataset", "revision": None}),
        ("hf_hub_download", {"repo_id": "org/ds", "filename": "README.md", "revision": head}),
    ]
    assert hub.writes() == expected_writes(first, parent_commit=head)

    (build / "README.md").write_text(
        card_text().replace("Seen and unseen", "Rebuilt"), encoding="utf-8"
    )
    hub.calls.clear()
    # the Hub card is the one we published: it may be replaced
    execute_plan(plan_dataset(build, "org/ds"), hub, token=TOKEN)
    assert hub.writes()[-1][0] == "create_commit"
    assert "Rebuilt" in hub.files("dataset", "org/ds")["README.md"].decode()


def test_a_card_edited_on_the_hub_is_not_overwritten_without_force(
    build: Path, hub: FakeHub, logged_in: None, capsys: pytest.CaptureFixture[str]
) -> None:
    execute_plan(plan_dataset(build), hub, token=TOKEN)
    edited = hub.files("dataset", "bindsplit/bivlc")["README.md"] + b"\nA note added on the Hub.\n"
    hub.edit("dataset", "bindsplit/bivlc", "README.md", edited)
    hub.calls.clear()

    assert push_dataset.main([str(build), "--yes"]) == 2
    assert "edited on the Hub" in capsys.readouterr().err
    assert hub.writes() == []
    assert hub.files("dataset", "bindsplit/bivlc")["README.md"] == edited

    assert push_dataset.main([str(build), "--yes", "--force"]) == 0
    assert (
        hub.files("dataset", "bindsplit/bivlc")["README.md"] == (build / "README.md").read_bytes()
    )


def test_a_card_not_published_by_bindsplit_is_not_overwritten(build: Path, hub: FakeHub) -> None:
    hub.edit("dataset", "org/ds", "README.md", b"---\nlicense: mit\n---\nhand made\n")
    with pytest.raises(BindsplitError, match="not published by BindSplit"):
        execute_plan(plan_dataset(build, "org/ds"), hub, token=TOKEN)
    assert hub.writes() == []


def test_a_commit_landing_after_the_read_stops_the_publish(
    build: Path, hub: FakeHub, logged_in: None
) -> None:
    """The guard and the commit see the same revision: the commit is based on the head read."""
    execute_plan(plan_dataset(build), hub, token=TOKEN)
    before = hub.files("dataset", "bindsplit/bivlc")
    hub.before_commit = lambda: hub.edit("dataset", "bindsplit/bivlc", "README.md", b"edited")
    with pytest.raises(BindsplitError, match="changed while publishing.*nothing was uploaded"):
        execute_plan(plan_dataset(build), hub, token=TOKEN)
    after = hub.files("dataset", "bindsplit/bivlc")
    assert after == {**before, "README.md": b"edited"}  # only the other commit landed


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
    assert push_dataset.main([str(build), "--repo", repo, "--yes"]) == 2
    assert expected in capsys.readouterr().err
    assert hub.calls == []


def test_bad_organisation(build: Path, hub: FakeHub, capsys: pytest.CaptureFixture[str]) -> None:
    assert push_dataset.main([str(build), "--org", "bad org", "--yes"]) == 2
    assert "invalid repository name 'bad org/bivlc'" in capsys.readouterr().err
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
        (damage_wrong_format, "expected 'bindsplit-build/2'"),
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
    assert push_dataset.main([str(build), "--repo", "org/ds", "--yes"]) == 2
    assert expected in capsys.readouterr().err
    assert hub.calls == []


def test_missing_folder(tmp_path: Path, hub: FakeHub, capsys: pytest.CaptureFixture[str]) -> None:
    assert push_dataset.main([str(tmp_path / "nowhere"), "--repo", "org/ds", "--yes"]) == 2
    assert "folder not found" in capsys.readouterr().err and hub.calls == []


def test_missing_token_at_upload_time(
    build: Path, hub: FakeHub, logged_out: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert push_dataset.main([str(build), "--repo", "org/ds", "--yes"]) == 2
    error = capsys.readouterr().err
    assert "no Hugging Face token" in error and "hf auth login" in error and "HF_TOKEN" in error
    assert hub.calls == []


@pytest.mark.slow  # subprocesses
@pytest.mark.parametrize(
    "program",
    [
        [str(REPO_ROOT / "hub_scripts" / "push_dataset.py")],
        ["-m", "bindsplit_datasets.cli", "push-dataset"],
    ],
)
def test_script_and_command_run_as_programs(build: Path, program: list[str]) -> None:
    result = subprocess.run(
        # --no-verify: a subprocess does not see the fixture that skips the fake rows' check
        [sys.executable, *program, str(build), "--org", "my-lab", "--no-verify"],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO_ROOT,
    )
    assert result.returncode == 0, result.stderr
    assert "repository: my-lab/bivlc" in result.stdout
    assert "full/test-00001-of-00002.parquet" in result.stdout and "dry run" in result.stdout


def test_publishing_code_does_not_import_the_command_line() -> None:
    """The library's publishing modules and the metric are below the command line."""
    package = REPO_ROOT / "bindsplit_datasets"
    modules = [*sorted((package / "publish").glob("*.py")), package / "metric.py"]
    modules.append(package / "metric_core.py")
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [
            (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
            for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for alias in node.names
        ]
        assert not [
            name
            for name in imported
            if name.split(".")[-1] in ("cli", "commands") or ".cli" in name or "commands" in name
        ], path
    assert "argparse" not in "".join(p.read_text() for p in (package / "publish").glob("*.py"))


# --- the metric Space ------------------------------------------------------------------------


def test_metric_plan_and_upload(metric_folder: Path, hub: FakeHub, logged_in: None) -> None:
    (metric_folder / "notes.txt").write_text("scratch", encoding="utf-8")
    plan = plan_metric(metric_folder)
    assert plan.repo_id == "bindsplit/bindsplit"
    assert [f.path_in_repo for f in plan.files] == [
        "README.md",
        "bindsplit.py",
        "app.py",
        "stand_in_core.py",
        "requirements.txt",
        PUBLISH_RECORD,
    ]
    assert plan.not_uploaded == ("notes.txt",)
    assert push_metric.main(["--folder", str(metric_folder), "--yes"]) == 0
    assert hub.writes() == expected_writes(plan)
    assert hub.writes()[0] == (
        "create_repo",
        {
            "repo_id": "bindsplit/bindsplit",
            "repo_type": "space",
            "exist_ok": True,
            "space_sdk": "gradio",
            "token": TOKEN,
        },
    )
    assert plan_metric(metric_folder, org="my-lab").repo_id == "my-lab/bindsplit"


def test_metric_script_defaults_to_the_checkouts_metric(
    hub: FakeHub, capsys: pytest.CaptureFixture[str]
) -> None:
    assert push_metric.main(["--org", "my-lab"]) == 0
    out = capsys.readouterr().out
    assert "repository: my-lab/bindsplit (Space" in out
    assert str(REPO_ROOT / "metrics" / "bindsplit" / "bindsplit_core.py") in out
    assert hub.calls == []


@pytest.mark.slow  # importing evaluate imports transformers
def test_metric_space_layout_loads_with_evaluate(
    metric_folder: Path, hub: FakeHub, tmp_path: Path
) -> None:
    """The Space holds what evaluate.load("org/bindsplit") needs: bindsplit.py at its root and
    the module it imports relatively (evaluate copies it along)."""
    import evaluate

    execute_plan(plan_metric(metric_folder, "org/bindsplit"), hub, token=TOKEN)
    space = tmp_path / "space" / "bindsplit"
    space.mkdir(parents=True)
    for path, content in hub.files("space", "org/bindsplit").items():
        (space / path).write_bytes(content)
    metric = evaluate.load(str(space), cache_dir=str(tmp_path / "cache"))
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
        (
            lambda f: (f / "stand_in_core.py").unlink(),
            "missing stand_in_core.py (imported by bindsplit.py)",
        ),
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
    assert push_metric.main(["--folder", str(metric_folder), "--yes"]) == 2
    assert expected in capsys.readouterr().err
    assert hub.calls == []


def test_metric_repository_must_be_named_after_the_script(metric_folder: Path) -> None:
    with pytest.raises(SchemaError, match=r"loads metrics\.py .*bindsplit\.py"):
        plan_metric(metric_folder, "org/metrics")


def test_real_metric_folder_is_publishable() -> None:
    plan = plan_metric()  # the folder shipped in the package: this checkout's metrics/bindsplit
    assert [f.path_in_repo for f in plan.files] == [
        "README.md",
        "bindsplit.py",
        "app.py",
        "bindsplit_bootstrap.py",
        "bindsplit_core.py",
        "bindsplit_halftruth.py",
        "bindsplit_intervals.py",
        "bindsplit_outcomes.py",
        "requirements.txt",
        PUBLISH_RECORD,
    ]
    assert plan.repo_id == "bindsplit/bindsplit"


# --- results records -------------------------------------------------------------------------


def results_record(
    model: str,
    benchmark: str = "bivlc",
    *,
    revision: str | None = None,
    fingerprint: str | None = "f1",
    i2t: float = 0.7,
) -> dict[str, Any]:
    """A results record as `bindsplit eval` writes it (sealed with its digest)."""
    return seal_record(
        {
            "format": RESULTS_FORMAT,
            "bindsplit_version": "0.1.0",
            "model": {
                "id": model,
                "revision": revision,
                "class": "CLIPModel",
                "scored_by": "encoder",
            },
            "dataset": {
                "data": f"bindsplit/{benchmark}",
                "benchmark": benchmark,
                "fingerprint": fingerprint,
                "reference": {"corpus": {"kind": "coco", "name": "coco2017"}},
            },
            "metrics": {
                "full/n": 10,
                "full/i2t": i2t,
                "full/i2t_ci": [max(0.0, i2t - 0.2), min(1.0, i2t + 0.2)],
            },
            "samples": {  # the outcomes that give full/i2t (every reader re-derives it)
                "id": [f"s{i}" for i in range(10)],
                "label": ["none"] * 10,
                "i2t": [int(i < round(i2t * 10)) for i in range(10)],
            },
            "created": "2026-01-01T00:00:00+00:00",
        }
    )


def write_json(path: Path, value: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def results(tmp_path: Path) -> Path:
    folder = tmp_path / "results"
    write_json(folder / "a.json", results_record("openai/clip-vit-base-patch32"))
    write_json(folder / "aro" / "b.json", results_record("laion/CLIP-ViT-B-32", "aro_vga"))
    write_json(  # a collection: one file, two records (one a copy of a.json)
        folder / "collection.json",
        [
            results_record("openai/clip-vit-base-patch32"),
            results_record("openai/clip-vit-base-patch32", revision="abc123"),
        ],
    )
    write_json(folder / "leaderboard.json", {"format": "something-else/1"})  # another tool's
    (folder / "notes.txt").write_text("scratch", encoding="utf-8")
    return folder


def table_of(files: dict[str, bytes]) -> list[tuple[str, str | None, str, float]]:
    """(model, revision, benchmark, value) per row of the results table in ``files``."""
    table = read_results_table(files[publish.RESULTS_TABLE_PATH]).to_pylist()
    return [(r["model"], r["model_revision"], r["benchmark"], r["value"]) for r in table]


def test_results_plan(results: Path) -> None:
    plan = plan_results([results], "org/bindsplit-results")
    key = publish.record_key(results_record("openai/clip-vit-base-patch32"))
    assert publish.record_path(key) == (
        f"records/bivlc/openai__clip-vit-base-patch32/{key.digest}.json"
    )
    paths = [file.path_in_repo for file in plan.files]
    assert paths[:2] == ["README.md", "data/results.parquet"] and len(paths) == 5  # 3 records
    assert len({path.rsplit("/", 1)[1] for path in paths[2:]}) == 3
    assert sorted(p.split("/")[1] for p in paths[2:]) == ["aro_vga", "bivlc", "bivlc"]
    by_path = {file.path_in_repo: file for file in plan.files}
    single = by_path[publish.record_path(key)]
    assert single.local_path == results / "a.json"  # uploaded byte for byte
    revised = publish.record_key(results_record("openai/clip-vit-base-patch32", revision="abc123"))
    generated = by_path[publish.record_path(revised)]
    assert json.loads(generated.content)["model"]["revision"] == "abc123"
    assert set(plan.not_uploaded) == {str(results / "leaderboard.json"), str(results / "notes.txt")}
    assert plan.overwrite is False and plan.repo_type == "dataset"
    card = by_path["README.md"].content.decode()
    assert '"org/bindsplit-results"' in card and "viewer: false" not in card
    assert table_of({p: f.read() for p, f in by_path.items()}) == [
        ("laion/CLIP-ViT-B-32", None, "aro_vga", 0.7),
        ("openai/clip-vit-base-patch32", None, "bivlc", 0.7),
        ("openai/clip-vit-base-patch32", "abc123", "bivlc", 0.7),
    ]
    assert "merged with the repository's copy at upload" in plan.describe()


def test_the_results_repository_loads_as_a_dataset(results: Path, tmp_path: Path) -> None:
    """The repository a plan makes: load_dataset(repo) gives the table (its configs), not the
    JSON records beside it."""
    repo = tmp_path / "repo"
    for file in plan_results([results], "org/bindsplit-results").files:
        (repo / file.path_in_repo).parent.mkdir(parents=True, exist_ok=True)
        (repo / file.path_in_repo).write_bytes(file.read())
    loaded = datasets.load_dataset(str(repo), cache_dir=str(tmp_path / "cache"))
    assert list(loaded) == ["train"] and loaded["train"].num_rows == 3
    assert loaded["train"].column_names[:6] == [
        "model",
        "model_revision",
        "benchmark",
        "binding_kind",
        "configuration",
        "metric",
    ]
    assert loaded["train"]["reference"] == ["coco2017"] * 3


def test_results_are_appended_never_duplicated(
    results: Path, hub: FakeHub, logged_in: None, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = "org/bindsplit-results"
    assert push_results.main([str(results), "--repo", repo, "--yes"]) == 0
    first = hub.files("dataset", repo)
    assert len([path for path in first if path.startswith("records/")]) == 3
    assert len(table_of(first)) == 3
    assert "published:" in capsys.readouterr().out

    # the same records again: the table is read (it needs no change) and nothing is committed
    hub.calls.clear()
    assert push_results.main([str(results), "--repo", repo, "--yes"]) == 0
    assert [call[0] for call in hub.calls] == ["repo_info", "hf_hub_download"]
    assert "nothing new to publish" in capsys.readouterr().out

    # one new record and a changed copy of a published one: only the new record is added (and
    # its row to the table), the published one is kept as it is; a README edited on the Hub is
    # kept too
    hub.edit("dataset", repo, "README.md", b"# our leaderboard\n")
    head = hub.head("dataset", repo)
    more = results.parent / "more"
    write_json(more / "a.json", results_record("openai/clip-vit-base-patch32", i2t=0.8))
    write_json(more / "c.json", results_record("org/new-model", "vismin"))
    hub.calls.clear()
    assert push_results.main([str(more), "--repo", repo, "--yes"]) == 0
    added = publish.record_path(publish.record_key(results_record("org/new-model", "vismin")))
    commit = hub.writes()[-1][1]
    assert [path for path, _ in commit["operations"]] == [publish.RESULTS_TABLE_PATH, added]
    assert commit["operations"][1][1] == str(more / "c.json")
    assert commit["parent_commit"] == head
    now = hub.files("dataset", repo)
    assert now["README.md"] == b"# our leaderboard\n"
    assert {path: now[path] for path in first if path.startswith("records/")} == {
        path: content for path, content in first.items() if path.startswith("records/")
    }
    assert (
        table_of(now)
        == [
            *table_of(first)[:2],
            ("openai/clip-vit-base-patch32", "abc123", "bivlc", 0.7),
            ("org/new-model", None, "vismin", 0.7),
        ][: len(table_of(now))]
    )
    assert ("openai/clip-vit-base-patch32", None, "bivlc", 0.7) in table_of(now)  # kept, not 0.8
    out = capsys.readouterr().out
    assert "already on the Hub, kept:" in out and "published:" in out


def test_a_record_edited_or_incomplete_is_not_published(results: Path, tmp_path: Path) -> None:
    edited = json.loads((results / "a.json").read_text(encoding="utf-8"))
    edited["metrics"]["full/i2t"] = 0.9
    path = write_json(tmp_path / "edited.json", edited)
    with pytest.raises(SchemaError, match="changed after `bindsplit eval` wrote it"):
        plan_results([path], "org/r")
    incomplete = json.loads((results / "a.json").read_text(encoding="utf-8"))
    del incomplete["metrics"]["full/i2t"]
    path = write_json(tmp_path / "incomplete.json", incomplete)
    with pytest.raises(SchemaError, match=r"metrics\['full/i2t'\] is missing \(full has 10"):
        plan_results([path], "org/r")


def test_results_dry_run_and_plan_errors(
    results: Path, tmp_path: Path, hub: FakeHub, capsys: pytest.CaptureFixture[str]
) -> None:
    assert push_results.main([str(results), "--repo", "org/r"]) == 0
    assert hub.calls == [] and "dry run" in capsys.readouterr().out

    conflicting = write_json(
        tmp_path / "other.json",
        results_record("openai/clip-vit-base-patch32", i2t=0.1),
    )
    with pytest.raises(SchemaError, match="different results for the same model"):
        plan_results([results / "a.json", conflicting], "org/r")
    no_build = write_json(tmp_path / "nofp.json", results_record("m/x", fingerprint=None))
    with pytest.raises(SchemaError, match="no dataset.fingerprint"):
        plan_results([no_build], "org/r")
    not_record = write_json(tmp_path / "x.json", {"format": "something-else/1"})
    assert push_results.main([str(not_record), "--repo", "org/r"]) == 2
    assert "is not a BindSplit results record" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SchemaError, match="no results records found"):
        plan_results([empty], "org/r")
    with pytest.raises(FileNotFoundError, match="not found"):
        plan_results([tmp_path / "nowhere"], "org/r")
    with pytest.raises(SystemExit):  # --repo is required
        push_results.main([str(results)])
    assert "--repo" in capsys.readouterr().err


# --- the publishing guard: canonical names for canonical builds only ---------------------------


#: Another build's fingerprint (other rows, or the same rows labelled against another corpus).
OTHER_FINGERPRINT = "1" * 64


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"reference": {"corpus": {"file": "captions.txt"}}}, "its reference is captions.txt,"),
        ({"reference": {"corpus": {"kind": "captions"}}}, "its reference is an unnamed corpus"),
        ({"min_count": 2}, "seen from 2 captions, not 1"),
        ({"source": {"path": "bivlc_fixture.parquet", "sha256": "ab"}}, "bivlc_fixture.parquet"),
        # a manifest edited to name the canonical source and reference: its rows are not the
        # canonical build's (the fingerprint is checked against the rows)
        ({}, "its build (fingerprint 111111111111) is not the one published as bindsplit/bivlc"),
    ],
)
def test_a_private_build_is_not_published_as_the_canonical_one(
    build: Path, capsys: pytest.CaptureFixture[str], change: dict, problem: str
) -> None:
    manifest = json.loads((build / "bindsplit.json").read_text(encoding="utf-8"))
    edited = {**manifest, **change, "fingerprint": OTHER_FINGERPRINT}
    (build / "bindsplit.json").write_text(json.dumps(edited), encoding="utf-8")
    with pytest.raises(BindsplitValueError, match="not the canonical bindsplit/bivlc") as caught:
        plan_dataset(build)
    assert problem in str(caught.value)
    with pytest.raises(BindsplitValueError):
        plan_dataset(build, org="bindsplit")  # the canonical namespace named: the same check
    assert plan_dataset(build, org="my-lab").repo_id == "my-lab/bivlc"
    assert plan_dataset(build, "bindsplit/bivlc").repo_id == "bindsplit/bivlc"  # explicit
    assert push_dataset.main([str(build)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--org ORG" in err


def test_push_results_into_the_canonical_namespace_needs_canonical_results(
    tmp_path: Path,
) -> None:
    from report_records import record_from_samples

    from bindsplit_datasets.reports import write_records

    labels = ["seen", "unseen"] * 10
    record = record_from_samples("org/clip", labels, [1, 0] * 10, [1, 1] * 10, benchmark="bivlc")
    private = write_records([record], tmp_path / "private.json")
    with pytest.raises(BindsplitValueError, match="are not of the canonical bindsplit/bivlc"):
        plan_results([private], "bindsplit/bindsplit-results")
    assert plan_results([private], "my-lab/bindsplit-results").repo_id == "my-lab/bindsplit-results"
    # a record re-sealed to say it was evaluated on the published dataset: still not canonical
    record["dataset"]["data"] = "bindsplit/bivlc"
    record["dataset"]["reference"] = CANONICAL["reference"]
    claimed = write_records([record], tmp_path / "claimed.json")
    with pytest.raises(BindsplitValueError, match="fingerprint f1\\) is not the one"):
        plan_results([claimed], "bindsplit/bindsplit-results")
    # a record of the published build (its fingerprint), whatever it says it was evaluated on
    record["dataset"] = {**record["dataset"], "data": "bivlc", "fingerprint": CANONICAL_FINGERPRINT}
    published = write_records([record], tmp_path / "published.json")
    assert plan_results([published], "bindsplit/bindsplit-results").files


#: The default synthetic world's canonical content, as canonical.synthetic_content computes it.
SYNTHETIC = {"world": "w" * 64, "test_set": "t" * 64, "rows": ROWS["full"], "reference": "r" * 16}


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({}, None),  # the default world's default test set and reference: canonical
        ({"source": {"world": "w" * 64, "sha256": "x" * 64}}, "not the default test benchmark"),
        ({"reference": {"corpus": {"world": "w" * 64}, "digest": "other"}}, "training corpus"),
        ({"source": {"world": "v" * 64, "sha256": "t" * 64}}, "not of the default synthetic"),
    ],
)
def test_a_synthetic_build_is_canonical_by_its_content(
    build: Path, monkeypatch: pytest.MonkeyPatch, change: dict, problem: str | None
) -> None:
    monkeypatch.setattr(canonical, "_published_fingerprint", lambda benchmark: None)
    monkeypatch.setattr(canonical, "synthetic_content", lambda: SYNTHETIC)
    manifest = json.loads((build / "bindsplit.json").read_text(encoding="utf-8"))
    synthetic = {
        **manifest,
        "benchmark": "synthetic",
        "source": {"path": "test", "world": "w" * 64, "sha256": "t" * 64},
        "reference": {"corpus": {"kind": "synthetic", "world": "w" * 64}, "digest": "r" * 16},
        **change,
    }
    (build / "bindsplit.json").write_text(json.dumps(synthetic), encoding="utf-8")
    if problem is None:
        assert plan_dataset(build).repo_id == "bindsplit/synthetic"
        return
    with pytest.raises(
        BindsplitValueError, match="not the canonical bindsplit/synthetic"
    ) as caught:
        plan_dataset(build)
    assert problem in str(caught.value)
    assert plan_dataset(build, org="my-lab").repo_id == "my-lab/synthetic"


def test_the_canonical_fingerprint_is_read_from_the_hub_never_a_local_folder(
    build: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder named like the canonical dataset is not where the canonical build is read."""
    monkeypatch.undo()  # the real _published_fingerprint, offline: nothing published is known
    canonical._published_fingerprint.cache_clear()
    monkeypatch.chdir(tmp_path)
    shutil.copytree(build, tmp_path / "bindsplit" / "bivlc")
    assert canonical.canonical_fingerprints("bivlc") == frozenset()
    monkeypatch.setattr(publish_dataset, "verify_build", read_manifest)
    with pytest.raises(BindsplitValueError, match="none known"):
        plan_dataset(tmp_path / "bindsplit" / "bivlc")


# --- per-sample scores on the Hub (push-results --with-scores) ------------------------------


def scored_record(
    folder: Path, model: str, seed: int, *, hard: bool = False, **changes: Any
) -> Path:
    """A record and the --save-scores file it names, side by side in ``folder`` (``hard``: of a
    build with one hard positive per sample, the file saying so as ``bindsplit eval`` writes
    it)."""
    from report_records import (
        SAMPLE_BALANCED,
        SAMPLE_LABELS,
        genuine_hard_record,
        genuine_hard_scores,
        genuine_record,
        genuine_scores,
    )

    from bindsplit_datasets.reports import write_record
    from bindsplit_datasets.scoring.scores_file import write_scores

    folder.mkdir(parents=True, exist_ok=True)
    record = (genuine_hard_record if hard else genuine_record)(model, seed)
    name = f"{model.replace('/', '__')}.parquet"
    scores = changes.pop("scores", (genuine_hard_scores if hard else genuine_scores)(seed))
    write_scores(
        folder / name,
        scores,
        SAMPLE_LABELS,
        ids=record["samples"]["id"],
        balanced=SAMPLE_BALANCED,
        fingerprint=changes.pop("fingerprint", record["dataset"]["fingerprint"]),
        hard_positives=changes.pop("hard_positives", int(hard)),
    )
    record = {**record, "save_scores": {"path": f"/home/me/{name}", "error": None}, **changes}
    return write_record(record, folder / f"{model.replace('/', '__')}.json")


def test_with_scores_the_per_sample_scores_are_planned_beside_the_records(
    tmp_path: Path, hub: FakeHub, logged_in: None, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "results"
    paths = [scored_record(folder, "org/clip", 1), scored_record(folder, "org/siglip", 2)]
    plan = plan_results([folder], "org/r", with_scores=True)
    keys = [publish.record_key(json.loads(path.read_text(encoding="utf-8"))) for path in paths]
    scores = [f for f in plan.files if f.path_in_repo.startswith("scores/")]
    assert [f.path_in_repo for f in scores] == [publish.scores_path(key) for key in keys]
    assert scores[0].path_in_repo == f"scores/bivlc/org__clip/{keys[0].digest}.parquet"
    assert [f.local_path for f in scores] == [
        folder / "org__clip.parquet",
        folder / "org__siglip.parquet",
    ]
    # without the option, only the records and the table
    assert not [f for f in plan_results([folder], "org/r").files if "scores/" in f.path_in_repo]
    # the dry run lists them and sends nothing; --yes uploads them through publish()
    assert push_results.main([str(folder), "--repo", "org/r", "--with-scores"]) == 0
    out = capsys.readouterr().out
    assert "scores/bivlc/org__clip/" in out and "2 per-sample scores files" in out
    assert hub.writes() == []
    assert push_results.main([str(folder), "--repo", "org/r", "--with-scores", "--yes"]) == 0
    files = hub.files("dataset", "org/r")
    for file in scores:
        assert files[file.path_in_repo] == file.read()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"save_scores": None}, "lacks"),
        ({"fingerprint": "another build"}, "was not made for the build"),
        ({"scores": "swapped"}, "does not give the outcomes"),
    ],
)
def test_with_scores_only_the_records_own_scores_go(
    tmp_path: Path, changes: dict[str, Any], message: str
) -> None:
    from report_records import genuine_scores

    if changes.get("scores") == "swapped":  # scores of another model on the same samples
        changes["scores"] = genuine_scores(7)
    if changes.get("save_scores", 0) is None:
        changes = {"save_scores": {"path": None, "error": None}}
    path = scored_record(tmp_path / "results", "org/clip", 1, **changes)
    with pytest.raises(SchemaError, match=message):
        plan_results([path], "org/r", with_scores=True)
    assert plan_results([path], "org/r").files  # the record alone still goes


def test_with_scores_a_hard_positive_records_scores_go_beside_it(
    tmp_path: Path, hub: FakeHub, logged_in: None
) -> None:
    """A record of a build with hard positives: its scores file (metadata
    ``bindsplit_hard_positives``) gives its outcomes with and without them, and goes."""
    folder = tmp_path / "results"
    path = scored_record(folder, "org/clip", 1, hard=True)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert "i2t_original" in record["samples"] and "full/i2t_drop" in record["metrics"]
    plan = plan_results([path], "org/r", with_scores=True)
    (scores,) = [f for f in plan.files if f.path_in_repo.startswith("scores/")]
    assert scores.path_in_repo == publish.scores_path(publish.record_key(record))
    assert scores.path_in_repo.startswith("scores/sugarcrepe_pp/org__clip/")
    assert push_results.main([str(path), "--repo", "org/r", "--with-scores", "--yes"]) == 0
    assert hub.files("dataset", "org/r")[scores.path_in_repo] == scores.read()


@pytest.mark.parametrize(
    ("hard", "changes", "message"),
    [
        (True, {"hard_positives": 0}, "does not score the hard positives"),  # read as negatives
        (False, {"hard_positives": 1}, "does not score the hard positives"),
        (True, {"scores": "swapped"}, "does not give the outcomes"),
        (True, {"scores": "without the hard positive"}, "does not give the outcomes"),
    ],
)
def test_with_scores_a_hard_positive_records_scores_must_be_its_own(
    tmp_path: Path, hard: bool, changes: dict[str, Any], message: str
) -> None:
    from report_records import genuine_hard_scores

    if changes.get("scores") == "swapped":  # another model's, on the same samples
        changes["scores"] = genuine_hard_scores(7)
    elif changes.get("scores"):  # the hard positive scored below every caption: I2T changes
        edited = genuine_hard_scores(1)
        edited[:, 0, 2] = -1.0
        changes["scores"] = edited
    path = scored_record(tmp_path / "results", "org/clip", 1, hard=hard, **changes)
    with pytest.raises(SchemaError, match=message):
        plan_results([path], "org/r", with_scores=True)
