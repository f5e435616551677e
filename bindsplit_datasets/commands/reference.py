"""``bindsplit reference``: build a reference index from a caption corpus, and inspect one.

``build SOURCE --out INDEX.parquet`` indexes any corpus ``--reference`` accepts (``coco2017``, a
COCO caption JSON, a text file, a saved index, a Hub dataset id, Parquet shards as a folder, glob
or fsspec URL) with the local or the Ray engine; ``info INDEX`` prints an index's fingerprint and
most common bindings and relation triples; ``lookup INDEX CAPTION`` prints each binding and each
relation triple of a caption with its count (an index built without triples says so).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import astuple
from pathlib import Path

from ..argtypes import positive_int
from ..atomic import OutputKind, check_output
from ..errors import BindsplitValueError
from ..names import REFERENCE_FORMAT
from ..parsing import parse_bindings_and_relations
from ..reference import ACCEPTED_FORMS, ENGINES, ReferenceIndex, resolve_reference
from ..reference.index_file import is_index_file
from ..tables import Align, render_table
from ._help import HelpFormatter, examples_epilog, verbosity_options

NAME = "reference"
HELP = (
    "Build a reference index (how often a caption corpus states each (attribute, object) "
    "binding and each (subject, relation, object) triple) with the local or Ray engine, print "
    "an index's fingerprint and most common bindings and triples, or look a caption up."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit reference build captions.txt --out my_index.parquet",
    "bindsplit reference info my_index.parquet",
    'bindsplit reference lookup my_index.parquet "a red apple and a ceramic mug"',
)


#: The output kind of ``reference build --out`` (for the shared output-path check).
INDEX_OUTPUT = OutputKind("BindSplit reference index", REFERENCE_FORMAT, recognise=is_index_file)


def _subcommand(
    subparsers: argparse._SubParsersAction,
    action: Callable[[argparse.Namespace], int],
    *,
    help: str,
    description: str,
    examples: Sequence[str],
) -> argparse.ArgumentParser:
    """The parser of one action (named after its function, ``_build`` -> ``build``), its
    ``--help`` ending with ``examples``."""
    parser = subparsers.add_parser(
        action.__name__.lstrip("_"),
        help=help,
        description=description,
        epilog=examples_epilog(examples),
        formatter_class=HelpFormatter,
        parents=[verbosity_options()],
    )
    parser.set_defaults(_action=action)
    return parser


def _add_index(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("index", metavar="INDEX", help="a saved index (.parquet)")


def _add_build(subparsers: argparse._SubParsersAction) -> None:
    parser = _subcommand(
        subparsers,
        _build,
        help="index a caption corpus into INDEX.parquet",
        description="Index the (attribute, object) bindings and (subject, relation, object) "
        "triples of a caption corpus into a Parquet file that --reference accepts.",
        examples=(
            "bindsplit reference build captions.txt --out my_index.parquet",
            "bindsplit reference build coco2017 --out coco.parquet --num-workers 2",
            "bindsplit reference build 'laion/*.parquet' --engine ray --out laion.parquet --resume",
        ),
    )
    parser.add_argument("source", metavar="SOURCE", help=f"the corpus: {ACCEPTED_FORMS}")
    parser.add_argument(
        "--out", required=True, metavar="INDEX.parquet", help="the index file to write"
    )
    parser.add_argument(
        "--caption-column",
        metavar="COL",
        help="caption column of Parquet shards or a Hub dataset (default: caption)",
    )
    parser.add_argument(
        "--engine",
        choices=list(ENGINES),
        default="local",
        help="local: worker processes on this machine; ray: Ray actors on a local Ray instance "
        "or the cluster at --ray-address (same result; default: local)",
    )
    parser.add_argument(
        "--num-workers",
        type=positive_int,
        metavar="N",
        help="worker processes (local) or CPUs (ray) to use (default: every CPU)",
    )
    parser.add_argument(
        "--min-count",
        type=positive_int,
        default=1,
        metavar="N",
        help="a binding is seen when it occurs in at least N captions (default: 1)",
    )
    parser.add_argument(
        "--ray-address",
        metavar="ADDR",
        help="Ray cluster to run on (e.g. ray://head:10001 or auto; needs --engine ray)",
    )
    parser.add_argument("--overwrite", action="store_true", help="replace an existing --out file")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue a build of the same Parquet shards that was interrupted (killed, "
        "preempted, Ctrl-C), skipping the shards it finished; the result equals an "
        "uninterrupted build",
    )


def _add_info(subparsers: argparse._SubParsersAction) -> None:
    parser = _subcommand(
        subparsers,
        _info,
        help="print an index's fingerprint, counts and most common bindings and triples",
        description="Print a saved index's fingerprint, caption, binding and triple counts and "
        "its most common bindings and relation triples.",
        examples=(
            "bindsplit reference info my_index.parquet",
            "bindsplit reference info my_index.parquet --top 50",
        ),
    )
    _add_index(parser)
    parser.add_argument(
        "--top",
        type=positive_int,
        default=10,
        metavar="N",
        help="how many of the most common bindings (and triples) to list (default: 10)",
    )


def _add_lookup(subparsers: argparse._SubParsersAction) -> None:
    parser = _subcommand(
        subparsers,
        _lookup,
        help="print each binding and relation triple of a caption with its count and seen/unseen",
        description="Parse captions and print each (attribute, object) binding and each "
        "(subject, relation, object) triple with its count in the index and whether it is seen "
        "(count >= min_count); an index built without triples says so.",
        examples=(
            'bindsplit reference lookup my_index.parquet "a red apple and a ceramic mug"',
            'bindsplit reference lookup coco.parquet "a blue dog" "a dog on a blue sofa"',
        ),
    )
    _add_index(parser)
    parser.add_argument("captions", metavar="CAPTION", nargs="+", help="caption(s) to look up")
    parser.add_argument(
        "--min-count",
        type=positive_int,
        metavar="N",
        help="seen threshold to apply (default: the index's own)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    subparsers = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    _add_build(subparsers)
    _add_info(subparsers)
    _add_lookup(subparsers)


def run(args: argparse.Namespace) -> int:
    return int(args._action(args))


def work_folder(out: Path) -> Path:
    """Where a build of ``out`` keeps its checkpoints until it succeeds (for ``--resume``): a
    hidden sibling, named by a digest of ``out``'s name where that name is too long to extend."""
    name = out.name
    if len(name.encode("utf-8")) > 200:
        name = hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]
    return out.parent / f".{name}.build"


def _build(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.suffix.lower() != ".parquet":
        raise BindsplitValueError(
            f"--out {out} must end in .parquet, the suffix --reference recognises"
        )
    check_output(out, INDEX_OUTPUT, overwrite=args.overwrite)  # before any work
    index = resolve_reference(
        args.source,
        min_count=args.min_count,
        caption_column=args.caption_column,
        engine=args.engine,
        num_proc=args.num_workers,
        ray_address=args.ray_address,
        progress=True,
        work_dir=work_folder(out),
        resume=args.resume,
    )
    index.save(out)
    print(
        f"wrote {out}: {len(index):,} distinct bindings and {index.n_relations:,} distinct "
        f"relation triples from {index.n_captions:,} captions "
        f"({index.n_skipped:,} skipped), min_count {index.min_count}, fingerprint "
        f"{index.fingerprint['digest']}"
    )
    return 0


def _info(args: argparse.Namespace) -> int:
    index = ReferenceIndex.load(args.index)
    fingerprint = index.fingerprint
    seen = sum(count >= index.min_count for _, count in index.items())
    print(f"index: {args.index}")
    print(f"fingerprint: {fingerprint['digest']}")
    print(json.dumps(fingerprint, indent=2, sort_keys=True))
    if index.build:
        n = index.build.get("num_proc")
        workers = "every CPU" if n is None else f"{n} worker{'s' if n != 1 else ''}"
        print(f"built with: the {index.build.get('engine')} engine, {workers}")
    print(
        f"captions: {index.n_captions:,} ({index.n_skipped:,} skipped; "
        f"{index.n_caption_digests:,} distinct)"
    )
    print(f"distinct bindings: {len(index):,} ({seen:,} seen at min_count {index.min_count})")
    print(f"most common bindings (top {args.top}):")
    rows = [(f"{n:,}", b.attribute, b.object) for b, n in index.most_common(args.top)]
    print(render_table(("count", "attribute", "object"), rows, align=(">", "<", "<")))
    if not index.has_relations:
        print("relation triples: none counted (attribute builds only; rebuild for relations)")
        return 0
    print(f"distinct relation triples: {index.n_relations:,}")
    print(f"most common relation triples (top {args.top}):")
    triples = [(f"{n:,}", *astuple(t)) for t, n in index.most_common_relations(args.top)]
    header = ("count", "subject", "relation", "object")
    print(render_table(header, triples, align=(">", "<", "<", "<")))
    return 0


def _lookup(args: argparse.Namespace) -> int:
    index = ReferenceIndex.load(args.index)
    if args.min_count is not None:
        index = index.with_min_count(args.min_count)
    print(
        f"reference {index.fingerprint['digest']} ({index.n_captions:,} captions), "
        f"min_count {index.min_count}"
    )
    if not index.has_relations:
        print(
            "relation triples: none in this index (it counts bindings only); rebuild it from its "
            "corpus with `bindsplit reference build` to look triples up"
        )
    for caption in args.captions:
        verbatim = "yes" if index.contains_caption(caption) else "no"
        print(f"\ncaption: {caption!r} (verbatim in the reference: {verbatim})")
        bindings, triples = parse_bindings_and_relations(caption)
        _print_units(
            ("attribute", "object"),
            [(astuple(b), index.count(b), index.seen(b)) for b in bindings],
            "no attribute-object binding found",
        )
        if index.has_relations:
            _print_units(
                ("subject", "relation", "object"),
                [(astuple(t), index.relation_count(t), index.seen_relation(t)) for t in triples],
                "no relation triple found",
            )
    return 0


def _print_units(
    names: tuple[str, ...], units: Sequence[tuple[tuple[str, ...], int, bool]], none: str
) -> None:
    """A table of a caption's units (bindings or triples: their ``names`` fields, count and
    seen/unseen), or the line ``none`` where it has none."""
    if not units:
        print(none)
        return
    rows = [(*fields, f"{count:,}", "seen" if seen else "unseen") for fields, count, seen in units]
    left: list[Align] = ["<"] * len(names)
    align: list[Align] = [*left, ">", "<"]
    print(render_table((*names, "count", "status"), rows, align=align))
