"""The package version; cached tables are keyed by it (see :mod:`dicemath.core.cache`)."""

__version__ = "0.1.0"
