"""Binarization modes, Marcu's encoding, attachment trees and their inverse."""
from __future__ import annotations

import pytest
from hypothesis import given, settings

from rstkit.errors import BinarizationError
from rstkit.formats.dis import loads_dis
from rstkit.transform import attachment_decisions, binarize, from_attachment, marcu_tuples, nary_nodes, to_attachment
from tests.support.strategies import rst_trees


def dis(body: str, n: int) -> str:
    return f"( Root (span 1 {n}) {body} )"


def leaf(i: int, nuc: str, rel: str) -> str:
    word = {"N": "Nucleus", "S": "Satellite"}[nuc]
    return f"( {word} (leaf {i}) (rel2par {rel}) (text _!e{i}_!) )"


def shape(node) -> object:
    return node.start if node.is_leaf else tuple(shape(c) for c in node.children)


def test_ex5_right_heavy(examples_dir):
    from rstkit.corpus import read_tree

    tree = binarize(read_tree(examples_dir / "gold" / "ex5.dis"))
    assert shape(tree.root) == ((1, (2, 3)), (4, 5))
    assert marcu_tuples(tree) == [(1, 1, "S", "concession"), (2, 2, "N", "span"), (3, 3, "S", "attribution"),
                                  (2, 3, "N", "span"), (1, 3, "N", "List"), (4, 4, "N", "List"),
                                  (5, 5, "N", "List"), (4, 5, "N", "List")]
    assert attachment_decisions(tree) == [(1, 5, "NN", "List"), (1, 3, "SN", "concession"),
                                          (2, 3, "NS", "attribution"), (4, 5, "NN", "List")]


@pytest.mark.parametrize("pattern, expected", [
    ("NNNN", (1, (2, (3, 4)))),
    ("SNS", (1, (2, 3))),
    ("NSS", ((1, 2), 3)),
    ("SSN", (1, (2, 3))),
    ("SSNS", (1, (2, (3, 4)))),
    ("SNNN", (1, (2, (3, 4)))),
    ("NNS", ((1, 2), 3)),
])
def test_right_heavy_patterns(pattern, expected):
    body = " ".join(leaf(i, nuc, "List" if pattern.count("N") > 1 and nuc == "N" else
                         ("span" if nuc == "N" else "elaboration")) for i, nuc in enumerate(pattern, 1))
    tree = binarize(loads_dis(dis(body, len(pattern))))
    assert tree.is_binary()
    assert shape(tree.root) == expected


def test_new_multinuclear_nodes_take_the_first_nucleus_relation():
    body = leaf(1, "N", "Sequence") + leaf(2, "N", "List") + leaf(3, "N", "List")
    tree = binarize(loads_dis(dis(body, 3)))
    assert tree.subtree(2, 3).relation == "Sequence"


def test_reference_mode_rejects_what_the_reference_rejects():
    body = leaf(1, "N", "span") + leaf(2, "S", "elaboration") + leaf(3, "S", "elaboration")
    with pytest.raises(BinarizationError, match="Don't know how to handle NSS"):
        binarize(loads_dis(dis(body, 3), path="nss.dis"), "rst-eval")
    mixed = leaf(1, "S", "elaboration") + leaf(2, "N", "List") + leaf(3, "N", "List")
    with pytest.raises(BinarizationError, match="Multinuclear with satellites"):
        binarize(loads_dis(dis(mixed, 3)), "rst-eval")
    assert binarize(loads_dis(dis(mixed, 3)), "right").is_binary()


def test_separated_nuclei_are_an_error_in_paper_mode():
    body = leaf(1, "N", "List") + leaf(2, "S", "elaboration") + leaf(3, "N", "List")
    with pytest.raises(BinarizationError, match="separated"):
        binarize(loads_dis(dis(body, 3)))


def test_bug_b1_and_right_mixed(examples_dir):
    from rstkit.corpus import read_tree

    gold = read_tree(examples_dir / "nested_sns" / "gold" / "nested.dis")
    reference = binarize(gold, "rst-eval")
    assert [n.span for n in nary_nodes(reference)] == [(2, 4)]
    assert binarize(gold).is_binary() and not nary_nodes(binarize(gold))
    mixed = binarize(binarize(gold, "rst-eval"), "right_mixed")
    assert mixed.is_binary()
    sns = read_tree(examples_dir / "gold" / "ex5.dis")
    assert shape(binarize(sns, "right_mixed").root) == (((1, 2), 3), (4, 5))


@pytest.mark.slow  # hypothesis: hundreds of examples
@settings(max_examples=200, deadline=None)
@given(rst_trees(patterns="any", max_edus=16))
def test_binarization_keeps_edus_and_spans(tree):
    binary = binarize(tree)
    assert binary.is_binary()
    assert [n.start for n in binary.root.leaves()] == list(range(1, tree.n_edus + 1))
    assert binary.edus == tree.edus
    original_spans = {n.span for n in tree.nodes()}
    assert original_spans <= {n.span for n in binary.nodes()}
    n = tree.n_edus
    assert len(marcu_tuples(binary)) == (2 * n - 2 if n > 1 else 0)
    assert len(attachment_decisions(binary)) == n - 1
    assert binarize(binary) == binary  # idempotent


@settings(max_examples=100, deadline=None)
@given(rst_trees(patterns="reference", max_edus=16))
def test_reference_mode_agrees_with_paper_mode_without_nested_sns(tree):
    reference = binarize(tree, "rst-eval")
    if not nary_nodes(reference):
        assert reference == binarize(tree)


@settings(max_examples=150, deadline=None)
@given(rst_trees(patterns="binary", max_edus=16))
def test_attachment_tree_inverse(tree):
    """from_attachment(to_attachment(t)) keeps structure, nuclearity and the scored labels."""
    back = from_attachment(to_attachment(tree))
    assert attachment_decisions(back) == attachment_decisions(tree)
    assert [(n.span, n.nuclearity) for n in back.nodes()] == [(n.span, n.nuclearity) for n in tree.nodes()]


def test_ex3_tuples(examples_dir):
    """evaluation.md 11.1: the tuples of both trees, in both encodings."""
    from rstkit.corpus import read_tree

    gold = binarize(read_tree(examples_dir / "gold" / "ex3.dis"))
    pred = binarize(read_tree(examples_dir / "pred" / "ex3.dis"))
    assert set(marcu_tuples(gold)) == {(1, 2, "N", "span"), (1, 1, "N", "span"), (2, 2, "S", "circumstance"),
                                       (3, 3, "S", "attribution")}
    assert set(marcu_tuples(pred)) == {(1, 1, "N", "span"), (2, 3, "S", "circumstance"), (2, 2, "N", "span"),
                                       (3, 3, "S", "attribution")}
    assert attachment_decisions(gold) == [(1, 3, "NS", "attribution"), (1, 2, "NS", "circumstance")]
    assert attachment_decisions(pred) == [(1, 3, "NS", "circumstance"), (2, 3, "NS", "attribution")]
