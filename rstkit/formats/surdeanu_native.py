"""``surdeanu_native``: the clulab processors RST parser's own tree print (``DiscourseTree.toString``).

One node per line, two spaces of indentation per level (parser-formats.md B5): internal
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

from ..errors import FormatError
from ..tree import Node, RSTTree
from . import Format, read_text, register
from .build import LeafCounter, Spelling, attach, doc_id_from_name, finish, parent_label, ptb_unescape

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


def loads_surdeanu_native(text: str, path: str | Path | None = None, doc_id: str | None = None,
                          lenient: bool = False) -> RSTTree:
    """Parse one indented tree as processors prints it."""
    source = str(path) if path is not None else "<string>"
    if doc_id is None:
        doc_id = doc_id_from_name(str(path), (EXTENSION, ".txt")) if path is not None else ""
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
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
    position = 0

    def build(level: int) -> Node:
        nonlocal position
        line = lines[position]
        if line.level != level:
            raise FormatError(f"malformed {KEY} file: expected a node indented at level {level}, found "
                              f"level {line.level}", source, line.number)
        position += 1
        leaf = _TEXT.match(line.content)
        if leaf:
            return counter.add(None, ptb_unescape(leaf.group(1)).strip(), line.number)
        internal = _INTERNAL.match(line.content)
        if not internal:
            raise FormatError(f"malformed {KEY} file: expected 'relation (LeftToRight)', 'relation "
                              f"(RightToLeft)', 'relation' or 'TEXT:...', found {line.content[:40]!r}",
                              source, line.number)
        kids = []
        while position < len(lines) and lines[position].level > level:
            kids.append(build(level + 1))
        if len(kids) != 2:
            raise FormatError(f"malformed {KEY} file: node {internal.group(1)!r} has {len(kids)} children, "
                              "expected 2", source, line.number)
        pair = DIRECTIONS.get(internal.group(2) or "", "NN")
        return attach(pair, internal.group(1), kids[0], kids[1], line.number)

    root = build(0)
    if position < len(lines):
        raise FormatError(f"malformed {KEY} file: text after the end of the tree", source, lines[position].number)
    return finish(root, counter.edus, doc_id, source)


def read_surdeanu_native(path: str | Path, lenient: bool = False) -> list[RSTTree]:
    return [loads_surdeanu_native(read_text(path), path, lenient=lenient)]


def internal_label(node: Node, tree: RSTTree, fmt: str = KEY) -> str:
    """``relation (LeftToRight)`` etc. for a binary node, as processors prints it."""
    pair, relation = parent_label(node, fmt, tree.source)
    direction = PAIR_DIRECTION.get(pair)
    return f"{SPELLING(relation)} ({direction})" if direction else SPELLING(relation)


def dumps_surdeanu_native(tree: RSTTree) -> str:
    lines: list[str] = []

    def emit(node: Node, depth: int) -> None:
        pad = "  " * depth
        if node.is_leaf:
            lines.append(f"{pad}TEXT:{tree.edus[node.start - 1].text}")
            return
        lines.append(pad + internal_label(node, tree))
        for child in node.children:
            emit(child, depth + 1)

    emit(tree.root, 0)
    return "\n".join(lines) + "\n"


def _sniff(text: str) -> bool:
    head = [line for line in text[:5000].splitlines() if line.strip()][:3]
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
