"""Text is never silently changed on the way in or out (issue 26, findings 8, 9 and 10): hostile EDU
text is refused by writers that cannot hold it, rs3 segments keep their whole text, and a file that is
not UTF-8 is an error naming the byte unless an encoding is given.

Expected texts are written by hand from the examples of the issue, or built alongside the generated
input (the text a segment's pieces spell), never taken from rstkit's output.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.cli import main
from rstkit.corpus import read_documents, read_file, read_tree
from rstkit.errors import FormatError, LabelError, WriteError
from rstkit.formats import get_format
from rstkit.formats._rs3_scan import scan as _scan
from rstkit.formats._rs3_xml import parse_xml as _parse_xml
from rstkit.formats.dis import dumps_dis, loads_dis
from rstkit.formats.rs3 import loads_rs3
from rstkit.formats.surdeanu_native import dumps_surdeanu_native
from rstkit.tree import Node
from tests.support.expected_warnings import warns_exactly

INJECTION = "_!) ) ( Satellite (leaf 3) (rel2par elaboration) (text _!INJECTED"


def rs3(*segments: str) -> str:
    """An rstWeb file whose segments (XML content as given) hang under the first one as elaborations."""
    body = "\n".join(f'\t\t<segment id="{i}"' + (' parent="1" relname="elaboration"' if i > 1 else "")
                     + f">{content}</segment>" for i, content in enumerate(segments, 1))
    return ("<rst>\n\t<header>\n\t\t<relations>\n\t\t\t<rel name=\"elaboration\" type=\"rst\"/>\n\t\t</relations>\n"
            f"\t</header>\n\t<body>\n{body}\n\t</body>\n</rst>\n")


# -- finding 8: text that would close the tree ----------------------------------------------------
def test_rs3_text_that_closes_a_dis_tree_is_refused_naming_document_and_edu():
    tree = loads_rs3(rs3("Bread is simple.", INJECTION), "in/story.rs3")
    with pytest.raises(WriteError) as info:
        dumps_dis(tree)
    error = info.value
    assert error.path == "in/story.rs3"
    assert "'story'" in error.message and "EDU 2 " in error.message and "'_!)'" in error.message


def test_dis_text_with_a_newline_is_refused_by_surdeanu_native():
    tree = loads_dis("( Root (span 1 2)\n  ( Nucleus (leaf 1) (rel2par span) (text _!one\ntwo_!) )\n"
                     "  ( Satellite (leaf 2) (rel2par elaboration) (text _!three_!) )\n)\n", "d/x.dis")
    assert tree.edus[0].text == "one\ntwo"  # .dis holds it
    with pytest.raises(WriteError, match=r"'x'.*EDU 1 holds '\\n' \(U\+000A\)"):
        dumps_surdeanu_native(tree)


# -- finding 9: rs3 segment text is the element's text content ---------------------------------------
@pytest.mark.parametrize("content, text", [
    ("Making <i>bread</i> at home", "Making bread at home"),
    ("<b>All of it wrapped</b>", "All of it wrapped"),
    ("a <i>b <b>c</b> d</i> e", "a b c d e"),
    ("<i>x &amp; y</i> &lt;z&gt;", "x & y <z>"),
    ("  <i> padded </i>  ", "padded"),
    ("<br/>after an empty element", "after an empty element"),
])
def test_rs3_segment_text_is_the_text_content_markup_stripped(content, text):
    tree = loads_rs3(rs3("First.", content))
    assert tree.edu_texts() == ["First.", text]


_PLAIN = st.text(st.sampled_from("ab \t.,;&<>\"'é"), max_size=6)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.tuples(_PLAIN, st.sampled_from(["", "i", "b"])), max_size=4), min_size=1, max_size=4))
def test_scanner_and_xml_parser_give_the_same_text(segments):
    """Each segment is pieces of text, some wrapped in <i>/<b>: its text is the pieces' text, whichever
    front end reads the file (the scanner takes files without markup, the XML parser any file)."""
    def xml(piece: str) -> str:
        return piece.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

    contents = ["".join(f"<{tag}>{xml(t)}</{tag}>" if tag else xml(t) for t, tag in pieces) for pieces in segments]
    expected = ["".join(t for t, _ in pieces).strip() for pieces in segments]
    text = rs3(*contents)
    assert loads_rs3(text).edu_texts() == expected
    scanned, parsed = _scan(text), _parse_xml(text, "<string>")
    if scanned is not None:  # no markup (and no tab in the text, which it leaves to the parser)
        assert scanned.body[4] == parsed.body[4]
    assert [t.strip() for t, seg in zip(parsed.body[4], parsed.body[0]) if seg] == expected


# -- finding 10: bytes that are not UTF-8 --------------------------------------------------------------
DIS = "( Root (span 1 2)\n  ( Nucleus (leaf 1) (rel2par span) (text _!{}_!) )\n" \
      "  ( Satellite (leaf 2) (rel2par elaboration) (text _!{}_!) )\n)\n"


def stray_byte_file(tmp_path) -> tuple[Path, int]:
    """A UTF-8 .dis ('fléur' on line 2) with one stray 0xff on line 3; the byte's offset."""
    data = DIS.format("fléur", "bad \xff here").encode("utf-8").replace(b"\xc3\xbf", b"\xff")
    path = tmp_path / "stray.dis"
    path.write_bytes(data)
    return path, data.index(b"\xff")


def test_a_stray_byte_in_utf8_is_an_error_naming_file_line_and_offset(tmp_path):
    path, offset = stray_byte_file(tmp_path)
    with pytest.raises(FormatError) as info:
        read_file(path)
    error = info.value
    assert (error.path, error.line) == (str(path), 3)
    assert f"byte 0xff at offset {offset}" in error.message and set(error.fixes) == {"encoding", "lenient"}


def test_a_named_encoding_reads_the_file_as_asked(tmp_path):
    path, _ = stray_byte_file(tmp_path)
    tree = read_tree(path, encoding="latin-1")
    assert tree.edu_texts() == ["flÃ©ur", "bad ÿ here"]  # what those bytes are in Latin-1, asked for


def test_lenient_replaces_the_stray_byte_with_a_warning(tmp_path):
    path, offset = stray_byte_file(tmp_path)
    with warns_exactly({rf"stray\.dis:3: .*offset {offset}.*replaced by U\+FFFD": 1}):
        tree = read_tree(path, lenient=True)
    assert tree.edu_texts() == ["fléur", "bad \ufffd here"]


def test_a_file_without_any_utf8_sequence_is_read_as_latin1(tmp_path):
    """RST-DT's rule: an 8-bit file with no UTF-8 in it is Latin-1 (and isanlp's cp1251 export)."""
    path = tmp_path / "old.dis"
    path.write_bytes(DIS.format("caf\xe9", "na\xefve").encode("latin-1"))
    with warns_exactly({}):
        assert read_tree(path).edu_texts() == ["café", "naïve"]


def test_every_reader_takes_the_encoding_option(tmp_path):
    path = tmp_path / "x.rs3"
    path.write_bytes(rs3("Caf\xe9.", "Thé").encode("cp1252"))
    assert read_tree(path, encoding="cp1252").edu_texts() == ["Café.", "Thé"]
    assert read_tree(path, "isanlp", encoding="cp1252").edu_texts() == ["Café.", "Thé"]
    with pytest.raises(FormatError, match="unknown encoding 'klingon'"):
        read_tree(path, encoding="klingon")
    assert set(read_documents(tmp_path, encoding="cp1252")) == {"x"}


def test_the_command_line_names_the_byte_and_the_option(tmp_path, capsys):
    path, offset = stray_byte_file(tmp_path)
    assert main(["stats", str(path)]) != 0
    err = capsys.readouterr().err
    assert f"{path}:3: not UTF-8 text: byte 0xff at offset {offset}" in err and "--encoding NAME" in err
    assert "Traceback" not in err
    assert main(["stats", str(path), "--encoding", "latin-1"]) == 0
    capsys.readouterr()


# -- finding 13, the writer's side: a refusal names the file and the document, before the work ---------
def test_parse_refuses_text_its_output_cannot_hold_before_parsing(tmp_path, capsys, monkeypatch):
    pytest.importorskip("torch")
    from rstkit.parser.api import Parser

    def no_parsing(*args, **kwargs):
        raise AssertionError("the parser was loaded: the refusal came after the work")

    monkeypatch.setattr(Parser, "load", no_parsing)
    source = tmp_path / "u.edus"
    source.write_text("The cat sat\x00 on the mat.\nIt was warm.\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["parse", str(source), str(out), "--model", "scratch", "--to", "rs3"]) == 2
    err = capsys.readouterr().err
    assert f"{source}: document 'u', EDU 1: column 12 (offset 11): U+0000 cannot be written as rs3" in err
    assert not out.exists()


def test_a_label_outside_a_parser_inventory_is_refused_naming_the_document():
    """Parser formats spell a fixed inventory: another label with a space cannot be written (it would
    split the label token), and the refusal names the document as a text refusal does."""
    tree = loads_dis(DIS.format("one", "two").replace("elaboration", "my-relation"), "d/doc7.dis")
    spaced = tree.with_root(replace_relation(tree.root, "my relation"))
    with pytest.raises(LabelError, match=r"cannot write document 'doc7' as feng: relation label 'my relation'"):
        get_format("feng").write(spaced)
    with pytest.raises(WriteError, match=r"'doc7' as dis: the relation label 'my relation' of node 2-2 holds ' '"):
        dumps_dis(spaced)


def replace_relation(root: Node, relation: str) -> Node:
    """``root`` with its satellite child relabelled."""
    kids = tuple(replace(k, relation=relation) if k.nuclearity == "S" else k for k in root.children)
    return replace(root, children=kids)


def test_a_dis_label_that_is_rstdt_editor_mark_is_refused():
    """RST-DT's stray '//TT_ERR' is skipped by .dis readers: as a whole label it would vanish."""
    tree = loads_dis(DIS.format("one", "two"), "d/doc8.dis")
    with pytest.raises(WriteError, match=r"'doc8' as dis: the relation label '//TT_ERR'"):
        dumps_dis(tree.with_root(replace_relation(tree.root, "//TT_ERR")))
    assert loads_dis(dumps_dis(tree.with_root(replace_relation(tree.root, "x//TT_ERR")))).root.children[1].relation \
        == "x//TT_ERR"
