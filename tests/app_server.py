"""A Space's ``app.py`` started as a Space starts it, on a free port of 127.0.0.1, for the tests
that talk to it (tests/test_space.py through its API, tests/slow/test_browser.py through a
browser)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

__all__ = ["REQUEST_TIMEOUT_S", "START_TIMEOUT_S", "free_port", "running_app"]

START_TIMEOUT_S = 120
REQUEST_TIMEOUT_S = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_app(folder: Path, log: Path, **extra_env: str) -> Iterator[str]:
    """``python app.py`` in ``folder`` (as a Space runs it) on a free local port; its URL."""
    port = free_port()
    env = {
        **os.environ,
        "GRADIO_SERVER_NAME": "127.0.0.1",
        "GRADIO_SERVER_PORT": str(port),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
        **extra_env,
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
