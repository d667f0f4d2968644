"""One Pitjesbak round at a table of 2 to 8 players, by backward induction (PIT-4..PIT-8).

Every player maximises his own component of a *value vector* of the round's end: the
probability each player wins the game (:mod:`.table_solver`), or of winning the round
(:func:`round_win_atoms`, the objective of :mod:`.round_solver`). Players act in turn order
from the start player (turn *positions* 0..n-1).

**What a player's decision depends on (the knowledge state).** Before position ``j`` throws,
everything that matters about the round so far is ``(L, b, code)``: the limit ``L`` (throws
the start player used, PIT-4), the rank level ``b`` of the best counting throw so far (-1 if
everybody before was eliminated by 1-1-1, PIT-6), and a status digit for each earlier
position: *below* the best, *below with a 2-2-3 penalty* (PIT-7), *holding* the best (alone,
or tied for a roll-off, PIT-5), *holding it with a penalty*, or *out* (PIT-6). The order in
which the throws came and the exact classes below the best do not matter: the round's end
depends only on who holds the best and of which wipe type it is (PIT-5), who pays a penalty
(PIT-7) and who is out (PIT-6, PIT-8), and later players see no more. So a round of four
costs 5,382 knowledge states instead of ``42**4`` joint throws (eight players: 2.2 million).
The last player's turn does not depend on the limit beyond the number of throws (one pass
gives all three limits), and a player who would take the best with a higher level is better
off the higher the level, as a rule, so those outcomes are summed from the top by a
threshold (checked state by state; where it fails they are summed one by one).

**Atoms.** A round ends in an *atom* ``(code of all n positions, type)``, ``type`` the
(wipe, penalty) type of the best level (regular, 2-2-3, zand, 6-5-4); the caller supplies the
value vector of every atom (the state the round leads to, or a game won). A player whose
counting 1-1-1 comes with the has-wiped flag wins the game at once (PIT-6), and a player left
alone wins (PIT-8); the solver applies both itself.

**Readings** (docs/rules.md, section 3, and the existing solvers): a start player who goes
out with 1-1-1 still sets the limit; a roll-off is fair (1/k each); a player indifferent
between stopping and throwing again stops.

Float64 throughout (the round solver :mod:`.round_solver` is the exact-fraction reference;
the two agree to 5e-16 for 2 to 6 players with either die values). The loops are C
(:mod:`._table_c`, compiled at install).

Example:
    >>> solution = solve_table_round(players=3)
    >>> [round(p, 4) for p in solution.values]
    [0.4294, 0.2746, 0.2961]
    >>> stop, again = solution.decision(2, before=[(5, 5, 5), None], limit=2, dice=(6, 6, 2), throws=1)
    >>> float(stop[2]), round(float(again[2]), 4)   # (6-6-6, 6-5-4 or half of 5-5-5) = 7.5/216
    (0.0, 0.0347)
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
from numpy.typing import NDArray

from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak import _table_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.pitjesbak.rules import MAX_THROWS, STANDARD, Rules, check_players
from dicemath.games.pitjesbak.throws import ClassSpace, ThrowClass, check_throw, class_space, classify

TYPES = ((1, 0), (1, 1), (2, 0), (3, 0))
"""(wipe, penalty) of a round won by a single best throw: regular, 2-2-3, zand, 6-5-4 (PIT-5,
PIT-7); the same order as the two-player solver's."""

BELOW, BELOW_PENALTY, BEST, OUT, BEST_PENALTY = 0, 1, 2, 3, 4
"""Status digits of a position in a knowledge state or atom."""


@dataclass(frozen=True, eq=False)
class RoundGraph:
    """The knowledge states of a round with ``players`` players (game-state independent).

    Attributes:
        players: n.
        rules: die values (PIT-2).
        radix: 4, or 5 when some rank level holds classes with and without a penalty
            (plain pips: 2-2-3 ties 1-2-4 ...), so a holder's penalty needs its own digit.
        n_levels: distinct rank levels (PIT-3).
        arrays: the arrays the kernels read (see ``_table_c.c``).
        slots: number of knowledge slots (value vectors stored per round).
        nodes: knowledge states per turn position (index 0: none, the start player).
    """

    players: int
    rules: Rules
    radix: int
    n_levels: int
    arrays: dict
    slots: int
    nodes: tuple[int, ...]

    @property
    def atom_rows(self) -> int:
        """Rows of the atoms' value array (``radix**n * 4``, most of them unused)."""
        return self.radix ** self.players * 4

    @cached_property
    def kernel_args(self) -> tuple:
        """The graph as the compiled kernels (:mod:`._table_c`) read it: ``(n, NL, R, slots,``
        ``mass_apen)`` and the arrays, in the order of ``read_graph`` in ``_table_c.c``."""
        a = self.arrays
        names = ("powR", "slot_off", "code_ptr", "code_list", "mass_lp", "below_mass", "above_mass", "level_type",
                 "best_pen", "demote", "nb_count", "nb_code", "nb_index", "item_level", "item_pen", "item_mass",
                 "item_start", "suf_mass", "atom_rows", "type_wipe", "type_penalty")
        arrays = tuple(np.ascontiguousarray(a[name], dtype=np.float64 if a[name].dtype.kind == "f" else np.int64)
                       for name in names)
        return (self.players, self.n_levels, self.radix, self.slots, float(a["mass_apen"])) + arrays

    # -- knowledge states ------------------------------------------------------------------
    def level_of(self, throw_class: ThrowClass) -> int:
        """The rank level of a ranked class (PIT-3)."""
        space = class_space(self.rules)
        return space.levels[space.index(throw_class)]

    def digit_of_best(self, penalty: int) -> int:
        """The status digit of a holder of the best throw."""
        return BEST_PENALTY if (self.radix == 5 and penalty) else BEST

    def knowledge(self, before: Sequence[Sequence[int] | None]) -> tuple[int, int]:
        """``(b, code)`` of the counting throws of positions ``0..j-1`` (a throw, or None for a
        player out by 1-1-1).

        Raises:
            InvalidStateError: a 1-1-1 among them (give None: the player is out).
        """
        classes: list[ThrowClass | None] = []
        for pos, throw in enumerate(before):
            if throw is None:
                classes.append(None)
                continue
            cls = classify(check_throw(throw), self.rules)
            if cls.is_apen:
                raise InvalidStateError(f"position {pos}: a counting 1-1-1 either won the game or put its player "
                                        "out (PIT-6); give None for a player who is out")
            classes.append(cls)
        levels = [self.level_of(c) for c in classes if c is not None]
        b = max(levels) if levels else -1
        code = 0
        for pos, entry in enumerate(classes):
            if entry is None:
                digit = OUT
            elif self.level_of(entry) == b:
                digit = self.digit_of_best(entry.penalty)
            else:
                digit = BELOW_PENALTY if entry.penalty else BELOW
            code += digit * self.radix ** pos
        return b, code

    def slot(self, position: int, limit: int, best: int, code: int) -> int:
        """The knowledge slot of ``(position, limit, best level, code)``."""
        a = self.arrays
        return int(a["slot_off"][position] + ((limit - 1) * (self.n_levels + 1) + best + 1) * a["powR"][position]
                   + code)


def _levels_and_penalties(rules: Rules) -> tuple[ClassSpace, NDArray[np.float64], NDArray[np.float64],
                                                 list[set[int]], list[set[int]]]:
    space = class_space(rules)
    probs = space.probabilities()
    n_levels = space.n_levels
    mass_lp = np.zeros((n_levels, 2))
    pens: list[set[int]] = [set() for _ in range(n_levels)]
    wipes: list[set[int]] = [set() for _ in range(n_levels)]
    for c, cls in enumerate(space.classes):
        if cls.is_apen:
            continue
        level = space.levels[c]
        mass_lp[level, cls.penalty] += probs[c]
        pens[level].add(cls.penalty)
        wipes[level].add(cls.wipe)
    assert all(len(w) == 1 for w in wipes)
    return space, probs, mass_lp, pens, wipes


@lru_cache(maxsize=None)
def round_graph(players: int, rules: Rules | None = None) -> RoundGraph:
    """The :class:`RoundGraph` of a round with ``players`` players (cached).

    Raises:
        InvalidRulesError: players outside 2..8 (PIT-1).
    """
    n = check_players(players)
    rules = (rules or STANDARD).with_players(n)
    space, probs, mass_lp, pens, wipes = _levels_and_penalties(rules)
    NL = space.n_levels
    mixed = any(len(p) == 2 for p in pens)
    R = 5 if mixed else 4
    level_type = np.array([TYPES.index((next(iter(wipes[l])), 0 if mixed else next(iter(pens[l]))))
                           for l in range(NL)], dtype=np.int64)
    best_pen = np.array([0 if mixed else next(iter(pens[l])) for l in range(NL)], dtype=np.int64)
    below_mass = np.zeros((NL + 1, 2))
    above_mass = np.zeros((NL + 1, 4, 2))
    for b in range(-1, NL):
        below_mass[b + 1] = mass_lp[:max(b, 0)].sum(axis=0) if b >= 0 else 0.0
        for level in range(b + 1, NL):
            above_mass[b + 1, level_type[level]] += mass_lp[level]
    powR = R ** np.arange(n + 1, dtype=np.int64)
    # demote holders of the best to "below" (keeping their penalty)
    codes = np.arange(R ** (n - 1), dtype=np.int64)
    digits = (codes[:, None] // powR[None, :n - 1]) % R
    demote = np.empty((2, codes.size), dtype=np.int64)
    for mode in (0, 1):
        d = digits.copy()
        d[digits == BEST] = mode
        d[digits == BEST_PENALTY] = BELOW_PENALTY
        demote[mode] = (d * powR[None, :n - 1]).sum(axis=1)
    # which digits each best level allows (a class that can produce it)
    allowed = np.zeros((NL + 1, R), dtype=bool)          # row b + 1
    allowed[0, OUT] = True
    for b in range(NL):
        below = mass_lp[:b].sum(axis=0)
        allowed[b + 1, BELOW] = below[0] > 0
        allowed[b + 1, BELOW_PENALTY] = below[1] > 0
        allowed[b + 1, OUT] = True
        if mixed:
            allowed[b + 1, BEST] = mass_lp[b, 0] > 0
            allowed[b + 1, BEST_PENALTY] = mass_lp[b, 1] > 0
        else:
            allowed[b + 1, BEST] = True
    slot_off = np.zeros(n + 1, dtype=np.int64)
    code_ptr = np.zeros((n, NL + 1, 2), dtype=np.int64)
    code_lists: list[np.ndarray] = []
    listed = 0
    total = 0
    counts = [0]
    for j in range(1, n):
        slot_off[j] = total
        total += MAX_THROWS * (NL + 1) * R ** j
        starts: dict[int, int] = {}
        for b, codes_b in enumerate(_feasible_codes(j, R, allowed), start=-1):
            if id(codes_b) not in starts:                # most levels share their codes
                starts[id(codes_b)] = listed
                code_lists.append(codes_b)
                listed += codes_b.size
            code_ptr[j, b + 1] = starts[id(codes_b)], starts[id(codes_b)] + codes_b.size
        counts.append(MAX_THROWS * int((code_ptr[j, :, 1] - code_ptr[j, :, 0]).sum()))
    slot_off[n] = total
    feasible_atoms = _feasible_codes(n, R, allowed)
    type_codes = []
    for t in range(len(TYPES)):                          # the union over the levels of each type
        seen = np.zeros(R ** n, dtype=bool)
        for codes_b in {id(c): c for b, c in enumerate(feasible_atoms[1:]) if level_type[b] == t}.values():
            seen[codes_b] = True
        type_codes.append(np.flatnonzero(seen).astype(np.int64))
    rows = np.concatenate([c * 4 + t for t, c in enumerate(type_codes)])
    # status codes without a holder (what a new best holder leaves behind), ascending: those
    # of position j are the first 3**j
    no_holder = np.ones(codes.size, dtype=bool)
    for digit in (BEST, BEST_PENALTY):
        no_holder &= ~(digits == digit).any(axis=1)
    nb_code = codes[no_holder]
    nb_index = np.full(codes.size, -1, dtype=np.int64)
    nb_index[nb_code] = np.arange(nb_code.size)
    nb_count = np.array([3 ** j for j in range(n)], dtype=np.int64)
    # the outcomes that take the best: (level, penalty) with a positive mass, ascending
    # level, the penalty first within a level
    items = [(level, p) for level in range(NL) for p in (1, 0) if mass_lp[level, p] > 0]
    item_level = np.array([level for level, _ in items], dtype=np.int64)
    item_pen = np.array([p for _, p in items], dtype=np.int64)
    item_mass = np.array([mass_lp[level, p] for level, p in items])
    item_start = np.array([int(np.searchsorted(item_level, b, side="right")) for b in range(-1, NL)],
                          dtype=np.int64)
    suf_mass = np.concatenate([np.cumsum(item_mass[::-1])[::-1], [0.0]])
    arrays = {
        "nb_count": nb_count, "nb_code": nb_code, "nb_index": nb_index, "item_level": item_level,
        "item_pen": item_pen, "item_mass": item_mass, "item_start": item_start, "suf_mass": suf_mass,
        "powR": powR, "slot_off": slot_off, "code_ptr": code_ptr,
        "code_list": np.concatenate(code_lists) if code_lists else np.zeros(0, np.int64),
        "mass_lp": mass_lp, "below_mass": below_mass, "above_mass": above_mass,
        "mass_apen": float(probs[space.apen]), "level_type": level_type, "best_pen": best_pen, "demote": demote,
        "atom_rows": rows, "type_wipe": np.array([w for w, _ in TYPES], dtype=np.int64),
        "type_penalty": np.array([p for _, p in TYPES], dtype=np.int64),
    }
    return RoundGraph(n, rules, R, NL, arrays, int(total), tuple(counts))


def _feasible_codes(j: int, R: int, allowed: np.ndarray) -> list[np.ndarray]:
    """For each best level ``b`` (row ``b + 1``) the status codes of ``j`` positions that can
    occur: digits a class could produce, and somebody holding the best (or all out, ``b = -1``)."""
    codes = np.arange(R ** j, dtype=np.int64)
    digits = (codes[:, None] // (R ** np.arange(j, dtype=np.int64))[None, :]) % R
    holders = ((digits == BEST) | (digits == BEST_PENALTY)).any(axis=1)
    out, done = [], {}
    for row in range(allowed.shape[0]):
        key = (allowed[row].tobytes(), row > 0)           # most levels allow the same digits
        if key not in done:
            ok = allowed[row][digits].all(axis=1)
            ok &= holders if row > 0 else ~holders
            done[key] = codes[ok]
        out.append(done[key])
    return out


# -- solving a round --------------------------------------------------------------------------

def round_win_atoms(graph: RoundGraph) -> np.ndarray:
    """Atom values when every player maximises P(win the round): the holders of the best throw
    share it (fair roll-off, PIT-5), a player left alone wins (PIT-8)."""
    n = graph.players
    rows = graph.arrays["atom_rows"]
    digits = (rows[:, None] // 4 // graph.arrays["powR"][None, :n]) % graph.radix
    holders = (digits == BEST) | (digits == BEST_PENALTY)
    alive = digits != OUT
    alone = alive.sum(axis=1) == 1
    share = np.where(alone[:, None], alive, holders).astype(float)
    atoms = np.zeros((graph.atom_rows, n))
    atoms[rows] = share / share.sum(axis=1, keepdims=True)
    return atoms


def _flags(wiped: Sequence[bool] | None, n: int) -> np.ndarray:
    if wiped is None:
        return np.zeros(n, dtype=np.int64)
    flags = tuple(bool(w) for w in wiped)
    if len(flags) != n:
        raise InvalidStateError(f"need {n} has-wiped flags (one per player in turn order), got {len(flags)}")
    return np.array(flags, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class TableRound:
    """A solved round: every knowledge state's value vector (float64).

    Positions are turn positions from the start player (0). ``values[k]`` is position ``k``'s
    value at the start of the round (P(win the round), or P(win the game) with game atoms).
    """

    graph: RoundGraph
    flags: np.ndarray
    atoms: np.ndarray
    W: np.ndarray
    values: tuple[float, ...]

    @property
    def players(self) -> int:
        """n."""
        return self.graph.players

    def start_values(self) -> tuple[np.ndarray, np.ndarray]:
        """The start player's values: ``stop[t-1, c]`` the value vector when he stops on class
        ``c`` after throw ``t`` (the limit becomes ``t``), and ``again[t-1]`` the value vector of
        throwing again after throw ``t`` (t = 1, 2)."""
        g = self.graph
        space = class_space(g.rules)
        n = self.players
        stop = np.zeros((MAX_THROWS, space.size, n))
        for t in range(1, MAX_THROWS + 1):
            for c, cls in enumerate(space.classes):
                if cls.is_apen:
                    if self.flags[0]:
                        stop[t - 1, c, 0] = 1.0
                    else:
                        stop[t - 1, c] = self.W[g.slot(1, t, -1, OUT)]
                else:
                    stop[t - 1, c] = self.W[g.slot(1, t, space.levels[c], g.digit_of_best(cls.penalty))]
        probs = space.probabilities()
        again = np.zeros((2, n))
        cont = stop[2].T @ probs
        for t in (2, 1):
            again[t - 1] = cont
            choose = np.where((stop[t - 1, :, 0] >= cont[0])[:, None], stop[t - 1], cont[None, :])
            cont = choose.T @ probs
        return stop, again

    def _outcome(self, position: int, limit: int, b: int, code: int, cls: ThrowClass) -> np.ndarray:
        """The value vector when ``position`` counts a throw of class ``cls``."""
        g = self.graph
        n = self.players
        R = g.radix
        pj = R ** position
        last = position == n - 1
        if cls.is_apen:
            if self.flags[position]:
                return np.eye(n)[position]
            b2, code2 = b, code + OUT * pj
        else:
            level = g.level_of(cls)
            if b >= 0 and level < b:
                b2, code2 = b, code + (BELOW_PENALTY if cls.penalty else BELOW) * pj
            elif level == b:
                b2, code2 = b, code + g.digit_of_best(cls.penalty) * pj
            else:
                mode = int(g.arrays["best_pen"][b]) if (b >= 0 and R == 4) else 0
                dcode = int(g.arrays["demote"][mode, code]) if b >= 0 else code
                b2, code2 = level, dcode + g.digit_of_best(cls.penalty) * pj
        if last:
            return self.atoms[code2 * 4 + int(g.arrays["level_type"][b2])].copy()
        return self.W[g.slot(position + 1, limit, b2, code2)].copy()

    def continuation(self, position: int, limit: int, b: int, code: int, throws_left: int) -> np.ndarray:
        """The value vector of position ``position`` (1..n-1) at knowledge ``(limit, b, code)``
        with ``throws_left`` throws still to come (the next one included)."""
        g = self.graph
        n = self.players
        if position == n - 1 and b < 0:
            return np.eye(n)[position]
        E = np.empty(n)
        _table_c.continuation(g.kernel_args, position, limit, b, code, throws_left, self.flags, self.atoms, self.W, E)
        return E

    def decision(self, position: int, *, before: Sequence[Sequence[int] | None] = (), limit: int | None = None,
                 dice: Sequence[int], throws: int) -> tuple[np.ndarray, np.ndarray | None]:
        """The value vectors of stopping and of throwing again at a decision.

        Args:
            position: my turn position (0 = start player).
            before: the counting throws of positions ``0..position-1`` in turn order (three
                dice each; None for a player out by 1-1-1).
            limit: the start player's throws (positions >= 1).
            dice: my current throw.
            throws: throws I have used, this one included.

        Returns:
            ``(stop, again)``: value vectors (every position's value); ``again`` is None
            when no throw is left (the current throw counts).

        Raises:
            InvalidStateError: a situation the rules cannot produce (see
                :func:`check_situation`).
            InvalidDiceError: a throw that is not three dice 1..6.
        """
        limit, b, code = check_situation(self.graph, position, before, limit, throws, self.flags)
        cls = classify(check_throw(dice), self.graph.rules)
        if position == 0:
            stop, again = self.start_values()
            space = class_space(self.graph.rules)
            c = space.index(cls)
            return stop[throws - 1, c].copy(), (again[throws - 1].copy() if throws < MAX_THROWS else None)
        stop = self._outcome(position, limit, b, code, cls)
        left = limit - throws
        return stop, (self.continuation(position, limit, b, code, left) if left > 0 else None)

    def stops(self, position: int, *, before: Sequence[Sequence[int] | None] = (), limit: int | None = None,
              throws: int) -> np.ndarray:
        """Whether the player at ``position`` stops on each throw class (the order of
        :func:`.throws.class_space`) after ``throws`` throws, the earlier counting throws being
        ``before`` (as :meth:`decision`; ties: stop; all True when no throw is left).

        Raises:
            InvalidStateError: a situation the rules cannot produce (:func:`check_situation`).
        """
        limit, b, code = check_situation(self.graph, position, before, limit, throws, self.flags)
        space = class_space(self.graph.rules)
        if position == 0:
            stop, again = self.start_values()
            if throws == MAX_THROWS:
                return np.ones(space.size, dtype=bool)
            return stop[throws - 1, :, 0] >= again[throws - 1, 0]
        left = limit - throws
        if left == 0:
            return np.ones(space.size, dtype=bool)
        own = self.continuation(position, limit, b, code, left)[position]
        return np.array([self._outcome(position, limit, b, code, cls)[position] >= own for cls in space.classes])


def check_situation(graph: RoundGraph, position: int, before: Sequence[Sequence[int] | None], limit: int | None,
                    throws: int, flags: Sequence[int] | NDArray[np.int64]) -> tuple[int, int, int]:
    """Validate a decision situation; return ``(limit, b, code)``.

    Raises:
        InvalidStateError: a position outside 0..n-1, a number of earlier throws other than
            ``position``, a limit outside 1..3 (or given to the start player), a throw number
            outside 1..limit, a 1-1-1 before (give None for a player it put out), a player
            with the has-wiped flag out (his 1-1-1 would have won, PIT-6), everybody else out
            (the last player has won without throwing, PIT-8).
    """
    n = graph.players
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < n:
        raise InvalidStateError(f"position must be a turn position 0..{n - 1}, got {position!r}")
    before = list(before)
    if len(before) != position:
        raise InvalidStateError(f"position {position} needs the {position} counting throws before it, "
                                f"got {len(before)}")
    if position == 0:
        if limit is not None:
            raise InvalidStateError("the start player sets the limit (PIT-4); give no limit")
        cap = MAX_THROWS
        b, code = -1, 0
    else:
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_THROWS:
            raise InvalidStateError(f"limit must be 1..{MAX_THROWS} (the start player's throws), got {limit!r}")
        cap = limit
        b, code = graph.knowledge(before)
        for pos, throw in enumerate(before):
            if throw is None and flags[pos]:
                raise InvalidStateError(f"position {pos} has wiped before: a counting 1-1-1 would have won the "
                                        "game (PIT-6), not put him out")
        if b < 0 and position == n - 1:
            raise InvalidStateError("everybody before the last player is out: he has won (PIT-8)")
    if isinstance(throws, bool) or not isinstance(throws, int) or not 1 <= throws <= cap:
        raise InvalidStateError(f"throws used must be 1..{cap} here, got {throws!r}")
    return (limit or 0), b, code


def solve_table_round(rules: Rules | None = None, wiped: Sequence[bool] | None = None, *,
                      players: int | None = None, atoms: np.ndarray | None = None) -> TableRound:
    """Solve one round at a table of ``n`` players by backward induction (PIT-4..PIT-8).

    Args:
        rules: die values; ``rules.players`` is n unless ``players`` or ``wiped`` says otherwise.
        wiped: has-wiped flag of each turn position (PIT-6), default all False.
        players: n (2..8).
        atoms: value vector of every atom (``graph.atom_rows`` x n, see :class:`RoundGraph`);
            default :func:`round_win_atoms` (each maximises P(win the round)).

    Returns:
        The :class:`TableRound` (float64).

    Raises:
        InvalidRulesError: players outside 2..8 (PIT-1).
        InvalidStateError: flags of the wrong length, atom values of the wrong shape.
    """
    rules = rules or STANDARD
    n = players if players is not None else (len(wiped) if wiped is not None else rules.players)
    graph = round_graph(check_players(n), rules.with_players(n))
    flags = _flags(wiped, n)
    if atoms is None:
        atoms = round_win_atoms(graph)
    atoms = np.ascontiguousarray(atoms, dtype=float)
    if atoms.shape != (graph.atom_rows, n):
        raise InvalidStateError(f"atom values must have shape {(graph.atom_rows, n)}, got {atoms.shape}")
    W = _take_buffer(graph)                            # every slot read is written first
    out = np.zeros(n)
    _table_c.round_backward(graph.kernel_args, flags, atoms, W, out)
    solved = TableRound(graph, flags, atoms, W, tuple(float(v) for v in out))
    weakref.finalize(solved, _give_back, id(graph), W)
    return solved


_BUFFERS: dict[int, list[np.ndarray]] = {}
"""Knowledge-slot arrays of rounds no longer referenced, by graph, for the next round (a
fresh array of eight players is 176 MB, and the first writes to it cost more than the round)."""


def _take_buffer(graph: RoundGraph) -> np.ndarray:
    free = _BUFFERS.get(id(graph))
    return free.pop() if free else np.empty((graph.slots, graph.players))


def _give_back(key: int, W: np.ndarray) -> None:
    free = _BUFFERS.setdefault(key, [])
    if len(free) < 2:
        free.append(W)
