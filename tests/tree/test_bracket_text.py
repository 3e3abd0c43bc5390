"""``str(tree)`` reads back (issue 25): :meth:`RSTTree.fromstring` / :func:`from_bracketed` invert
:func:`bracketed`, for any tree, any depth and any relation name; bad lines are one clear error."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rstkit.errors import FormatError
from rstkit.tree import EDU, Node, RSTTree, bracketed, from_bracketed
from tests.support.strategies import rst_trees

#: relation names with spaces, brackets, quotes, colons, backslashes, non-ASCII and nothing at all
ODD_RELATION = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8)


@given(rst_trees(max_edus=20, patterns="any"))
def test_str_of_a_tree_reads_back_as_the_same_tree(tree):
    again = RSTTree.fromstring(str(tree), tree.edus, tree.doc_id)
    assert again == tree
    assert str(again) == str(tree)


@given(rst_trees(max_edus=8), st.lists(ODD_RELATION | st.none(), min_size=1, max_size=30))
def test_any_relation_name_reads_back(tree, names):
    # every node relabelled with names that need quoting (or have no relation at all)
    def relabel(node, counter=[0]):  # noqa: B006 -- a counter shared by one call
        counter[0] += 1
        relation = names[counter[0] % len(names)]
        return Node(node.start, node.end, node.nuclearity, relation, tuple(relabel(c) for c in node.children))

    root = relabel(tree.root)
    assert from_bracketed(bracketed(root)) == root
    assert eval(repr(root), {"Node": Node}) == root


def test_the_line_by_hand():
    # written by hand from the documented layout, not by the writer
    root = Node(1, 3, "Root", None, (
        Node(1, 2, "N", "span", (Node(1, 1, "N", "List"), Node(2, 2, "N", "List"))),
        Node(3, 3, "S", "elaboration additional")))
    text = '(Root 1-3 (N:span 1-2 (N:List 1) (N:List 2)) (S:"elaboration additional" 3))'
    assert bracketed(root) == text
    assert from_bracketed(text) == root
    tree = RSTTree.fromstring("  (Root 1-2 (N:span 1) (S:cause 2))\n")
    assert tree.edus == (EDU(1), EDU(2)) and tree.doc_id == ""


@pytest.mark.slow  # deep chain
def test_a_deep_chain_reads_back_without_recursion():
    n = 20_000
    node = Node(n, n, "S", "elaboration", ())
    for i in range(n - 1, 0, -1):
        node = Node(i, n, "Root" if i == 1 else "S", None if i == 1 else "elaboration",
                    (Node(i, i, "N", "span"), node))
    assert from_bracketed(bracketed(node)) == node


@pytest.mark.parametrize("text, problem", [
    ("", "no tree"),
    ("(Root 1-2 (N:span 1) (S:cause 2)", "unclosed '('"),
    ("(Root 1-2 (N:span 1) (S:cause 2)))", "column 34: text after the tree"),
    ("(Root 1-2 (N:span 1) (S:cause 2)) (Root 1-1)", "column 35: text after the tree"),
    (")", "column 1: ')' closes nothing"),
    ("(Root 1-2 (N:span) (S:cause 2))", "column 11: expected '(label span' or ')'"),
    ("(Root 1-2)", "column 10: span 1-2 without children"),
    ("(Root 1-2 (N:span 1 (S:cause 2)))", "column 21: an EDU has no children"),
    ('(Root 1-1 (N:"unterminated 1))', "column 11"),
])
def test_a_line_that_is_no_tree_is_one_clear_error(text, problem):
    with pytest.raises(FormatError) as caught:
        from_bracketed(text, "given.txt")
    assert problem in str(caught.value) and "given.txt" in str(caught.value)
