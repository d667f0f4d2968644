"""Domain errors. Every one subclasses :class:`ValueError` and names the bad input.

A function of dicemath never returns a number for input that breaks the rules: it raises
one of these instead, with a message that says which argument was wrong and why.
"""


class DicemathError(ValueError):
    """Base class of every dicemath input error."""


class InvalidRulesError(DicemathError):
    """A rules object with a variant value that no rule of docs/rules.md allows."""


class InvalidDiceError(DicemathError):
    """A die face outside 1..6, a number of dice below 1, or a target outside 1..12."""


class InvalidStateError(DicemathError):
    """A board, position or situation that the rules cannot produce."""


class IllegalMoveError(DicemathError):
    """A move or decision that the rules do not allow in the given state."""


class InvalidProbabilityError(DicemathError):
    """A transition table or probability vector that is not a probability distribution."""


class OutputPathError(DicemathError):
    """A file or folder the output cannot be written to (a missing folder, no permission, a
    file type that cannot hold it)."""
