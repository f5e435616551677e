"""Exception types. Every error BindSplit raises on bad input says what is wrong and how to fix
it."""

from __future__ import annotations

__all__ = ["BindsplitError", "SchemaError"]


class BindsplitError(Exception):
    """Base class for BindSplit's own errors; the command line prints their message, no
    traceback."""


class SchemaError(BindsplitError, ValueError):
    """Input that does not have the expected schema (missing column, wrong format, foreign file)."""
