"""``dmrst``: span-descriptor strings of DMRST (Liu, Shi & Chen 2021) and similar top-down parsers.

One tree per line (docs/formats.md#dmrst): ``(1:Nucleus=span:3,4:Satellite=Elaboration:4)
(1:Satellite=Attribution:1,2:Nucleus=span:3) ...`` -- each descriptor is a binary node
over EDUs ``a..b`` split after ``k``, with the nuclearity and rel2par relation of both
children; descriptors in pre-order; ``NONE`` is a one-EDU document. A line may be wrapped
as a one-element Python list (``['...']``). No text. The DMRST code maintained in isanlp_rst
(3.2.2) appends ``;entropy=0.12345`` (and may append ``;prob=0.9``) to a label
(``(1:Nucleus=span;entropy=0.00000:3,...)``); such scores are dropped.

DMRST writes no files; rstkit reads ``<doc>.dmrst`` files. A file with several lines
holds several documents, named in line order by ``doc_map`` (as for ``braud_eacl``); a
one-line file is named after the file.
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import BinarizationError, FormatError, TreeStructureError, printable
from ..tree import EDU, ROOT, Node, RSTTree, nuclearity_from_word, nuclearity_word
from . import Format, doc_id_from_path, read_text, register, split_lines
from .build import Spelling, finish
from .docmap import DocMapSpec, ids_in_line_order, load_doc_map, warn_unnamed
from .writable import writer

KEY = "dmrst"
EXTENSION = ".dmrst"
SPELLING = Spelling(KEY, "title", exceptions={"textual-organization": "TextualOrganization"})
_LABEL = r"([^:,;()\s]+)(?:;(?:entropy|prob)=[^:,;()\s]*)*"  # a relation, scores dropped
_DESCRIPTOR = re.compile(r"\s*\((\d{1,9}):(Nucleus|Satellite)=" + _LABEL + r":(\d{1,9}),(\d{1,9}):(Nucleus|Satellite)="
                         + _LABEL + r":(\d{1,9})\)\s*")
_WRAPPED = re.compile(r"""^\[\s*(['"])(.*)\1\s*,?\s*\]$""")


def loads_dmrst_line(text: str, source: str = "<string>", *, line: int = 1, doc_id: str = "") -> RSTTree:
    """Parse one tree string."""
    text = text.strip()
    wrapped = _WRAPPED.match(text)
    if wrapped:
        text = wrapped.group(2).strip()
    if text == "NONE":
        return finish(Node(1, 1, ROOT, None, (), line), [EDU(1, "")], doc_id, source)
    descriptors, position = [], 0
    while position < len(text):
        match = _DESCRIPTOR.match(text, position)
        if not match:
            raise FormatError(f"malformed {KEY} file: expected a descriptor like "
                              f"'(1:Nucleus=span:3,4:Satellite=Elaboration:4)' at column {position + 1}, found "
                              f"'{printable(text[position:position + 30])}'", source, line)
        descriptors.append(match)
        position = match.end()
    if not descriptors:
        raise FormatError(f"malformed {KEY} file: empty line (a one-EDU document is 'NONE')", source, line)
    queue = iter(descriptors)

    def build(n: int) -> Node:
        """The tree over EDUs 1..n from the pre-order descriptors (iterative: any depth)."""
        # frame: start, end, nuclearity, relation, the two children's (start, end, nuc, rel), children built
        stack: list[list[Any]] = [[1, n, ROOT, None, None, []]]
        while True:
            frame = stack[-1]
            start, end, nuclearity, relation, halves, children = frame
            if start == end or len(children) == 2:
                stack.pop()
                node = Node(start, end, nuclearity, relation, tuple(children), line)
                if not stack:
                    return node
                stack[-1][5].append(node)
                continue
            if halves is None:
                d = next(queue, None)
                if d is None:
                    raise TreeStructureError(f"{KEY}: no descriptor for EDUs {start}-{end} (pre-order expected)",
                                             source, line)
                a, split, right_start, b = int(d.group(1)), int(d.group(4)), int(d.group(5)), int(d.group(8))
                if (a, b) != (start, end) or not a <= split < b or right_start != split + 1:
                    raise TreeStructureError(f"{KEY}: descriptor {printable(d.group().strip())} found where a node "
                                             f"over EDUs {start}-{end} is expected (pre-order)", source, line)
                halves = frame[4] = ((a, split, nuclearity_from_word(d.group(2)), d.group(3)),
                                     (right_start, b, nuclearity_from_word(d.group(6)), d.group(7)))
            stack.append([*halves[len(children)], None, []])

    first = descriptors[0]
    if int(first.group(1)) != 1:
        raise TreeStructureError(f"{KEY}: the first descriptor must start at EDU 1", source, line)
    n = int(first.group(8))
    root = build(n)
    extra = next(queue, None)
    if extra is not None:
        raise TreeStructureError(f"{KEY}: descriptor {printable(extra.group().strip())} is not part of the tree",
                                 source, line)
    return finish(root, [EDU(i, "") for i in range(1, n + 1)], doc_id, source)


def read_dmrst(path: str | Path, *, lenient: bool = False,
               encoding: str | None = None, doc_map: DocMapSpec | None = None) -> list[RSTTree]:
    source = str(path)
    content = read_text(path, encoding=encoding, lenient=lenient)
    lines = [(n, text) for n, text in enumerate(split_lines(content), 1) if text.strip()]
    if not lines:
        raise FormatError(f"malformed {KEY} file: empty file", source, 1)
    name = Path(path).name
    trees = [loads_dmrst_line(text, source, line=n, doc_id=f"{name}#{n}") for n, text in lines]
    if doc_map is not None:
        ids = ids_in_line_order(load_doc_map(doc_map), [n for n, _ in lines], KEY, source, lenient)
    elif len(lines) == 1:
        ids = [doc_id_from_path(path, (EXTENSION,))]
    else:
        warn_unnamed(KEY + " (several lines)", "<file name>#<line>")
        return trees
    return [replace(tree, doc_id=doc_id) for tree, doc_id in zip(trees, ids)]


@writer(KEY, None)
def dumps_dmrst(tree: RSTTree) -> str:
    """One line: the pre-order descriptors (``NONE`` for a one-EDU document)."""
    parts = []
    for node in tree.root.nodes():
        if node.is_leaf:
            continue
        if node.arity != 2:
            raise BinarizationError(f"{KEY} holds binary trees only: node {node.start}-{node.end} has "
                                     f"{node.arity} children (binarize first)", tree.source, node.line)
        left, right = node.children
        parts.append(f"({left.start}:{nuclearity_word(left.nuclearity)}={SPELLING(left.relation)}:{left.end},"
                     f"{right.start}:{nuclearity_word(right.nuclearity)}={SPELLING(right.relation)}:{right.end})")
    return (" ".join(parts) or "NONE") + "\n"


def _sniff(text: str) -> bool:
    first = text.lstrip()[:300]
    wrapped = re.match(r"""\[\s*['"]""", first)
    first = first[wrapped.end():] if wrapped else first
    return bool(_DESCRIPTOR.match(first) or re.match(r"""NONE(['"]\s*,?\s*\])?\s*(\n|$)""", first))


register(Format(KEY, "DMRST span-descriptor strings, one tree per line (.dmrst)", read_dmrst, dumps_dmrst,
                (EXTENSION,), _sniff, multi_document=True, options=("doc_map",)))
