"""Report figures are readable without touching matplotlib's settings; report pages link
pictures of positions that exist."""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot as plt
import pytest

from dicemath.analysis import analyse
from dicemath.analysis.plot import analysis_figure
from dicemath.core.svg import Drawing
from dicemath.reporting.context import ReportContext
from dicemath.core.figures import TEXT_SIZE, TITLE_SIZE, readable
from dicemath.games.registry import GAMES

from ..conftest import REPO, linked_pictures

GAME_SECTIONS = ("pegs", "fives", "pitjesbak", "backgammon_bearoff", "backgammon_cube", "bohnduell", "analyse")
"""The committed report sections that draw positions."""


def _tiny_figure():
    figure, axes = plt.subplots(1, 2)
    for axis in axes:
        axis.plot([0, 1], [1, 0], label="a line")
        axis.set_title("a title", fontsize=6)
        axis.set_xlabel("x", fontsize=5)
        axis.tick_params(labelsize=5)
        axis.legend(fontsize=5)
        axis.annotate("note", (0.5, 0.5), fontsize=4)
    return figure


def _sizes(figure):
    from matplotlib.text import Text

    figure.canvas.draw()
    titles = {axis.title for axis in figure.axes}
    texts = [t for t in figure.findobj(Text) if t.get_text() and t not in titles]
    ticks = [label for axis in figure.axes for label in axis.get_xticklabels() + axis.get_yticklabels()]
    return [t.get_fontsize() for t in texts + ticks], [t.get_fontsize() for t in titles]


def test_readable_raises_every_text_and_leaves_matplotlib_alone():
    settings, backend = dict(matplotlib.rcParams), matplotlib.get_backend()
    figure = _tiny_figure()
    texts, titles = _sizes(figure)
    assert min(texts) < TEXT_SIZE and max(titles) < TITLE_SIZE
    readable(figure)
    texts, titles = _sizes(figure)
    assert min(texts) >= TEXT_SIZE and min(titles) >= TITLE_SIZE and len(texts) > 10
    assert dict(matplotlib.rcParams) == settings and matplotlib.get_backend() == backend
    plt.close(figure)


def test_report_figures_are_saved_readable(tmp_path):
    figure = _tiny_figure()
    assert ReportContext(tmp_path).save_figure(figure, "tiny.png", "tiny") == "![tiny](tiny.png)"
    texts, titles = _sizes(figure)
    assert min(texts) >= TEXT_SIZE and min(titles) >= TITLE_SIZE
    assert (tmp_path / "tiny.png").stat().st_size > 1000


def test_the_analysis_figure_is_readable_and_says_what_its_axis_counts():
    record = min((REPO / "dicemath" / "data" / "records").glob("*.json"), key=lambda path: path.stat().st_size)
    result = analyse(record, GAMES)
    figure = analysis_figure(result)
    assert figure.axes[0].get_xlabel() == "moves played so far (each throw and each choice counts one)"
    assert min(_sizes(figure)[0]) >= TEXT_SIZE
    plt.close(figure)


def test_a_picture_is_saved_next_to_the_markdown(tmp_path):
    document = Drawing(100, 60, "A position").to_svg()
    link = ReportContext(tmp_path).save_picture(document, "position.svg", "a position")
    assert link == "![a position](position.svg)"
    assert linked_pictures(link, tmp_path) == [tmp_path / "position.svg"]
    with pytest.raises(AssertionError, match="linked but not written"):
        linked_pictures("![gone](gone.svg)", tmp_path)


@pytest.mark.parametrize("name", GAME_SECTIONS)
def test_committed_game_sections_show_a_drawn_position(name):
    folder = REPO / "reports"
    assert linked_pictures((folder / f"{name}.md").read_text(encoding="utf-8"), folder)


def test_every_committed_report_links_images_that_exist():
    folder = REPO / "reports"
    for page in folder.glob("*.md"):
        linked_pictures(page.read_text(encoding="utf-8"), folder)
