"""``braud_eacl``: run files of Braud, Coavoux & Søgaard's parser (BCS17 mono and cross+dev, EACL 2017).

One file per run (``test_it8_beam16``), one tree per line, no document ids
(docs/formats.md#braud_eacl): ``(ROOT (NSElaboration (SNAttribution (EDU Analysts_said) ...)))``.
The first two characters of a label are the nuclearity pair, the rest the relation,
spelled without hyphens (``Sameunit``, ``MannerMeans``); each EDU is an ``EDU``
pre-terminal over one token (its words joined by ``_``, brackets as ``-LRB-``/``-RRB-``).

Lines are documents in the alphabetical order of their ids: ``doc_map`` gives the ids in
line order (a list file; a two-column map keyed by line number; or ``rstdt-test``, the
sorted RST-DT test set). The counts must match: documents of the map without a line are
reported by id. Without a map, ids are ``<file name>#<line>`` (with a warning).
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..data import rstdt_test_ids
from ..errors import FormatError, printable
from ..tree import Node, RSTTree
from . import Format, read_text, register, split_lines
from .brackets import Bracket, fold, parse_one
from .build import PAIRS, LeafCounter, attach, finish, ptb_unescape
from .docmap import DocMap, DocMapSpec, ids_in_line_order, load_doc_map, warn_unnamed

KEY = "braud_eacl"
BUILTIN_MAPS = {"rstdt-test": lambda: DocMap(tuple(sorted(rstdt_test_ids())), None, "rstdt-test (built-in)")}


def loads_braud_eacl_line(text: str, source: str = "<string>", *, line: int = 1, doc_id: str = "",
                          lenient: bool = False) -> RSTTree:
    """Parse one line (one document) of a run file."""
    top = parse_one(text, KEY, source, first_line=line)
    if top.head != "ROOT" or len(top.items) != 2 or not isinstance(top.items[1], Bracket):
        raise FormatError(f"malformed {KEY} file: a line must be '(ROOT tree)'", source, line)
    counter = LeafCounter(KEY, source, lenient)

    def build(group: Bracket, values: list[Any]) -> Node:
        label = group.head or ""
        if label == "EDU":
            if group.groups:
                raise FormatError(f"malformed {KEY} file: an EDU holds a subtree", source, line)
            words = " ".join(a.text for a in group.atoms[1:]).replace("_", " ")
            return counter.add(None, " ".join(ptb_unescape(words).split()), line)
        pair, relation = label[:2], label[2:]
        body = values[1:]
        if pair not in PAIRS or not relation:
            raise FormatError(f"malformed {KEY} file: expected a label like 'NSElaboration' or '(EDU ...)', "
                              f"found '{printable(label, 30)}'", source, line)
        if len(body) != 2 or not all(isinstance(v, Node) for v in body):
            raise FormatError(f"malformed {KEY} file: node {printable(label, 30)} must have two subtrees",
                              source, line)
        return attach(pair, relation, body[0], body[1], source, line)

    root = fold(top.items[1], build)
    return finish(root, counter.edus, doc_id, source)


def read_braud_eacl(path: str | Path, *, lenient: bool = False,
                    encoding: str | None = None, doc_map: DocMapSpec | None = None) -> list[RSTTree]:
    """All documents of a run file, named from ``doc_map``."""
    source, name = str(path), Path(path).name
    lines = split_lines(read_text(path, encoding=encoding, lenient=lenient))
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise FormatError(f"malformed {KEY} file: no tree (one tree per line expected)", source, 1)
    blank = next((n for n, text in enumerate(lines, 1) if not text.strip()), None)
    if blank is not None:
        raise FormatError(f"malformed {KEY} file: blank line (one tree per line; a blank line would shift "
                          "the documents)", source, blank)
    trees = [loads_braud_eacl_line(text, source, line=n, doc_id=f"{name}#{n}", lenient=lenient)
             for n, text in enumerate(lines, 1)]
    if doc_map is None:
        warn_unnamed(KEY, "<file name>#<line>")
        return trees
    ids = ids_in_line_order(load_doc_map(doc_map, BUILTIN_MAPS), range(1, len(lines) + 1), KEY, source, lenient)
    return [replace(tree, doc_id=doc_id) for tree, doc_id in zip(trees, ids)]


def _sniff(text: str) -> bool:
    return bool(re.match(r"\s*\(ROOT \((EDU |(NN|NS|SN)[A-Za-z])", text))


register(Format(KEY, "BCS17 run files (one (ROOT ...) tree per line; ids from a document map)",
                read_braud_eacl, None, (), _sniff, multi_document=True, options=("doc_map",)))
