"""``bindsplit schema``: print the JSON Schema of a format BindSplit writes, for other tools."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

NAME = "schema"
HELP = (
    "Print the JSON Schema of a format BindSplit writes (results: the results record of "
    "`bindsplit eval`), for validating records with any JSON Schema tool; docs/ holds a copy."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit schema results > results.schema.json",
    "bindsplit schema results > docs/results.schema.json   # the copy a checkout keeps",
)


def _results() -> dict[str, Any]:
    from ..reports.record_model import results_schema

    return results_schema()


#: The formats whose schema is printed, by name.
SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {"results": _results}


def schema_text(name: str) -> str:
    """The schema ``name`` as printed (and as ``docs/<name>.schema.json`` holds it)."""
    return json.dumps(SCHEMAS[name](), indent=2, ensure_ascii=False) + "\n"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("format", choices=sorted(SCHEMAS), help="the format whose schema to print")


def run(args: argparse.Namespace) -> int:
    print(schema_text(args.format), end="")
    return 0
