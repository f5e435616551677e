"""The tagger's shipped weights: their file, how it is read and checked, and how it is made.

The pretrained weights of NLTK's ``averaged_perceptron_tagger_eng`` (MIT; a port of Matthew
Honnibal's textblob-aptagger; see ``parsing/data/NOTICE``) ship inside the package in a compact
file, :data:`WEIGHTS_FILE`, whose SHA-256 is :data:`WEIGHTS_SHA256` (checked on load, and part of
the parser version); :mod:`.tagger` tags with them. Nothing here imports NLTK or reads NLTK data
at run time.

The file is a NumPy ``.npz`` archive of plain arrays (no pickles):

``tags``
    the 45 Penn Treebank tags, in descending order (see :class:`.tagger.MatrixPerceptronTagger`);
``features``
    the feature strings, UTF-8, joined by newlines (row ``i`` of the weight matrix is feature
    ``i``);
``indptr``, ``columns``, ``milli``
    the weights in compressed sparse rows: row ``i``'s non-zero weights are
    ``milli[indptr[i]:indptr[i + 1]] / 1000`` in the tag columns ``columns[indptr[i]:...]``.
    NLTK rounds every averaged weight to three decimals, so thousandths are exact: ``k / 1000``
    and the parse of the decimal text are both the double nearest to the same rational number;
``tagdict_words``, ``tagdict_tags``
    the words NLTK tags by look-up (UTF-8, newline-joined) and their tags' indices in ``tags``.

Developers regenerate it from the JSON files NLTK (>= 3.9) reads, without NLTK itself::

    python -m bindsplit_datasets.parsing.tagger_weights --export SRC_DIR OUT.npz

(``SRC_DIR`` is ``taggers/averaged_perceptron_tagger_eng`` of an NLTK data folder); the export
refuses weights that thousandths cannot represent exactly. Replacing the shipped file means
updating :data:`WEIGHTS_SHA256`; the file's content is part of ``PARSER_VERSION``.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import logging
import sys
import zipfile
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ..atomic import atomic_file
from .shipped import read_shipped

__all__ = [
    "SCALE",
    "SOURCE_RESOURCE",
    "WEIGHTS_FILE",
    "WEIGHTS_SHA256",
    "export_nltk_model",
    "load_arrays",
    "shipped_arrays",
    "split_strings",
]

logger = logging.getLogger(__name__)

#: NLTK data package the shipped weights come from.
SOURCE_RESOURCE = "averaged_perceptron_tagger_eng"
#: The shipped weights, in the package folder ``parsing/data``.
WEIGHTS_FILE = f"{SOURCE_RESOURCE}.npz"
#: SHA-256 of :data:`WEIGHTS_FILE`; a different file is refused (the parse would change).
WEIGHTS_SHA256 = "dd665a62eeebe96c40eddba319f1392d410e8a2c1fd62ad6207661fbf0053ae5"

_DATA_FOLDER = "data"
_ARRAYS = ("tags", "features", "indptr", "columns", "milli", "tagdict_words", "tagdict_tags")
#: The weights are stored in thousandths (NLTK rounds them to three decimals).
SCALE = 1000


def _weights_path() -> Any:
    return resources.files(__package__) / _DATA_FOLDER / WEIGHTS_FILE


def _join(strings: Sequence[str]) -> Any:
    import numpy as np

    return np.frombuffer("\n".join(strings).encode("utf-8"), dtype=np.uint8)


def split_strings(blob: Any) -> list[str]:
    """The strings of a newline-joined UTF-8 array (``features``, ``tagdict_words``)."""
    return bytes(blob).decode("utf-8").split("\n")


def load_arrays(data: bytes) -> dict[str, Any]:
    """The arrays of a weights file's bytes (see the module docstring for their meaning)."""
    import numpy as np

    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        return {name: archive[name] for name in _ARRAYS}


def _read_shipped() -> bytes:
    return read_shipped(_weights_path(), f"the tagger weights {WEIGHTS_FILE}", WEIGHTS_SHA256)


def shipped_arrays() -> dict[str, Any]:
    """The arrays of the shipped weights (raises
    :class:`~bindsplit_datasets.errors.PackageDataError` when the file is missing or altered)."""
    return load_arrays(_read_shipped())


# --- developer tool: NLTK's JSON model -> the shipped file -----------------------------------


def _arrays_from_json(source: Path) -> dict[str, Any]:
    """The shipped arrays of NLTK's JSON model files in ``source`` (exactness checked)."""
    import numpy as np

    def read(part: str) -> Any:
        return json.loads((source / f"{SOURCE_RESOURCE}.{part}.json").read_text(encoding="utf-8"))

    weights: dict[str, dict[str, float]] = read("weights")
    tagdict: dict[str, str] = read("tagdict")
    tags = sorted(read("classes"), reverse=True)
    column = {tag: i for i, tag in enumerate(tags)}
    strings = [*weights, *tagdict]
    if any("\n" in text for text in strings) or len(tags) > 255:
        raise ValueError(f"{source}: a feature or word contains a newline, or too many tags")
    indptr, columns, values = [0], [], []
    for per_tag in weights.values():
        for tag, weight in per_tag.items():
            columns.append(column[tag])
            values.append(weight)
        indptr.append(len(values))
    exact = np.asarray(values, dtype=np.float64)
    milli = np.rint(exact * SCALE).astype(np.int32)
    if not np.array_equal(milli / SCALE, exact):
        raise ValueError(f"{source}: weights with more than 3 decimals cannot be stored exactly")
    return {
        "tags": np.asarray(tags),
        "features": _join(list(weights)),
        "indptr": np.asarray(indptr, dtype=np.int32),
        "columns": np.asarray(columns, dtype=np.uint8),
        "milli": milli,
        "tagdict_words": _join(list(tagdict)),
        "tagdict_tags": np.asarray([column[tag] for tag in tagdict.values()], dtype=np.uint8),
    }


def export_nltk_model(source: str | Path, out: str | Path) -> str:
    """Write the compact weights file ``out`` from the JSON files of NLTK's
    ``averaged_perceptron_tagger_eng`` folder ``source``; returns its SHA-256.

    Deterministic: fixed member order and timestamps, so a given zlib gives identical bytes.
    """
    import numpy as np

    arrays = _arrays_from_json(Path(source))
    with atomic_file(out) as temporary:
        with zipfile.ZipFile(temporary, "w") as archive:
            for name in _ARRAYS:
                buffer = io.BytesIO()
                np.lib.format.write_array(buffer, arrays[name], allow_pickle=False)
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                archive.writestr(
                    info, buffer.getvalue(), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9
                )
        temporary.chmod(0o644)
        digest = hashlib.sha256(temporary.read_bytes()).hexdigest()
    logger.info("wrote %s (sha256 %s)", out, digest)
    return digest


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bindsplit_datasets.parsing.tagger_weights",
        description="Developer tool: convert NLTK's averaged_perceptron_tagger_eng JSON files "
        "into the compact weights file shipped in bindsplit_datasets/parsing/data.",
    )
    parser.add_argument(
        "--export",
        nargs=2,
        metavar=("SRC_DIR", "OUT"),
        required=True,
        help="folder with the three averaged_perceptron_tagger_eng.*.json files; output .npz",
    )
    args = parser.parse_args(argv)
    digest = export_nltk_model(*args.export)
    print(f"{args.export[1]}: sha256 {digest}")
    if digest != WEIGHTS_SHA256:
        print("  (differs from the shipped WEIGHTS_SHA256: update it to ship this file)")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
