"""Registry of benchmarks.

A benchmark is declared by its spec file (``specs/<name>.yaml``, :mod:`.spec`). A spec without an
``adapter`` is read by the generic table adapter (:mod:`.table`); a spec naming an adapter module
is read by that module's class, which takes its declarative part from the spec with
:func:`from_spec` and registers itself. Modules and spec files are discovered automatically, so
adding a benchmark means adding one spec file (and, only where its source needs parsing, one
module). An adapter's ``aliases`` are accepted wherever its name is.

>>> "bivlc" in list_benchmarks()
True
>>> get_benchmark("aro").name
'aro_vga'
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import TypeVar

from ..errors import BindsplitValueError, SpecError
from .base import BenchmarkAdapter, LoadedSource, SourceReport
from .spec import BenchmarkSpec, shipped_spec, shipped_specs

__all__ = [
    "BenchmarkAdapter",
    "LoadedSource",
    "SourceReport",
    "BenchmarkSpec",
    "benchmark_choices",
    "from_spec",
    "get_benchmark",
    "list_benchmarks",
    "register",
]

_REGISTRY: dict[str, type[BenchmarkAdapter]] = {}
_ALIASES: dict[str, str] = {}
_DISCOVERED = False
#: Modules of this package that hold no adapter (imported by the modules that need them).
_NOT_ADAPTERS = frozenset({"base", "spec", "table", "table_source", "custom", "coco_images"})

AdapterClass = TypeVar("AdapterClass", bound=type[BenchmarkAdapter])


def register(cls: type[BenchmarkAdapter]) -> type[BenchmarkAdapter]:
    """Class decorator: make ``cls`` available under ``cls.name`` and each of ``cls.aliases``."""
    for name in (cls.name, *cls.aliases):
        known = _REGISTRY.get(name) or _REGISTRY.get(_ALIASES.get(name, ""))
        if known is not None and known is not cls:
            raise ValueError(f"benchmark {name!r} is registered twice ({known} and {cls})")
    _REGISTRY[cls.name] = cls
    _ALIASES.update(dict.fromkeys(cls.aliases, cls.name))
    return cls


def from_spec(name: str) -> Callable[[AdapterClass], AdapterClass]:
    """Class decorator of an adapter module: the class takes the class variables of the shipped
    spec ``name`` (its source, columns, roles, licence, citation...) and registers itself.

    Raises:
        SpecError: no shipped spec declares ``name``, or the spec names another module as its
            adapter.
    """

    def apply(cls: AdapterClass) -> AdapterClass:
        spec = shipped_spec(name)
        module = cls.__module__.rsplit(".", 1)[-1]
        if spec.adapter != module:
            raise SpecError(
                f"{spec.path}: field 'adapter' is {spec.adapter!r}, but benchmark {name!r} is "
                f"read by the module {module!r}; set adapter: {module}"
            )
        for key, value in spec.class_variables().items():
            setattr(cls, key, value)
        register(cls)
        return cls

    return apply


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    for module in pkgutil.iter_modules(__path__):
        if module.name not in _NOT_ADAPTERS:
            importlib.import_module(f"{__name__}.{module.name}")
    from .table import spec_adapter

    for spec in shipped_specs().values():
        if spec.name in _REGISTRY:
            continue
        if spec.adapter is not None:
            raise SpecError(
                f"{spec.path}: field 'adapter' names the module {spec.adapter!r}, which "
                f"registers no benchmark {spec.name!r}; decorate its class with "
                f"@from_spec({spec.name!r}), or remove the field to read it as a table"
            )
        register(spec_adapter(spec))
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
            f"unknown benchmark {name!r}; known benchmarks: {benchmark_choices()}; any other "
            "table of images and captions: `bindsplit build custom` (benchmarks.custom)"
        ) from None
    return factory()
