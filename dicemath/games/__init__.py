"""One sub-package per game of RULES.md, each built on :mod:`dicemath.core`."""
