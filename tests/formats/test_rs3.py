"""rstWeb XML (.rs3/.rs4): reading parent links into rel2par trees, writing, errors."""
from __future__ import annotations

import warnings

import pytest
from hypothesis import HealthCheck, given, settings

from rstkit.corpus import format_for_path
from rstkit.errors import FormatError, RSTKitWarning, TreeStructureError
from rstkit.formats import get_format
from rstkit.formats.dis import loads_dis
from rstkit.formats.rs3 import (
    MULTI_ROLE,
    SAT_ROLE,
    SPAN_ROLE,
    child_roles,
    dumps_rs3,
    loads_rs3,
    read_rs3,
    rs3_normal_form,
)
from rstkit.tree import EDU, Node, RSTTree, SecondaryEdge, Signal
from tests.support.strategies import rst_trees

RUNNING_DIS = """( Root (span 1 4)
  ( Nucleus (span 1 3) (rel2par span)
    ( Satellite (leaf 1) (rel2par attribution) (text _!Analysts said_!) )
    ( Nucleus (span 2 3) (rel2par span)
      ( Nucleus (leaf 2) (rel2par Contrast) (text _!the market would rise ,_!) )
      ( Nucleus (leaf 3) (rel2par Contrast) (text _!but it "fell" ( sharply ) ._!) ) ) )
  ( Satellite (leaf 4) (rel2par elaboration-additional) (text _!Traders blamed rates ._!) ) )
"""

# docs/formats.md#rs3: satellites point to a multinuc group (7) and to a span group (6)
RUNNING_RS3 = """<rst>
	<header>
		<relations>
			<rel name="Contrast" type="multinuc"/>
			<rel name="attribution" type="rst"/>
			<rel name="elaboration-additional" type="rst"/>
		</relations>
	</header>
	<body>
		<segment id="1" parent="7" relname="attribution">Analysts said</segment>
		<segment id="2" parent="7" relname="Contrast">the market would rise ,</segment>
		<segment id="3" parent="7" relname="Contrast">but it "fell" ( sharply ) .</segment>
		<segment id="4" parent="6" relname="elaboration-additional">Traders blamed rates .</segment>
		<group id="5" type="span"/>
		<group id="6" type="span" parent="5" relname="span"/>
		<group id="7" type="multinuc" parent="6" relname="span"/>
	</body>
</rst>
"""


def running_tree() -> RSTTree:
    return loads_dis(RUNNING_DIS)


def rs3(body: str, relations: str = '<rel name="elab" type="rst"/><rel name="list" type="multinuc"/>') -> str:
    return f"<rst>\n<header><relations>{relations}</relations></header>\n<body>\n{body}\n</body>\n</rst>\n"


def test_running_example_reads_as_the_dis_tree():
    tree = loads_rs3(RUNNING_RS3, "x/wsj_9999.rs3")
    assert tree.root == running_tree().root
    assert tree.edu_texts() == running_tree().edu_texts()
    assert tree.doc_id == "wsj_9999"
    assert all(e.sentence is None and e.paragraph is None for e in tree.edus)


def test_satellites_of_segments_and_of_nucleus_nodes_nest():
    # GUM style: 2 elaborates segment 1, and group 5 (1-2) is elaborated by 3
    text = rs3('<segment id="1" parent="5" relname="span">a</segment>'
               '<segment id="2" parent="1" relname="elab">b</segment>'
               '<segment id="3" parent="5" relname="elab">c</segment>'
               '<group id="5" type="span"/>')
    root = loads_rs3(text).root
    assert root.pattern() == "NS"
    assert root.children[0].span == (1, 2) and root.children[0].pattern() == "NS"
    assert root.children[0].relation == "span" and root.children[1].relation == "elab"


def test_satellites_on_both_sides_give_one_flat_node_and_unary_groups_vanish():
    text = rs3('<segment id="1" parent="2" relname="elab">a</segment>'
               '<segment id="2" parent="10" relname="span">b</segment>'
               '<segment id="3" parent="2" relname="elab">c</segment>'
               '<group id="10" type="span" parent="11" relname="span"/><group id="11" type="span"/>')
    root = loads_rs3(text).root
    assert root.pattern() == "SNS" and [c.relation for c in root.children] == ["elab", "span", "elab"]


def test_isanlp_style_ids_out_of_order_and_satellite_of_multinuc():
    # docs/formats.md#isanlp: group ids not in document order, root group last
    text = """<rst><header><relations>
        <rel name="antithesis" type="multinuc" /><rel name="attribution" type="rst" />
        <rel name="Contrast" type="multinuc" /><rel name="elaboration-additional" type="rst" />
        </relations></header><body>
        <segment id="1" parent="5" relname="attribution">Analysts said</segment>
        <segment id="2" parent="5" relname="Contrast">the market would rise ,</segment>
        <segment id="3" parent="5" relname="Contrast">but it "fell" ( sharply ) .</segment>
        <segment id="4" parent="6" relname="elaboration-additional">Traders blamed rates .</segment>
        <group id="6" type="span" parent="7" relname="span"/>
        <group id="5" type="multinuc" parent="6" relname="span"/>
        <group id="7" type="span"/></body></rst>"""
    assert loads_rs3(text).root == running_tree().root


def test_names_declared_with_both_types_are_decided_per_child():
    relations = '<rel name="contrast" type="rst"/><rel name="contrast" type="multinuc"/>'
    text = rs3('<segment id="1" parent="10" relname="contrast">a</segment>'
               '<segment id="2" parent="10" relname="contrast">b</segment>'
               '<segment id="3" parent="11" relname="contrast">c</segment>'
               '<group id="10" type="multinuc" parent="11" relname="span"/><group id="11" type="span"/>', relations)
    root = loads_rs3(text).root
    assert root.pattern() == "NS" and root.children[1].relation == "contrast"
    assert root.children[0].pattern() == "NN" and {c.relation for c in root.children[0].children} == {"contrast"}


def test_child_roles():
    types = {"elab": {"rst"}, "list": {"multinuc"}, "both": {"rst", "multinuc"}}
    assert child_roles(False, ["span", "elab", "both"], types) == [SPAN_ROLE, SAT_ROLE, SAT_ROLE]
    assert child_roles(False, ["list", "list", "elab"], types) == [MULTI_ROLE, MULTI_ROLE, SAT_ROLE]
    assert child_roles(False, ["both", "both", "both"], types) == [MULTI_ROLE] * 3
    assert child_roles(False, ["list", "both"], types) == [MULTI_ROLE, MULTI_ROLE]
    assert child_roles(False, ["list", "list", "both"], types) == [MULTI_ROLE, MULTI_ROLE, SAT_ROLE]
    assert child_roles(True, ["both", "both"], types) == [SAT_ROLE, SAT_ROLE]


def test_one_segment_document():
    tree = loads_rs3(rs3('<segment id="1">Hello .</segment>'))
    assert tree.n_edus == 1 and tree.root.is_leaf and tree.root.nuclearity == "Root"
    assert loads_rs3(dumps_rs3(tree)) == tree


def test_text_is_unescaped_and_escaped_again():
    tree = loads_rs3(rs3('<segment id="1">A &amp; B &lt;i&gt; "q"</segment>'))
    assert tree.edus[0].text == 'A & B <i> "q"'
    assert 'A &amp; B &lt;i&gt; "q"' in dumps_rs3(tree)


RS4 = """<rst><header><relations><rel name="elab" type="rst"/><rel name="list" type="multinuc"/></relations>
<sigtypes><sig type="dm" subtypes="dm"/><sig type="graphical" subtypes="colon;layout"/></sigtypes></header>
<body>
<segment id="1" parent="4" relname="span">a</segment>
<segment id="2" parent="5" relname="list">b</segment>
<segment id="3" parent="5" relname="list">c</segment>
<group id="4" type="span"/>
<group id="5" type="multinuc" parent="4" relname="elab"/>
<secedges><secedge id="3-1" source="3" target="1" relname="elab"/></secedges>
<signals><signal source="5" type="dm" subtype="dm" tokens="2"/>
<signal source="3-1" type="graphical" subtype="colon" tokens=""/></signals>
</body></rst>"""


def test_rs4_secondary_edges_and_signals_are_kept_outside_the_tree():
    tree = loads_rs3(RS4)
    assert tree.root.pattern() == "NS"
    # by hand: segment 3 is EDU 3, segment 1 EDU 1, group 5 (the list of 2 and 3) spans 2-3
    edge = SecondaryEdge((3, 3), (1, 1), "elab")
    assert tree.erst.secondary_edges == (edge,)
    assert tree.erst.signals == (Signal((2, 3), "dm", "dm", (2,)), Signal(edge, "graphical", "colon", ()))
    assert tree.erst.signal_types == (("dm", ("dm",)), ("graphical", ("colon", "layout")))
    assert tree.extra == {} and loads_rs3(RUNNING_RS3).erst.is_empty()


# -- errors --------------------------------------------------------------------------------
@pytest.mark.parametrize("body, error, line, words", [
    ('<segment id="1">a</segment>\n<segment id="2" parent="9" relname="elab">b</segment>',
     FormatError, 5, "does not exist"),
    ('<segment id="1" parent="2" relname="elab">a</segment>\n<segment id="2" parent="1" relname="elab">b</segment>',
     TreeStructureError, 4, "cycle"),
    ('<segment id="1">a</segment>\n<segment id="2" parent="1" relname="foo">b</segment>',
     FormatError, 5, "'foo' is not declared"),
    ('<segment id="1">a</segment>\n<segment id="2">b</segment>', TreeStructureError, 5, "one top node"),
    ('<segment id="1">a</segment>\n<segment id="1" parent="1" relname="elab">b</segment>', FormatError, 5, "twice"),
    ('<segment id="1" parent="2" relname="span">a</segment>\n<segment id="2">b</segment>',
     TreeStructureError, 5, "nucleus children"),
    (('<segment id="1" parent="3" relname="list">a</segment>\n<segment id="2" parent="1" relname="elab">b</segment>\n'
      '<group id="3" type="multinuc"/>'), TreeStructureError, 6, "single nucleus"),
    (('<segment id="1" parent="3" relname="span">a</segment>\n<segment id="2" parent="3" relname="span">b</segment>\n'
      '<group id="3" type="span"/>'), TreeStructureError, 6, "2 span children"),
    (('<segment id="1" parent="3" relname="elab">a</segment>\n<segment id="2" parent="3" relname="elab">b</segment>\n'
      '<group id="3" type="span"/>'), TreeStructureError, 6, "no nucleus"),
    (('<segment id="1" parent="4" relname="list">a</segment>\n<segment id="2">b</segment>\n'
      '<segment id="3" parent="4" relname="list">c</segment>\n'
      '<group id="4" type="multinuc" parent="2" relname="elab"/>'),
     TreeStructureError, 7, "non-projective"),
])
def test_structural_errors_name_the_line(body, error, line, words):
    with pytest.raises(error) as info:
        loads_rs3(rs3(body), "doc.rs3")
    assert words in info.value.message
    assert info.value.path == "doc.rs3" and info.value.line == line


def test_malformed_xml_is_a_format_error_with_line():
    text = rs3('<segment id="1">a & b</segment>')
    with pytest.raises(FormatError) as info:
        loads_rs3(text, "bad.rs3")
    assert info.value.line == 4 and "malformed XML" in info.value.message
    with pytest.raises(FormatError, match="expected <rst>"):
        loads_rs3("<html/>")
    with pytest.raises(FormatError, match="no <segment>"):
        loads_rs3("<rst><body/></rst>")


def test_lenient_guesses_undeclared_relations_with_a_warning():
    text = rs3('<segment id="1" parent="3" relname="seq">a</segment><segment id="2" parent="3" relname="seq">b'
               '</segment><group id="3" type="multinuc"/><segment id="4" parent="3" relname="note">c</segment>', "")
    with pytest.warns(RSTKitWarning, match="not declared"):
        tree = loads_rs3(text, lenient=True)
    assert tree.root.pattern() == "NS" and tree.root.children[1].relation == "note"
    assert [c.relation for c in tree.root.children[0].children] == ["seq", "seq"]


# -- writing ---------------------------------------------------------------------------------
def test_writer_round_trips_the_running_example_and_declares_relations():
    text = dumps_rs3(running_tree())
    assert '<rel name="Contrast" type="multinuc"/>' in text and '<rel name="attribution" type="rst"/>' in text
    assert loads_rs3(text) == running_tree()


def test_writer_splits_mixed_nodes_as_rs3_reads_them():
    tree = loads_dis("""( Root (span 1 3)
      ( Satellite (leaf 1) (rel2par elab) (text _!a_!) )
      ( Nucleus (leaf 2) (rel2par list) (text _!b_!) )
      ( Nucleus (leaf 3) (rel2par list) (text _!c_!) ) )""")
    back = loads_rs3(dumps_rs3(tree))
    assert back == rs3_normal_form(tree) != tree
    assert back.root.pattern() == "SN" and back.root.children[1].pattern() == "NN"


def test_writer_refuses_what_rs3_cannot_say():
    satellite_span = loads_dis("""( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!a_!) )
      ( Satellite (leaf 2) (rel2par span) (text _!b_!) ) )""")
    with pytest.raises(TreeStructureError, match="reserves"):
        dumps_rs3(satellite_span)
    ambiguous = loads_dis("""( Root (span 1 5)
      ( Nucleus (span 1 3) (rel2par span)
        ( Nucleus (leaf 1) (rel2par list) (text _!a_!) ) ( Nucleus (leaf 2) (rel2par list) (text _!b_!) )
        ( Nucleus (leaf 3) (rel2par contrast) (text _!c_!) ) )
      ( Satellite (span 4 5) (rel2par contrast)
        ( Nucleus (leaf 4) (rel2par span) (text _!d_!) ) ( Satellite (leaf 5) (rel2par elab) (text _!e_!) ) ) )""")
    with pytest.raises(TreeStructureError, match="unambiguously"):
        dumps_rs3(ambiguous)
    bad_char = RSTTree(Node(1, 1, "Root", None), (EDU(1, "a\ufffeb"),))
    with pytest.raises(FormatError, match="U\\+FFFE"):
        dumps_rs3(bad_char)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rst_trees(max_edus=14, patterns="reference", with_text=True))
def test_write_then_read_is_the_identity(tree):
    """Trees without mixed S N..N nodes (rs3's normal form): write-then-read gives them back."""
    tree = RSTTree(tree.root, tree.edus)
    assert rs3_normal_form(tree) == tree
    assert loads_rs3(dumps_rs3(tree)) == tree


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rst_trees(max_edus=14, patterns="any", with_text=True))
def test_write_then_read_gives_the_normal_form(tree):
    tree = RSTTree(tree.root, tree.edus)
    back = loads_rs3(dumps_rs3(tree))
    assert back == rs3_normal_form(tree)
    assert loads_rs3(dumps_rs3(back)) == back
    assert {(n.start, n.end) for n in tree.nodes()} <= {(n.start, n.end) for n in back.nodes()}


# -- registry -------------------------------------------------------------------------------
def test_registration_and_sniffing():
    rs3_format, rs4_format = get_format("rs3"), get_format("rs4")
    assert rs3_format.read is rs4_format.read and rs3_format.write is rs4_format.write
    assert rs3_format.extensions == (".rs3", ".rs4") and rs4_format.extensions == (".rs4",)
    assert format_for_path("GUM_news_iodine.rs4").read is rs3_format.read
    assert rs3_format.sniff(RUNNING_RS3) and not rs4_format.sniff(RUNNING_RS3)
    assert rs4_format.sniff('<?xml version="1.0"?>\n' + RS4) and not rs3_format.sniff(RS4)
    assert not rs3_format.sniff(RUNNING_DIS)


def test_read_from_file(tmp_path):
    path = tmp_path / "GUM_news_x.rs4"
    path.write_text(RS4, encoding="utf-8")
    [tree] = get_format("rs4").read(path)
    assert tree.doc_id == "GUM_news_x" and tree.source == str(path) and tree.n_edus == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        get_format("rs3").read(path, lenient=True)


def test_reader_options_are_keyword_only():
    """Issue 13: ``path`` may be positional; doc_id and lenient only by name."""
    with pytest.raises(TypeError):
        loads_rs3(RUNNING_RS3, "d.rs3", "doc")  # type: ignore[misc]
    with pytest.raises(TypeError):
        read_rs3("d.rs3", False)  # type: ignore[misc]
    assert loads_rs3(RUNNING_RS3, "d.rs3", doc_id="doc").doc_id == "doc"


def test_a_lone_surrogate_in_a_string_is_a_format_error():
    # a str can hold what no file can: the XML parser fails to encode it; the error names the line
    text = '<rst>\n<body>\n<segment id="1">a\ud800</segment>\n</body>\n</rst>'
    with pytest.raises(FormatError, match=r"doc\.rs3:3: malformed XML: character \\ud800 \(a lone surrogate\)"):
        loads_rs3(text, "doc.rs3")
