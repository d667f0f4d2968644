"""Every game through the same checks: the vocabulary of :mod:`dicemath.games`.

One :class:`GameEntry` per game in :data:`GAMES`; every test is parametrised over it.
Adding a game is one entry: its module, small rules variants to play, an invariant, the
JSON query commands with their documented keys, and bad input with the error it raises.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import pytest

from dicemath.cli import main
from dicemath.core.errors import IllegalMoveError, InvalidDiceError, InvalidRulesError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL, GameState, check_random_play


@dataclass(frozen=True)
class GameEntry:
    """What the shared checks need to know about one game.

    Attributes:
        name: the game (its ``dicemath`` command).
        package: its package under ``dicemath.games`` (default ``name``).
        preset: the module constant of its standard rules; ``variants`` change it.
        variants: keyword arguments of ``Rules`` for small games to play at random.
        games: random games per variant.
        invariant: ``invariant(state)`` raises AssertionError when a rule invariant breaks.
        queries: ``(argv, keys)``: a ``dicemath`` command with ``--json`` and the top-level
            keys its output documents (``"name[]"`` adds the keys of a list of objects).
        bad_rules: ``Rules`` keyword arguments that must raise InvalidRulesError.
        bad_texts: state texts that ``State.from_str`` must refuse (InvalidStateError).
        bad_actions: ``(path, action, error)``: from the standard initial state follow the
            action texts of ``path``, then apply ``action``: it must raise ``error``.
        bad_action_texts: ``(path, text, error)``: the same for ``state.parse_action(text)``.
        bad_query: a ``dicemath`` command with bad input: it must exit with status 2.
    """

    name: str
    package: str | None
    preset: str
    variants: tuple[dict, ...]
    games: int
    invariant: Callable | None
    queries: tuple[tuple[tuple[str, ...], frozenset[str]], ...]
    bad_rules: tuple[dict, ...]
    bad_texts: tuple[str, ...]
    bad_actions: tuple[tuple[tuple[str, ...], object, type[Exception]], ...]
    bad_action_texts: tuple[tuple[tuple[str, ...], str, type[Exception]], ...]
    bad_query: tuple[str, ...]

    @property
    def module(self):
        return importlib.import_module(f"dicemath.games.{self.package or self.name}")

    @property
    def standard(self):
        return getattr(self.module, self.preset)

    def rules(self, variant: dict):
        """The standard rules with ``variant``'s fields changed."""
        return dataclasses.replace(self.standard, **variant)


def _pitjesbak_invariant(state):
    from dicemath.games.pitjesbak.state import check_invariants
    check_invariants(state)


def _pegs_fives_invariant(state):
    from dicemath.games.pegs_fives.state import check_state
    check_state(state)


def _backgammon_invariant(state):
    position = state.position
    assert not any(position.on_roll[p - 1] and position.opponent[24 - p] for p in range(1, 25)), state
    assert (state.cube_value == 1) == (state.cube_owner is None), state


def _bohnduell_invariant(state):
    total = sum(state.stocks) + sum(state.pots) + sum(map(sum, state.cups))
    assert total == 2 * state.rules.stock, state


ADVICE_ENVELOPE = frozenset({"game", "state", "unit", "exact", "source", "best", "options", "options[].action",
                             "options[].value"})
"""The keys of every game's ``advise --json`` (:meth:`dicemath.core.advice.Advice.as_dict`)."""

_PEGS_FIVES_QUERIES = (
    frozenset({"game", "goal", "rows", "rows[].row", "rows[].expected_turns", "rows[].expected_turns_exact",
               "rows[].expected_turns_from", "rows[].median_turns", "rows[].p_within_one_turn",
               "rows[].p_within_one_turn_exact", "rows[].p_within_one_turn_from", "rows[].turn_distribution"}),
    ADVICE_ENVELOPE | {"board", "roll", "board_value", "greedy_choice", "ranking", "recommendation", "estimator",
                       "options[].row", "options[].hits", "options[].expected_turns",
                       "options[].expected_turns_including_this", "options[].p_no_progress"},
    frozenset({"game", "open_rows", "boards", "exact", "solver", "expected_turns", "expected_turns_exact",
               "greedy_expected_turns", "greedy_expected_turns_exact"}),
    frozenset({"game", "board", "roll", "rows", "rows[].row", "rows[].outcomes"}),
    frozenset({"game", "state", "diagram", "to_act", "legal_moves", "rules", "board", "turns", "dice", "throws",
               "row", "count", "roll", "over"}),
)


def _pegs_fives_entry(name: str, variants: tuple[dict, ...]) -> GameEntry:
    """Pegs or Fives: one package, two presets, the same commands."""
    board = "0,0,3,0,0,0,1,0,0,0,0,0"
    argv = ((name, "rows"), (name, "advise", "--board", board, "--roll", "3,3,3,5,6,2"),
            (name, "solve", "--open", "7", "--exact"),
            (name, "turn", "--board", "5,5,5,5,5,5,5,5,5,5,5,3", "--roll", "1,1,4,5,6,6"), (name, "show", board))
    state = "pegs | board 0,0,0,0,0,0,0,0,0,0,0,0 | turns 0 | dice 6 throws 3 | row - count 0 | roll -"
    return GameEntry(
        name=name, package="pegs_fives", preset=name.upper(),
        variants=variants,
        games=4,
        invariant=_pegs_fives_invariant,
        queries=tuple(zip(argv, _PEGS_FIVES_QUERIES)),
        bad_rules=(dict(rows=0), dict(rows=13), dict(goal=0), dict(dice=7), dict(throws=0),
                   dict(on_complete="never"), dict(scoring="most")),
        bad_texts=("", state.replace("pegs |", "pegs rows=x |"), state.replace("board 0,", "board 6,"),
                   state.replace("dice 6", "dice 7"), state.replace("throws 3", "throws 4"),
                   state.replace("row -", "row 3"),
                   state.replace("roll -", "roll 1-1-1-1-1-1").replace("0,0,0,0,0,0,0,0,0,0,0,", "5," * 11),
                   state.replace("roll -", "roll 6-6-6"), state + " | over",
                   state.replace("pegs |", "pegs goal=0 |"), state.replace("pegs |", "pegs colour=red |")),
        bad_actions=(((), (1, 2, 3, 4, 5, 7), InvalidDiceError), ((), (1, 2, 3), InvalidDiceError),
                     (("6-5-3-3-3-2",), 4, IllegalMoveError), (("6-5-3-3-3-2",), (1, 2), IllegalMoveError)),
        bad_action_texts=(((), "6-5-4", InvalidDiceError), ((), "6-5-x-3-3-2", InvalidDiceError),
                          (("6-5-3-3-3-2",), "row", IllegalMoveError), (("6-5-3-3-3-2",), "13", IllegalMoveError)),
        bad_query=(name, "advise", "--board", "0,0,3", "--roll", "3,3,3,5,6,2"),
    )


GAMES = (
    GameEntry(
        name="pitjesbak", package=None, preset="STANDARD",
        variants=(dict(), dict(players=3, stripes=3), dict(players=5, stripes=2, die_values="pips")),
        games=4,
        invariant=_pitjesbak_invariant,
        queries=(
            (("pitjesbak", "classes"), frozenset({"die_values", "denominator", "classes", "total_weight",
                                                 "classes[].label", "classes[].kind", "classes[].rank",
                                                 "classes[].wipe", "classes[].penalty", "classes[].weight",
                                                 "classes[].probability", "classes[].exact",
                                                 "classes[].of_216", "classes[].throws"})),
            (("pitjesbak", "round", "--players", "3"),
             frozenset({"players", "wiped", "exact", "win_probabilities", "win_probabilities_exact",
                        "start_after_throw_1", "start_after_throw_2"})),
            (("pitjesbak", "advise", "--my-stripes", "9", "--their-stripes", "9", "--role", "start",
              "--throw-number", "1", "--current", "2-3-4"),
             ADVICE_ENVELOPE | {"options[].win_values", "decision", "stop_win_probability",
                                "throw_win_probability", "stop_values", "throw_values", "my_stripes", "my_wiped",
                                "their_stripes", "their_wiped", "role", "throw_number", "current"}),
            (("pitjesbak", "advise", "--stripes-left", "4,9,1,3,6", "--wiped", "1,0,1,1,1", "--position", "2",
              "--before", "5-5-5,6-6-2", "--limit", "2", "--throw", "6-6-2", "--throws-used", "1"),
             ADVICE_ENVELOPE | {"options[].win_values", "decision", "stop_win_probability",
                                "throw_win_probability", "stop_values", "throw_values", "stripes", "wiped", "position",
                                "before", "limit", "dice", "throws"}),
            (("pitjesbak", "show", "start"),
             frozenset({"game", "state", "diagram", "to_act", "legal_moves", "players", "die_values", "round",
                        "stripes", "wiped", "alive", "start", "order", "limit", "throws", "current", "results",
                        "rolloff", "winner"})),
        ),
        bad_rules=(dict(players=1), dict(players=9), dict(stripes=0), dict(die_values="metric"),
                   dict(players=True)),
        bad_texts=("", "[0:9 1:9] round 0", "[0:9 1:9] round x start 0 order 0,1 turn 0 limit 0 throws 0 "
                   "current - results - rolloff - winner - | last winner - limit 0 results - | "
                   "2 players 9 stripes traditional",
                   "[0:9 1:9] round 0 start 0 order 0,1 turn 0 limit 0 throws 0 current 7 results - "
                   "rolloff - winner - | last winner - limit 0 results - | 2 players 9 stripes traditional",
                   "[0:9 1:9] round 0 start 0 order 0,1 turn 5 limit 0 throws 0 current - results - "
                   "rolloff - winner - | last winner - limit 0 results - | 2 players 9 stripes traditional",
                   "[0:9] round 0 start 0 order 0,1 turn 0 limit 0 throws 0 current - results - "
                   "rolloff - winner - | last winner - limit 0 results - | 2 players 9 stripes traditional"),
        bad_actions=(((), (1, 2, 7), InvalidDiceError), ((), (1, 2), InvalidDiceError),
                     (("6-5-4",), "pass", IllegalMoveError), ((), "stop", InvalidDiceError)),
        bad_action_texts=(((), "6-5", InvalidDiceError), (("6-5-4",), "pass", IllegalMoveError),
                          (("2-2-3", "stop", "2-2-3"), "seat 2", IllegalMoveError)),
        bad_query=("pitjesbak", "classes", "--stripes", "-1"),
    ),
    GameEntry(
        name="bohnduell", package=None, preset="STANDARD",
        variants=(dict(stock=8), dict(cups=3, stock=6, capture="every"), dict(cups=6, stock=10)),
        games=6,
        invariant=_bohnduell_invariant,
        queries=(
            (("bohnduell", "solve", "--stock", "5"),
             frozenset({"cups", "stock", "capture", "value", "value_view", "first_moves", "optimal_first_moves",
                        "principal_variation", "final_pots", "positions", "seconds"})),
            (("bohnduell", "advise", "start", "--stock", "5", "--table-stock", "5", "--depth", "2"),
             ADVICE_ENVELOPE | {"to_move", "value_view", "game_over", "pots", "table_stock", "depth",
                                "options[].move", "options[].method"}),
            (("bohnduell", "show", "start", "--stock", "3"),
             frozenset({"game", "state", "diagram", "to_act", "legal_moves", "position", "capture", "stocks", "cups",
                        "pots"})),
        ),
        bad_rules=(dict(cups=2), dict(cups=11), dict(stock=-1), dict(capture="all"), dict(cups=4.0)),
        bad_texts=("", "5:0,0,0,0:0/5:0,0,0,0:0/C", "5:0,0,0,0:0/4:0,0,0,0:0/A", "5:0,-1,0,1:0/5:0,0,0,0:0/A"),
        bad_actions=(((), "H1", IllegalMoveError), ((), "S9", IllegalMoveError), (("S4",), "P", IllegalMoveError)),
        bad_action_texts=(((), "X1", IllegalMoveError), ((), "S0", IllegalMoveError)),
        bad_query=("bohnduell", "solve", "--cups", "2"),
    ),
    _pegs_fives_entry("pegs", (dict(rows=3), dict(rows=4, goal=3), dict(rows=3, throws=2, all_dice_first=False))),
    _pegs_fives_entry("fives", (dict(rows=3), dict(rows=4, goal=3, dice=4), dict(rows=2, on_complete="remaining"))),
    GameEntry(
        name="backgammon", package=None, preset="STANDARD",
        variants=(dict(), dict(playtive=True)),
        games=6,
        invariant=_backgammon_invariant,
        queries=(
            (("backgammon", "moves", "4HPwATDgc/ABMA", "3", "1"),
             frozenset({"position_id", "dice", "rules", "moves", "moves[].move", "moves[].position_id"})),
            (("backgammon", "show", "4HPwATDgc/ABMA"),
             frozenset({"game", "state", "diagram", "to_act", "legal_moves", "rules", "position_id", "xgid_position",
                        "pip_count", "opponent_pip_count", "phase", "dice", "cube_value", "cube_owner"})),
            (("backgammon", "bearoff", "0,0,0,0,0,2"),
             frozenset({"board", "rules", "pip_count", "mean_rolls", "distribution", "effective_pip_count",
                        "gammon_mean_rolls"})),
            (("backgammon", "cube", "--win", "0.72", "--gammon", "0.12", "--lose-gammon", "0.03"),
             frozenset({"win", "gammon", "backgammon", "lose_gammon", "lose_backgammon", "average_win",
                        "average_loss", "cubeless_equity", "efficiency", "take_point", "take_point_dead",
                        "take_point_live", "cash_point", "doubling_point", "redoubling_point", "cubeful_equity",
                        "no_double", "double_take", "action"})),
        ),
        bad_rules=(dict(playtive="yes"), dict(playtive=1), dict(playtive=None)),
        bad_texts=("", "4HPwATDgc/ABMA X nowhere cube 1", "4HPwATDgc/ABMA X roll cube 3",
                   "4HPwATDgc/ABMA X roll cube 2", "4HPwATDgc/ABMA Z roll cube 1", "notAnId X roll cube 1",
                   "4HPwATDgc/ABMA X play 7-1 cube 1", "4HPwATDgc/ABMA X over cube 1",
                   "4HPwATDgc/ABMA X may-double cube 2O"),
        bad_actions=(((), (3, 3), InvalidDiceError), ((), (7, 1), InvalidDiceError),
                     (("6-5",), "double", IllegalMoveError), (("6-5",), "24/14", IllegalMoveError),
                     (("6-5", "24/13"), "take", IllegalMoveError)),
        bad_action_texts=(((), "6-6", InvalidDiceError), ((), "six-five", IllegalMoveError),
                          (("6-5",), "24/20 13/7", IllegalMoveError), (("6-5",), "23/17 24/19", IllegalMoveError)),
        bad_query=("backgammon", "moves", "notAnId", "3", "1"),
    ),
    GameEntry(
        name="pig", package=None, preset="STANDARD",
        variants=(dict(goal=10), dict(goal=25)),
        games=6,
        invariant=None,
        queries=(
            (("pig", "game"), frozenset({"game", "rules", "win_probabilities", "hold_at_start",
                                         "published", "states", "layers", "sweeps", "tolerance", "solve_seconds"})),
            (("pig", "show", "start"),
             frozenset({"game", "state", "diagram", "to_act", "legal_moves", "phase", "rules", "scores",
                        "turn_total"})),
        ),
        bad_rules=(dict(goal=0), dict(goal="100"), dict(goal=True)),
        bad_texts=("", "x", "0:0-0 t1 choose", "3:0-0 t0 choose"),
        bad_actions=(((), "hold", IllegalMoveError), ((), 4, IllegalMoveError), (("roll",), "roll", IllegalMoveError)),
        bad_action_texts=(((), "pass", IllegalMoveError),),
        bad_query=("pig", "game", "--goal", "0"),
    ),
)

ENTRIES = pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])


def test_every_registered_game_is_checked_here_and_reachable_through_every_door():
    from dicemath import analysis, reporting
    from dicemath.cli import build_parser
    from dicemath.games import registry

    checked = {g.name: g for g in GAMES}
    assert sorted(checked) == sorted(registry.game_names())
    commands = build_parser()._subparsers._group_actions[0].choices
    for entry in registry.GAMES:
        assert entry.name in commands and entry.rules_text()
        assert isinstance(analysis.adapter(entry.name), analysis.GameAnalysis)
        assert {r.name for r in entry.report_sections()} <= set(reporting.section_names())


@ENTRIES
def test_vocabulary(game):
    module = game.module
    rules = game.standard
    assert dataclasses.is_dataclass(module.Rules) and module.Rules.__dataclass_params__.frozen
    again = module.Rules(**{f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)})
    assert isinstance(rules, module.Rules) and rules == again and hash(rules) == hash(again)
    assert module.Rules() in [v for v in vars(module).values() if isinstance(v, module.Rules)]  # a preset
    start = module.initial_state(rules)
    assert isinstance(start, module.State) and isinstance(start, GameState) and start.rules == rules
    assert module.initial_state(rules) == start and hash(module.initial_state(rules)) == hash(start)
    assert callable(module.advise)


@ENTRIES
def test_random_play_keeps_invariants_and_exact_chance(game):
    """Random games end; every state passes the core's consistency check (chance
    probabilities are exact Fractions summing to exactly 1, actions sorted and distinct)
    and the game's invariant."""
    module = game.module

    def check(state):
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert all(isinstance(p, Fraction) for _, p in outcomes)
            assert sum(p for _, p in outcomes) == 1
        if game.invariant is not None:
            game.invariant(state)

    for seed, variant in enumerate(game.variants):
        start = module.initial_state(game.rules(variant))
        assert check_random_play(start, games=game.games, seed=seed, invariant=check) > game.games


@ENTRIES
def test_text_forms_round_trip(game):
    """States, actions and chance outcomes read back from their text, along random games."""
    module = game.module
    rng = random.Random(7)
    for variant in game.variants:
        state = module.initial_state(game.rules(variant))
        for _ in range(400):
            assert module.State.from_str(str(state)) == state
            player = state.current_player()
            if player == TERMINAL:
                break
            choices = ([o for o, _ in state.chance_outcomes()] if player == CHANCE else list(state.legal_actions()))
            for action in choices:
                assert state.parse_action(state.action_text(action)) == action
            state = state.apply(rng.choice(choices))


def _key_paths(result: dict) -> set[str]:
    paths = set(result)
    for key, value in result.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            paths |= {f"{key}[].{inner}" for v in value for inner in v}
    return paths


@ENTRIES
def test_json_keys_are_stable(game, capsys):
    for argv, keys in game.queries:
        assert main([*argv, "--json"]) == 0, argv
        assert _key_paths(json.loads(capsys.readouterr().out)) == keys, argv


@ENTRIES
def test_bad_input_raises_the_documented_errors(game, capsys):
    module = game.module
    for kwargs in game.bad_rules:
        with pytest.raises(InvalidRulesError):
            module.Rules(**kwargs)
    for text in game.bad_texts:
        with pytest.raises(InvalidStateError):
            module.State.from_str(text)
    for path, action, error in game.bad_actions:
        with pytest.raises(error):
            _follow(game, path).apply(action)
    for path, text, error in game.bad_action_texts:
        with pytest.raises(error):
            _follow(game, path).parse_action(text)
    # advice needs a player's decision
    state = module.initial_state(game.rules(game.variants[0]))
    while state.current_player() >= 0:
        state = state.apply(state.legal_actions()[0])
    with pytest.raises(InvalidStateError):
        module.advise(state)
    # the command line turns input errors into a message and exit status 2
    assert main(list(game.bad_query)) == 2
    assert "error" in capsys.readouterr().err


def _follow(game, path):
    state = game.module.initial_state(game.standard)
    for text in path:
        state = state.apply(state.parse_action(text))
    return state


def _decision_states(start, rng: random.Random, count: int, max_steps: int = 400) -> list:
    """Up to ``count`` distinct decision states met along random games from ``start``."""
    found = []
    state = start
    for _ in range(max_steps):
        player = state.current_player()
        if player == TERMINAL:
            state = start
            continue
        if player == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            state = state.apply(rng.choices(outcomes, weights=[float(w) for w in weights])[0])
            continue
        if state not in found:
            found.append(state)
            if len(found) == count:
                break
        state = state.apply(rng.choice(list(state.legal_actions())))
    return found


@ENTRIES
def test_advise_gives_the_one_advice_type_at_every_decision(game, capsys):
    """``advise(state)`` answers random decisions of the standard game with the core's
    Advice: one option per legal action, best first, the JSON envelope; and
    ``dicemath GAME advise STATE --json`` gives the same answer."""
    from dicemath.core.advice import Advice

    module = game.module
    assert callable(module.analyse)
    rng = random.Random(11)
    for state in _decision_states(module.initial_state(game.standard), rng, 3):
        advice = module.advise(state)
        assert isinstance(advice, Advice) and advice.game == game.name and advice.state == str(state)
        assert sorted(map(str, (o.action for o in advice.options))) == sorted(map(str, state.legal_actions()))
        assert all(o.text == state.action_text(o.action) for o in advice.options)
        values = [float(o.value) for o in advice.options]
        sign = 1 if advice.higher_is_better else -1
        assert all(sign * (a - b) >= -1e-9 for a, b in zip(values, values[1:])), values
        envelope = advice.as_dict()
        assert _key_paths(envelope) >= ADVICE_ENVELOPE and envelope["best"] == advice.best.text
        assert main([game.name, "advise", str(state), "--json"]) == 0
        answer = json.loads(capsys.readouterr().out)
        assert answer["best"] == envelope["best"] and answer["exact"] == envelope["exact"]
        assert [o["action"] for o in answer["options"]] == [o["action"] for o in envelope["options"]]
