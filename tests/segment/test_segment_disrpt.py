"""``rstkit segment`` on DISRPT files: the file comes back with only its last column changed."""
from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from rstkit.cli import main
from rstkit.formats.disrpt import read_disrpt
from tests.support.tiny_segmenter import save_tiny_segmenter

CONLLU = """\
# newdoc id = d1
# sent_id = d1-1
# text = I stayed home because it rained.
1\tI\t_\t_\t_\t_\t_\t_\t_\tSeg=O
2\tstayed\tstay\tVERB\t_\t_\t0\troot\t_\t_
3-4\tdidn't\t_\t_\t_\t_\t_\t_\t_\t_
3\tdid\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No
4\tn't\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg|Other=x
4.1\thome\t_\t_\t_\t_\t_\t_\t_\t_

# sent_id = d1-2
1\tThen\t_\t_\t_\t_\t_\t_\t_\tSeg=O
2\tI\t_\t_\t_\t_\t_\t_\t_\tSeg=O
3\tread\t_\t_\t_\t_\t_\t_\t_\tSeg=O

"""


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> str:
    """A tiny untrained model (what is written back does not depend on its quality)."""
    return save_tiny_segmenter(tmp_path_factory.mktemp("model"))


@pytest.mark.parametrize("suffix", [".conllu", ".tok"])
def test_segment_writes_back_every_byte_but_the_last_column(tmp_path, model, suffix) -> None:
    text = CONLLU if suffix == ".conllu" else CONLLU.replace("1\tThen", "6\tThen").replace("2\tI", "7\tI").replace(
        "3\tread", "8\tread").replace("\n\n# sent_id = d1-2\n", "\n")
    source = tmp_path / f"in{suffix}"
    source.write_text(text, encoding="utf-8")
    assert main(["segment", str(source), str(tmp_path / f"out{suffix}"), "--segmenter", model]) == 0
    written = (tmp_path / f"out{suffix}").read_text(encoding="utf-8")
    before, after = text.split("\n"), written.split("\n")
    assert len(before) == len(after)
    for old, new in zip(before, after):
        token_line = old.count("\t") == 9 and old.split("\t")[0].isdigit()
        assert (old.rsplit("\t", 1)[0] == new.rsplit("\t", 1)[0]) if token_line else old == new
    (document,) = read_disrpt(tmp_path / f"out{suffix}").documents
    assert document.tokens == ("I", "stayed", "did", "n't", "Then", "I", "read")
    assert document.boundaries[0]  # the first token begins the first EDU
    if suffix == ".conllu":
        assert document.boundaries[4]  # a sentence start begins an EDU
    assert "Other=x" in after[7] and "SpaceAfter=No" in after[6]


def test_segment_keeps_a_byte_order_mark(tmp_path, model) -> None:
    """Issue 32, item 15: a .tok file's UTF-8 byte-order mark is in the .tok written back."""
    text = CONLLU.replace("\n\n# sent_id = d1-2\n", "\n").replace("1\tThen", "6\tThen").replace(
        "2\tI\t_", "7\tI\t_").replace("3\tread", "8\tread")
    source = tmp_path / "in.tok"
    source.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert main(["segment", str(source), str(tmp_path / "out.tok"), "--segmenter", model]) == 0
    assert (tmp_path / "out.tok").read_bytes().startswith(b"\xef\xbb\xbf# newdoc id = d1\n")


def test_format_is_refused_for_disrpt_files(tmp_path, model, capsys) -> None:
    source = tmp_path / "in.conllu"
    source.write_text(CONLLU, encoding="utf-8")
    assert main(["segment", str(source), str(tmp_path / "out.conllu"), "--to", "jsonl", "--segmenter", model]) == 2
    assert "--to is for plain text" in capsys.readouterr().err


def _tok(text: str) -> str:
    """``text`` (CONLLU) as a .tok file: one sentence-less run of tokens numbered on."""
    return text.replace("\n\n# sent_id = d1-2\n", "\n").replace("1\tThen", "6\tThen").replace(
        "2\tI\t_", "7\tI\t_").replace("3\tread", "8\tread")


def test_a_directory_takes_text_tok_and_conllu_files_by_default(tmp_path, model) -> None:
    """Issue 36: ``segment DIR`` looked only for ``*.txt``; each kind is now handled as the file
    alone is, and its output keeps its kind (.txt -> .edus, .tok -> .tok, .conllu -> .conllu)."""
    source = tmp_path / "in"
    (source / "sub").mkdir(parents=True)
    (source / "a.txt").write_text("I stayed home because it rained.\n", encoding="utf-8")
    (source / "b.tok").write_text(_tok(CONLLU), encoding="utf-8")
    (source / "sub" / "c.conllu").write_text(CONLLU, encoding="utf-8")
    (source / "notes.md").write_text("not an input", encoding="utf-8")
    assert main(["segment", str(source), str(tmp_path / "out"), "--segmenter", model]) == 0
    out = tmp_path / "out"
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "a.edus", "b.tok", "sub/c.conllu"]
    for name, alone in [("a.txt", "a.edus"), ("b.tok", "b.tok"), ("sub/c.conllu", "c.conllu")]:
        assert main(["segment", str(source / name), str(tmp_path / alone), "--segmenter", model]) == 0
        assert (out / name).with_suffix(Path(alone).suffix).read_bytes() == (tmp_path / alone).read_bytes()
    # --to is for the plain text: applied to a.txt, refused for a folder of DISRPT files only
    assert main(["segment", str(source), str(tmp_path / "jsonl"), "--to", "jsonl", "--segmenter", model]) == 0
    assert sorted(p.name for p in (tmp_path / "jsonl").rglob("*") if p.is_file()) == ["a.jsonl", "b.tok", "c.conllu"]
    (source / "a.txt").unlink()
    assert main(["segment", str(source), str(tmp_path / "none"), "--to", "jsonl", "--segmenter", model]) == 2
    assert not (tmp_path / "none").exists()


def test_a_glob_still_picks_the_files_and_each_is_read_by_its_kind(tmp_path, model) -> None:
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.txt").write_text("I stayed home because it rained.\n", encoding="utf-8")
    (source / "b.tok").write_text(_tok(CONLLU), encoding="utf-8")
    assert main(["segment", str(source), str(tmp_path / "tok"), "--glob", "*.tok", "--segmenter", model]) == 0
    assert [p.name for p in (tmp_path / "tok").iterdir()] == ["b.tok"]
    assert main(["segment", str(source), str(tmp_path / "all"), "--glob", "*", "--segmenter", model]) == 0
    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == ["a.edus", "b.tok"]
    (document,) = read_disrpt(tmp_path / "all" / "b.tok").documents  # written back as DISRPT, not as text
    assert document.tokens == ("I", "stayed", "did", "n't", "Then", "I", "read")
