"""A small SVG builder for the pictures of positions (every game state's ``_repr_svg_``).

Elements are made by pure functions that return their markup: :func:`rect`,
:func:`circle`, :func:`line`, :func:`polygon`, :func:`text`, :func:`group` and the die face
:func:`die`. A :class:`Drawing` (frozen) collects them and writes a standalone SVG document
with a ``viewBox``, so the picture scales, a white background and its title as the first
line. Text and attribute values are escaped; text smaller than :data:`MIN_FONT_SIZE` is
refused. Keyword attributes are written with ``-`` for ``_`` (``stroke_width`` ->
``stroke-width``; ``class_`` -> ``class``); an attribute that is None is left out. Every
element takes ``title=``, a tooltip (SVG ``<title>``) that also names it for screen readers.

The colours are the Okabe-Ito palette (M. Okabe and K. Ito, *Color Universal Design*,
2008), told apart with the common colour-vision deficiencies; the drawings never rely on
colour alone but also write a word or a number.

Example:
    >>> picture = Drawing(120, 80, "A throw").add(die(10, 40, 30, 6), die(50, 40, 30, 3))
    >>> picture.to_svg().startswith('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"')
    True
    >>> text(10, 20, "Tom & Jerry")
    '<text x="10" y="20" font-size="14">Tom &amp; Jerry</text>'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, cast
from xml.etree import ElementTree

ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
GREEN = "#009E73"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
"""Colours of the Okabe-Ito palette (see the module docstring)."""

INK = "#222222"
GREY = "#767676"
LIGHT = "#E8E8E8"
PAPER = "#FFFFFF"
"""Neutrals: text and lines, muted text and outlines (4.5:1 on white), fills, background."""

FONT_SIZE = 14
"""The default size of text, in pixels."""
MIN_FONT_SIZE = 12
"""The smallest text :func:`text` writes, in pixels."""
HEADING_SIZE = 18
"""The size of a drawing's title line."""
HEADING_HEIGHT = 34
"""The height of the title line at the top of every :class:`Drawing`: content starts below."""

_PIPS = {1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
         4: ((0, 0), (2, 0), (0, 2), (2, 2)), 5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
         6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2))}
"""Pip places of each face on a 3 x 3 grid (column, row)."""


def _number(value: float) -> str:
    """A coordinate as short text: ``12``, ``12.5``, ``0.33``."""
    if isinstance(value, int):
        return str(value)
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _attributes(attributes: Mapping[str, object]) -> str:
    parts = []
    for name, value in attributes.items():
        if value is None:
            continue
        name = name.rstrip("_").replace("_", "-")
        shown = _number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
        parts.append(f' {name}="{escape(shown, quote=True)}"')
    return "".join(parts)


def element(tag: str, attributes: Mapping[str, object], content: str = "", title: str | None = None) -> str:
    """The markup of one element; ``content`` is markup (already escaped), ``title`` plain text.

    Example:
        >>> element("rect", {"width": 10, "height": 5.5}, title="a box")
        '<rect width="10" height="5.5"><title>a box</title></rect>'
    """
    inner = (f"<title>{escape(title, quote=False)}</title>" if title else "") + content
    if not inner:
        return f"<{tag}{_attributes(attributes)}/>"
    return f"<{tag}{_attributes(attributes)}>{inner}</{tag}>"


def rect(x: float, y: float, width: float, height: float, *, title: str | None = None, **attributes: object) -> str:
    """A rectangle with its top left corner at ``(x, y)``.

    Example:
        >>> rect(0, 0, 20, 10, fill=BLUE, title="a row")
        '<rect x="0" y="0" width="20" height="10" fill="#0072B2"><title>a row</title></rect>'
    """
    return element("rect", {"x": x, "y": y, "width": width, "height": height, **attributes}, title=title)


def circle(cx: float, cy: float, r: float, *, title: str | None = None, **attributes: object) -> str:
    """A circle of radius ``r`` centred at ``(cx, cy)``.

    Example:
        >>> circle(10, 10, 4.5, stroke_width=2)
        '<circle cx="10" cy="10" r="4.5" stroke-width="2"/>'
    """
    return element("circle", {"cx": cx, "cy": cy, "r": r, **attributes}, title=title)


def line(x1: float, y1: float, x2: float, y2: float, *, title: str | None = None, **attributes: object) -> str:
    """A straight line (default stroke :data:`INK`).

    Example:
        >>> line(0, 0, 10, 0, stroke=GREY)
        '<line x1="0" y1="0" x2="10" y2="0" stroke="#767676"/>'
    """
    return element("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": INK, **attributes}, title=title)


def polygon(points: Sequence[tuple[float, float]], *, title: str | None = None, **attributes: object) -> str:
    """A closed polygon through ``points``.

    Example:
        >>> polygon([(0, 0), (10, 0), (5, 8.5)])
        '<polygon points="0,0 10,0 5,8.5"/>'
    """
    listed = " ".join(f"{_number(x)},{_number(y)}" for x, y in points)
    return element("polygon", {"points": listed, **attributes}, title=title)


def text(x: float, y: float, content: str, *, size: int = FONT_SIZE, title: str | None = None,
         **attributes: object) -> str:
    """Text with its baseline starting at ``(x, y)`` (``text_anchor="middle"`` centres it).

    Raises:
        ValueError: ``size`` below :data:`MIN_FONT_SIZE` (too small to read).

    Example:
        >>> text(50, 20, "12 < 13", size=16, text_anchor="middle")
        '<text x="50" y="20" font-size="16" text-anchor="middle">12 &lt; 13</text>'
    """
    if size < MIN_FONT_SIZE:
        raise ValueError(f"text of {size} px is too small to read; the smallest is {MIN_FONT_SIZE} px")
    return element("text", {"x": x, "y": y, "font-size": size, **attributes}, escape(str(content), quote=False),
                   title=title)


def group(*children: str, title: str | None = None, **attributes: object) -> str:
    """A group ``<g>`` of elements (markup), e.g. to give them one tooltip or class.

    Example:
        >>> group(circle(5, 5, 5), class_="checker", title="a checker of X")
        '<g class="checker"><title>a checker of X</title><circle cx="5" cy="5" r="5"/></g>'
    """
    return element("g", attributes, "".join(children), title=title)


def die(x: float, y: float, size: float, face: int, *, fill: str = PAPER, title: str | None = None) -> str:
    """A die showing ``face`` (1..6), its top left corner at ``(x, y)``; class ``die``.

    Raises:
        ValueError: a face outside 1..6.

    Example:
        >>> die(0, 0, 30, 2).count("<circle")
        2
    """
    if face not in _PIPS:
        raise ValueError(f"a die shows a face 1..6, got {face!r}")
    step, r = size / 4, size / 10
    pips = [circle(x + step * (1 + col), y + step * (1 + row), r, fill=INK) for col, row in _PIPS[face]]
    body = rect(x, y, size, size, rx=size / 6, fill=fill, stroke=INK, stroke_width=1.5)
    return group(body, *pips, class_="die", title=title or f"die showing {face}")


@dataclass(frozen=True)
class Drawing:
    """A picture: its size in pixels, its title and its elements (markup), immutable.

    The title is drawn as the first line (:data:`HEADING_HEIGHT` pixels high) and is the
    document's ``<title>``.

    Attributes:
        width, height: the size in pixels (the ``viewBox`` too).
        title: the title line.
        elements: the elements' markup, drawn in order (later ones on top).

    Example:
        >>> drawing = Drawing(200, 100, "Empty board")
        >>> drawing.add(rect(10, 40, 180, 50)).elements
        ('<rect x="10" y="40" width="180" height="50"/>',)
        >>> drawing.elements
        ()
    """

    width: int
    height: int
    title: str
    elements: tuple[str, ...] = ()

    def add(self, *elements: str) -> Drawing:
        """A drawing with ``elements`` drawn on top of this one's."""
        return Drawing(self.width, self.height, self.title, self.elements + elements)

    def to_svg(self) -> str:
        """The standalone SVG document."""
        head = _attributes({"xmlns": "http://www.w3.org/2000/svg", "width": self.width, "height": self.height,
                            "viewBox": f"0 0 {self.width} {self.height}", "role": "img",
                            "font-family": "Helvetica, Arial, sans-serif"})
        background = rect(0, 0, self.width, self.height, fill=PAPER)
        heading = text(12, 24, self.title, size=HEADING_SIZE, font_weight="bold")
        title = f"<title>{escape(self.title, quote=False)}</title>"
        return f"<svg{head}>{title}{background}{heading}{''.join(self.elements)}</svg>"

    def _repr_svg_(self) -> str:
        return self.to_svg()


def document_size(document: str) -> tuple[float, float]:
    """The width and height of a standalone SVG document (:meth:`Drawing.to_svg`).

    Example:
        >>> document_size(Drawing(200, 100, "Empty board").to_svg())
        (200.0, 100.0)
    """
    root = ElementTree.fromstring(document)
    # a standalone document (Drawing.to_svg) has both attributes: read as str, not str | None
    return float(cast(str, root.get("width"))), float(cast(str, root.get("height")))


def embed(document: str, x: float, y: float) -> str:
    """A standalone SVG document (another drawing) placed with its top left corner at
    ``(x, y)``, as a nested ``<svg>`` element.

    Raises:
        ValueError: ``document`` is not a standalone SVG document.

    Example:
        >>> embed(Drawing(20, 10, "inner").to_svg(), 0, 40)[:30]
        '<svg x="0" y="40" xmlns="http:'
    """
    if not document.startswith("<svg"):
        raise ValueError("embed takes a standalone SVG document starting with <svg")
    return f"<svg{_attributes({'x': x, 'y': y})}{document[4:]}"


_PICTURES: dict[type, Callable[..., str]] = {}
"""The drawing of each game's state type (:func:`register_picture`)."""


def register_picture(state_type: type, draw: Callable[..., str]) -> None:
    """Make ``draw(state, advice=None)`` the picture of ``state_type``'s states (a game
    package registers its drawing at import, so that its state module need not import the
    drawing)."""
    _PICTURES[state_type] = draw


def picture(state: Any, advice: Any = None) -> str:
    """The SVG picture of ``state`` by the drawing registered for its type (every game
    state's ``_repr_svg_``), with ``advice`` drawn on it when given (the game's advice
    object, as its ``advise`` returns it: the best option marked, each option's value).

    Raises:
        TypeError: no drawing is registered for that type.
    """
    draw = _PICTURES.get(type(state))
    if draw is None:
        raise TypeError(f"no picture is registered for {type(state).__name__}")
    return draw(state, advice)
