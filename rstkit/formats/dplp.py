"""``dplp``: span lists of Ji & Eisenstein's DPLP (JE14), ``<input>.brackets``.

One constituent per line as a Python tuple, ``((2, 3), 'Nucleus', 'span')``: the EDU span
(1-based, inclusive), the node's own nuclearity and rel2par relation; every node but the
root, in post-order (docs/formats.md#dplp). The lines are matched with a regular
expression, never evaluated. The tree is rebuilt top-down: the root spans 1..n (n the
largest end), and the children of a span are the largest listed spans that tile it from
the left. Listed spans that do not fit that tree, duplicates and unlisted EDUs are errors.
An empty file is a one-EDU document. Labels: JE14's released outputs write ``sameunit``,
``topiccomment`` ...; DPLP's GitHub code writes ``same_unit`` and cuts other labels at the
first hyphen (``topic``, ambiguous, is kept as written).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import FormatError, TreeStructureError, printable
from ..tree import EDU, ROOT, Node, RSTTree, nuclearity_from_word, nuclearity_word
from . import Format, input_names, read_text, register, split_lines
from .build import Spelling, finish
from .writable import writer

KEY = "dplp"
SPELLING = Spelling(KEY, "lower", drop_hyphens=True)
_LINE = re.compile(r"""^\(\(\s*(\d{1,9})\s*,\s*(\d{1,9})\s*\)\s*,"""
                   r"""\s*(['"])(Nucleus|Satellite)\3\s*,\s*(['"])([^'"]+)\5\s*\)$""")


def loads_dplp(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
               lenient: bool = False) -> RSTTree:
    """Parse the text of one ``.brackets`` file."""
    source, doc_id = input_names(path, doc_id, (".brackets",))
    spans: dict[tuple[int, int], tuple[str, str, int]] = {}
    for number, line in enumerate(split_lines(text), 1):
        if not line.strip():
            continue
        match = _LINE.match(line.strip())
        if not match:
            raise FormatError(f"malformed {KEY} file: expected a line like ((2, 3), 'Nucleus', 'span'), "
                              f"found '{printable(line.strip(), 40)}'", source, number)
        start, end = int(match.group(1)), int(match.group(2))
        if not 1 <= start <= end:
            raise TreeStructureError(f"{KEY}: bad span ({start}, {end})", source, number)
        if (start, end) in spans:
            raise TreeStructureError(f"{KEY}: span ({start}, {end}) listed twice (also line "
                                     f"{spans[start, end][2]})", source, number)
        spans[start, end] = (nuclearity_from_word(match.group(4)), match.group(6), number)
    n = max((end for _, end in spans), default=1)
    if (1, n) in spans and n > 1:
        raise TreeStructureError(f"{KEY}: the root span (1, {n}) is listed (the root is implicit)",
                                 source, spans[1, n][2])
    root = _Rebuilder(spans, source).build(n)
    edus = [EDU(i, "") for i in range(1, n + 1)]
    return finish(root, edus, doc_id, source)


class _Rebuilder:
    """The tree whose constituents are the listed spans, built top-down without recursion."""

    def __init__(self, spans: dict[tuple[int, int], tuple[str, str, int]], source: str):
        self.spans = spans
        self.source = source
        self.ends: dict[int, list[int]] = {}
        for start, end in sorted(spans, key=lambda s: -s[1]):
            self.ends.setdefault(start, []).append(end)  # largest end first

    def build(self, n: int) -> Node:
        used: set[tuple[int, int]] = set()
        # frame: start, end, nuclearity, relation, line, next EDU to cover, children so far
        stack: list[list[Any]] = [[1, n, ROOT, None, None, 1, []]]
        while True:
            frame = stack[-1]
            start, end, nuclearity, relation, line, position, children = frame
            if start == end or position > end:
                stack.pop()
                node = Node(start, end, nuclearity, relation, tuple(children), line)
                if not stack:
                    break
                stack[-1][6].append(node)
                continue
            child_end = next((e for e in self.ends.get(position, ()) if e <= end and (position, e) != (start, end)),
                             None)
            if child_end is None:
                raise TreeStructureError(f"{KEY}: no listed span starts at EDU {position} inside "
                                         f"({start}, {end})", self.source, line)
            child_nuclearity, child_relation, child_line = self.spans[position, child_end]
            used.add((position, child_end))
            frame[5] = child_end + 1
            stack.append([position, child_end, child_nuclearity, child_relation, child_line, position, []])
        unused = sorted(set(self.spans) - used, key=lambda s: self.spans[s][2])
        if unused:
            s = unused[0]
            raise TreeStructureError(f"{KEY}: span ({s[0]}, {s[1]}) crosses the tree built from the other spans",
                                     self.source, self.spans[s][2])
        return node


def read_dplp(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    return [loads_dplp(read_text(path, encoding=encoding, lenient=lenient), path, lenient=lenient)]


@writer(KEY, None)
def dumps_dplp(tree: RSTTree) -> str:
    """Post-order span lines, JE14 label spelling; empty for a one-EDU document."""
    return "".join(f"(({n.start}, {n.end}), '{nuclearity_word(n.nuclearity)}', '{SPELLING(n.relation)}')\n"
                   for n in tree.root.postorder() if n is not tree.root)


def _sniff(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0].strip()
    return bool(_LINE.match(first))


register(Format(KEY, "DPLP .brackets span lists (one ((i, j), nuclearity, relation) per line)",
                read_dplp, dumps_dplp, (".brackets",), _sniff))
