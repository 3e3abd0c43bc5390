"""Trees as the forest path's arrays, by a walk of the tests' own (not rstkit's): what the forest reader
(``formats._dis_direct.direct_forest``) must give of a file, and what ``dependency.forest_dependencies``
converts in the tests."""
from __future__ import annotations

from itertools import pairwise

import numpy as np

from rstkit.dependency import Forest
from rstkit.tree import NUCLEUS, Node, RSTTree


def preorder_rows(root: Node) -> list[tuple[int, bool, int, int, str | None]]:
    """(parent, nucleus, first EDU, depth, relation) of each node below ``root``, pre-order; the parent
    as an index into these rows (-1 for ``root``)."""
    rows: list[tuple[int, bool, int, int, str | None]] = []
    stack = [(root, -1, 0)]
    while stack:
        node, up, depth = stack.pop()
        rows.append((up, node.nuclearity == NUCLEUS, node.start, depth, node.relation))
        index = len(rows) - 1
        stack.extend((kid, index, depth + 1) for kid in reversed(node.children))
    return rows


def forest_of(trees: list[RSTTree]) -> Forest:
    """The trees' nodes in pre-order, one tree after the other."""
    rows: list[tuple] = []
    for tree in trees:
        base = len(rows)
        rows += [(up + base if up >= 0 else -1, *rest) for up, *rest in preorder_rows(tree.root)]
    parent, nucleus, first, depth, relation = zip(*rows) if rows else ((),) * 5
    labels = list(dict.fromkeys(relation))
    return Forest(np.array(parent, np.int64), np.array(nucleus, np.bool_), np.array(first, np.int64),
                  np.array(depth, np.int64), np.array([labels.index(r) for r in relation], np.int64), labels,
                  np.array([t.n_edus for t in trees], np.int64))


def split_texts(joined: tuple[str, np.ndarray]) -> list[str]:
    """Texts given joined, with where each ends (as the forest path gives a file's EDU texts), one by one."""
    text, ends = joined
    bounds = [0, *ends.tolist()]
    assert ends.dtype == np.int32 and bounds[-1] == len(text)
    return [text[a:b] for a, b in pairwise(bounds)]
