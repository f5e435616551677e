"""The publishing guard: only a canonical build is published or reported under a canonical name.

``bindsplit/<benchmark>`` (:func:`~bindsplit_datasets.names.hub_dataset_id`) names the canonical
build of a benchmark: labelled against the paper's reference (COCO train2017 captions,
``min_count`` 1; :func:`~bindsplit_datasets.builds.paper.paper_comparable`) from the
benchmark's canonical source (its adapter's ``hub_id``, read from the Hub). A build of another
reference or of local files (a fixture, a subset, a private copy) published or reported under that
name would be mistaken for it, so :func:`check_build` (``push-dataset``) and
:func:`check_records` (``export eval-results`` / ``model-index``, ``push-results`` into the
canonical namespace) refuse it unless the name was chosen explicitly (``--repo``,
``--dataset-id``) or another namespace is used (``--org``).

Canonical is a matter of content, never of names: a folder called ``bindsplit/bivlc``, a record
whose ``dataset.data`` says ``bindsplit/bivlc`` or a manifest edited to name the canonical source
and reference prove nothing. What is compared:

- a build or a record is canonical when its build fingerprint (the rows, their labels and the
  binding kind, checked against the rows by ``verify_build``) is a canonical build's:
  :func:`canonical_fingerprints`, the fingerprints listed in ``data/canonical_builds.json`` (the
  builds published as canonical) and that of the build published as ``bindsplit/<benchmark>``
  on the Hub, read from the Hub itself (never a local folder of that name);
- the synthetic benchmark's canonical build can also be told by its content from here: its
  world's fingerprint, its test set's digest (the files of the default test benchmark,
  generated deterministically) and its reference's digest (the default world's training
  corpus) must be those of the default world (:func:`synthetic_content`).

The reference and source a manifest or record names are still reported, as the reasons a build
is not canonical; they are never enough to make it one. The first publication of a new canonical
build therefore names its repository explicitly (``--repo bindsplit/<benchmark>``); its
fingerprint then counts as canonical (from the Hub, and once listed in the data file, offline).
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..errors import BindsplitError, BindsplitValueError
from ..names import HUB_ORG, hub_dataset_id

__all__ = [
    "PAPER_CORPUS",
    "build_problems",
    "canonical_fingerprints",
    "check_build",
    "check_records",
    "record_problems",
    "synthetic_content",
]

logger = logging.getLogger(__name__)

#: The corpus name and ``min_count`` of the paper's reference (COCO train2017 captions).
PAPER_CORPUS: tuple[str, int] = ("coco2017", 1)
#: Benchmarks whose canonical build is labelled against their own corpus, not COCO (the
#: synthetic world's training captions).
OWN_REFERENCE: frozenset[str] = frozenset({"synthetic"})
#: The fingerprints of the builds published as canonical, by benchmark (a data file).
CANONICAL_BUILDS = Path(__file__).resolve().parent / "data" / "canonical_builds.json"


def _reference_problem(benchmark: str, reference: Any, min_count: Any) -> str | None:
    if benchmark in OWN_REFERENCE:
        return None
    corpus = (reference or {}).get("corpus") if isinstance(reference, Mapping) else None
    corpus = corpus if isinstance(corpus, Mapping) else {}
    name = corpus.get("name") or corpus.get("file") or corpus.get("id") or corpus.get("path")
    if name != PAPER_CORPUS[0]:
        return f"its reference is {name or 'an unnamed corpus'}, not COCO train2017"
    if min_count is not None and min_count != PAPER_CORPUS[1]:
        return f"it counts a binding seen from {min_count} captions, not {PAPER_CORPUS[1]}"
    return None


def _canonical_source(benchmark: str) -> str | None:
    from ..benchmarks import get_benchmark

    try:
        return get_benchmark(benchmark).hub_id
    except (KeyError, ValueError, BindsplitValueError):
        return None


@functools.cache
def _listed_fingerprints() -> dict[str, frozenset[str]]:
    data = json.loads(CANONICAL_BUILDS.read_text(encoding="utf-8"))
    return {name: frozenset(found) for name, found in data["fingerprints"].items()}


@functools.cache
def _published_fingerprint(benchmark: str) -> str | None:
    """The fingerprint of the build published as ``bindsplit/<benchmark>``, read from the Hub
    (None when it cannot be read: offline, not published, not a build)."""
    from huggingface_hub import hf_hub_download

    from ..builds.manifest import MANIFEST_NAME, parse_manifest

    repo_id = hub_dataset_id(benchmark)
    try:
        path = hf_hub_download(repo_id, MANIFEST_NAME, repo_type="dataset")
        manifest = parse_manifest(Path(path).read_text(encoding="utf-8"), repo_id)
    except (BindsplitError, OSError, ValueError) as error:
        logger.debug("no canonical build of %s read from the Hub: %s", benchmark, error)
        return None
    fingerprint = manifest.get("fingerprint")
    return str(fingerprint) if fingerprint else None


def canonical_fingerprints(benchmark: str) -> frozenset[str]:
    """The fingerprints of ``benchmark``'s canonical builds: those listed in
    ``publish/data/canonical_builds.json`` and that of the build published as
    ``bindsplit/<benchmark>`` on the Hub, when it can be read."""
    published = _published_fingerprint(benchmark)
    listed = _listed_fingerprints().get(benchmark, frozenset())
    return listed | {published} if published else listed


@functools.cache
def synthetic_content() -> dict[str, Any]:
    """What the synthetic benchmark's canonical build is made of, computed here: the default
    world's fingerprint, the digest of its default test benchmark's files and their row count,
    and the digest of its reference index (both generated deterministically into the cache on
    first use)."""
    import pyarrow.parquet as pq

    from ..benchmarks.synthetic import default_reference_file, default_source
    from ..downloads import files_digest
    from ..reference import ReferenceIndex
    from ..synthetic import default_world

    files = sorted((default_source() / "test").rglob("*.parquet"))
    return {
        "world": default_world().fingerprint,
        "test_set": files_digest(files),
        "rows": sum(pq.ParquetFile(path).metadata.num_rows for path in files),
        "reference": ReferenceIndex.load(default_reference_file()).fingerprint["digest"],
    }


def _synthetic_problems(manifest: Mapping[str, Any]) -> list[str]:
    """Why a synthetic build is not the default world's default test benchmark labelled against
    the default world's corpus (its content, not the names it gives)."""
    canonical = synthetic_content()
    source = manifest.get("source") or {}
    reference = manifest.get("reference") or {}
    corpus = reference.get("corpus") if isinstance(reference, Mapping) else None
    corpus = corpus if isinstance(corpus, Mapping) else {}
    problems = []
    if source.get("world") != canonical["world"] or corpus.get("world") != canonical["world"]:
        problems.append("it is not of the default synthetic world")
    if source.get("sha256") != canonical["test_set"] or (
        (manifest.get("configs") or {}).get("full") != canonical["rows"]
    ):
        problems.append("its test set is not the default test benchmark")
    if reference.get("digest") != canonical["reference"]:
        problems.append("its reference is not the default world's training corpus")
    return problems


def build_problems(manifest: Mapping[str, Any]) -> list[str]:
    """Why a build (its manifest) is not the canonical build of its benchmark; empty if it is."""
    benchmark = str(manifest.get("benchmark"))
    fingerprint = manifest.get("fingerprint")
    if fingerprint and fingerprint in canonical_fingerprints(benchmark):
        return []
    if benchmark in OWN_REFERENCE:
        return _synthetic_problems(manifest)
    problems = []
    reference = _reference_problem(benchmark, manifest.get("reference"), manifest.get("min_count"))
    if reference:
        problems.append(reference)
    canonical = _canonical_source(benchmark)
    source = manifest.get("source") or {}
    if canonical is not None and source.get("hub_id") != canonical:
        where = source.get("hub_id") or source.get("path") or "local files"
        problems.append(f"its rows were read from {where}, not from {canonical}")
    problems.append(_fingerprint_problem(benchmark, fingerprint))
    return problems


def _fingerprint_problem(benchmark: str, fingerprint: Any) -> str:
    known = canonical_fingerprints(benchmark)
    which = f"fingerprint {str(fingerprint)[:12]}" if fingerprint else "no fingerprint"
    return (
        f"its build ({which}) is not the one published as {hub_dataset_id(benchmark)} "
        f"({'fingerprint ' + ', '.join(sorted(f[:12] for f in known)) if known else 'none known'})"
    )


def record_problems(record: Mapping[str, Any]) -> list[str]:
    """Why a results record is not of the canonical build of its benchmark; empty if it is."""
    dataset = record["dataset"]
    benchmark = str(dataset["benchmark"])
    fingerprint = dataset.get("fingerprint")
    if fingerprint and fingerprint in canonical_fingerprints(benchmark):
        return []
    reference = dataset.get("reference") or {}
    problems = []
    problem = _reference_problem(benchmark, reference, reference.get("min_count"))
    if problem:
        problems.append(problem)
    problems.append(_fingerprint_problem(benchmark, fingerprint))
    return problems


def check_build(manifest: Mapping[str, Any], repo_id: str) -> None:
    """Raise unless a build may be published as ``repo_id`` chosen by default: only the
    canonical build goes to its canonical repository."""
    benchmark = str(manifest.get("benchmark"))
    if repo_id != hub_dataset_id(benchmark):
        return
    problems = build_problems(manifest)
    if problems:
        raise BindsplitValueError(
            f"this build is not the canonical {repo_id} ({'; '.join(problems)}); publish it in "
            f"your namespace with --org ORG (or --repo ORG/NAME), or pass --repo {repo_id} if "
            "it really is the canonical build"
        )


def check_records(
    records: Iterable[Mapping[str, Any]], *, org: str | None, what: str, override: str
) -> None:
    """Raise unless ``records`` may be reported against the canonical dataset names
    (``org`` None or the canonical namespace): every one of a canonical build. ``what`` says
    what is being done, ``override`` the option that names the dataset explicitly."""
    if org not in (None, HUB_ORG):
        return
    for record in records:
        problems = record_problems(record)
        if problems:
            canonical = hub_dataset_id(str(record["dataset"]["benchmark"]))
            raise BindsplitValueError(
                f"{what}: the results of {record['model']['id']} are not of the canonical "
                f"{canonical} ({'; '.join(problems)}); report them against your own dataset "
                f"with {override}, or evaluate on {canonical}"
            )
