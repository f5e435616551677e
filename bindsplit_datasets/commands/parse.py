"""``bindsplit parse``: the bindings and relation triples the parser reads in captions, and with
``--explain`` how.

Captions from stdin are read one line at a time, never more than a caption's worth of bytes at
once (``< /dev/zero`` ends at once), and each line must be UTF-8 text of at most
:data:`~bindsplit_datasets.names.MAX_CAPTION_CHARS` characters: a longer line, or bytes that are
not UTF-8, is refused in one line naming its line number, as ``reference build`` refuses them.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Iterator
from typing import IO, Any

from ..errors import BindsplitValueError, SchemaError
from ..names import BINDING_KINDS, MAX_CAPTION_CHARS
from ..parsing import explain
from ..parsing.explain import Explanation

NAME = "parse"
HELP = (
    "Print the (attribute, object) bindings and the (subject, relation, object) triples the "
    "parser reads in each caption (--bindings attribute: bindings only); with --explain also "
    "its tokens and tags, the unit kinds before and after the tag corrections and the named "
    "rules that fired. Captions come from the arguments, or one a line from stdin (UTF-8, at "
    f"most {MAX_CAPTION_CHARS:,} characters a line) when none is given or for '-'."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    'bindsplit parse "a red car next to a white dog"',
    'bindsplit parse --explain "the yawning statue is grey"',
    "bindsplit parse --json --bindings attribute - < captions.txt",
)

#: What ``--bindings`` prints of each kind: the JSON key and the text cell.
_KINDS: dict[str, tuple[str, ...]] = {
    "attribute": ("bindings",),
    "relation": ("relations",),
    "both": ("bindings", "relations"),
}
#: The most bytes a caption of MAX_CAPTION_CHARS characters takes in UTF-8, and its line end.
_LINE_BYTES = 4 * MAX_CAPTION_CHARS + 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "captions",
        nargs="*",
        metavar="CAPTION",
        help="captions to parse; none, or '-', reads one caption a line from stdin",
    )
    parser.add_argument(
        "--bindings",
        choices=BINDING_KINDS,
        default="both",
        help="what to print: (attribute, object) bindings, (subject, relation, object) triples, "
        "or both (default: both; text: a tab-separated column each, '-' for none)",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="also print tokens, tags, unit kinds before/after corrections and the rules that "
        "fired",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object a caption a line (caption, tokens, tags, units, kinds_before, "
        "kinds_after, rules, and bindings and/or relations as --bindings says)",
    )


def _lines(stream: IO[Any]) -> Iterator[str]:
    """Each non-blank line of ``stream``, read one line at a time
    and never more than a caption's worth at once (its bytes decoded as UTF-8; a text stream
    without bytes beneath, as in tests, is read as text)."""
    binary = getattr(stream, "buffer", None)
    for number in itertools.count(1):
        if binary is not None:
            raw = binary.readline(_LINE_BYTES)
            if len(raw) == _LINE_BYTES and not raw.endswith(b"\n"):
                raise _too_long(f"stdin line {number}")
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise SchemaError(
                    f"stdin line {number} is not UTF-8 text ({error}); save the captions as "
                    "UTF-8, one per line"
                ) from None
        else:
            line = stream.readline(MAX_CAPTION_CHARS + 2)
        if not line:
            return
        text = line.removesuffix("\n").removesuffix("\r")
        if len(text) > MAX_CAPTION_CHARS:
            raise _too_long(f"stdin line {number}")
        if text.strip():
            yield text


def _too_long(where: str) -> BindsplitValueError:
    return BindsplitValueError(
        f"{where} is longer than the longest caption BindSplit reads ({MAX_CAPTION_CHARS:,} "
        "characters); shorten or split it"
    )


def _captions(arguments: list[str]) -> Iterator[str]:
    for position, caption in enumerate(arguments or ["-"], 1):
        if caption == "-":
            yield from _lines(sys.stdin)
        elif len(caption) > MAX_CAPTION_CHARS:
            raise _too_long(f"caption {position} ({len(caption):,} characters)")
        else:
            yield caption


def _text(explanation: Explanation, keys: tuple[str, ...]) -> str:
    cells = {
        "bindings": ", ".join(f"({b.attribute}, {b.object})" for b in explanation.bindings),
        "relations": ", ".join(
            f"({r.subject}, {r.relation}, {r.object})" for r in explanation.relations
        ),
    }
    return "\t".join([explanation.caption, *(cells[key] or "-" for key in keys)])


def run(args: argparse.Namespace) -> int:
    keys = _KINDS[args.bindings]
    left_out = {"bindings", "relations"} - set(keys)
    for caption in _captions(args.captions):
        explanation = explain(caption)
        if args.json:
            record = {k: v for k, v in explanation.to_dict().items() if k not in left_out}
            print(json.dumps(record, ensure_ascii=False))
        elif args.explain:
            print("\n".join(explanation.lines()), end="\n\n")
        else:
            print(_text(explanation, keys))
    return 0
