"""``bindsplit parse``: the bindings the parser reads in captions, and with ``--explain`` how."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator

from ..parsing import explain

NAME = "parse"
HELP = (
    "Print the (attribute, object) bindings the parser reads in each caption; with --explain also "
    "its tokens and tags, the unit kinds before and after the tag corrections, the named rules "
    "that fired and the relation triples. Captions come from the arguments, or one a line from "
    "stdin when none is given or for '-'."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    'bindsplit parse "a red car next to a white dog"',
    'bindsplit parse --explain "the yawning statue is grey"',
    "bindsplit parse --json - < captions.txt",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "captions",
        nargs="*",
        metavar="CAPTION",
        help="captions to parse; none, or '-', reads one caption a line from stdin",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="also print tokens, tags, unit kinds before/after corrections, the rules that fired "
        "and the relation triples",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object a caption a line (caption, tokens, tags, units, kinds_before, "
        "kinds_after, rules, bindings, relations)",
    )


def _captions(arguments: list[str]) -> Iterator[str]:
    for caption in arguments or ["-"]:
        if caption == "-":
            yield from (line.rstrip("\n") for line in sys.stdin if line.strip())
        else:
            yield caption


def run(args: argparse.Namespace) -> int:
    for caption in _captions(args.captions):
        explanation = explain(caption)
        if args.json:
            print(json.dumps(explanation.to_dict(), ensure_ascii=False))
        elif args.explain:
            print("\n".join(explanation.lines()), end="\n\n")
        else:
            bindings = ", ".join(f"({b.attribute}, {b.object})" for b in explanation.bindings)
            print(f"{caption}\t{bindings or '-'}")
    return 0
