"""Terminal drawing of a tree: one line per constituent, indented like ``tree(1)``.

Each line says what the constituent is and how it attaches, in the order a reader of an
RST diagram looks for it: nuclearity, span, relation, and for a satellite the span of
the nucleus it points at::

    1-3
    ├─ N 1-2
    │  ├─ N 1: The river rose overnight,
    │  └─ S 2 elaboration → 1: flooding the lower town.
    └─ S 3 attribution → 1-2: officials said.

Nuclei of a multinuclear relation show the relation (``N 4 list``); the nucleus of a
mononuclear one shows none (its rel2par label is ``span``). Lines longer than ``width``
are cut with an ellipsis. ``ascii=True`` uses ``|-``, ``->`` and ``...`` and writes
EDU text without accents (other non-ASCII characters become ``?``).

Text from the input (document id, relation labels, EDU text) is shown with control characters
escaped (:func:`~rstkit.errors.printable`: ``\x1b`` as four characters, a line break as ``\n``), so a
drawing is one line per constituent and cannot drive the terminal.

Indentation is shown for :data:`FOLD` levels at most: a line deeper than that starts
with ``[+32]`` (``[+64]``, ...), the number of indentation levels left out, and is
indented from there. So a deep tree (a 20,000-EDU chain) draws in lines of bounded width
and total size linear in its nodes, not quadratic.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import printable
from ..tree import ROOT, SATELLITE, SPAN, Node, RSTTree
from .layout import Span, nearest_nucleus


@dataclass(frozen=True)
class Glyphs:
    branch: str
    last: str
    pipe: str
    blank: str
    arrow: str
    ellipsis: str


UNICODE = Glyphs("├─ ", "└─ ", "│  ", "   ", "→", "…")
ASCII = Glyphs("|- ", "`- ", "|  ", "   ", "->", "...")

#: how a difference kind is shown after a line
DIFF_TAGS = {"gold-only": "only in gold", "pred-only": "only in prediction",
             "nuclearity": "nuclearity differs", "relation": "relation differs"}

#: indentation levels shown before a line's indentation restarts behind a ``[+N]`` marker
FOLD = 32


def _span(node: Node) -> str:
    return str(node.start) if node.is_leaf else f"{node.start}-{node.end}"


def describe(node: Node, parent: Node | None, glyphs: Glyphs = UNICODE, index: int | None = None) -> str:
    """``S 3 elaboration → 1-2``: nuclearity, span, relation and target of one constituent
    (``index``: its position among ``parent``'s children, looked up when not given)."""
    if parent is None or node.nuclearity == ROOT:
        return _span(node)
    words = [node.nuclearity, _span(node)]
    if node.nuclearity == SATELLITE:
        words.append(printable(node.relation, limit=None) if node.relation else "?")
        position = index if index is not None else next(i for i, c in enumerate(parent.children) if c is node)
        target = nearest_nucleus(parent.children, position)
        if target is not None:
            words += [glyphs.arrow, _span(target)]
    elif node.relation and node.relation != SPAN:
        words.append(printable(node.relation, limit=None))
    return " ".join(words)


def to_ascii(text: str) -> str:
    """``text`` with accents dropped and other non-ASCII characters shown as ``?``."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    return kept.encode("ascii", "replace").decode("ascii")


def _fit(line: str, width: int, glyphs: Glyphs) -> str:
    if width <= 0 or len(line) <= width:
        return line
    return line[:max(width - len(glyphs.ellipsis), 0)].rstrip() + glyphs.ellipsis


def render(tree: RSTTree, top: Node | None = None, width: int = 0, ascii: bool = False,
           marks: Mapping[Span, str] | None = None, header: str | None = None) -> str:
    """The drawing of ``top`` (default: the whole tree) as text, one line per constituent.

    ``width`` > 0 cuts longer lines; ``marks`` (``{span: kind}``, from
    :func:`~rstkit.draw.diff.diff_trees`) tags differing constituents.
    """
    glyphs = ASCII if ascii else UNICODE
    top = top or tree.root
    marks = marks or {}
    if header is None:
        header = f"{tree.doc_id or 'document'}: {tree.n_edus} EDU{'' if tree.n_edus == 1 else 's'}"
        if top is not tree.root:
            header += f", constituent {_span(top)}"
    header = printable(header, limit=None)
    lines = [_fit(to_ascii(header) if ascii else header, width, glyphs)]
    parent_of = {id(c): (n, i) for n in tree.root.nodes() for i, c in enumerate(n.children)}
    # pre-order with an explicit stack; a node's indentation is a linked list of its
    # ancestors' segments, so no line copies the whole path above it
    stack: list[tuple[Node, str, Indent, int]] = [(top, "", None, 0)]
    while stack:
        node, connector, indent, depth = stack.pop()
        parent, index = parent_of.get(id(node), (None, None))
        text = describe(node, parent, glyphs, index)
        if node.span in marks:
            text += f" [{DIFF_TAGS[marks[node.span]]}]"
        if node.is_leaf:
            text += f": {printable(tree.edus[node.start - 1].text, limit=None)}"
        line = _indentation(indent, max(depth - 1, 0)) + connector + text
        lines.append(_fit(to_ascii(line) if ascii else line, width, glyphs))
        child_indent = None if depth == 0 else (glyphs.blank if connector == glyphs.last else glyphs.pipe, indent)
        for i in range(len(node.children) - 1, -1, -1):
            last = i == len(node.children) - 1
            stack.append((node.children[i], glyphs.last if last else glyphs.branch, child_indent, depth + 1))
    return "\n".join(lines) + "\n"


#: a line's indentation as a linked list, innermost segment first: (segment, rest) or None
Indent = tuple[str, "Indent"] | None


def _indentation(indent: Indent, levels: int) -> str:
    """The indentation of a line ``levels`` deep, folded every :data:`FOLD` levels."""
    folded = levels - levels % FOLD
    segments = []
    for _ in range(levels - folded):
        assert indent is not None, "one link of the indentation per level"
        segment, indent = indent
        segments.append(segment)
    marker = f"[+{folded}] " if folded else ""
    return marker + "".join(reversed(segments))


def needs_ascii(encoding: str | None) -> bool:
    """True when ``encoding`` (e.g. a terminal's) cannot show the box-drawing glyphs."""
    sample = UNICODE.branch + UNICODE.last + UNICODE.pipe + UNICODE.arrow + UNICODE.ellipsis
    try:
        sample.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return True
    return False
