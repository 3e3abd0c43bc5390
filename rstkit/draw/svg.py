"""SVG drawing of a :class:`~rstkit.draw.layout.Layout`: the classic RST diagram.

Colours are presentation attributes (no stylesheet needed, so the file looks the same in
a browser, an ``<img>`` tag, Inkscape or a notebook). Every element group carries a
``<title>`` (the hover text: EDU text, span text, relation) and a ``data-span`` attribute.
Differences from a comparison are drawn in the colour of their kind, thicker. A tree's eRST
layer is drawn too: secondary edges as dashed curves over the tree (:data:`SECONDARY`), and the
signals of a relation listed in the hover text of its arc, multinuclear bar or secondary edge,
each with its tokens (``dm/dm: "So" (token 15)``).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape

from ..formats.writable import NOT_XML
from ..tree import SPAN, RSTTree, SecondaryEdge, Signal
from .diff import KINDS, strongest
from .fonts import FONT_FAMILY
from .layout import Arc, Layout, Segment, Span, Text

INK = "#333333"
LINE = "#555555"
BAR = "#a0a0a0"
LABEL = "#1f4e79"
SPAN_LABEL = "#777777"
CELL_FILL = "#f6f6f1"
CELL_STROKE = "#c8c8c0"
#: colour of each difference kind (Okabe-Ito palette, told apart by colour-blind readers)
DIFF_COLORS = {"gold-only": "#d55e00", "pred-only": "#0072b2", "nuclearity": "#cc79a7", "relation": "#009e73"}
#: colour of secondary edges (Okabe-Ito orange: none of the difference kinds)
SECONDARY = "#e69f00"
ARROW = 7.0
CORNER = 6.0
TOOLTIP_CHARS = 400

Marks = Mapping[Span, str]


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text.removesuffix(".0")


def xml_text(value: str, quote: bool = False) -> str:
    """``value`` escaped for XML/HTML, with characters XML cannot hold dropped."""
    return escape(NOT_XML.pattern.sub("", value), quote=quote)


def _span_name(span: Span) -> str:
    return str(span[0]) if span[0] == span[1] else f"{span[0]}-{span[1]}"


def _mark(marks: Marks, spans: tuple[Span, ...], kinds: tuple[str, ...]) -> str | None:
    """The strongest mark of ``kinds`` among ``spans``."""
    return strongest([marks[s] for s in spans if marks.get(s) in kinds])


def _text(t: Text, fill: str, underline: bool = False, italic: bool = False, role: str = "",
          words: list[tuple[str, int | None]] | None = None) -> str:
    """A text element; emphasis never changes its width (the layout measured it). ``role``
    (the interactive page's drawings only) names what the text is for the page's script
    (title, label, number, line), and a label says how much room it has. ``words``: the text's
    words each as a ``tspan`` with its token number (``data-t``), where it has one."""
    attrs = [f'x="{_n(t.x)}"', f'y="{_n(t.y)}"', f'font-size="{_n(t.size)}"', f'fill="{fill}"']
    if role:
        attrs.append(f'class="{role}"' + (f' data-room="{_n(t.room)}"' if role == "label" else ""))
    if t.anchor == "middle":
        attrs.append('text-anchor="middle"')
    if t.bold:
        attrs.append('font-weight="bold"')
    if italic:
        attrs.append('font-style="italic"')
    if underline:
        attrs.append('text-decoration="underline"')
    if words is None:
        return f"<text {' '.join(attrs)}>{xml_text(t.text)}</text>"
    inner = " ".join(xml_text(word) if number is None else f'<tspan data-t="{number}">{xml_text(word)}</tspan>'
                     for word, number in words)
    return f"<text {' '.join(attrs)}>{inner}</text>"


def _line(seg: Segment, color: str, width: float) -> str:
    return (f'<line x1="{_n(seg.x0)}" y1="{_n(seg.y0)}" x2="{_n(seg.x1)}" y2="{_n(seg.y1)}" '
            f'stroke="{color}" stroke-width="{_n(width)}"/>')


def _arc_path(arc: Arc) -> tuple[str, str]:
    """The arc's path (up, round corner, across) and its arrowhead polygon."""
    d = 1.0 if arc.x1 >= arc.x0 else -1.0
    corner = min(CORNER, abs(arc.x1 - arc.x0) / 3, max(arc.y0 - arc.y, 0))
    end = arc.x1 - d * ARROW
    path = (f"M{_n(arc.x0)},{_n(arc.y0)} V{_n(arc.y + corner)} "
            f"Q{_n(arc.x0)},{_n(arc.y)} {_n(arc.x0 + d * corner)},{_n(arc.y)} H{_n(end)}")
    head = f"{_n(arc.x1)},{_n(arc.y)} {_n(end)},{_n(arc.y - 3.5)} {_n(end)},{_n(arc.y + 3.5)}"
    return path, head


def _span_text(layout: Layout, span: Span) -> str:
    """The text of a span for a tooltip, cut at :data:`TOOLTIP_CHARS` (only the EDUs needed are read)."""
    parts, length = [], -1
    for i in range(span[0], span[1] + 1):
        if length > TOOLTIP_CHARS:
            break
        parts.append(layout.tree.edus[i - 1].text)
        length += 1 + len(parts[-1])
    text = " ".join(parts)
    return text if len(text) <= TOOLTIP_CHARS else text[:TOOLTIP_CHARS - 1] + "\u2026"


def _group(cls: str, span: Span | None, title: str, body: list[str], mark: str | None, extra: str = "") -> str:
    """A ``<g>`` with its hover title; a difference mark adds a class and says what differs; ``extra``: more
    attributes (a relation's signal tokens)."""
    attrs = f' class="{cls}{" diff-" + mark if mark else ""}"'
    if span is not None:
        attrs += f' data-span="{span[0]}-{span[1]}"'
    attrs += extra
    if mark:
        title += f" [{KINDS[mark]}]"
    return f"<g{attrs}><title>{xml_text(title)}</title>{''.join(body)}</g>"


@dataclass
class Signals:
    """The signals of each signalled relation, keyed by the span of the node that bears it or by secondary
    edge: their hover lines (``signal type/subtype: "words" (tokens 3, 4)``) and their token numbers."""

    lines: dict[Span | SecondaryEdge, list[str]] = field(default_factory=dict)
    tokens: dict[Span | SecondaryEdge, list[int]] = field(default_factory=dict)

    def title(self, title: str, *keys: Span | SecondaryEdge) -> str:
        """``title`` with the lines of the signals of ``keys`` below it."""
        return title + "".join("\n" + line for key in keys for line in self.lines.get(key, ()))

    def attribute(self, *keys: Span | SecondaryEdge) -> str:
        """`` data-tokens="3 4"``, the tokens of the signals of ``keys`` (the page lights them), or nothing."""
        tokens = sorted({n for key in keys for n in self.tokens.get(key, ())})
        return f' data-tokens="{" ".join(map(str, tokens))}"' if tokens else ""


def signals_of(tree: RSTTree) -> Signals:
    """The tree's signals (:class:`Signals`), their words those of the document's tokens (the EDU texts split
    at whitespace, numbered from 1)."""
    found = Signals()
    if not tree.erst.signals:
        return found
    words = " ".join(edu.text for edu in tree.edus).split()
    for signal in tree.erst.signals:
        found.lines.setdefault(signal.source, []).append(_signal_line(signal, words))
        found.tokens.setdefault(signal.source, []).extend(signal.tokens)
    return found


def _signal_line(signal: Signal, words: list[str]) -> str:
    shown = " ".join(words[k - 1] if 0 < k <= len(words) else "?" for k in signal.tokens)
    numbers = ", ".join(map(str, signal.tokens))
    where = f': "{shown}" (token{"s" if len(signal.tokens) > 1 else ""} {numbers})' if signal.tokens else \
        " (no tokens)"
    return f"signal {signal.type}/{signal.subtype}{where}"


def _token_pieces(text: str, lines: list[str], first: int) -> list[list[tuple[str, int | None]]]:
    """The words of an EDU's wrapped ``lines``, each with the number of the document token it shows (the
    EDU's first is ``first``; a word cut over two lines is one token); None from where the lines stop
    showing the text as it is (an ellipsis)."""
    tokens = text.split()
    k = used = 0
    out = []
    for line in lines:
        row: list[tuple[str, int | None]] = []
        for piece in line.split(" "):
            if piece and k < len(tokens) and tokens[k][used:used + len(piece)] == piece:
                row.append((piece, first + k))
                used += len(piece)
                if used == len(tokens[k]):
                    k, used = k + 1, 0
            else:
                row.append((piece, None))
                k = len(tokens)
        out.append(row)
    return out


def _curves(layout: Layout, signals: Signals) -> list[str]:
    """Secondary edges: dashed curves through their lane above the tree, an arrowhead into the target's
    top, the relation at the curve's highest point, the edge's signals in its hover text."""
    out = []
    size = layout.style.label_size
    for curve in layout.curves:
        edge = curve.edge
        # both handles at one height: the cubic's middle, its highest point, is 3/4 of the way from the ends'
        # mean height to the handles'; the handles are put where that point is the edge's lane
        handle = (curve.y - (curve.y0 + curve.y1) / 8) / 0.75
        path = (f"M{_n(curve.x0)},{_n(curve.y0)} C{_n(curve.x0)},{_n(handle)} {_n(curve.x1)},{_n(handle)} "
                f"{_n(curve.x1)},{_n(curve.y1 - ARROW)}")
        head = f"{_n(curve.x1)},{_n(curve.y1)} {_n(curve.x1 - 3.5)},{_n(curve.y1 - ARROW)} " \
               f"{_n(curve.x1 + 3.5)},{_n(curve.y1 - ARROW)}"
        label = Text(edge.relation, (curve.x0 + curve.x1) / 2, curve.y - 3, size, "secondary")
        title = signals.title(f"secondary edge {_span_name(edge.source)} \u2192 {_span_name(edge.target)}: "
                              f"{edge.relation}", edge)
        out.append(f'<g class="secedge" data-span="{edge.source[0]}-{edge.source[1]}" '
                   f'data-target="{edge.target[0]}-{edge.target[1]}"{signals.attribute(edge)}>'
                   f'<title>{xml_text(title)}</title>'
                   f'<path d="{path}" fill="none" stroke="{SECONDARY}" stroke-width="1.5" stroke-dasharray="5,3"/>'
                   f'<polygon points="{head}" fill="{SECONDARY}"/>{_text(label, SECONDARY, italic=True)}</g>')
    return out


def _cells(layout: Layout, marks: Marks, interactive: bool = False) -> list[str]:
    """The EDU cells; on the interactive page of a tree with signals, each word of their text is a ``tspan``
    with its token number (``data-t``), for the page to light a relation's signal tokens."""
    out = []
    first: list[int] | None = None  # each EDU's first token
    if interactive and layout.tree.erst.signals:
        first, total = [], 1
        for edu in layout.tree.edus:
            first.append(total)
            total += len(edu.text.split())
    for cell in layout.cells:
        span = (cell.index, cell.index)
        mark = marks.get(span)
        box = cell.box
        rect = (f'<rect x="{_n(box.x0)}" y="{_n(box.y0)}" width="{_n(box.x1 - box.x0)}" '
                f'height="{_n(box.y1 - box.y0)}" rx="3" fill="{CELL_FILL}" '
                f'stroke="{DIFF_COLORS[mark] if mark else CELL_STROKE}"/>')
        lines = [_text(t, INK, role=("number" if k == 0 else "line") if interactive else "")
                 for k, t in enumerate(cell.lines)]
        if first is not None:
            pieces = _token_pieces(layout.tree.edus[cell.index - 1].text, [t.text for t in cell.lines[1:]],
                                   first[cell.index - 1])
            lines[1:] = [_text(t, INK, role="line", words=row) for t, row in zip(cell.lines[1:], pieces)]
        out.append(_group("edu", span, f"{cell.index}: {cell.text}", [rect, *lines], mark))
    return out


def _segments(layout: Layout, marks: Marks, labels: dict, role: str = "", signals: Signals | None = None
              ) -> list[str]:
    """Span bars with their span labels, nucleus lines, multinuclear bars with their relation (and the
    signals of its nuclei)."""
    out = []
    signals = signals or Signals()
    for seg in layout.segments:
        if seg.role == "bar":
            span = seg.spans[0]
            mark = marks.get(span)
            color = DIFF_COLORS[mark] if mark else BAR
            title = f"{_span_name(span)}: {_span_text(layout, span)}"
            out.append(_group("node", span, title, [
                _line(seg, color, 3 if mark else 1),
                _text(labels[("span", seg.spans)], color if mark else SPAN_LABEL, bool(mark), role=role)], mark))
        elif seg.role == "nucleus":
            span = seg.spans[0]
            mark = marks.get(span)
            relation = layout.places[span].node.relation
            title = f"nucleus {_span_name(span)}" + (f" ({relation})" if relation and relation != SPAN else "")
            out.append(_group("nucleus", span, signals.title(title, span),
                              [_line(seg, DIFF_COLORS[mark] if mark else LINE, 3 if mark else 1.5)], mark,
                              signals.attribute(span)))
        else:
            mark = _mark(marks, seg.spans, ("nuclearity", "relation"))
            color = DIFF_COLORS[mark] if mark else LINE
            label = labels[("multinuc", seg.spans)]
            title = f"{label.title or label.text} (multinuclear): " + ", ".join(_span_name(s) for s in seg.spans)
            out.append(_group("multinuc", (seg.spans[0][0], seg.spans[-1][1]), signals.title(title, *seg.spans), [
                _line(seg, color, 3 if mark else 1.5),
                _text(label, color if mark else LABEL, bool(mark), italic=True, role=role)], mark,
                signals.attribute(*seg.spans)))
    return out


def _arcs(layout: Layout, marks: Marks, labels: dict, role: str = "", signals: Signals | None = None
          ) -> list[str]:
    out = []
    signals = signals or Signals()
    for arc in layout.arcs:
        mark = marks.get(arc.satellite)
        color = DIFF_COLORS[mark] if mark else INK
        path, head = _arc_path(arc)
        title = signals.title(f"{_span_name(arc.satellite)} \u2192 {_span_name(arc.nucleus)}: {arc.relation}",
                              arc.satellite)
        out.append(_group("arc", arc.satellite, title, [
            f'<path d="{path}" fill="none" stroke="{color}" stroke-width="{_n(2.5 if mark else 1.2)}"/>',
            f'<polygon points="{head}" fill="{color}"/>',
            _text(labels[("relation", (arc.satellite,))], color if mark else LABEL, bool(mark), italic=True,
                  role=role)],
            mark, signals.attribute(arc.satellite)))
    return out


def body(layout: Layout, marks: Marks | None = None) -> list[str]:
    """The SVG elements of a drawing (no ``<svg>`` wrapper): title, EDUs, nodes, arcs."""
    marks = marks or {}
    labels = {(t.role, t.spans): t for t in layout.texts}
    titles = [_text(t, INK) for t in layout.texts if t.role == "title"]
    signals = signals_of(layout.tree)
    return (titles + _cells(layout, marks) + _segments(layout, marks, labels, signals=signals)
            + _arcs(layout, marks, labels, signals=signals) + _curves(layout, signals))


def interactive_parts(layout: Layout, marks: Marks | None = None) -> tuple[list[str], list[str]]:
    """The elements of a drawing for the zooming page, in two parts that it scales apart: the
    tree above the EDUs (title, nodes, arcs) and the EDU cells; texts carry their role."""
    marks = marks or {}
    labels = {(t.role, t.spans): t for t in layout.texts}
    titles = [_text(t, INK, role="title") for t in layout.texts if t.role == "title"]
    signals = signals_of(layout.tree)
    tree = (titles + _segments(layout, marks, labels, "label", signals) + _arcs(layout, marks, labels, "label", signals)
            + _curves(layout, signals))
    return tree, _cells(layout, marks, interactive=True)


def svg_document(width: float, height: float, content: list[str], title: str = "") -> str:
    """A standalone SVG document around ``content``."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
            f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="{xml_text(FONT_FAMILY, quote=True)}" '
            'class="rst-tree">')
    parts = [head]
    if title:
        parts.append(f"<title>{xml_text(title)}</title>")
    parts.append('<rect width="100%" height="100%" fill="#ffffff"/>')
    parts.extend(content)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def render(layout: Layout, marks: Marks | None = None) -> str:
    """A standalone SVG of one drawing."""
    title = f"RST tree {layout.tree.doc_id}".strip()
    return svg_document(layout.width, layout.height, body(layout, marks), title)


def legend(marks_present: list[str] | None = None) -> tuple[list[str], float, float]:
    """SVG elements of a colour legend for difference kinds, its width and height."""
    kinds = marks_present if marks_present is not None else list(KINDS)
    out, y = [], 14.0
    for kind in kinds:
        out.append(f'<rect x="12" y="{_n(y - 9)}" width="22" height="10" fill="{DIFF_COLORS[kind]}"/>')
        out.append(f'<text x="40" y="{_n(y)}" font-size="11" fill="{INK}">{xml_text(KINDS[kind])}</text>')
        y += 16
    return out, 340.0, y


def render_pair(gold: Layout, pred: Layout, gold_marks: Marks, pred_marks: Marks) -> str:
    """One SVG with the gold drawing above the predicted one (EDU columns aligned) and a legend."""
    items, legend_w, legend_h = legend()
    gap = 16.0
    width = max(gold.width, pred.width, legend_w)
    content = list(items)
    y = legend_h + 4
    for drawing, marks in ((gold, gold_marks), (pred, pred_marks)):
        content.append(f'<g transform="translate(0,{_n(y)})">')
        content.extend(body(drawing, marks))
        content.append("</g>")
        y += drawing.height + gap
    return svg_document(width, y, content, f"RST trees {gold.tree.doc_id}: gold and prediction")
