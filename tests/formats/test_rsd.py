"""RST dependencies: the dependency view (rstkit.dependency) and the .rsd reader/writer."""
from __future__ import annotations

from dataclasses import replace

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rstkit.corpus import read_tree
from rstkit.dependency import VIRTUAL_ROOT, from_dependencies, to_dependencies
from rstkit.errors import FormatError, TreeStructureError
from rstkit.formats import get_format
from rstkit.formats.dis import loads_dis
from rstkit.formats.rsd import dumps_rsd, loads_rsd, rsd_normal_form
from rstkit.tree import EDU, NUCLEUS, SPAN, Node, RSTTree
from tests.formats.test_rs3 import RUNNING_DIS
from tests.support.strategies import rst_trees

# docs/formats.md#rsd
RUNNING_RSD = """1	Analysts said	1	_	_	_	2	attribution_r	_	_
2	the market would rise ,	0	_	_	_	0	ROOT	_	_
3	but it "fell" ( sharply ) .	0	_	_	_	2	Contrast_m	_	_
4	Traders blamed rates .	2	_	_	_	2	elaboration-additional_r	_	_
"""


def running_tree() -> RSTTree:
    return loads_dis(RUNNING_DIS)


def rsd(*rows: str) -> str:
    """Lines from 'id text height head label' (features etc. '_')."""
    out = []
    for row in rows:
        i, text, height, head, label = row.split()
        out.append(f"{i}\t{text}\t{height}\t_\t_\t_\t{head}\t{label}\t_\t_")
    return "\n".join(out) + "\n"


def test_dependencies_of_the_running_example():
    graph = to_dependencies(running_tree())
    arcs = {(h, d): (a["relation"], a["nuclearity"], a["height"]) for h, d, a in graph.edges(data=True)}
    assert arcs == {(0, 2): (None, None, 0), (2, 1): ("attribution", "S", 1), (2, 3): ("Contrast", "N", 0),
                    (2, 4): ("elaboration-additional", "S", 2)}
    assert nx.is_arborescence(graph)


def test_running_example_reads_and_writes_as_specified():
    tree = loads_rsd(RUNNING_RSD, "d/wsj_9999.rsd")
    assert tree.root == running_tree().root and tree.edu_texts() == running_tree().edu_texts()
    assert tree.doc_id == "wsj_9999"
    assert dumps_rsd(running_tree()) == RUNNING_RSD
    assert dumps_rsd(tree) == RUNNING_RSD


def test_file_without_heights_attaches_right_dependents_first():
    text = rsd("1 a _ 2 elab_r", "2 b _ 0 ROOT", "3 c _ 2 elab_r", "4 d _ 2 list_m", "5 e _ 2 list_m")
    root = loads_rsd(text).root
    # right side nearest first: 3 (S), then 4 and 5 share one multinuclear node, then 1
    assert root.pattern() == "SN" and root.children[1].span == (2, 5)
    assert root.children[1].pattern() == "NNN" and root.children[1].children[0].pattern() == "NS"
    assert [c.relation for c in root.children[1].children] == ["list"] * 3
    with_heights = rsd("1 a 0 2 elab_r", "2 b 0 0 ROOT", "3 c 0 2 elab_r", "4 d 1 2 list_m", "5 e 1 2 list_m")
    annotated = loads_rsd(with_heights).root
    assert annotated.pattern() == "NNN" and annotated.children[0].pattern() == "SNS"
    assert loads_rsd(with_heights, heights=False).root == root


def test_sentences_and_paragraphs_from_features():
    rows = [("1", "sid=1|heading=heading"), ("2", "sid=2|para=para"), ("3", "sid=2"), ("4", "sid=3|heading=head"),
            ("5", "sid=4|item=item"), ("6", "sid=4|parent_posNN")]
    lines = [f"{i}\tt{i}\t0\t_\t_\t{feats}\t{0 if i == '1' else 1}\t{'ROOT' if i == '1' else 'joint-list_m'}\t_\t_"
             for i, feats in rows]
    tree = loads_rsd("\n".join(lines))
    assert [e.sentence for e in tree.edus] == [1, 2, 2, 3, 4, 4]
    assert [e.paragraph for e in tree.edus] == [1, 2, 2, 3, 4, 4]
    plain = loads_rsd(RUNNING_RSD)
    assert all(e.sentence is None and e.paragraph is None for e in plain.edus)


def test_original_columns_are_written_back():
    text = RUNNING_RSD.replace("0\t_\t_\t_\t0\tROOT\t_\t_", "0\t_\t_\tsid=1|x=y\t0\tROOT\t2:elab:0:0:_\tdm-and-3-gold")
    tree = loads_rsd(text)
    assert tree.extra["rsd_columns"][1] == ("_", "_", "sid=1|x=y", "2:elab:0:0:_", "dm-and-3-gold")
    assert dumps_rsd(tree) == text


# -- errors --------------------------------------------------------------------------------
@pytest.mark.parametrize("text, error, line, words", [
    ("1\ta\t0\t_\t_\t_\t0\tROOT\t_\n", FormatError, 1, "10 tab-separated"),
    (rsd("1 a 0 0 ROOT", "3 b 0 1 elab_r"), FormatError, 2, "where 2 was expected"),
    (rsd("1 a 0 0 ROOT", "2 b 0 7 elab_r"), FormatError, 2, "head 7"),
    (rsd("1 a 0 0 ROOT", "2 b 0 1 elab"), FormatError, 2, "_r (satellite) or _m"),
    (rsd("1 a 0 0 ROOT", "2 b 0 1 ROOT"), FormatError, 2, "only the root"),
    (rsd("1 a 0 0 elab_r", "2 b 0 1 elab_r"), FormatError, 1, "only the root"),
    (rsd("1 a 0 0 ROOT", "2 b x 1 elab_r"), FormatError, 2, "not a number"),
    (rsd("1 a 0 0 ROOT", "2 b _ 1 elab_r"), FormatError, 2, "'_' here"),
    (rsd("1 a 0 0 ROOT", "2 b 0 0 ROOT"), TreeStructureError, 2, "one root EDU"),
    (rsd("1 a 0 0 ROOT", "2 b 0 3 elab_r", "3 c 0 2 elab_r"), TreeStructureError, 2, "cycle: 2 -> 3 -> 2"),
    (rsd("1 a 0 0 ROOT", "2 b 0 4 elab_r", "3 c 0 1 elab_r", "4 d 1 1 elab_r"), TreeStructureError, 4,
     "non-projective"),
    ("# only a comment\n\n", FormatError, None, "no EDU lines"),
])
def test_errors_name_the_line(text, error, line, words):
    with pytest.raises(error) as info:
        loads_rsd(text, "doc.rsd")
    assert words in info.value.message
    assert info.value.path == "doc.rsd" and info.value.line == line


def test_from_dependencies_rejects_bad_graphs():
    edus = (EDU(1, "a"), EDU(2, "b"))
    graph = nx.DiGraph()
    graph.add_nodes_from([0, 1, 2])
    graph.add_edge(0, 1, relation=None, nuclearity=None, height=0)
    with pytest.raises(TreeStructureError, match="EDU 2 has 0 heads"):
        from_dependencies(graph, edus)
    graph.add_node(5)
    with pytest.raises(TreeStructureError, match="nodes must be 0..2"):
        from_dependencies(graph, edus)


# -- properties ------------------------------------------------------------------------------
@st.composite
def trees_with_layout(draw, patterns: str = "any") -> RSTTree:
    """Random trees whose EDUs carry sentence and paragraph indices (or none of them)."""
    tree = draw(rst_trees(max_edus=14, patterns=patterns, with_text=True))
    steps = draw(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=tree.n_edus, max_size=tree.n_edus))
    with_layout = draw(st.booleans())
    edus, sentence, paragraph = [], 1, 1
    for edu, (new_sentence, new_paragraph) in zip(tree.edus, steps):
        if edu.index > 1:
            sentence += new_sentence or new_paragraph
            paragraph += new_paragraph
        edus.append(EDU(edu.index, edu.text, sentence if with_layout else None, paragraph if with_layout else None))
    return RSTTree(tree.root, tuple(edus))


@st.composite
def relabelled_nuclei(draw) -> RSTTree:
    """Random trees where nuclei may carry labels the dependency view does not keep."""
    tree = draw(trees_with_layout())

    def relabel(node: Node) -> Node:
        children = tuple(relabel(c) for c in node.children)
        if node.nuclearity == NUCLEUS and draw(st.integers(0, 3)) == 0:
            node = replace(node, relation=draw(st.sampled_from(["List", "Sequence", SPAN, "odd"])))
        return replace(node, children=children)

    return replace(tree, root=relabel(tree.root))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees_with_layout())
def test_write_then_read_is_the_identity(tree):
    """Trees in rel2par's usual labelling (uniform multinuclear labels, span nuclei) come back whole,
    sentence and paragraph indices included."""
    assert rsd_normal_form(tree) == tree
    assert loads_rsd(dumps_rsd(tree)) == tree


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(relabelled_nuclei())
def test_write_then_read_gives_the_normal_form(tree):
    back = loads_rsd(dumps_rsd(tree))
    assert back == rsd_normal_form(tree)
    assert rsd_normal_form(back) == back
    assert [(n.span, n.nuclearity) for n in back.nodes()] == [(n.span, n.nuclearity) for n in tree.nodes()]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees_with_layout())
def test_dependency_view_is_an_arborescence_and_inverts(tree):
    graph = to_dependencies(tree)
    assert nx.is_arborescence(graph) and graph.number_of_edges() == tree.n_edus
    assert next(graph.successors(VIRTUAL_ROOT)) in range(1, tree.n_edus + 1)
    assert from_dependencies(graph, tree.edus) == tree


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees_with_layout())
def test_fallback_without_heights_is_a_fixed_point(tree):
    """Without heights the arcs are kept and the guessed tree reads back unchanged."""
    guessed = loads_rsd(dumps_rsd(tree), heights=False)
    arcs = {(h, d, a["relation"], a["nuclearity"]) for h, d, a in to_dependencies(tree).edges(data=True)}
    assert {(h, d, a["relation"], a["nuclearity"]) for h, d, a in to_dependencies(guessed).edges(data=True)} == arcs
    assert loads_rsd(dumps_rsd(guessed), heights=False) == guessed


def test_read_through_the_corpus_api_with_the_heights_option(tmp_path):
    path = tmp_path / "doc.rsd"
    path.write_text(rsd("1 a 0 2 elab_r", "2 b 0 0 ROOT", "3 c 1 2 elab_r"), encoding="utf-8")
    assert read_tree(path).root.pattern() == "NS" and read_tree(path).root.children[0].span == (1, 2)
    guessed = read_tree(path, heights=False).root
    assert guessed.pattern() == "SN" and guessed.children[1].span == (2, 3)


def test_registration_and_sniffing():
    fmt = get_format("rsd")
    assert fmt.extensions == (".rsd",) and fmt.write is dumps_rsd and fmt.options == ("heights", "encoding")
    assert fmt.sniff("# comment\n" + RUNNING_RSD)
    assert not fmt.sniff(RUNNING_DIS) and not fmt.sniff("<rst></rst>")


def test_reader_options_are_keyword_only():
    """Issue 13: ``path`` may be positional; doc_id, lenient and heights only by name."""
    with pytest.raises(TypeError):
        loads_rsd(RUNNING_RSD, "d.rsd", "doc")  # type: ignore[misc]
    with pytest.raises(TypeError):
        get_format("rsd").read("d.rsd", False)
    assert loads_rsd(RUNNING_RSD, "d.rsd", doc_id="doc").doc_id == "doc"
