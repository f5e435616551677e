"""Progress of long steps: log lines every few percent off a terminal, none when disabled."""

from __future__ import annotations

import logging

from bindsplit_datasets import progress as progress_module
from bindsplit_datasets.progress import progress


def test_off_a_terminal_a_line_is_logged_per_step_of_percent(caplog, monkeypatch):
    monkeypatch.setattr(progress_module, "LOG_PERCENT", 25)
    with caplog.at_level(logging.INFO, logger="bindsplit_datasets.progress"):
        with progress(total=8, desc="encoding", unit="batch", mininterval=0) as bar:
            for _ in range(8):
                bar.update(1)
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "encoding: 25% (2/8 batch)",
        "encoding: 50% (4/8 batch)",
        "encoding: 75% (6/8 batch)",
        "encoding: 100% (8/8 batch)",
    ]


def test_without_a_total_the_count_is_logged_when_the_step_ends(caplog):
    with caplog.at_level(logging.INFO, logger="bindsplit_datasets.progress"):
        with progress(desc="reading", unit="rows") as bar:
            bar.update(10)
    assert [r.getMessage() for r in caplog.records] == ["reading: 10 rows"]


def test_disabled_progress_logs_nothing_but_still_counts(caplog):
    with caplog.at_level(logging.INFO, logger="bindsplit_datasets.progress"):
        items = list(progress(range(5), desc="quiet", disable=True))
    assert items == [0, 1, 2, 3, 4] and caplog.records == []
