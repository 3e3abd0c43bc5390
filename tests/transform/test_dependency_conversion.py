"""The dependency conversion of Morey, Muller & Asher (2018): ``rstkit.dependency.dependency_records``.

Where the expected values come from:
* the worked examples: the records tables of dependency-evaluation.md section D5, typed in by hand
  (head, label, nuclearity, rank per EDU);
* GUM and random trees: ``tests/support/dep_oracle.py``, a separate implementation written from the
  spec's text that shares no code with rstkit (its own ``.dis`` reader, tree, binarizer and
  conversion);
* binarization shapes and B1 counts: rstkit's own ``transform.binarize`` (the constituency side,
  tested on its own in test_transform.py), converted with ``tree``, which must agree with ``chain``
  doing the same binarization inside its walk.
"""
from __future__ import annotations

import copy
import warnings
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rstkit import read_tree
from rstkit.corpus import read_documents
from rstkit.dependency import DependencyRecords, dependency_records, to_dependencies
from rstkit.errors import BinarizationError, LabelError, RSTKitError, RSTKitWarning, TreeStructureError
from rstkit.formats.dis import dumps_dis, loads_dis
from rstkit.labels import get_label_map
from rstkit.transform import binarize, nary_nodes
from rstkit.tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree, internal, leaf
from tests.support.dep_oracle import OracleError, convert_dis, convert_tree, parse_dis
from tests.support.strategies import rst_trees

RSTDT18 = get_label_map("rstdt18").relabeller("keep")
N, S = "Nucleus", "Satellite"


def records_of(tree: RSTTree, encoding: str = "chain", **options) -> list[tuple]:
    """(head, label, nuclearity, rank) per EDU, the layout of the spec's tables."""
    records = dependency_records(tree, encoding, **options)
    return list(zip(records.head, records.label, records.nuclearity, records.rank))


# -- D5's tables, by hand ------------------------------------------------------------------------

D1_GOLD_CHAIN = [(0, "ROOT", N, 1), (1, "List", N, 1), (2, "List", N, 1), (1, "elaboration-additional", S, 2)]
D1_GOLD_TREE = [(0, "ROOT", N, 1), (1, "List", N, 1), (1, "List", N, 1), (1, "elaboration-additional", S, 2)]
D1_PRED = [(0, "ROOT", N, 1), (1, "List", N, 1), (1, "List", N, 2), (1, "elaboration-additional", S, 3)]
D2_GOLD_CHAIN = [(2, "background", S, 2), (0, "ROOT", N, 1), (2, "purpose", S, 1), (5, "attribution", S, 1),
                 (2, "elaboration-additional", S, 3)]
D2_GOLD_TREE = D2_GOLD_CHAIN[:4] + [(2, "elaboration-additional", S, 2)]
D2_PRED = [(2, "background", S, 3), (0, "ROOT", N, 1), (2, "enablement", S, 1), (5, "attribution", S, 1),
           (2, "elaboration-additional", S, 2)]
D3_GOLD = [(0, "ROOT", N, 1), (1, "Contrast", N, 1), (1, "elaboration-additional", S, 2)]
D3_PRED = [(0, "ROOT", N, 1), (1, "comparison", S, 1), (1, "attribution", S, 2)]
# nested_sns (D5, "B1 in dependency form"): the List stays ternary under chain with B1 (a star,
# 3->2 and 4->2 at rank 1), the satellites get ranks 2 (EDU 1) and 3 (EDU 5); without B1 the List
# is a chain 2->3->4; under tree both the List and the S N S are stars
NESTED_B1 = [(2, "attribution", S, 2), (0, "ROOT", N, 1), (2, "List", N, 1), (2, "List", N, 1),
             (2, "elaboration-additional", S, 3)]
NESTED_CHAIN = NESTED_B1[:3] + [(3, "List", N, 1)] + NESTED_B1[4:]
NESTED_TREE = NESTED_B1[:4] + [(2, "elaboration-additional", S, 2)]
# the prediction is the fully right-heavy binarization of the gold: right satellite first
NESTED_PRED = [(2, "attribution", S, 3), (0, "ROOT", N, 1), (2, "List", N, 1), (3, "List", N, 1),
               (2, "elaboration-additional", S, 2)]


@pytest.fixture(scope="module")
def examples(examples_dir: Path) -> dict[str, RSTTree]:
    return {f"{side}/{name}": read_tree(examples_dir / "dep" / side / f"{name}.dis")
            for side in ("gold", "pred") for name in ("d1", "d2", "d3")} | {
        f"nested/{side}": read_tree(examples_dir / "nested_sns" / side / "nested.dis") for side in ("gold", "pred")}


@pytest.mark.parametrize("name, chain, tree", [
    ("gold/d1", D1_GOLD_CHAIN, D1_GOLD_TREE), ("gold/d2", D2_GOLD_CHAIN, D2_GOLD_TREE), ("gold/d3", D3_GOLD, D3_GOLD),
    ("pred/d1", D1_PRED, D1_PRED), ("pred/d2", D2_PRED, D2_PRED), ("pred/d3", D3_PRED, D3_PRED),
    ("nested/gold", NESTED_CHAIN, NESTED_TREE), ("nested/pred", NESTED_PRED, NESTED_PRED)])
def test_d5_tables(examples, name, chain, tree):
    doc = examples[name]
    assert records_of(doc, "chain") == chain
    assert records_of(doc, "tree") == tree
    # B1 changes nothing on trees without an S N S node over an n-ary child
    if name != "nested/gold":
        assert records_of(doc, "chain", b1=True) == chain


def test_nested_sns_b1(examples):
    """D5 and D6.1: B1 leaves the List ternary, encoded as a star; one such node, counted."""
    gold = examples["nested/gold"]
    b1 = dependency_records(gold, "chain", b1=True)
    assert list(zip(b1.head, b1.label, b1.nuclearity, b1.rank)) == NESTED_B1
    assert b1.b1_nary == 1
    assert dependency_records(gold, "chain").b1_nary == 0
    assert dependency_records(gold, "tree", b1=True).b1_nary == 0  # B1 belongs to chain's pass only
    # a prediction that is the right-heavy binarization of the gold: a 4/5 and r 3/5 against the B1 gold
    pred = records_of(examples["nested/pred"])
    assert sum(g[0] == p[0] for g, p in zip(NESTED_B1, pred)) == 4
    assert sum(g[3] == p[3] for g, p in zip(NESTED_B1, pred)) == 3


def test_showdown_binarize_true_right(examples):
    """D2 pipeline B with ``--binarize_true right``: the gold binarized the rst-eval way, then chain.
    d2: ranks 3 and 2 for EDUs 1 and 5 (D5). nested_sns: chain's second pass repairs the List, so the
    gold equals the right-heavy prediction (5/5 everywhere)."""
    d2 = records_of(binarize(examples["gold/d2"], "rst-eval"), "chain", b1=True)
    assert [(record[0], record[3]) for record in d2] == [(2, 3), (0, 1), (2, 1), (5, 1), (2, 2)]
    nested = dependency_records(binarize(examples["nested/gold"], "rst-eval"), "chain", b1=True)
    assert records_of(binarize(examples["nested/gold"], "rst-eval"), "chain", b1=True) == NESTED_PRED
    assert nested.b1_nary == 0


def test_relabel_maps_every_dependent_label(examples):
    """Section 3's map by hand: purpose -> enablement, elaboration-additional -> elaboration, List -> joint,
    background and attribution unchanged; the root stays ROOT."""
    assert [r[1] for r in records_of(examples["gold/d2"], relabel=RSTDT18)] == [
        "background", "ROOT", "enablement", "attribution", "elaboration"]
    assert [r[1] for r in records_of(examples["gold/d1"], relabel=RSTDT18)] == ["ROOT", "joint", "joint", "elaboration"]


# -- the inspection API and the graph ----------------------------------------------------------------

def test_records_api(examples):
    records = dependency_records(examples["gold/d1"], "chain")
    assert len(records) == 4 and records.doc_id == "d1"
    assert records.rows()[2] == (3, 2, "List", "Nucleus", 1)
    assert str(records).splitlines() == [
        "d1: 4 EDUs",
        "EDU  head  label                   nuclearity  rank",
        "  1     0  ROOT                    Nucleus        1",
        "  2     1  List                    Nucleus        1",
        "  3     2  List                    Nucleus        1",
        "  4     1  elaboration-additional  Satellite      2"]
    assert "1 node(s) left n-ary by B1" in str(dependency_records(examples["nested/gold"], b1=True)).splitlines()[0]


def test_graph_of_the_records(examples):
    gold = examples["gold/d1"]
    graph = to_dependencies(gold, "chain")
    assert sorted(graph.edges(data=True)) == [
        (0, 1, {"relation": "ROOT", "nuclearity": "Nucleus", "rank": 1}),
        (1, 2, {"relation": "List", "nuclearity": "Nucleus", "rank": 1}),
        (1, 4, {"relation": "elaboration-additional", "nuclearity": "Satellite", "rank": 2}),
        (2, 3, {"relation": "List", "nuclearity": "Nucleus", "rank": 1})]
    assert sorted(to_dependencies(gold, "tree").successors(1)) == [2, 3, 4]
    assert nx.is_arborescence(graph)
    # without an encoding: the .rsd view, unchanged (heights, N/S, no label on the root arc)
    assert to_dependencies(gold).edges[0, 1] == {"relation": None, "nuclearity": None, "height": 0}
    assert to_dependencies(gold).edges[1, 3] == {"relation": "List", "nuclearity": "N", "height": 0}
    with pytest.raises(RSTKitError, match="unknown dependency encoding"):
        to_dependencies(gold, "star")  # type: ignore[arg-type]


# -- errors and the odd inputs of D3.6 --------------------------------------------------------------

def _tree(root: Node, source: str = "made.dis") -> RSTTree:
    return RSTTree(root, tuple(EDU(i) for i in range(1, root.end + 1)), "made", source)


def test_all_satellite_node_is_an_error_in_both_encodings():
    satellites = (leaf(1, SATELLITE, "attribution"), leaf(2, SATELLITE, "background"))
    root = internal(ROOT, None, [Node(1, 2, SATELLITE, "attribution", satellites, line=7), leaf(3, NUCLEUS, SPAN)])
    for encoding in ("chain", "tree"):
        with pytest.raises(TreeStructureError, match=r"node 1-2 has no nucleus") as caught:
            dependency_records(_tree(root), encoding)
        assert (caught.value.path, caught.value.line) == ("made.dis", 7)


def test_unsupported_pattern_under_chain():
    text = ("( Root (span 1 3)\n ( Nucleus (leaf 1) (rel2par span) (text _!a_!) )\n"
            " ( Satellite (leaf 2) (rel2par attribution) (text _!b_!) )\n"
            " ( Satellite (leaf 3) (rel2par elaboration-additional) (text _!c_!) )\n)\n")
    tree = loads_dis(text, "nss.dis")
    with pytest.raises(BinarizationError, match=r"node 1-3 \(NSS\)") as caught:
        dependency_records(tree, "chain")
    assert (caught.value.path, caught.value.line) == ("nss.dis", 1)
    with pytest.raises(OracleError):
        convert_dis(text, "chain")
    # under tree both satellites attach to EDU 1 at one rank, as the oracle says too
    expected = convert_dis(text, "tree")[:4]
    records = dependency_records(tree, "tree")
    assert (records.head, records.label, records.nuclearity, records.rank) == expected
    assert records.rank == (1, 1, 1) and records.head == (0, 1, 1)


UNARY_DIS = """( Root (span 1 4)
  ( Nucleus (span 1 3) (rel2par span)
    ( Nucleus (span 1 3) (rel2par span)
      ( Nucleus (leaf 1) (rel2par span) (text _!a_!) )
      ( Satellite (span 2 3) (rel2par elaboration-additional)
        ( Nucleus (leaf 2) (rel2par span) (text _!b_!) )
        ( Satellite (leaf 3) (rel2par attribution) (text _!c_!) ) ) ) )
  ( Satellite (leaf 4) (rel2par background) (text _!d_!) )
)
"""


def test_one_internal_child():
    """Under chain an error; under tree the node is read as EDU 1 and EDUs 2, 3 stay unattached with
    head 0, ROOT, Nucleus and rank 0 (D3.6); the oracle agrees."""
    inner = internal(NUCLEUS, SPAN, [leaf(1, NUCLEUS, SPAN),
                                     internal(SATELLITE, "elaboration-additional",
                                              [leaf(2, NUCLEUS, SPAN), leaf(3, SATELLITE, "attribution")])])
    unary = Node(1, 3, NUCLEUS, SPAN, (inner,), line=2)
    tree = _tree(internal(ROOT, None, [unary, leaf(4, SATELLITE, "background")]))
    with pytest.raises(BinarizationError, match=r"node 1-3 has a single child") as caught:
        dependency_records(tree, "chain")
    assert caught.value.line == 2
    with pytest.raises(OracleError):
        convert_dis(UNARY_DIS, "chain")
    records = dependency_records(tree, "tree")
    assert list(zip(records.head, records.label, records.nuclearity, records.rank)) == [
        (0, "ROOT", N, 1), (0, "ROOT", N, 0), (0, "ROOT", N, 0), (1, "background", S, 1)]
    assert (records.head, records.label, records.nuclearity, records.rank) == convert_dis(UNARY_DIS, "tree")[:4]


def test_unknown_label_is_a_label_error_naming_file_and_line(examples):
    tree = examples["gold/d1"]
    strict = get_label_map("rstdt18")
    gum = loads_dis("( Root (span 1 2)\n ( Nucleus (leaf 1) (rel2par span) (text _!a_!) )\n"
                    " ( Satellite (leaf 2) (rel2par joint-other) (text _!b_!) )\n)\n", "gum.dis")
    with pytest.raises(LabelError) as caught:
        dependency_records(gum, "tree", relabel=strict.relabeller())
    with pytest.raises(LabelError) as expected:
        strict.apply(gum)  # the message every other part of rstkit gives
    assert str(caught.value) == str(expected.value) and caught.value.line == 3
    assert caught.value.fixes == ("unknown_labels", "labels")
    # a plain mapping: the same kind of error, worded without a map name
    with pytest.raises(LabelError, match=r"gum.dis:3: relation label 'joint-other' is unknown"):
        dependency_records(gum, "chain", relabel={SPAN: SPAN})
    assert records_of(tree, relabel=strict.relabeller()) == records_of(tree, relabel=RSTDT18)
    # a label no record uses (the head nucleus's, under tree) is checked too, as LabelMap.apply does
    unused = loads_dis("( Root (span 1 2)\n ( Nucleus (leaf 1) (rel2par joint-other) (text _!a_!) )\n"
                       " ( Nucleus (leaf 2) (rel2par List) (text _!b_!) )\n)\n", "unused.dis")
    with pytest.raises(LabelError, match=r"unused.dis:2: relation label 'joint-other'"):
        dependency_records(unused, "tree", relabel=strict.relabeller())


def test_new_chain_nodes_take_the_first_nucleus_relation():
    """D3.3 and D6.3: with nuclei of differing relations, every link of the chain but the last carries
    c1's relation, the last ck's; the star gives each nucleus its own relation."""
    nuclei = [leaf(i, NUCLEUS, relation) for i, relation in enumerate(["List", "Sequence", "Contrast", "Joint"], 1)]
    tree = _tree(internal(ROOT, None, nuclei))
    assert records_of(tree, "chain") == [(0, "ROOT", N, 1), (1, "List", N, 1), (2, "List", N, 1), (3, "Joint", N, 1)]
    assert records_of(tree, "tree") == [(0, "ROOT", N, 1), (1, "Sequence", N, 1), (1, "Contrast", N, 1),
                                        (1, "Joint", N, 1)]


def test_unknown_encoding(examples):
    with pytest.raises(RSTKitError, match="unknown dependency encoding 'star'"):
        dependency_records(examples["gold/d1"], "star")  # type: ignore[arg-type]


def test_one_edu_document():
    tree = loads_dis("( Root (leaf 1) (text _!Hello._!) )")
    for encoding in ("chain", "tree"):
        assert records_of(tree, encoding) == [(0, "ROOT", N, 1)]


def test_deep_trees_need_no_recursion():
    """A 20,000-EDU right-branching chain of satellites: EDU i attaches to i - 1, each at rank 1."""
    n = 20_000
    node = leaf(n, SATELLITE, "elaboration")
    for i in range(n - 1, 0, -1):
        node = Node(i, n, SATELLITE if i > 1 else ROOT, "elaboration" if i > 1 else None,
                    (leaf(i, NUCLEUS, SPAN), node))
    tree = _tree(node)
    for encoding in ("chain", "tree"):
        records = dependency_records(tree, encoding)
        assert records.head == (0, *range(1, n)) and set(records.rank) == {1}


# -- properties on random trees --------------------------------------------------------------------

def _as_tuple(records: DependencyRecords) -> tuple:
    return records.head, records.label, records.nuclearity, records.rank


def _full_right_mixed(tree: RSTTree) -> RSTTree:
    """right_mixed without B1: educe's pass repeated until nothing is left n-ary."""
    while not tree.is_binary():
        tree = binarize(tree, "right_mixed")
    return tree


@pytest.mark.slow  # hypothesis: hundreds of examples
@settings(max_examples=150, deadline=None)
@given(rst_trees(max_edus=14, max_arity=5))
def test_records_form_a_tree(tree):
    for encoding in ("chain", "tree"):
        for b1 in (False, True):
            records = dependency_records(tree, encoding, b1=b1)
            n = tree.n_edus
            assert len(records) == n == len(records.rows())
            assert records.head.count(0) == 1  # valid trees: every EDU attached, one real root
            root = records.head.index(0)
            assert (records.label[root], records.nuclearity[root], records.rank[root]) == ("ROOT", N, 1)
            assert all(rank >= 1 for rank in records.rank)
            graph = nx.DiGraph((h, d) for d, h in enumerate(records.head, 1))
            assert nx.is_arborescence(graph) and set(graph) == set(range(n + 1))
            # converting the same tree (or an equal copy) gives the same records: gold = prediction scores 100
            assert dependency_records(copy.deepcopy(tree), encoding, b1=b1) == records


@settings(max_examples=150, deadline=None)
@given(rst_trees(max_edus=14, max_arity=5))
def test_chain_binarizes_inside_the_walk(tree):
    """chain = tree after right_mixed: with B1 one pass of transform.binarize (and its n-ary leftovers
    counted as transform.nary_nodes counts them), without B1 the pass repeated to a binary tree."""
    once = binarize(tree, "right_mixed")
    with_b1 = dependency_records(tree, "chain", b1=True)
    assert _as_tuple(with_b1) == _as_tuple(dependency_records(once, "tree"))
    assert with_b1.b1_nary == len(nary_nodes(once))
    assert _as_tuple(dependency_records(tree, "chain")) == _as_tuple(
        dependency_records(_full_right_mixed(tree), "tree"))
    assert dependency_records(tree, "chain").b1_nary == 0


@settings(max_examples=100, deadline=None)
@given(rst_trees(max_edus=14, max_arity=5))
def test_binary_trees_are_the_same_in_both_encodings(tree):
    binary = binarize(tree, "right")
    assert _as_tuple(dependency_records(binary, "chain")) == _as_tuple(dependency_records(binary, "tree"))


def _has_nary_multinuclear(tree: RSTTree) -> bool:
    return any(node.arity > 2 and node.is_multinuclear for node in tree.nodes())


@settings(max_examples=100, deadline=None)
@given(rst_trees(min_edus=3, max_edus=14, max_arity=5))
def test_star_versus_chain(tree):
    """D3.3: under tree, the right-heavy binarization of a gold with an n-ary multinuclear node has
    other heads (a chain, where the gold has a star); under chain without B1 it has the same heads,
    labels and nuclearities (ranks can differ only at S N S nodes, right satellite first)."""
    assume(_has_nary_multinuclear(tree))
    right = binarize(tree, "right")
    assert dependency_records(right, "tree").head != dependency_records(tree, "tree").head
    gold, binary = dependency_records(tree, "chain"), dependency_records(right, "chain")
    assert (gold.head, gold.label, gold.nuclearity) == (binary.head, binary.label, binary.nuclearity)
    if not any(node.pattern() == "SNS" for node in tree.nodes()):
        assert gold.rank == binary.rank


MULTINUCLEAR = ["List", "Contrast", "Same-Unit", "Sequence", "joint-other"]


@st.composite
def mixed_nuclei(draw) -> RSTTree:
    """A random tree whose multinuclear nuclei may each have their own relation (so that which
    nucleus a new chain node takes its relation from shows)."""
    tree = draw(rst_trees(max_edus=14, max_arity=5))
    rebuilt: dict[int, Node] = {}
    for node in tree.root.postorder():
        relation = node.relation
        if node.nuclearity == NUCLEUS and relation != SPAN:
            relation = draw(st.sampled_from(MULTINUCLEAR))
        children = tuple(rebuilt[id(child)] for child in node.children)
        rebuilt[id(node)] = Node(node.start, node.end, node.nuclearity, relation, children)
    return tree.with_root(rebuilt[id(tree.root)])


@settings(max_examples=150, deadline=None)
@given(mixed_nuclei())
def test_oracle_agrees_on_random_trees(tree):
    text = dumps_dis(tree)
    for encoding in ("chain", "tree"):
        for b1 in (False, True):
            for coarse in (False, True):
                got = dependency_records(tree, encoding, b1=b1, relabel=RSTDT18 if coarse else None)
                expected = convert_dis(text, encoding, b1=b1, coarse=coarse)
                assert (*_as_tuple(got), got.b1_nary if encoding == "chain" else 0) == expected


# -- GUM: every lisp_nary and lisp_binary file against the oracle -------------------------------------

def _agree_with_oracle(docs: dict[str, RSTTree]) -> tuple[int, list[str]]:
    compared, errors = 0, []
    for doc_id, tree in docs.items():
        assert tree.source is not None
        read = parse_dis(Path(tree.source).read_text(encoding="utf-8"))
        for encoding, b1 in (("chain", False), ("chain", True), ("tree", False)):
            for coarse in (False, True):
                try:
                    expected = convert_tree(read, encoding, b1=b1, coarse=coarse)
                except OracleError:
                    with pytest.raises(BinarizationError):
                        dependency_records(tree, encoding, b1=b1, relabel=RSTDT18 if coarse else None)
                    errors.append(f"{doc_id} {encoding}")
                    continue
                got = dependency_records(tree, encoding, b1=b1, relabel=RSTDT18 if coarse else None)
                assert (*_as_tuple(got), got.b1_nary if encoding == "chain" else 0) == expected, (doc_id, encoding)
                compared += 1
    return compared, sorted(set(errors))


@pytest.mark.slow  # GUM-wide against the oracle
@pytest.mark.gum
def test_gum_lisp_nary_agrees_with_the_oracle(gum_nary):
    compared, errors = _agree_with_oracle(gum_nary)
    assert len(gum_nary) == 281 and compared == 281 * 6 - 4
    assert errors == ["GENTLE_syllabus_techtonica chain"]  # D3.6: a multinuclear node plus a satellite
    with pytest.raises(BinarizationError, match=r"GENTLE_syllabus_techtonica.dis:\d+: node .*multinuclear"):
        dependency_records(gum_nary["GENTLE_syllabus_techtonica"], "chain")


@pytest.mark.slow  # GUM-wide against the oracle
@pytest.mark.gum
def test_gum_lisp_binary_agrees_with_the_oracle(gum_dir):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RSTKitWarning)  # the one bad extent, as for lisp_nary (conftest)
        docs = read_documents(gum_dir / "lisp_binary", lenient=True)
    compared, errors = _agree_with_oracle(docs)
    assert len(docs) == 281 and compared == 281 * 6 and errors == []
