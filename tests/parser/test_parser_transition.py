"""Transition system and static oracle of rstkit.parser (pure Python, no torch)."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.corpus import gum_corpus
from rstkit.errors import BinarizationError, TreeStructureError
from rstkit.labels import get_label_map
from rstkit.parser.features import N_STATE_FEATURES, N_UNIT_FEATURES, Boundaries, StateArrays
from rstkit.parser.transition import REDUCE, SHIFT, Action, ParserState, oracle_actions, oracle_states, run_actions
from rstkit.transform import binarize
from rstkit.tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree, internal, leaf, validate
from tests.support.expected_warnings import GUM_EXTENT_QUIRK, warns_exactly


def _gum_documents(gum_dir):
    with warns_exactly({GUM_EXTENT_QUIRK: 1}):
        return gum_corpus(gum_dir).documents(lenient=True)


@pytest.mark.slow  # GUM-wide
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


def _reference_features(sentences, paragraphs, s1, s0, q0):
    """The state features, one state at a time, written from Boundaries.state_features' doc."""
    import math

    n = len(sentences)

    def item(span):
        if span is None:
            return [0.0] * 8
        i, j = span[0] - 1, span[1] - 1
        out = [1.0, math.log1p(j - i + 1) / 6.0, i / n, (n - 1 - j) / n]
        for ids in (sentences, paragraphs):
            if ids is None:
                out += [0.0, 0.0]
            else:
                out += [float(i == 0 or ids[i - 1] != ids[i]), float(j == n - 1 or ids[j + 1] != ids[j])]
        return out

    def pair(left, right):
        if left is None or right is None:
            return [0.0] * 4
        out = []
        for ids in (sentences, paragraphs):
            if ids is None:
                out += [0.0, 0.0]
            else:
                out += [float(ids[left[1] - 1] == ids[right[0] - 1]), float(ids[left[0] - 1] == ids[right[1] - 1])]
        return out

    def units(span):  # the sentences and paragraphs it covers, whether it is whole ones
        if span is None:
            return [0.0] * 4
        i, j = span[0] - 1, span[1] - 1
        out = []
        for ids in (sentences, paragraphs):
            out.append(0.0 if ids is None else math.log1p(len(set(ids[i:j + 1]))) / 3)
        for ids in (sentences, paragraphs):
            out.append(0.0 if ids is None else float((i == 0 or ids[i - 1] != ids[i])
                                                     and (j == n - 1 or ids[j + 1] != ids[j])))
        return out

    def apart(left, right):  # boundaries between the left item's last EDU and the right item's first
        if left is None or right is None:
            return [0.0] * 2
        return [0.0 if ids is None else
                math.log1p(sum(ids[k] != ids[k - 1] for k in range(left[1], right[0]))) / 3
                for ids in (sentences, paragraphs)]

    queue = (q0, q0) if q0 is not None else None
    return (item(s1) + item(s0) + item(queue) + pair(s1, s0) + pair(s0, queue) + [float(paragraphs is None)]
            + units(s1) + units(s0) + units(queue) + apart(s1, s0) + apart(s0, queue))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_vectorised_state_features_equal_the_per_state_definition(data):
    n = data.draw(st.integers(1, 12))
    sentences = sorted(data.draw(st.lists(st.integers(1, 4), min_size=n, max_size=n)))
    paragraphs = data.draw(st.one_of(st.none(), st.lists(st.integers(1, 3), min_size=n, max_size=n).map(sorted)))
    edus = tuple(EDU(i, "x", s, None if paragraphs is None else p)
                 for i, (s, p) in enumerate(zip(sentences, paragraphs or [None] * n), 1))
    boundaries = Boundaries.of(edus)
    state = ParserState(n)
    views = [state.view()]
    while not state.is_final:  # a random walk through legal states
        act = Action(SHIFT) if state.can_shift and (not state.can_reduce or data.draw(st.booleans())) \
            else Action(REDUCE, "NS", "joint")
        state.apply(act)
        views.append(state.view())
    arrays = StateArrays.of(boundaries, views, 3)
    for row, view in enumerate(views):
        expected = _reference_features(sentences, paragraphs, view[1], view[2], view[3])
        assert len(expected) == N_STATE_FEATURES + N_UNIT_FEATURES
        assert arrays.features[row].tolist() == pytest.approx(expected, abs=1e-6)


def test_boundary_features_use_format_information_or_guess():
    edus = (EDU(1, "It rained.", 1, 1), EDU(2, "We stayed", 2, 1), EDU(3, "because", 2, 2))
    b = Boundaries.of(edus)
    assert b.sentences == [1, 2, 2] and b.paragraphs == [1, 1, 2]
    state = ParserState(3)
    state.apply(Action(SHIFT))
    state.apply(Action(SHIFT))
    features = StateArrays.of(b, [state.view()]).features[0]  # s1 = EDU 1, s0 = EDU 2, q0 = EDU 3
    assert len(features) == N_STATE_FEATURES + N_UNIT_FEATURES and features[N_STATE_FEATURES - 1] == 0.0
    # s0 = EDU 2 and q0 = EDU 3 share a sentence but not a paragraph
    assert features[28:32].tolist() == [1.0, 1.0, 0.0, 0.0]
    # by hand: each item covers one sentence and one paragraph (log 2 / 3); EDU 1 is a whole sentence,
    # EDU 3 a whole paragraph; one sentence boundary lies between s1 and s0, one paragraph boundary
    # between s0 and q0
    third = math.log(2) / 3
    assert features[N_STATE_FEATURES:].tolist() == pytest.approx(
        [third, third, 1, 0, third, third, 0, 0, third, third, 0, 1, third, 0, 0, third])
    plain = Boundaries.of(tuple(EDU(e.index, e.text) for e in edus))
    assert plain.paragraphs is None
    assert StateArrays.of(plain, [ParserState(3).view()]).features[0, N_STATE_FEATURES - 1] == 1.0
    # sentences inferred by rstkit.boundaries: "no." before capitalised "Then" ends one, "left?" before "x" not
    guessed = Boundaries.of((EDU(1, 'He said "no."'), EDU(2, "Then"), EDU(3, "left?"), EDU(4, "x")))
    assert guessed.sentences == [1, 2, 2, 2]
