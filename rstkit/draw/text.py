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
"""
from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

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


def _span(node: Node) -> str:
    return str(node.start) if node.is_leaf else f"{node.start}-{node.end}"


def describe(node: Node, parent: Node | None, glyphs: Glyphs = UNICODE) -> str:
    """``S 3 elaboration → 1-2``: nuclearity, span, relation and target of one constituent."""
    if parent is None or node.nuclearity == ROOT:
        return _span(node)
    words = [node.nuclearity, _span(node)]
    if node.nuclearity == SATELLITE:
        words.append(node.relation or "?")
        target = nearest_nucleus(parent.children, parent.children.index(node))
        if target is not None:
            words += [glyphs.arrow, _span(target)]
    elif node.relation and node.relation != SPAN:
        words.append(node.relation)
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
    parents = {id(c): n for n in tree.root.nodes() for c in n.children}
    if header is None:
        header = f"{tree.doc_id or 'document'}: {tree.n_edus} EDU{'' if tree.n_edus == 1 else 's'}"
        if top is not tree.root:
            header += f", constituent {_span(top)}"
    lines = [_fit(to_ascii(header) if ascii else header, width, glyphs)]

    def visit(node: Node, prefix: str, connector: str, child_prefix: str) -> None:
        text = describe(node, parents.get(id(node)), glyphs)
        if node.span in marks:
            text += f" [{DIFF_TAGS[marks[node.span]]}]"
        if node.is_leaf:
            text += f": {tree.edus[node.start - 1].text}"
        line = prefix + connector + text
        lines.append(_fit(to_ascii(line) if ascii else line, width, glyphs))
        for i, child in enumerate(node.children):
            last = i == len(node.children) - 1
            visit(child, prefix + child_prefix, glyphs.last if last else glyphs.branch,
                  glyphs.blank if last else glyphs.pipe)

    visit(top, "", "", "")
    return "\n".join(lines) + "\n"


def needs_ascii(encoding: str | None) -> bool:
    """True when ``encoding`` (e.g. a terminal's) cannot show the box-drawing glyphs."""
    sample = UNICODE.branch + UNICODE.last + UNICODE.pipe + UNICODE.arrow + UNICODE.ellipsis
    try:
        sample.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return True
    return False
