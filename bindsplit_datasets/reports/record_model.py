"""The results record as a typed model (pydantic), and the JSON Schema other tools read it by.

:class:`ResultsRecordModel` is the record's shape, as mteb's ``TaskResult`` is a task result's:
its blocks (``model``, ``dataset``, ``metrics``, ``samples`` and the descriptive ones) and, in
``metrics``, the rules of each kind of key (:data:`METRIC_KEY_RULES`, the one statement of them:
the model's checks and the published schema's ``patternProperties`` both come from it). A key of
the documented ``{config}/{metric}`` form that no rule names (a breakdown, a metric a newer
version adds) is accepted as any JSON value, so that adding a metric needs no schema change.

:func:`check_record_shape` validates a record against the model and turns the first problem into
one :class:`~bindsplit_datasets.errors.SchemaError` line naming the record; what the shape cannot
say (each configuration complete, the numbers re-derived from the outcomes) is
:mod:`~bindsplit_datasets.reports.results`' and
:mod:`~bindsplit_datasets.reports.consistency`'s. :func:`results_schema` is the JSON Schema
(``bindsplit schema results``, ``docs/results.schema.json``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ..errors import SchemaError
from ..metric_core import (
    CONFIDENCE_KEY,
    DROP_INTERVAL_METHOD_KEY,
    GAPS,
    INTERVAL_METHOD_KEY,
    INTERVAL_METHODS,
    N_BOOTSTRAP_KEY,
    SEED_KEY,
)
from ..metric_halftruth import ACCURACIES as HALFTRUTH_ACCURACIES
from ..metric_halftruth import CATEGORY, DELTA, HALFTRUTH_SETTINGS
from ..names import BINDING_KINDS, RESULTS_FORMAT, SPLIT_LABELS
from .keys import ORIGINAL_METRIC, REPORTED_METRICS

__all__ = [
    "METRIC_KEY_RULES",
    "SCORED_BY",
    "MetricKeyRule",
    "ResultsRecordModel",
    "check_record_shape",
    "results_schema",
]

#: What can score a record's samples (``model.scored_by``): an image and a text encoder, a
#: pair scorer (cross-encoder, callable), or imported per-sample scores.
SCORED_BY: tuple[str, ...] = ("encoder", "pair scorer", "imported")
#: The gap prefixes and the reported metrics' names (the accuracies; with hard positives the
#: original I2T and the drop, a share of samples too), as regular-expression alternatives.
_GAPS = "|".join(map(re.escape, GAPS))
_METRICS = "|".join(map(re.escape, REPORTED_METRICS))
#: A half-truth build's accuracies (AccHT, refinement accuracy), the breakdowns its metrics are
#: also reported by (``{config}/kind/{kind}/...``, ``{config}/category/{kind}/{edit}/...``) and
#: its interval methods (``metric_halftruth``).
_HALFTRUTH = "|".join(map(re.escape, HALFTRUTH_ACCURACIES))
_BREAKDOWN = r"(?:/kind/[^/]+|/category/[^/]+/[^/]+)?"
#: The settings that name how intervals were made: each one of the metric's interval methods.
_METHOD_KEYS: tuple[str, ...] = (INTERVAL_METHOD_KEY, DROP_INTERVAL_METHOD_KEY)
#: The per-sample outcome lists of ``samples`` (0/1): the metric's, and a half-truth build's;
#: any other list of 0/1 is a configuration flag.
_OUTCOME_KEYS: tuple[str, ...] = ("i2t", "t2i", ORIGINAL_METRIC, *HALFTRUTH_ACCURACIES)
#: The per-sample lists of a half-truth build that are not 0/1: each sample's similarity gap
#: (a number) and its ``{kind}/{edit}`` (text).
_HALFTRUTH_LISTS: tuple[str, ...] = (DELTA, CATEGORY)
_DIGEST = r"^sha256:[0-9a-f]{64}$"


def _problem(message: str) -> PydanticCustomError:
    """A check's refusal: ``message`` is the line the reader sees (after the record's name)."""
    return PydanticCustomError("bindsplit", message)


def _is_number(value: Any, low: float, high: float) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and low <= value <= high
    )


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_real(value: Any) -> bool:
    """Any finite number (a similarity gap: its scale is the scorer's)."""
    return _is_number(value, -math.inf, math.inf)


def _is_binary(value: Any) -> bool:
    """0, 1, False or True (JSON writers differ on booleans)."""
    return isinstance(value, int) and value in (0, 1)


def _interval(low: float, high: float) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        return (
            isinstance(value, (list, tuple))
            and len(value) == 2
            and all(_is_number(bound, low, high) for bound in value)
            and value[0] <= value[1]
        )

    return check


def _number_schema(low: float, high: float) -> dict[str, Any]:
    bounds = {"minimum": low, "maximum": high} if math.isfinite(low) else {}
    return {"type": "number", **bounds}


def _interval_schema(low: float, high: float) -> dict[str, Any]:
    return {
        "type": "array",
        "items": _number_schema(low, high),
        "minItems": 2,
        "maxItems": 2,
        "description": "[low, high], low <= high",
    }


@dataclass(frozen=True)
class MetricKeyRule:
    """One kind of ``metrics`` key: its pattern, what its value must be (``check``, in words
    ``what``) and the same as JSON Schema (``schema``)."""

    pattern: str
    what: str
    check: Callable[[Any], bool]
    schema: dict[str, Any]


#: The kinds of ``metrics`` keys the package reads; other ``{config}/...`` keys pass through.
METRIC_KEY_RULES: tuple[MetricKeyRule, ...] = (
    MetricKeyRule(
        rf"^(?!(?:{_GAPS})/)[^/]+/(?:{_METRICS})$",
        "a fraction in [0, 1]; results records store accuracies as fractions (0.75, not 75)",
        lambda value: _is_number(value, 0.0, 1.0),
        _number_schema(0.0, 1.0),
    ),
    MetricKeyRule(
        rf"^(?!(?:{_GAPS})/)[^/]+/(?:{_METRICS})_ci$",
        "an interval [low, high] of fractions with low <= high",
        _interval(0.0, 1.0),
        _interval_schema(0.0, 1.0),
    ),
    MetricKeyRule(
        rf"^(?!(?:{_GAPS})/)[^/]+/n$",
        "a sample count",
        _is_count,
        {"type": "integer", "minimum": 0},
    ),
    MetricKeyRule(
        rf"^(?:{_GAPS})/(?:{_METRICS})$",
        "a difference of fractions in [-1, 1]",
        lambda value: _is_number(value, -1.0, 1.0),
        _number_schema(-1.0, 1.0),
    ),
    MetricKeyRule(
        rf"^(?:{_GAPS})/(?:{_METRICS})_ci$",
        "an interval [low, high] of differences in [-1, 1] with low <= high",
        _interval(-1.0, 1.0),
        _interval_schema(-1.0, 1.0),
    ),
    # a half-truth build's (metric_halftruth): AccHT and refinement accuracy, the similarity
    # gap delta (a mean of score differences, on the scorer's scale), per kind and edit
    MetricKeyRule(
        rf"^(?!(?:{_GAPS})/)[^/]+{_BREAKDOWN}/(?:{_HALFTRUTH})$",
        "a fraction in [0, 1]; results records store accuracies as fractions (0.75, not 75)",
        lambda value: _is_number(value, 0.0, 1.0),
        _number_schema(0.0, 1.0),
    ),
    MetricKeyRule(
        rf"^(?!(?:{_GAPS})/)[^/]+{_BREAKDOWN}/(?:{_HALFTRUTH})_ci$",
        "an interval [low, high] of fractions with low <= high",
        _interval(0.0, 1.0),
        _interval_schema(0.0, 1.0),
    ),
    MetricKeyRule(
        rf"^(?!(?:{_GAPS})/)[^/]+(?:/kind/[^/]+|/category/[^/]+/[^/]+)/n$",
        "a sample count",
        _is_count,
        {"type": "integer", "minimum": 0},
    ),
    MetricKeyRule(
        rf"^(?:{_GAPS}){_BREAKDOWN}/(?:{_HALFTRUTH})$",
        "a difference of fractions in [-1, 1]",
        lambda value: _is_number(value, -1.0, 1.0),
        _number_schema(-1.0, 1.0),
    ),
    MetricKeyRule(
        rf"^(?:{_GAPS}){_BREAKDOWN}/(?:{_HALFTRUTH})_ci$",
        "an interval [low, high] of differences in [-1, 1] with low <= high",
        _interval(-1.0, 1.0),
        _interval_schema(-1.0, 1.0),
    ),
    MetricKeyRule(
        rf"^[^/]+{_BREAKDOWN}/{DELTA}$",
        "a finite number (a mean of score differences, or a difference of two)",
        _is_real,
        _number_schema(-math.inf, math.inf),
    ),
    MetricKeyRule(
        rf"^[^/]+{_BREAKDOWN}/{DELTA}_ci$",
        "an interval [low, high] of finite numbers with low <= high",
        _interval(-math.inf, math.inf),
        _interval_schema(-math.inf, math.inf),
    ),
)
_COMPILED = [(re.compile(rule.pattern), rule) for rule in METRIC_KEY_RULES]


class _Block(BaseModel):
    """A block of the record: the fields the package reads, typed; any others kept as they are."""

    model_config = ConfigDict(extra="allow")


class ModelBlock(_Block):
    """Which model made the record (``model.id`` never a machine path)."""

    id: Annotated[str, Field(min_length=1)]
    revision: str | None = None
    scored_by: Literal["encoder", "pair scorer", "imported"] = Field(
        description="what scored the samples"
    )

    @model_validator(mode="before")
    @classmethod
    def _known(cls, value: Any) -> Any:
        if (
            isinstance(value, Mapping)
            and value.get("id")
            and value.get("scored_by") not in SCORED_BY
        ):
            raise _problem(
                f"model.scored_by is {value.get('scored_by')!r}, not one of "
                f"{', '.join(SCORED_BY)}; re-run `bindsplit eval` to make the record"
            )
        return value


class DatasetBlock(_Block):
    """Which build the record is of: its benchmark, binding kind, configuration, fingerprint and
    reference; ``data`` a Hub id or a local build's folder name."""

    benchmark: str
    data: str | None = None
    binding_kind: Literal[BINDING_KINDS] | None = None  # type: ignore[valid-type]
    config: str | None = None
    fingerprint: str | None = None
    reference: dict[str, Any] | None = None


class Metrics(_Block):
    """``"{config}/{metric}"`` keys (:data:`METRIC_KEY_RULES`) and the interval settings
    (``drop_interval_method``: the hard-positive drop's, only in records of builds with hard
    positives; a half-truth build's four, each its one closed-form method:
    ``metric_halftruth.HALFTRUTH_SETTINGS``)."""

    interval_method: Literal[INTERVAL_METHODS] | None = None  # type: ignore[valid-type]
    drop_interval_method: Literal[INTERVAL_METHODS] | None = None  # type: ignore[valid-type]
    gap_interval_method: str | None = None
    macro_interval_method: str | None = None
    confidence: Annotated[float, Field(gt=0, lt=1)] | None = None
    n_bootstrap: Annotated[int, Field(ge=0)] | None = None
    seed: Annotated[int, Field(ge=0)] | None = None

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, value: Any) -> Any:
        if not isinstance(value, Mapping):
            raise _problem("the record has no metrics dictionary")
        for key, item in value.items():
            for pattern, rule in _COMPILED:
                if pattern.match(str(key)) and not rule.check(item):
                    raise _problem(f"metrics[{key!r}] = {item!r} is not {rule.what}")
        for key in _METHOD_KEYS:
            method = value.get(key)
            if method is not None and method not in INTERVAL_METHODS:
                raise _problem(
                    f"metrics[{key!r}] = {method!r} is not one of {', '.join(INTERVAL_METHODS)}"
                )
        for key, expected in HALFTRUTH_SETTINGS.items():  # each half-truth interval has one
            if value.get(key) not in (None, expected):
                raise _problem(f"metrics[{key!r}] = {value[key]!r} is not {expected!r}")
        confidence = value.get(CONFIDENCE_KEY)
        if confidence is not None and not (_is_number(confidence, 0.0, 1.0) and 0 < confidence < 1):
            raise _problem(f"metrics[{CONFIDENCE_KEY!r}] = {confidence!r} is not a level in (0, 1)")
        for key in (N_BOOTSTRAP_KEY, SEED_KEY):
            if value.get(key) is not None and not _is_count(value[key]):
                raise _problem(f"metrics[{key!r}] = {value[key]!r} is not an integer >= 0")
        return value


class Samples(_Block):
    """Each scored sample's id, label and outcomes, in row order (what the paired test and the
    re-derivation of the numbers read; ``i2t_original``, I2T without the hard positives, only
    in records of builds with hard positives, ``i2t`` being with them; ``acc_ht``, ``ref_acc``,
    ``delta`` and ``category`` only in records of half-truth builds); other lists are
    configuration flags (``balanced``)."""

    id: list[str] = Field(description="unique sample ids")
    label: list[Literal[SPLIT_LABELS]]  # type: ignore[valid-type]
    i2t: list[Literal[0, 1] | bool]
    t2i: list[Literal[0, 1] | bool] | None = None
    i2t_original: list[Literal[0, 1] | bool] | None = Field(
        default=None, description="I2T with the hard positives left out (builds with them only)"
    )
    acc_ht: list[Literal[0, 1] | bool] | None = Field(
        default=None, description="half-truth builds: s(I, anchor) > s(I, half-truth)"
    )
    ref_acc: list[Literal[0, 1] | bool] | None = Field(
        default=None, description="half-truth builds: s(I, refinement) > s(I, half-truth)"
    )
    delta: list[float] | None = Field(
        default=None, description="half-truth builds: s(I, anchor) - s(I, half-truth)"
    )
    category: list[str] | None = Field(
        default=None, description="half-truth builds: the sample's {kind}/{edit}"
    )

    @model_validator(mode="before")
    @classmethod
    def _lists(cls, value: Any) -> Any:
        if not isinstance(value, Mapping) or not isinstance(value.get("id"), list):
            raise _problem("samples must be an object with an 'id' list")
        n = len(value["id"])
        for key, values in value.items():
            if not isinstance(values, list) or len(values) != n:
                raise _problem(f"samples[{key!r}] is not a list of {n} values (one per sample id)")
        if not all(isinstance(item, str) for item in value["id"]):
            raise _problem("samples['id'] must hold strings")
        if len(set(value["id"])) != n:
            raise _problem("samples['id'] holds duplicate ids; each sample once")
        if "label" not in value or "i2t" not in value:
            raise _problem("samples must have 'label' and 'i2t' lists")
        if not all(item in SPLIT_LABELS for item in value["label"]):
            raise _problem(f"samples['label'] must hold split labels ({', '.join(SPLIT_LABELS)})")
        if DELTA in value and not all(_is_real(item) for item in value[DELTA]):
            raise _problem(f"samples[{DELTA!r}] must hold finite numbers")
        if CATEGORY in value and not all(isinstance(item, str) for item in value[CATEGORY]):
            raise _problem(f"samples[{CATEGORY!r}] must hold strings")
        for key, values in value.items():
            if key in ("id", "label", *_HALFTRUTH_LISTS):
                continue
            if not all(_is_binary(item) for item in values):
                what = "0/1 outcomes" if key in _OUTCOME_KEYS else "true/false configuration flags"
                raise _problem(f"samples[{key!r}] must hold {what}")
        return value


class ResultsRecordModel(_Block):
    """A BindSplit results record (``"format": "bindsplit-results/1"``)."""

    model_config = ConfigDict(
        extra="allow",
        title="BindSplit results record",
        json_schema_extra={
            "description": (
                "One model's accuracy on one BindSplit build, per configuration, with intervals, "
                "gaps and the per-sample outcomes they are re-derived from "
                "(docs/architecture.md, 'Results record')."
            )
        },
    )

    format: Literal["bindsplit-results/1"]
    bindsplit_version: str | None = None
    model: ModelBlock
    dataset: DatasetBlock
    metrics: Metrics
    samples: Samples | None = None
    scoring: dict[str, Any] | None = None
    environment: dict[str, Any] | None = None
    save_scores: dict[str, Any] | None = None
    timings: dict[str, Any] | None = None
    created: str | None = None
    digest: Annotated[str, Field(pattern=_DIGEST)] | None = Field(
        default=None, description="sha256 of the record's canonical JSON, the digest left out"
    )


def check_record_shape(record: Any, source: str) -> None:
    """Raise :class:`SchemaError` (one line naming ``source``) unless ``record`` has the shape of
    :class:`ResultsRecordModel`."""
    try:
        ResultsRecordModel.model_validate(record)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        if first["type"] == "bindsplit":
            raise SchemaError(f"{source}: {first['msg']}") from None
        if first["type"] == "missing":
            raise SchemaError(f"{source}: the record has no {where}") from None
        raise SchemaError(
            f"{source}: {where} = {first.get('input')!r}: {first['msg']}; make the record with "
            "`bindsplit eval`"
        ) from None


def results_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a results record: the model's, with the rules of the
    ``metrics`` keys as ``patternProperties``."""
    schema = ResultsRecordModel.model_json_schema()
    metrics = schema["$defs"]["Metrics"]
    metrics["patternProperties"] = {rule.pattern: rule.schema for rule in METRIC_KEY_RULES}
    metrics["properties"].update(
        {
            key: {"const": method, "description": "half-truth builds: how these intervals are made"}
            for key, method in HALFTRUTH_SETTINGS.items()
        }
    )
    metrics["additionalProperties"] = True
    schema["properties"]["format"] = {"const": RESULTS_FORMAT, "title": "Format"}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
