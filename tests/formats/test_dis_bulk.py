"""The .dis forest path's bulk reading (``_dis_bulk.bulk_nodes``: numpy over many files' bytes) gives, of
every file it reads, exactly the nodes that the regular-expression pass (``_dis_direct._matched_nodes``:
``_NODE``, one match per node, which shares no code with it) gives of that file, and declines the files
whose layout it does not read (non-ASCII or control characters between the nodes, long numbers, ``_!``
outside a text, ...), which that pass then reads. What the forest path makes of both is checked against the
direct path's trees in tests/formats/test_dis_forest.py."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rstkit.formats import _dis_bulk, read_text
from rstkit.formats._dis_bulk import NodeColumns, bulk_nodes
from rstkit.formats._dis_direct import _matched_nodes
from tests.formats.test_dis_fast import CLEAN, NASTY, dis_documents
from tests.formats.test_dis_forest import INSERTS, assert_forest_reads_as_the_direct_path, mutated
from tests.support.forests import split_texts

#: layouts of ASCII only, which the bulk reading takes: any whitespace ASCII has, between any tokens
ASCII_SEPARATORS = st.sampled_from([" ", " ", "  ", "\t", "\n", "\n    ", "\r\n", " \n\t ", "\x0b", "\x0c",
                                    "\x1c", "\x1f", ""])
#: labels of printable ASCII, the grammar's own words among them (and no `_!`: a file with one is declined)
ASCII_LABELS = st.one_of(
    st.from_regex(r"[!-'*-~]{1,12}", fullmatch=True).filter(lambda s: "//TT_ERR" not in s and "_!" not in s),
    st.sampled_from(["span", "leaf", "text", "rel2par", "Nucleus", "Root", "12", "_", "!"]))


def per_file(nodes: NodeColumns) -> list[tuple]:
    """Each file's nodes, as plain values: (word, leaf, number, last, relation, closes) per node, and the
    EDU texts of its leaves."""
    files, node = [], 0
    relations = nodes.relations()
    assert len(set(nodes.relation_names)) == len(nodes.relation_names)  # each relation has one code
    assert len(nodes.edu_texts) == len(nodes.counts)
    for count, joined in zip(nodes.counts.tolist(), nodes.edu_texts):
        rows = list(zip(nodes.word[node:node + count].tolist(), nodes.leaf[node:node + count].tolist(),
                        nodes.number[node:node + count].tolist(), nodes.last[node:node + count].tolist(),
                        relations[node:node + count], nodes.closes[node:node + count].tolist()))
        texts = split_texts(joined)
        assert len(texts) == int(nodes.leaf[node:node + count].sum())
        files.append((rows, texts))
        node += count
    assert node == len(nodes.word) == len(relations)
    return files


def assert_bulk_reads_as_the_matches(texts: list[str]) -> np.ndarray:
    """Of each file the bulk reading takes, the regular-expression pass's nodes; of the others, none."""
    read, nodes = bulk_nodes(texts)
    expected = per_file(_matched_nodes(texts))
    got = per_file(nodes)
    assert len(read) == len(texts)
    for text, is_read, mine, theirs in zip(texts, read.tolist(), got, expected):
        assert mine == (theirs if is_read else ([], [])), text
        if is_read:
            assert theirs[0], text  # a file read has nodes
    return read


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(dis_documents(bodies=CLEAN.filter(lambda body: "\x01" not in body), separators=ASCII_SEPARATORS,
                              labels=ASCII_LABELS), min_size=1, max_size=5))
def test_ascii_layouts_are_read_in_bulk_as_the_matches_read_them(documents):
    """Any text in the bodies but the bodies' stand-in (\\x01), which declines a file; so does a body whose
    text, stripped of ASCII's whitespace, begins or ends with whitespace beyond ASCII (bodies here are short)."""
    read = assert_bulk_reads_as_the_matches([text for text, *_ in documents])
    assert read.tolist() == [not any(map(wide_space_at_an_end, bodies)) for *_, bodies in documents]


#: the whitespace that ASCII has (``str.isspace``)
ASCII_SPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f "


def wide_space_at_an_end(body: str) -> bool:
    """Whether a body's text, stripped of ASCII's whitespace (and of a trailing ``<P>`` and the whitespace before
    it), begins or ends with other whitespace."""
    text = body.strip(ASCII_SPACE)
    if text.endswith("<P>"):
        text = text[:-3].rstrip(ASCII_SPACE)
    return bool(text) and (text[0].isspace() or text[-1].isspace())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(dis_documents(bodies=NASTY), min_size=1, max_size=5))
def test_any_layout_and_nasty_texts_are_read_as_the_matches_read_them_or_declined(documents):
    assert_bulk_reads_as_the_matches([text for text, *_ in documents])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(dis_documents(bodies=NASTY, separators=ASCII_SEPARATORS,
                                         labels=st.one_of(ASCII_LABELS, st.sampled_from(["_!", "a_!", "_!)"]))),
                          st.data()),
                min_size=1, max_size=4))
def test_mutated_files_among_others_are_read_as_the_matches_read_them_or_declined(batch):
    texts = mutated(batch, [*INSERTS, "\x01", "\u2003", "\x00", "(rel2par)", "_! )", "(text _!a_!)", "9"])
    assert_bulk_reads_as_the_matches(texts)
    assert_forest_reads_as_the_direct_path(texts)


GOOD = ("( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!a<P>_!) )\n"
        "  ( Satellite (leaf 2) (rel2par elaboration) (text _!b_!) ) )")


@pytest.mark.parametrize("text", [
    GOOD.replace(" (leaf 2)", "\u2003(leaf 2)"),  # whitespace outside ASCII between the nodes
    GOOD.replace("elaboration", "élaboration"),  # a relation outside ASCII
    GOOD.replace("leaf 2", "leaf \u0662"),  # a digit outside ASCII (ARABIC-INDIC TWO)
    GOOD.replace("leaf 2", "leaf 000000002"),  # a number of 9 digits
    GOOD.replace("_!b_!", "_!b\x01_!"),  # the bodies' stand-in in a text
    GOOD.replace("elaboration", "ela_!boration"),  # `_!` in a relation
    GOOD.replace("_!b_!", "_!b _!c_!"),  # `_!` after whitespace in a text
    GOOD.replace("_!b_!", "_!b_!" + " " * 17),  # a text's end far from its bracket
    GOOD.replace("(rel2par elaboration)", "(rel2par elaboration" + " " * 17 + ")"),  # a relation far from its bracket
    GOOD.replace("_!b_!", "_!" + " " * 17 + "b_!"),  # more whitespace before a text than looked over
    GOOD.replace("_!b_!", "_!b" + "\n" * 17 + "_!"),  # ... after it
    GOOD.replace("_!b_!", "_!b" + " " * 17 + "<P>_!"),  # ... before its paragraph mark
    GOOD.replace("_!b_!", "_!" + " " * 17 + "_!"),  # ... in a text of whitespace alone
    GOOD.replace("_!b_!", "_!\u00a0b_!"),  # whitespace beyond ASCII at a text's start
    GOOD.replace("_!b_!", "_!b \u3000 _!"),  # ... at its end, between ASCII's
    GOOD.replace("_!b_!", "_!b\u2028<P>_!"),  # ... before its paragraph mark
    GOOD.replace("_!b_!", "_!b\x85_!"),  # ... (NEXT LINE, of two bytes)
    GOOD.replace(" ( Satellite", " \x00( Satellite"),  # a control character between the nodes
    GOOD + "//TT_ERR",
])
def test_layouts_the_bulk_reading_leaves_to_the_matches(text):
    batch = [GOOD, text, GOOD]
    assert assert_bulk_reads_as_the_matches(batch).tolist() == [True, False, True]
    assert_forest_reads_as_the_direct_path(batch)


@pytest.mark.parametrize("body, text", [
    ("b", "b"), ("", ""), ("   ", ""), (" \t b \x1f\n", "b"), (" " * 16 + "b" + " " * 16, "b"),
    ("b<P>", "b"), ("  b  <P>  ", "b"), ("<P>", ""), (" <P> ", ""), ("b<P><P>", "b<P>"), ("b <P> x", "b <P> x"),
    ("<P", "<P"), ("b\u00a0c", "b\u00a0c"), (" \u00e9 ", "\u00e9"),
    ("\u4e2d\U0001f600 \u2014", "\u4e2d\U0001f600 \u2014"), ("\u201cb\u201d", "\u201cb\u201d"),
    ("\u00a9", "\u00a9"), ("x\u00a0", None), ("\u2009b", None), ("\u205f", None),
])
def test_a_leaf_s_edu_text(body, text):
    """By hand: a body stripped, then of a trailing <P> and the whitespace before it; where the bulk reading
    declines the file (None: whitespace beyond ASCII at an end), the regular-expression pass gives the text."""
    file = GOOD.replace("_!b_!", f"_!{body}_!")
    read, nodes = bulk_nodes([GOOD, file])
    assert read.tolist() == [True, text is not None]
    assert split_texts(nodes.edu_texts[0]) == ["a", "b"]
    if text is not None:
        assert split_texts(nodes.edu_texts[1]) == ["a", text]
    assert split_texts(_matched_nodes([file]).edu_texts[0]) == ["a", text if text is not None else body.strip()]


def test_whitespace_beyond_ascii_is_all_there_is():
    """The UTF-8 sequences the bulk reading looks for at a text's ends are those of every character beyond ASCII
    that ``str.isspace`` has."""
    wide = [c for c in map(chr, range(128, 0x110000)) if c.isspace()]
    found = sorted(int.from_bytes(c.encode(), "big") for c in wide)
    assert found == sorted([*_dis_bulk._SPACES_OF_TWO.tolist(), *_dis_bulk._SPACES_OF_THREE.tolist()])


def test_the_texts_utf8_given_or_made_alike():
    texts = [GOOD.replace("_!b_!", "_!b é 中 \U0001f600_!"), GOOD, "( Root (leaf 1) (text _!\ud800_!) )"]
    encoded = [text.encode("utf-8", "surrogatepass") for text in texts]
    assert per_file(bulk_nodes(texts, encoded)[1]) == per_file(bulk_nodes(texts)[1])
    assert bulk_nodes(texts, encoded)[0].tolist() == bulk_nodes(texts)[0].tolist() == [False] * 3  # a surrogate
    assert bulk_nodes(texts[:2], encoded[:2])[0].tolist() == [True, True]
    assert per_file(bulk_nodes(texts[:2], encoded[:2])[1]) == per_file(_matched_nodes(texts[:2]))


def test_nothing_to_read():
    assert assert_bulk_reads_as_the_matches(["", "   \n", "\x01", ")"]).tolist() == [False] * 4
    read, nodes = bulk_nodes([])
    assert read.tolist() == [] and nodes.counts.tolist() == []


def test_what_a_file_read_gives():
    """By hand: both files' nodes in pre-order, and their EDU texts (bodies stripped, a paragraph mark taken off)."""
    read, nodes = bulk_nodes([GOOD, "( Root (leaf 1) (text _! one EDU _!) )\n"])
    assert read.tolist() == [True, True] and nodes.counts.tolist() == [3, 1]
    assert nodes.word.tolist() == [4, 7, 9, 4] and nodes.leaf.tolist() == [False, True, True, True]
    assert nodes.number.tolist() == [1, 1, 2, 1] and nodes.last.tolist() == [2, 0, 0, 0]
    assert nodes.relations() == ["", "span", "elaboration", ""] and nodes.closes.tolist() == [0, 0, 1, 0]
    assert list(map(split_texts, nodes.edu_texts)) == [["a", "b"], ["one EDU"]]


@pytest.mark.parametrize("labels", [
    ["elaboration-additional-e", "elaboration-additional-f", "elaboration-additional-e"],  # 24 bytes, one apart
    ["elaboration-object-attribute-e", "elaboration-object-attribute-x", "elaboration-object-attribute-e"],
    ["a" * 40, "a" * 39 + "b", "a" * 41],  # alike for 32 bytes and more
    ["c" * 31 + "d", "c" * 32, "c" * 32 + "d", "c" * 33],  # 32 bytes and just past them
    ["x", "xx", "x\x7f", "12345678", "123456789", "1234567812345678", "12345678123456781"],
])
def test_relations_alike_in_their_first_bytes_read_apart(labels):
    """Relations are made once per distinct label, grouped by their first bytes: those longer than the
    bytes compared, and those that share them, each as written."""
    leaves = "".join(f" ( Nucleus (leaf {i}) (rel2par {label}) (text _!e{i}_!) )" for i, label in
                     enumerate(labels, start=1))
    text = f"( Root (span 1 {len(labels)}){leaves} )"
    assert assert_bulk_reads_as_the_matches([text, text]).all()
    assert bulk_nodes([text])[1].relations() == ["", *labels]


@pytest.mark.slow  # GUM-wide
@pytest.mark.gum
@pytest.mark.parametrize("form", ["lisp_nary", "lisp_binary"])
def test_every_gum_file_is_read_in_bulk(gum_dir: Path, form: str):
    texts = [read_text(path) for path in sorted((gum_dir / form).glob("*.dis"))]
    assert assert_bulk_reads_as_the_matches(texts).all()
