"""Text from the inputs never drives the terminal (issue 32, item 8): a relation label, a document id
(a file name) or a system name (a folder name) holding escape sequences is shown with its control
characters escaped on standard output and standard error, in every report format; JSON escapes them by
its own rules and reads back unchanged.

Expected values by hand: the label ``purpose ESC ]0;PWNED BEL ESC [2J`` (an OSC that retitles the window,
then "clear the screen") is shown as the 30 visible characters ``purpose\\x1b]0;PWNED\\x07\\x1b[2J``;
:func:`raw_controls` finds the C0 and C1 controls and DEL in a text by their code points (what is left of
a printed text after its line breaks), sharing nothing with rstkit's escaping.
"""
from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from rstkit.cli import main

PROJECT = Path(__file__).resolve().parents[1].parent
SAMPLE = PROJECT / "corpora" / "sample"
WEATHER = PROJECT / "tests" / "data" / "formats" / "weather.dis"

ATTACK = "\x1b]0;PWNED\x07\x1b[2J"
LABEL = "purpose" + ATTACK
#: how a report shows it: each control character as Python writes it in a string literal
SHOWN_LABEL = "purpose\\x1b]0;PWNED\\x07\\x1b[2J"


def raw_controls(text: str) -> list[str]:
    """The C0 controls (but the line break that ends each printed line), DEL and C1 controls in ``text``."""
    return [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F]


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """gold/ and pred/ with the weather tree, its ``cause`` relabelled :data:`LABEL`, in a file whose
    name (the document id) holds the attack too; and a one-EDU document named likewise (it draws a
    warning that names it)."""
    text = WEATHER.read_text(encoding="utf-8").replace("cause", LABEL)
    for side in ("gold", "pred"):
        folder = tmp_path / side
        folder.mkdir()
        (folder / f"doc{ATTACK}.dis").write_text(text, encoding="utf-8")
        shutil.copy(SAMPLE / "gold" / "sample_note.dis", folder / f"note{ATTACK}.dis")
    return tmp_path


def run(capsys, *argv: object) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_attack_is_what_it_says() -> None:
    # the escaped form by hand: ESC is \x1b, BEL \x07
    assert raw_controls(LABEL) == ["\x1b", "\x07", "\x1b"] and len(SHOWN_LABEL) == 30
    assert raw_controls("\x7f\x85\x9b\t") == ["\x7f", "\x85", "\x9b", "\t"] and raw_controls("é\n") == []


def test_stats(capsys, hostile) -> None:
    status, out, err = run(capsys, "stats", hostile / "gold")
    assert status == 0 and raw_controls(out + err) == []
    assert f"  {SHOWN_LABEL} " in out


def test_draw_text(capsys, hostile) -> None:
    status, out, err = run(capsys, "draw", hostile / "gold" / f"doc{ATTACK}.dis")
    assert status == 0 and raw_controls(out + err) == []
    lines = out.splitlines()
    assert lines[0] == "doc\\x1b]0;PWNED\\x07\\x1b[2J: 3 EDUs"  # the document id, from the file name
    assert any(f"S 2 {SHOWN_LABEL} " in line for line in lines)


def test_draw_compare_text(capsys, hostile) -> None:
    status, out, err = run(capsys, "draw", hostile / "gold" / f"doc{ATTACK}.dis", "--compare",
                           hostile / "pred" / f"doc{ATTACK}.dis")
    assert status == 0 and raw_controls(out + err) == []
    assert "gold: doc\\x1b]0;PWNED\\x07\\x1b[2J" in out and SHOWN_LABEL in out


def test_an_edu_text_in_a_drawing(capsys, tmp_path) -> None:
    path = tmp_path / "t.dis"
    path.write_text(WEATHER.read_text(encoding="utf-8").replace("It rained", "It\x9b2J\x7f rained"),
                    encoding="utf-8")
    status, out, err = run(capsys, "draw", path)
    assert status == 0 and raw_controls(out + err) == [] and "It\\x9b2J\\x7f rained" in out


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "latex"])
def test_eval_per_relation(capsys, hostile, fmt) -> None:
    status, out, err = run(capsys, "eval", hostile / "gold", hostile / "pred", "--per-relation", "--format", fmt)
    assert status == 0 and raw_controls(out + err) == []
    # Markdown and LaTeX escape the backslashes of the escaped form as they escape any backslash
    label = {"markdown": SHOWN_LABEL.replace("\\", "\\\\"),
             "latex": SHOWN_LABEL.replace("\\", r"\textbackslash{}")}.get(fmt, SHOWN_LABEL)
    assert label in out
    # the warning about the one-EDU document names it, escaped
    assert "note\\x1b]0;PWNED\\x07\\x1b[2J" in err


def test_eval_per_relation_csv_reads_back_escaped(capsys, hostile) -> None:
    status, out, _ = run(capsys, "eval", hostile / "gold", hostile / "pred", "--per-relation", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and SHOWN_LABEL in {row["relation"] for row in rows}


def test_eval_json_keeps_the_label(capsys, hostile) -> None:
    status, out, err = run(capsys, "eval", hostile / "gold", hostile / "pred", "--per-relation", "--format", "json")
    assert status == 0 and raw_controls(out + err) == []
    assert LABEL in {row["label"] for row in json.loads(out)["relations"]}


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "latex"])
def test_a_system_named_by_a_hostile_folder(capsys, hostile, fmt) -> None:
    shutil.copytree(hostile / "pred", hostile / f"sys{ATTACK}")
    status, out, err = run(capsys, "eval", hostile / "gold", hostile / "pred", hostile / f"sys{ATTACK}",
                           "--format", fmt, "--n-bootstrap", "10", "--n-trials", "10", "--per-relation")
    assert status == 0 and raw_controls(out + err) == []
    assert re.search(r"sys(\\|\\textbackslash\{\}|\\\\)x1b", out)


def test_errors_and_warnings_name_a_hostile_file_escaped(capsys, hostile) -> None:
    (hostile / "gold" / f"bad{ATTACK}.dis").write_text("( Root (span 1 2)", encoding="utf-8")
    status, out, err = run(capsys, "stats", hostile / "gold")
    assert status == 2 and raw_controls(out + err) == []
    assert "bad\\x1b]0;PWNED\\x07\\x1b[2J.dis" in err
    status, out, err = run(capsys, "eval", hostile / "gold", hostile / "pred")
    assert status == 2 and raw_controls(out + err) == [] and "bad\\x1b]0;PWNED" in err


@pytest.mark.parametrize("fmt", ["svg", "html"])
def test_drawings_escape_a_hostile_document_id(fmt) -> None:
    # issue 32, item 9: an id with a line break and markup stays text in the page's titles (XML escaping;
    # a line break inside <title> is whitespace), and the escape sequence, which XML cannot hold, is dropped
    from dataclasses import replace

    from rstkit import read_tree
    from rstkit.draw import drawing

    tree = replace(read_tree(WEATHER), doc_id=f"a\nb</title><script>x{ATTACK}")
    out = drawing(tree, fmt)
    assert "<script>x" not in out and "b&lt;/title&gt;&lt;script&gt;x" in out and raw_controls(out) == []
