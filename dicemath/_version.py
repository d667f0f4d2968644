"""The package version (cached tables are keyed by their own format versions, not by it:
:mod:`dicemath.core.cache`)."""

__version__ = "0.1.0"
