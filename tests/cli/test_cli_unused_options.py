"""Options that would be accepted and change nothing are usage errors naming the option and why
(``rstkit eval``'s are in test_cli_eval_options.py): the audit of a paper's tables alone with scoring
options, ``--span-key`` without aligned EDUs, tree options on DISRPT segmentations, text-drawing
options on SVG, ``--glob`` on one file. The same options where they apply are accepted."""
from __future__ import annotations

from pathlib import Path

import pytest

from rstkit.cli import main
from tests.formats.test_disrpt import GOLD_CONLLU

SAMPLE = Path(__file__).resolve().parents[2] / "corpora" / "sample"
GOLD, PRED = str(SAMPLE / "gold"), str(SAMPLE / "pred")
BREAD = str(SAMPLE / "gold" / "sample_bread.dis")


def run(capsys, argv: list[str]) -> tuple[int, str]:
    try:
        status = main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    return status, capsys.readouterr().err


@pytest.mark.parametrize("argv, named", [
    # the case: the paper's tables alone, with options of an end-to-end audit
    (["--paper", "morey2017", "--edus", "aligned", "--span-key", "chars"], "--edus is for reading and scoring"),
    (["--paper", "morey2017", "--span-key", "first-edu-end"], "--span-key is for reading and scoring"),
    (["--paper", "morey2017", "--labels", "gum"], "--labels is for reading and scoring GOLD and PRED"),
    (["--paper", "morey2017", "--lenient"], "--lenient is for reading"),
    (["--paper", "morey2017", "--presets"], "--presets is for reading"),
    (["--paper", "morey2017", "--top", "3"], "--top is for reading"),
    (["--paper", "morey2017", "--pred-format", "dis"], "--pred-format is for reading"),
    (["--paper", "morey2017", GOLD, PRED, "--parser", "je14-dplp", "--edus", "aligned"],
     "--edus does not apply to --paper"),
    (["--paper", "morey2017", GOLD, PRED, "--parser", "je14-dplp", "--presets"], "--presets does not apply"),
    ([GOLD, PRED, "--published", "S=50", "--span-key", "chars"], "--span-key needs --edus aligned"),
    ([GOLD, PRED, "--published", "S=50", "--format", "json", "--top", "3"], "--top applies to text and Markdown"),
    ([GOLD, PRED, "--published", "S=50", "--format", "json", "--digits", "4"], "--digits applies to text"),
])
def test_audit_options_that_change_nothing(capsys, argv, named):
    status, err = run(capsys, ["audit", *argv])
    assert status == 2 and f"rstkit: error: {named}" in err, err


def test_audit_options_where_they_apply(capsys):
    assert run(capsys, ["audit", "--paper", "morey2017", "--format", "json"])[0] == 0
    assert run(capsys, ["audit", GOLD, PRED, "--published", "S=50", "--top", "2", "--digits", "1"])[0] == 0


@pytest.fixture
def conllu(tmp_path: Path) -> str:
    path = tmp_path / "g.conllu"
    path.write_text(GOLD_CONLLU, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("options, named", [
    (["--binarize", "right"], "--binarize applies to trees: DISRPT files are EDU segmentations"),
    (["--labels", "rstdt18"], "--labels applies to trees"),
    (["--keep-unknown-labels"], "--keep-unknown-labels applies to trees"),
    (["--lenient"], "--lenient applies to trees"),
])
def test_convert_tree_options_on_disrpt_files(capsys, tmp_path, conllu, options, named):
    status, err = run(capsys, ["convert", conllu, str(tmp_path / "out"), "--to", "tok", *options])
    assert status == 2 and named in err, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("options, named", [
    (["--binarize", "right"], "--binarize changes the trees' nodes or relations, which --to tok does not write"),
    (["--labels", "rstdt18"], "--labels changes the trees' nodes or relations"),
])
def test_convert_tree_options_to_segmentations(capsys, tmp_path, options, named):
    status, err = run(capsys, ["convert", BREAD, str(tmp_path / "bread.tok"), "--to", "tok", *options])
    assert status == 2 and named in err, err
    assert run(capsys, ["convert", BREAD, str(tmp_path / "bread.rs3"), "--to", "rs3", *options])[0] == 0


@pytest.mark.parametrize("options, named", [
    (["-o", "x.svg", "--width", "40"], "--width applies to text drawings, not to svg"),
    (["--kind", "html", "-o", "x.html", "--ascii"], "--ascii applies to text drawings, not to html"),
    (["--pred-format", "dis"], "--pred-format is the format of --compare PRED, and no PRED is given"),
])
def test_draw_options_that_change_nothing(capsys, tmp_path, monkeypatch, options, named):
    monkeypatch.chdir(tmp_path)
    status, err = run(capsys, ["draw", BREAD, *options])
    assert status == 2 and named in err, err
    assert not (tmp_path / "x.svg").exists() and not (tmp_path / "x.html").exists()


def test_draw_options_where_they_apply(capsys):
    assert run(capsys, ["draw", BREAD, "--width", "40", "--ascii"])[0] == 0
    assert run(capsys, ["draw", BREAD, "--compare", str(SAMPLE / "pred" / "sample_bread.dis"),
                        "--pred-format", "dis"])[0] == 0


def test_segment_glob_on_one_file(capsys, tmp_path):
    text = tmp_path / "t.txt"
    text.write_text("Hello there. I went home.\n", encoding="utf-8")
    status, err = run(capsys, ["segment", str(text), "-", "--glob", "*.md"])
    assert status == 2 and "--glob picks the files of a directory; INPUT is one file" in err, err


@pytest.mark.parametrize("argv, named", [
    ([BREAD, "-", "--segmenter", "segmenter-base"],
     "--segmenter segmenter-base segments plain .txt input, and INPUT has none"),
    ([GOLD, "OUT", "--split", "test", "--from", "dis"], "--from does not apply to --split"),
    ([GOLD, "OUT", "--split", "test", "--segmenter", "segmenter"], "--segmenter segmenter does not apply to --split"),
])
def test_parse_options_that_change_nothing(capsys, tmp_path, argv, named):
    pytest.importorskip("torch")  # the command looks for the parser extra before its options
    status, err = run(capsys, ["parse", *[str(tmp_path / "out") if a == "OUT" else a for a in argv],
                               "--model", "scratch"])
    assert status == 2 and named in err, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("options, named", [
    (["--encoder", "bow", "--batch-size", "8"], "--batch-size applies to the minilm encoder, not to bow"),
    (["--encoder", "random", "--device", "cpu"], "--device applies to the minilm encoder, not to random"),
    (["--encoder", "bow", "--cache-dir", "CACHE"], "--cache-dir concerns the encoding cache, and bow's encodings"),
    (["--encoder", "majority", "--no-cache"], "--no-cache concerns the encoding cache"),
    (["--encoder", "tests.support.probe_corpora:markers", "--no-cache", "--cache-dir", "CACHE"],
     "--cache-dir is where encodings are cached, and --no-cache caches none"),
])
def test_discoeval_options_that_change_nothing(capsys, tmp_path, options, named):
    options = [str(tmp_path / "cache") if o == "CACHE" else o for o in options]
    status, err = run(capsys, ["discoeval", "--corpus", GOLD, *options])
    assert status == 2 and named in err, err
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("options, named", [
    (["--encoder-lr", "1e-4"], "--encoder-lr sets how a fine-tuned encoder learns, and without --fine-tune"),
    (["--layer-decay", "0.5"], "--layer-decay sets how a fine-tuned encoder learns"),
    (["--seeds", "1,2", "--seed", "7"], "--seed seeds one model, and --seeds trains one per seed it lists"),
])
def test_train_options_that_change_nothing(capsys, tmp_path, options, named):
    pytest.importorskip("torch")  # the command looks for the parser extra before its options
    status, err = run(capsys, ["train", "--corpus", GOLD, "-o", str(tmp_path / "model"), *options])
    assert status == 2 and named in err, err
    assert not (tmp_path / "model").exists()
