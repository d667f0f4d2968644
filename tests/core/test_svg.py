"""The SVG builder: standalone, scalable documents that parse as XML, with escaped text."""

import ast
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dicemath.core import svg

SVG = "{http://www.w3.org/2000/svg}"


def test_a_drawing_is_a_standalone_scalable_document_with_a_title_line():
    drawing = svg.Drawing(300, 120, "Board").add(svg.rect(10, 40, 50, 20, fill=svg.BLUE))
    root = ET.fromstring(drawing.to_svg())
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("300", "120", "0 0 300 120")
    assert root.find(f"{SVG}title").text == "Board"
    assert [t.text for t in root.iter(f"{SVG}text")] == ["Board"]
    assert [r.get("fill") for r in root.iter(f"{SVG}rect")] == [svg.PAPER, svg.BLUE]
    assert drawing._repr_svg_() == drawing.to_svg()


def test_adding_elements_leaves_the_drawing_unchanged():
    empty = svg.Drawing(100, 100, "Empty")
    full = empty.add(svg.circle(50, 50, 10), svg.line(0, 0, 100, 100))
    assert empty.elements == () and len(full.elements) == 2
    with pytest.raises(AttributeError):
        empty.width = 5


def test_text_titles_and_attribute_values_are_escaped():
    awkward = "A & B <say \"hi\"> 'x'"
    drawing = svg.Drawing(200, 60, awkward).add(
        svg.text(10, 50, awkward, title=awkward), svg.rect(0, 0, 5, 5, class_=awkward))
    root = ET.fromstring(drawing.to_svg())
    assert root.find(f"{SVG}title").text == awkward
    heading, tipped = root.iter(f"{SVG}text")
    tip = tipped.find(f"{SVG}title")
    assert heading.text == awkward and (tip.text, tip.tail) == (awkward, awkward)
    assert [r.get("class") for r in root.iter(f"{SVG}rect")][-1] == awkward


def test_attribute_names_and_numbers():
    assert svg.rect(1, 2.5, 3.0, 1 / 3, stroke_width=2, class_="box", fill=None) == \
        '<rect x="1" y="2.5" width="3" height="0.33" stroke-width="2" class="box"/>'
    assert svg.polygon([(0, 0), (10, 0), (5, 8.25)]) == '<polygon points="0,0 10,0 5,8.25"/>'
    assert svg.group(svg.circle(1, 1, 1), title="one", class_="g") == \
        '<g class="g"><title>one</title><circle cx="1" cy="1" r="1"/></g>'


def test_text_too_small_to_read_is_refused():
    assert 'font-size="12"' in svg.text(0, 0, "ok", size=svg.MIN_FONT_SIZE)
    with pytest.raises(ValueError, match="too small to read"):
        svg.text(0, 0, "tiny", size=9)


@pytest.mark.parametrize("face", range(1, 7))
def test_a_die_shows_its_face_as_pips(face):
    group = ET.fromstring(svg.die(0, 0, 30, face).replace("<g ", f'<g xmlns="{SVG[1:-1]}" ', 1))
    assert group.get("class") == "die"
    assert len(list(group.iter(f"{SVG}circle"))) == face
    assert group.find(f"{SVG}title").text == f"die showing {face}"


def test_a_die_face_outside_one_to_six_is_an_error():
    with pytest.raises(ValueError, match="face 1..6"):
        svg.die(0, 0, 30, 7)


def test_the_builder_imports_no_game():
    tree = ast.parse(Path(svg.__file__).read_text(encoding="utf-8"))
    imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert not [name for name in imported if name and name.startswith("dicemath.games")]


def test_a_drawing_embedded_in_another_keeps_its_size_and_content():
    inner = svg.Drawing(200, 80, "Inner").add(svg.circle(10, 50, 5)).to_svg()
    assert svg.document_size(inner) == (200.0, 80.0)
    outer = svg.Drawing(220, 140, "Outer").add(svg.embed(inner, 0, 60)).to_svg()
    root = ET.fromstring(outer)
    nested = root.find(f"{SVG}svg")
    assert (nested.get("x"), nested.get("y"), nested.get("width"), nested.get("height")) == ("0", "60", "200", "80")
    assert nested.find(f"{SVG}title").text == "Inner" and len(list(nested.iter(f"{SVG}circle"))) == 1
    with pytest.raises(ValueError, match="standalone SVG"):
        svg.embed(svg.circle(1, 1, 1), 0, 0)


def test_the_registered_picture_draws_the_advice_it_is_given():
    class Position:
        pass

    svg.register_picture(Position, lambda state, advice=None: f"<svg>{advice}</svg>")
    assert svg.picture(Position()) == "<svg>None</svg>"
    assert svg.picture(Position(), "best: S1") == "<svg>best: S1</svg>"
    with pytest.raises(TypeError, match="no picture is registered for int"):
        svg.picture(3)
