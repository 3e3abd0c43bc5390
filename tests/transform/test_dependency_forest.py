"""forest_dependencies (many trees at once, vectorised) gives dependency_records' records for each tree,
and fails exactly the trees that dependency_records refuses. The expected values are dependency_records'
own walk, which tests/transform/test_dependency_conversion.py checks by hand and against an oracle."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.dependency import dependency_records, forest_dependencies
from rstkit.errors import RSTKitError
from rstkit.labels import get_label_map
from rstkit.tree import EDU, NUCLEUS, ROOT, SATELLITE, Node, RSTTree
from tests.support.forests import forest_of
from tests.support.strategies import rst_trees

RELATIONS = ["span", "List", "Sequence", "Contrast", "elaboration-additional", "attribution", "background"]
RSTDT18 = get_label_map("rstdt18").relabeller()


def random_node(rng: random.Random, start: int, end: int, nuclearity: str, relation: str | None) -> Node:
    """Any tree: one-child nodes, nodes without a nucleus, any pattern, now and then a label no map knows."""
    if start == end:
        return Node(start, end, nuclearity, relation)
    k = 1 if rng.random() < 0.05 else rng.randint(2, min(end - start + 1, 5))
    if k == 1:
        return Node(start, end, nuclearity, relation,
                    (random_node(rng, start, end, rng.choice("NS"), rng.choice(RELATIONS)),))
    cuts = sorted(rng.sample(range(start + 1, end + 1), k - 1))
    bounds = list(zip([start, *cuts], [c - 1 for c in cuts] + [end]))
    draw = rng.random()
    if draw < 0.3:
        pattern = "SNS" if k == 3 else "N" * k
    elif draw < 0.6:
        pattern = rng.choice(["NS", "SN", "NN"]) if k == 2 else "N" * k
    else:
        pattern = "".join(rng.choice("NS") for _ in range(k))
    multinuclear = rng.choice(["List", "Sequence", "Contrast"])
    children = []
    for (a, b), side in zip(bounds, pattern):
        label = (multinuclear if pattern.count(NUCLEUS) > 1 else "span") if side == NUCLEUS else \
            rng.choice(RELATIONS[4:])
        if rng.random() < 0.01:
            label = "no-such-label"
        children.append(random_node(rng, a, b, side, label))
    return Node(start, end, nuclearity, relation, tuple(children))


def outcome(tree: RSTTree, encoding: str, b1: bool, relabel) -> tuple | None:
    try:
        records = dependency_records(tree, encoding, b1=b1, relabel=relabel)
    except RSTKitError:
        return None
    return records.head, records.label, records.nuclearity, records.rank, records.b1_nary


def assert_same_as_each_tree(trees: list[RSTTree], encoding: str, b1: bool, relabel) -> None:
    converted = forest_dependencies(forest_of(trees), encoding, b1=b1, relabel=relabel)
    start = 0
    for t, tree in enumerate(trees):
        expected = outcome(tree, encoding, b1, relabel)
        assert bool(converted.failed[t]) == (expected is None), (encoding, b1, str(tree))
        end = start + tree.n_edus
        if expected is not None:
            got = (tuple(converted.head[start:end].tolist()), tuple(converted.labels()[start:end]),
                   tuple("Nucleus" if x else "Satellite" for x in converted.nucleus[start:end].tolist()),
                   tuple(converted.rank[start:end].tolist()), int(converted.b1_nary[t]))
            assert got == expected, (encoding, b1, str(tree))
        start = end


@pytest.mark.parametrize("seed", range(4))
def test_any_trees_converted_together_as_each_alone(seed):
    """300 random trees of 1-16 EDUs (a tenth or so refused), converted as one forest in every setting."""
    rng = random.Random(seed)
    trees = []
    for _ in range(300):
        n = rng.randint(1, 16)
        trees.append(RSTTree(random_node(rng, 1, n, ROOT, None), tuple(EDU(i) for i in range(1, n + 1))))
    for encoding in ("chain", "tree"):
        for b1 in (False, True):
            for relabel in (None, RSTDT18):
                assert_same_as_each_tree(trees, encoding, b1, relabel)


@settings(max_examples=60, deadline=None)
@given(st.lists(rst_trees(max_edus=14, max_arity=5, patterns="any"), min_size=1, max_size=6))
def test_generated_forests(trees):
    for encoding in ("chain", "tree"):
        for b1 in (False, True):
            assert_same_as_each_tree(trees, encoding, b1, None)


def test_one_edu_trees_and_a_refused_one_between_them():
    one = RSTTree(Node(1, 1, ROOT, None), (EDU(1),))
    satellites = (Node(1, 1, SATELLITE, "attribution"), Node(2, 2, SATELLITE, "background"))
    refused = RSTTree(Node(1, 2, ROOT, None, satellites), (EDU(1), EDU(2)))
    converted = forest_dependencies(forest_of([one, refused, one]))
    assert converted.failed.tolist() == [False, True, False]
    assert converted.head.tolist()[0] == 0 and converted.head.tolist()[3] == 0
    assert converted.rank.tolist()[0] == converted.rank.tolist()[3] == 1
