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

Results records do not carry their build's source: a record is of the canonical build when it
was evaluated on the published dataset itself (``dataset.data`` is ``bindsplit/<benchmark>``);
otherwise its reference is checked and its source cannot be.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import BindsplitValueError
from ..names import HUB_ORG, hub_dataset_id

__all__ = ["PAPER_CORPUS", "build_problems", "check_build", "check_records", "record_problems"]

#: The corpus name and ``min_count`` of the paper's reference (COCO train2017 captions).
PAPER_CORPUS: tuple[str, int] = ("coco2017", 1)
#: Benchmarks whose canonical build is labelled against their own corpus, not COCO (the
#: synthetic world's training captions).
OWN_REFERENCE: frozenset[str] = frozenset({"synthetic"})


def _reference_problem(benchmark: str, reference: Any, min_count: Any) -> str | None:
    if benchmark in OWN_REFERENCE:
        return None
    corpus = (reference or {}).get("corpus") if isinstance(reference, Mapping) else None
    name = (corpus or {}).get("name") if isinstance(corpus, Mapping) else None
    if name != PAPER_CORPUS[0]:
        return f"its reference is {name or 'unnamed'}, not COCO train2017 ({PAPER_CORPUS[0]})"
    if min_count is not None and min_count != PAPER_CORPUS[1]:
        return f"it counts a binding seen from {min_count} captions, not {PAPER_CORPUS[1]}"
    return None


def _canonical_source(benchmark: str) -> str | None:
    from ..benchmarks import get_benchmark

    try:
        return get_benchmark(benchmark).hub_id
    except (KeyError, ValueError, BindsplitValueError):
        return None


def build_problems(manifest: Mapping[str, Any]) -> list[str]:
    """Why a build (its manifest) is not the canonical build of its benchmark; empty if it is."""
    benchmark = str(manifest.get("benchmark"))
    problems = []
    reference = _reference_problem(benchmark, manifest.get("reference"), manifest.get("min_count"))
    if reference:
        problems.append(reference)
    canonical = _canonical_source(benchmark)
    source = manifest.get("source") or {}
    if canonical is not None and source.get("hub_id") != canonical:
        where = source.get("hub_id") or source.get("path") or "local files"
        problems.append(f"its rows were read from {where}, not from {canonical}")
    return problems


def record_problems(record: Mapping[str, Any]) -> list[str]:
    """Why a results record is not of the canonical build of its benchmark; empty if it is."""
    dataset = record["dataset"]
    benchmark = str(dataset["benchmark"])
    if dataset.get("data") == hub_dataset_id(benchmark):
        return []
    reference = dataset.get("reference") or {}
    problems = []
    problem = _reference_problem(benchmark, reference, reference.get("min_count"))
    if problem:
        problems.append(problem)
    if _canonical_source(benchmark) is not None:
        problems.append(
            f"it was evaluated on {dataset.get('data') or 'a local build'}, not on the published "
            f"{hub_dataset_id(benchmark)}, so its source cannot be checked"
        )
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
