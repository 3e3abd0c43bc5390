"""Golden-file tests of the terminal renderer (rstkit.draw.text).

The inputs and expected drawings live in tests/golden/draw/. After an intended change
of the drawing, regenerate them with ``RSTKIT_UPDATE_GOLDEN=1 pytest tests/draw/test_draw_text.py``
and read the diff before committing.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings

from rstkit import draw
from rstkit.corpus import read_tree
from rstkit.draw.text import needs_ascii
from tests.support.strategies import rst_trees

GOLDEN = Path(__file__).parents[1] / "golden" / "draw"
UPDATE = os.environ.get("RSTKIT_UPDATE_GOLDEN") == "1"


def gold() -> object:
    return read_tree(GOLDEN / "cafe.dis")


def pred() -> object:
    return read_tree(GOLDEN / "cafe_pred.dis")


CASES = {
    "cafe.txt": lambda: draw.to_text(gold()),
    "cafe.ascii-w48.txt": lambda: draw.to_text(gold(), width=48, ascii=True),
    "cafe.edus-5-6.txt": lambda: draw.to_text(gold(), edus=(5, 6)),
    "cafe.compare.txt": lambda: draw.compare_text(gold(), pred()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_text_drawing_matches_golden_file(name: str) -> None:
    drawn = CASES[name]()
    path = GOLDEN / name
    if UPDATE:
        path.write_text(drawn, encoding="utf-8")
    assert drawn == path.read_text(encoding="utf-8")


def test_ascii_drawing_is_pure_ascii_and_width_is_respected() -> None:
    drawn = draw.to_text(gold(), width=48, ascii=True)
    assert drawn.isascii()
    assert max(len(line) for line in drawn.splitlines()) <= 48
    assert "..." in drawn  # long EDU lines were cut


def test_encoding_decides_the_fallback() -> None:
    assert needs_ascii("ascii") and needs_ascii("latin-1") and needs_ascii(None)
    assert not needs_ascii("utf-8")


def test_one_edu_document(examples_dir: Path) -> None:
    tree = read_tree(examples_dir / "one_edu" / "gold" / "one.dis")
    drawn = draw.to_text(tree)
    assert drawn.splitlines()[0].endswith(": 1 EDU")
    assert drawn.splitlines()[1] == f"1: {tree.edus[0].text}"


@settings(max_examples=60, deadline=None)
@given(rst_trees(max_edus=15, patterns="any", with_text=True))
def test_one_line_per_constituent_in_preorder(tree) -> None:
    lines = draw.to_text(tree).splitlines()[1:]
    nodes = list(tree.nodes())
    assert len(lines) == len(nodes)
    for line, node in zip(lines, nodes):
        span = str(node.start) if node.is_leaf else f"{node.start}-{node.end}"
        assert span in line.split(":")[0].split()
        if node.is_leaf:
            text = tree.edus[node.start - 1].text
            # EDU text as it is; one with an unprintable character (a format character, a line separator, one
            # Python's Unicode tables do not know) shows it escaped: still one printable line (issue 32, item 8)
            assert line.endswith(": " + text) if text.isprintable() else line.isprintable()


def test_nltk_pretty_printer_still_works(capsys) -> None:
    gold().to_nltk().pretty_print(unicodelines=True, maxwidth=14)
    printed = capsys.readouterr().out
    assert printed.lstrip().startswith("Root")
    assert "background" in printed and "1998." in printed
