"""User-given names in Markdown, CSV and LaTeX reports are escaped (issue 26, finding 11).

Expected values by hand: a Markdown table row has as many unescaped ``|`` as its columns plus one;
CSV read back by Python's csv module gives the name unchanged (control characters escaped, as in every
report: a line break as ``\\n``); LaTeX has no unescaped special character.
"""
from __future__ import annotations

import csv
import io
import re
import shutil
from pathlib import Path

import pytest

from rstkit.cli import main
from rstkit.tables import markdown_cell

SAMPLE = Path(__file__).resolve().parents[1].parent / "corpora" / "sample"
# (no comma: --names splits on commas)
HOSTILE = ["dir|x", "a\\|b", "back\\slash", "two\nlines", "50% & $5_#{x}~^", "=cmd;\"quoted\""]


def unescaped_pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)(?:\\\\)*\|", line))


@pytest.mark.parametrize("name", HOSTILE)
def test_markdown_rows_keep_their_columns(capsys, name):
    assert main(["eval", str(SAMPLE / "gold"), str(SAMPLE / "pred"), str(SAMPLE / "pred"), "--names",
                 f"first,{name}", "--format", "markdown", "--n-bootstrap", "10", "--n-trials", "10"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    # header, two systems, the second's two paired tests: a name with a line break stays on its row
    assert len(rows) == 5
    assert {unescaped_pipes(row) for row in rows} == {6}  # system + S N R F: five cells, six bars


def test_a_path_name_with_a_bar(capsys, tmp_path):
    shutil.copytree(SAMPLE / "pred", tmp_path / "dir|x")
    assert main(["eval", str(SAMPLE / "gold"), str(tmp_path / "dir|x"), "--format", "markdown"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| dir"))
    assert row.startswith(r"| dir\|x | ") and unescaped_pipes(row) == 6


@pytest.mark.parametrize("name", HOSTILE)
def test_csv_reads_the_name_back(capsys, name):
    assert main(["eval", str(SAMPLE / "gold"), str(SAMPLE / "pred"), "--names", name, "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    # no report holds a raw control character (issue 32, item 8): a line break reads back as backslash, n
    shown = name.replace("\n", "\\n")
    assert {row[0] for row in rows[1:]} == {shown} and all(len(row) == len(rows[0]) for row in rows)


@pytest.mark.parametrize("name", HOSTILE)
def test_latex_escapes_the_name(capsys, name):
    assert main(["eval", str(SAMPLE / "gold"), str(SAMPLE / "pred"), "--names", name, "--format", "latex"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.endswith(r"\\") and "&" in line
               and not line.startswith(("System", " &")))
    cell = re.sub(r"\\text(backslash|asciitilde|asciicircum)\{\}", "", row.split(" & ")[0])
    assert not re.search(r"(?<!\\)[&%$#_{}~^]", cell)


def test_markdown_cell_by_hand():
    assert markdown_cell("dir|x") == r"dir\|x"
    assert markdown_cell("a\\b") == r"a\\b"
    assert markdown_cell("two\nlines") == "two lines"
    assert markdown_cell("") == ""
