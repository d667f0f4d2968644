"""Readable figures: the one place that sets the font sizes of the library's matplotlib figures.

Each figure is drawn with matplotlib's defaults; :func:`readable` then raises every text of
the finished figure (tick labels, axis labels, legends, annotations) to at least
:data:`TEXT_SIZE` points and the titles to :data:`TITLE_SIZE`, and lays the figure out
again so that the larger text fits. It changes only the figure it is given, never
matplotlib's settings or backend, so a notebook keeps its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from matplotlib.figure import Figure

TEXT_SIZE = 11
"""The smallest text of a figure, in points."""
TITLE_SIZE = 13
"""The size of the axes' titles, in points."""


def readable(figure: Figure) -> Figure:
    """``figure`` with every text at least :data:`TEXT_SIZE` points and its titles
    :data:`TITLE_SIZE`, laid out again (returned for chaining).

    Example:
        >>> import matplotlib.pyplot as plt
        >>> figure, axis = plt.subplots()
        >>> _ = axis.set_xlabel("turns", fontsize=6)
        >>> readable(figure).axes[0].xaxis.label.get_fontsize()
        11.0
        >>> plt.close(figure)
    """
    from matplotlib.text import Text

    for axes in figure.axes:
        axes.tick_params(labelsize=TEXT_SIZE)
    titles = {axes.title for axes in figure.axes}
    for text in figure.findobj(Text):
        smallest = TITLE_SIZE if text in titles else TEXT_SIZE
        if cast(float, text.get_fontsize()) < smallest:      # matplotlib's stubs say float | str; it is points
            text.set_fontsize(smallest)
    if figure.get_layout_engine() is None:
        figure.tight_layout()
    return figure
