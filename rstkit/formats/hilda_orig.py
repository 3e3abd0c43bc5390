"""``hilda_orig``: the original HILDA parser's ``<input>.parsetree`` (Hernault et al. 2010).

A Python expression, ``ParseTree('Contrast[S][N]', ["Although they did n't like it ,",
'they accepted the offer .'])``: a binary tree with ``Rel[N][S]`` labels (relation on the
parent) whose string leaves are the EDUs (docs/formats.md#hilda_orig). The expression is read
token by token: only ``ParseTree``, brackets, commas and string literals are accepted and
only the literals are decoded (:func:`ast.literal_eval`); nothing is evaluated. HILDA's
``.tree`` file (an nltk print with undelimited EDU text) cannot be split back into EDUs
reliably and is not read.
"""
from __future__ import annotations

import ast
import re
import warnings
from pathlib import Path

from ..errors import FormatError, printable
from ..tree import Node, RSTTree
from . import Format, input_names, read_text, register
from .build import LeafCounter, attach, finish, parent_label
from .feng import SPELLING
from .writable import writer

KEY = "hilda_orig"
EXTENSION = ".parsetree"
_LABEL = re.compile(r"^(.+)\[([NS])\]\[([NS])\]$")
_WORDS = {"name": "ParseTree(", "string": "a string literal"}
_TOKENS = re.compile(r"""(?P<name>ParseTree)|(?P<punct>[()\[\],])|(?P<space>\s+)"""
                     r"""|(?P<string>[uU]?(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"))""")


def _tokens(text: str, source: str) -> list[tuple[str, str, int]]:
    """(kind, text, line) tokens; anything but ParseTree, brackets, commas and string literals is an error."""
    tokens, line, position = [], 1, 0
    while position < len(text):
        match = _TOKENS.match(text, position)
        if not match:
            raise FormatError(f"malformed {KEY} file: unexpected '{printable(text[position:position + 20])}' (only "
                              "ParseTree(...), lists and string literals are allowed)", source, line)
        kind = match.lastgroup or ""
        if kind != "space":
            tokens.append((kind, match.group(), line))
        line += match.group().count("\n")
        position = match.end()
    return tokens


def loads_hilda_orig(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
                     lenient: bool = False) -> RSTTree:
    """Parse one ``.parsetree`` expression (without evaluating it)."""
    source, doc_id = input_names(path, doc_id, (EXTENSION,))
    tokens = _tokens(text, source)
    counter = LeafCounter(KEY, source, lenient)
    position = 0

    def expect(what: str) -> tuple[str, str, int]:
        nonlocal position
        if position >= len(tokens):
            raise FormatError(f"malformed {KEY} file: unexpected end of file, expected {what}", source,
                              tokens[-1][2] if tokens else 1)
        token = tokens[position]
        if what not in (token[0], token[1]):
            raise FormatError(f"malformed {KEY} file: expected {_WORDS.get(what, what)}, found "
                              f"'{printable(token[1], 30)}'", source, token[2])
        position += 1
        return token

    def literal(token: tuple[str, str, int]) -> str:
        try:
            with warnings.catch_warnings():  # an unknown escape ('\\ ') stays as written, as Python 2 (which
                warnings.simplefilter("ignore", DeprecationWarning)  # wrote these files) read it; Python 3.11
                warnings.simplefilter("ignore", SyntaxWarning)  # and 3.12+ warn of it, with these categories
                value: str = ast.literal_eval(token[1])  # a string token (_TOKENS): its value is a str
            return value
        except (ValueError, SyntaxError):
            raise FormatError(f"malformed {KEY} file: bad string literal '{printable(token[1], 30)}'",
                              source, token[2]) from None

    # a node is ParseTree('label', [child, child]); open nodes wait for their second child
    open_nodes: list[tuple[re.Match[str], int, list[Node]]] = []
    while True:
        if position < len(tokens) and tokens[position][0] == "string":
            token = expect("string")
            node = counter.add(None, literal(token).strip(), token[2])
        else:
            line = expect("name")[2]
            expect("(")
            token = expect("string")
            label = _LABEL.match(literal(token))
            if not label:
                raise FormatError(f"malformed {KEY} file: expected a label like 'Contrast[S][N]', found "
                                  f"'{printable(literal(token), 30)}'", source, line)
            expect(",")
            expect("[")
            open_nodes.append((label, line, []))
            continue
        while open_nodes:  # a finished node completes the open nodes it finishes
            label, line, kids = open_nodes[-1]
            kids.append(node)
            if len(kids) == 1:
                expect(",")
                break
            if position < len(tokens) and tokens[position][1] == ",":
                expect(",")
            expect("]")
            expect(")")
            open_nodes.pop()
            node = attach(label.group(2) + label.group(3), label.group(1), kids[0], kids[1], source, line)
        else:
            break
    if position < len(tokens):
        raise FormatError(f"malformed {KEY} file: text after the tree", source, tokens[position][2])
    return finish(node, counter.edus, doc_id, source)


def read_hilda_orig(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    return [loads_hilda_orig(read_text(path, encoding=encoding, lenient=lenient), path, lenient=lenient)]


@writer(KEY)
def dumps_hilda_orig(tree: RSTTree) -> str:
    """One ``ParseTree(...)`` expression; EDU text as Python string literals (any character escaped),
    read back as written but for leading and trailing whitespace (stripped)."""
    out: list[str] = []
    stack: list[Node | str] = [tree.root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif item.is_leaf:
            out.append(repr(tree.edus[item.start - 1].text))
        else:
            pair, relation = parent_label(item, KEY, tree.source)
            out.append(f"ParseTree({SPELLING(relation) + f'[{pair[0]}][{pair[1]}]'!r}, [")
            stack.extend(("])", item.children[1], ", ", item.children[0]))
    return "".join(out) + "\n"


def _sniff(text: str) -> bool:
    return text.lstrip().startswith("ParseTree(")


register(Format(KEY, "original HILDA .parsetree expressions (ParseTree('Rel[N][S]', [...]))",
                read_hilda_orig, dumps_hilda_orig, (EXTENSION,), _sniff))
