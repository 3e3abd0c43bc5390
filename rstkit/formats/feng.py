"""``feng``: trees of Feng & Hirst's gCRF parser (FH14), ``<input>.tree``.

nltk ``pformat`` of a binary tree (parser-formats.md A5): internal labels ``Rel[N][S]``
(relation on the parent, nuclearity of the two children), leaves ``_!EDU text!_`` with
``<s>``/``<p>`` before the closing ``!_`` at the end of a sentence/paragraph. Text is raw
(parentheses included), so ``_!...!_`` atoms are cut out before brackets are matched --
unlike the replication's line-based escaping, which breaks when a line holds two EDUs.
The document id is the file name minus ``.tree`` (and ``.out``).
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path

from ..errors import FormatError
from ..tree import EDU, Node, RSTTree
from . import Format, read_text, register
from .brackets import Atom, Bracket, parse_one
from .build import LeafCounter, Spelling, attach, doc_id_from_name, finish, parent_label, ptb_unescape

KEY = "feng"
#: Feng & Hirst's class names: capitalised, but ``same-unit`` and ``textual-organization``
SPELLING = Spelling(KEY, "title", exceptions={"same-unit": "same-unit",
                                              "textual-organization": "textual-organization"})
_EDU = r"_!.*?!_"
_EDU_BODY = re.compile(r"^_!(.*)!_$", re.DOTALL)
_MARKER = re.compile(r"\s*<([sp])>\s*$")
_LABEL = re.compile(r"^(.+)\[([NS])\]\[([NS])\]$")
_MARGIN = 70


class _EDUReader:
    """EDU leaves in order, with sentence/paragraph indices from ``<s>``/``<p>`` markers."""

    def __init__(self, source: str, lenient: bool):
        self.counter = LeafCounter(KEY, source, lenient)
        self.source = source
        self.sentence = self.paragraph = 1
        self.saw_marker = False

    def add(self, atom: Atom) -> Node:
        body = _EDU_BODY.match(atom.text)
        if not body:
            raise FormatError(f"malformed {KEY} file: expected a subtree or an EDU '_!...!_', found "
                              f"{atom.text[:30]!r}", self.source, atom.line)
        text, marker = body.group(1), None
        found = _MARKER.search(text)
        if found:
            text, marker = text[:found.start()], found.group(1)
            self.saw_marker = True
        node = self.counter.add(None, ptb_unescape(text).strip(), atom.line, self.sentence, self.paragraph)
        if marker:
            self.sentence += 1
            self.paragraph += marker == "p"
        return node

    def edus(self) -> list[EDU]:
        if self.saw_marker:
            return self.counter.edus
        return [replace(e, sentence=None, paragraph=None) for e in self.counter.edus]


def loads_feng(text: str, path: str | Path | None = None, doc_id: str | None = None,
               lenient: bool = False) -> RSTTree:
    """Parse the text of one gCRF ``.tree`` file."""
    source = str(path) if path is not None else "<string>"
    if doc_id is None:
        doc_id = doc_id_from_name(str(path), (".tree",)) if path is not None else ""
    leaves = _EDUReader(source, lenient)
    if _EDU_BODY.match(text.strip()):  # a one-EDU document: a bare leaf
        root = leaves.add(Atom(text.strip(), 1))
        return finish(root, leaves.edus(), doc_id, source)

    def build(group: Bracket) -> Node:
        label = _LABEL.match(group.head or "")
        if not label:
            raise FormatError(f"malformed {KEY} file: expected a label like 'Elaboration[N][S]', found "
                              f"{group.head!r}", source, group.line)
        body = group.items[1:]
        if len(body) != 2:
            raise FormatError(f"malformed {KEY} file: node {group.head} has {len(body)} children, "
                              "expected 2", source, group.line)
        left, right = (build(i) if isinstance(i, Bracket) else leaves.add(i) for i in body)
        return attach(label.group(2) + label.group(3), label.group(1), left, right, group.line)

    root = build(parse_one(text, KEY, source, protect=_EDU))
    return finish(root, leaves.edus(), doc_id, source)


def read_feng(path: str | Path, lenient: bool = False) -> list[RSTTree]:
    return [loads_feng(read_text(path), path, lenient=lenient)]


def dumps_feng(tree: RSTTree) -> str:
    """Write a binary tree as gCRF does (nltk pformat layout, margin 70)."""
    edus = tree.edus

    def leaf(index: int) -> str:
        edu = edus[index - 1]
        if "!_" in edu.text:
            raise FormatError(f"EDU {index} contains '!_', which {KEY} cannot delimit", tree.source)
        marker = ""
        last = index == len(edus)
        if edu.paragraph is not None and (last or edus[index].paragraph != edu.paragraph):
            marker = " <p>"
        elif edu.sentence is not None and (last or edus[index].sentence != edu.sentence):
            marker = " <s>"
        return f"_!{edu.text}{marker}!_"

    @cache
    def flat(node: Node) -> str:
        if node.is_leaf:
            return leaf(node.start)
        return f"({label(node)} {' '.join(flat(c) for c in node.children)})"

    @cache
    def label(node: Node) -> str:
        pair, relation = parent_label(node, KEY, tree.source)
        return f"{SPELLING(relation)}[{pair[0]}][{pair[1]}]"

    def pformat(node: Node, indent: int) -> str:
        one_line = flat(node)
        if node.is_leaf or len(one_line) + indent < _MARGIN:
            return one_line
        pad = "\n" + " " * (indent + 2)
        return f"({label(node)}" + "".join(pad + pformat(c, indent + 2) for c in node.children) + ")"

    return pformat(tree.root, 0) + "\n"


def _sniff(text: str) -> bool:
    return bool(re.match(r"\s*\(\S+\[[NS]\]\[[NS]\]\s", text)) or bool(re.match(r"\s*_!.*!_\s*$", text, re.DOTALL))


register(Format(KEY, "Feng & Hirst gCRF .tree files (nltk trees, Rel[N][S] labels, _!EDU!_ leaves)",
                read_feng, dumps_feng, (".tree",), _sniff))
