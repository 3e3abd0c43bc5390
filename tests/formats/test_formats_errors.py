"""Input details every reader must take the same way: byte-order marks, unprintable characters, bad
nuclearity brackets (issue 10)."""
from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from rstkit.corpus import read_documents, read_file
from rstkit.errors import FormatError
from rstkit.formats import all_formats, read_text
from tests.support.expected_warnings import warns_exactly
from tests.support.format_files import RENDERABLE, render

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "formats"


def test_every_format_can_be_rendered_for_these_tests():
    assert sorted(RENDERABLE) == sorted(all_formats())


@pytest.mark.parametrize("key", RENDERABLE)
@pytest.mark.parametrize("mark, codec", [(codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le")])
def test_a_byte_order_mark_is_accepted_in_every_format(tmp_path, key, mark, codec):
    with warns_exactly({}):
        trees = list(read_documents(REFERENCE, "dis").values())
        path, options = render(key, trees, tmp_path / "plain")
        expected = read_documents(path, key, **options)
        for file in [path] if path.is_file() else sorted(path.iterdir()):
            file.write_bytes(mark + file.read_text(encoding="utf-8").encode(codec))
        again = read_documents(path, key, **options)
    assert {d: (t.root, t.edu_texts()) for d, t in again.items()} == \
        {d: (t.root, t.edu_texts()) for d, t in expected.items()}


def test_read_text_strips_one_mark_and_falls_back_for_non_utf8(tmp_path):
    path = tmp_path / "x"
    path.write_bytes(codecs.BOM_UTF8 + "é(".encode())
    assert read_text(path) == "é("
    path.write_bytes(b"\xc9\xe9")  # not UTF-8: Latin-1 'Éé', cp1251 'Йй'
    assert read_text(path) == "Éé" and read_text(path, fallback="cp1251") == "Йй"


@pytest.mark.parametrize("key, text, line", [
    ("feng", "(Elaboration[N][S]\n  !a!\n  (Joint[S][S] !b! !c!))\n", 3),
    ("feng", "(Elaboration[N][S]\n  _!a!_\n  (Joint[S][S] _!b!_ _!c!_))\n", 3),
    ("hilda_orig", "ParseTree('Elaboration[N][S]', ['a',\n ParseTree('Joint[S][S]', ['b', 'c'])])\n", 2),
])
def test_a_node_without_nucleus_is_a_format_error_with_file_and_line(tmp_path, key, text, line):
    path = tmp_path / "doc"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_file(path, key)
    assert (info.value.path, info.value.line) == (str(path), line)
    assert "'Joint' gives its children the nuclearity SS: a node needs a nucleus" in info.value.message


@pytest.mark.parametrize("key, text, shown", [
    ("feng", "(Elab\x00oration[N][S] !a! !b!)", "Elab\\x00oration"),
    ("feng", "(Elaboration[N][S] !a! \x1bfoo)", "'\\x1bfoo'"),
    ("hilda", "(Root (Nucleus:span leaf1_1_1) (Satellite\x1b:x leaf2_1_1))", "Satellite\\x1b:x"),
    ("braud_coling", "(NS-Elab (1) (\u200b2))", "\\u200b2"),
    ("braud_eacl", "(ROOT (NSElab (EDU a) (XX\x07 (EDU b) (EDU c))))", "XX\\x07"),
    ("dplp", "((1, 1), 'Nucleus', 'span')\n((2, 2), 'Sat\x00', 'x')\n", "'Sat\\x00'"),
    ("dmrst", "(1:Nucleus=span:1,2:Satellite=Elab:2)\x07(x)", "\\x07(x)"),
    ("dmrst", "(1:Nucleus=span:1,2:Satellite=El\x07ab:2)", "El\\x07ab"),
    ("surdeanu_native", "elaboration (LeftToRight)\n  TEXT:a\n  \x1bTEXT:b\n", "\\x1bTEXT:b"),
    ("hilda_orig", "ParseTree('Elab\\x00[N][S]', ['a', 'b'])", "'Elab\\x00'"),
])
def test_unprintable_characters_are_shown_escaped(tmp_path, key, text, shown):
    path = tmp_path / "doc"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_file(path, key)
    assert shown in info.value.message and info.value.message.isprintable()


def test_line_numbers_count_newlines_only(tmp_path):
    """A form feed or U+2028 inside a line does not start a new line (str.splitlines would)."""
    path = tmp_path / "doc"
    path.write_text("((1, 1), 'Nucleus', 'span')\u2028\n((2, 2), 'Satellite', 'x')\x0c\n((9, 9), 'Sat', 'x')\n",
                    encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_file(path, "dplp")
    assert info.value.line == 3
