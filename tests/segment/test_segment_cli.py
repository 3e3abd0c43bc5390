"""``rstkit segment`` and ``rstkit train-segmenter`` on the command line: outputs,
output-location checks and bad input (one-line errors naming the file, exit status 2)."""
from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")

from rstkit.cli import main
from tests.support.tiny_segmenter import save_tiny_segmenter

TEXT = "I stayed at home because it was raining.\nThen I read a book.\n\nA second paragraph."


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> str:
    """A tiny untrained model (the CLI's plumbing does not depend on its quality)."""
    return save_tiny_segmenter(tmp_path_factory.mktemp("model"))


def squeeze(text: str) -> str:
    return "".join(text.split())


def error_lines(capsys) -> list[str]:
    return capsys.readouterr().err.strip().splitlines()


def test_file_to_file_lines(tmp_path, model) -> None:
    source, target = tmp_path / "doc.txt", tmp_path / "doc.edus"
    source.write_text(TEXT, encoding="utf-8")
    assert main(["segment", str(source), str(target), "--segmenter", model]) == 0
    blocks = target.read_text(encoding="utf-8").split("\n\n")
    assert len(blocks) == 2 and squeeze(blocks[1]) == "Asecondparagraph."
    # the EDU lines are the text's characters in order, nothing added or lost
    assert squeeze(target.read_text(encoding="utf-8")) == squeeze(TEXT)


def test_jsonl_offsets_point_into_the_input(tmp_path, model) -> None:
    source = tmp_path / "doc.txt"
    source.write_text(TEXT, encoding="utf-8")
    assert main(["segment", str(source), str(tmp_path), "--format", "jsonl", "--segmenter", model]) == 0
    records = [json.loads(line) for line in (tmp_path / "doc.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all(TEXT[r["start"]:r["end"]] == r["text"] for r in records)
    assert records[-1]["paragraph"] == 2 and records[0]["start"] == 0 and records[-1]["end"] == len(TEXT)


def test_directory_to_directory(tmp_path, model) -> None:
    (tmp_path / "in" / "sub").mkdir(parents=True)
    (tmp_path / "in" / "a.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "in" / "sub" / "b.txt").write_text("One more text.", encoding="utf-8")
    (tmp_path / "in" / "notes.md").write_text("not matched", encoding="utf-8")
    assert main(["segment", str(tmp_path / "in"), str(tmp_path / "out"), "--segmenter", model]) == 0
    written = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert written == ["a.edus", "sub/b.edus"]


def test_existing_output_needs_force(tmp_path, model, capsys) -> None:
    source, target = tmp_path / "doc.txt", tmp_path / "doc.edus"
    source.write_text(TEXT, encoding="utf-8")
    target.write_text("old", encoding="utf-8")
    assert main(["segment", str(source), str(target), "--segmenter", model]) == 2
    assert error_lines(capsys) == [f"rstkit: error: {target}: the output file exists (use --force)"]
    assert target.read_text(encoding="utf-8") == "old"
    assert main(["segment", str(source), str(target), "--segmenter", model, "--force"]) == 0
    assert target.read_text(encoding="utf-8") != "old"


def test_never_overwrites_the_input(tmp_path, model, capsys) -> None:
    source = tmp_path / "doc.txt"
    source.write_text(TEXT, encoding="utf-8")
    assert main(["segment", str(source), str(source), "--segmenter", model, "--force"]) == 2
    assert "would overwrite an input file" in capsys.readouterr().err
    assert source.read_text(encoding="utf-8") == TEXT
    # a directory segmented into itself, its inputs having the output extension: the folders overlap
    (tmp_path / "old.edus").write_text(TEXT, encoding="utf-8")
    assert main(["segment", str(tmp_path), str(tmp_path), "--glob", "*.edus", "--segmenter", model, "--force"]) == 2
    assert f"{tmp_path}: refusing to write: the output is the input folder" in capsys.readouterr().err
    assert (tmp_path / "old.edus").read_text(encoding="utf-8") == TEXT


def test_output_location_errors(tmp_path, model, capsys) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert main(["segment", str(tmp_path / "in"), str(tmp_path / "file"), "--segmenter", model]) == 2
    assert "the output must be a directory" in capsys.readouterr().err
    assert main(["segment", str(tmp_path / "missing.txt"), str(tmp_path / "o"), "--segmenter", model]) == 2
    assert error_lines(capsys) == [f"rstkit: error: {tmp_path / 'missing.txt'}: no such file or directory"]
    assert main(["segment", str(tmp_path / "in"), str(tmp_path / "o"), "--glob", "*.text", "--segmenter", model]) == 2
    assert "no files matching '*.text'" in capsys.readouterr().err


def test_non_utf8_input_is_a_one_line_error_naming_file_and_byte(tmp_path, model, capsys) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "good.txt").write_text(TEXT, encoding="utf-8")
    bad = tmp_path / "in" / "bad.txt"
    bad.write_bytes("caf\u00e9\nna\u00efve".encode("latin-1"))
    assert main(["segment", str(tmp_path / "in"), str(tmp_path / "out"), "--segmenter", model]) == 2
    assert error_lines(capsys) == [(f"rstkit: error: {bad}:1: not UTF-8 text: byte 0xe9 at offset 3 cannot be "
                                    "decoded (convert the file to UTF-8)")]
    assert not (tmp_path / "out").exists(), "nothing is written when an input is bad"


@pytest.mark.filterwarnings("default::rstkit.errors.RSTKitWarning")
def test_empty_input_gives_an_empty_output_and_a_warning(tmp_path, model, capsys) -> None:
    source = tmp_path / "empty.txt"
    source.write_text(" \n\n", encoding="utf-8")
    assert main(["segment", str(source), str(tmp_path / "empty.edus"), "--segmenter", model]) == 0
    assert (tmp_path / "empty.edus").read_text(encoding="utf-8") == ""
    expected = f"rstkit: warning: {source}: no text (empty or only whitespace); its output is empty"
    warning, summary = error_lines(capsys)
    assert warning == expected and summary.startswith("rstkit segment: 1 file(s) segmented into 0 EDUs")


@pytest.mark.parametrize("text", ["word", "no punctuation here at all just words and more words",
                                  " ".join(["a long paragraph without any break"] * 1700)])
def test_odd_but_valid_text_is_segmented(tmp_path, model, text) -> None:
    source, target = tmp_path / "t.txt", tmp_path / "t.edus"
    source.write_text(text, encoding="utf-8")
    assert main(["segment", str(source), str(target), "--segmenter", model]) == 0
    assert squeeze(target.read_text(encoding="utf-8")) == squeeze(text)


def test_bad_model_directory(tmp_path, capsys) -> None:
    source = tmp_path / "doc.txt"
    source.write_text(TEXT, encoding="utf-8")
    assert main(["segment", str(source), str(tmp_path / "o.edus"), "--segmenter", str(tmp_path)]) == 2
    assert "not a segmenter model directory" in capsys.readouterr().err


@pytest.mark.parametrize("flag, value", [("--epochs", "0"), ("--threads", "-1"), ("--lr", "nan"),
                                         ("--flat-probability", "1.5"), ("--window", "x")])
def test_train_segmenter_validates_numbers(flag, value, capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["train-segmenter", "-o", "x", flag, value])
    assert info.value.code == 2
    assert flag in capsys.readouterr().err


def test_train_segmenter_needs_a_gum_checkout(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("RSTKIT_GUM", raising=False)
    assert main(["train-segmenter", "-o", str(tmp_path / "m")]) == 2
    assert "$RSTKIT_GUM is not set" in capsys.readouterr().err
    assert main(["train-segmenter", "-o", str(tmp_path / "m"), "--corpus-root", str(tmp_path)]) == 2
    assert "not a GUM checkout" in capsys.readouterr().err


def test_success_is_one_summary_line_and_dash_is_standard_input_and_output(tmp_path, model, capsys, monkeypatch):
    import io
    import sys

    source, target = tmp_path / "doc.txt", tmp_path / "doc.edus"
    source.write_text(TEXT, encoding="utf-8")
    assert main(["segment", str(source), "-o", str(target), "--segmenter", model]) == 0
    lines = error_lines(capsys)
    edus = [line for line in target.read_text(encoding="utf-8").splitlines() if line]
    assert len(lines) == 1 and lines[0].startswith(f"rstkit segment: 1 file(s) segmented into {len(edus)} EDUs")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TEXT.encode())))
    assert main(["segment", "-", "-", "--segmenter", model, "-q"]) == 0
    captured = capsys.readouterr()
    assert captured.out == target.read_text(encoding="utf-8") and captured.err == ""
