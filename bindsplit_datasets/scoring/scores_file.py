"""The per-sample scores file: a public format that any framework can write (no torch needed).

A scores file is Parquet with one row per sample of a build's ``full`` configuration:

- ``id`` (string, required): the sample's id in the build (its source id; the ``samples.id`` of
  a results record);
- ``scores`` (list of lists of floats, required): the ``images x captions`` matrix,
  ``scores[i][j]`` = image ``i`` against caption ``j`` in the order of the build's image and
  caption columns; higher means a better match (any monotone score: a similarity, a logit, a
  probability);
- ``sample`` (int64), ``bindsplit_label``, ``category``, ``macro_group`` (strings) and
  ``balanced`` (bool): what the build says, written by ``--save-scores`` so the file can be read
  alone (:func:`read_scores`); ignored on import.

``bindsplit eval --save-scores`` writes every column and tags the file (key-value metadata
``bindsplit_format`` = :data:`~bindsplit_datasets.names.SCORES_FORMAT`); ``bindsplit eval
--scores FILE`` needs only ``id`` and ``scores``: labels, categories, ``balanced`` and the
pairing always come from the build. :func:`align_scores` checks an imported file against the
build: every id of the build present exactly once, no unknown id, each matrix of the sample's
shape, every value finite; each refusal is one line naming the sample. ``--save-scores`` also
records the build's fingerprint (metadata ``bindsplit_build_fingerprint``, optional in the
format); :func:`check_scores_fingerprint` refuses a file made for another build, and warns
about a file without one (another tool's, or one whose metadata was stripped: its ids may name
another build's samples, which nothing can tell). A build with
hard positives (``columns.hard_positive``: caption columns after the positives) adds their number
as metadata ``bindsplit_hard_positives``, so :func:`read_scores` recomputes the metric with them
(on import they come from the build). Scores are kept in float64 (as precise as given: two
scores 1e-9 apart are not a tie).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..atomic import atomic_file
from ..errors import BindsplitValueError, ScoresFileError
from ..input_files import check_input_file
from ..names import SCORES_FORMAT

__all__ = [
    "FORMAT_KEY",
    "align_scores",
    "check_scores_fingerprint",
    "is_scores_file",
    "read_imported_scores",
    "read_scores",
    "warn_untagged",
    "write_scores",
]

#: Parquet key-value metadata key holding the format tag of a file ``--save-scores`` wrote.
FORMAT_KEY = b"bindsplit_format"
#: Parquet key-value metadata key holding the fingerprint of the build the scores were made for
#: (optional: written by ``--save-scores``; an imported file that has it must match the build).
FINGERPRINT_KEY = b"bindsplit_build_fingerprint"
#: Parquet key-value metadata key holding each sample's number of hard positives (the caption
#: columns after the positives); only in files of builds that have them.
HARD_POSITIVES_KEY = b"bindsplit_hard_positives"

logger = logging.getLogger(__name__)
#: Ids named at most in one error line.
_NAMED = 3

_SCORES_SCHEMA = pa.schema(
    [
        ("sample", pa.int64()),
        ("id", pa.string()),
        ("bindsplit_label", pa.string()),
        ("category", pa.string()),
        ("macro_group", pa.string()),
        ("balanced", pa.bool_()),
        ("scores", pa.list_(pa.list_(pa.float64()))),
    ],
    metadata={FORMAT_KEY: SCORES_FORMAT.encode()},
)
#: Columns an imported scores file must have.
REQUIRED_COLUMNS = ("id", "scores")


def write_scores(
    path: str | Path,
    scores: np.ndarray | Sequence[Sequence[Sequence[float]]],
    splits: Sequence[str],
    categories: Sequence[str | None] | None = None,
    macro_groups: Sequence[str | None] | None = None,
    *,
    ids: Sequence[str],
    balanced: Sequence[bool] | None = None,
    fingerprint: str | None = None,
    hard_positives: int = 0,
) -> Path:
    """Write per-sample matrices, ids and labels as a scores file (module docstring).

    ``ids``: each sample's stable id in the build (its source id, or its row in ``full``), so
    the scores can be joined back to the rows and imported again (``bindsplit eval --scores``).
    ``fingerprint``: the build's fingerprint, kept in the file's metadata so that an import into
    another build (same ids, other images or labels) is refused. ``hard_positives``: how many
    caption columns after the positives are hard positives (the build's
    ``columns.hard_positive``); kept in the metadata when not 0.
    """
    path = Path(path)
    n = len(splits)
    matrices = [np.asarray(matrix, dtype=np.float64).tolist() for matrix in scores]
    if len(matrices) != n or len(ids) != n:
        raise BindsplitValueError(
            f"{len(matrices)} score matrices and {len(ids)} ids for {n} split labels."
        )
    table = pa.table(
        {
            "sample": list(range(n)),
            "id": [str(i) for i in ids],
            "bindsplit_label": list(splits),
            "category": list(categories) if categories is not None else [None] * n,
            "macro_group": list(macro_groups) if macro_groups is not None else [None] * n,
            "balanced": list(balanced) if balanced is not None else [None] * n,
            "scores": matrices,
        },
        schema=_SCORES_SCHEMA,
    )
    metadata = dict(table.schema.metadata or {})
    if fingerprint is not None:
        metadata[FINGERPRINT_KEY] = str(fingerprint).encode()
    if hard_positives:
        metadata[HARD_POSITIVES_KEY] = str(int(hard_positives)).encode()
    table = table.replace_schema_metadata(metadata)
    with atomic_file(path) as temporary:
        pq.write_table(table, temporary)
    return path


def is_scores_file(path: str | Path) -> bool:
    """Whether ``path`` is a scores file ``--save-scores`` wrote (so it may be replaced)."""
    check_input_file(path, "scores file")
    try:
        metadata = pq.read_schema(path).metadata or {}
    except (OSError, pa.ArrowException):
        return False
    return metadata.get(FORMAT_KEY) == SCORES_FORMAT.encode()


def read_scores(path: str | Path) -> dict[str, list[Any]]:
    """The metric's keyword arguments ``accumulate(scores, splits, categories, macro_groups,
    balanced, hard_positives)`` from a scores file ``--save-scores`` wrote (its own labels: the
    metric is recomputed without the build)."""
    if not is_scores_file(path):
        raise ScoresFileError(
            f"{path} is not a scores file written by `bindsplit eval --save-scores` (no "
            f"{SCORES_FORMAT} tag); import other score files with `bindsplit eval --scores`."
        )
    table = pq.read_table(path).sort_by("sample")
    arguments = {
        "scores": table.column("scores").to_pylist(),
        "splits": table.column("bindsplit_label").to_pylist(),
        "categories": table.column("category").to_pylist(),
        "macro_groups": table.column("macro_group").to_pylist(),
    }
    if table.column("balanced").null_count < len(table):
        arguments["balanced"] = table.column("balanced").to_pylist()
    hard = (table.schema.metadata or {}).get(HARD_POSITIVES_KEY)
    if hard is not None:
        arguments["hard_positives"] = [int(hard)] * len(table)
    return arguments


def read_imported_scores(path: str | Path) -> dict[str, Any]:
    """The ``{id: matrix}`` of any scores file (only ``id`` and ``scores`` are read).

    Raises :class:`ScoresFileError` for a file that is not Parquet, lacks a required column, or
    repeats an id (naming the first few)."""
    path = check_input_file(path, "scores file")
    try:
        names = pq.read_schema(path).names
    except FileNotFoundError:
        raise ScoresFileError(f"scores file not found: {path}") from None
    except (OSError, pa.ArrowException) as error:
        raise ScoresFileError(
            f"{path} is not a Parquet scores file ({error}); write one row per sample with "
            "columns id and scores (docs/protocol.md, the scores file)."
        ) from None
    missing = [name for name in REQUIRED_COLUMNS if name not in names]
    if missing:
        raise ScoresFileError(
            f"{path} has no column(s) {missing}; a scores file needs id (the build's sample "
            "ids) and scores (one images x captions matrix per sample)."
        )
    table = pq.read_table(path, columns=list(REQUIRED_COLUMNS))
    ids = [None if value is None else str(value) for value in table.column("id").to_pylist()]
    matrices = table.column("scores").to_pylist()
    by_id: dict[str, Any] = {}
    repeated = []
    for sample, matrix in zip(ids, matrices, strict=True):
        if sample is None:
            raise ScoresFileError(f"{path} has a row without an id; every row needs its sample id.")
        if sample in by_id:
            repeated.append(sample)
        by_id[sample] = matrix
    if repeated:
        raise ScoresFileError(
            f"{path} holds sample {_first(repeated)} more than once; each sample's scores must "
            "appear exactly once."
        )
    return by_id


def check_scores_fingerprint(path: str | Path, fingerprint: str | None) -> bool:
    """Refuse the scores file ``path`` when it records the fingerprint of another build than
    ``fingerprint`` (the build it is imported into); whether it records one. A file without one
    is accepted (the tag is optional: other tools write scores files too); once its scores are
    imported, :func:`warn_untagged` says it could not be checked."""
    try:
        metadata = pq.read_schema(path).metadata or {}
    except (OSError, pa.ArrowException):
        return False  # read_imported_scores has refused it already
    stored = metadata.get(FINGERPRINT_KEY)
    if stored is None:
        return False
    if fingerprint is None or stored.decode(errors="replace") == fingerprint:
        return True
    raise ScoresFileError(
        f"{path} holds scores made for the build with fingerprint "
        f"{stored.decode(errors='replace')}, not for this build ({fingerprint}): the same ids "
        "may name other images or labels; score this build, or import the scores into the "
        "build they were made for."
    )


def warn_untagged(path: str | Path) -> None:
    """Warn that the imported scores file ``path`` records no build fingerprint, so nothing
    told whether it scored this build or another one with the same sample ids."""
    logger.warning(
        "%s records no build fingerprint (%s): nothing tells whether it scored this build or "
        "another one with the same sample ids; it was imported as this build's. Make sure it "
        "was made for this build (`bindsplit eval --save-scores` records it)",
        Path(path).name,
        FINGERPRINT_KEY.decode(),
    )


def _first(ids: Sequence[str]) -> str:
    named = ", ".join(repr(i) for i in list(ids)[:_NAMED])
    more = f" and {len(ids) - _NAMED} more" if len(ids) > _NAMED else ""
    return f"{named}{more}"


def align_scores(
    scores: Mapping[str, Any], ids: Sequence[str], shape: tuple[int, int], source: str
) -> np.ndarray:
    """The ``(n_samples, images, captions)`` array of ``scores`` (by id) in the order of ``ids``.

    Raises :class:`ScoresFileError`, one line naming the sample(s), unless every id appears,
    none is unknown, each matrix has ``shape`` and every value is finite.

    >>> align_scores({"b": [[0.5, 0.25]], "a": [[1, 0]]}, ["a", "b"], (1, 2), "s").tolist()
    [[[1.0, 0.0]], [[0.5, 0.25]]]
    """
    missing = [i for i in ids if i not in scores]
    if missing:
        raise ScoresFileError(
            f"{source} has no scores for sample {_first(missing)} ({len(missing)} of "
            f"{len(ids)} missing); score every sample of the build's full configuration."
        )
    known = set(ids)
    unknown = [i for i in scores if i not in known]
    if unknown:
        raise ScoresFileError(
            f"{source} holds sample id {_first(unknown)} that the build does not have "
            f"({len(unknown)} unknown); the ids must be the build's own (its id column)."
        )
    result = np.empty((len(ids), *shape), dtype=np.float64)  # compared as given
    for n, sample in enumerate(ids):
        matrix = _matrix(scores[sample])
        if matrix is None or matrix.shape != shape:
            found = "not a matrix" if matrix is None else "x".join(map(str, matrix.shape))
            raise ScoresFileError(
                f"{source}: sample {sample!r} has a {found} score matrix; it must be "
                f"{shape[0]}x{shape[1]} (images x captions)."
            )
        if not np.isfinite(matrix).all():
            raise ScoresFileError(
                f"{source}: sample {sample!r} has a score that is not finite (NaN or "
                "infinite); every score must be a finite number."
            )
        result[n] = matrix
    return result


def _matrix(value: Any) -> np.ndarray | None:
    """``value`` as a 2-D float64 array, or ``None`` when it is not a rectangular matrix of
    numbers."""
    try:
        array = np.asarray(
            [[math.nan if v is None else v for v in row] for row in value], dtype=np.float64
        )
    except (TypeError, ValueError):
        return None
    return array if array.ndim == 2 else None
