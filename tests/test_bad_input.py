"""No input that breaks it: every command of the command line and the page's API,
driven with malformed and edge input, answers or refuses it (exit 2 / a DicemathError, which
the page answers with HTTP 400), never with a traceback or a 500; with ``--json`` the error
is one JSON object ``{"error": MESSAGE}`` on stdout (:mod:`dicemath.cli`).

The argv of each sub-command are generated from the parser itself (:func:`leaf_commands`);
values mix what the rules refuse (negative and huge numbers, wrong types, non-ASCII text,
lists with duplicates, empty strings) with small valid ones, so that a valid example never
starts a long exact computation. Every example has a time limit (:data:`EXAMPLE_SECONDS`):
work is bounded, so an example that runs longer is a failure too.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import signal
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicemath.cli import build_parser, main
from dicemath.cli.page_api import advise, picture, state_fields
from dicemath.core.errors import DicemathError
from dicemath.core.requests import Field
from dicemath.games.registry import game, game_names

EXCLUDED = {
    "serve": "starts a server (the page's API is driven in-process below)",
    "report": "writes report files",
    "warmup": "builds the first-use tables",
    "cache clear": "removes the cache",
    "pegs build-table": "writes a table of 6**12 boards",
    "fives build-table": "writes a table of 6**12 boards",
    "backgammon build-bearoff": "writes the bear-off database",
    "bohnduell table build": "writes a strong table to disk (its refusals: tests/bohnduell/test_strong_table.py)",
    "bohnduell proof search": "searches as long as its budget (its refusals: tests/bohnduell/test_proof.py)",
    "bohnduell proof reproduce": "builds a strong table and proves a game as long as they take (its refusals: "
                                 "tests/bohnduell/test_proof_record.py)",
}
"""Commands not driven here, each with its reason (they write files or start servers)."""

OUT_OF_SCOPE_OPTIONS = {"--svg", "--plot", "--pictures", "--table", "--out", "--guide", "--scheduler"}
"""File and folder options: what they refuse is tested in the commands' own tests, and a
valid value would write files."""

EXAMPLE_SECONDS = 180
"""The most one example may take (work is bounded, and refused input is refused up front); the
first example of a command may build a first-use table, which on a loaded machine takes a
minute or more."""


def leaf_commands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()):
    """``(words, parser)`` of every runnable sub-command (``("pegs", "advise")``, ...)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]   # no public list
    if not subs:
        yield prefix, parser
        return
    for name, sub in subs[0].choices.items():
        yield from leaf_commands(sub, prefix + (name,))


COMMANDS = [(words, sub) for words, sub in leaf_commands(build_parser())
            if " ".join(words) not in EXCLUDED and words[0] not in EXCLUDED]

SMALL = st.integers(-3, 13)
HUGE = st.sampled_from([-(10 ** 30), -1, 10 ** 6, 10 ** 12, 2 ** 63, 10 ** 40])
NUMBER = st.one_of(SMALL, HUGE).map(str)
TEXT = st.one_of(st.sampled_from(["", " ", "x", "1e9", "nan", "inf", "-0", "1.5", "0x10", "é", "６", "∞", "½",
                                  "start", "out", "5-5-5", "6-6-2", "1-1-1", "7-7-7", "---", "|", "a,b",
                                  "\u0000", "ü" * 300]),
                 st.text(max_size=12))
THROW = st.lists(st.integers(-1, 8), min_size=0, max_size=4).map(lambda faces: "-".join(map(str, faces)))
LIST = st.lists(st.one_of(SMALL, HUGE), min_size=0, max_size=14).map(lambda items: ",".join(map(str, items)))
DUPLICATES = st.lists(st.integers(0, 12), min_size=2, max_size=4).map(
    lambda items: ",".join(map(str, items + items[:1])))
VALUE = st.one_of(NUMBER, TEXT, THROW, LIST, DUPLICATES)


OPTION_VALUES = {"--games": st.sampled_from(["-1", "0", "1", "2", "x", str(10 ** 12)])}
"""Options whose valid values are kept small (a simulation's games; always given, as their
default is long work)."""


def option_values(action: argparse.Action):
    """A strategy for the value(s) of one option: its choices (and some that are not), or
    :data:`VALUE`."""
    special = [OPTION_VALUES[o] for o in action.option_strings if o in OPTION_VALUES]
    if special:
        return special[0].map(lambda v: [v])
    one = VALUE if not action.choices else st.one_of(st.sampled_from(sorted(map(str, action.choices))), VALUE)
    if isinstance(action.nargs, int):
        return st.lists(one, min_size=action.nargs, max_size=action.nargs)
    return one.map(lambda v: [v])


@st.composite
def argv_of(draw, words: tuple[str, ...], parser: argparse.ArgumentParser):
    """An argv for one sub-command: each option given or not, with a drawn value."""
    argv = list(words)
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            continue
        if not action.option_strings:                      # a positional (STATE, FILE)
            if action.nargs == "?" and not draw(st.booleans()):
                continue
            argv.append(draw(VALUE))
            continue
        if set(action.option_strings) & OUT_OF_SCOPE_OPTIONS:
            continue
        forced = action.required or bool(set(action.option_strings) & set(OPTION_VALUES))
        if not forced and not draw(st.booleans()):
            continue
        flag = draw(st.sampled_from(action.option_strings))
        if action.nargs == 0:
            argv.append(flag)
        else:
            argv += [flag, *draw(option_values(action))]
    if draw(st.booleans()):
        argv.append("--json")
    return argv


class TookTooLong(Exception):
    """An example ran past :data:`EXAMPLE_SECONDS`."""


@contextlib.contextmanager
def time_limit(seconds: int):
    """Raise :class:`TookTooLong` in this (main) thread after ``seconds``."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(*_):
        raise TookTooLong(f"more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``main(argv)`` with its output captured: ``(code, stdout, stderr)``; a usage error's
    ``SystemExit`` is its code. Any other exception (a traceback) fails the test."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_limit(EXAMPLE_SECONDS):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code
        except TookTooLong:
            pytest.fail(f"dicemath {' '.join(argv)} ran more than {EXAMPLE_SECONDS} s: limits missing")
        except Exception as error:                        # noqa: BLE001 - any other one is the bug looked for
            pytest.fail(f"dicemath {' '.join(argv)} raised {type(error).__name__}: {error}")
    return code, out.getvalue(), err.getvalue()


def check_answer(argv: list[str]) -> None:
    """The property: exit 0 or 2, no traceback, a named error, JSON under ``--json``."""
    code, out, err = run_cli(argv)
    assert code in (0, 2), (argv, code, err)
    assert "Traceback" not in out + err, (argv, err)
    if code == 2:
        assert "error: " in err, (argv, err)
        message = err.strip().splitlines()[-1].split("error: ", 1)[1]
        assert message.strip(), (argv, err)
        if "--json" in argv:
            assert json.loads(out.strip().splitlines()[-1]) == {"error": message}, (argv, out)


FUZZ = settings(max_examples=12, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("words, parser", COMMANDS, ids=[" ".join(w) for w, _ in COMMANDS])
def test_every_command_answers_or_names_the_problem(words, parser):
    @FUZZ
    @given(argv_of(words, parser))
    def prop(argv):
        check_answer(argv)

    prop()


@pytest.mark.slow
@pytest.mark.parametrize("words, parser", COMMANDS, ids=[" ".join(w) for w, _ in COMMANDS])
def test_every_command_answers_or_names_the_problem_long(words, parser):
    @settings(FUZZ, max_examples=200, derandomize=False)
    @given(argv_of(words, parser))
    def prop(argv):
        check_answer(argv)

    prop()


def test_every_excluded_command_exists():
    """The exclusions name real commands (a renamed one would be driven silently otherwise)."""
    names = {" ".join(w) for w, _ in leaf_commands(build_parser())} | {w[0] for w, _ in leaf_commands(build_parser())}
    assert set(EXCLUDED) <= names


# -- the page's API ---------------------------------------------------------------------------

def page_fields(name: str) -> tuple[str, ...]:
    """The keys of each form of a game's ``advise`` request: the fields it declares
    (:meth:`~dicemath.core.game.Game.page_fields`) and the state form's, with a key that is none."""
    own = tuple(f.name for f in game(name).page_fields())
    return own + tuple(f.name for f in state_fields(game(name)) if f.name not in own) + ("unknown",)


JSON_VALUE = st.one_of(VALUE, st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                       st.lists(SMALL, max_size=3), st.dictionaries(st.text(max_size=3), SMALL, max_size=2))


def _valid(field: Field):
    """Values ``field`` takes (its example, its choices, whole numbers at and beyond its bounds)."""
    options = [st.just(field.example)] if field.example else []
    if field.choices:
        options.append(st.sampled_from(field.choices))
    if field.kind == "int":
        options.append(st.integers(-1 if field.low is None else field.low - 1,
                                   (field.low or 0) + 12 if field.high is None else field.high + 1))
    if field.kind == "flag":
        options.append(st.booleans())
    return st.one_of(*options) if options else JSON_VALUE


@st.composite
def requests_of(draw, name: str):
    """A request of either form of a game: each key present or not, a value its field takes or
    any JSON value (the fuzz reaches unknown keys, fields that do not apply, bounds)."""
    fields = {f.name: f for f in state_fields(game(name)) + game(name).page_fields()}
    request = {"game": name}
    for key in page_fields(name):
        if draw(st.booleans()):
            request[key] = draw(st.one_of(_valid(fields[key]), JSON_VALUE) if key in fields else JSON_VALUE)
    return request


def check_page(route, request: dict) -> None:
    with time_limit(EXAMPLE_SECONDS):
        try:
            answer = route(request)
        except DicemathError as error:                    # HTTP 400 with {"error": MESSAGE}, in the page's words
            assert str(error).strip(), request
            assert not re.search(r"(?<![\w-])--[a-z]", str(error)), (request, str(error))
            return
        except TookTooLong:
            pytest.fail(f"{request} ran more than {EXAMPLE_SECONDS} s")
        except Exception as error:                        # noqa: BLE001 - the server's 500
            pytest.fail(f"{request} raised {type(error).__name__}: {error}")
    json.dumps(answer)


@pytest.mark.parametrize("name", game_names())
def test_page_advise_answers_or_names_the_problem(name):
    @FUZZ
    @given(requests_of(name))
    def prop(request):
        check_page(advise, request)

    prop()


@pytest.mark.parametrize("name", game_names())
def test_page_picture_answers_or_names_the_problem(name):
    @FUZZ
    @given(requests_of(name))
    def prop(request):
        check_page(picture, request)

    prop()


@FUZZ
@given(st.one_of(st.dictionaries(st.text(max_size=5), JSON_VALUE, max_size=3),
                 st.fixed_dictionaries({"game": JSON_VALUE})))
def test_page_requests_of_no_game(request):
    check_page(advise, request)
    check_page(picture, request)


# -- the known breakages ----------------------------------------------------------------------

FINISHED = "5,5,5,5,5,5,5,5,5,5,5,5"


def refused(argv: list[str]) -> str:
    """The message of a refused command line (exit 2, no traceback)."""
    code, out, err = run_cli(argv)
    assert code == 2 and "Traceback" not in err, (argv, code, err)
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize("game", ["pegs", "fives"])
def test_a_finished_board_is_refused_in_every_form(game):
    assert "finished" in refused([game, "advise", "--board", FINISHED, "--roll", "1,2,3,4,5,6"])
    with pytest.raises(DicemathError, match="finished"):
        advise({"game": game, "board": FINISHED, "roll": "1,2,3,4,5,6"})


def test_a_finished_board_is_http_400():
    from dicemath.cli.page import make_server

    server = make_server("127.0.0.1", 0, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/api/advise"
        for body in ({"game": "pegs", "board": FINISHED, "roll": "1,2,3,4,5,6"},
                     {"game": "pegs", "board": "5,5,x"}, {"game": "nope"}, {"game": ["pegs"]}):
            request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as answer:
                urllib.request.urlopen(request, timeout=60)
            assert answer.value.code == 400, body
            assert json.loads(answer.value.read())["error"], body
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("query", [["sum"], ["hits", "--target", "6"]])
def test_every_dice_query_has_the_upper_limit_stated_in_the_help(query):
    from dicemath.core.commands import MAX_DICE

    assert f"--dice must be 1..{MAX_DICE}" in refused(["dice", query[0], "--dice", "100000", *query[1:]])
    assert "--dice must be" in refused(["dice", query[0], "--dice", "0", *query[1:]])
    code, out, _ = run_cli(["dice", query[0], "--help"])
    assert code == 0 and f"1..{MAX_DICE}" in out


def test_open_rows_named_twice_are_refused():
    assert "twice" in refused(["pegs", "solve", "--open", "1,1"])
    assert "twice" in refused(["pegs", "race", "--open", "3,3"])


@pytest.mark.parametrize("threshold", ["-1", "nan", "inf"])
def test_a_threshold_below_zero_or_not_finite_is_refused(threshold):
    record = Path(__file__).resolve().parent.parent / "docs" / "examples" / "pig-game.json"
    assert "--threshold" in refused(["analyse", str(record), "--threshold", threshold])


@pytest.mark.parametrize("situation", [
    ["--stripes-left", "7,9,9,9", "--position", "0"],
    ["--stripes-left", "7,9", "--position", "0"],
    ["--my-stripes", "7", "--their-stripes", "9", "--role", "start"],
])
def test_a_player_who_never_wiped_has_the_starting_stripes_in_every_form(situation):
    """Refused up front (no table is built for it), the same through every form."""
    message = refused(["pitjesbak", "advise", *situation, "--throw", "6-5-4", "--throws-used", "1"])
    assert "never wiped" in message
    state = ("[0:7 1:9] round 0 start 0 order 0,1 turn 0 limit 0 throws 1 current 456 results - rolloff - "
             "winner - | last winner - limit 0 results - | 2 players 9 stripes traditional")
    assert "never wiped" in refused(["pitjesbak", "advise", state])


def test_json_errors_are_json_on_stdout():
    code, out, err = run_cli(["dice", "hits", "--dice", "0", "--target", "6", "--json"])
    assert code == 2 and json.loads(out)["error"].startswith("--dice must be") and "error:" in err
    code, out, _ = run_cli(["dice", "hits", "--dice", "x", "--target", "6", "--json"])
    assert code == 2 and "invalid int value" in json.loads(out)["error"]
