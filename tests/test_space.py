"""The metric Space (metrics/bindsplit/app.py): its pinned environment, and the app itself started
on 127.0.0.1 and asked, through its own API, to compute the metric (offline, bounded in time)."""

from __future__ import annotations

import configparser
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest
import yaml
from packaging.requirements import Requirement

from bindsplit_datasets.metric_core import accumulate, compute_metrics
from bindsplit_datasets.publish import plan_metric

REPO_ROOT = Path(__file__).resolve().parents[1]
METRIC = REPO_ROOT / "metrics" / "bindsplit"
START_TIMEOUT_S = 120
REQUEST_TIMEOUT_S = 60


def sdk_version() -> str:
    text = (METRIC / "README.md").read_text(encoding="utf-8")
    return str(yaml.safe_load(text.split("---\n")[1])["sdk_version"])


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


def test_this_environment_is_the_spaces() -> None:
    """What the app test below runs against: the README's gradio and requirements.txt."""
    assert metadata.version("gradio") == sdk_version()
    for line in (METRIC / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            assert requirement.specifier.contains(metadata.version(requirement.name)), line


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_app(folder: Path, log: Path) -> Iterator[str]:
    """``python app.py`` in ``folder`` (as a Space runs it) on a free local port; its URL."""
    port = free_port()
    env = {
        **os.environ,
        "GRADIO_SERVER_NAME": "127.0.0.1",
        "GRADIO_SERVER_PORT": str(port),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
    }
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "app.py"], cwd=folder, env=env, stdout=output, stderr=output
        )
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while True:
                if process.poll() is not None:
                    pytest.fail(f"app.py exited with {process.returncode}:\n{log.read_text()}")
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        pytest.fail(f"no app after {START_TIMEOUT_S} s:\n{log.read_text()}")
                    time.sleep(0.5)
            yield f"http://127.0.0.1:{port}/"
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


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
