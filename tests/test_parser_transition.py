"""Transition system and static oracle of rstkit.parser (pure Python, no torch)."""
from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.corpus import gum_corpus
from rstkit.errors import BinarizationError, TreeStructureError
from rstkit.labels import get_label_map
from rstkit.parser.features import N_STATE_FEATURES, Boundaries
from rstkit.parser.transition import REDUCE, SHIFT, Action, ParserState, oracle_actions, oracle_states, run_actions
from rstkit.transform import binarize
from rstkit.tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree, internal, leaf, validate


def _gum_documents(gum_dir):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gum_corpus(gum_dir).documents(lenient=True)


@pytest.mark.gum
def test_oracle_rebuilds_every_gum_document(gum_dir):
    documents = _gum_documents(gum_dir)
    assert len(documents) > 250
    coarse = get_label_map("gum")
    for doc_id, tree in documents.items():
        for gold in (binarize(tree, "right"), coarse.apply(binarize(tree, "right"))):
            actions = oracle_actions(gold)
            assert len(actions) == 2 * gold.n_edus - 1
            rebuilt = run_actions(actions, gold.edus, doc_id)
            validate(rebuilt)
            assert rebuilt == gold, doc_id


@st.composite
def binary_trees(draw, max_edus: int = 12):
    """Random binary RST trees with rel2par labels consistent with the attachment convention."""
    n = draw(st.integers(1, max_edus))
    relations = st.sampled_from(["elaboration", "joint", "contrast", "attribution"])

    def build(start: int, end: int, nuclearity: str, relation: str | None) -> Node:
        if start == end:
            return leaf(start, nuclearity, relation)
        split = draw(st.integers(start, end - 1))
        pair = draw(st.sampled_from(["NS", "SN", "NN"]))
        rel = draw(relations)
        labels = {"NS": ((NUCLEUS, SPAN), (SATELLITE, rel)), "SN": ((SATELLITE, rel), (NUCLEUS, SPAN)),
                  "NN": ((NUCLEUS, rel), (NUCLEUS, rel))}[pair]
        kids = (build(start, split, *labels[0]), build(split + 1, end, *labels[1]))
        return internal(nuclearity, relation, kids)

    root = build(1, n, ROOT, None)
    return RSTTree(root, tuple(EDU(i, f"edu {i}") for i in range(1, n + 1)), "random")


@settings(max_examples=200, deadline=None)
@given(binary_trees())
def test_oracle_round_trip_on_random_binary_trees(tree):
    actions = oracle_actions(tree)
    assert [a.kind for a in actions].count(SHIFT) == tree.n_edus
    assert run_actions(actions, tree.edus, "random") == tree
    steps = oracle_states(tree)
    assert [a for _, a in steps] == actions
    for (s2, s1, s0, q0, q1), action in steps:
        if action.kind == REDUCE:
            assert s1 is not None and s0 is not None and s1[1] + 1 == s0[0]
        else:
            assert q0 is not None
        assert s2 is None or s1 is not None and s2[1] + 1 == s1[0]
        assert q1 is None or q1 == q0 + 1
        assert (s0[1] + 1 if s0 else 1) == (q0 if q0 is not None else tree.n_edus + 1)


def test_illegal_actions_are_clear_errors():
    state = ParserState(2)
    assert state.can_shift and not state.can_reduce
    with pytest.raises(TreeStructureError, match="fewer than two"):
        state.apply(Action(REDUCE, "NS", "elaboration"))
    state.apply(Action(SHIFT))
    state.apply(Action(SHIFT))
    with pytest.raises(TreeStructureError, match="empty queue"):
        state.apply(Action(SHIFT))
    with pytest.raises(TreeStructureError, match="not finished"):
        state.tree((EDU(1), EDU(2)))
    with pytest.raises(ValueError):
        Action(REDUCE, "SS", "joint")
    with pytest.raises(TreeStructureError):
        ParserState(0)


def test_one_edu_document_is_a_single_shift():
    tree = RSTTree(leaf(1, ROOT, None), (EDU(1, "Hi."),), "one")
    assert oracle_actions(tree) == [Action(SHIFT)]
    assert run_actions([Action(SHIFT)], tree.edus, "one") == tree


def test_oracle_rejects_nary_nodes():
    kids = (leaf(1, NUCLEUS, "joint"), leaf(2, NUCLEUS, "joint"), leaf(3, NUCLEUS, "joint"))
    tree = RSTTree(internal(ROOT, None, kids), tuple(EDU(i) for i in (1, 2, 3)), "nary")
    with pytest.raises(BinarizationError, match="binary"):
        oracle_actions(tree)


def test_boundary_features_use_format_information_or_guess():
    edus = (EDU(1, "It rained.", 1, 1), EDU(2, "We stayed", 2, 1), EDU(3, "because", 2, 2))
    b = Boundaries.of(edus)
    assert b.sentences == [1, 2, 2] and b.paragraphs == [1, 1, 2]
    features = b.state_features((1, 1), (2, 2), 3)
    assert len(features) == N_STATE_FEATURES and features[-1] == 0.0
    # s0 = EDU 2 and q0 = EDU 3 share a sentence but not a paragraph
    assert b.pair_features((2, 2), (3, 3)) == [1.0, 1.0, 0.0, 0.0]
    plain = Boundaries.of(tuple(EDU(e.index, e.text) for e in edus))
    assert plain.paragraphs is None and plain.state_features(None, None, 1)[-1] == 1.0
    # sentences inferred by rstkit.boundaries: "no." before capitalised "Then" ends one, "left?" before "x" not
    guessed = Boundaries.of((EDU(1, 'He said "no."'), EDU(2, "Then"), EDU(3, "left?"), EDU(4, "x")))
    assert guessed.sentences == [1, 2, 2, 2]
