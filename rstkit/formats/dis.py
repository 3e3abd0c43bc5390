"""RST-DT ``.dis`` files (also GUM ``lisp_nary``/``lisp_binary``): reader and writer.

The reader uses a real grammar (lark, LALR). EDU text atoms ``(text _!..._!)`` are single
tokens wherever they appear, so several leaves on one line, parentheses, brackets and
quotes inside text, and any whitespace between tokens are all read correctly (the
reference reader mis-reads some of these silently, evaluation.md B2/B3). RST-DT's stray
``//TT_ERR`` editor marks are ignored.

Declared extents are checked against the leaves: a mismatch is an error naming the line,
unless ``lenient=True``, which repairs extents (and leaf numbers) from the leaves and warns.
"""
from __future__ import annotations

import re
import warnings
from pathlib import Path

from lark import Lark, Token
from lark import Tree as LarkTree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..errors import FormatError, RSTKitWarning, TreeStructureError
from ..tree import EDU, ROOT, Node, RSTTree, nuclearity_from_word, nuclearity_word, validate
from . import Format, doc_id_from_path, read_text, register

_GRAMMAR = r"""
start: node
node: "(" NUCLEARITY extent rel2par? TEXT? node* ")"
extent: "(" "span" INT INT ")"   -> span
      | "(" "leaf" INT ")"       -> leaf
rel2par: "(" "rel2par" LABEL ")"

NUCLEARITY: "Root" | "Nucleus" | "Satellite"
TEXT.2: /\(\s*text\s+(_!.*?_!|<EDU>.*?<\/EDU>)\s*\)/s
LABEL: /[^\s()]+/
INT: /\d+/

%ignore /\s+/
%ignore "//TT_ERR"
"""

_PARSER = Lark(_GRAMMAR, parser="lalr", maybe_placeholders=False)
_TEXT_BODY = re.compile(r"^\(\s*text\s+(?:_!(.*)_!|<EDU>(.*)</EDU>)\s*\)$", re.DOTALL)
_PARAGRAPH_END = re.compile(r"\s*<P>\s*$")


def loads_dis(text: str, path: str | Path | None = None, doc_id: str | None = None,
              lenient: bool = False) -> RSTTree:
    """Parse the text of one ``.dis`` file into an RSTTree."""
    source = str(path) if path is not None else "<string>"
    try:
        parsed = _PARSER.parse(text)
    except UnexpectedInput as exc:
        raise FormatError(_describe_syntax_error(exc, text), source, getattr(exc, "line", None)) from None
    builder = _Builder(source, lenient)
    root = builder.build(parsed.children[0], is_root=True)
    if doc_id is None:
        doc_id = doc_id_from_path(path) if path is not None else ""
    edus = builder.edus
    if not builder.saw_paragraph_marker:  # no <P> at all: paragraphs are unknown
        edus = [EDU(e.index, e.text) for e in edus]
    tree = RSTTree(root, tuple(edus), doc_id, source)
    validate(tree)
    return tree


def read_dis(path: str | Path, lenient: bool = False) -> list[RSTTree]:
    """Read one ``.dis`` file (a list of one tree, as every format reader returns)."""
    return [loads_dis(read_text(path), path, lenient=lenient)]


def _describe_syntax_error(exc: UnexpectedInput, text: str) -> str:
    if isinstance(exc, UnexpectedCharacters):
        snippet = text[exc.pos_in_stream:exc.pos_in_stream + 20].split("\n")[0]
        return f"malformed .dis: unexpected text {snippet!r} at column {exc.column}"
    if isinstance(exc, UnexpectedToken):
        if exc.token.type == "$END":
            return "malformed .dis: unexpected end of file (unbalanced brackets?)"
        expected = ", ".join(sorted(_pretty_terminal(t) for t in exc.expected))
        return (f"malformed .dis: unexpected {exc.token!s:.30} at column {exc.column}; "
                f"expected one of: {expected}")
    return f"malformed .dis: {exc}"


def _pretty_terminal(name: str) -> str:
    return {"LPAR": "'('", "RPAR": "')'", "TEXT": "(text _!..._!)", "INT": "a number", "$END": "end of file",
            "NUCLEARITY": "Nucleus/Satellite", "LABEL": "a relation label"}.get(name, name)


class _Builder:
    """Turns the lark parse into Nodes, numbering leaves in order and checking extents."""

    def __init__(self, source: str, lenient: bool):
        self.source = source
        self.lenient = lenient
        self.edus: list[EDU] = []
        self.paragraph = 1
        self.saw_paragraph_marker = False

    def build(self, node: LarkTree, is_root: bool = False) -> Node:
        nuc_token: Token = node.children[0]
        line = nuc_token.line
        nuclearity = nuclearity_from_word(str(nuc_token))
        extent: LarkTree = node.children[1]
        relation = None
        text = None
        kids = []
        for part in node.children[2:]:
            if isinstance(part, Token):  # TEXT
                text = part
            elif part.data == "rel2par":
                relation = str(part.children[0])
            else:
                kids.append(part)
        if is_root != (nuclearity == ROOT):
            where = "the top node" if is_root else "a non-top node"
            raise TreeStructureError(f"{where} has nuclearity {nuc_token!s}", self.source, line)
        if not is_root and relation is None:
            raise TreeStructureError("node has no (rel2par ...)", self.source, line)
        if extent.data == "leaf":
            if kids:
                raise TreeStructureError("a (leaf ...) node has children", self.source, line)
            if text is None:
                raise TreeStructureError("a (leaf ...) node has no (text ...)", self.source, line)
            return self._leaf(int(extent.children[0]), nuclearity, relation, str(text), line)
        if text is not None:
            raise TreeStructureError("a (span ...) node has a (text ...)", self.source, line)
        if not kids:
            raise TreeStructureError("a (span ...) node has no children", self.source, line)
        children = tuple(self.build(k) for k in kids)
        declared = (int(extent.children[0]), int(extent.children[1]))
        actual = (children[0].start, children[-1].end)
        if declared != actual:
            self._problem(f"declares (span {declared[0]} {declared[1]}) over children covering "
                          f"{actual[0]}-{actual[1]}", line)
        return Node(actual[0], actual[1], nuclearity, relation, children, line)

    def _leaf(self, declared: int, nuclearity: str, relation: str | None, text_token: str, line: int) -> Node:
        index = len(self.edus) + 1
        if declared != index:
            self._problem(f"declares (leaf {declared}) where EDU {index} is expected", line)
        match = _TEXT_BODY.match(text_token)
        body = next(g for g in match.groups() if g is not None) if match else ""
        body, n_sub = _PARAGRAPH_END.subn("", body)
        if n_sub:
            self.saw_paragraph_marker = True
        self.edus.append(EDU(index, body.strip(), paragraph=self.paragraph))
        if n_sub:
            self.paragraph += 1
        return Node(index, index, nuclearity, relation, (), line)

    def _problem(self, message: str, line: int) -> None:
        if not self.lenient:
            raise TreeStructureError(message, self.source, line, fixes=("lenient",))
        warnings.warn(f"{self.source}:{line}: {message}; repaired from the leaves (lenient)",
                      RSTKitWarning, stacklevel=2)


def dumps_dis(tree: RSTTree) -> str:
    """Write a tree in RST-DT layout: one node per line, leaves on one line, 2-space indent.

    EDUs that end a paragraph (where paragraph indices are known) get RST-DT's ``<P>``.
    """
    lines: list[str] = []
    edus = tree.edus

    def ends_paragraph(i: int) -> bool:
        this = edus[i - 1].paragraph
        if this is None or i == len(edus):
            return False
        return edus[i].paragraph != this

    def header(node: Node) -> str:
        extent = f"(leaf {node.start})" if node.is_leaf else f"(span {node.start} {node.end})"
        if node.nuclearity == ROOT:
            return f"( Root {extent}"
        return f"( {nuclearity_word(node.nuclearity)} {extent} (rel2par {node.relation})"

    def emit(node: Node, depth: int) -> None:
        pad = "  " * depth
        if node.is_leaf:
            text = edus[node.start - 1].text + ("<P>" if ends_paragraph(node.start) else "")
            lines.append(f"{pad}{header(node)} (text _!{text}_!) )")
            return
        lines.append(pad + header(node))
        for child in node.children:
            emit(child, depth + 1)
        lines.append(pad + ")")

    emit(tree.root, 0)
    return "\n".join(lines) + "\n"


def _sniff(text: str) -> bool:
    return bool(re.match(r"\s*\(\s*Root\s*\(\s*(span|leaf)\s", text)) and "(rel2par" in text


register(Format("dis", "RST-DT .dis bracketed trees (rel2par convention)", read_dis, dumps_dis,
                (".dis",), _sniff))
