"""Move advice: every legal play of a roll ranked by the evaluator (BG-3..BG-7).

The plays come from dicemath's own move generator (:func:`~.moves.legal_moves`), so under
``playtive`` only plays legal under BG-4's 5-checker limit appear; each resulting position
(the opponent on roll) is evaluated by :mod:`.evaluate` and the play's equity is the
mover's cubeless money equity (gammons and backgammons counted, BG-7).

At ply N > 0 the plays are pruned the way GNU Backgammon prunes them
(:data:`~.gnubg_engine.NORMAL_FILTER`): all plays at 0 ply; at each lower ply of the
filter the best few within a threshold go on; those are evaluated at N ply. The others
keep their lower-ply equity (``ply`` says which) and are listed after them, so the first
play is the one ``gnubg.find_best_move`` picks with the same filter.

Example:
    >>> from dicemath.games.backgammon.position import Position
    >>> from dicemath.games.backgammon.rules import PLAYTIVE
    >>> moves = hint(PLAYTIVE, Position.initial(), (6, 5))  # 24/13 would make a sixth checker
    >>> any(m.move == "24/18 18/13" for m in moves)
    False
"""

from __future__ import annotations

from dataclasses import dataclass

from collections.abc import Sequence

import numpy as np

from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.evaluate import (KINDS, OUTPUTS, check_ply, cubeless_equity, evaluate_many,
                                                flip, source_label)
from dicemath.games.backgammon import gnubg_engine
from dicemath.games.backgammon.gnubg_engine import NORMAL_FILTER
from dicemath.games.backgammon.moves import legal_moves
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import Rules


@dataclass(frozen=True)
class MoveValue:
    """One move with its value: a ranked play (or a cube action, see
    :func:`~dicemath.games.backgammon.game.advise`).

    Attributes:
        move: the play in the usual notation (``"24/18 13/11"``), or the cube action.
        equity: the mover's money equity after it: cubeless after a play; for a cube
            action cubeful, per unit of the current cube.
        probabilities: the mover's five cubeless outcome probabilities after it (win, win
            gammon, win backgammon, lose gammon, lose backgammon).
        ply: the look-ahead its equity comes from.
        source: ``exact``, ``race`` or ``gnubg-Nply``.
        position_id: the position after the play, opponent on roll (after a cube action,
            the position, its player on roll).
    """

    move: str
    equity: float
    probabilities: tuple[float, ...]
    ply: int
    source: str
    position_id: str

    def as_dict(self) -> dict:
        """JSON-ready: ``move``, ``equity``, ``probabilities`` (named), ``ply``, ``source``,
        ``position_id``."""
        return {"move": self.move, "equity": self.equity,
                "probabilities": dict(zip(OUTPUTS, self.probabilities)),
                "ply": self.ply, "source": self.source, "position_id": self.position_id}


def _keep(equities: np.ndarray, candidates: np.ndarray, accept: int, extra: int, threshold: float) -> np.ndarray:
    """gnubg's filter: the best ``accept`` candidates, then up to ``extra`` more within
    ``threshold`` of the best (candidates sorted best first)."""
    ordered = candidates[np.argsort(-equities[candidates], kind="stable")]
    keep = min(accept, len(ordered))
    limit = min(len(ordered), keep + extra)
    best = equities[ordered[0]]
    while keep < limit and equities[ordered[keep]] >= best - threshold:
        keep += 1
    return ordered[:max(keep, 1)]


def rank_results(rules: Rules, movers: np.ndarray, opponents: np.ndarray,
                 ply: int = 0, kinds: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Evaluate the positions after a roll's plays with gnubg's pruning (module docstring).

    Args:
        rules: STANDARD or PLAYTIVE.
        movers, opponents: ``(k, 25)`` counts after each play (the mover's first).
        ply: look-ahead of the final evaluation.
        kinds: source kinds of the resulting positions as seen by the opponent (default:
            the best ones).

    Returns:
        ``(probabilities of the mover (k, 5), equities (k,), reached (k,), kinds (k,))``:
        ``reached`` is the filter level each play got to (``ply`` for the survivors); a
        gnubg evaluation's ply is ``reached``, a table's 0.
    """
    seen, kinds = evaluate_many(rules, opponents, movers, 0, kinds)
    reached = np.zeros(len(movers), dtype=int)
    if ply > 0:
        candidates = np.arange(len(movers))
        for level, (accept, extra, threshold) in enumerate(NORMAL_FILTER[ply]):
            if accept < 0:
                continue
            if level > 0:
                seen[candidates] = evaluate_many(rules, opponents[candidates], movers[candidates],
                                                 level, kinds[candidates])[0]
                reached[candidates] = level
            candidates = _keep(-cubeless_equity(seen), candidates, accept, extra, threshold)
        seen[candidates] = evaluate_many(rules, opponents[candidates], movers[candidates], ply,
                                         kinds[candidates])[0]
        reached[candidates] = ply
    mover = flip(seen)
    return mover, cubeless_equity(mover), reached, kinds


def hint(rules: Rules, position: Position, dice: Sequence[int], ply: int = 0,
         source: str | None = None) -> list[MoveValue]:
    """Every legal play of ``dice``, best first (see the module docstring).

    Args:
        rules: STANDARD or PLAYTIVE (BG-4).
        position: the position, player on roll to move.
        dice: two dice 1..6.
        ply: look-ahead 0..3.
        source: None (best source per resulting position) or ``"gnubg"`` to evaluate every
            position with GNU Backgammon's nets (as ``gnubg.find_best_move`` does).

    Returns:
        :class:`MoveValue` list: the plays evaluated at ``ply`` first, then the pruned ones;
        each group by equity, best first (ties keep the move generator's order).

    Raises:
        InvalidDiceError: bad dice. InvalidStateError: a finished game, a bad ply or source.
        GnubgUnavailableError: a position needs gnubg and it is not installed (said before
            any play is generated when the position has contact: the move generator's first
            compile takes seconds).
    """
    ply = check_ply(ply)
    if position.is_over():
        raise InvalidStateError(f"the game is over in {position.position_id()}: nothing to play")
    if source not in (None, "gnubg"):
        raise InvalidStateError(f"hint source must be None or 'gnubg', got {source!r}")
    if source == "gnubg" or position.is_contact():       # before compiling the move generator
        gnubg_engine.engine("ranking the plays of a position with contact")
    moves = legal_moves(rules, position, dice)
    movers = np.array([m.after.on_roll for m in moves])
    opponents = np.array([m.after.opponent for m in moves])
    kinds = None
    if source == "gnubg":  # the nets everywhere except where the game is over
        kinds = np.where((movers.sum(axis=1) == 0) | (opponents.sum(axis=1) == 0), 0, 2)
    probabilities, equities, reached, kinds = rank_results(rules, movers, opponents, ply, kinds)
    order = sorted(range(len(moves)), key=lambda i: (-reached[i], -equities[i], i))
    result = []
    for i in order:
        used = int(reached[i]) if kinds[i] == 2 else 0
        result.append(MoveValue(str(moves[i]), float(equities[i]), tuple(float(v) for v in probabilities[i]),
                               used, source_label(KINDS[kinds[i]], used), moves[i].after.swap().position_id()))
    return result
