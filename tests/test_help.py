"""Snapshots of every command's ``--help``: a changed option, default or wording shows up as a
diff of ``tests/data/help/<command>.txt`` in review, never silently.

``UPDATE_HELP=1 python -m pytest tests/test_help.py`` rewrites the snapshots (and removes those
of commands that are gone); review the diff before committing it. The text is rendered 100
columns wide, whatever the terminal, so the snapshots do not depend on who runs the tests.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bindsplit_datasets import cli

HELP_DIR = Path(__file__).parent / "data" / "help"
#: Terminal width the snapshots are rendered at (argparse reads ``COLUMNS``).
WIDTH = "100"
UPDATE = os.environ.get("UPDATE_HELP") == "1"


def _parsers(
    parser: argparse.ArgumentParser, name: str
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """(snapshot name, parser) of ``parser`` and of every sub-command below it, depth first:
    ``bindsplit``, ``build``, ``reference.build``, ..."""
    getattr(parser, "populate", lambda: None)()  # a command's arguments are added on first use
    yield name, parser
    for action in parser._actions:  # argparse has no public accessor for sub-parsers
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                yield from _parsers(sub, command if name == "bindsplit" else f"{name}.{command}")


def _help_texts() -> dict[str, str]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", WIDTH)
        return {
            name: parser.format_help() for name, parser in _parsers(cli.build_parser(), "bindsplit")
        }


HELP_TEXTS = _help_texts()


@pytest.mark.parametrize("name", sorted(HELP_TEXTS))
def test_help_matches_its_snapshot(name: str) -> None:
    path = HELP_DIR / f"{name}.txt"
    text = HELP_TEXTS[name]
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no snapshot of `{name} --help`: run UPDATE_HELP=1 pytest {__file__}"
    assert text == path.read_text(encoding="utf-8"), (
        f"`{name} --help` changed: review it, then run UPDATE_HELP=1 pytest tests/test_help.py"
    )


def test_every_snapshot_belongs_to_a_command() -> None:
    stale = sorted(path.stem for path in HELP_DIR.glob("*.txt") if path.stem not in HELP_TEXTS)
    if UPDATE:
        for name in stale:
            (HELP_DIR / f"{name}.txt").unlink()
        stale = []
    assert stale == [], f"snapshots of commands that no longer exist: {stale}"


#: The program, its commands and their sub-commands (``reference.build``).
COMMANDS = sorted(HELP_TEXTS)


@pytest.mark.parametrize("name", COMMANDS)
def test_help_ends_with_two_or_three_examples(name: str) -> None:
    """Every command's ``--help`` ends with an ``examples:`` block of two or three ``bindsplit``
    lines."""
    head, marker, examples = HELP_TEXTS[name].rpartition("\nexamples:\n")
    assert marker and head, f"`{name} --help` has no examples block"
    lines = examples.rstrip("\n").split("\n")
    assert 2 <= len(lines) <= 3, lines
    assert all(line.startswith("  bindsplit ") for line in lines), lines


def test_the_command_list_names_every_command() -> None:
    """``bindsplit --help`` lists each command with its one-line help."""
    top = HELP_TEXTS["bindsplit"]
    commands = [name for name in COMMANDS if name != "bindsplit" and "." not in name]
    assert len(commands) >= 15
    for command in commands:
        assert f"    {command} " in top or f"    {command}\n" in top, command


def test_help_answers_without_importing_the_heavy_libraries() -> None:
    """``bindsplit --help`` and the help of the everyday commands import neither ``datasets``
    nor torch (they cost seconds); measured in a fresh interpreter, as a user runs it."""
    code = (
        "import sys\n"
        "from bindsplit_datasets import cli\n"
        "for argv in (['--help'], ['eval', '--help'], ['compare', '--help'], ['plot', '--help'],"
        " ['export', '--help']):\n"
        "    try:\n"
        "        cli.main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = ('datasets', 'torch', 'transformers', 'evaluate', 'pyarrow')\n"
        "print('IMPORTED', sorted(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stderr.strip().splitlines()[-1] == "IMPORTED []"
    assert "usage: bindsplit" in result.stdout


def test_help_shows_the_defaults() -> None:
    text = HELP_TEXTS["eval"]
    assert "encoder batch size per process (default: 64)" in text
    assert "(0: none; default: 1000)" in text
    assert "(default: 0) (default: 0)" not in text  # a default the help states is not repeated
