"""Locate (and, with ``--ensure``, fetch once) the NLTK tagger data the binding parser needs.

Only the averaged-perceptron tagger is needed (``averaged_perceptron_tagger_eng``); tokenisation
uses no NLTK data. ``python -m bindsplit_datasets.nltk_data --ensure`` downloads it when it is not
found on ``NLTK_DATA``/NLTK's default paths, and is what ``make install`` runs.
"""

from __future__ import annotations

import argparse
import logging
import sys

__all__ = ["TAGGER_RESOURCE", "TaggerDataMissingError", "download_command", "tagger_available"]

logger = logging.getLogger(__name__)

#: NLTK resource name of the tagger the parser uses.
TAGGER_RESOURCE = "averaged_perceptron_tagger_eng"


class TaggerDataMissingError(LookupError):
    """NLTK's tagger data cannot be found; the message says what to run."""


def download_command() -> str:
    """The shell command that installs the tagger data."""
    return f"python -m nltk.downloader {TAGGER_RESOURCE}"


def tagger_available() -> bool:
    """Whether NLTK can find the tagger data on its search path."""
    import nltk

    try:
        nltk.data.find(f"taggers/{TAGGER_RESOURCE}/")
    except LookupError:
        return False
    return True


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ensure", action="store_true", help="download the data if missing")
    args = parser.parse_args(argv)
    if tagger_available():
        print(f"NLTK tagger data found ({TAGGER_RESOURCE}).")
        return 0
    if not args.ensure:
        print(f"NLTK tagger data missing; run: {download_command()}", file=sys.stderr)
        return 1
    import nltk

    if nltk.download(TAGGER_RESOURCE, quiet=True) and tagger_available():
        print(f"Downloaded NLTK tagger data ({TAGGER_RESOURCE}).")
        return 0
    print(
        f"warning: could not download NLTK tagger data; run `{download_command()}` on a machine "
        "with internet or point NLTK_DATA at a folder that has it.",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(_main())
