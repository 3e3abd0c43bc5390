"""The precise reader of .dis files (:func:`rstkit.formats.dis.loads_dis`): a real grammar (lark,
LALR, imported when a file first needs it) that gives a file's node events or explains a syntax
error. Private: the format's one reader is ``loads_dis``."""
from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from ..errors import FormatError, printable
from ._dis_events import Event

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput, UnexpectedToken

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
def parser() -> Lark:
    """The grammar's parser, built when a file first needs it (lark is not imported before)."""
    from lark import Lark

    return Lark(_GRAMMAR, parser="lalr", maybe_placeholders=False)


_TEXT_BODY = re.compile(r"^\(\s*text\s+(?:_!(.*)_!|<EDU>(.*)</EDU>)\s*\)$", re.DOTALL)


def grammar_events(text: str, source: str) -> list[Event]:
    """The node events of a file read with the grammar; a FormatError explains bad syntax."""
    from lark import Token
    from lark.exceptions import UnexpectedInput

    try:
        parsed = parser().parse(text)
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


TERMINAL_WORDS = {"LPAR": "'('", "RPAR": "')'", "TEXT": "(text _!..._!)", "INT": "a number",
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
        words = sorted({TERMINAL_WORDS.get(t, "something else") for t in _acceptable(exc)})
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
