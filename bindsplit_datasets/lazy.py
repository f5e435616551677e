"""Lazy package exports: a package names what it exports and the module that defines each name,
and the module is imported on first access (so importing the package stays cheap)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: Mapping[str, str], public: list[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: ``exports`` maps a public name to the
    submodule (relative to ``package``) that defines it; ``public`` is the package's ``__all__``.

    >>> getattr_, dir_ = lazy_exports("bindsplit_datasets", {"Binding": "parsing"}, ["Binding"])
    >>> getattr_("Binding").__name__, dir_()
    ('Binding', ['Binding'])
    """

    def __getattr__(name: str) -> Any:
        try:
            module_name = exports[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        return getattr(importlib.import_module(f".{module_name}", package), name)

    def __dir__() -> list[str]:
        return sorted(public)

    return __getattr__, __dir__
