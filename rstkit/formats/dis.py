"""RST-DT ``.dis`` files (also GUM ``lisp_nary``/``lisp_binary``): reader and writer.

Two readers share one tree builder. A fast scanner reads files laid out regularly (one
regular-expression match per node: a whole leaf group, an inner node's header, or a closing
bracket) into a flat list of node events. Anything it does not handle (``<EDU>`` delimiters,
RST-DT's ``//TT_ERR`` marks, a token out of place) sends the file to the precise reader, a
real grammar (lark, LALR), which produces the same events or explains the syntax error. The
events hold everything a file says about a node, so both readers give the same tree, the
same errors and the same warnings (tests/formats/test_dis_fast.py checks them on every GUM file).
Before both, a direct path builds the tree of a well-formed, regularly laid out file from one
regular-expression pass (no events, no separate validation: it checks what it builds) and
declines anything else, so that errors, warnings and lenient repairs all come from the event
path; it gives the event path's tree, node lines included (tested the same way).

EDU text atoms ``(text _!..._!)`` are single tokens wherever they appear, so several leaves
on one line, parentheses, brackets and quotes inside text, and any whitespace between tokens
are all read correctly (the reference reader mis-reads some of these silently, evaluation.md
B2/B3). RST-DT's stray ``//TT_ERR`` editor marks are ignored.

Declared extents are checked against the leaves: a mismatch is an error naming the line,
unless ``lenient=True``, which repairs extents (and leaf numbers) from the leaves and warns.
Reading and writing are iterative: tree depth is limited by memory only.
"""
from __future__ import annotations

import re
import sys
import warnings
from functools import cache
from itertools import accumulate, repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..errors import FormatError, RSTKitWarning, TreeStructureError, printable
from ..tree import (
    EDU,
    NUCLEUS,
    ROOT,
    SATELLITE,
    Node,
    RSTTree,
    new_edu,
    new_node,
    nuclearity_from_word,
    nuclearity_word,
    validate,
)
from . import Format, doc_id_from_path, read_text, register
from .writable import Unwritable, writer

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput, UnexpectedToken

#: one node of a file: (nuclearity word, line, extent, relation, EDU text body, has child nodes);
#: extent is the leaf number of ``(leaf i)`` or the pair of ``(span a b)``; None closes a span node
Event = tuple[str, int, int | tuple[int, int], str | None, str | None, bool] | None


def loads_dis(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
              lenient: bool = False) -> RSTTree:
    """Parse the text of one ``.dis`` file into an RSTTree.

    >>> tree = loads_dis("( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!Rain fell,_!) )"
    ...                  " ( Satellite (leaf 2) (rel2par cause) (text _!so we stayed in._!) ) )")
    >>> print(tree)
    (Root 1-2 (N:span 1) (S:cause 2))
    >>> tree.edus[1].text
    'so we stayed in.'
    """
    source = str(path) if path is not None else "<string>"
    if doc_id is None:
        doc_id = doc_id_from_path(path) if path is not None else ""
    built = _direct(text)
    if built is not None:
        return RSTTree(built[0], built[1], doc_id, source)
    events = _scan(text)
    if events is None:
        events = _grammar_events(text, source)
    builder = _Builder(source, lenient)
    root = builder.build(events)
    tree = RSTTree(root, builder.edus(), doc_id, source)
    validate(tree)
    return tree


def read_dis(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    """Read one ``.dis`` file (a list of one tree, as every format reader returns)."""
    return [loads_dis(read_text(path, encoding=encoding, lenient=lenient), path, lenient=lenient)]


# -- the fast scanner -----------------------------------------------------------------------
# One match per node or closing bracket. The text atom is lark's TEXT terminal, made atomic so
# that it ends where the grammar's token ends (never stretched to make the rest match).
_WS = r"\s*"
_REL2PAR = r"\(\s*+rel2par\s++([^\s()]+)\s*+\)"  # possessive: as fast, never backtracks
_NODE_SCAN = re.compile(rf"""
    (                                            # 1 the whole match (for line counting)
      ({_WS}\(\s*)                               # 2 up to the nuclearity word
      (?:
        (Nucleus|Satellite|Root)\s*\(\s*         # 3 nuclearity word
        (?:
          leaf\s+(\d+)\s*\)\s*                   # 4 leaf number
          (?:{_REL2PAR}\s*)?                     # 5 relation
          (?>\(\s*text\s+_!(.*?)_!\s*\))\s*\)    # 6 EDU text; the leaf's closing bracket
        | span\s+(\d+)\s+(\d+)\s*\)              # 7, 8 extent of an inner node
          (?:\s*{_REL2PAR})?                     # 9 relation
        )
      )
    | {_WS}(\))                                  # 10 closing bracket of an inner node
    | {_WS}\Z                                    # end of the file
    | (.)                                        # 11 anything else: leave it to the grammar
    )""", re.DOTALL | re.VERBOSE)


def _scan(text: str) -> list[Event] | None:
    """The node events of a regularly laid out file, or None when the grammar must read it."""
    if "//TT_ERR" in text:
        return None
    events: list[Event] = []
    append = events.append
    depth = 0
    closed = False  # the top node is complete
    line = 1
    for whole, lead, word, leaf_no, leaf_rel, body, first, last, rel, close, junk in _NODE_SCAN.findall(text):
        if word:
            if closed:
                return None
            node_line = line + lead.count("\n")
            if leaf_no:
                append((word, node_line, int(leaf_no), leaf_rel or None, body, False))
                closed = depth == 0
            else:
                append((word, node_line, (int(first), int(last)), rel or None, None, True))
                depth += 1
        elif close:
            if depth == 0:
                return None
            depth -= 1
            append(None)
            closed = depth == 0
        elif junk:
            return None
        else:
            break  # end of the file
        line += whole.count("\n")
    return events if closed else None


# -- the direct path: a well-formed, regularly laid out file straight into the tree ----------
# One match per node: a leaf group or an inner node's header, each with the closing brackets of
# inner nodes that follow it. The text atom is the scanner's (below). Anything else, and any
# inconsistency (an extent or leaf number that differs from the leaves, a unary node, a node
# without a nucleus, a missing relation, Root out of place), declines the file: the event path
# then reads it and gives the error, the warning or the lenient repair.
#: an EDU text body: up to the first ``_!`` followed by ``)``, as the scanner's text atom (unrolled and
#: possessive, like every quantifier of _DIRECT: nothing it matches is followed by what it could give back)
_BODY = r"[^_]*+(?:_(?!!\s*+\))[^_]*+)*+"
_DIRECT = re.compile(rf"""
    (                                               # 1 the whole match (for line counting)
      (\s*+\(\s*+)                                   # 2 up to the nuclearity word
      (Nucleus|Satellite|Root)\s*+\(\s*+             # 3 nuclearity word
      (?:
        leaf\s++(\d++)\s*+\)\s*+                     # 4 leaf number
        (?:{_REL2PAR}\s*+)?                          # 5 relation
        \(\s*+text\s++_!({_BODY})_!\s*+\)\s*+\)      # 6 EDU text; the leaf's closing bracket
      | span\s++(\d++)\s++(\d++)\s*+\)               # 7, 8 extent of an inner node
        (?:\s*+{_REL2PAR})?                          # 9 relation
      )
      ((?:\s*+\))*)                                  # 10 closing brackets of inner nodes after it
    )
    | (\S)                                          # 11 anything else: leave it to the event path
    """, re.DOTALL | re.VERBOSE)
_DIRECT_NUCLEARITY = {"Nucleus": NUCLEUS, "Satellite": SATELLITE, "Root": ROOT}


def _direct(text: str) -> tuple[Node, tuple[EDU, ...]] | None:
    """(root, EDUs) of a well-formed, regularly laid out file, or None when the event path must
    read it. The checks of :func:`~rstkit.tree.validate` hold by construction (leaves numbered in
    order, spans from the children) or are made here (arity, a nucleus, Root on top only)."""
    if "//TT_ERR" in text:
        return None
    intern = sys.intern
    # open inner nodes: nuclearity, relation, line, declared first and last leaf; and their children
    headers: list[tuple[str, str | None, int, int, int]] = []
    open_children: list[list[Node]] = []
    children: list[Node] = []  # of the innermost open node
    texts: list[str] = []
    paragraph_ends: set[int] = set()  # EDUs (from 0) marked <P>
    root: Node | None = None
    line = 1
    for whole, lead, word, leaf_no, leaf_rel, body, first, last, rel, closes, junk in _DIRECT.findall(text):
        if junk or root is not None:
            return None
        nuclearity = _DIRECT_NUCLEARITY[word]
        if (nuclearity is ROOT) == bool(headers):
            return None
        node_line = line + lead.count("\n")
        line += whole.count("\n")
        relation = leaf_rel or rel
        if relation:
            relation = intern(relation)
        elif nuclearity is ROOT:
            relation = None
        else:
            return None
        if leaf_no:
            index = len(texts) + 1
            if int(leaf_no) != index:
                return None
            if "<P>" in body:
                body, n_sub = _PARAGRAPH_END.subn("", body)
                if n_sub:
                    paragraph_ends.add(index - 1)
            texts.append(intern(body.strip()))
            node = new_node(index, index, nuclearity, relation, (), node_line)
            if not headers:  # a one-EDU document
                if closes:
                    return None
                root = node
                continue
            children.append(node)
        else:
            headers.append((nuclearity, relation, node_line, int(first), int(last)))
            open_children.append(children)
            children = []
        if closes:
            for _ in range(closes.count(")")):
                if not headers:
                    return None
                nuclearity, relation, node_line, start, end = headers.pop()
                if len(children) < 2 or start != children[0].start or end != children[-1].end:
                    return None
                for child in children:
                    if child.nuclearity is NUCLEUS:
                        break
                else:
                    return None
                node = new_node(start, end, nuclearity, relation, tuple(children), node_line)
                children = open_children.pop()
                if headers:
                    children.append(node)
                else:
                    root = node
    if root is None or headers:
        return None
    numbers = range(1, len(texts) + 1)
    if not paragraph_ends:
        return root, tuple(map(new_edu, numbers, texts, repeat(None), repeat(None)))
    paragraphs = list(accumulate(map(paragraph_ends.__contains__, range(-1, len(texts) - 1)), initial=1))[1:]
    return root, tuple(map(new_edu, numbers, texts, repeat(None), paragraphs))


# -- the grammar (precise reader, explains malformed files) ----------------------------------
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



@cache
def _parser() -> Lark:
    """The grammar's parser, built when a file first needs it (lark is not imported before)."""
    from lark import Lark

    return Lark(_GRAMMAR, parser="lalr", maybe_placeholders=False)


_TEXT_BODY = re.compile(r"^\(\s*text\s+(?:_!(.*)_!|<EDU>(.*)</EDU>)\s*\)$", re.DOTALL)


def _grammar_events(text: str, source: str) -> list[Event]:
    """The node events of a file read with the grammar; a FormatError explains bad syntax."""
    from lark import Token
    from lark.exceptions import UnexpectedInput

    try:
        parsed = _parser().parse(text)
    except UnexpectedInput as exc:
        line = getattr(exc, "line", None)
        message = _describe_syntax_error(exc, text)
        unterminated = _unterminated_text(text, _error_position(exc, text))
        if unterminated is not None:
            message, line = unterminated
        raise FormatError(message, source, line) from None
    events: list[Event] = []
    # the grammar fixes the shapes: a node is (NUCLEARITY extent part*), an extent's children are INTs,
    # a part is a TEXT token, a rel2par tree or a child node
    stack: list[Tree[Token] | None] = [cast("Tree[Token]", parsed.children[0])]
    while stack:  # pre-order, with None where a span node closes
        node = stack.pop()
        if node is None:
            events.append(None)
            continue
        word, extent, *parts = cast(list[Any], node.children)
        relation: str | None = None
        body: str | None = None
        kids: list[Tree[Token] | None] = []
        for part in parts:
            if isinstance(part, Token):  # TEXT
                match = _TEXT_BODY.match(part)
                assert match is not None, "the grammar's TEXT terminal has this form"
                body = next(g for g in match.groups() if g is not None)
            elif part.data == "rel2par":
                relation = str(part.children[0])
            else:
                kids.append(part)
        numbers = [int(n) for n in extent.children]
        is_leaf = extent.data == "leaf"
        events.append((str(word), word.line, numbers[0] if is_leaf else (numbers[0], numbers[1]),
                       relation, body, bool(kids)))
        if not is_leaf:
            stack.append(None)
            stack.extend(reversed(kids))
    return events


_TERMINAL_WORDS = {"LPAR": "'('", "RPAR": "')'", "TEXT": "(text _!..._!)", "INT": "a number",
                   "$END": "end of file", "NUCLEARITY": "Nucleus/Satellite", "LABEL": "a relation label",
                   "SPAN": "'span'", "LEAF": "'leaf'", "REL2PAR": "'rel2par'"}


def _describe_syntax_error(exc: UnexpectedInput, text: str) -> str:
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(exc, UnexpectedCharacters):
        start = _error_position(exc, text)
        snippet = text[start:start + 20].split("\n")[0]
        return f"malformed .dis: unexpected text '{printable(snippet, 20)}' at column {exc.column}"
    if isinstance(exc, UnexpectedToken):
        if exc.token.type == "$END":
            return "malformed .dis: unexpected end of file (unbalanced brackets?)"
        words = sorted({_TERMINAL_WORDS.get(t, "something else") for t in _acceptable(exc)})
        return (f"malformed .dis: unexpected '{printable(str(exc.token), 30)}' at column {exc.column}; "
                f"expected one of: {', '.join(words)}")
    return "malformed .dis: the file does not follow the .dis grammar"


def _acceptable(exc: UnexpectedToken) -> set[str]:
    """The tokens the parser could take where it failed (exact, unlike LALR's merged ``expected``)."""
    parser = getattr(exc, "interactive_parser", None)
    return set(parser.accepts()) if parser is not None else set(exc.expected)


def _error_position(exc: UnexpectedInput, text: str) -> int:
    from lark.exceptions import UnexpectedToken

    if isinstance(exc, UnexpectedToken):
        return len(text) if exc.token.type == "$END" else exc.token.start_pos
    return getattr(exc, "pos_in_stream", None) or 0


_TEXT_OPEN = re.compile(r"\(\s*text\s+_!")
_TEXT_ATOM = re.compile(r"\(\s*text\s+_!.*?_!\s*\)", re.DOTALL)
_NODE_OPEN = re.compile(r"\(\s*(?:Nucleus|Satellite|Root)\s*\(\s*(?:span|leaf)\b")


def _unterminated_text(text: str, error_position: int) -> tuple[str, int] | None:
    """(message, line) when an EDU text opened before the error has no ``_!`` of its own: it
    runs to the end of the file, or over the nodes that follow it (into a later text)."""
    position = 0
    while True:
        opening = _TEXT_OPEN.search(text, position)
        if opening is None or opening.start() >= error_position:
            return None
        atom = _TEXT_ATOM.match(text, opening.start())
        if atom is None or _NODE_OPEN.search(text, opening.end(), atom.end()):
            line = text.count("\n", 0, opening.end()) + 1
            return ("malformed .dis: EDU text '(text _!' is not closed by '_!)' (it runs "
                    + ("to the end of the file)" if atom is None else "into the nodes after it)"), line)
        position = atom.end()


# -- building the tree from events -----------------------------------------------------------
_PARAGRAPH_END = re.compile(r"\s*<P>\s*$")
_NUCLEARITY = {word: nuclearity_from_word(word) for word in ("Nucleus", "Satellite", "Root")}


class _Builder:
    """Turns node events into Nodes, numbering leaves in order and checking extents."""

    def __init__(self, source: str, lenient: bool):
        self.source = source
        self.lenient = lenient
        self.texts: list[str] = []
        self.paragraphs: list[int] = []
        self.paragraph = 1
        self.saw_paragraph_marker = False

    def build(self, events: list[Event]) -> Node:
        source = self.source
        stack: list[tuple[str, str | None, int, tuple[int, int], list[Node]]] = []
        root: Node | None = None
        for event in events:
            if event is None:
                nuclearity, relation, line, declared, children = stack.pop()
                if not children:
                    raise TreeStructureError("a (span ...) node has no children", source, line)
                actual = (children[0].start, children[-1].end)
                if declared != actual:
                    self._problem(f"declares (span {declared[0]} {declared[1]}) over children covering "
                                  f"{actual[0]}-{actual[1]}", line)
                node = Node(actual[0], actual[1], nuclearity, relation, tuple(children), line)
            else:
                word, line, extent, relation, body, has_kids = event
                nuclearity = _NUCLEARITY[word]
                is_root = not stack
                if is_root != (nuclearity == ROOT):
                    where = "the top node" if is_root else "a non-top node"
                    raise TreeStructureError(f"{where} has nuclearity {word}", source, line)
                if not is_root and relation is None:
                    raise TreeStructureError("node has no (rel2par ...)", source, line)
                if isinstance(extent, tuple):
                    if body is not None:
                        raise TreeStructureError("a (span ...) node has a (text ...)", source, line)
                    stack.append((nuclearity, relation, line, extent, []))
                    continue
                if has_kids:
                    raise TreeStructureError("a (leaf ...) node has children", source, line)
                if body is None:
                    raise TreeStructureError("a (leaf ...) node has no (text ...)", source, line)
                index = self._edu(extent, body, line)
                node = Node(index, index, nuclearity, relation, (), line)
            if stack:
                stack[-1][4].append(node)
            else:
                root = node
        assert root is not None, "the grammar requires a root node"
        return root

    def _edu(self, declared: int, body: str, line: int) -> int:
        """Record one EDU (its text without RST-DT's paragraph-end ``<P>``); its number."""
        index = len(self.texts) + 1
        if declared != index:
            self._problem(f"declares (leaf {declared}) where EDU {index} is expected", line)
        n_sub = 0
        if "<P>" in body:
            body, n_sub = _PARAGRAPH_END.subn("", body)
        self.texts.append(body.strip())
        self.paragraphs.append(self.paragraph)
        if n_sub:
            self.saw_paragraph_marker = True
            self.paragraph += 1
        return index

    def edus(self) -> tuple[EDU, ...]:
        """The EDUs read; paragraph indices only where some ``<P>`` marks them."""
        if not self.saw_paragraph_marker:
            return tuple(EDU(i, text) for i, text in enumerate(self.texts, 1))
        return tuple(EDU(i, text, None, p) for i, (text, p) in enumerate(zip(self.texts, self.paragraphs), 1))

    def _problem(self, message: str, line: int) -> None:
        if not self.lenient:
            raise TreeStructureError(message, self.source, line, fixes=("lenient",))
        warnings.warn(f"{self.source}:{line}: {message}; repaired from the leaves (lenient)",
                      RSTKitWarning, stacklevel=2)


# -- writing ----------------------------------------------------------------------------------
#: the deepest level that :func:`dumps_dis` indents further (GUM's deepest tree has 32 levels)
MAX_INDENT = 100


#: EDU text a .dis file cannot hold: it has no escape, and its reader ends a text at the first ``_!``
#: followed by ``)`` and takes a final ``<P>`` for RST-DT's paragraph mark
TEXT_RULES = (Unwritable(re.compile(r"_!\s*\)"), "which would end the (text _!..._!) early (.dis has no escape)"),
              Unwritable(re.compile(r"<P>\s*$"), "at the end, which .dis reads as RST-DT's paragraph-end mark"))
#: relation labels a ``(rel2par ...)`` cannot hold (the reader's label is ``[^\s()]+``)
LABEL_RULES = (Unwritable(re.compile(r"[\s()]"), "which a .dis (rel2par ...) label cannot hold"),
               Unwritable(re.compile(r"\A//TT_ERR\Z"), "which .dis readers skip as RST-DT's editor mark"))


@writer("dis", TEXT_RULES, LABEL_RULES)
def dumps_dis(tree: RSTTree) -> str:
    """Write a tree in RST-DT layout: one node per line, leaves on one line, 2-space indent.

    EDUs that end a paragraph (where paragraph indices are known) get RST-DT's ``<P>``.
    Indentation stops growing at depth :data:`MAX_INDENT` (a 20,000-EDU chain would
    otherwise take gigabytes of spaces); readers ignore it anyway.

    What .dis cannot hold is refused (:class:`~rstkit.errors.WriteError`, naming the document and
    the EDU): an EDU text with ``_!`` followed by ``)`` (it would end the text: .dis has no escape)
    or ending in ``<P>`` (read as the paragraph mark); a relation label with whitespace or brackets, or
    that is RST-DT's ``//TT_ERR`` mark.
    Everything else reads back as written, but for leading and trailing whitespace of EDU text,
    which the reader strips.

    >>> tree = loads_dis("( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!Rain fell,_!) )"
    ...                  " ( Satellite (leaf 2) (rel2par cause) (text _!so we stayed in._!) ) )")
    >>> print(dumps_dis(tree))
    ( Root (span 1 2)
      ( Nucleus (leaf 1) (rel2par span) (text _!Rain fell,_!) )
      ( Satellite (leaf 2) (rel2par cause) (text _!so we stayed in._!) )
    )
    <BLANKLINE>
    """
    return write_dis_syntax(tree)


def write_dis_syntax(tree: RSTTree) -> str:
    """:func:`dumps_dis` without its checks, for the writers of dis-syntax formats (which check the same
    rules, :data:`TEXT_RULES`, under their own name)."""
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

    stack: list[tuple[Node | None, int]] = [(tree.root, 0)]
    while stack:  # pre-order; None closes an inner node
        node, depth = stack.pop()
        pad = "  " * min(depth, MAX_INDENT)
        if node is None:
            lines.append(pad + ")")
        elif node.is_leaf:
            text = edus[node.start - 1].text + ("<P>" if ends_paragraph(node.start) else "")
            lines.append(f"{pad}{header(node)} (text _!{text}_!) )")
        else:
            lines.append(pad + header(node))
            stack.append((None, depth))
            stack.extend((child, depth + 1) for child in reversed(node.children))
    return "\n".join(lines) + "\n"


def _sniff(text: str) -> bool:
    return bool(re.match(r"\s*\(\s*Root\s*\(\s*(span|leaf)\s", text)) and "(rel2par" in text


register(Format("dis", "RST-DT .dis bracketed trees (rel2par convention)", read_dis, dumps_dis,
                (".dis",), _sniff))
