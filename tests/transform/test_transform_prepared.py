"""The one-walk tuples of prepared trees (``transform.prepared_walk``) against the long way they
replace: relabel the tree (``LabelMap.apply``), binarize it, extract the tuples.

The expected values are the long way's own results (an independent implementation: trees
rebuilt node by node, then walked), compared as lists, so order counts too; errors must be
the same type with the same message. Trees come from hypothesis: well-formed ones, and
free-form ones (unary nodes, nodes without a nucleus, nuclei separated by satellites,
labels no map knows, ``span`` in odd places) that the long way rejects.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit import transform
from rstkit.corpus import read_tree
from rstkit.labels import get_label_map, label_map_names
from rstkit.metrics import EvalConfig, parseval, rst_parseval
from rstkit.metrics.counts import LabelIds
from rstkit.metrics.parseval import PARSEVAL
from rstkit.metrics.prepared import Rows, arrays_of_prepared
from rstkit.metrics.rst_parseval import RST_PARSEVAL
from rstkit.settings import BINARIZATIONS, UNKNOWN_LABEL_POLICIES
from rstkit.transform import attachment_decisions, binarize, marcu_tuples, nary_nodes, prepared_walk
from rstkit.tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree
from tests.support.strategies import rst_trees

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


def prepared_tuples(tree, mode, relabel, **options):
    """``(marcu, decisions)`` of :func:`prepared_walk` (None where it declines)."""
    walked = prepared_walk(tree, mode, relabel, **options)
    return None if walked is None else (walked.marcu, walked.decisions)


@pytest.mark.slow  # fast walk against the long way
@settings(max_examples=300, deadline=None)
@given(tree=TREES, labels=st.sampled_from(label_map_names()), unknown_labels=st.sampled_from(UNKNOWN_LABEL_POLICIES),
       mode=st.sampled_from(BINARIZATIONS))
def test_walk_gives_the_long_ways_tuples_or_declines(tree, labels, unknown_labels, mode):
    label_map = get_label_map(labels)
    fast = prepared_tuples(tree, mode, label_map.relabeller(unknown_labels))
    if fast is None:
        return
    prepared = binarize(label_map.apply(tree, unknown_labels), mode)  # the walk only answers where this works
    assert fast[0] == marcu_tuples(prepared)
    assert fast[1] == outcome(attachment_decisions, prepared)
    assert prepared_tuples(tree, mode, label_map.relabeller(unknown_labels), decisions=False) == (fast[0], [])


@pytest.mark.slow  # fast walk against the long way
@settings(max_examples=300, deadline=None)
@given(tree=TREES, labels=st.sampled_from(label_map_names()), unknown_labels=st.sampled_from(UNKNOWN_LABEL_POLICIES),
       mode=st.sampled_from(BINARIZATIONS), compat=st.booleans())
def test_metric_tuples_equal_the_long_way_errors_included(tree, labels, unknown_labels, mode, compat):
    config = EvalConfig(binarize="right" if mode == "rst-eval" else mode, labels=labels,
                        compat="rst-eval" if compat else None, unknown_labels=unknown_labels)
    if config.gold_binarization != mode:
        return  # rst-eval's binarization comes with compatibility mode, and right becomes rst-eval there
    label_map = get_label_map(labels)
    for module, family in ((rst_parseval, RST_PARSEVAL), (parseval, PARSEVAL)):
        expected = outcome(lambda m: m.tuples(binarize(label_map.apply(tree, unknown_labels), mode), config), module)
        assert outcome(lambda f: f.rows(tree, config, gold=False)[0], family) == expected


def test_walk_covers_the_common_cases():
    """The walk answers for n-ary nodes under every mode (RST-DT's List node and an S N S node
    here); it declines a unary node and an unknown label."""
    e = [Node(i, i, NUCLEUS if i != 1 else SATELLITE, "List" if i > 1 else "attribution") for i in range(1, 5)]
    nary = Node(1, 4, ROOT, None, (e[0], Node(2, 4, NUCLEUS, SPAN, (e[1], e[2], e[3]))))
    tree = RSTTree(nary, tuple(EDU(i) for i in range(1, 5)), "d")
    relabel = get_label_map("rstdt18").relabeller()
    # right: (2-4 List List List) -> (2 (3 4)), the new node 3-4 a nucleus labelled like EDU 2 (List -> joint);
    # rst-eval and right_mixed binarize an all-nuclei node the same way (docs/evaluation.md#binarization)
    for mode in ("right", "rst-eval", "right_mixed"):
        marcu, decisions = prepared_tuples(tree, mode, relabel)
        assert marcu == [(1, 1, "S", "attribution"), (2, 2, "N", "joint"), (3, 3, "N", "joint"),
                         (4, 4, "N", "joint"), (3, 4, "N", "joint"), (2, 4, "N", "span")]
        assert decisions == [(1, 4, "SN", "attribution"), (2, 4, "NN", "joint"), (3, 4, "NN", "joint")]
    # none: the ternary node stays, and attachment decisions refuse it
    assert prepared_tuples(tree, "none", relabel) is None
    assert prepared_tuples(tree, "none", relabel, decisions=False)[0] == [
        (1, 1, "S", "attribution"), (2, 2, "N", "joint"), (3, 3, "N", "joint"), (4, 4, "N", "joint"),
        (2, 4, "N", "span")]
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
    assert label_map.relabeller("keep")["No-Such-Label"] == "no-such-label"  # kept unknown labels are lowercased
    assert get_label_map("raw").relabeller() is None


def test_vocabulary_ids_in_order_of_first_appearance():
    vocab = LabelIds()
    assert vocab.encode(["b", "a", "b", "c"]) == [0, 1, 0, 2]
    assert vocab.encode(iter(["c", "d", "a"])) == [2, 3, 1]
    assert vocab.labels() == ["b", "a", "c", "d"]


def test_tuple_arrays_rows_as_given():
    """Rows in order, documents numbered by position, empty documents and an empty side kept."""
    vocabularies = {"nuc": LabelIds(), "rel": LabelIds()}
    per_doc = [[(1, 2, "N", "x"), (1, 1, "S", "y")], [], [(3, 3, "N", "x")]]
    arrays = arrays_of_prepared([Rows(rows, PARSEVAL) for rows in per_doc], PARSEVAL, vocabularies)
    assert arrays.doc.tolist() == [0, 0, 2] and arrays.start.tolist() == [1, 1, 3]
    assert arrays.end.tolist() == [2, 1, 3] and arrays.columns["nuc"].tolist() == [0, 1, 0]
    assert arrays.columns["rel"].tolist() == [0, 1, 0] and arrays.n_docs == 3
    empty = arrays_of_prepared([None, Rows([], PARSEVAL)], PARSEVAL, vocabularies)
    assert empty.n_docs == 2 and empty.start.size == 0 and empty.doc.size == 0

@pytest.mark.parametrize("bug", [KeyError("child"), IndexError("list index out of range"), ValueError("unpack")])
def test_a_bug_in_the_walk_surfaces_instead_of_falling_back(monkeypatch, bug):
    """The walk declines only where it says it does (an unknown label, a pattern a binarization does
    not define, a node left to the long way); a bug inside it (here injected into the expansion of
    n-ary nodes) surfaces as it is, from the walk and from the metrics that use it, instead of being
    hidden by the long way's correct answer. Before, KeyError and IndexError of any origin gave None."""
    e = [Node(i, i, NUCLEUS, "List") for i in range(1, 4)]
    tree = RSTTree(Node(1, 3, ROOT, None, tuple(e)), tuple(EDU(i, f"e{i}") for i in range(1, 4)), "d")
    assert prepared_walk(tree, "right", None) is not None  # the ternary List node is walked

    def broken(node, mode, source):
        raise bug

    monkeypatch.setattr(transform, "_expand", broken)
    with pytest.raises(type(bug)):
        prepared_walk(tree, "right", None)
    with pytest.raises(type(bug)):
        prepared_walk(tree, "right", get_label_map("rstdt18").relabeller())
    for family in (RST_PARSEVAL, PARSEVAL):
        with pytest.raises(type(bug)):
            family.rows(tree, EvalConfig(), gold=True)
    # the declared conditions still decline: an unknown label (the map's KeyError), a unary node
    bad = tree.with_root(Node(1, 3, ROOT, None, (Node(1, 1, NUCLEUS, "no-such-label"), e[1], e[2])))
    monkeypatch.undo()
    assert prepared_walk(bad, "right", get_label_map("rstdt18").relabeller()) is None
    unary = RSTTree(Node(1, 1, ROOT, None, (Node(1, 1, NUCLEUS, SPAN),)), (EDU(1),), "u")
    assert prepared_walk(unary, "right", None) is None



# -- the whole walk (transform.prepared_walk): rst-eval's procedure, B1 counts ----------------------


def long_way(tree: RSTTree, label_map, unknown_labels: str, mode: str, rebinarization: str | None):
    """What :func:`prepared_walk` replaces, each part with its error: the tree relabelled and
    binarized, its Marcu tuples and n-ary nodes, and its decisions (after the rebinarization pass,
    k-letter ones allowed, when there is one) with how many have a k-letter nuclearity."""
    def binarized():
        return binarize(label_map.apply(tree, unknown_labels), mode)

    def decisions():
        if rebinarization is None:
            return attachment_decisions(binarized())
        return attachment_decisions(binarize(binarized(), rebinarization), nary=True)

    def counted_decisions():
        listed = decisions()
        return listed, sum(len(pair) > 2 for _, _, pair, _ in listed)

    marcu = outcome(lambda: (marcu_tuples(binarized()), len(nary_nodes(binarized()))))
    chosen = outcome(counted_decisions)
    return marcu, chosen


def assert_walk_is_the_long_way(tree, label_map, unknown_labels, mode, rebinarization) -> tuple[int, int]:
    """Marcu's walk and the decision walk, each alone, give the long way's result, or decline
    exactly where the long way raises; both together give both. Returns the counts (0 where the
    long way raised)."""
    marcu, chosen = long_way(tree, label_map, unknown_labels, mode, rebinarization)
    relabel = label_map.relabeller(unknown_labels)
    alone = prepared_walk(tree, mode, relabel, rebinarization=rebinarization, decisions=False)
    if isinstance(marcu[0], type) and issubclass(marcu[0], Exception):
        assert alone is None, (tree.doc_id, mode, marcu)
    else:
        assert alone is not None and (alone.marcu, alone.nary_nodes) == marcu, (tree.doc_id, mode)
        assert alone.decisions == [] and alone.nary_decisions == 0
    walked = prepared_walk(tree, mode, relabel, rebinarization=rebinarization, marcu=False)
    if isinstance(chosen[0], type) and issubclass(chosen[0], Exception):
        assert walked is None, (tree.doc_id, mode, rebinarization, chosen)
    else:
        assert walked is not None and (walked.decisions, walked.nary_decisions) == chosen, (tree.doc_id, mode)
        assert walked.marcu == [] and walked.nary_nodes is None
    both = prepared_walk(tree, mode, relabel, rebinarization=rebinarization)
    if alone is None or walked is None:
        assert both is None
        return 0, 0
    assert both == (alone.marcu, walked.decisions, alone.nary_nodes, walked.nary_decisions)
    return alone.nary_nodes, walked.nary_decisions


REBINARIZATIONS = [None, "right_mixed", "rst-eval", "none"]


@pytest.mark.slow  # fast walk against the long way
@settings(max_examples=400, deadline=None)
@given(tree=st.one_of(TREES, rst_trees(max_edus=16, max_arity=3, patterns="reference")),
       labels=st.sampled_from(label_map_names()), unknown_labels=st.sampled_from(UNKNOWN_LABEL_POLICIES),
       mode=st.sampled_from(BINARIZATIONS), rebinarization=st.sampled_from(REBINARIZATIONS))
def test_whole_walk_is_the_long_way_or_declines_where_it_raises(tree, labels, unknown_labels, mode, rebinarization):
    """Hypothesis trees: well-formed ones (binary, reference patterns, any patterns; ternary
    ones up to 16 EDUs, where S N S nodes nest and bug B1 leaves n-ary nodes under one pass or
    both) and free-form ones (unary nodes, no nucleus, unknown labels)."""
    assert_walk_is_the_long_way(tree, get_label_map(labels), unknown_labels, mode, rebinarization)


@pytest.mark.slow  # fast walk against the long way
@settings(max_examples=300, deadline=None)
@given(tree=st.one_of(rst_trees(min_edus=8, max_edus=24, max_arity=3, patterns="reference"),
                      relabelled(rst_trees(min_edus=8, max_edus=24, max_arity=3, patterns="reference"))),
       labels=st.sampled_from(["raw", "rstdt18"]), mode=st.sampled_from(["rst-eval", "right_mixed"]))
def test_compat_procedure_is_the_long_way(tree, labels, mode):
    """rst-eval's procedure itself (a binarization with bug B1, then the right_mixed pass before
    the attachment trees) on trees of S N S and all-nuclei ternary nodes, where S N S nodes nest
    under S N S nodes: about a third of them keep n-ary nodes after the first pass, and one in ten
    a node still n-ary after the second (a k-letter decision)."""
    assert_walk_is_the_long_way(tree, get_label_map(labels), "keep", mode, "right_mixed")


def test_nested_b1_by_hand():
    """docs/evaluation.md#binarization, #attachment-decisions and B1, derived by hand: Root = S1 N(2-6) S7, where
    N(2-6) = S(2-4) N5 S6 and S(2-4) = List(2, 3, 4). rst-eval groups N(2-6) with S7 without
    binarizing it: N(2-6) and S(2-4) stay ternary (2 nodes). The right_mixed pass before the
    attachment trees turns N(2-6) into ((S(2-4) N5) S6) but leaves S(2-4), grouped with N5, as it
    is: one decision with pair NNN, relation List (child 2 is a nucleus: child 1's relation)."""
    leaf = [None] + [Node(i, i, nuc, rel) for i, (nuc, rel) in enumerate(
        [(SATELLITE, "attribution"), (NUCLEUS, "List"), (NUCLEUS, "List"), (NUCLEUS, "List"), (NUCLEUS, SPAN),
         (SATELLITE, "purpose"), (SATELLITE, "elaboration")], start=1)]
    s24 = Node(2, 4, SATELLITE, "background", (leaf[2], leaf[3], leaf[4]))
    n26 = Node(2, 6, NUCLEUS, SPAN, (s24, leaf[5], leaf[6]))
    tree = RSTTree(Node(1, 7, ROOT, None, (leaf[1], n26, leaf[7])), tuple(EDU(i) for i in range(1, 8)), "b1")
    walked = prepared_walk(tree, "rst-eval", None, rebinarization="right_mixed")
    assert walked.marcu == [  # post-order of Root(S1, M(N(2-6), S7)), N(2-6) and S(2-4) as they are
        (1, 1, "S", "attribution"), (2, 2, "N", "List"), (3, 3, "N", "List"), (4, 4, "N", "List"),
        (2, 4, "S", "background"), (5, 5, "N", SPAN), (6, 6, "S", "purpose"), (2, 6, "N", SPAN),
        (7, 7, "S", "elaboration"), (2, 7, "N", SPAN)]
    assert walked.nary_nodes == 2
    assert walked.decisions == [  # pre-order; 5 decisions for 7 EDUs, one fewer than n - 1
        (1, 7, "SN", "attribution"), (2, 7, "NS", "elaboration"), (2, 6, "NS", "purpose"),
        (2, 5, "SN", "background"), (2, 4, "NNN", "List")]
    assert walked.nary_decisions == 1
    # without the rebinarization pass the n-ary nodes are left to the long way (which raises)
    assert prepared_walk(tree, "rst-eval", None) is None
    assert prepared_walk(tree, "rst-eval", None, decisions=False).nary_nodes == 2
    assert_walk_is_the_long_way(tree, get_label_map("raw"), "error", "rst-eval", "right_mixed")


MODES = [("rst-eval", "right_mixed"), ("rst-eval", None), ("right_mixed", "right_mixed"), ("right", None),
         ("right", "right_mixed"), ("none", "right_mixed"), ("none", None)]


def test_whole_walk_on_the_worked_examples(examples_dir):
    """evaluation.md's examples: nested_sns (section 11.4: rst-eval leaves N(2-4) ternary, and the
    right_mixed pass repairs it: no k-letter decision), ex3, ex5 and the one-EDU document."""
    files = sorted(examples_dir.glob("*/*/*.dis")) + sorted(examples_dir.glob("*/*.dis"))
    trees = {str(path.relative_to(examples_dir)): read_tree(path) for path in files}
    assert len(trees) >= 7
    for tree in trees.values():
        for labels, unknown_labels in (("raw", "error"), ("rstdt18", "keep")):
            for mode, rebinarization in MODES:
                assert_walk_is_the_long_way(tree, get_label_map(labels), unknown_labels, mode, rebinarization)
    nested = next(t for name, t in trees.items() if name.startswith("nested_sns/gold"))
    walked = prepared_walk(nested, "rst-eval", None, rebinarization="right_mixed")
    assert (walked.nary_nodes, walked.nary_decisions, len(walked.marcu), len(walked.decisions)) == (1, 0, 7, 4)


@pytest.mark.slow  # GUM-wide, fast walk against the long way
def test_whole_walk_on_gum(gum_nary):
    """Every GUM lisp_nary tree, every mode: most are rejected by the reference's binarizations
    (GUM has S N N N nodes), and the walk must decline exactly those."""
    label_map = get_label_map("gum")
    answered = 0
    for tree in gum_nary.values():
        for mode, rebinarization in MODES:
            assert_walk_is_the_long_way(tree, label_map, "keep", mode, rebinarization)
        walked = prepared_walk(tree, "rst-eval", label_map.relabeller("keep"), rebinarization="right_mixed")
        answered += walked is not None
    assert 0 < answered < len(gum_nary)


def test_whole_walk_on_the_synthetic_corpus(tmp_path):
    """benchmarks/make_corpus.py's RST-DT-like corpus (n-ary multinuclear and S N S nodes, fine
    RST-DT labels), gold and predictions, under rstdt18 and raw labels."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1].parent / "benchmarks"))
    try:
        from make_corpus import make_corpus
    finally:
        sys.path.pop(0)
    make_corpus(tmp_path, 40, 30, seed=3)
    trees = [read_tree(path) for side in ("gold", "pred") for path in sorted((tmp_path / side).glob("*.dis"))]
    nary = 0
    for tree in trees:
        for labels in ("rstdt18", "raw"):
            for mode, rebinarization in MODES:
                nary += assert_walk_is_the_long_way(tree, get_label_map(labels), "error", mode, rebinarization)[0]
    assert nary > 0  # "none" keeps the n-ary gold nodes
