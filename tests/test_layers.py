"""The layout rules of docs/architecture.md, checked on the source.

- Every module of the package sits in one layer of the list in docs/architecture.md (the test
  reads the list from the document, so the document stays true), and imports only from its own
  layer or below.
- The library never imports the command line (``cli.py``, ``commands/``).
- No import cycle between modules, and none between folders: the folder-level arrows (a folder
  such as ``builds/`` is one node, a top-level module such as ``parquet_files.py`` another) run
  only down the layers and never back (a module of ``synthetic/`` importing ``builds/`` while
  ``builds/`` reaches ``synthetic/`` through ``benchmarks/`` is such a tie, though no module
  cycle shows it).
- No module grows past the size that usually means two concerns.

What counts as an import: every ``import``/``from ... import`` of the package, wherever it
stands. Imports inside functions count (a lazy import still runs when the function is called:
deferring it hides a cycle or an upward dependency, it does not remove it), and so do imports
under ``if TYPE_CHECKING:`` (a type annotation that names a higher layer is a dependency on it,
and a cycle through annotations is still a tangle a reader has to follow). The lazy exports of
the packages' ``__init__`` (names looked up by string on first use) mirror their
``TYPE_CHECKING`` imports and are checked through them.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bindsplit_datasets"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
#: The command line: only these may import it.
CLI = ("cli", "commands", "__main__")
#: Over this many lines a module usually holds two concerns (the metric included: the package
#: ships it as ``_metric``).
MAX_LINES = 600
#: Folders of the repository shipped inside the package under another name.
SHIPPED_AS = {"metrics/": "_metric/", "spaces/": "_spaces/"}


def _modules() -> list[Path]:
    """Every module of the package, the shipped metric and Space included (symbolic links)."""
    return sorted(
        Path(folder, name)
        for folder, _, files in os.walk(PACKAGE, followlinks=True)
        if "__pycache__" not in Path(folder).parts
        for name in files
        if name.endswith(".py")
    )


def _module_name(path: Path) -> str:
    """Dotted name relative to the package (a package's ``__init__`` is the package; the
    package's own ``__init__`` is ``""``)."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(path): path for path in _modules()}


def _resolve(dotted: list[str], modules: Iterable[str]) -> str | None:
    """The module that ``dotted`` (a module, or a name in one) names: its longest prefix that is
    a module."""
    known = set(modules)
    for end in range(len(dotted), 0 if dotted else -1, -1):
        name = ".".join(dotted[:end])
        if name in known:
            return name
    return None


def imports_of(source: str, module: str, is_package: bool, modules: Iterable[str]) -> set[str]:
    """The modules of the package that ``source`` (module ``module``) imports, anywhere in it:
    at the top, inside functions and under ``TYPE_CHECKING``."""
    modules = set(modules)
    here = module.split(".") if module else []
    package = here if is_package else here[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = [*base, *(node.module.split(".") if node.module else [])]
            elif node.module and node.module.split(".")[0] == "bindsplit_datasets":
                target = node.module.split(".")[1:]
            else:
                continue
            for alias in node.names:
                # ``from .x import name`` or ``from . import module``; ``from .. import
                # __version__`` at the top names the package itself
                name = _resolve([*target, alias.name], modules) or _resolve(target, modules)
                if name is not None:
                    found.add(name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "bindsplit_datasets":
                    name = _resolve(parts[1:], modules)
                    if name is not None:
                        found.add(name)
    found.discard(module)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports."""
    return {
        name: imports_of(
            path.read_text(encoding="utf-8"), name, path.name == "__init__.py", MODULES
        )
        for name, path in MODULES.items()
    }


def read_layers(text: str) -> dict[str, int]:
    """The layers of docs/architecture.md: module or package prefix -> layer number, from the
    numbered list after "Layers, lowest first" (``names.py`` -> ``names``, ``parsing/`` ->
    ``parsing``, ``metrics/bindsplit/`` -> ``_metric.bindsplit``, ``__init__.py`` -> ``""``)."""
    section = text.split("Layers, lowest first", 1)[1].split("\n\n", 2)[1]
    layers: dict[str, int] = {}
    number = 0
    for line in section.splitlines():
        start = re.match(r"^(\d+)\. ", line)
        if start:
            number = int(start.group(1))
        for entry in re.findall(r"`([\w/.]+)`", line):
            for folder, shipped in SHIPPED_AS.items():
                if entry.startswith(folder):
                    entry = shipped + entry.removeprefix(folder)
            name = entry.removesuffix("/").removesuffix(".py").replace("/", ".")
            layers["" if name == "__init__" else name] = number
    return layers


LAYERS = read_layers(ARCHITECTURE.read_text(encoding="utf-8"))


def layer_of(module: str, layers: Mapping[str, int]) -> int | None:
    """The layer of the longest listed prefix of ``module``."""
    if module in layers:
        return layers[module]
    parts = module.split(".")
    for end in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in layers:
            return layers[prefix]
    return None


def upward_imports(
    graph: Mapping[str, set[str]], layers: Mapping[str, int]
) -> list[tuple[str, int, str, int]]:
    """Every import of a module from a higher layer: (module, its layer, imported, its layer)."""
    found = []
    for module, targets in sorted(graph.items()):
        own = layer_of(module, layers)
        for target in sorted(targets):
            theirs = layer_of(target, layers)
            if own is not None and theirs is not None and theirs > own:
                found.append((module, own, target, theirs))
    return found


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def folder_of(module: str) -> str:
    """The folder-level node of ``module``: its top-level package (``builds.cards`` ->
    ``builds``, ``_metric.bindsplit.app`` -> ``_metric``), or the top-level module itself
    (``parquet_files``; the package's own ``__init__`` is ``""``)."""
    return module.split(".")[0]


def folder_graph(graph: Mapping[str, set[str]]) -> dict[str, set[str]]:
    """Folder -> the other folders its modules import (the folder-level arrows)."""
    folders: dict[str, set[str]] = {}
    for module, targets in graph.items():
        own = folder_of(module)
        folders.setdefault(own, set()).update(
            folder_of(target) for target in targets if folder_of(target) != own
        )
    return folders


def folder_arrows_back_up(
    graph: Mapping[str, set[str]], layers: Mapping[str, int]
) -> list[tuple[str, str, str]]:
    """Every folder-level arrow that runs back up: ``(folder, imported folder, why)``, where why
    is ``"cycle"`` (the imported folder reaches the folder back, directly or through others) or
    ``"up"`` (the folder's own layer is below the imported folder's)."""
    folders = folder_graph(graph)
    tied = {folder: component for component in cycles(folders) for folder in component}
    found = []
    for folder, targets in sorted(folders.items()):
        for target in sorted(targets):
            own, theirs = layer_of(folder, layers), layer_of(target, layers)
            if target in tied.get(folder, ()):
                found.append((folder, target, "cycle"))
            elif own is not None and theirs is not None and theirs > own:
                found.append((folder, target, "up"))
    return found


GRAPH = import_graph()


# -- the checks check something ---------------------------------------------------------------
def test_the_import_reader_sees_every_kind_of_import():
    source = (
        "from typing import TYPE_CHECKING\n"
        "import bindsplit_datasets.names\n"
        "from ..errors import SchemaError\n"
        "from . import pairs\n"
        "if TYPE_CHECKING:\n"
        "    from .scorer import Scorer\n"
        "def f():\n"
        "    from ..builds.features import ANNOTATION_COLUMNS\n"
    )
    modules = ["names", "errors", "scoring", "scoring.pairs", "scoring.scorer", "builds.features"]
    found = imports_of(source, "scoring.inputs", False, [*modules, "builds", "scoring.inputs"])
    assert found == {"names", "errors", "scoring.pairs", "scoring.scorer", "builds.features"}
    assert imports_of("from .. import __version__\n", "scoring.pairs", False, [""]) == {""}
    # a package's __init__ imports relative to itself
    assert imports_of("from .base import X\n", "benchmarks", True, ["benchmarks.base"]) == {
        "benchmarks.base"
    }


def test_the_cycle_finder_and_the_layer_check_find_what_is_there():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    layers = read_layers(
        "Layers, lowest first; ...:\n\n1. `names.py`, `metrics/bindsplit/`\n"
        "2. `labels.py`, `__init__.py`\n3. `builds/`\n\nAfter.\n"
    )
    assert layers == {"names": 1, "_metric.bindsplit": 1, "labels": 2, "": 2, "builds": 3}
    graph = {"labels": {"builds.features", "names"}, "builds.cards": {"labels"}}
    assert upward_imports(graph, layers) == [("labels", 2, "builds.features", 3)]


def test_the_folder_check_finds_ties_no_module_cycle_shows():
    """Three folders in a ring (each module importing another folder's) are tied though no two
    modules import each other; a folder of a lower layer importing a higher one runs up."""
    graph = {
        "builds.builder": {"benchmarks.base", "names"},
        "benchmarks.synthetic": {"synthetic.world"},
        "synthetic.trainset": {"builds.cards"},
        "synthetic.world": set(),
        "builds.cards": set(),
        "benchmarks.base": set(),
        "parquet_files": {"models.hf"},
        "models.hf": set(),
        "names": set(),
    }
    assert cycles(graph) == []
    layers = {"names": 1, "builds": 3, "benchmarks": 3, "synthetic": 3, "parquet_files": 3}
    layers["models"] = 4
    assert folder_of("_metric.bindsplit.app") == "_metric" and folder_of("") == ""
    assert folder_arrows_back_up(graph, layers) == [
        ("benchmarks", "synthetic", "cycle"),
        ("builds", "benchmarks", "cycle"),
        ("parquet_files", "models", "up"),
        ("synthetic", "builds", "cycle"),
    ]
    # the ring cut (synthetic no longer imports builds/): no arrow runs back
    graph["synthetic.trainset"] = {"names"}
    graph["parquet_files"] = set()
    assert folder_arrows_back_up(graph, layers) == []


def test_the_real_graph_is_read():
    """The reader finds the imports of the real modules (else every rule below would hold
    vacuously)."""
    assert "errors" in GRAPH["cli"] and any(name.startswith("commands") for name in GRAPH["cli"])
    assert "scoring.pairs" in GRAPH["scoring.scorer"]
    assert len(LAYERS) > 20 and set(LAYERS.values()) == {1, 2, 3, 4, 5, 6}


# -- the rules ---------------------------------------------------------------------------------
def test_every_module_sits_in_a_layer():
    assert [module for module in MODULES if layer_of(module, LAYERS) is None] == []


def test_every_listed_layer_entry_exists():
    """A module renamed or removed leaves no stale entry in the document's list."""
    stale = [
        entry
        for entry in LAYERS
        if entry not in MODULES and not any(m.startswith(f"{entry}.") for m in MODULES)
    ]
    assert stale == []


def test_imports_run_only_down_the_layers():
    assert upward_imports(GRAPH, LAYERS) == []


def test_no_import_cycles():
    assert cycles(GRAPH) == []


def test_no_folder_level_arrow_runs_back_up():
    """The count of folder-level arrows that run back up (a folder tie, or a lower layer's folder
    importing a higher one) is 0."""
    assert len(folder_graph(GRAPH)) > 20  # the check sees the real folders
    assert folder_arrows_back_up(GRAPH, LAYERS) == []


def _is_cli(dotted: str) -> bool:
    return dotted.split(".")[0] in CLI


@pytest.mark.parametrize("module", sorted(MODULES), ids=lambda name: name or "__init__")
def test_the_library_never_imports_the_command_line(module):
    if _is_cli(module):
        return
    assert not {name for name in GRAPH[module] if _is_cli(name)}


def test_nothing_imports_the_package_facade():
    """The package's ``__init__`` re-exports the public API lazily; a module importing it would
    depend on every layer at once."""
    assert [module for module, targets in GRAPH.items() if "" in targets and module] == []


def test_labels_does_not_import_datasets():
    """Labelling is pure computation over bindings: importing it loads neither ``datasets`` nor
    torch (a fresh interpreter, so that no other test's imports count)."""
    code = (
        "import sys, bindsplit_datasets.labels\n"
        "print(sorted(m for m in ('datasets', 'torch', 'pyarrow') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert out.strip() == "[]"


def test_no_module_is_over_the_size_limit():
    sizes = {
        str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
        for path in _modules()
    }
    assert any("_metric" in name for name in sizes)  # the shipped metric is counted
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
