"""The package version, defined once; every module that records it imports it from here (never from
the package ``__init__``, which would run the package's lazy exports and make an import cycle)."""

__version__ = "0.1.0"
