"""``surdeanu``: the test log of the processors RST parser (SHV15 D), as the replication used it.

One ``log`` for the whole test set (docs/formats.md#surdeanu): document names between a
``Documents`` and an ``end Documents`` line; then, after each ``System tree:`` line, a
bracketed tree, ``(elaboration (LeftToRight) (TEXT:Analysts said) (...))`` -- the relation
on the parent, ``(LeftToRight)`` = NS, ``(RightToLeft)`` = SN, none = NN (a ``rel:NS``
suffix is accepted too); EDUs ``(TEXT:tokens)`` with ``-LRB-``/``-RRB-`` for brackets. A
tree runs until the next ``System tree:`` line or the next timestamped line.

The log holds two trees per document (gold EDUs, then predicted EDUs): the trees at even
positions (0, 2, ...) are paired with the documents in order. A document without a tree
is reported by id; more trees than documents is an error.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import FormatError, MissingDocumentError, RSTKitWarning, printable
from ..tree import Node, RSTTree
from . import Format, doc_id_from_path, read_text, register, split_lines
from .brackets import Bracket, fold, parse_one
from .build import LeafCounter, attach, finish, ptb_unescape
from .surdeanu_native import DIRECTIONS

KEY = "surdeanu"
_TIMESTAMP = re.compile(r"^\d\d:\d\d:\d\d\.\d\d\d \[")
_SUFFIXED = re.compile(r"^(.+):(NS|SN|NN)$")
_TEXT_ATOM = r"TEXT:[^()]*"  # an EDU's words are one atom (up to the next bracket)


@dataclass(frozen=True)
class _Direction:
    """A ``(LeftToRight)``/``(RightToLeft)`` group: the nuclearity pair of its parent."""

    pair: str


def loads_surdeanu_tree(text: str, source: str = "<string>", *, first_line: int = 1, doc_id: str = "",
                        lenient: bool = False) -> RSTTree:
    """Parse one bracketed tree of the log."""
    counter = LeafCounter(KEY, source, lenient)

    def build(group: Bracket, values: list[Any]) -> Node | _Direction:
        head = group.head or ""
        if head.startswith("TEXT:"):
            if group.groups:
                raise FormatError(f"malformed {KEY} file: brackets inside EDU text (expected -LRB-/-RRB-)",
                                  source, group.groups[0].line)
            return counter.add(None, " ".join(ptb_unescape(head[5:]).split()), group.line)
        if len(values) == 1 and head in DIRECTIONS:
            return _Direction(DIRECTIONS[head])
        body = list(values[1:])
        pair, relation = "NN", head
        if body and isinstance(body[0], _Direction):
            pair = body.pop(0).pair
        elif _SUFFIXED.match(head):
            relation, pair = _SUFFIXED.match(head).groups()  # type: ignore[union-attr]
        if not relation or len(body) != 2 or not all(isinstance(v, Node) for v in body):
            raise FormatError(f"malformed {KEY} file: expected '(relation [(LeftToRight)|(RightToLeft)] tree "
                              f"tree)' or '(TEXT:...)', found a node '{printable(head, 30)}' with {len(body)} "
                              "items", source, group.line)
        return attach(pair, relation, body[0], body[1], source, group.line)

    root = fold(parse_one(text, KEY, source, protect=_TEXT_ATOM, first_line=first_line), build)
    if not isinstance(root, Node):
        raise FormatError(f"malformed {KEY} file: a tree cannot be only a direction", source, first_line)
    return finish(root, counter.edus, doc_id, source)


def read_surdeanu(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    """The documents of one log, gold-EDU trees only."""
    source = str(path)
    lines = split_lines(read_text(path, encoding=encoding, lenient=lenient))
    names, after = _document_list(lines, source)
    blocks = _tree_blocks(lines, after)
    trees = blocks[0::2]
    if not trees:
        raise MissingDocumentError(f"{KEY} log holds no tree (no 'System tree:' line after the document list)",
                                   source, after + 1)
    if len(blocks) > 2 * len(names):
        raise FormatError(f"{KEY} log holds {len(blocks)} trees for {len(names)} documents (expected two per "
                          "document)", source, blocks[2 * len(names)][0])
    missing = names[len(trees):]
    if missing:
        message = f"{KEY} log has no tree for: {', '.join(missing)}"
        if not lenient:
            raise MissingDocumentError(message, source)
        warnings.warn(f"{source}: {message} (skipped, lenient)", RSTKitWarning, stacklevel=2)
    return [loads_surdeanu_tree(text, source, first_line=first, doc_id=doc_id, lenient=lenient)
            for doc_id, (first, text) in zip(names, trees)]


def _document_list(lines: list[str], source: str) -> tuple[list[str], int]:
    """Document ids between ``Documents`` and ``end Documents``; the index after the list."""
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "Documents")
    except StopIteration:
        raise FormatError(f"not a {KEY} log: no 'Documents' line", source, 1) from None
    names: list[str] = []
    for i in range(start + 1, len(lines)):
        name = lines[i].strip()
        if name == "end Documents":
            return names, i + 1
        if not name or len(name.split()) != 1:
            raise FormatError(f"malformed {KEY} log: expected a document name or 'end Documents'", source, i + 1)
        doc_id = doc_id_from_path(name)
        if doc_id in names:
            raise FormatError(f"malformed {KEY} log: document '{printable(name)}' listed twice", source, i + 1)
        names.append(doc_id)
    raise FormatError(f"malformed {KEY} log: 'Documents' list has no 'end Documents'", source, start + 1)


def _tree_blocks(lines: list[str], start: int) -> list[tuple[int, str]]:
    """(first line number, text) of every tree after a ``System tree:`` line."""
    blocks: list[tuple[int, str]] = []
    current: list[str] | None = None
    first = start + 1
    for i in range(start, len(lines)):
        line = lines[i]
        if line.strip() == "System tree:" or _TIMESTAMP.match(line):
            if current is not None:
                blocks.append((first, "\n".join(current)))
            current = [] if line.strip() == "System tree:" else None
            first = i + 2
        elif current is not None:
            current.append(line)
    if current is not None:
        blocks.append((first, "\n".join(current)))
    return blocks


def _sniff(text: str) -> bool:
    return bool(re.search(r"^Documents\s*$", text, re.MULTILINE)) and "System tree:" in text


register(Format(KEY, "processors RST parser test log (Documents list, System tree: blocks)",
                read_surdeanu, None, (), _sniff, multi_document=True))
