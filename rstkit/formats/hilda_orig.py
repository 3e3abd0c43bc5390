"""``hilda_orig``: the original HILDA parser's ``<input>.parsetree`` (Hernault et al. 2010).

A Python expression, ``ParseTree('Contrast[S][N]', ["Although they did n't like it ,",
'they accepted the offer .'])``: a binary tree with ``Rel[N][S]`` labels (relation on the
parent) whose string leaves are the EDUs (parser-formats.md B7). The expression is read
token by token: only ``ParseTree``, brackets, commas and string literals are accepted and
only the literals are decoded (:func:`ast.literal_eval`); nothing is evaluated. HILDA's
``.tree`` file (an nltk print with undelimited EDU text) cannot be split back into EDUs
reliably and is not read.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from ..errors import FormatError
from ..tree import Node, RSTTree
from . import Format, read_text, register
from .build import LeafCounter, attach, doc_id_from_name, finish, parent_label
from .feng import SPELLING

KEY = "hilda_orig"
EXTENSION = ".parsetree"
_LABEL = re.compile(r"^(.+)\[([NS])\]\[([NS])\]$")
_TOKENS = re.compile(r"""(?P<name>ParseTree)|(?P<punct>[()\[\],])|(?P<space>\s+)"""
                     r"""|(?P<string>[uU]?(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"))""")


def _tokens(text: str, source: str) -> list[tuple[str, str, int]]:
    """(kind, text, line) tokens; anything but ParseTree, brackets, commas and string literals is an error."""
    tokens, line, position = [], 1, 0
    while position < len(text):
        match = _TOKENS.match(text, position)
        if not match:
            raise FormatError(f"malformed {KEY} file: unexpected {text[position:position + 20]!r} (only "
                              "ParseTree(...), lists and string literals are allowed)", source, line)
        kind = match.lastgroup or ""
        if kind != "space":
            tokens.append((kind, match.group(), line))
        line += match.group().count("\n")
        position = match.end()
    return tokens


def loads_hilda_orig(text: str, path: str | Path | None = None, doc_id: str | None = None,
                     lenient: bool = False) -> RSTTree:
    """Parse one ``.parsetree`` expression (without evaluating it)."""
    source = str(path) if path is not None else "<string>"
    if doc_id is None:
        doc_id = doc_id_from_name(str(path), (EXTENSION,)) if path is not None else ""
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
            raise FormatError(f"malformed {KEY} file: expected {what}, found {token[1][:30]!r}", source, token[2])
        position += 1
        return token

    def build() -> Node:
        if position < len(tokens) and tokens[position][0] == "string":
            _, literal, line = expect("string")
            return counter.add(None, ast.literal_eval(literal).strip(), line)
        _, _, line = expect("name")
        expect("(")
        label_text = ast.literal_eval(expect("string")[1])
        label = _LABEL.match(label_text)
        if not label:
            raise FormatError(f"malformed {KEY} file: expected a label like 'Contrast[S][N]', found "
                              f"{label_text!r}", source, line)
        expect(",")
        expect("[")
        left = build()
        expect(",")
        right = build()
        if position < len(tokens) and tokens[position][1] == ",":
            expect(",")
        expect("]")
        expect(")")
        return attach(label.group(2) + label.group(3), label.group(1), left, right, line)

    root = build()
    if position < len(tokens):
        raise FormatError(f"malformed {KEY} file: text after the tree", source, tokens[position][2])
    return finish(root, counter.edus, doc_id, source)


def read_hilda_orig(path: str | Path, lenient: bool = False) -> list[RSTTree]:
    return [loads_hilda_orig(read_text(path), path, lenient=lenient)]


def dumps_hilda_orig(tree: RSTTree) -> str:
    def write(node: Node) -> str:
        if node.is_leaf:
            return repr(tree.edus[node.start - 1].text)
        pair, relation = parent_label(node, KEY, tree.source)
        return f"ParseTree({SPELLING(relation) + f'[{pair[0]}][{pair[1]}]'!r}, [{', '.join(write(c) for c in node.children)}])"

    return write(tree.root) + "\n"


def _sniff(text: str) -> bool:
    return text.lstrip().startswith("ParseTree(")


register(Format(KEY, "original HILDA .parsetree expressions (ParseTree('Rel[N][S]', [...]))",
                read_hilda_orig, dumps_hilda_orig, (EXTENSION,), _sniff))
