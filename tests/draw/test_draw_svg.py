"""SVG drawings: well-formed XML, every EDU drawn, and geometry that never overlaps.

The geometry checks read the text boxes back from the SVG itself (position, anchor,
font size, each width measured independently of rstkit: the advance widths of the DejaVu Sans
font file the drawings ask for, read by tests/support/font_metrics.py, a character the font lacks
counted as a full em) and the lines from the layout, on GUM's largest documents and on random
trees. The real browser check of the same
property is in test_draw_chromium.py.
"""
from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit import draw
from rstkit.corpus import gum_corpus, read_tree
from rstkit.draw.layout import ASCENT, DEFAULT_STYLE, DESCENT, Box, Layout, Style, layout
from rstkit.draw.svg import DIFF_COLORS
from rstkit.errors import EDUMismatchError, RSTKitError
from rstkit.metrics import EvalConfig, score_documents
from rstkit.tree import EDU, RSTTree
from tests.support.expected_warnings import GUM_EXTENT_QUIRK, warns_exactly
from tests.support.font_metrics import dejavu_sans
from tests.support.strategies import rst_trees

GOLDEN = Path(__file__).parents[1] / "golden" / "draw"
SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


FONTS = {False: dejavu_sans(), True: dejavu_sans(bold=True)}
needs_font = pytest.mark.skipif(None in FONTS.values(), reason="DejaVu Sans is not installed: no independent widths")


def rendered_width(text: str, size: float, bold: bool) -> float:
    """The width ``text`` takes in DejaVu Sans at ``size``: the font's advance widths, a character
    the font lacks (drawn by a fallback font) counted as a full em, a combining mark as nothing."""
    font = FONTS[bold]
    assert font is not None
    total = 0.0
    for char in text:
        em = font.em(char)
        total += em if em is not None else (0.0 if unicodedata.combining(char) else 1.0)
    return total * size


def text_boxes(svg: str) -> list[tuple[Box, str]]:
    """(box, text) of every <text> element, from its attributes, translations included."""
    boxes = []

    def walk(element: ET.Element, dx: float, dy: float) -> None:
        move = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", element.get("transform", ""))
        if move:
            dx, dy = dx + float(move.group(1)), dy + float(move.group(2))
        if element.tag == f"{SVG}text":
            size = float(element.get("font-size"))
            content = element.text or ""
            width = rendered_width(content, size, element.get("font-weight") == "bold")
            x, y = float(element.get("x")) + dx, float(element.get("y")) + dy
            x0 = x - width / 2 if element.get("text-anchor") == "middle" else x
            boxes.append((Box(x0, y - ASCENT * size, x0 + width, y + DESCENT * size), content))
        for child in element:
            walk(child, dx, dy)

    walk(parse(svg), 0.0, 0.0)
    return boxes


def overlapping(boxes: list[tuple[Box, str]]) -> list[tuple[str, str]]:
    """Pairs of texts whose boxes overlap (sweep over x)."""
    ordered = sorted(boxes, key=lambda b: b[0].x0)
    found = []
    for i, (box, label) in enumerate(ordered):
        for other, other_label in ordered[i + 1:]:
            if other.x0 >= box.x1:
                break
            if box.overlaps(other):
                found.append((label, other_label))
    return found


def strokes(drawing: Layout) -> list[tuple[float, float, float, float]]:
    """Every straight piece of line of a drawing: bars, nucleus lines, arcs (up and across)."""
    pieces = [(s.x0, s.y0, s.x1, s.y1) for s in drawing.segments]
    for arc in drawing.arcs:
        pieces.append((arc.x0, arc.y0, arc.x0, arc.y))
        pieces.append((arc.x0, arc.y, arc.x1, arc.y))
    return pieces


def crossings(drawing: Layout) -> list[tuple[str, tuple]]:
    """Labels (span, relation, multinuclear) that a line passes through."""
    labels = [t for t in drawing.texts if t.role != "title"]
    boxes = np.array([(t.box.x0 + 0.5, t.box.y0 + 0.5, t.box.x1 - 0.5, t.box.y1 - 0.5) for t in labels])
    pieces = np.array(strokes(drawing))
    if not len(boxes) or not len(pieces):
        return []
    lx0, lx1 = np.minimum(pieces[:, 0], pieces[:, 2]), np.maximum(pieces[:, 0], pieces[:, 2]) + 1e-6
    ly0, ly1 = np.minimum(pieces[:, 1], pieces[:, 3]), np.maximum(pieces[:, 1], pieces[:, 3]) + 1e-6
    hit = ((boxes[:, None, 0] < lx1) & (lx0 < boxes[:, None, 2])
           & (boxes[:, None, 1] < ly1) & (ly0 < boxes[:, None, 3]))
    return [(labels[i].text, tuple(pieces[j])) for i, j in zip(*np.nonzero(hit))]


def check_geometry(tree: RSTTree, style: Style = DEFAULT_STYLE) -> None:
    drawing = layout(tree, style=style)
    svg = draw.svg.render(drawing)
    boxes = text_boxes(svg)
    assert len(boxes) == len(drawing.all_texts())
    assert overlapping(boxes) == []
    assert crossings(drawing) == []
    canvas = Box(0, 0, drawing.width, drawing.height)
    for box, label in boxes:
        assert canvas.x0 <= box.x0 and box.x1 <= canvas.x1 and canvas.y0 <= box.y0 and box.y1 <= canvas.y1, label
    for cell in drawing.cells:  # EDU text stays inside its cell
        for line in cell.lines:
            assert cell.box.x0 <= line.box.x0 and line.box.x1 <= cell.box.x1 and line.box.y1 <= cell.box.y1
    for place in drawing.places.values():  # a parent is drawn above its children
        for child in place.node.children:
            assert drawing.places[child.span].top > place.top


# -- well-formedness and content --------------------------------------------------------
def test_sample_tree_svg_is_well_formed_and_shows_every_edu() -> None:
    tree = read_tree(GOLDEN / "cafe.dis")
    svg = draw.to_svg(tree)
    root = parse(svg)
    width, height = float(root.get("width")), float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert width > 7 * 100 and height > 100
    groups = {g.get("data-span"): g for g in root.iter(f"{SVG}g") if g.get("class") == "edu"}
    assert sorted(groups) == [f"{i}-{i}" for i in range(1, 8)]
    for edu in tree.edus:
        cell = groups[f"{edu.index}-{edu.index}"]
        lines = [t.text for t in cell.iter(f"{SVG}text")][1:]
        assert " ".join(lines) == edu.text
        assert cell.find(f"{SVG}title").text == f"{edu.index}: {edu.text}"
    relations = {t.text for t in root.iter(f"{SVG}text") if t.get("font-style") == "italic"}
    assert relations == {"background", "concession", "attribution", "elaboration", "List"}
    assert len([g for g in root.iter(f"{SVG}g") if g.get("class") == "arc"]) == 4


def test_characters_xml_cannot_hold_are_dropped() -> None:
    tree = read_tree(GOLDEN / "cafe.dis")
    edus = (EDU(1, "bell \x07 and <tag> & \ufffe done"),) + tree.edus[1:]
    svg = draw.to_svg(RSTTree(tree.root, edus, "odd"))
    cell = next(g for g in parse(svg).iter(f"{SVG}g") if g.get("data-span") == "1-1")
    assert cell.find(f"{SVG}title").text == "1: bell  and <tag> &  done"


def test_comparison_svg_colours_each_kind_of_difference() -> None:
    gold, pred = read_tree(GOLDEN / "cafe.dis"), read_tree(GOLDEN / "cafe_pred.dis")
    root = parse(draw.compare_svg(gold, pred))
    marked = {(g.get("class"), g.get("data-span")) for g in root.iter(f"{SVG}g") if "diff-" in g.get("class", "")}
    assert ("node diff-gold-only", "2-4") in marked
    assert ("node diff-pred-only", "2-3") in marked and ("node diff-pred-only", "4-7") in marked
    assert ("node diff-nuclearity", "5-7") in marked
    assert ("arc diff-relation", "2-2") in marked
    assert not any(span in ("1-1", "1-7", "3-3") for _, span in marked)
    colours = {e.get("stroke") for e in root.iter() if e.get("stroke")}
    assert set(DIFF_COLORS.values()) <= colours


def test_notebook_display_hooks() -> None:
    tree = read_tree(GOLDEN / "cafe.dis")
    parse(tree._repr_svg_())
    fragment = tree._repr_html_()
    assert fragment.startswith("<div") and "<svg" in fragment and "<script" not in fragment


def test_subtree_drawing_has_only_its_edus() -> None:
    tree = read_tree(GOLDEN / "cafe.dis")
    root = parse(draw.to_svg(tree, edus=(5, 6)))
    spans = {g.get("data-span") for g in root.iter(f"{SVG}g") if g.get("class") == "edu"}
    assert spans == {"5-5", "6-6", "7-7"}


def test_a_fixed_column_width_lines_two_drawings_up() -> None:
    gold, pred = read_tree(GOLDEN / "cafe.dis"), read_tree(GOLDEN / "cafe_pred.dis")
    a, b = layout(gold, column=150), layout(pred, column=150)
    assert [c.box.x0 for c in a.cells] == [c.box.x0 for c in b.cells]
    assert a.cells[1].box.x0 - a.cells[0].box.x0 == 150 + Style().gap


def test_select_finds_the_smallest_covering_constituent() -> None:
    tree = read_tree(GOLDEN / "cafe.dis")
    assert draw.select(tree, (2, 3)).span == (2, 4)
    assert draw.select(tree, (4, 5)).span == (2, 7)
    assert draw.select(tree, (6, 6)).span == (6, 6)
    with pytest.raises(RSTKitError, match="not within 1-7"):
        draw.select(tree, (3, 9))


# -- geometry -------------------------------------------------------------------------
@needs_font
def test_sample_geometry() -> None:
    check_geometry(read_tree(GOLDEN / "cafe.dis"))


@pytest.fixture(scope="module")
def gum_largest(gum_dir: Path) -> list[RSTTree]:
    """GUM's five largest documents (by EDUs) and its smallest."""
    corpus = gum_corpus(gum_dir)
    sizes = {doc_id: path.read_text(encoding="utf-8").count("(leaf ") for doc_id, path in corpus.files.items()}
    ranked = sorted(sizes, key=lambda d: (-sizes[d], d))
    chosen = ranked[:5] + ranked[-1:]
    with warns_exactly({GUM_EXTENT_QUIRK: chosen.count("GENTLE_syllabus_techtonica")}):
        return [read_tree(corpus.path(d), lenient=True) for d in chosen]


@needs_font
@pytest.mark.gum
@pytest.mark.parametrize("rank", range(6))
def test_no_overlapping_labels_on_gum_largest_documents(gum_largest: list[RSTTree], rank: int) -> None:
    tree = gum_largest[rank]
    check_geometry(tree)
    if rank < 5:
        assert tree.n_edus >= 200


@needs_font
@settings(max_examples=40, deadline=None)
@given(rst_trees(max_edus=14, max_arity=5, patterns="any", with_text=True),
       st.sampled_from([Style(), Style(column=60.0, max_column=60.0)]))
def test_random_trees_never_overlap(tree: RSTTree, style: Style) -> None:
    check_geometry(tree, style)


@settings(max_examples=40, deadline=None)
@given(rst_trees(max_edus=12, patterns="any"), rst_trees(max_edus=12, patterns="any"))
def test_diff_is_empty_on_itself_and_mirrors_on_swap(a: RSTTree, b: RSTTree) -> None:
    same = draw.diff_trees(a, a)
    assert same.gold == {} and same.pred == {}
    if a.n_edus != b.n_edus:
        with pytest.raises(EDUMismatchError):
            draw.diff_trees(a, b)
        return
    ab, ba = draw.diff_trees(a, b), draw.diff_trees(b, a)
    swap = {"gold-only": "pred-only", "pred-only": "gold-only", "nuclearity": "nuclearity", "relation": "relation"}
    assert ba.gold == {s: swap[k] for s, k in ab.pred.items()}
    assert ba.pred == {s: swap[k] for s, k in ab.gold.items()}


def test_comparison_page_counts_differences_and_shows_the_scores() -> None:
    gold, pred = read_tree(GOLDEN / "cafe.dis"), read_tree(GOLDEN / "cafe_pred.dis")
    page = draw.compare_html(gold, pred)
    # by hand from the two files: gold has 11 constituents (7 EDUs, 1-7, 2-7, 2-4, 5-7); 2-4 is missing
    # from the prediction, 2-3 and 4-7 are extra, 5-7 changes nuclearity, EDU 2 its relation
    assert re.findall(r"</i>(matched|missing|extra|mislabelled)[^<]*: <b>(\d+)</b>", page) == [
        ("matched", "8"), ("missing", "1"), ("extra", "2"), ("mislabelled", "1"), ("mislabelled", "1")]
    # the scores are those rstkit eval gives the pair, for both constituency metrics
    rows = re.findall(r"<tr title=\"[^\"]*\"><td>([^<]+) F1</td>(.*?)</tr>", page)
    assert [name for name, _ in rows] == ["RST-Parseval", "Parseval"]
    for (_, cells), metric in zip(rows, ("rst-parseval", "parseval")):
        scores = score_documents({"cafe": gold}, {"cafe": pred}, EvalConfig(metric=metric)).scores
        assert re.findall(r">([\d.]+)</td>", cells) == [f"{scores[m]:.2f}" for m in "SNRF"]
