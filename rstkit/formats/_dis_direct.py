"""The direct path of the .dis reader (:func:`rstkit.formats.dis.loads_dis`): a well-formed, regularly
laid out file straight into the tree in one regular-expression pass, or None. Private: the format's
one reader is ``loads_dis``.

Beside it, the forest path (:func:`direct_forest`): the same files, many at once, into the arrays of a
:class:`~rstkit.dependency.Forest` without a tree, for scoring that needs no more (dependencies, through
:class:`rstkit.metrics.prepared.Preparer`). ``rstkit eval --metric dependency`` on 2,000 RST-DT-like
document pairs reads them in about two thirds of the time the trees take (benchmarks/README.md);
tests/formats/test_dis_forest.py checks that it reads exactly the files the direct path reads, as it
reads them."""
from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from itertools import accumulate, chain, compress, pairwise, repeat
from operator import add

import numpy as np

from ..dependency import Forest, label_codes, last_descendants
from ..tree import EDU, NUCLEUS, ROOT, SATELLITE, Node
from ._dis_bulk import NO_TEXTS, NodeColumns, bulk_nodes
from ._dis_events import PARAGRAPH_END
from ._fastnodes import new_edu, new_node

#: a node's relation (possessive: as fast, never backtracks)
REL2PAR = r"\(\s*+rel2par\s++([^\s()]+)\s*+\)"

# -- the direct path: a well-formed, regularly laid out file straight into the tree ----------
# One match per node: a leaf group or an inner node's header, each with the closing brackets of
# inner nodes that follow it. The text atom ends where the grammar's TEXT token ends. Anything else, and any
# inconsistency (an extent or leaf number that differs from the leaves, a unary node, a node
# without a nucleus, a missing relation, Root out of place), declines the file: the event path
# then reads it and gives the error, the warning or the lenient repair.
#: an EDU text body: up to the first ``_!`` followed by ``)``, as the grammar's TEXT token (unrolled and
#: possessive, like every quantifier of _DIRECT: nothing it matches is followed by what it could give back)
_BODY = r"[^_]*+(?:_(?!!\s*+\))[^_]*+)*+"
_DIRECT = re.compile(rf"""
    (                                               # 1 the whole match (for line counting)
      (\s*+\(\s*+)                                   # 2 up to the nuclearity word
      (Nucleus|Satellite|Root)\s*+\(\s*+             # 3 nuclearity word
      (?:
        leaf\s++(\d++)\s*+\)\s*+                     # 4 leaf number
        (?:{REL2PAR}\s*+)?                          # 5 relation
        \(\s*+text\s++_!({_BODY})_!\s*+\)\s*+\)      # 6 EDU text; the leaf's closing bracket
      | span\s++(\d++)\s++(\d++)\s*+\)               # 7, 8 extent of an inner node
        (?:\s*+{REL2PAR})?                          # 9 relation
      )
      ((?:\s*+\))*)                                  # 10 closing brackets of inner nodes after it
    )
    | (\S)                                          # 11 anything else: leave it to the event path
    """, re.DOTALL | re.VERBOSE)
_DIRECT_NUCLEARITY = {"Nucleus": NUCLEUS, "Satellite": SATELLITE, "Root": ROOT}


def direct(text: str) -> tuple[Node, tuple[EDU, ...]] | None:
    """(root, EDUs) of a well-formed, regularly laid out file, or None when the event path must
    read it. The checks of :func:`~rstkit.tree.validate` hold by construction (leaves numbered in
    order, spans from the children) or are made here (arity, a nucleus, Root on top only)."""
    if "//TT_ERR" in text:
        return None
    intern = sys.intern
    # open inner nodes: nuclearity, relation, line, declared first and last leaf; and their children
    headers: list[tuple[str, str | None, int, int, int]] = []
    open_children: list[list[Node]] = []
    children: list[Node] = []  # of the innermost open node
    texts: list[str] = []
    paragraph_ends: set[int] = set()  # EDUs (from 0) marked <P>
    root: Node | None = None
    line = 1
    for whole, lead, word, leaf_no, leaf_rel, body, first, last, rel, closes, junk in _DIRECT.findall(text):
        if junk or root is not None:
            return None
        nuclearity = _DIRECT_NUCLEARITY[word]
        if (nuclearity is ROOT) == bool(headers):
            return None
        node_line = line + lead.count("\n")
        line += whole.count("\n")
        relation = leaf_rel or rel
        if relation:
            relation = intern(relation)
        elif nuclearity is ROOT:
            relation = None
        else:
            return None
        if leaf_no:
            index = len(texts) + 1
            if int(leaf_no) != index:
                return None
            if "<P>" in body:
                body, n_sub = PARAGRAPH_END.subn("", body)
                if n_sub:
                    paragraph_ends.add(index - 1)
            texts.append(intern(body.strip()))
            node = new_node(index, index, nuclearity, relation, (), node_line)
            if not headers:  # a one-EDU document
                if closes:
                    return None
                root = node
                continue
            children.append(node)
        else:
            headers.append((nuclearity, relation, node_line, int(first), int(last)))
            open_children.append(children)
            children = []
        if closes:
            for _ in range(closes.count(")")):
                if not headers:
                    return None
                nuclearity, relation, node_line, start, end = headers.pop()
                if len(children) < 2 or start != children[0].start or end != children[-1].end:
                    return None
                for child in children:
                    if child.nuclearity is NUCLEUS:
                        break
                else:
                    return None
                node = new_node(start, end, nuclearity, relation, tuple(children), node_line)
                children = open_children.pop()
                if headers:
                    children.append(node)
                else:
                    root = node
    if root is None or headers:
        return None
    numbers = range(1, len(texts) + 1)
    if not paragraph_ends:
        return root, tuple(map(new_edu, numbers, texts, repeat(None), repeat(None)))
    paragraphs = list(accumulate(map(paragraph_ends.__contains__, range(-1, len(texts) - 1)), initial=1))[1:]
    return root, tuple(map(new_edu, numbers, texts, repeat(None), paragraphs))


# -- many files at once, as arrays: what dependency scoring needs, no tree --------------------------
#: one node per match, as _DIRECT, without what only trees need (lines, the whole match)
_NODE = re.compile(rf"""
      \s*+\(\s*+(Nucleus|Satellite|Root)\s*+\(\s*+     # 1 nuclearity word
      (?:
        leaf\s++(\d++)\s*+\)\s*+(?:{REL2PAR}\s*+)?     # 2 leaf number, 3 relation
        \(\s*+text\s++_!({_BODY})_!\s*+\)\s*+\)       # 4 EDU text; the leaf's closing bracket
      | span\s++(\d++)\s++(\d++)\s*+\)(?:\s*+{REL2PAR})?  # 5, 6 extent, 7 relation
      )
      ((?:\s*+\))*)                                    # 8 closing brackets of inner nodes after it
    | (\S)                                             # 9 anything else: the file is declined
    """, re.DOTALL | re.VERBOSE)
_WORD_NUCLEUS, _WORD_ROOT = len("Nucleus"), len("Root")


def direct_forest(texts: Sequence[str], encoded: Sequence[bytes] | None = None
                  ) -> tuple[Forest, list[tuple[str, np.ndarray]], np.ndarray]:
    """The files that :func:`direct` reads, read at once into a :class:`~rstkit.dependency.Forest` (their
    nodes in pre-order, one file after the other) without making trees: ``(forest, each file's EDU texts
    joined and where each ends (int32), which files were read)``; the forest and the texts hold the files read,
    in order. A file is declined
    (left to the tree path, which gives its error, warning or repair) where ``direct`` declines it, and
    where it has a one-child node. Its nodes are read in bulk (:func:`rstkit.formats._dis_bulk.bulk_nodes`)
    where its layout allows, else by ``_NODE``, one match per node; the checks are made in bulk: the brackets
    balance inside each file, only its top node is Root, every other node has a relation, its leaves are
    numbered in order, and each declared extent runs from the node's first leaf to its last (found by pointer
    jumping down last children). Parents are found inside each file only, so a declined file leaves the
    others as they are. ``encoded``, where given, holds each text's UTF-8 (saves encoding them again)."""
    read_in_bulk, nodes = bulk_nodes(texts, encoded)
    if not read_in_bulk.all():
        rest = np.flatnonzero(~read_in_bulk)
        nodes = _merged(read_in_bulk, nodes, _matched_nodes([texts[i] for i in rest.tolist()]))
    return _forest(nodes)


def _matched_nodes(texts: Sequence[str]) -> NodeColumns:
    """The nodes of ``texts`` by ``_NODE``, one match per node (none of a file with anything else)."""
    matched = [_NODE.findall(text) if "//TT_ERR" not in text else [] for text in texts]
    columns = list(zip(*chain.from_iterable(matched)))
    if columns and any(columns[-1]):  # anything else in a file: it is declined
        matched = [[] if any(junk for *_, junk in nodes) else nodes for nodes in matched]
        columns = list(zip(*chain.from_iterable(matched)))
    counts = np.fromiter(map(len, matched), np.int64, len(texts))
    if not columns:
        nothing = np.zeros(0, np.int64)
        return NodeColumns(counts, nothing, nothing.astype(np.bool_), nothing, nothing, nothing, [], nothing,
                           [NO_TEXTS] * len(texts))
    words, leaf_numbers, leaf_relations, bodies, firsts, lasts, relations, closes, _ = columns
    m = len(words)
    leaf = np.fromiter(map(len, leaf_numbers), np.int64, m) > 0
    spans = m - int(leaf.sum())
    number = np.zeros(m, np.int64)
    last = np.zeros(m, np.int64)
    number[leaf] = np.fromiter(map(int, filter(None, leaf_numbers)), np.int64, m - spans)
    number[~leaf] = np.fromiter(map(int, filter(None, firsts)), np.int64, spans)
    last[~leaf] = np.fromiter(map(int, filter(None, lasts)), np.int64, spans)
    relation, names = label_codes(list(map(add, leaf_relations, relations)))  # one of the two is empty
    edu_texts = list(map(_edu_text, compress(bodies, leaf.tolist())))
    leaves = np.bincount(np.repeat(np.arange(len(texts)), counts)[leaf], minlength=len(texts))
    bounds = np.concatenate(([0], np.cumsum(leaves))).tolist()
    return NodeColumns(counts, np.fromiter(map(len, words), np.int64, m), leaf, number, last, relation, names,
                       np.fromiter(map(str.count, closes, repeat(")")), np.int64, m),
                       [_joined(edu_texts[a:b]) for a, b in pairwise(bounds)])


def _edu_text(body: str) -> str:
    """A leaf's EDU text: its text body stripped, RST-DT's paragraph mark (``<P>``, ``PARAGRAPH_END``, on the
    text stripped) at its end taken off."""
    text = body.strip()
    return text[:-3].rstrip() if text.endswith("<P>") else text


def _joined(texts: list[str]) -> tuple[str, np.ndarray]:
    """Texts joined, and where each ends (int32)."""
    return "".join(texts), np.fromiter(accumulate(map(len, texts)), np.int32, len(texts))


def _merged(first: np.ndarray, nodes: NodeColumns, others: NodeColumns) -> NodeColumns:
    """The nodes of the files ``first`` marks (``nodes``) and of the others (``others``), in file order."""
    counts = np.zeros(len(first), np.int64)
    counts[first], counts[~first] = nodes.counts[first], others.counts
    node_file = np.concatenate((np.repeat(np.flatnonzero(first), nodes.counts[first]),
                                np.repeat(np.flatnonzero(~first), others.counts)))
    order = np.argsort(node_file, kind="stable")
    leaf = np.concatenate((nodes.leaf, others.leaf))
    their_codes, names = label_codes(others.relation_names, nodes.relation_names)  # the first's codes are kept
    relation = np.concatenate((nodes.relation, their_codes[others.relation]))
    edu_texts = list(nodes.edu_texts)
    for i, texts in zip(np.flatnonzero(~first).tolist(), others.edu_texts):
        edu_texts[i] = texts
    return NodeColumns(counts, np.concatenate((nodes.word, others.word))[order], leaf[order],
                       np.concatenate((nodes.number, others.number))[order],
                       np.concatenate((nodes.last, others.last))[order], relation[order], names,
                       np.concatenate((nodes.closes, others.closes))[order], edu_texts)


def _forest(nodes: NodeColumns) -> tuple[Forest, list[tuple[str, np.ndarray]], np.ndarray]:
    """:func:`direct_forest`'s result from the files' nodes: their checks, and the files that pass them."""
    counts = nodes.counts
    n_files = len(counts)
    present = counts > 0
    m = len(nodes.word)
    if not m:
        nothing = np.zeros(0, np.int64)
        return Forest(nothing, nothing.astype(np.bool_), nothing, nothing, nothing, [], nothing), [], present
    tree_of = np.repeat(np.arange(n_files), counts)
    starts = np.minimum(np.cumsum(counts) - counts, m - 1)  # each file's first match (any, for an empty one)
    top = np.zeros(m, np.bool_)
    top[starts[present]] = True
    is_last = np.zeros(m, np.bool_)
    is_last[(starts + counts - 1)[present]] = True
    leaf, word = nodes.leaf, nodes.word
    inner = ~leaf
    bad = (word == _WORD_ROOT) != top  # Root on top, and only there
    relations: list[str | None] = [*nodes.relation_names, None]
    none = relations.index("") if "" in nodes.relation_names else -1
    relation = nodes.relation.copy()
    relation[top & (relation == none)] = len(relations) - 1  # a top node without a relation: None
    bad |= relation == none  # a node below the top without one
    # levels: the inner nodes open before each match, counted inside its file
    change = inner.astype(np.int64) - nodes.closes
    after = np.cumsum(change)
    after -= np.repeat(after[starts] - change[starts], counts)
    level = after - change
    bad |= np.where(is_last, after != 0, after < 1)
    edus_before: np.ndarray = np.cumsum(leaf) - leaf.astype(np.int64)
    edus_before -= np.repeat(edus_before[starts], counts)
    first = edus_before + 1
    # parents: the last inner node one level up in the same file (none where the levels are wrong)
    levels = int(level.max()) + 2
    opened = np.flatnonzero(inner)
    keys = np.sort((tree_of[opened] * levels + level[opened]) * m + opened)
    wanted = (tree_of * levels + level - 1) * m
    found = keys[np.maximum(np.searchsorted(keys, wanted + np.arange(m)) - 1, 0)] if len(keys) else wanted - 1
    parent = np.where(~top & (level >= 1) & (found >= wanted) & (found < wanted + m), found % m, -1)
    bad |= ~top & (parent < 0)
    kids = np.bincount(parent[parent >= 0], minlength=m)
    bad |= inner & (kids < 2)
    # each node's last EDU: its last descendant's
    child = np.flatnonzero(parent >= 0)
    descend = last_descendants(np.sort(parent[child] * m + child) % m, kids)  # children by parent, in order
    # the numbers the file declares: leaves in order, extents from the leaves
    bad |= nodes.number != first  # a leaf's number, a span's first leaf
    bad[inner] |= nodes.last[inner] != first[descend[inner]]
    read = present & (np.bincount(tree_of[bad], minlength=n_files) == 0)
    n_edus = np.bincount(tree_of[leaf], minlength=n_files)[read]
    kept = read[tree_of]
    if not kept.all():  # the files read, alone
        index = np.flatnonzero(kept)
        parent = np.where(parent[index] >= 0, (np.cumsum(kept) - 1)[parent[index]], -1)
        word, first, level = word[index], first[index], level[index]
        relation = relation[index]
    texts_read = list(compress(nodes.edu_texts, read.tolist()))
    return Forest(parent, word == _WORD_NUCLEUS, first, level, relation, relations, n_edus), texts_read, read
