"""BindSplit: split compositional vision-language benchmarks by binding familiarity.

Every caption's (attribute, object) bindings are parsed, each binding is labelled seen or unseen
against a reference caption corpus (COCO train2017 by default, a proxy for a model's training
data), and each benchmark is split into ``full``/``seen``/``unseen``/``partial`` configurations so
that generalisation to novel bindings is reported apart from memorised ones.

Heavy dependencies (torch, transformers) are imported only when the names that need them are used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._version import __version__
from .lazy import lazy_exports

# public name -> module that defines it (imported on first access)
_EXPORTS: dict[str, str] = {
    "Binding": "parsing",
    "PARSER_VERSION": "parsing",
    "parse_bindings": "parsing",
    "parse_many": "parsing",
    "Relation": "parsing",
    "parse_relations": "parsing",
    "parse_relations_many": "parsing",
    "ReferenceIndex": "reference",
    "resolve_reference": "reference",
    "annotate_sample": "labels",
    "composition": "labels",
    "load_bindsplit": "loading",
    "verify_build": "builds.manifest",
    "get_benchmark": "benchmarks",
    "list_benchmarks": "benchmarks",
    "load_metric": "metric",
    "install_metric": "metric",
    "evaluate_model": "evaluation",
}

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:  # pragma: no cover
    from .benchmarks import get_benchmark, list_benchmarks
    from .builds.manifest import verify_build
    from .evaluation import evaluate_model
    from .labels import annotate_sample, composition
    from .loading import load_bindsplit
    from .metric import install_metric, load_metric
    from .parsing import (
        PARSER_VERSION,
        Binding,
        Relation,
        parse_bindings,
        parse_many,
        parse_relations,
        parse_relations_many,
    )
    from .reference import ReferenceIndex, resolve_reference


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
