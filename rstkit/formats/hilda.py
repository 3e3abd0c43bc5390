"""``hilda``: trees of Hayashi, Hirao & Nagata's HILDA re-implementation (HHN16).

Files are named like RST-DT's (``wsj_0602.out.dis``) but are not in dis syntax: one
nltk-style bracketed tree, ``(Root (Nucleus:span (Satellite:Attribution leaf1_1_1) ...))``,
nuclearity and rel2par relation on every node, EDUs as ``leaf<edu>_<sentence>_<paragraph>``
tokens without text (docs/formats.md#hilda; only the replication's loader
documents it). Sentence/paragraph index 0 means unknown (what the writer uses when the
tree does not carry them).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import FormatError, printable
from ..tree import NUCLEUS, ROOT, SATELLITE, Node, RSTTree, nuclearity_from_word, nuclearity_word
from . import Format, doc_id_from_path, read_text, register, source_name
from .brackets import Atom, Bracket, dumps_indented, fold, parse_one
from .build import LeafCounter, Spelling, finish, relabel
from .writable import writer

KEY = "hilda"
_LEAF = re.compile(r"^leaf(\d{1,9})_(\d{1,9})_(\d{1,9})$", re.IGNORECASE)
SPELLING = Spelling(KEY, "title")


def loads_hilda(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
                lenient: bool = False) -> RSTTree:
    """Parse the text of one HHN16 HILDA file."""
    source = source_name(path)
    top = parse_one(text, KEY, source)
    if (top.head or "").lower() != "root":
        raise FormatError(f"malformed {KEY} file: the tree must start with '(Root'", source, top.line)
    counter = LeafCounter(KEY, source, lenient)

    def build(group: Bracket, values: list[Any]) -> Node:
        head, body = group.head or "", values[1:]
        label: tuple[str, str] | None = None  # (nuclearity, relation) of a node below the top
        if group is not top:
            word, sep, relation = head.partition(":")
            try:
                nuclearity = nuclearity_from_word(word)
            except ValueError:
                nuclearity = None
            if not sep or not relation or nuclearity is None or nuclearity not in (NUCLEUS, SATELLITE):
                raise FormatError(f"malformed {KEY} file: expected a 'Nucleus:relation' or 'Satellite:relation' "
                                  f"label, found '{printable(head, 30)}'", source, group.line)
            label = (nuclearity, relation)
        if len(body) == 1 and isinstance(body[0], Atom):
            node = leaf(body[0])
        else:
            stray = next((v for v in body if isinstance(v, Atom)), None)
            if stray is not None or len(body) < 2:
                what = (f"unexpected '{printable(stray.text, 30)}'" if stray
                        else "a node needs a leaf token or two subtrees")
                raise FormatError(f"malformed {KEY} file: {what}", source, stray.line if stray else group.line)
            node = Node(body[0].start, body[-1].end, ROOT, None, tuple(body), group.line)
        return node if label is None else relabel(node, *label)

    def leaf(atom: Atom) -> Node:
        match = _LEAF.match(atom.text)
        if not match:
            raise FormatError(f"malformed {KEY} file: expected a leaf token like 'leaf3_1_1', found "
                              f"'{printable(atom.text, 30)}'", source, atom.line)
        edu, sentence, paragraph = (int(g) for g in match.groups())
        return counter.add(edu, "", atom.line, sentence or None, paragraph or None)

    root = fold(top, build)
    if doc_id is None:
        doc_id = doc_id_from_path(path, (".dis",)) if path is not None else ""
    return finish(root, counter.edus, doc_id, source)


def read_hilda(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    return [loads_hilda(read_text(path, encoding=encoding, lenient=lenient), path, lenient=lenient)]


@writer(KEY, None)
def dumps_hilda(tree: RSTTree) -> str:
    """Write a tree in HHN16 layout (one node per line, closing brackets at line ends)."""

    def label(node: Node) -> str:
        return "Root" if node is tree.root else f"{nuclearity_word(node.nuclearity)}:{SPELLING(node.relation)}"

    def leaf(node: Node) -> str:
        edu = tree.edus[node.start - 1]
        return f"({label(node)} leaf{node.start}_{edu.sentence or 0}_{edu.paragraph or 0})"

    return dumps_indented(tree.root, label, leaf)


def _sniff(text: str) -> bool:
    return bool(re.match(r"\s*\(\s*Root\s+(\(\s*(Nucleus|Satellite):|leaf\d)", text, re.IGNORECASE))


register(Format(KEY, "HHN16 HILDA bracketed trees (Nucleus:Rel labels, leafN_S_P tokens; named *.dis)",
                read_hilda, dumps_hilda, (".dis",), _sniff, by_name=False))
