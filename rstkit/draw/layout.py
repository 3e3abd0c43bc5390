"""Where everything of an RST diagram goes: one layout, drawn by the SVG renderer (and so
by the HTML page and Jupyter).

The visual grammar is that of RSTTool/rstWeb diagrams and the RST literature:

* EDUs sit along the bottom, one column each, in textual order;
* every internal node is a horizontal *bar* over its span with the span (``3-7``) written
  above it; nodes are stacked in rows by height, so a node is always above its children;
* a *vertical line* drops from a node's bar to each of its nuclei;
* a satellite sends an *arc* up from its top, across, and into the line of its nucleus
  (an arrowhead), labelled with the relation;
* the nuclei of a multinuclear relation are joined by a *multinuclear bar* labelled with
  the relation;
* an eRST *secondary edge* (``tree.erst``) is a dashed curve from the top of its source node
  up into a band above the tree and down into the top of its target node (an arrowhead),
  labelled with its relation at its highest point (a label the renderer places, outside the
  no-overlap guarantee: edges may cross); each edge has a lane of the band of its own (cycling
  through :data:`SECONDARY_LANES`). A tree without secondary edges has no band.

Nothing overlaps by construction: nodes of one row have disjoint spans, every label
stays inside the horizontal range of its own arc or bar, and arcs of one node that
would cross are put in separate *lanes* (sub-rows), the outer arc above the inner one.
Wide documents are not wrapped: the drawing grows to the right and is scrolled.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..tree import NUCLEUS, SATELLITE, SPAN, Node, RSTTree, SecondaryEdge
from .fonts import text_width, truncate, wrap

Span = tuple[int, int]


@dataclass(frozen=True)
class Style:
    """Sizes in pixels. ``column`` is the EDU column width; None picks one wide enough
    for the longest relation label of the tree (between ``min_column`` and ``max_column``)."""

    column: float | None = None
    min_column: float = 128.0
    max_column: float = 220.0
    gap: float = 10.0
    margin: float = 12.0
    edu_size: float = 11.0
    label_size: float = 11.0
    span_size: float = 10.0
    title_size: float = 13.0
    lane: float = 16.0
    max_edu_lines: int = 14
    pad: float = 4.0


DEFAULT_STYLE = Style()

#: ascent and descent of DejaVu Sans, in em (what browsers use as a text's box)
ASCENT, DESCENT = 0.93, 0.24


@dataclass(slots=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1


@dataclass(slots=True)
class Text:
    """One line of text: ``anchor`` ``"middle"`` centres it on ``x``, ``"start"`` starts it
    there; ``y`` is the baseline. ``role`` is title, span, relation, multinuc, edu-number
    or edu-text; ``spans`` are the constituents it belongs to; ``title`` is the full text
    when the shown one was shortened; ``room`` is the width a label may take (its bar or the
    interval between its ends), which a zoomed-out view compares with its width."""

    text: str
    x: float
    y: float
    size: float
    role: str
    spans: tuple[Span, ...] = ()
    anchor: str = "middle"
    bold: bool = False
    title: str = ""
    room: float = 0.0

    @property
    def box(self) -> Box:
        width = text_width(self.text, self.size, self.bold)
        x0 = self.x - width / 2 if self.anchor == "middle" else self.x
        return Box(x0, self.y - ASCENT * self.size, x0 + width, self.y + DESCENT * self.size)


@dataclass(slots=True)
class Segment:
    """A straight line: a node's ``bar``, a ``nucleus`` line from a bar down to a nucleus,
    or a ``multinuc`` bar joining the nuclei of a multinuclear relation."""

    x0: float
    y0: float
    x1: float
    y1: float
    role: str
    spans: tuple[Span, ...]


@dataclass(slots=True)
class Arc:
    """Satellite to nucleus: up from ``(x0, y0)`` (the satellite's top) to the lane at
    ``y``, across, and into the nucleus line at ``x1`` (arrowhead there)."""

    x0: float
    y0: float
    y: float
    x1: float
    satellite: Span
    nucleus: Span
    relation: str


@dataclass(slots=True)
class Curve:
    """A secondary edge: from the top of ``source`` (x0, y0) up to ``y`` (its lane of the band above
    the tree) and down into the top of ``target`` (x1, y1); ``edge`` is what it draws."""

    x0: float
    y0: float
    x1: float
    y1: float
    y: float
    edge: SecondaryEdge


#: the lanes of the band above the tree where secondary edges turn (edges beyond share them, in turn)
SECONDARY_LANES = 6


@dataclass(slots=True)
class Place:
    """A constituent's place: horizontal extent, anchor ``x`` and ``top`` (where lines and
    arcs from its parent end)."""

    left: float
    right: float
    x: float
    top: float
    node: Node


@dataclass(slots=True)
class EDUCell:
    index: int
    box: Box
    text: str
    lines: tuple[Text, ...]


@dataclass(frozen=True)
class Layout:
    """A laid-out diagram of the constituent ``top`` of ``tree`` (its root or a subtree)."""

    tree: RSTTree
    top: Node
    style: Style
    width: float
    height: float
    column: float
    places: dict[Span, Place]
    cells: tuple[EDUCell, ...]
    segments: tuple[Segment, ...]
    arcs: tuple[Arc, ...]
    texts: tuple[Text, ...]
    curves: tuple[Curve, ...] = ()

    def all_texts(self) -> list[Text]:
        """Every text of the drawing (labels, EDU numbers, EDU lines)."""
        return list(self.texts) + [t for cell in self.cells for t in cell.lines]


def column_width(trees: list[RSTTree], style: Style = DEFAULT_STYLE) -> float:
    """An EDU column wide enough that two adjacent columns hold any relation label of ``trees``."""
    if style.column is not None:
        return style.column
    labels = {n.relation for t in trees for n in t.nodes() if n.relation and n.relation != SPAN}
    widest = max((text_width(label, style.label_size) for label in labels), default=0.0)
    needed = widest + 4 * style.pad - style.gap
    return min(style.max_column, max(style.min_column, needed))


def layout(tree: RSTTree, top: Node | None = None, style: Style = DEFAULT_STYLE, title: str | None = None,
           column: float | None = None, first: int | None = None) -> Layout:
    """Lay out ``top`` (default: the whole tree) with the title ``title`` (default: the
    document id). ``column`` forces the EDU column width and ``first`` the EDU of the
    first column (default: the first of ``top``): two drawings with the same ``column``
    and ``first`` line up EDU by EDU."""
    top = top or tree.root
    first = top.start if first is None else min(first, top.start)
    return _Builder(tree, top, style, column or column_width([tree], style), title, first).build()


@dataclass
class _NodePlan:
    """Arcs and multinuclear bar of one internal node, with their lanes."""

    node: Node
    arcs: list[tuple[Node, Node, int]]  # satellite, nucleus, lane
    multinuc: tuple[list[Node], int] | None  # nuclei, lane

    @property
    def lanes(self) -> int:
        used = [lane for _, _, lane in self.arcs] + ([self.multinuc[1]] if self.multinuc else [])
        return max(used, default=-1) + 1


def nearest_nucleus(children: tuple[Node, ...], i: int) -> Node | None:
    """The nucleus child closest to child ``i`` (the preceding one on a tie): the one a
    satellite's arc points at. None when no child is a nucleus."""
    nuclei = [j for j, c in enumerate(children) if c.nuclearity == NUCLEUS]
    if not nuclei:
        return None
    return children[min(nuclei, key=lambda j: (abs(j - i), j > i))]


def _plan(node: Node) -> _NodePlan:
    """Which satellite points at which nucleus, and the lanes that keep them apart."""
    children = node.children
    position = {c.span: i for i, c in enumerate(children)}
    pairs = [(c, nuc) for i, c in enumerate(children)
             if c.nuclearity == SATELLITE and (nuc := nearest_nucleus(children, i)) is not None]

    def interval(a: Node, b: Node) -> tuple[int, int]:
        i, j = position[a.span], position[b.span]
        return min(i, j), max(i, j)

    # shorter arcs first; an arc goes above every placed arc it overlaps (beyond a shared end)
    placed: list[tuple[tuple[int, int], int]] = []
    arcs = []
    for sat, nuc in sorted(pairs, key=lambda p: abs(position[p[0].span] - position[p[1].span])):
        lo, hi = interval(sat, nuc)
        lane = 1 + max((ln for (a, b), ln in placed if a < hi and lo < b), default=-1)
        placed.append(((lo, hi), lane))
        arcs.append((sat, nuc, lane))
    multinuc = None
    nuclei = [c for c in children if c.nuclearity == NUCLEUS]
    if len(nuclei) >= 2:
        lo, hi = position[nuclei[0].span], position[nuclei[-1].span]
        lane = 1 + max((ln for (a, b), ln in placed if a < hi and lo < b), default=-1)
        multinuc = (nuclei, lane)
    return _NodePlan(node, arcs, multinuc)


def _heights(top: Node) -> dict[Span, int]:
    heights: dict[Span, int] = {}
    for node in top.postorder():
        heights[node.span] = 1 + max((heights[c.span] for c in node.children), default=-1)
    return heights


def multinuc_label(nuclei: list[Node]) -> str:
    """The relation of a multinuclear group (distinct names joined by ``/`` if they differ)."""
    names = list(dict.fromkeys(n.relation or "?" for n in nuclei))
    return "/".join(names)


class _Builder:
    def __init__(self, tree: RSTTree, top: Node, style: Style, column: float, title: str | None, first: int):
        self.tree, self.top, self.style, self.column, self.first = tree, top, style, column, first
        self.title = tree.doc_id if title is None else title
        self.texts: list[Text] = []
        self.segments: list[Segment] = []
        self.arcs: list[Arc] = []
        self.places: dict[Span, Place] = {}

    def left(self, edu: int) -> float:
        return self.style.margin + (edu - self.first) * (self.column + self.style.gap)

    def build(self) -> Layout:
        s = self.style
        heights = _heights(self.top)
        internal = [n for n in self.top.nodes() if not n.is_leaf]
        plans = {n.span: _plan(n) for n in internal}
        n_rows = heights[self.top.span]
        lanes = [1] * (n_rows + 1)
        for plan in plans.values():
            row = heights[plan.node.span]
            lanes[row] = max(lanes[row], plan.lanes)

        y = s.margin
        if self.title:
            self.texts.append(Text(self.title, s.margin, y + ASCENT * s.title_size, s.title_size, "title",
                                   anchor="start", bold=True))
            y += (ASCENT + DESCENT) * s.title_size + 8
        edges = [edge for edge in self.tree.erst.secondary_edges
                 if self.top.start <= min(edge.source[0], edge.target[0])
                 and max(edge.source[1], edge.target[1]) <= self.top.end]
        band = y
        if edges:
            y += min(len(edges), SECONDARY_LANES) * s.lane + (ASCENT + DESCENT) * s.label_size
        row_top, bar_y = {}, {}
        for row in range(n_rows, 0, -1):
            row_top[row] = y
            bar_y[row] = y + (ASCENT + DESCENT) * s.span_size + 4
            y = bar_y[row] + lanes[row] * s.lane + 8
        edu_top = y + 4

        for node in self.top.nodes():
            row = heights[node.span]
            left, right = self.left(node.start), self.left(node.end) + self.column
            top = row_top[row] if row else edu_top
            self.places[node.span] = Place(left, right, (left + right) / 2, top, node)
        for plan in plans.values():
            row = heights[plan.node.span]
            self._draw_node(plan, row_top[row], bar_y[row], bar_y[row] + lanes[row] * s.lane)
        curves = self._curves(edges, band + (ASCENT + DESCENT) * s.label_size)
        cells = self._cells(edu_top)
        height = max(c.box.y1 for c in cells) + s.margin
        width = self.left(self.top.end) + self.column + s.margin
        if self.title:
            width = max(width, s.margin * 2 + text_width(self.title, s.title_size, bold=True))
        return Layout(self.tree, self.top, s, width, height, self.column, self.places, cells,
                      tuple(self.segments), tuple(self.arcs), tuple(self.texts), curves)

    def _curves(self, edges: list[SecondaryEdge], band: float) -> tuple[Curve, ...]:
        """The secondary edges whose ends are nodes of the drawing, each turning in its lane of the band
        (from ``band`` down, the first edge highest)."""
        s, places = self.style, self.places
        curves = []
        for k, edge in enumerate(e for e in edges if e.source in places and e.target in places):
            source, target = places[edge.source], places[edge.target]
            y = band + (k % SECONDARY_LANES) * s.lane
            curves.append(Curve(source.x, source.top, target.x, target.top, y, edge))
        return tuple(curves)

    def _draw_node(self, plan: _NodePlan, top: float, bar: float, lane0: float) -> None:
        s = self.style
        node = plan.node
        place = self.places[node.span]
        label = f"{node.start}-{node.end}"
        self.texts.append(Text(label, place.x, top + ASCENT * s.span_size, s.span_size, "span", (node.span,),
                               room=place.right - place.left - 2 * s.pad))
        self.segments.append(Segment(place.left + s.pad, bar, place.right - s.pad, bar, "bar", (node.span,)))
        for child in node.children:
            if child.nuclearity == NUCLEUS:
                c = self.places[child.span]
                self.segments.append(Segment(c.x, bar, c.x, c.top, "nucleus", (child.span,)))
        for sat, nuc, lane in plan.arcs:
            a, b = self.places[sat.span], self.places[nuc.span]
            lane_y = lane0 - lane * s.lane
            self.arcs.append(Arc(a.x, a.top, lane_y, b.x, sat.span, nuc.span, sat.relation or "?"))
            self._label(sat.relation or "?", a.x, b.x, lane_y, "relation", (sat.span,))
        if plan.multinuc:
            nuclei, lane = plan.multinuc
            xs = [self.places[n.span].x for n in nuclei]
            lane_y = lane0 - lane * s.lane
            spans = tuple(n.span for n in nuclei)
            self.segments.append(Segment(xs[0], lane_y, xs[-1], lane_y, "multinuc", spans))
            gap = max(range(len(xs) - 1), key=lambda i: xs[i + 1] - xs[i])
            self._label(multinuc_label(nuclei), xs[gap], xs[gap + 1], lane_y, "multinuc", spans)

    def _label(self, text: str, xa: float, xb: float, lane_y: float, role: str, spans: tuple[Span, ...]) -> None:
        """A label sitting on the lane line, inside the open interval between xa and xb."""
        s = self.style
        room = abs(xb - xa) - 2 * s.pad
        shown = truncate(text, room, s.label_size)
        self.texts.append(Text(shown, (xa + xb) / 2, lane_y - DESCENT * s.label_size - 2, s.label_size, role,
                               spans, title=text if shown != text else "", room=room))

    def _cells(self, edu_top: float) -> tuple[EDUCell, ...]:
        s = self.style
        inner = self.column - 2 * s.pad
        line_h = (ASCENT + DESCENT) * s.edu_size + 1
        wrapped = {}
        for i in range(self.top.start, self.top.end + 1):
            text = self.tree.edus[i - 1].text
            wrapped[i] = (text, wrap(text, inner, s.edu_size, s.max_edu_lines))
        n_lines = 1 + max(len(lines) for _, lines in wrapped.values())
        bottom = edu_top + s.pad + n_lines * line_h + s.pad
        cells = []
        for i, (text, lines) in wrapped.items():
            x0 = self.left(i)
            first = edu_top + s.pad + ASCENT * s.edu_size
            number = Text(str(i), x0 + self.column / 2, first, s.edu_size, "edu-number", ((i, i),), bold=True)
            body = tuple(Text(line, x0 + s.pad, first + (k + 1) * line_h, s.edu_size, "edu-text", ((i, i),),
                              anchor="start") for k, line in enumerate(lines))
            cells.append(EDUCell(i, Box(x0, edu_top, x0 + self.column, bottom), text, (number,) + body))
        return tuple(cells)
