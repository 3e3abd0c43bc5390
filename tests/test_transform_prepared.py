"""The one-walk tuples of prepared trees (``transform.prepared_tuples`` and the metrics'
``prepared_tuples``) against the long way they replace: relabel the tree
(``LabelMap.apply``), binarize it, extract the tuples.

The expected values are the long way's own results (an independent implementation: trees
rebuilt node by node, then walked), compared as lists, so order counts too; errors must be
the same type with the same message. Trees come from hypothesis: well-formed ones, and
free-form ones (unary nodes, nodes without a nucleus, nuclei separated by satellites,
labels no map knows, ``span`` in odd places) that the long way rejects.
"""
from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rst_trees

from rstkit.labels import get_label_map, label_map_names
from rstkit.metrics import EvalConfig, parseval, rst_parseval
from rstkit.metrics.counts import Vocabulary
from rstkit.metrics.parseval import PARSEVAL
from rstkit.metrics.prepared import Rows, arrays_of_prepared
from rstkit.metrics.rst_parseval import RST_PARSEVAL
from rstkit.settings import BINARIZATIONS
from rstkit.transform import attachment_decisions, binarize, marcu_tuples, prepared_tuples
from rstkit.tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree

LABELS = ["elaboration-additional", "Elaboration-Additional", "attribution", "List", "Same-Unit", "same_unit",
          "TextualOrganization", "joint-list", "causal-cause", SPAN, "Span", "no-such-label", "ELABORATION"]


@st.composite
def free_trees(draw, max_edus: int = 9) -> RSTTree:
    """Any shape: 1 to 4 children per node (unary ones included), any nuclearities, any labels."""
    n = draw(st.integers(1, max_edus))

    def build(start: int, end: int, nuclearity: str, relation: str | None, depth: int) -> Node:
        if start == end:
            if depth < 3 and draw(st.integers(0, 9)) == 0:  # a unary node over an EDU
                kid = build(start, end, draw(st.sampled_from([NUCLEUS, SATELLITE])), draw(st.sampled_from(LABELS)),
                            depth + 1)
                return Node(start, end, nuclearity, relation, (kid,))
            return Node(start, end, nuclearity, relation)
        k = draw(st.integers(2, min(4, end - start + 1)))
        cuts = sorted(draw(st.lists(st.integers(start + 1, end), min_size=k - 1, max_size=k - 1, unique=True)))
        kids = tuple(build(a, b, draw(st.sampled_from([NUCLEUS, SATELLITE])), draw(st.sampled_from(LABELS)), depth + 1)
                     for a, b in zip([start, *cuts], [c - 1 for c in cuts] + [end]))
        return Node(start, end, nuclearity, relation, kids)

    return RSTTree(build(1, n, ROOT, None, 0), tuple(EDU(i, f"e{i}") for i in range(1, n + 1)), "doc", "doc.dis")


@st.composite
def relabelled(draw, trees: st.SearchStrategy[RSTTree]) -> RSTTree:
    """A well-formed tree whose relation labels are swapped for others (some unknown to every map)."""
    tree = draw(trees)
    done: dict[int, Node] = {}
    for node in tree.root.postorder():
        relation = node.relation if node.relation in (None, SPAN) or draw(st.booleans()) else draw(
            st.sampled_from(LABELS))
        done[id(node)] = Node(node.start, node.end, node.nuclearity, relation,
                              tuple(done[id(c)] for c in node.children), node.line)
    return tree.with_root(done[id(tree.root)])


TREES = st.one_of(rst_trees(max_edus=10, patterns="any"), rst_trees(max_edus=10, patterns="reference"),
                  relabelled(rst_trees(max_edus=10, patterns="any")), free_trees())


def outcome(compute, *args):
    """``compute(*args)``, or the type and message of the error it raises."""
    try:
        return compute(*args)
    except Exception as exc:  # noqa: BLE001 (any error must be the same on both ways)
        return (type(exc), str(exc))


@settings(max_examples=300, deadline=None)
@given(tree=TREES, labels=st.sampled_from(label_map_names()), passthrough=st.booleans(),
       mode=st.sampled_from(BINARIZATIONS))
def test_walk_gives_the_long_ways_tuples_or_declines(tree, labels, passthrough, mode):
    label_map = get_label_map(labels)
    fast = prepared_tuples(tree, mode, label_map.relabeller(passthrough))
    if fast is None:
        return
    prepared = binarize(label_map.apply(tree, passthrough), mode)  # the walk only answers where this works
    assert fast[0] == marcu_tuples(prepared)
    assert fast[1] == outcome(attachment_decisions, prepared)
    assert prepared_tuples(tree, mode, label_map.relabeller(passthrough), decisions=False) == (fast[0], [])


@settings(max_examples=300, deadline=None)
@given(tree=TREES, labels=st.sampled_from(label_map_names()), passthrough=st.booleans(),
       mode=st.sampled_from(BINARIZATIONS), compat=st.booleans())
def test_metric_tuples_equal_the_long_way_errors_included(tree, labels, passthrough, mode, compat):
    make = EvalConfig.rst_eval if compat else EvalConfig
    config = make(binarize="right" if mode == "rst-eval" else mode, labels=labels,
                  unknown_labels="keep" if passthrough else "error")
    if config.gold_binarization != mode:
        return  # rst-eval's binarization comes with compatibility mode, and right becomes rst-eval there
    label_map = get_label_map(labels)
    for module, family in ((rst_parseval, RST_PARSEVAL), (parseval, PARSEVAL)):
        expected = outcome(lambda m: m.tuples(binarize(label_map.apply(tree, passthrough), mode), config), module)
        assert outcome(lambda f: f.rows(tree, config, gold=False)[0], family) == expected


def test_walk_covers_the_common_cases():
    """The walk answers for binary trees in every mode and n-ary ones under ``right`` (RST-DT's
    List node and an S N S node here); it declines a unary node and n-ary nodes elsewhere."""
    e = [Node(i, i, NUCLEUS if i != 1 else SATELLITE, "List" if i > 1 else "attribution") for i in range(1, 5)]
    nary = Node(1, 4, ROOT, None, (e[0], Node(2, 4, NUCLEUS, SPAN, (e[1], e[2], e[3]))))
    tree = RSTTree(nary, tuple(EDU(i) for i in range(1, 5)), "d")
    relabel = get_label_map("rstdt18").relabeller()
    marcu, decisions = prepared_tuples(tree, "right", relabel)
    # right: (2-4 List List List) -> (2 (3 4)), the new node 3-4 a nucleus labelled like EDU 2 (List -> joint)
    assert marcu == [(1, 1, "S", "attribution"), (2, 2, "N", "joint"), (3, 3, "N", "joint"), (4, 4, "N", "joint"),
                     (3, 4, "N", "joint"), (2, 4, "N", "span")]
    assert decisions == [(1, 4, "SN", "attribution"), (2, 4, "NN", "joint"), (3, 4, "NN", "joint")]
    for mode in ("rst-eval", "right_mixed", "none"):
        assert prepared_tuples(tree, mode, relabel) is None
    unary = RSTTree(Node(1, 1, ROOT, None, (Node(1, 1, NUCLEUS, SPAN),)), (EDU(1),), "u")
    assert prepared_tuples(unary, "right", None) is None
    assert prepared_tuples(tree.with_root(Node(1, 4, ROOT, None, (e[0], Node(2, 4, NUCLEUS, "bad-label", e[1:])))),
                           "right", relabel) is None


def test_walk_has_no_depth_limit():
    """A 20,000-EDU right-branching chain of N S nodes: 2n - 2 Marcu tuples, n - 1 decisions."""
    n = 20_000
    assert n > 10 * sys.getrecursionlimit()
    node = Node(n, n, SATELLITE, "elaboration-additional")
    for i in range(n - 1, 0, -1):
        node = Node(i, n, ROOT if i == 1 else SATELLITE, None if i == 1 else "elaboration-additional",
                    (Node(i, i, NUCLEUS, SPAN), node))
    tree = RSTTree(node, tuple(EDU(i) for i in range(1, n + 1)), "chain")
    marcu, decisions = prepared_tuples(tree, "right", get_label_map("rstdt18").relabeller())
    assert len(marcu) == 2 * n - 2 and len(decisions) == n - 1
    assert marcu == marcu_tuples(get_label_map("rstdt18").apply(tree))
    assert decisions[0] == (1, n, "NS", "elaboration")


def test_relabeller_maps_like_map_and_remembers_nothing_unknown():
    label_map = get_label_map("rstdt18")
    relabel = label_map.relabeller()
    assert relabel["Elaboration-Additional"] == label_map.map("Elaboration-Additional") == "elaboration"
    assert relabel[SPAN] == SPAN and relabel[None] is None
    with pytest.raises(KeyError):
        relabel["no-such-label"]
    assert "no-such-label" not in relabel
    assert label_map.relabeller(True)["No-Such-Label"] == "no-such-label"  # pass-through lowercases
    assert get_label_map("raw").relabeller() is None


def test_vocabulary_ids_in_order_of_first_appearance():
    vocab = Vocabulary()
    assert vocab.encode(["b", "a", "b", "c"]) == [0, 1, 0, 2]
    assert vocab.encode(iter(["c", "d", "a"])) == [2, 3, 1]
    assert vocab.labels() == ["b", "a", "c", "d"]


def test_tuple_arrays_rows_as_given():
    """Rows in order, documents numbered by position, empty documents and an empty side kept."""
    vocabularies = {"nuc": Vocabulary(), "rel": Vocabulary()}
    per_doc = [[(1, 2, "N", "x"), (1, 1, "S", "y")], [], [(3, 3, "N", "x")]]
    arrays = arrays_of_prepared([Rows.of(rows, PARSEVAL) for rows in per_doc], PARSEVAL, vocabularies)
    assert arrays.doc.tolist() == [0, 0, 2] and arrays.start.tolist() == [1, 1, 3]
    assert arrays.end.tolist() == [2, 1, 3] and arrays.columns["nuc"].tolist() == [0, 1, 0]
    assert arrays.columns["rel"].tolist() == [0, 1, 0] and arrays.n_docs == 3
    empty = arrays_of_prepared([None, Rows.of([], PARSEVAL)], PARSEVAL, vocabularies)
    assert empty.n_docs == 2 and empty.start.size == 0 and empty.doc.size == 0
