"""Identifiers shared across BindSplit, defined once: configuration names, sample labels, file
and format tags, Hub names (and the Hub's ``size_categories`` bucket of a dataset card), and the
paper's citation.

Importable from anywhere in the package (it imports nothing of it). The metric folder
``metrics/bindsplit`` is self-contained for publishing and restates the labels and configurations;
a test checks that both agree.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

__all__ = [
    "BINDING_KINDS",
    "BUILD_FORMAT",
    "DEFAULT_BINDING_KIND",
    "CHECKPOINT_FORMAT",
    "CONFIGURATIONS",
    "CONFIGURATION_MEANINGS",
    "DEMO_FORMAT",
    "HALFTRUTH",
    "HUB_ORG",
    "HUB_NAMES",
    "LEADERBOARD_SPACE_NAME",
    "METRIC_LABELS",
    "METRIC_SPACE_NAME",
    "MANIFEST_NAME",
    "MAX_CAPTION_CHARS",
    "INSTALL_COMMAND",
    "PAPER_CITATION",
    "PAPER_URL",
    "REPOSITORY_URL",
    "REFERENCE_FORMAT",
    "REFERENCE_OPTION",
    "REFERENCE_FORMAT_V2",
    "RESULTS_DATASET_NAME",
    "RESULTS_FORMAT",
    "RESULTS_TABLE_FORMAT",
    "SCORES_FORMAT",
    "SPLIT_LABELS",
    "WORLD_FORMAT",
    "TRAINSET_FORMAT",
    "hub_dataset_id",
    "install_command",
    "is_hub_id",
    "is_path_name",
    "label_name",
    "leaderboard_space_id",
    "metric_space_id",
    "results_dataset_id",
    "size_category",
]

#: Every label a sample can carry (``none``: no binding found in any caption).
SPLIT_LABELS: tuple[str, ...] = ("seen", "unseen", "partial", "none")


def label_name(value: int | str) -> str:
    """A sample's ``bindsplit_label`` as its name: rows read from a build hold the class index
    into :data:`SPLIT_LABELS` (the column is a ``datasets.ClassLabel`` of these names),
    annotations made in memory the name.

    >>> label_name(1), label_name("unseen")
    ('unseen', 'unseen')
    """
    if isinstance(value, str):
        return value
    if not 0 <= value < len(SPLIT_LABELS):
        raise ValueError(f"bindsplit_label {value} is not an index of {SPLIT_LABELS}")
    return SPLIT_LABELS[value]


#: How each metric (``i2t``, ``t2i``, ``group``; with hard positives ``i2t_original`` and
#: ``i2t_drop``; a half-truth build's ``acc_ht``, ``delta``, ``ref_acc``) is written in tables,
#: figures, cards and ``eval.yaml``.
METRIC_LABELS: dict[str, str] = {
    "i2t": "I2T",
    "t2i": "T2I",
    "group": "group",
    "i2t_original": "I2T original",
    "i2t_drop": "I2T drop",
    "acc_ht": "AccHT",
    "delta": "Δ",
    "ref_acc": "refinement",
}

#: The half-truth benchmark (``bindsplit build halftruth``), whose records also report the
#: half-truth metrics (``metric_halftruth``).
HALFTRUTH = "halftruth"
#: The load option through which an adapter whose rows are made against the build's reference
#: (``halftruth``: each foil's familiarity decides which foils are made) receives the resolved
#: index: it names it among its ``load_options``, and the builder passes it.
REFERENCE_OPTION = "reference"

#: The longest caption BindSplit reads, in characters: a benchmark source's longer caption is a
#: bad row (dropped and counted as ``long_caption``; ``--strict`` refuses it), and ``bindsplit
#: parse`` refuses a longer line. Real captions are far shorter (COCO's and SugarCrepe's longest
#: are 240 characters); the bound keeps one hostile record from stalling a command.
MAX_CAPTION_CHARS = 2_000

#: The configurations of every built benchmark dataset, ``full`` first (the default).
#: ``seen``/``unseen``/``partial`` hold the samples with that label; ``balanced`` those whose
#: captions are equally familiar, above zero (a superset of ``seen``, disjoint from ``unseen``).
CONFIGURATIONS: tuple[str, ...] = ("full", "seen", "unseen", "partial", "balanced")

#: What a build labels by (SPEC section 1b): (attribute, object) bindings (the paper's),
#: (subject, relation, object) triples, or both together.
BINDING_KINDS: tuple[str, ...] = ("attribute", "relation", "both")
#: The binding kind of a build that names none, and of records and manifests written before
#: builds had one.
DEFAULT_BINDING_KIND = "attribute"
#: What each configuration holds, in words (dataset cards, the leaderboard's About tab).
CONFIGURATION_MEANINGS: dict[str, str] = {
    "full": "every sample of the benchmark (including `none`: no binding found)",
    "seen": "every binding of every caption is seen in the reference: no familiarity shortcut",
    "unseen": "no binding of any caption is seen in the reference: entirely novel bindings",
    "partial": "some bindings seen, some unseen",
    "balanced": "every caption with bindings is equally familiar, above zero: no familiarity "
    "shortcut (holds all of `seen`, and `partial` samples whose captions are equally familiar)",
}

#: Format tag of a built dataset folder's manifest.
BUILD_FORMAT = "bindsplit-build/2"

#: File name of a built dataset folder's manifest.
MANIFEST_NAME = "bindsplit.json"

#: Format tag of a results record written by ``bindsplit eval``.
RESULTS_FORMAT = "bindsplit-results/1"

#: Format tag of a results table (Parquet key-value metadata) written by
#: ``bindsplit export results-table`` and ``bindsplit push-results``.
RESULTS_TABLE_FORMAT = "bindsplit-results-table/1"

#: Format tag of a per-sample scores file (Parquet key-value metadata) written by
#: ``bindsplit eval --save-scores``.
SCORES_FORMAT = "bindsplit-scores/1"

#: Format tag of the manifest of a ``bindsplit demo`` output folder.
DEMO_FORMAT = "bindsplit-demo/1"

#: Format tag of a saved reference index (key-value metadata of its Parquet file); version 3
#: adds the relation triples (SPEC section 1b) beside the bindings.
REFERENCE_FORMAT = "bindsplit-reference/3"
#: The previous tag, still read: an index of bindings only (refused for relation builds).
REFERENCE_FORMAT_V2 = "bindsplit-reference/2"

#: Format tag of the description of a synthetic world (``world.json``).
WORLD_FORMAT = "bindsplit-synthetic-world/1"

#: Format tag of the manifest of a synthetic training set written by ``bindsplit synth``.
TRAINSET_FORMAT = "bindsplit-synthetic-train/1"

#: Format tag of the training report of a checkpoint written by ``bindsplit train-synthetic``.
CHECKPOINT_FORMAT = "bindsplit-checkpoint/1"

#: BibTeX of the paper that defines the protocol.
PAPER_CITATION = """@inproceedings{peng2026clip,
  title     = {{CLIP} Models Generalize Less Than Compositional Benchmarks Suggest},
  author    = {Peng, Shuman and Uselis, Arnas and Koishigarina, Darina and Ester, Martin and
               Oh, Seong Joon},
  booktitle = {ICML 2026 Workshop on Compositional Learning: Safety, Interpretability, and Agents},
  year      = {2026}
}"""

#: Where the paper is published (OpenReview).
PAPER_URL = "https://openreview.net/forum?id=C8MlQkr4bw"

#: The project's source repository (setup.cfg's ``url``).
REPOSITORY_URL = "https://github.com/bindsplit/bindsplit"


def install_command(extras: str | None = None) -> str:
    """The install line cards and docs give, with ``extras`` (``"scoring"``) if any: the package
    is not on the package index, so pip installs it from the repository (or from a wheel built
    with ``python -m build``).

    >>> install_command("scoring")
    'pip install "bindsplit-datasets[scoring] @ git+https://github.com/bindsplit/bindsplit"'
    """
    requirement = f"bindsplit-datasets[{extras}]" if extras else "bindsplit-datasets"
    return f'pip install "{requirement} @ git+{REPOSITORY_URL}"'


#: The plain install line (no extras).
INSTALL_COMMAND = install_command()


def size_category(n: int) -> str:
    """The Hub's ``size_categories`` bucket of ``n`` rows.

    >>> size_category(999), size_category(1_000), size_category(28_748)
    ('n<1K', '1K<n<10K', '10K<n<100K')
    """
    for limit, name in (
        (1_000, "n<1K"),
        (10_000, "1K<n<10K"),
        (100_000, "10K<n<100K"),
        (1_000_000, "100K<n<1M"),
    ):
        if n < limit:
            return name
    return "1M<n<10M" if n < 10_000_000 else "n>10M"


#: The Hub namespace of the canonical datasets and metric Space (``--org`` replaces it).
HUB_ORG = "bindsplit"


class _SpecHubNames(Mapping[str, str]):
    """Benchmark (registry name) -> repository name of its canonical BindSplit dataset on the
    Hub: each shipped benchmark spec's ``hub_name`` (``benchmarks/specs/<name>.yaml``, where it
    is declared once), read on first use. The spec files are read here as plain data, since this
    module imports nothing of the package (``benchmarks.spec`` reads them in full; a test checks
    that both agree)."""

    def __init__(self) -> None:
        self._names: dict[str, str] | None = None

    def _read(self) -> dict[str, str]:
        if self._names is None:
            import json

            import yaml

            names: dict[str, str] = {}
            folder = Path(__file__).parent / "benchmarks" / "specs"
            for path in sorted(folder.iterdir()):
                if path.suffix in (".yaml", ".yml", ".json"):
                    text = path.read_text(encoding="utf-8")
                    data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
                    name = str(data["name"])
                    names[name] = str(data.get("hub_name") or name.replace("_", "-"))
            self._names = names
        return self._names

    def __getitem__(self, benchmark: str) -> str:
        return self._read()[benchmark]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


#: Benchmark (registry name) -> repository name of its canonical BindSplit dataset on the Hub,
#: as the benchmark's spec declares it (``hub_name``).
HUB_NAMES: Mapping[str, str] = _SpecHubNames()

#: Repository name of the metric Space.
METRIC_SPACE_NAME = "bindsplit"

#: Repository name of the leaderboard Space.
LEADERBOARD_SPACE_NAME = "leaderboard"

#: Repository name of the results dataset the leaderboard Space reads by default.
RESULTS_DATASET_NAME = "bindsplit-results"

#: A Hub repository id: ``name`` or ``owner/name``, starting with a letter or digit, of word
#: characters, dots and hyphens.
_HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]*(/[\w.-]+)?")


def is_hub_id(text: str, *, require_org: bool = True) -> bool:
    """Whether ``text`` has the form of a Hub repository id: ``owner/name``, or also a bare
    ``name`` (a model the Hub keeps without an owner, such as ``gpt2``) unless ``require_org``.
    The one rule by which BindSplit tells a Hub id from a local path that does not exist; it
    checks the form only, not that the repository exists.

    >>> is_hub_id("bindsplit/aro"), is_hub_id("gpt2"), is_hub_id("gpt2", require_org=False)
    (True, False, True)
    >>> is_hub_id("./builds/aro"), is_hub_id("a/b/c"), is_hub_id("my lab/aro")
    (False, False, False)
    """
    match = _HUB_ID.fullmatch(text)
    return match is not None and (match.group(1) is not None or not require_org)


#: A name that becomes part of a path (a benchmark, a configuration): one path component of
#: letters, digits, ``_``, ``.`` and ``-``, not starting with a dot.
_PATH_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")


def is_path_name(text: object) -> bool:
    """Whether ``text`` may become part of a file or folder name (a benchmark, a configuration):
    a single path component, never ``..``, a separator or an absolute path. The one rule every
    name read from a record, a table or a manifest is checked by before it names a file.

    >>> is_path_name("aro_vga"), is_path_name("_test_bivlc_like"), is_path_name("full")
    (True, True, True)
    >>> is_path_name("../../../escaped"), is_path_name("a/b"), is_path_name(".."), is_path_name("")
    (False, False, False, False)
    """
    return isinstance(text, str) and _PATH_NAME.fullmatch(text) is not None


def hub_dataset_id(benchmark: str, org: str | None = None) -> str:
    """The Hub id of ``benchmark``'s BindSplit dataset: ``bindsplit/aro`` for ``aro_vga``.

    >>> hub_dataset_id("aro_vga"), hub_dataset_id("bivlc", org="my-lab")
    ('bindsplit/aro', 'my-lab/bivlc')
    """
    name = HUB_NAMES.get(benchmark, benchmark.replace("_", "-"))
    return f"{org or HUB_ORG}/{name}"


def metric_space_id(org: str | None = None) -> str:
    """The Hub id of the metric Space: ``bindsplit/bindsplit`` unless ``org`` replaces it."""
    return f"{org or HUB_ORG}/{METRIC_SPACE_NAME}"


def leaderboard_space_id(org: str | None = None) -> str:
    """The Hub id of the leaderboard Space: ``bindsplit/leaderboard`` unless ``org`` replaces
    it."""
    return f"{org or HUB_ORG}/{LEADERBOARD_SPACE_NAME}"


def results_dataset_id(org: str | None = None) -> str:
    """The Hub id of the results dataset: ``bindsplit/bindsplit-results`` unless ``org``
    replaces it."""
    return f"{org or HUB_ORG}/{RESULTS_DATASET_NAME}"
