"""The rs3/rs4 and .rsd readers on hand-written files, against trees stated by hand.

Every expectation here was worked out on paper from ../shared/docs/parser-formats.md (B2, B4) and
the rules rstkit/formats/rs3.py and rsd.py document (tests/data/formats/README.md says how for the
fixture files): nodes in pre-order as ``(start, end, nuclearity, relation, line)``, EDUs as
``(index, text, sentence, paragraph)``, extras, or the error's type and line. Both front ends of
each reader are exercised: the fast ones take the fixture files as written; a comment (rs3) or a
comment line (.rsd) sends the same text through the fallback, which must give the same reading.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import replace
from pathlib import Path

import pytest

from rstkit.errors import FormatError, RSTKitWarning, TreeStructureError
from rstkit.formats import _rs3_scan, read_text, rsd
from rstkit.formats.rs3 import loads_rs3
from rstkit.formats.rsd import loads_rsd
from rstkit.tree import ERST, SecondaryEdge, Signal, validate

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"


def nodes(tree) -> list[tuple]:
    validate(tree)
    return [(n.start, n.end, n.nuclearity, n.relation, n.line) for n in tree.nodes()]


def edus(tree) -> list[tuple]:
    return [(e.index, e.text, e.sentence, e.paragraph) for e in tree.edus]


def shifted(expected: list[tuple], by: int) -> list[tuple]:
    return [(*node[:4], node[4] + by) for node in expected]


# -- rs3 ----------------------------------------------------------------------------------------
ROLES_TREE = [
    (1, 12, "Root", None, 14),       # g-top: span child g-a, satellite g-b
    (1, 7, "N", "span", 18),         # g-a: S N S (s1, s2's node, g-list), one flat node
    (1, 1, "S", "cause", 15),
    (2, 3, "N", "span", 16),         # s2 with its satellite s3
    (2, 2, "N", "span", 16),
    (3, 3, "S", "elab", 17),
    (4, 7, "S", "elab", 22),         # g-list: its satellite s7 makes a span node over the multinuc node
    (4, 6, "N", "span", 22),
    (4, 4, "N", "list", 19),
    (5, 5, "N", "list", 20),
    (6, 6, "N", "list", 21),
    (7, 7, "S", "contrast", 23),     # both types, alone, the group has 3 nuclei: a satellite
    (8, 12, "S", "elab", 27),        # g-b: span child g-c, satellite s10
    (8, 9, "N", "span", 26),         # g-c (typed span by mistake): contrast twice, nuclei
    (8, 8, "N", "contrast", 24),
    (9, 9, "N", "contrast", 25),
    (10, 12, "S", "contrast", 28),   # both types beside a span child: a satellite; s10 with satellite g-d
    (10, 10, "N", "span", 28),
    (11, 12, "S", "elab", 31),       # g-d: list and contrast (both types, one nucleus so far): nuclei
    (11, 11, "N", "list", 29),
    (12, 12, "N", "contrast", 30),
]
ROLES_TEXTS = ["Because it rained ,", "the match was put off", "until Sunday & Monday .", "Tickets stay valid ,",
               "refunds are possible ,", "and fans can swap seats ,", "though few will .", "Some fans complained ;",
               "others did not .", "Yet the ground is dry ,", "the sun is out", "and nobody minds ."]


def test_rs3_attachments_give_the_tree_worked_out_by_hand():
    text = read_text(DATA / "spec_roles.rs3")
    tree = loads_rs3(text, "x/spec_roles.rs3")
    assert nodes(tree) == ROLES_TREE
    assert edus(tree) == [(i, t, None, None) for i, t in enumerate(ROLES_TEXTS, 1)]  # rs3 has no layout
    assert tree.doc_id == "spec_roles" and tree.extra == {}


def test_rs3_fallback_reads_the_same_tree():
    text = read_text(DATA / "spec_roles.rs3")
    # the two lines before <rst> (declaration, comment) and the markup in s2 leave this file to the XML
    # parser; without them the scanner takes it, every line two up
    plain = text.replace("<i>put off</i>", "put off").split("\n", 2)[2]
    assert _rs3_scan.scan(text) is None and _rs3_scan.scan(plain) is not None
    assert nodes(loads_rs3(plain)) == shifted(ROLES_TREE, -2) and edus(loads_rs3(plain)) == edus(loads_rs3(text))
    head, body = text.split("<body>")
    one_line = head + "<body>" + body.replace("\n\t\t<", " <")  # body on one line: every element's line is 13
    assert nodes(loads_rs3(one_line)) == [(*node[:4], 13) for node in ROLES_TREE]


EXTRAS_TREE = [(1, 3, "Root", None, 16), (1, 1, "N", "span", 13), (2, 3, "S", "elab", 17),
               (2, 2, "N", "joint", 14), (3, 3, "N", "joint", 15)]
#: by hand from spec_extras.rs4: segment 3 is EDU 3, segment 1 EDU 1, group 5 (joint of 2 and 3) spans 2-3,
#: group 4 (span 1 with satellite 5) 1-3, segment 2 EDU 2; the signal of "3-1" is the first edge's
EDGE_3_1 = SecondaryEdge((3, 3), (1, 1), "elab")
EXTRAS = ERST((EDGE_3_1, SecondaryEdge((2, 3), (1, 3), "elab")),
              (Signal((2, 3), "graphical", "colon", (3,)), Signal((2, 2), "dm", "dm", (), "gold"),
               Signal(EDGE_3_1, "dm", "dm", (4,))),
              (("dm", ("dm",)), ("graphical", ("colon", "layout"))))

@pytest.mark.parametrize("front", ["scanner", "xml"])
def test_rs4_extras_name_the_spans_of_their_nodes(front):
    text = read_text(DATA / "spec_extras.rs4")
    if front == "xml":
        text = text.replace("<body>", "<body><!-- to the XML parser -->")
    assert (_rs3_scan.scan(text) is not None) == (front == "scanner")
    tree = loads_rs3(text)
    assert nodes(tree) == EXTRAS_TREE
    assert edus(tree) == [(1, "Pack light :", None, None), (2, "a coat", None, None), (3, "and boots .", None, None)]
    assert tree.erst == EXTRAS and tree.extra == {}


INTERLEAVED = """<rst>
<header><relations><rel name="elab" type="rst"/></relations></header>
<body>
  <segment id="1" parent="3" relname="span">A</segment>
  <group id="3" type="span"/>\t
  <segment id="2" parent="3" relname="elab">B &amp; ]]</segment>
<secedges>  <secedge id="a" source="2" target="1" relname="elab"/><secedge id="b" source="1" target="2" relname="elab"/>
</secedges><signals><signal source="2" type="dm" subtype="dm" tokens="1"/>

<signal source="3" type="x" subtype="y" tokens="" status="gold"/></signals>
</body></rst>"""
#: worked out by hand: group 3 (line 5) spans EDUs 1-2
INTERLEAVED_TREE = [(1, 2, "Root", None, 5), (1, 1, "N", "span", 4), (2, 2, "S", "elab", 6)]
#: by hand: edge "a" joins EDU 2 to EDU 1 and "b" EDU 1 to EDU 2; group 3 spans EDUs 1-2; no <sigtypes>
INTERLEAVED_EXTRAS = ERST((SecondaryEdge((2, 2), (1, 1), "elab"), SecondaryEdge((1, 1), (2, 2), "elab")),
                          (Signal((2, 2), "dm", "dm", (1,)), Signal((1, 2), "x", "y", (), "gold")))


def test_scanner_takes_interleaved_elements_and_free_spacing_between_rs4_elements():
    markup = _rs3_scan.scan(INTERLEAVED)
    assert markup is not None
    assert markup.body[0] == [True, False, True] and markup.body[5] == [4, 5, 6]
    tree = loads_rs3(INTERLEAVED)
    assert nodes(tree) == INTERLEAVED_TREE
    assert [e.text for e in tree.edus] == ["A", "B & ]]"]
    assert tree.erst == INTERLEAVED_EXTRAS


def _tab_in_type(extras: ERST) -> ERST:
    """XML reads a tab in an attribute value as a space (the edit put one in the first signal's type and
    subtype)."""
    first = replace(extras.signals[0], type="d m", subtype="d m")
    return replace(extras, signals=(first, *extras.signals[1:]))


@pytest.mark.parametrize("edit, tree, extras", [
    (("<body>\n", "<body>\n\n"), shifted(INTERLEAVED_TREE, 1), INTERLEAVED_EXTRAS),  # a blank line: all one down
    (("\t\n", "\t\n\n"), [(1, 2, "Root", None, 5), (1, 1, "N", "span", 4), (2, 2, "S", "elab", 7)],
     INTERLEAVED_EXTRAS),
    (('\t\n  <segment id="2"', ' <segment id="2"'),  # segment 2 shares the group's line
     [(1, 2, "Root", None, 5), (1, 1, "N", "span", 4), (2, 2, "S", "elab", 5)], INTERLEAVED_EXTRAS),
    (("]]</segment>", "]]></segment>"), (FormatError, 6), None),  # ]]> is not allowed in XML text
    (('tokens="1"/>', 'tokens="1"/>x'), INTERLEAVED_TREE, INTERLEAVED_EXTRAS),  # stray text is not an element
    (("</signals>", "</signals>\r"), INTERLEAVED_TREE, INTERLEAVED_EXTRAS),
    (('"dm"', '"d\tm"'), INTERLEAVED_TREE, _tab_in_type(INTERLEAVED_EXTRAS)),
])
def test_scanner_leaves_other_layouts_to_the_xml_parser(edit, tree, extras):
    text = INTERLEAVED.replace(*edit)
    assert text != INTERLEAVED and _rs3_scan.scan(text) is None
    if extras is None:
        with pytest.raises(tree[0]) as info:
            loads_rs3(text, "doc.rs3")
        assert (info.value.path, info.value.line) == ("doc.rs3", tree[1])
        return
    read = loads_rs3(text)
    assert nodes(read) == tree and read.erst == extras


def rs3(body: str, relations: str = '<rel name="elab" type="rst"/><rel name="list" type="multinuc"/>') -> str:
    """Body lines start on line 4."""
    return f"<rst>\n<header><relations>{relations}</relations></header>\n<body>\n{body}\n</body>\n</rst>\n"


@pytest.mark.parametrize("text, error, line", [
    ("<rst>\n<header/>\n</rst>\n", FormatError, 1),  # no body
    (rs3('<segment id="1">a</segment>', '<rel name="elab"/>'), FormatError, None),  # a relation without type
    (rs3('<segment id="1">a</segment>\n<segment id="2" parent="1">b</segment>'), FormatError, 5),  # no relname
    (rs3('<segment id="1">a</segment>\n<segment parent="1" relname="elab">b</segment>'), FormatError, None),  # id
    (rs3('<group id="3" type="span" parent="7" relname="span"/>\n<segment id="1" parent="3" relname="span">a'
         '</segment>'), FormatError, 4),  # a group's parent does not exist
    (rs3('<group id="9" type="span"/>\n<segment id="1" parent="9" relname="span">a</segment>\n'
         '<segment id="2" parent="9" relname="elab">b</segment>\n<segment id="3">c</segment>'),
     TreeStructureError, 7),  # a second top node, named at its line
    (rs3('<segment id="1" parent="9" relname="list">a</segment>\n<segment id="2" parent="9" relname="elab">b'
         '</segment>\n<segment id="3" parent="9" relname="list">c</segment>\n<group id="9" type="multinuc"/>'),
     TreeStructureError, 7),  # a satellite between the nuclei of one group
    (rs3('<segment id="1" parent="3" relname="span">a</segment>\n<segment id="2" parent="1" relname="elab">b'
         '</segment>\n<segment id="4" parent="2" relname="gloss">c</segment>\n<group id="3" type="span"/>'),
     FormatError, 6),  # an undeclared name on a deeper node
])
def test_rs3_errors_name_file_and_line(text, error, line):
    for variant in (text, text.replace("<body>", "<body><!-- to the XML parser -->")):
        with pytest.raises(error) as info:
            loads_rs3(variant, "doc.rs3")
        assert (info.value.path, info.value.line) == ("doc.rs3", line)


def test_lenient_reading_guesses_undeclared_names_with_one_warning_each_naming_its_line():
    text = rs3('<segment id="1" parent="9" relname="seq">a</segment>\n<segment id="2" parent="9" relname="seq">b'
               '</segment>\n<segment id="3" parent="9" relname="note">c</segment>\n<group id="9" type="span"/>', "")
    with pytest.raises(FormatError):
        loads_rs3(text, "doc.rs3")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tree = loads_rs3(text, "doc.rs3", lenient=True)
    # both names guessed: seq twice among the children of 9 (nuclei), note alone beside two nuclei (satellite)
    assert nodes(tree) == [(1, 3, "Root", None, 7), (1, 2, "N", "span", 7), (1, 1, "N", "seq", 4),
                           (2, 2, "N", "seq", 5), (3, 3, "S", "note", 6)]
    messages = {str(w.message) for w in caught if issubclass(w.category, RSTKitWarning)}
    assert {re.sub(r":\d+:", ":L:", m) for m in messages} == {
        f"doc.rs3:L: relname '{name}' is not declared in <header><relations>; its type is guessed from the "
        "structure (lenient)" for name in ("note", "seq")}
    lines = {m.split("'")[1]: int(m.split(":")[1]) for m in messages}  # each at a line where the name is used
    assert lines["note"] == 6 and lines["seq"] in (4, 5)


def test_a_span_child_makes_every_other_child_a_satellite():
    """parser-formats.md B2, quirks: a group with a span child is a span group, its other children
    satellites, even those whose name is declared multinuc."""
    text = rs3('<segment id="1" parent="3" relname="span">a</segment>\n<segment id="2" parent="3" relname="list">b'
               '</segment>\n<segment id="4" parent="3" relname="list">c</segment>\n<group id="3" type="multinuc"/>')
    for variant in (text, text.replace("<body>", "<body><!-- to the XML parser -->")):
        assert nodes(loads_rs3(variant)) == [(1, 3, "Root", None, 7), (1, 1, "N", "span", 4), (2, 2, "S", "list", 5),
                                             (3, 3, "S", "list", 6)]


# -- rsd ----------------------------------------------------------------------------------------
LAYOUT_TREE = [  # heights: EDU 2 takes 3 and 4 at height 0, 1 at height 1, 7 at height 2
    (1, 7, "Root", None, 2),
    (1, 5, "N", "span", 2),
    (1, 1, "S", "background", 1),
    (2, 5, "N", "span", 2),
    (2, 2, "N", "joint", 2),
    (3, 3, "N", "joint", 3),
    (4, 5, "N", "joint", 4),
    (4, 4, "N", "span", 4),
    (5, 5, "S", "elab", 5),
    (6, 7, "S", "elab", 7),
    (6, 6, "S", "cause", 6),
    (7, 7, "N", "span", 7),
]
LAYOUT_GUESSED = [  # no heights: 3 and 4 (one multinuclear level), then 7, then 1 on the left
    (1, 7, "Root", None, 2),
    (1, 1, "S", "background", 1),
    (2, 7, "N", "span", 2),
    (2, 5, "N", "span", 2),
    (2, 2, "N", "joint", 2),
    (3, 3, "N", "joint", 3),
    (4, 5, "N", "joint", 4),
    (4, 4, "N", "span", 4),
    (5, 5, "S", "elab", 5),
    (6, 7, "S", "elab", 7),
    (6, 6, "S", "cause", 6),
    (7, 7, "N", "span", 7),
]
LAYOUT_EDUS = [(1, "Before the trip ,", 1, 1), (2, "we packed", 1, 1), (3, "we locked up", 2, 2),
               (4, "and we left", 3, 2), (5, "at dawn .", 3, 3), (6, "Since it was late ,", 5, 4),
               (7, "we took a cab .", 6, 4)]
LAYOUT_COLUMNS = (("_", "_", "sid=1|para=para", "_", "_"), ("_", "_", "sid=1", "_", "_"),
                  ("_", "_", "sid=2|heading=heading", "_", "dm-and-3-gold"),
                  ("_", "_", "sid=3|x=1|heading=head", "_", "_"), ("_", "_", "sid=3|pos1=JJ", "_", "_"),
                  ("_", "_", "sid=4|item=item|sid=5", "7:cause:0:0:_", "_"), ("_", "_", "sid=6|parent_posNN", "_", "_"))


@pytest.mark.parametrize("heights, expected", [(True, LAYOUT_TREE), (False, LAYOUT_GUESSED)])
@pytest.mark.parametrize("front", ["plain", "comments", "crlf"])
def test_rsd_gives_the_tree_edus_and_columns_worked_out_by_hand(front, heights, expected):
    text = read_text(DATA / "spec_layout.rsd")
    shift = 0
    if front == "comments":  # the graph path; lines count the comment and the blank line
        text, shift = "# a comment\n\n" + text.replace("\n3\t", "\n# another\n3\t"), 2
        expected = [(*node[:4], node[4] + shift + (node[4] >= 3)) for node in expected]
    elif front == "crlf":
        text = text.replace("\n", "\r\n")
    assert (rsd._read_plain(text, "", "", heights) is not None) == (front == "plain")
    tree = loads_rsd(text, "x/spec_layout.rsd", heights=heights)
    assert nodes(tree) == expected
    assert edus(tree) == LAYOUT_EDUS
    assert tree.extra == {"rsd_columns": LAYOUT_COLUMNS} and tree.doc_id == "spec_layout"


def test_rsd_without_any_layout_mark_has_no_paragraphs_and_sid_is_a_number():
    text = "1\ta\t0\t_\t_\tsid=1|x=para\t0\tROOT\t_\t_\n2\tb\t0\t_\t_\t_\t1\telab_r\t_\t_\n"
    assert edus(loads_rsd(text)) == [(1, "a", 1, None), (2, "b", None, None)]
    with pytest.raises(FormatError) as info:
        loads_rsd("# c\n" + text.replace("sid=1", "sid=one"), "doc.rsd")
    assert (info.value.path, info.value.line) == ("doc.rsd", 2)


@pytest.mark.parametrize("rows, error, line", [
    (["1\ta\t0\t_\t_\t_\t2\telab_r\t_\t_", "2\tb\t0\t_\t_\t_\t1\telab_r\t_\t_"], TreeStructureError, None),  # no root
    (["1\ta\t0\t_\t_\t_\t0\tROOT\t_\t_", "", "2\tb\t0\t_\t_\t_\t1\telab\t_\t_"], FormatError, 3),
    (["# c", "1\ta\t0\t_\t_\t_\t0\tROOT\t_\t_", "2\tb\t0\t_\t_\t_\t3\telab_r\t_\t_",
      "3\tc\t0\t_\t_\t_\t2\telab_r\t_\t_"], TreeStructureError, {3, 4}),  # a cycle, named at one of its EDUs
])
def test_rsd_errors_name_the_file_line(rows, error, line):
    with pytest.raises(error) as info:
        loads_rsd("\n".join(rows) + "\n", "doc.rsd")
    assert info.value.path == "doc.rsd"
    assert info.value.line in line if isinstance(line, set) else info.value.line == line

