"""Registry of benchmark adapters.

Each adapter lives in its own module of this package and registers itself with :func:`register`;
the modules are discovered automatically, so adding a benchmark means adding one module.

>>> "bivlc" in list_benchmarks()
True
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

from .base import BenchmarkAdapter, LoadedSource, SourceReport

__all__ = [
    "BenchmarkAdapter",
    "LoadedSource",
    "SourceReport",
    "get_benchmark",
    "list_benchmarks",
    "register",
]

_REGISTRY: dict[str, type[BenchmarkAdapter]] = {}
_DISCOVERED = False


def register(cls: type[BenchmarkAdapter]) -> type[BenchmarkAdapter]:
    """Class decorator: make ``cls`` available under ``cls.name``."""
    name = cls.name
    if name in _REGISTRY and _REGISTRY[name] is not cls:
        raise ValueError(f"benchmark {name!r} is registered twice ({_REGISTRY[name]} and {cls})")
    _REGISTRY[name] = cls
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
    """Names of all registered benchmarks, sorted."""
    _discover()
    return sorted(_REGISTRY)


def get_benchmark(name: str) -> BenchmarkAdapter:
    """An instance of the adapter registered as ``name``.

    Raises:
        ValueError: unknown name; the message lists the known benchmarks.
    """
    _discover()
    try:
        factory: Callable[[], BenchmarkAdapter] = _REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"unknown benchmark {name!r}; known benchmarks: {', '.join(sorted(_REGISTRY))}"
        ) from None
    return factory()
