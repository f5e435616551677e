"""The layout rules of docs/architecture.md, checked on the source: the library never imports
the command line, and no module grows past the size that usually means two concerns."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bindsplit_datasets"
#: The command line: only these may import it.
CLI = ("cli", "commands", "__main__")
#: Over this many lines a module usually holds two concerns (the metric included: the package
#: ships it as ``_metric``).
MAX_LINES = 600


def _modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts)


def _imported_modules(path: Path) -> set[str]:
    """Dotted names, relative to the package, of everything ``path`` imports from it."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = parts[: len(parts) - node.level]
                module = [*base, *(node.module.split(".") if node.module else [])]
            elif node.module and node.module.split(".")[0] == "bindsplit_datasets":
                module = node.module.split(".")[1:]
            else:
                continue
            found.add(".".join(module))
            found.update(".".join([*module, alias.name]) for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "bindsplit_datasets":
                    found.add(".".join(alias.name.split(".")[1:]))
    return found


def _is_cli(dotted: str) -> bool:
    return dotted.split(".")[0] in CLI


def test_the_checks_see_imports():
    """The import reader finds what the command line imports (else the rules below hold
    vacuously)."""
    imported = _imported_modules(PACKAGE / "cli.py")
    assert any(_is_cli(name) for name in imported)
    assert "errors" in imported or any(name.startswith("errors.") for name in imported)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_library_never_imports_the_command_line(path):
    if _is_cli(".".join(path.relative_to(PACKAGE).with_suffix("").parts)):
        return
    assert not {name for name in _imported_modules(path) if _is_cli(name)}


def test_no_module_is_over_the_size_limit():
    sizes = {
        str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
        for path in _modules()
    }
    assert any("_metric" in name for name in sizes)  # the shipped metric is counted
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
