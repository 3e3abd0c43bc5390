"""``rstkit segment`` on DISRPT files: the file comes back with only its last column changed."""
from __future__ import annotations

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
