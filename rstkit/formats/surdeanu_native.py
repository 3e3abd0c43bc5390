"""``surdeanu_native``: the clulab processors RST parser's own tree print (``DiscourseTree.toString``).

One node per line, two spaces of indentation per level (docs/formats.md#surdeanu_native): internal
nodes ``relation (LeftToRight)`` (nucleus left, NS), ``relation (RightToLeft)`` (SN) or
``relation`` (NN); EDUs ``TEXT:tokens`` (``TEXT(start, end):tokens`` for gold trees read
from .dis). Binary; lower-case RST-DT classes. The processors shell prints a
``Discourse tree:`` line first, which is skipped. File naming is up to the user; rstkit
uses ``<doc>.dtree``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import FormatError, printable
from ..tree import Node, RSTTree
from . import Format, input_names, read_text, register, split_lines
from .build import LeafCounter, Spelling, attach, finish, parent_label, ptb_unescape
from .writable import LINE_BREAK, PTB_TOKEN, writer

KEY = "surdeanu_native"
EXTENSION = ".dtree"
SPELLING = Spelling(KEY, "lower")
#: direction word of processors -> nuclearity pair, and back
DIRECTIONS = {"LeftToRight": "NS", "RightToLeft": "SN"}
PAIR_DIRECTION = {pair: word for word, pair in DIRECTIONS.items()}
_TEXT = re.compile(r"^TEXT(?:\(\s*\d+\s*,\s*\d+\s*\))?:(.*)$", re.DOTALL)
_INTERNAL = re.compile(r"^(\S+)(?:\s+\((LeftToRight|RightToLeft)\))?$")


@dataclass(frozen=True)
class _Line:
    level: int
    content: str
    number: int


def loads_surdeanu_native(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
                          lenient: bool = False) -> RSTTree:
    """Parse one indented tree as processors prints it."""
    source, doc_id = input_names(path, doc_id, (EXTENSION,))
    lines: list[_Line] = []
    for number, raw in enumerate(split_lines(text), 1):
        if not raw.strip() or (not lines and raw.strip() == "Discourse tree:"):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        if indent % 2 or raw[indent:indent + 1].isspace():
            raise FormatError(f"malformed {KEY} file: indentation must be a multiple of two spaces",
                              source, number)
        lines.append(_Line(indent // 2, raw.strip(), number))
    if not lines:
        raise FormatError(f"malformed {KEY} file: no tree", source, 1)
    counter = LeafCounter(KEY, source, lenient)
    open_nodes: list[tuple[_Line, re.Match[str], list[Node]]] = []  # internal nodes awaiting children
    root: Node | None = None

    def close() -> None:
        line, internal, kids = open_nodes.pop()
        if len(kids) != 2:
            raise FormatError(f"malformed {KEY} file: node '{printable(internal.group(1), 30)}' has {len(kids)} "
                              "children, expected 2", source, line.number)
        pair = DIRECTIONS.get(internal.group(2) or "", "NN")
        done(attach(pair, internal.group(1), kids[0], kids[1], source, line.number))

    def done(node: Node) -> None:
        nonlocal root
        if open_nodes:
            open_nodes[-1][2].append(node)
        else:
            root = node

    for line in lines:
        while open_nodes and open_nodes[-1][0].level >= line.level:
            close()
        if root is not None:
            raise FormatError(f"malformed {KEY} file: text after the end of the tree", source, line.number)
        level = open_nodes[-1][0].level + 1 if open_nodes else 0
        if line.level != level:
            raise FormatError(f"malformed {KEY} file: expected a node indented at level {level}, found "
                              f"level {line.level}", source, line.number)
        leaf = _TEXT.match(line.content)
        if leaf:
            done(counter.add(None, ptb_unescape(leaf.group(1)).strip(), line.number))
            continue
        internal = _INTERNAL.match(line.content)
        if not internal:
            raise FormatError(f"malformed {KEY} file: expected 'relation (LeftToRight)', 'relation "
                              f"(RightToLeft)', 'relation' or 'TEXT:...', found '{printable(line.content, 40)}'",
                              source, line.number)
        open_nodes.append((line, internal, []))
    while open_nodes:
        close()
    assert root is not None  # lines is not empty
    return finish(root, counter.edus, doc_id, source)


def read_surdeanu_native(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    return [loads_surdeanu_native(read_text(path, encoding=encoding, lenient=lenient), path, lenient=lenient)]


def internal_label(node: Node, tree: RSTTree, fmt: str = KEY) -> str:
    """``relation (LeftToRight)`` etc. for a binary node, as processors prints it."""
    pair, relation = parent_label(node, fmt, tree.source)
    direction = PAIR_DIRECTION.get(pair)
    return f"{SPELLING(relation)} ({direction})" if direction else SPELLING(relation)


@writer(KEY, (LINE_BREAK, PTB_TOKEN))
def dumps_surdeanu_native(tree: RSTTree) -> str:
    """One tree as processors prints it, an EDU a line (``TEXT:...``).

    EDU text with a line break or a PTB bracket token (``-LRB-``, read back as a bracket) is refused
    (:class:`~rstkit.errors.WriteError`); otherwise it reads back as written, but for leading and
    trailing whitespace (stripped) and non-breaking spaces (read as spaces)."""
    lines: list[str] = []
    stack: list[tuple[Node, int]] = [(tree.root, 0)]
    while stack:
        node, depth = stack.pop()
        pad = "  " * depth
        if node.is_leaf:
            lines.append(f"{pad}TEXT:{tree.edus[node.start - 1].text}")
            continue
        lines.append(pad + internal_label(node, tree))
        stack.extend((child, depth + 1) for child in reversed(node.children))
    return "\n".join(lines) + "\n"


def _sniff(text: str) -> bool:
    head = [line for line in split_lines(text[:5000]) if line.strip()][:3]
    if head and head[0].strip() == "Discourse tree:":
        head = head[1:]
    if not head or head[0].startswith(" "):
        return False
    if _TEXT.match(head[0]):
        return len(head) == 1
    return bool(_INTERNAL.match(head[0])) and len(head) > 1 and head[1].startswith("  ") and \
        not head[1].lstrip().startswith("(")


register(Format(KEY, "clulab processors DiscourseTree.toString (indented; relation (LeftToRight))",
                read_surdeanu_native, dumps_surdeanu_native, (EXTENSION,), _sniff))
