"""The ``analyse`` report section covers the games it is handed: every game with a record appears
in every table and heading, in the order of the games handed, and a record of a game it was not
handed is refused."""

from __future__ import annotations

import shutil

import pytest

from dicemath.analysis import InvalidRecordError
from dicemath.games.registry import GAMES
from dicemath.reporting.context import ReportContext
from dicemath.reporting.sections.analyse import compute, render, section

from ..conftest import REPO

EXAMPLES = REPO / "docs" / "examples"
"""One whole played game of each registered game (``<game>-game.json``)."""


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """A folder holding the example game of every registered game."""
    folder = tmp_path_factory.mktemp("records")
    for game in GAMES:
        shutil.copy(EXAMPLES / f"{game.name}-game.json", folder)
    return folder


def test_every_game_handed_appears_in_every_table_in_the_order_handed(records, tmp_path):
    context = ReportContext(tmp_path)
    report = compute(context, GAMES, folder=records)
    names = tuple(game.name for game in GAMES)
    assert report.games == names
    assert tuple(dict.fromkeys(row.game for row in report.policies)) == names
    assert set(report.groupings) == set(names) == {cell.game for cell in report.groups}
    markdown = render(report, context)
    summary = markdown[:markdown.index("## Where the losses concentrate")]
    concentration = markdown[markdown.index("## Where the losses concentrate"):]
    for name in names:
        assert f"- **{name}** (" in summary and f"### {name}\n" in concentration
    drawn = [picture.game for picture in report.costliest]
    assert drawn == [name for name in names if name in drawn]


def test_a_record_of_a_game_not_handed_is_refused(records, tmp_path):
    with pytest.raises(InvalidRecordError):
        compute(ReportContext(tmp_path), GAMES[:1], folder=records)
    assert section(GAMES).name == "analyse"
