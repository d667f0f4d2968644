"""An independent second method for the solvers: expectimax over the rules engine's states.

It knows nothing of the solvers' class tables or matrices: it walks
:class:`~dicemath.games.pitjesbak.state.PitjesbakState` (chance outcomes are the 56 sorted
throws with exact weights, roll-offs 1/k), memoised by state.
"""

from __future__ import annotations

from dicemath.core.game import CHANCE, TERMINAL


def round_value(state, leaf, maximiser, chooser=None, memo=None):
    """Value of the round starting at ``state`` for two players (zero-sum).

    ``leaf(state)`` gives the value of a state where the round is over (next round or game
    over); ``maximiser`` is the seat maximising, the other minimises. ``chooser`` may
    override a seat's choice: ``chooser(state, values_by_action) -> value`` or None.
    """
    memo = {} if memo is None else memo
    start_round = state.round_number

    def value(s):
        if s.winner >= 0 or s.round_number != start_round:
            return leaf(s)
        cached = memo.get(s)
        if cached is not None:
            return cached
        player = s.current_player()
        if player == CHANCE:
            result = sum(float(p) * value(s.apply(o)) for o, p in s.chance_outcomes())
        else:
            assert player != TERMINAL
            options = {a: value(s.apply(a)) for a in s.legal_actions()}
            chosen = chooser(s, options) if chooser else None
            if chosen is None:
                best = max if player == maximiser else min
                chosen = best(options.values())
            result = chosen
        memo[s] = result
        return result

    return value(state)
