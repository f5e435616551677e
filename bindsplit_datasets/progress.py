"""Progress of long steps (encoding, reference builds, downloads, parsing).

On a terminal a step shows a ``tqdm`` bar. Elsewhere (a batch job's log file, a CI log) a bar
would either be invisible or flood the log with carriage returns, so the step logs one INFO line
every few percent instead (every :data:`LOG_SECONDS` when the total is unknown), through this
package's logger: batch logs show where a run is. ``bindsplit -q`` silences both (it sets
``TQDM_DISABLE`` and raises the log level). The command line follows the same rule for the
bars of the libraries it drives: off a terminal, theirs are off too (:func:`interactive`).

>>> [batch for batch in progress(range(3), desc="encoding", unit="batch", disable=True)]
[0, 1, 2]
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterable
from typing import Any

from tqdm import tqdm as plain_tqdm
from tqdm.auto import tqdm

__all__ = ["LOG_PERCENT", "LOG_SECONDS", "interactive", "progress"]

logger = logging.getLogger(__name__)

#: Off a terminal, a line is logged each time this many more percent of a step are done.
LOG_PERCENT = 5
#: Off a terminal, without a known total, a line is logged at most this often (seconds).
LOG_SECONDS = 30.0


class _NoOutput:
    """Where a logged progress bar writes its (unused) bar: nowhere."""

    def write(self, text: str) -> None:
        pass

    def flush(self) -> None:
        pass


class _LoggedProgress(plain_tqdm):
    """A ``tqdm`` that writes no bar and logs a line every :data:`LOG_PERCENT` percent (without a
    total: every :data:`LOG_SECONDS`, and once when it closes)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._logged_step = 0
        self._logged_at = time.monotonic()
        super().__init__(*args, file=_NoOutput(), **kwargs)

    def _log(self) -> None:
        if self.total:
            done = f"{100 * self.n / self.total:.0f}% ({self.n:,}/{self.total:,} {self.unit})"
        else:
            done = f"{self.n:,} {self.unit}"
        logger.info("%s: %s", self.desc or "progress", done)

    def display(self, msg: str | None = None, pos: int | None = None) -> bool:
        if self.total:
            step = int(100 * self.n / self.total) // LOG_PERCENT
            if step > self._logged_step:
                self._logged_step = step
                self._log()
        elif self.n and time.monotonic() - self._logged_at >= LOG_SECONDS:
            self._logged_at = time.monotonic()
            self._log()
        return True

    def close(self) -> None:
        if not self.disable and not self.total and self.n:
            self._log()
        super().close()


def interactive() -> bool:
    """Whether progress shows as bars (a terminal, or a notebook) rather than log lines."""
    return "ipykernel" in sys.modules or (sys.stderr is not None and sys.stderr.isatty())


def progress(
    iterable: Iterable[Any] | None = None,
    *,
    total: float | None = None,
    desc: str,
    unit: str = "it",
    disable: bool = False,
    **kwargs: Any,
) -> tqdm:
    """A progress bar over ``iterable`` (or one updated by hand up to ``total``): a ``tqdm`` bar on
    a terminal, log lines every few percent elsewhere. ``disable`` turns both off; extra keyword
    arguments go to ``tqdm`` (``unit_scale``, ``leave``, ...). A notebook counts as a terminal."""
    kind = tqdm if interactive() else _LoggedProgress
    return kind(iterable, total=total, desc=desc, unit=unit, disable=disable, **kwargs)
