"""Parsing plain text: ``Parser.parse_text`` and ``rstkit parse`` on ``.txt`` files (segmenter, then parser).

CPU only, with the models that need nothing but torch (``scratch`` parser, ``segmenter-base``).
What is asserted holds whatever the models predict: the EDUs of each tree are the input text
(whitespace aside) in order, paragraphs follow the blank lines, and bad input is a one-line
error (exit status 2) or a tree, never a traceback.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("torch")

from rstkit.corpus import read_tree
from rstkit.errors import RSTKitError
from tests.support.cli_run import run_main

TEXT = ("The storm came at night, and the river rose. Nobody in the village had expected it.\n\n"
        "By morning the bridge was gone. The mayor, who had warned about the dam for years, called for help.\n\n"
        "Help arrived two days later\nbecause the roads were flooded.\n")
MODELS = ["--model", "scratch", "--segmenter", "segmenter-base"]


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)




@pytest.fixture(scope="module")
def parser():
    from rstkit.parser.api import Parser

    return Parser.load("scratch", device="cpu")


def test_parse_text_gives_trees_whose_edus_are_the_text(parser):
    tree = parser.parse_text(TEXT, segmenter="segmenter-base")
    assert squeeze("".join(e.text for e in tree.edus)) == squeeze(TEXT)
    assert tree.n_edus >= 3 and tree.is_binary()
    # three paragraphs (two blank lines); a line break inside a paragraph is not one
    assert [e.paragraph for e in tree.edus] == sorted(e.paragraph for e in tree.edus)
    assert {e.paragraph for e in tree.edus} == {1, 2, 3}
    first_of = {p: min(e.index for e in tree.edus if e.paragraph == p) for p in (1, 2, 3)}
    assert tree.edus[first_of[2] - 1].text.startswith("By morning")
    assert tree.edus[first_of[3] - 1].text.startswith("Help arrived")
    assert all(e.sentence is not None for e in tree.edus)
    assert not any("\n" in e.text for e in tree.edus)  # whitespace runs inside an EDU are one space
    trees = parser.parse_text([TEXT, "One more text."], segmenter="segmenter-base")
    assert isinstance(trees, list) and trees[0] == tree and trees[1].n_edus == 1
    with pytest.raises(RSTKitError, match="has no text"):
        parser.parse_text(" \n\n ", segmenter="segmenter-base")


def test_txt_is_segmented_and_written_with_its_edu_texts(tmp_path, capsys):
    source = tmp_path / "story.txt"
    source.write_text(TEXT, encoding="utf-8")
    status, err = run_main(["parse", str(source), str(tmp_path / "out"), *MODELS], capsys)
    assert status == 0 and "warning" not in err
    assert "1 plain-text document(s) segmented into" in err and "(segmenter: segmenter-base)" in err
    tree = read_tree(tmp_path / "out" / "story.dis")
    assert squeeze("".join(e.text for e in tree.edus)) == squeeze(TEXT)
    assert (tmp_path / "out" / "story.dis").read_text(encoding="utf-8").count("<P>_!") == 2  # 3 paragraphs
    for fmt, suffix in (("rsd", ".rsd"), ("rs3", ".rs3")):
        status, _ = run_main(["parse", str(source), str(tmp_path / fmt), *MODELS, "--to", fmt], capsys)
        assert status == 0
        assert [e.text for e in read_tree(tmp_path / fmt / f"story{suffix}").edus] == [e.text for e in tree.edus]


def test_segmenter_none_reads_txt_as_edu_lines(tmp_path, capsys):
    source = tmp_path / "story.txt"
    source.write_text(TEXT, encoding="utf-8")
    status, _ = run_main(["parse", str(source), str(tmp_path / "out"), "--model", "scratch", "--segmenter", "none"],
                         capsys)
    assert status == 0
    lines = [line for line in TEXT.splitlines() if line.strip()]
    assert [e.text for e in read_tree(tmp_path / "out" / "story.dis").edus] == lines  # one EDU per line, 4 lines


def test_boundary_files_do_not_apply_to_segmented_text(tmp_path, capsys):
    source = tmp_path / "story.txt"
    source.write_text(TEXT, encoding="utf-8")
    (tmp_path / "story.bnd").write_text("1\t1\n")
    status, err = run_main(["parse", str(source), str(tmp_path / "out"), *MODELS, "--boundaries",
                        str(tmp_path / "story.bnd")], capsys)
    assert status == 2 and "plain text, segmented here" in err and "--segmenter none" in err
    assert err.startswith("rstkit: error: ") and err.count("\n") == 1


@pytest.mark.parametrize("name, data", [("empty", b""), ("blank", b"  \n\n\t\n")])
def test_empty_text_is_a_one_line_error(tmp_path, capsys, name, data):
    source = tmp_path / f"{name}.txt"
    source.write_bytes(data)
    status, err = run_main(["parse", str(source), str(tmp_path / "out"), *MODELS], capsys)
    assert status == 2
    assert err == f"rstkit: error: {source}: document {name!r} has no text (empty or only whitespace)\n"
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_non_utf8_text_is_a_one_line_error_naming_line_and_byte(tmp_path, capsys):
    source = tmp_path / "latin.txt"
    source.write_bytes("Caf\u00e9 au lait.\nSecond line.\n".encode("utf-8") + b"Third \xff line.\n")
    status, err = run_main(["parse", str(source), str(tmp_path / "out"), *MODELS], capsys)
    assert status == 2 and err.count("\n") == 1
    offset = len("Caf\u00e9 au lait.\nSecond line.\nThird ".encode("utf-8"))  # 33: the é is two bytes
    assert err.startswith(f"rstkit: error: {source}:3: not UTF-8 text: byte 0xff at offset {offset} ")


def _words(n: int) -> str:
    vocabulary = ["the", "storm", "came", "at", "night", "and", "river", "rose", "nobody", "had", "expected", "it",
                  "because", "bridge", "was", "gone"]
    return " ".join(vocabulary[i * 7 % len(vocabulary)] for i in range(n))


@pytest.mark.parametrize("name, text", [
    ("no_punctuation", "the storm came at night and the river rose nobody had expected it by morning it was gone"),
    ("one_word", "Hello"),
    pytest.param("long_paragraph", _words(10_000), marks=pytest.mark.slow),  # one paragraph of 10,000 tokens
])
def test_hard_text_is_parsed(tmp_path, capsys, name, text):
    source = tmp_path / f"{name}.txt"
    source.write_text(text, encoding="utf-8")
    status, err = run_main(["parse", str(source), str(tmp_path / "out"), *MODELS], capsys)
    assert status == 0 and "error" not in err
    tree = read_tree(tmp_path / "out" / f"{name}.dis")
    assert squeeze("".join(e.text for e in tree.edus)) == squeeze(text)
    if name == "one_word":
        assert tree.n_edus == 1


def test_directory_of_text_files_reports_every_bad_file(tmp_path, capsys):
    folder = tmp_path / "texts"
    folder.mkdir()
    (folder / "good.txt").write_text(TEXT, encoding="utf-8")
    (folder / "empty.txt").write_text("")
    (folder / "latin.txt").write_bytes(b"caf\xe9\n")
    status, err = run_main(["parse", str(folder), str(tmp_path / "out"), *MODELS], capsys)
    assert status == 2 and "empty.txt" in err and "latin.txt:1: not UTF-8" in err and "Traceback" not in err
    Path(folder / "empty.txt").unlink()
    Path(folder / "latin.txt").unlink()
    status, _ = run_main(["parse", str(folder), str(tmp_path / "out"), *MODELS], capsys)
    assert status == 0 and (tmp_path / "out" / "good.dis").is_file()
