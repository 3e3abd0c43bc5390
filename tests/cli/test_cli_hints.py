"""Hints that work: an error's ``(use --flag)`` names a flag of the command that ran, of the side the
problem is on (``--gold-format`` for gold, ``--pred-format`` for predictions, ``--from`` for the input
of stats, draw and convert), and never a flag the command ignores there (``--lenient`` for a DISRPT
file, which is read as it is); DISRPT files are read from standard input with ``--from tok|conllu``,
or refused by the commands that read trees, saying which commands read them.

Expected scores are counted by hand on tests/formats/test_disrpt.py's files (arithmetic in comments).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rstkit.cli import error_line
from rstkit.errors import FormatError
from tests.formats.test_disrpt import GOLD_CONLLU, PRED_CONLLU
from tests.support.cli_run import run_main_out

SAMPLE = Path(__file__).resolve().parents[2] / "corpora" / "sample"
BREAD_GOLD, BREAD_PRED = SAMPLE / "gold" / "sample_bread.dis", SAMPLE / "pred" / "sample_bread.dis"


@pytest.fixture
def ambiguous(tmp_path: Path) -> str:
    """A .dis file under a name no format claims: dis, codra, feng_dis and li_qi all read its content."""
    path = tmp_path / "bread.x"
    shutil.copy(BREAD_GOLD, path)
    return str(path)


def _last_error(argv: list[str], capsys, monkeypatch, stdin: bytes | None = None) -> str:
    status, _, err = run_main_out(argv, capsys, stdin, monkeypatch)
    assert status == 2, err
    return err.rstrip().splitlines()[-1]


@pytest.mark.parametrize("argv, flag", [
    (["eval", "AMBIGUOUS", str(BREAD_PRED), "--gold-format", "auto"], "--gold-format KEY"),
    (["eval", str(BREAD_GOLD), "AMBIGUOUS", "--pred-format", "auto"], "--pred-format KEY"),
    (["eval", "AMBIGUOUS", str(BREAD_PRED)], "--gold-format KEY"),  # by its name: no format claims it
    (["eval", str(BREAD_GOLD), "AMBIGUOUS"], "--pred-format KEY"),
    (["audit", "AMBIGUOUS", str(BREAD_PRED), "--published", "S=50", "--gold-format", "auto"], "--gold-format KEY"),
    (["audit", str(BREAD_GOLD), "AMBIGUOUS", "--published", "S=50", "--pred-format", "auto"], "--pred-format KEY"),
    (["stats", "AMBIGUOUS", "--from", "auto"], "--from KEY"),
    (["draw", "AMBIGUOUS", "--from", "auto"], "--from KEY"),
    (["draw", str(BREAD_GOLD), "--compare", "AMBIGUOUS", "--pred-format", "auto"], "--pred-format KEY"),
    (["convert", "AMBIGUOUS", "OUT.rs3", "--to", "rs3", "--from", "auto"], "--from KEY"),
])
def test_an_ambiguous_format_names_the_flag_of_its_side(ambiguous, tmp_path, capsys, monkeypatch, argv, flag):
    argv = [ambiguous if a == "AMBIGUOUS" else str(tmp_path / a) if a == "OUT.rs3" else a for a in argv]
    line = _last_error(argv, capsys, monkeypatch)
    assert "bread.x" in line and line.endswith(f"(use {flag})"), line


@pytest.mark.parametrize("argv, flag", [
    (["eval", "-", str(BREAD_PRED)], "--gold-format KEY"),
    (["eval", str(BREAD_GOLD), "-"], "--pred-format KEY"),
    (["stats", "-"], "--from KEY"),
    (["draw", "-"], "--from KEY"),
    (["convert", "-", "OUT.rs3", "--to", "rs3"], "--from KEY"),
])
def test_an_ambiguous_standard_input_names_the_flag_of_its_side(tmp_path, capsys, monkeypatch, argv, flag):
    argv = [str(tmp_path / a) if a == "OUT.rs3" else a for a in argv]
    line = _last_error(argv, capsys, monkeypatch, BREAD_GOLD.read_bytes())
    assert "<stdin>: ambiguous format" in line and line.endswith(f"(use {flag})"), line


# -- --lenient only where it gets past the error ------------------------------------------------------
@pytest.fixture
def undecodable_tok(tmp_path: Path) -> str:
    path = tmp_path / "bad.tok"
    path.write_bytes(b"# newdoc id = d\n1\tcaf\xc3\xa9\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg\n"
                     b"2\tx\xff\t_\t_\t_\t_\t_\t_\t_\tSeg=O\n")  # UTF-8 with a stray byte on line 3
    return str(path)


def test_a_disrpt_file_is_read_as_it_is_so_lenient_is_not_suggested(undecodable_tok, tmp_path, capsys, monkeypatch):
    for argv in (["eval", undecodable_tok, undecodable_tok, "--metric", "segmentation"],
                 ["convert", undecodable_tok, str(tmp_path / "out"), "--to", "conllu"]):
        line = _last_error(argv, capsys, monkeypatch)
        assert "bad.tok:3: not UTF-8 text" in line and line.endswith("(use --encoding NAME)"), line


def test_a_command_without_the_flag_is_not_told_to_use_it(undecodable_tok, capsys, monkeypatch):
    line = _last_error(["segment", undecodable_tok, "-"], capsys, monkeypatch)  # neither --encoding nor --lenient
    assert "bad.tok:3: not UTF-8 text" in line and "(use" not in line, line


def test_error_line_keeps_the_flags_the_command_has():
    error = FormatError("not UTF-8 text", "x.dis", 3, fixes=("encoding", "lenient"))
    assert error_line(error).endswith("(use --encoding NAME or --lenient)")
    assert error_line(error, {"--lenient", "--from"}).endswith("(use --lenient)")
    assert error_line(error, {"--from"}) == "rstkit: error: x.dis:3: not UTF-8 text"


# -- DISRPT files on standard input ------------------------------------------------------------------
def test_eval_reads_disrpt_from_standard_input(tmp_path, capsys, monkeypatch):
    pred = tmp_path / "p.conllu"
    pred.write_text(PRED_CONLLU, encoding="utf-8")
    status, out, err = run_main_out(["eval", "-", str(pred), "--metric", "segmentation", "--from", "conllu",
                                     "--format", "json"], capsys, GOLD_CONLLU.encode(), monkeypatch)
    assert status == 0, err
    result = json.loads(out)
    # gold: The did But ran | Yes sure = 6; pred: The cat But ran | sure = 5; matched The But ran | sure = 4
    assert result["counts"] == {"tokens": 11, "gold": 6, "pred": 5, "matched": 4}
    assert result["scores"]["F1"] == pytest.approx(800 / 11)
    gold = tmp_path / "g.conllu"
    gold.write_text(GOLD_CONLLU, encoding="utf-8")
    status, out, err = run_main_out(["eval", str(gold), "-", "--metric", "segmentation", "--pred-format", "conllu",
                                     "--format", "json"], capsys, PRED_CONLLU.encode(), monkeypatch)
    assert status == 0 and json.loads(out)["counts"]["matched"] == 4, err


def test_convert_reads_disrpt_from_standard_input(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    status, _, err = run_main_out(["convert", "-", str(out), "--to", "tok", "--from", "conllu"], capsys,
                                  GOLD_CONLLU.encode(), monkeypatch)
    assert status == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["docA.tok", "docB.tok"]  # one file per # newdoc id
    # docB's three tokens as they are: Yes (B-seg) , (O) sure (B-seg)
    lines = (out / "docB.tok").read_text(encoding="utf-8").splitlines()
    assert [line.split("\t")[1::8] for line in lines if line and not line.startswith("#")] == [
        ["Yes", "Seg=B-seg"], [",", "Seg=O"], ["sure", "Seg=B-seg"]]


@pytest.mark.parametrize("command", [["stats", "-"], ["draw", "-"], ["audit", "-", str(BREAD_PRED), "--published",
                                                                      "S=50"]])
def test_commands_that_read_trees_say_so_for_disrpt(command, tmp_path, capsys, monkeypatch):
    line = _last_error([*command, "--from", "tok"], capsys, monkeypatch, GOLD_CONLLU.encode())
    assert f"<stdin>: rstkit {command[0]} reads trees, and DISRPT .tok/.conllu files are EDU segmentations" in line
    tok = tmp_path / "g.tok"
    tok.write_text(GOLD_CONLLU, encoding="utf-8")
    named = [str(tok) if a == "-" else a for a in command]
    assert f"g.tok: rstkit {command[0]} reads trees" in _last_error(named, capsys, monkeypatch)


@pytest.mark.parametrize("argv, flag", [
    (["eval", "-", "P", "--metric", "segmentation"], "--gold-format KEY"),
    (["convert", "-", "OUT", "--to", "tok"], "--from KEY"),
])
def test_disrpt_on_standard_input_without_its_format_says_so(tmp_path, capsys, monkeypatch, argv, flag):
    pred = tmp_path / "p.conllu"
    pred.write_text(PRED_CONLLU, encoding="utf-8")
    argv = [str(pred) if a == "P" else str(tmp_path / "out") if a == "OUT" else a for a in argv]
    line = _last_error(argv, capsys, monkeypatch, GOLD_CONLLU.encode())
    assert "<stdin>: cannot detect the format: this is a DISRPT segmentation (tok or conllu)" in line, line
    assert line.endswith(f"(use {flag})"), line
