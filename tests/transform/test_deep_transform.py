"""Depth-independent transforms and scoring: 20,000-EDU chains and a deep S N S nest.

Python's recursion limit is about 1,000 frames; every walk in rstkit.transform and
rstkit.metrics must be iterative. Trees are built here with Node directly (no reader), and
compared through tuple lists (Node's generated equality recurses). Expected counts are
derived by hand in each docstring.
"""
from __future__ import annotations

import re
import sys

import pytest

from rstkit.errors import BinarizationError, RSTKitWarning
from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics import parseval as orig_parseval
from rstkit.transform import (
    attachment_decisions,
    binarize,
    from_attachment,
    marcu_tuples,
    nary_nodes,
    to_attachment,
)
from rstkit.tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree, leaf

N = 20_000
assert N > 10 * sys.getrecursionlimit()


def edus(n: int) -> tuple[EDU, ...]:
    return tuple(EDU(i, f"w{i}") for i in range(1, n + 1))


def right_chain(n: int, relation=lambda j: "elaboration", doc_id: str = "right") -> RSTTree:
    """Node (i..n), i = 1..n-1, has children leaf i (N, span) and (i+1..n) (S, relation(i+1))."""
    node = leaf(n, SATELLITE, relation(n))
    for i in range(n - 1, 0, -1):
        nuclearity, rel = (ROOT, None) if i == 1 else (SATELLITE, relation(i))
        node = Node(i, n, nuclearity, rel, (leaf(i, NUCLEUS, SPAN), node))
    return RSTTree(node, edus(n), doc_id)


def left_chain(n: int, doc_id: str = "left") -> RSTTree:
    """Node (1..i), i = 2..n, has children (1..i-1) (N, span) and leaf i (S, elaboration)."""
    node = leaf(1, NUCLEUS, SPAN)
    for i in range(2, n + 1):
        nuclearity, rel = (ROOT, None) if i == n else (NUCLEUS, SPAN)
        node = Node(1, i, nuclearity, rel, (node, leaf(i, SATELLITE, "elaboration")))
    return RSTTree(node, edus(n), doc_id)


def sns_nest(depth: int) -> RSTTree:
    """``depth`` S N S nodes, each the nucleus of the one above; the innermost nucleus is a
    3-nucleus List. EDUs: 2 * depth + 3."""
    n = 2 * depth + 3
    centre = depth + 1
    node = Node(centre, centre + 2, NUCLEUS, SPAN,
                tuple(leaf(i, NUCLEUS, "List") for i in range(centre, centre + 3)))
    for level in range(depth, 0, -1):  # level k spans EDUs k .. n + 1 - k
        left, right = level, n + 1 - level
        nuclearity, rel = (ROOT, None) if level == 1 else (NUCLEUS, SPAN)
        node = Node(left, right, nuclearity, rel,
                    (leaf(left, SATELLITE, "background"), node, leaf(right, SATELLITE, "elaboration")))
    return RSTTree(node, edus(n), "nest")


@pytest.fixture(scope="module")
def chains():
    return right_chain(N), left_chain(N)


@pytest.mark.slow  # deep chains
def test_chains_are_binary_and_give_2n_minus_2_and_n_minus_1_tuples(chains):
    for tree in chains:
        for mode in ("right", "rst-eval", "right_mixed", "none"):
            binary = binarize(tree, mode)
            assert binary.is_binary()
        marcu = marcu_tuples(binarize(tree))
        assert len(marcu) == 2 * N - 2
        decisions = attachment_decisions(binarize(tree))
        assert len(decisions) == N - 1
        assert {(pair, rel) for _, _, pair, rel in decisions} == {("NS", "elaboration")}


def test_right_chain_tuples_by_hand(chains):
    """Marcu: leaves 1..n-1 (N, span), satellites (j..n, S, elaboration) for j = 2..n, post-order
    from the deepest. Attachments, pre-order: (i..n, NS, elaboration) for i = 1..n-1."""
    right, _ = chains
    marcu = marcu_tuples(right)
    assert set(marcu) == ({(i, i, NUCLEUS, SPAN) for i in range(1, N)}
                          | {(j, N, SATELLITE, "elaboration") for j in range(2, N + 1)})
    assert attachment_decisions(right) == [(i, N, "NS", "elaboration") for i in range(1, N)]


@pytest.mark.slow  # deep chains
def test_from_attachment_round_trip(chains):
    for tree in chains:
        back = from_attachment(to_attachment(tree))
        assert marcu_tuples(back) == marcu_tuples(tree)
        assert attachment_decisions(back) == attachment_decisions(tree)
        assert to_attachment(back).root == to_attachment(tree).root  # Attachment equality does not recurse


def test_chains_score_100_against_themselves(chains):
    for tree in chains:
        for metric in ("rst-parseval", "parseval"):
            for config in (EvalConfig(metric=metric), EvalConfig(compat="rst-eval", metric=metric, average="macro")):
                result = score_documents({"d": tree}, {"d": tree}, config)
                assert result.scores == {k: 100.0 for k in "SNRF"}


@pytest.mark.slow  # deep chains
def test_relabelled_chain_known_counts():
    """Prediction: the right chain with relation(j) = background where j % 4 == 0 (5,000 of
    j = 2..20,000). RST-Parseval: 5,000 of 39,998 tuples lose R and F; original Parseval:
    the decision (i..n) takes relation(i + 1), so 5,000 of 19,999 lose R and F."""
    gold = right_chain(N)
    pred = right_chain(N, lambda j: "background" if j % 4 == 0 else "elaboration")
    marcu = score_documents({"d": gold}, {"d": pred}, EvalConfig(metric="rst-parseval"))
    assert marcu.scores == pytest.approx({"S": 100.0, "N": 100.0, "R": 100 * 34998 / 39998, "F": 100 * 34998 / 39998})
    orig = score_documents({"d": gold}, {"d": pred}, EvalConfig(metric="parseval"))
    assert orig.scores == pytest.approx({"S": 100.0, "N": 100.0, "R": 100 * 14999 / 19999, "F": 100 * 14999 / 19999})


def test_right_chain_against_left_chain(chains):
    """Common non-root spans are the n leaves only (internal spans (i..n) vs (1..i)):
    RST-Parseval S = n / (2n-2). Leaf labels agree on leaf 1 (N, span) and leaf n (S,
    elaboration) only: N = R = F = 2 / (2n-2). Original Parseval: only the root (1..n) is common,
    NS elaboration on both sides: 1 / (n-1) for S, N, R, F."""
    right, left = chains
    marcu = score_documents({"d": right}, {"d": left}, EvalConfig(metric="rst-parseval"))
    assert marcu.scores == pytest.approx({"S": 100 * N / (2 * N - 2), "N": 100 * 2 / (2 * N - 2),
                                          "R": 100 * 2 / (2 * N - 2), "F": 100 * 2 / (2 * N - 2)})
    orig = score_documents({"d": right}, {"d": left}, EvalConfig(metric="parseval", average="macro"))
    assert orig.scores == pytest.approx({k: 100 / (N - 1) for k in "SNRF"})


DEPTH = 5_000


def test_deep_sns_nest_right_heavy():
    """Fully recursive right-heavy binarization: binary, 2n-2 and n-1 tuples (n = 2D + 3)."""
    tree = sns_nest(DEPTH)
    n = 2 * DEPTH + 3
    binary = binarize(tree, "right")
    assert binary.is_binary() and not nary_nodes(binary)
    assert len(marcu_tuples(binary)) == 2 * n - 2
    assert len(attachment_decisions(binary)) == n - 1
    scores = score_documents({"d": tree}, {"d": binary}, EvalConfig(metric="parseval")).scores
    assert scores == {k: 100.0 for k in "SNRF"}


def test_deep_sns_nest_reference_bug():
    """educe ``right``: the root's nucleus (S N S no. 2) and everything under it stay as they are:
    D - 1 S N S nodes and the List are n-ary (D in all); Marcu tuples: 2n - 2 - D.
    Then the ``right_mixed`` pass binarizes S N S no. 2 only (its first two children are grouped
    raw): S N S no. 3 .. D and the List stay n-ary (D - 1). Attachments: the root, the new
    node (2..n), S N S no. 2, its new node (2..n-2), and the D - 1 n-ary nodes: D + 3 tuples,
    D - 1 of them with a 3-letter nuclearity (SNS, and NNN for the List)."""
    tree = sns_nest(DEPTH)
    n = 2 * DEPTH + 3
    reference = binarize(tree, "rst-eval")
    assert len(nary_nodes(reference)) == DEPTH
    assert len(marcu_tuples(reference)) == 2 * n - 2 - DEPTH
    decisions = orig_parseval.tuples(reference, EvalConfig(compat="rst-eval"))
    assert len(decisions) == DEPTH + 3
    assert sorted(pair for _, _, pair, _ in decisions if len(pair) > 2) == ["NNN"] + ["SNS"] * (DEPTH - 2)
    assert decisions[:4] == [(1, n, "SN", "background"), (2, n, "NS", "elaboration"),
                             (2, n - 1, "NS", "elaboration"), (2, n - 2, "SN", "background")]
    note = f"left {DEPTH - 1} gold node(s) n-ary after educe's right_mixed pass in 1 document(s)"
    with pytest.warns(RSTKitWarning, match=re.escape(note)):
        result = score_documents({"d": tree}, {"d": tree}, EvalConfig(compat="rst-eval", metric="parseval"))
    assert result.scores == {k: 100.0 for k in "SNRF"}
    assert any(note in w for w in result.warnings)


def test_deep_nest_error_names_the_first_node_in_the_file():
    """Outside compat the S N S nodes reach the attachment conversion n-ary: the error names the
    outermost one (the first in the file), not the deepest."""
    tree = sns_nest(DEPTH)
    with pytest.raises(BinarizationError, match=f"node 1-{2 * DEPTH + 3} has 3 children"):
        to_attachment(tree)
