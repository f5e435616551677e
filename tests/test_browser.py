"""Both Spaces in a real browser: Debian's chromium driven by Playwright's Python package (no
browser download: ``executable_path``). The metric Space computes the example and shows the table
of an uploaded results.json; the leaderboard
Space, fed the flat folder ``bindsplit eval --out-dir`` writes, sorts by ``unseen`` so that the
best model on ``unseen`` comes first (numbers, not text). Screenshots go to ``build-artifacts/``
(CI keeps them). Skipped, saying why, where chromium or playwright is absent; ``.ci/run``
installs both."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest
from app_server import running_app
from leaderboard_records import leaderboard_records
from report_records import genuine_hard_record, genuine_record

from bindsplit_datasets.reports import write_record, write_records
from bindsplit_datasets.reports.leaderboard_view import board
from bindsplit_datasets.reports.results import record_file_name

REPO_ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO_ROOT / "build-artifacts"
CHROMIUM = os.environ.get("BINDSPLIT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
TIMEOUT_MS = 60_000

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("playwright") is None,
        reason="Playwright's Python package is not installed (pip install '.[test]')",
    ),
    pytest.mark.skipif(
        not Path(CHROMIUM).is_file(),
        reason=f"no chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)",
    ),
]


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


def screenshot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_metric_space_computes_in_a_browser(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with running_app(REPO_ROOT / "metrics" / "bindsplit", tmp_path / "metric.log") as url:
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url)
        page.get_by_role("button", name="Compute").click()
        page.get_by_text("seen/n", exact=False).first.wait_for()
        screenshot(page, "metric-space")
        assert "unseen/i2t" in page.inner_text("body")
        # a results.json uploaded: the table `bindsplit eval` prints, re-derived from its outcomes
        # (and a record with hard positives: the original I2T and the drop beside I2T)
        records = tmp_path / "results.json"
        write_records([genuine_record("org/uploaded"), genuine_hard_record("org/hard")], records)
        page.locator("input[type=file]").set_input_files(str(records))
        page.get_by_role("button", name="Show the table").click()
        page.get_by_text("org/uploaded on bivlc", exact=False).first.wait_for()
        screenshot(page, "metric-space-table")
        first, hard = (table.inner_text() for table in page.locator("table").all()[-2:])
        assert "gap (seen - unseen)" in first and "I2T %" in first and "I2T drop" not in first
        assert "I2T original %" in hard and "I2T drop %" in hard
        assert "org/hard on sugarcrepe_pp" in page.inner_text("body")


def test_leaderboard_sorts_by_unseen_in_a_browser(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # the flat folder `bindsplit eval --out-dir` writes, one record per file
    records = [
        r
        for r in leaderboard_records()
        if r["dataset"]["benchmark"] == "bivlc"
        and r["dataset"]["reference"]["corpus"]["name"] == "coco2017"
    ]
    flat = tmp_path / "results"
    for record in records:
        write_record(record, flat / record_file_name(record["model"]["id"], "bivlc"))
    best = max(records, key=lambda r: r["metrics"]["unseen/i2t"])["model"]["id"]
    first_on_full = max(records, key=lambda r: r["metrics"]["full/i2t"])["model"]["id"]
    assert best != first_on_full  # the sort has to change the order
    # the overview's column of `unseen`, as the Space lays the columns out
    unseen = board(records, "bivlc").overview_columns().index("unseen")

    env = {"BINDSPLIT_RESULTS": str(flat), "PYTHONPATH": str(REPO_ROOT)}
    with running_app(REPO_ROOT / "spaces" / "leaderboard", tmp_path / "board.log", **env) as url:
        page = browser.new_page(viewport={"width": 1400, "height": 1200})
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url)
        rows = page.locator("#overview .virtual-row")
        rows.first.wait_for()
        assert rows.first.get_by_role("gridcell").nth(1).inner_text().strip() == first_on_full
        header = page.locator("#overview th[title='unseen']:visible")
        header.hover()
        header.get_by_role("button", name="Open cell menu").click()
        page.get_by_role("menu").get_by_text("Sort descending").click()
        page.wait_for_function(
            "best => document.querySelector('#overview .virtual-row [role=gridcell]:nth-child(2)')"
            "?.innerText.trim() === best",
            arg=best,
        )
        cells = [row.get_by_role("gridcell").nth(unseen) for row in rows.all()]
        shown = [float(cell.inner_text()) for cell in cells]
        screenshot(page, "leaderboard-sorted-by-unseen")
        assert shown == sorted(shown, reverse=True) and len(shown) == len(records)
        page.get_by_role("tab", name="About").click()
        page.get_by_text("How to submit").wait_for()
        screenshot(page, "leaderboard-about")
