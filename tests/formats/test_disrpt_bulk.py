"""The bulk DISRPT reader (issue 37) reads every file as a plain line-by-line reading of the format's rules does.

:func:`reference_read` below is that reading, written here from the rules of the format (the module
docstring of rstkit.formats.disrpt and DISRPT's own scorer): the file decoded as UTF-8, a leading
byte-order mark dropped; split at ``\\n``, each line's trailing ``\\r`` dropped; ``#`` lines are comments, a
``# newdoc id = ID`` (or ``newdoc_id``) one opening a document (an empty or repeated id an error); blank
lines skipped; every other line ten tab-separated columns; an id holding ``-`` (multi-word token) or
``.`` (empty node) no token; any other id a number from 1; the last column's ``|``-separated items that
start with ``Seg=``, ``BeginSeg=`` or ``Conn=`` label segmentation: none (no label, no boundary), one of
the five labels, or an error (a connective's label, an unknown one, two of them, two labellings in one
document). With ``-nb`` (``sentence_initial="dropped"``) a token whose id is 1 begins no EDU.

Hypothesis writes files of such lines (multi-word tokens, empty nodes, comments, blank and whitespace
lines, other MISC items, CRLF, a byte-order mark, both labellings, and now and then a line that is an
error); the reader's documents, or its error's line and kind, must be the reference's. The bulk path
itself (``_scan``) is checked too: where it reads a file, it reads it as the reference does, and it
reads every file without an error or an unusual line (so that the property above is not carried by
the line-by-line path alone). Its parts are shrunk so that documents and lines cross them.
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.errors import FormatError
from rstkit.formats import disrpt
from rstkit.formats.disrpt import read_disrpt, read_disrpt_documents
from rstkit.metrics import EvalConfig
from rstkit.metrics.prepared import PreparationSpec
from rstkit.metrics.segmentation import prepare_disrpt

# label -> (labelling, begins an EDU), as the format's docstring lists them
REFERENCE_LABELS = {"Seg=B-seg": ("2023", True), "Seg=O": ("2023", False), "Seg=I-seg": ("2023", False),
                    "Seg=B-Seg": ("2023", True), "BeginSeg=Yes": ("2019", True)}


class ReferenceError(Exception):
    def __init__(self, kind: str, line: int) -> None:
        super().__init__(kind, line)
        self.kind, self.line = kind, line


def reference_read(raw: bytes, conllu: bool) -> list[dict]:
    """The documents of a file's bytes, by the rules in the module docstring, or ReferenceError(kind, line)."""
    text = raw.decode("utf-8")
    text = text.removeprefix("\ufeff")
    documents: list[dict] = []
    seen: set[str] = set()
    for number, line in enumerate(text.split("\n"), start=1):
        while line.endswith("\r"):
            line = line[:-1]
        if line.startswith("#"):
            opened = re.fullmatch(r"#\s*newdoc[ _]id\s*=\s*(.*?)\s*", line)
            if opened is not None:
                doc_id = opened.group(1)
                if doc_id == "":
                    raise ReferenceError("empty document id", number)
                if doc_id in seen:
                    raise ReferenceError("given twice", number)
                seen.add(doc_id)
                documents.append({"doc_id": doc_id, "tokens": [], "boundaries": [], "starts": [], "lines": [],
                                  "labelling": None})
            continue
        if line.strip() == "":
            continue
        columns = line.split("\t")
        if len(columns) != 10:
            raise ReferenceError("10 tab-separated columns", number)
        if "-" in columns[0] or "." in columns[0]:
            continue
        if not (columns[0].isascii() and columns[0].isdigit() and columns[0][0] != "0"):
            raise ReferenceError("is not a number", number)
        if not documents:
            raise ReferenceError("a token before the first", number)
        document = documents[-1]
        labels = [item for item in columns[9].split("|") if item.startswith(("Seg=", "BeginSeg=", "Conn="))]
        begins = False
        if len(labels) > 1:
            raise ReferenceError("segmentation labels in the last column", number)
        if labels:
            if labels[0] not in REFERENCE_LABELS:
                connective = labels[0].startswith("Conn=") or labels[0] in ("Seg=B-Conn", "Seg=I-Conn")
                raise ReferenceError("labels a discourse connective" if connective else "a segmentation label is",
                                     number)
            labelling, begins = REFERENCE_LABELS[labels[0]]
            if document["labelling"] is not None and document["labelling"] != labelling:
                raise ReferenceError("mixes two segmentation labellings", number)
            document["labelling"] = labelling
        document["tokens"].append(columns[1])
        document["boundaries"].append(begins)
        document["starts"].append(columns[0] == "1")
        document["lines"].append(number - 1)
    for document in documents:
        if not conllu:
            document["starts"] = None
    return documents


def as_read(documents) -> list[dict]:
    """rstkit's documents in the reference's terms."""
    names = {disrpt.SEG_LABELS: "2023", disrpt.BEGINSEG_LABELS: "2019", None: None}
    return [{"doc_id": d.doc_id, "tokens": list(d.tokens), "boundaries": list(d.boundaries),
             "starts": None if d.sentence_starts is None else list(d.sentence_starts), "lines": list(d.token_lines),
             "labelling": names[d.labelling]} for d in documents]


# -- files --------------------------------------------------------------------------------------------
WORDS = st.sampled_from(["the", "cat", "n't", ",", "é", "Zürich", "a b", "", "#x", "3-4", "東京", "|"])
REGULAR_MISC = ["Seg=B-seg", "Seg=O", "Seg=I-seg", "Seg=B-Seg", "_", "SpaceAfter=No", "SpaceAfter=No|Seg=O",
                "Seg=B-seg|Other=1", "A=1|Seg=O|B=2", "Segment=x", "XSeg=B-seg", "", "||Seg=O"]
ODD_MISC = ["Seg=X", "Seg=B-Conn", "Conn=O", "Seg=O|Seg=B-seg", "BeginSeg=No", "Seg=O|Conn=B-conn", "Seg=", "Seg=O "]


@st.composite
def token_line(draw, number: int, begin_seg: bool) -> str:
    misc = draw(st.sampled_from(REGULAR_MISC))
    if begin_seg:  # the 2019-2021 labelling
        misc = {"Seg=B-seg": "BeginSeg=Yes", "Seg=B-Seg": "BeginSeg=Yes|SpaceAfter=No", "Seg=O": "_",
                "Seg=I-seg": "_", "SpaceAfter=No|Seg=O": "SpaceAfter=No", "Seg=B-seg|Other=1": "Other=1|BeginSeg=Yes",
                "A=1|Seg=O|B=2": "A=1|B=2", "||Seg=O": "||"}.get(misc, misc)
    word = draw(WORDS)
    return f"{number}\t{word}\t_\t_\tNOUN\t_\t{number}\troot\t_\t{misc}"


@st.composite
def odd_line(draw, number: int) -> str:
    """A line that is an error, or that only the line-by-line reading takes (whitespace)."""
    return draw(st.sampled_from([
        f"{number}\tw\t_\t_\t_\t_\t_\t_\t_\t{draw(st.sampled_from(ODD_MISC))}",
        f"{number}\tw\t_\t_\t_\t_\t_\t_\tSeg=O",  # 9 columns
        f"{number}\tw\t_\t_\t_\t_\t_\t_\t_\tSeg=O\t_",  # 11
        f"0{number}\tw\t_\t_\t_\t_\t_\t_\t_\tSeg=O", "x\tw\t_\t_\t_\t_\t_\t_\t_\tSeg=O",
        f" {number}\tw\t_\t_\t_\t_\t_\t_\t_\t_",
        "   ", "\t\t\t\t\t\t\t\t\t", "# newdoc id =   ", "# newdoc id = d0",
        f"{number}\tw\t_\t_\t_\t_\t_\t_\t_\tBeginSeg=Yes",
        f"{number}\ta\rb\t_\t_\t_\t_\t_\t_\t_\tSeg=O", "12345678901234567\tw\t_\t_\t_\t_\t_\t_\t_\tSeg=O",
        "12345678901\tw\t_\t_\t_\t_\t_\t_\t_\tSeg=O",
    ]))


@st.composite
def files(draw) -> tuple[bytes, bool]:
    conllu = draw(st.booleans())
    lines: list[str] = []
    if draw(st.booleans()):
        lines.append(draw(st.sampled_from(["# global.columns = ID FORM", "", "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_"])))
    odd = draw(st.integers(0, 3)) == 0  # a quarter of the files may hold lines that are not regular
    for d in range(draw(st.integers(0, 4))):
        lines.append(draw(st.sampled_from([f"# newdoc id = doc{d}", f"#newdoc_id=doc{d}", f"# newdoc id = doc {d} ",
                                           f"# newdoc id = doc{d} # newdoc"])))
        begin_seg = draw(st.booleans())
        for s in range(draw(st.integers(0, 3))):
            if conllu:
                lines += [f"# sent_id = doc{d}-{s + 1}", "# text = some newdoc text"]
            for number in range(1, draw(st.integers(1, 12)) + 1):
                kind = draw(st.integers(0, 19))
                if kind == 0:
                    lines.append(f"{number}-{number + 1}\tww\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg")
                elif kind == 1:
                    lines.append(f"{number}.1\tw\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg")
                elif kind == 2:
                    lines.append("# a comment")
                elif kind == 3 and odd:
                    lines.append(draw(odd_line(number)))
                if not conllu and s:
                    number += 100 * s
                lines.append(draw(token_line(number, begin_seg)))
            lines.append("")
    endings = draw(st.sampled_from(["\n", "\r\n", "mixed"]))
    if endings == "mixed":
        text = "".join(line + draw(st.sampled_from(["\n", "\r\n"])) for line in lines)
    else:
        text = endings.join(lines) + (endings if draw(st.booleans()) else "")
    bom = b"\xef\xbb\xbf" if draw(st.booleans()) else b""
    return bom + text.encode("utf-8"), conllu


def read_both(raw: bytes, conllu: bool):
    """The reference's reading of a file and rstkit's (read_disrpt), after checking that rstkit's reading
    of the documents alone (read_disrpt_documents: the file mapped, not decoded) gives the same documents
    or the same error."""
    try:
        expected: list[dict] | ReferenceError = reference_read(raw, conllu)
    except ReferenceError as error:
        expected = error
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / ("f.conllu" if conllu else "f.tok")
        path.write_bytes(raw)
        try:
            got: object = read_disrpt(path)
        except FormatError as error:
            got = error
        assert_same_documents(got, path)
    return expected, got


def assert_same_documents(got: object, path: Path, encoding: str | None = None) -> None:
    """read_disrpt_documents(path) gives read_disrpt's documents (``got``), or its error (message and line)."""
    try:
        documents: object = read_disrpt_documents(path, encoding=encoding)
    except FormatError as error:
        documents = error
    if isinstance(got, FormatError):
        assert isinstance(documents, FormatError) and (str(documents), documents.line) == (str(got), got.line)
    else:
        assert not isinstance(documents, FormatError), documents
        assert as_read(documents) == as_read(got.documents)


@pytest.mark.slow  # fast path against the long way
@settings(max_examples=300, deadline=None)
@given(files(), st.sampled_from([16, 64, 1 << 19]))
def test_the_reader_reads_as_the_rules_say(file, part) -> None:
    raw, conllu = file
    original = disrpt._CHUNK
    disrpt._CHUNK = part  # parts of a few lines: documents and labels cross them
    try:
        expected, got = read_both(raw, conllu)
        body = raw.removeprefix(b"\xef\xbb\xbf")
        bulk = disrpt._scan(body, "f", conllu)
    finally:
        disrpt._CHUNK = original
    if isinstance(expected, ReferenceError):
        assert isinstance(got, FormatError), (expected.kind, expected.line)
        assert expected.kind in str(got) and got.line == expected.line
        assert bulk is None  # the bulk reading leaves every error to the line-by-line reading
        return
    assert not isinstance(got, FormatError), got
    assert as_read(got.documents) == expected
    assert got.bom == raw.startswith(b"\xef\xbb\xbf")
    assert got.lines == tuple(raw.decode("utf-8-sig").split("\n"))
    if bulk is not None:
        assert as_read(bulk) == expected
    regular = not any(b"\r" in line.removesuffix(b"\r") or (not line.strip() and line.strip(b"\r"))
                      or len(line.split(b"\t")[0]) > 16 for line in body.split(b"\n"))
    if regular:  # no whitespace line, no \r inside a line, no id of 17 digits: the bulk reading takes the file
        assert bulk is not None
    # what -nb scores: a boundary on each token that begins an EDU and has an id other than 1
    spec = PreparationSpec((EvalConfig(metric="segmentation", sentence_initial="dropped"),), True)
    for document, wanted in zip(got.documents, expected):
        if conllu and wanted["labelling"] is not None:
            rows = prepare_disrpt(document, spec).rows_of("segmentation")
            keys = [i for i, (b, s) in enumerate(zip(wanted["boundaries"], wanted["starts"])) if b and not s]
            assert [start for start, _ in _rows(rows)] == keys


def _rows(rows) -> list[tuple[int, int]]:
    table, _ = rows.packed
    return [tuple(row) for row in np.frombuffer(table, dtype=np.int32).reshape(-1, 2).tolist()]


def test_a_long_regular_file_is_read_in_bulk(tmp_path) -> None:
    """A file of both labellings, multi-word tokens, empty nodes, CRLF and other MISC items, longer than
    one part, is read by the bulk path, as the reference reads it."""
    lines = []
    for d in range(3):
        lines.append(f"# newdoc id = d{d}")
        for i in range(1, 30001):
            if i % 97 == 0:
                lines.append(f"{i}-{i + 1}\tww\t_\t_\t_\t_\t_\t_\t_\t_")
            misc = ("Seg=B-seg" if i % 7 == 1 else "SpaceAfter=No|Seg=O") if d != 1 else (
                "BeginSeg=Yes" if i % 7 == 1 else "_")
            lines.append(f"{i}\tw{i % 13}é\t_\t_\t_\t_\t_\t_\t_\t{misc}")
            if i % 101 == 0:
                lines.append(f"{i}.1\tx\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg")
        lines.append("")
    raw = b"\xef\xbb\xbf" + "\r\n".join(lines).encode("utf-8")
    assert len(raw) > 2 * disrpt._CHUNK
    assert disrpt._scan(raw[3:], "f", False) is not None
    expected, got = read_both(raw, False)
    assert as_read(got.documents) == expected
    assert [d.labelling for d in got.documents] == [disrpt.SEG_LABELS, disrpt.BEGINSEG_LABELS, disrpt.SEG_LABELS]
    # by hand: each document has 30000 tokens, a boundary on every seventh from the first (1, 8, ...): 4286
    assert [sum(d.boundaries) for d in got.documents] == [4286] * 3


@pytest.mark.parametrize("encoding", ["utf-16", "latin-1"])
def test_files_in_other_encodings_are_read_in_bulk_too(tmp_path, encoding) -> None:
    text = "# newdoc id = d\n1\tZürich\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg\n2\tist\t_\t_\t_\t_\t_\t_\t_\tSeg=O\n"
    path = tmp_path / "f.tok"
    path.write_bytes(text.encode(encoding))
    (document,) = read_disrpt(path, encoding=encoding).documents
    assert document.tokens == ("Zürich", "ist") and document.boundaries == (True, False)
    assert_same_documents(read_disrpt(path, encoding=encoding), path, encoding)


TOK = "# newdoc id = d\n1\tZürich\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg\n2\tist\t_\t_\t_\t_\t_\t_\t_\tSeg=O\n"


@pytest.mark.parametrize("raw, encoding", [
    (TOK.encode("utf-8"), None), (b"\xef\xbb\xbf" + TOK.encode("utf-8"), None), (b"\xef\xbb\xbf", None),
    (TOK.encode("utf-8"), "UTF8"), (TOK.encode("latin-1"), None), (TOK.encode("latin-1"), "utf-8"),
    (TOK.encode("utf-16"), None), (TOK.encode("utf-16-le"), "utf-16-le"), (TOK.encode("cp1252"), "cp1252"),
    (b"\xef\xbb\xbf" + TOK.encode("utf-8"), "utf-8-sig"), (b"", None), (TOK.encode("utf-8"), "no-such-codec"),
    (TOK.encode("utf-8") + b"3\tx\xed\xa0\x80\t_\t_\t_\t_\t_\t_\t_\tSeg=O\n", None),  # an encoded surrogate
    (TOK.encode("utf-8") + "3\tü\t_\t_\t_\t_\t_\t_\t_\tSeg=O\n".encode("latin-1"), None),  # UTF-8, then a stray byte
    (TOK.encode("utf-8")[:-30] + b"\xe2\x82", None),  # ends inside a character
    (TOK.replace("Seg=O", "Seg=X").encode("utf-8"), None),  # an error: left to the line-by-line reading
])
def test_the_documents_alone_are_read_as_read_disrpt_reads_them(tmp_path, raw, encoding) -> None:
    """read_disrpt_documents maps a UTF-8 file and reads it in place; every other file (a byte-order mark,
    another encoding, bytes that are not UTF-8, an error) gives read_disrpt's documents or error."""
    path = tmp_path / "f.tok"
    path.write_bytes(raw)
    try:
        got: object = read_disrpt(path, encoding=encoding)
    except FormatError as error:
        got = error
    assert_same_documents(got, path, encoding)


def test_a_missing_file_or_a_folder_is_read_disrpts_error(tmp_path) -> None:
    for path in (tmp_path / "missing.tok", tmp_path):
        with pytest.raises(FormatError) as expected:
            read_disrpt(path)
        with pytest.raises(FormatError) as got:
            read_disrpt_documents(path)
        assert str(got.value) == str(expected.value)


def test_a_mapped_file_is_read_where_it_lies(tmp_path, monkeypatch) -> None:
    """A regular UTF-8 file is read by the mapped path alone: read_disrpt (which reads and decodes the
    whole file) is not called, and the documents are the reference's."""
    raw = ("# newdoc id = a\n" + "".join(f"{i}\tw{i}é\t_\t_\t_\t_\t_\t_\t_\t{'Seg=B-seg' if i % 3 == 1 else 'Seg=O'}\n"
                                       for i in range(1, 2001))).encode("utf-8")
    path = tmp_path / "f.tok"
    path.write_bytes(b"\xef\xbb\xbf" + raw)
    monkeypatch.setattr(disrpt, "read_disrpt", lambda *args, **kwargs: pytest.fail("read_disrpt was called"))
    monkeypatch.setattr(disrpt, "_CHECKED", 7)  # checked in parts that cut characters
    (document,) = read_disrpt_documents(path)
    assert as_read([document]) == reference_read(raw, False)


# -- gold and predictions read side by side (issue 37) -------------------------------------------------------
def _tok(doc_ids: list[str], marks: str) -> str:
    lines = "".join(f"{i}\tw{i}\t_\t_\t_\t_\t_\t_\t_\t{'Seg=B-seg' if m == 'B' else 'Seg=O'}\n"
                    for i, m in enumerate(marks, start=1))
    return "".join(f"# newdoc id = {d}\n{lines}\n" for d in doc_ids)


@pytest.mark.parametrize("case", ["good", "gold error", "both errors", "id in two files", "unlabelled"])
def test_reading_in_processes_changes_nothing(tmp_path, case) -> None:
    """``jobs=2`` reads the files of gold and predictions in two processes: the scores, or the error (the one
    reading the files one after the other gives: gold's before the prediction's), are those of ``jobs=1``."""
    from rstkit.errors import RSTKitError
    from rstkit.evaluation import evaluate

    (tmp_path / "gold").mkdir()
    (tmp_path / "pred").mkdir()
    write = {"good": (_tok(["a", "b"], "BOOB"), _tok(["c"], "BO"), _tok(["a", "b"], "BBOO"), _tok(["c"], "OB")),
             "gold error": (_tok(["a", "b"], "BOOB"), _tok(["c"], "BO").replace("w1\t", "w1\tx\t"),
                            _tok(["a", "b"], "BBOO"), _tok(["c"], "OB")),
             "both errors": (_tok(["a", "b"], "BOOB"), _tok(["c"], "BO").replace("Seg=O", "Seg=X"),
                             _tok(["a", "b"], "BBOO").replace("w2\t", "w2\tx\t"), _tok(["c"], "OB")),
             "id in two files": (_tok(["a", "b"], "BOOB"), _tok(["c", "a"], "BO"), _tok(["a", "b"], "BBOO"),
                                 _tok(["c"], "OB")),
             "unlabelled": (_tok(["a", "b"], "BOOB"), _tok(["c"], "BO"), _tok(["a", "b"], "BBOO"),
                            _tok(["c"], "OB").replace("Seg=B-seg", "_").replace("Seg=O", "_"))}[case]
    for name, text in zip(("gold/1.tok", "gold/2.tok", "pred/1.tok", "pred/2.tok"), write):
        (tmp_path / name).write_text(text, encoding="utf-8")
    outcomes = []
    for jobs in (1, 2):
        try:
            outcomes.append(evaluate(tmp_path / "gold", tmp_path / "pred", EvalConfig(metric="segmentation"),
                                     jobs=jobs).render("json"))
        except RSTKitError as error:
            outcomes.append((type(error), str(error)))
    assert outcomes[0] == outcomes[1]
    if case == "good":  # by hand: gold a BOOB, b BOOB, c BO (5 boundaries); pred BBOO, BBOO, OB (5); matched 2
        assert '"matched": 2' in outcomes[0] and '"gold": 5' in outcomes[0]
    else:
        assert isinstance(outcomes[0], tuple) and str(tmp_path / "gold") in outcomes[0][1] or case == "unlabelled"
