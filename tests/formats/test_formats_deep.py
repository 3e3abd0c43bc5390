"""Parser formats write and read trees of any depth (issue 10: no RecursionError on deep predictions).

A right-branching chain is as deep as it has EDUs. Formats that indent every level (one line per
node, two spaces per level) have files quadratic in the depth, so they get a chain deeper than
Python's recursion limit but not 20,000 EDUs; the others are checked at 5,000 (and dmrst at 20,000)
to keep the suite quick. The formats in dis or rs3 syntax (codra, li_qi,
feng_dis, isanlp) read through rstkit/formats/dis.py and rs3.py and are left to those readers' tests.
"""
from __future__ import annotations

import sys

import pytest

from rstkit.corpus import read_documents
from rstkit.tree import EDU, ROOT, Node, RSTTree
from tests.support.expected_warnings import warns_exactly
from tests.support.format_files import render

ONE_LINE = ["braud_coling", "braud_eacl", "dmrst", "dplp", "hilda_orig"]
INDENTED = ["feng", "hilda", "surdeanu", "surdeanu_native"]


def chain(n: int) -> RSTTree:
    """EDU i is the nucleus, everything after it its elaboration, for i = 1..n-1."""
    node = Node(n, n, "S", "elaboration")
    for i in range(n - 1, 0, -1):
        node = Node(i, n, ROOT if i == 1 else "S", None if i == 1 else "elaboration",
                    (Node(i, i, "N", "span"), node))
    return RSTTree(node, tuple(EDU(i, f"w{i} .", i, 1) for i in range(1, n + 1)), "deep")


def shape(tree: RSTTree) -> list[tuple]:
    return [(n.start, n.end, n.nuclearity, n.relation) for n in tree.root.nodes()]  # iterative


@pytest.mark.slow  # deep chain
@pytest.mark.parametrize("key, n", [("dmrst", 20_000), *((k, 5_000) for k in ONE_LINE),
                                    *((k, 2_500) for k in INDENTED)])
def test_a_deep_chain_round_trips(tmp_path, key, n):
    tree = chain(n)
    assert n > sys.getrecursionlimit()
    with warns_exactly({}):
        path, options = render(key, [tree], tmp_path)
        (again,) = read_documents(path, key, **options).values()
    assert shape(again) == shape(tree)
