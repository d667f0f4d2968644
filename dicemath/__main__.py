"""``python -m dicemath`` runs the command line."""

from dicemath.cli import console

console()
