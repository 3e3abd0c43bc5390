"""The event path of the .dis reader (:func:`rstkit.formats.dis.loads_dis`): node events from the grammar
(:mod:`._dis_grammar`), turned into the tree by one builder, which checks extents and repairs them
when lenient. Private: the format's one reader is ``loads_dis``."""
from __future__ import annotations

import re
import warnings

from ..errors import RSTKitWarning, TreeStructureError
from ..tree import EDU, ROOT, Node, nuclearity_from_word

#: one node of a file: (nuclearity word, line, extent, relation, EDU text body, has child nodes);
#: extent is the leaf number of ``(leaf i)`` or the pair of ``(span a b)``; None closes a span node
Event = tuple[str, int, int | tuple[int, int], str | None, str | None, bool] | None


# -- building the tree from events -----------------------------------------------------------
PARAGRAPH_END = re.compile(r"\s*<P>\s*$")
_NUCLEARITY = {word: nuclearity_from_word(word) for word in ("Nucleus", "Satellite", "Root")}


class Builder:
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
            body, n_sub = PARAGRAPH_END.subn("", body)
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
