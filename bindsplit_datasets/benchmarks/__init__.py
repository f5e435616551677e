"""Registry of benchmark adapters.

Each adapter lives in its own module of this package and registers itself with :func:`register`;
the modules are discovered automatically, so adding a benchmark means adding one module. An
adapter's ``aliases`` are accepted wherever its name is.

>>> "bivlc" in list_benchmarks()
True
>>> get_benchmark("aro").name
'aro_vga'
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

from ..errors import BindsplitValueError
from .base import BenchmarkAdapter, LoadedSource, SourceReport

__all__ = [
    "BenchmarkAdapter",
    "LoadedSource",
    "SourceReport",
    "benchmark_choices",
    "get_benchmark",
    "list_benchmarks",
    "register",
]

_REGISTRY: dict[str, type[BenchmarkAdapter]] = {}
_ALIASES: dict[str, str] = {}
_DISCOVERED = False


def register(cls: type[BenchmarkAdapter]) -> type[BenchmarkAdapter]:
    """Class decorator: make ``cls`` available under ``cls.name`` and each of ``cls.aliases``."""
    for name in (cls.name, *cls.aliases):
        known = _REGISTRY.get(name) or _REGISTRY.get(_ALIASES.get(name, ""))
        if known is not None and known is not cls:
            raise ValueError(f"benchmark {name!r} is registered twice ({known} and {cls})")
    _REGISTRY[cls.name] = cls
    _ALIASES.update(dict.fromkeys(cls.aliases, cls.name))
    return cls


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    for module in pkgutil.iter_modules(__path__):
        if module.name != "base":
            importlib.import_module(f"{__name__}.{module.name}")
    _DISCOVERED = True


def list_benchmarks() -> list[str]:
    """Names of all registered benchmarks, sorted (aliases not included)."""
    _discover()
    return sorted(_REGISTRY)


def benchmark_choices() -> str:
    """The registered benchmarks with their aliases, for help texts and error messages.

    >>> "aro_vga (alias: aro)" in benchmark_choices()
    True
    """
    _discover()
    described = []
    for name in sorted(_REGISTRY):
        aliases = _REGISTRY[name].aliases
        described.append(f"{name} (alias: {', '.join(aliases)})" if aliases else name)
    return ", ".join(described)


def get_benchmark(name: str) -> BenchmarkAdapter:
    """An instance of the adapter registered as ``name`` (or with ``name`` among its aliases).

    Raises:
        ValueError: unknown name; the message lists the known benchmarks.
    """
    _discover()
    try:
        factory: Callable[[], BenchmarkAdapter] = _REGISTRY[_ALIASES.get(name, name)]
    except KeyError:
        raise BindsplitValueError(
            f"unknown benchmark {name!r}; known benchmarks: {benchmark_choices()}"
        ) from None
    return factory()
