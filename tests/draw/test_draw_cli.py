"""``rstkit draw``: terminal output, SVG and HTML files, comparisons, directories, errors."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rstkit.cli import main

GOLDEN = Path(__file__).parents[1] / "golden" / "draw"
GOLD, PRED = GOLDEN / "cafe.dis", GOLDEN / "cafe_pred.dis"


def test_text_to_stdout_by_default(capsys) -> None:
    assert main(["draw", str(GOLD), "--width", "0"]) == 0
    out = capsys.readouterr().out
    assert out == (GOLDEN / "cafe.txt").read_text(encoding="utf-8")


def test_ascii_and_width_options(capsys) -> None:
    assert main(["draw", str(GOLD), "--ascii", "--width", "48"]) == 0
    assert capsys.readouterr().out == (GOLDEN / "cafe.ascii-w48.txt").read_text(encoding="utf-8")


def test_format_from_output_extension(tmp_path: Path) -> None:
    assert main(["draw", str(GOLD), "-o", str(tmp_path / "tree.svg")]) == 0
    root = ET.parse(tmp_path / "tree.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert main(["draw", str(GOLD), "-o", str(tmp_path / "tree.html")]) == 0
    assert (tmp_path / "tree.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_html_page_is_self_contained(tmp_path: Path) -> None:
    out = tmp_path / "diff.html"
    assert main(["draw", str(GOLD), "--compare", str(PRED), "--pred-format", "dis", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.count("<svg") == page.count("</svg>") >= 2
    urls = set(re.findall(r"(?:https?:)?//[\w.-]+[^\s\"'<>)]*", page))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls
    assert "<link" not in page and "src=" not in page and "@import" not in page and "url(" not in page
    assert "only in gold" in page and "different relation" in page  # the legend
    assert "1: The café on Rue Haute opened in 1998.</title>" in page  # EDU text on hover


def test_compare_in_the_terminal(capsys) -> None:
    assert main(["draw", str(GOLD), "--compare", str(PRED), "--width", "0"]) == 0
    assert capsys.readouterr().out == (GOLDEN / "cafe.compare.txt").read_text(encoding="utf-8")


def test_prediction_format_can_be_detected(capsys) -> None:
    assert main(["draw", str(GOLD), "--compare", str(PRED), "--pred-format", "auto", "--width", "0"]) == 0
    assert capsys.readouterr().out == (GOLDEN / "cafe.compare.txt").read_text(encoding="utf-8")


def test_edu_range(capsys) -> None:
    assert main(["draw", str(GOLD), "--edus", "5-6", "--width", "0"]) == 0
    assert capsys.readouterr().out == (GOLDEN / "cafe.edus-5-6.txt").read_text(encoding="utf-8")


def test_directory_to_directory(tmp_path: Path) -> None:
    src = tmp_path / "trees"
    src.mkdir()
    for path in (GOLD, PRED):
        (src / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["draw", str(src), "--format", "svg", "-o", str(tmp_path / "out")]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["cafe.svg", "cafe_pred.svg"]
    assert main(["draw", str(src), "--doc", "cafe_pred", "--format", "svg", "-o", str(tmp_path / "one.svg")]) == 0
    assert "cafe_pred" in (tmp_path / "one.svg").read_text(encoding="utf-8")


def test_sample_corpus_in_the_terminal(capsys) -> None:
    sample = Path(__file__).resolve().parents[1].parent / "corpora" / "sample" / "gold"
    if not sample.is_dir():
        pytest.skip("corpora/sample not present")
    assert main(["draw", str(sample), "--width", "100"]) == 0
    out = capsys.readouterr().out
    for path in sorted(sample.iterdir()):
        assert f"{path.name.split('.')[0]}: " in out


@pytest.mark.parametrize("argv, message", [
    (["--edus", "2-40"], "EDU range 2-40 is not within 1-7"),
    (["--doc", "nothing"], "no document 'nothing'"),
    (["--compare", str(GOLDEN / "missing.dis")], "no such file"),
])
def test_errors_are_one_clear_line(capsys, argv: list[str], message: str) -> None:
    assert main(["draw", str(GOLD), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rstkit: error: ") and message in err and err.count("\n") == 1


def test_a_malformed_range_is_a_usage_error(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["draw", str(GOLD), "--edus", "7-3"])
    assert exit_.value.code == 2
    assert "not an EDU range: '7-3'" in capsys.readouterr().err


def test_several_drawings_need_an_output_directory(tmp_path: Path, capsys) -> None:
    src = tmp_path / "trees"
    src.mkdir()
    for path in (GOLD, PRED):
        (src / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["draw", str(src), "--format", "html"]) == 2
    assert "name a directory" in capsys.readouterr().err


def test_different_segmentations_cannot_be_compared(tmp_path: Path, capsys) -> None:
    other = tmp_path / "short.dis"
    other.write_text("( Root (span 1 2)\n  ( Nucleus (leaf 1) (rel2par span) (text _!a_!) )\n"
                     "  ( Satellite (leaf 2) (rel2par elaboration) (text _!b_!) )\n)\n", encoding="utf-8")
    assert main(["draw", str(GOLD), "--compare", str(other)]) == 2
    assert "gold has 7 EDUs, the prediction 2" in capsys.readouterr().err
