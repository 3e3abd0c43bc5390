"""Drawing RST trees in pure Python: terminal text, SVG, self-contained HTML, notebooks.

One layout engine (:mod:`.layout`) places EDUs and relation nodes; :mod:`.svg` draws a
layout, :mod:`.html` wraps drawings in a page, :mod:`.text` draws a tree as indented
lines for the terminal, :mod:`.diff` finds the constituents in which a prediction
differs from gold and :mod:`.scores` scores it. The functions below are the entry points::

    from rstkit.draw import to_svg, to_text, compare_html
    print(to_text(tree))
    open("tree.svg", "w").write(to_svg(tree))
    open("diff.html", "w").write(compare_html(gold, pred))

>>> from rstkit.formats.dis import loads_dis
>>> tree = loads_dis("( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!Rain fell,_!) )"
...                  " ( Satellite (leaf 2) (rel2par cause) (text _!so we stayed in._!) ) )")
>>> print(to_text(tree, ascii=True))
document: 2 EDUs
1-2
...
>>> to_svg(tree).startswith("<svg")
True

Importing this package registers its diagrams as the notebook display of trees
(:func:`rstkit.tree.register_display`): in Jupyter a tree shows itself as an SVG diagram.
"""
from __future__ import annotations

from ..errors import RSTKitError
from ..tree import Node, RSTTree, register_display
from . import html, svg, text
from .diff import TreeDiff, diff_trees
from .layout import DEFAULT_STYLE, Layout, Style, column_width
from .layout import layout as lay_out

EDURange = tuple[int, int]
#: what :func:`drawing` draws
DRAWINGS = ("text", "svg", "html")

__all__ = [
    "Layout",
    "Style",
    "TreeDiff",
    "compare_html",
    "compare_svg",
    "compare_text",
    "diff_trees",
    "drawing",
    "lay_out",
    "select",
    "to_html",
    "to_svg",
    "to_text",
]


def select(tree: RSTTree, edus: EDURange | None = None) -> Node:
    """The smallest constituent of ``tree`` covering the EDUs ``edus`` (first, last), or
    the root. A range outside the document is an error."""
    if edus is None:
        return tree.root
    first, last = edus
    if not 1 <= first <= last <= tree.n_edus:
        raise RSTKitError(f"EDU range {first}-{last} is not within 1-{tree.n_edus}", tree.source)
    node = tree.root
    while True:
        inner = next((c for c in node.children if c.start <= first and last <= c.end), None)
        if inner is None:
            return node
        node = inner


def to_text(tree: RSTTree, *, edus: EDURange | None = None, width: int = 0, ascii: bool = False) -> str:
    """The tree (or the constituent covering ``edus``) as indented text lines."""
    return text.render(tree, select(tree, edus), width=width, ascii=ascii)


def to_svg(tree: RSTTree, *, edus: EDURange | None = None, style: Style = DEFAULT_STYLE) -> str:
    """A standalone SVG diagram of the tree (or of the constituent covering ``edus``)."""
    return svg.render(lay_out(tree, select(tree, edus), style))


def to_html(tree: RSTTree, *, edus: EDURange | None = None, style: Style = DEFAULT_STYLE) -> str:
    """A self-contained HTML page with the diagram, hover texts and a legend."""
    return html.page(lay_out(tree, select(tree, edus), style))


def _pair_layouts(gold: RSTTree, pred: RSTTree, edus: EDURange | None, style: Style) -> tuple[Layout, Layout]:
    """Layouts of both trees with the same column width and first column (EDUs line up)."""
    g, p = select(gold, edus), select(pred, edus)
    column = column_width([gold, pred], style)
    first = min(g.start, p.start)
    return (lay_out(gold, g, style, f"gold: {gold.doc_id}", column, first),
            lay_out(pred, p, style, f"prediction: {pred.doc_id}", column, first))


def compare_text(gold: RSTTree, pred: RSTTree, *, edus: EDURange | None = None, width: int = 0,
                 ascii: bool = False) -> str:
    """Both trees as text, differing constituents tagged, and a count of each kind."""
    diff = diff_trees(gold, pred)
    counts = ", ".join(f"{n} {text.DIFF_TAGS[kind]}" for kind, n in diff.counts().items())
    parts = [text.render(gold, select(gold, edus), width, ascii, diff.gold, f"gold: {gold.doc_id}"),
             text.render(pred, select(pred, edus), width, ascii, diff.pred, f"prediction: {pred.doc_id}"),
             f"differences: {counts}\n"]
    return "\n".join(parts)


def compare_svg(gold: RSTTree, pred: RSTTree, *, edus: EDURange | None = None,
                style: Style = DEFAULT_STYLE) -> str:
    """One SVG: gold above prediction, EDUs aligned, differences coloured, with a legend."""
    diff = diff_trees(gold, pred)
    g, p = _pair_layouts(gold, pred, edus, style)
    return svg.render_pair(g, p, diff.gold, diff.pred)


def compare_html(gold: RSTTree, pred: RSTTree, *, edus: EDURange | None = None,
                 style: Style = DEFAULT_STYLE) -> str:
    """A self-contained HTML page comparing gold and prediction: both trees in the same EDU
    columns, differences coloured, and the document's scores (of the whole document)."""
    from .scores import document_scores  # the metrics are imported when a comparison page is drawn

    diff = diff_trees(gold, pred)
    g, p = _pair_layouts(gold, pred, edus, style)
    return html.compare_page(g, p, diff, document_scores(gold, pred))


def drawing(tree: RSTTree, format: str = "text", *, compare: RSTTree | None = None, edus: EDURange | None = None,
            width: int = 0, ascii: bool = False) -> str:
    """The tree drawn as ``format`` (one of :data:`DRAWINGS`), or, with ``compare`` (a prediction),
    gold and prediction with their differences; ``edus``: only the constituent covering that
    range; ``width`` and ``ascii``: text only (see :func:`to_text`)."""
    if format not in DRAWINGS:
        raise RSTKitError(f"unknown drawing {format!r}; choose from {', '.join(DRAWINGS)}")
    if compare is not None:
        if format == "text":
            return compare_text(tree, compare, edus=edus, width=width, ascii=ascii)
        return (compare_svg if format == "svg" else compare_html)(tree, compare, edus=edus)
    if format == "text":
        return to_text(tree, edus=edus, width=width, ascii=ascii)
    return (to_svg if format == "svg" else to_html)(tree, edus=edus)


def _notebook_html(tree: RSTTree) -> str:
    """The diagram in a horizontally scrolling box, for notebooks."""
    return html.fragment(lay_out(tree))


register_display("svg", to_svg)
register_display("html", _notebook_html)
