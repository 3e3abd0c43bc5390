"""Trees far deeper than Python's recursion limit: 20,000-EDU right- and left-branching chains.

The chains are built here by hand, bottom-up in a loop; every expected number follows from
their shape alone: n EDUs give 2n - 1 nodes, n - 1 internal nodes and depth n - 1 (the
deepest EDU is n - 1 edges below the root), and a pre-order lists for the right chain
1-n, 1, 2-n, 2, 3-n, ... .
"""
from __future__ import annotations

import copy
import json
import pickle
import re
import sys

import pytest

from rstkit import draw
from rstkit.cli import main
from rstkit.corpus import read_tree
from rstkit.draw.text import FOLD
from rstkit.errors import RSTKitError, TreeStructureError
from rstkit.formats import get_format
from rstkit.labels import get_label_map
from rstkit.tree import EDU, Node, RSTTree, from_nltk, to_nltk, validate

N = 20_000
assert N > 10 * sys.getrecursionlimit()  # the point of these tests


def right_chain(n: int = N, relation: str = "elaboration-additional", line: int | None = None) -> RSTTree:
    """1-n = [N 1, S 2-n], 2-n = [N 2, S 3-n], ...: each satellite holds the rest of the text."""
    node = Node(n, n, "S", relation, (), line)
    for i in range(n - 1, 0, -1):
        top = i == 1
        node = Node(i, n, "Root" if top else "S", None if top else relation,
                    (Node(i, i, "N", "span", (), line), node), line)
    return RSTTree(node, tuple(EDU(i, f"edu {i}.") for i in range(1, n + 1)), "right")


def left_chain(n: int = N, relation: str = "elaboration-additional") -> RSTTree:
    """1-n = [N 1-(n-1), S n], 1-(n-1) = [N 1-(n-2), S n-1], ...: each nucleus holds the text so far."""
    node = Node(1, 1, "N", "span")
    for i in range(2, n + 1):
        top = i == n
        node = Node(1, i, "Root" if top else "N", None if top else "span", (node, Node(i, i, "S", relation)))
    return RSTTree(node, tuple(EDU(i, f"edu {i}.") for i in range(1, n + 1)), "left")


def depth(tree: RSTTree) -> int:
    deepest, stack = 0, [(tree.root, 0)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in node.children)
    return deepest


@pytest.fixture(scope="module", params=["right", "left"])
def chain(request) -> RSTTree:
    return right_chain() if request.param == "right" else left_chain()


def test_the_chains_are_what_they_claim(chain):
    assert sum(1 for _ in chain.nodes()) == 2 * N - 1
    assert sum(1 for _ in chain.internal_nodes()) == N - 1
    assert depth(chain) == N - 1
    validate(chain)


# -- tree.py: equality, hashing, repr, pickling, nltk ------------------------------------------
@pytest.mark.slow  # 20,000-EDU chain
def test_equality_and_hash_of_deep_trees():
    a, b = right_chain(), right_chain(line=7)  # same tree, other line numbers: line does not count
    assert a is not b and a.root == b.root and a == b and hash(a) == hash(b) and hash(a.root) == hash(b.root)
    other = right_chain(relation="elaboration-attribute")  # differs in every satellite, the deepest too
    assert a.root != other.root and a != other
    assert right_chain() != left_chain()
    # a difference at the very bottom only: the last EDU's relation
    last_differs = right_chain()
    bottom = Node(N - 1, N, "S", "elaboration-additional",
                  (Node(N - 1, N - 1, "N", "span"), Node(N, N, "S", "joint-other")))
    for i in range(N - 2, 0, -1):
        top = i == 1
        bottom = Node(i, N, "Root" if top else "S", None if top else "elaboration-additional",
                      (Node(i, i, "N", "span"), bottom))
    last_differs = RSTTree(bottom, a.edus, "right")
    assert last_differs != a and last_differs.root != a.root
    assert {a.root, b.root, other.root} == {a.root, other.root}


def test_source_and_extra_do_not_take_part_in_equality():
    a = right_chain(50)
    b = RSTTree(a.root, a.edus, a.doc_id, source="elsewhere.dis", extra={"signals": [1]})
    assert a == b and hash(a) == hash(b)


@pytest.mark.slow  # 20,000-EDU chain
def test_repr_is_the_bracketed_line_at_any_depth():
    small = Node(1, 2, "Root", None, (Node(1, 1, "N", "span", (), 3), Node(2, 2, "S", "cause")))
    # written out by hand: the bracketed line as an expression that rebuilds the node (line is not shown)
    assert repr(small) == "Node.fromstring('(Root 1-2 (N:span 1) (S:cause 2))')"
    assert eval(repr(small), {"Node": Node}) == small
    unary = Node(1, 1, "Root", None, (Node(1, 1, "N", "span"),))
    assert repr(unary) == "Node.fromstring('(Root 1-1 (N:span 1))')"
    assert eval(repr(unary), {"Node": Node}) == unary
    text = repr(right_chain().root)
    assert text.count("(") == 2 * N - 1 + 1  # every node's bracket, and fromstring's
    assert text.startswith(f"Node.fromstring('(Root 1-{N} ")
    assert text.endswith(")" * (N - 1 + 1) + "')")
    assert eval(text, {"Node": Node}) == right_chain().root
    assert repr(right_chain(4)).startswith("RSTTree(root=Node.fromstring('(Root 1-4 ")


@pytest.mark.slow  # 20,000-EDU chain
def test_pickle_and_copies(chain):
    assert pickle.loads(pickle.dumps(chain)) == chain
    assert copy.deepcopy(chain) == chain
    restored = pickle.loads(pickle.dumps(right_chain(30, line=5)))
    assert all(node.line == 5 for node in restored.nodes())


@pytest.mark.slow  # 20,000-EDU chain
def test_nltk_round_trip(chain):
    pytest.importorskip("nltk")
    tree = to_nltk(chain)
    # count the nltk nodes with an explicit stack (nltk.Tree.leaves() itself recurses)
    count, stack = 0, [tree]
    while stack:
        sub = stack.pop()
        count += 1
        stack.extend(c for c in sub if not isinstance(c, str))
    assert count == 2 * N - 1
    assert from_nltk(tree, chain.doc_id) == chain


def test_from_nltk_rejects_malformed_trees_with_rstkit_errors():
    nltk = pytest.importorskip("nltk")
    with pytest.raises(RSTKitError, match="not a nuclearity"):
        from_nltk(nltk.Tree("Root", [nltk.Tree("Nucleus:span", ["a"]), nltk.Tree("Side:x", ["b"])]))
    with pytest.raises(RSTKitError, match="no children"):
        from_nltk(nltk.Tree("Root", [nltk.Tree("Nucleus:span", ["a"]), nltk.Tree("Satellite:x", [])]))
    with pytest.raises(RSTKitError, match="only child"):
        from_nltk(nltk.Tree("Root", [nltk.Tree("Nucleus:span", ["a"]), "loose text"]))


def test_validate_finds_a_fault_at_the_bottom():
    tree = right_chain()
    bottom = Node(N - 1, N, "S", "elaboration-additional",
                  (Node(N - 1, N - 1, "S", "cause"), Node(N, N, "S", "cause")))  # no nucleus
    for i in range(N - 2, 0, -1):
        top = i == 1
        bottom = Node(i, N, "Root" if top else "S", None if top else "elaboration-additional",
                      (Node(i, i, "N", "span"), bottom))
    with pytest.raises(TreeStructureError, match=f"node {N - 1}-{N} has no nucleus"):
        validate(RSTTree(bottom, tree.edus, "broken"))


# -- labels.py ---------------------------------------------------------------------------------
def test_label_map_apply(chain):
    mapped = get_label_map("gum").apply(chain)
    relations = [n.relation for n in mapped.nodes() if n.relation not in (None, "span")]
    assert relations == ["elaboration"] * (N - 1)
    assert [n.span for n in mapped.nodes()] == [n.span for n in chain.nodes()]


def test_unknown_label_deep_down_is_reported():
    with pytest.raises(RSTKitError, match="'mystery' is unknown to label map 'gum'"):
        get_label_map("gum").apply(right_chain(relation="mystery"))


# -- draw/ ---------------------------------------------------------------------------------------
@pytest.mark.slow  # 20,000-EDU chain drawn
def test_text_drawing(chain):
    lines = draw.to_text(chain).splitlines()
    assert lines[0] == f"{chain.doc_id}: {N} EDUs"
    assert len(lines) == 1 + 2 * N - 1
    # indentation folds every FOLD levels: no line is longer than FOLD levels of 3 characters
    # plus the marker and the label
    assert max(len(line) for line in lines) < 3 * FOLD + 80
    assert any(line.startswith(f"[+{FOLD}] ") for line in lines)
    assert not any(line.startswith("[+") for line in lines[:FOLD])  # shallow lines: full indentation
    spans = [re.search(r"\d+(-\d+)?", line.split("] ")[-1]).group() for line in lines[1:]]
    if chain.doc_id == "right":  # pre-order: 1-N, 1, 2-N, 2, ..., (N-1)-N, N-1, N
        expected = [span for i in range(1, N) for span in (f"{i}-{N}", str(i))] + [str(N)]
    else:  # 1-N, 1-(N-1), ..., 1-2, 1, then each satellite on the way back up: 2, 3, ..., N
        expected = [f"1-{k}" for k in range(N, 1, -1)] + [str(k) for k in range(1, N + 1)]
    assert spans == expected


@pytest.mark.slow  # 20,000-EDU chain drawn
def test_svg_and_html_drawings():
    tree = right_chain()
    svg = draw.to_svg(tree)
    assert svg.count('<g class="edu"') == N and svg.count('<g class="node"') == N - 1
    page = draw.compare_html(tree, left_chain())
    assert page.count("<svg") == page.count("</svg>") >= 2


# -- the command line ---------------------------------------------------------------------------
def dis_text(tree: RSTTree) -> str:
    """The tree as a .dis file, one node a line without indentation (which would make the file
    quadratic in the depth), written here independently of rstkit's writer."""
    out: list[str] = []
    stack: list[Node | str] = [tree.root]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            out.append(node)
            continue
        nuc = {"Root": "Root", "N": "Nucleus", "S": "Satellite"}[node.nuclearity]
        extent = f"(leaf {node.start})" if node.is_leaf else f"(span {node.start} {node.end})"
        rel = f" (rel2par {node.relation})" if node.relation else ""
        text = f" (text _!{tree.edus[node.start - 1].text}_!)" if node.is_leaf else ""
        out.append(f"( {nuc} {extent}{rel}{text}" + (" )\n" if node.is_leaf else "\n"))
        if not node.is_leaf:
            stack.append(")\n")
            stack.extend(reversed(node.children))
    return "".join(out)


@pytest.mark.slow  # 20,000-EDU chain drawn by the command
def test_draw_command_on_a_deep_tree(tmp_path, capsys):
    """``rstkit draw`` of a 20,000-EDU chain read from a .rsd file (rstkit's rsd reader is
    iterative): one text line per node plus the header; an SVG with one cell per EDU."""
    path = tmp_path / "chain.rsd"
    path.write_text(get_format("rsd").write(right_chain()), encoding="utf-8")
    assert main(["draw", str(path), "--width", "0"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2 * N
    assert main(["draw", str(path), "-o", str(tmp_path / "chain.svg")]) == 0
    assert (tmp_path / "chain.svg").read_text(encoding="utf-8").count('<g class="edu"') == N


@pytest.mark.slow  # 20,000-EDU chain through the commands
@pytest.mark.parametrize("shape", ["right", "left"])
def test_commands_on_a_deep_dis_file(tmp_path, capsys, shape):
    """A deep .dis file is read, scored, converted and drawn by the command line. A tree scored
    against itself is 100 on every measure; converted and read back, it is the same tree."""
    tree = right_chain() if shape == "right" else left_chain()
    path = tmp_path / f"{shape}.dis"
    path.write_text(dis_text(tree), encoding="utf-8")
    assert read_tree(path).root == tree.root
    assert main(["eval", str(path), str(path), "--metric", "all", "--format", "json"]) == 0
    for result in json.loads(capsys.readouterr().out):
        assert set(result["scores"].values()) == {100.0} and len(result["scores"]) in (4, 11)
    for fmt in ("dis", "rs3", "rsd"):
        out = tmp_path / f"out.{fmt}"
        assert main(["convert", str(path), str(out), "--to", fmt]) == 0
        assert read_tree(out, fmt).root == tree.root
    assert main(["draw", str(path), "--width", "0"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2 * N
    assert main(["draw", str(path), "--binarize", "right", "-o", str(tmp_path / "d.html")]) == 0
    # audit scores some 100 variants: a 2,000-EDU chain (twice the recursion limit) keeps it short
    small = tmp_path / "small.dis"
    small.write_text(dis_text(right_chain(2_000) if shape == "right" else left_chain(2_000)), encoding="utf-8")
    assert main(["audit", str(small), str(small), "--published", "S=100 N=100 R=100 F=100"]) == 0
    capsys.readouterr()
