"""``braud_coling``: trees of Braud, Plank & Søgaard's parser (BPS16, COLING 2016), ``<k>.mrg.pred``.

One bracketed binary tree per file (docs/formats.md#braud_coling):
``(NS-Elaboration (SN-Attribution (1) (NN-Contrast (2) (3))) (4))`` -- the nuclearity pair
and the relation on the parent, split at the first hyphen; leaves ``(7)`` or, in Braud's
preprocessing variant, ``( EDU 7 )``, numbered from 1. No text.

The file name holds only the document's index ``k`` in the authors' test order, so ids
come from a document map (``doc_map``: a two-column TSV ``k.mrg.pred<TAB>doc id``, a list
of ids indexed by ``k``, or ``rstdt-test``, the RST-DT table the replication used). Without
one, the id is ``k`` (with a warning).
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import FormatError, printable
from ..tree import Node, RSTTree, one_line_brackets
from . import Format, read_text, register, source_name
from .brackets import Bracket, fold, parse_one
from .build import PAIRS, LeafCounter, Spelling, attach, finish, parent_label
from .docmap import DocMap, DocMapSpec, load_doc_map, warn_unnamed
from .writable import writer

KEY = "braud_coling"
EXTENSION = ".mrg.pred"
SPELLING = Spelling(KEY, "title", exceptions={"same-unit": "Same-unit",
                                              "textual-organization": "Textual-organization"})
#: RST-DT test documents by file index k (the replication's table, docs/formats.md#braud_coling)
RSTDT_TEST_ORDER = (
    "wsj_2385", "wsj_0623", "wsj_0632", "wsj_1365", "wsj_1129", "wsj_1146", "wsj_0616", "wsj_0654",
    "wsj_1387", "wsj_0655", "wsj_2354", "wsj_1306", "wsj_0644", "wsj_1189", "wsj_0684", "wsj_2373",
    "wsj_1325", "wsj_1331", "wsj_1183", "wsj_0607", "wsj_0602", "wsj_2386", "wsj_1376", "wsj_0689",
    "wsj_1113", "wsj_2375", "wsj_1197", "wsj_0627", "wsj_1169", "wsj_1346", "wsj_2336", "wsj_1380",
    "wsj_1354", "wsj_1142", "wsj_1148", "wsj_1126", "wsj_1307", "wsj_0667",
)
BUILTIN_MAPS = {"rstdt-test": lambda: DocMap(RSTDT_TEST_ORDER, None, "rstdt-test (built-in)")}
_INT = re.compile(r"^\d{1,9}$")


def loads_braud_coling(text: str, path: str | Path | None = None, *, doc_id: str = "",
                       lenient: bool = False) -> RSTTree:
    """Parse the text of one ``.mrg.pred`` file (the caller names the document)."""
    source = source_name(path)
    counter = LeafCounter(KEY, source, lenient)

    def build(group: Bracket, values: list[Any]) -> Node:
        atoms = [a.text for a in group.atoms]
        if len(group.items) == len(atoms) and (atoms[-1:] and _INT.match(atoms[-1])) and \
                atoms[:-1] in ([], ["EDU"]):
            return counter.add(int(atoms[-1]), "", group.line)
        head = group.head or ""
        pair, _, relation = head.partition("-")
        body = values[1:]
        if pair not in PAIRS or not relation:
            raise FormatError(f"malformed {KEY} file: expected a label like 'NS-Elaboration' or a leaf "
                              f"'(3)', found '{printable(head, 30)}'", source, group.line)
        if len(body) != 2 or not all(isinstance(v, Node) for v in body):
            raise FormatError(f"malformed {KEY} file: node {printable(head, 30)} must have two subtrees",
                              source, group.line)
        return attach(pair, relation, body[0], body[1], source, group.line)

    root = fold(parse_one(text, KEY, source), build)
    return finish(root, counter.edus, doc_id, source)


def read_braud_coling(path: str | Path, *, lenient: bool = False,
                      encoding: str | None = None, doc_map: DocMapSpec | None = None) -> list[RSTTree]:
    name = Path(path).name
    index = name[:-len(EXTENSION)] if name.lower().endswith(EXTENSION) else Path(path).stem
    tree = loads_braud_coling(read_text(path, encoding=encoding, lenient=lenient), path, doc_id=index, lenient=lenient)
    if doc_map is None:
        warn_unnamed(KEY, "the file indices k of k.mrg.pred")
        return [tree]
    position = int(index) if index.isdecimal() and len(index) < 10 else None
    return [replace(tree, doc_id=load_doc_map(doc_map, BUILTIN_MAPS).resolve((name, index), position, name))]


@writer(KEY, None)
def dumps_braud_coling(tree: RSTTree) -> str:
    """One line, ``(NS-Rel (1) (2))`` (file name: ``<k>.mrg.pred``)."""
    def label(node: Node) -> str:
        pair, relation = parent_label(node, KEY, tree.source)
        return f"{pair}-{SPELLING(relation)}"

    return one_line_brackets(tree.root, label, lambda node: f"({node.start})") + "\n"


def _sniff(text: str) -> bool:
    return bool(re.match(r"\s*\(\s*(NN|NS|SN)-[^\s()]+\s*\(", text))


register(Format(KEY, "BPS16 <k>.mrg.pred trees (NS-Rel labels, numbered leaves; ids from a document map)",
                read_braud_coling, dumps_braud_coling, (EXTENSION,), _sniff, options=("doc_map",)))
