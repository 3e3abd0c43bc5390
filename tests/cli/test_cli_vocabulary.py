"""The command line's shared vocabulary (issue 24): ``-`` for standard input and output, ``-o/--output``,
``-q/--quiet`` and ``--verbose``, ``--from`` on eval/audit (old spellings: test_cli_flags_table.py),
defaults in ``--help``, the subcommand's own usage named on its errors, what start-up imports, and the
small fixes (ids of ``.out.txt`` files, nearest ids, warnings at the caller's line, the parser extra
named, model cards without machine paths, parse's ``--force``, segment's summary).

Expected values come from the sample corpus's files themselves (read back through a second path:
the file given by name), from the formats' specs (RST-DT ids) or are written out by hand."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from rstkit.cli import build_parser
from rstkit.formats import all_formats, doc_id_from_path
from rstkit.progress import Progress, waiting
from tests.support.cli_run import run_main, run_main_out

ROOT = Path(__file__).resolve().parents[1].parent
SAMPLE = ROOT / "corpora" / "sample"
GOLD, PRED = SAMPLE / "gold", SAMPLE / "pred"
BREAD = GOLD / "sample_bread.dis"


def _python(code: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120, **kwargs)


# -- start-up imports ------------------------------------------------------------------------------

def test_version_imports_neither_numpy_nor_the_metrics():
    done = _python("import sys\nfrom rstkit.cli import main\n"
                   "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
                   "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'networkx') "
                   "or m.startswith(('rstkit.metrics', 'rstkit.audit', 'rstkit.draw'))))")
    assert done.stdout.startswith("rstkit ") and done.stdout.splitlines()[-1] == "[]", done.stdout + done.stderr


def test_eval_imports_no_audit_tables_and_no_graph_library():
    done = _python(f"import sys\nfrom rstkit.cli import main\nmain(['eval', '{GOLD}', '{PRED}', '-q'])\n"
                   "print([m for m in sys.modules if m.startswith(('rstkit.audit', 'networkx', 'rstkit.draw'))])")
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "[]", done.stderr


def test_import_rstkit_is_light_and_names_load_on_first_use():
    done = _python("import sys, rstkit\nprint('numpy' in sys.modules)\n"
                   f"print(rstkit.read_tree('{BREAD}').n_edus, 'rstkit.draw' in sys.modules)")
    assert done.stdout.split() == ["False", "6", "True"], done.stderr  # draw registered for notebook display


def test_parser_without_torch_names_the_extra_to_install():
    done = _python("import sys\nsys.modules['torch'] = None\nimport rstkit\n"
                   "try:\n    rstkit.Parser\nexcept ImportError as exc:\n    print(exc)")
    assert "pip install 'rstkit[parser]'" in done.stdout and "torch" in done.stdout, done.stdout + done.stderr


# -- standard input and output ---------------------------------------------------------------------

def test_stats_reads_standard_input(capsys, monkeypatch):
    status, out, _ = run_main_out(["stats", "-", "--from", "dis", "--format", "json"], capsys,
                                  BREAD.read_bytes(), monkeypatch)
    _, by_name, _ = run_main_out(["stats", str(BREAD), "--format", "json"], capsys)
    assert status == 0 and json.loads(out) == json.loads(by_name)


def test_convert_writes_standard_output_and_no_file_named_dash(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, _ = run_main_out(["convert", str(BREAD), "-", "--to", "rsd"], capsys)
    assert status == 0 and not (tmp_path / "-").exists()
    assert run_main(["convert", str(BREAD), "bread.rsd", "--to", "rsd"], capsys)[0] == 0
    assert out == (tmp_path / "bread.rsd").read_text(encoding="utf-8")


def test_convert_of_several_documents_to_standard_output_is_an_error(capsys):
    status, out, err = run_main_out(["convert", str(GOLD), "-", "--to", "rsd"], capsys)
    assert status == 2 and out == "" and "4 documents cannot go to standard output" in err


def test_draw_to_standard_output_from_standard_input(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, _ = run_main_out(["draw", "-", "--from", "dis", "-o", "-", "--kind", "svg"], capsys,
                                  BREAD.read_bytes(), monkeypatch)
    assert status == 0 and out.startswith("<svg") and not (tmp_path / "-").exists()


def test_eval_reads_predictions_from_standard_input(capsys, monkeypatch):
    pred = PRED / "sample_library.dis"
    status, out, _ = run_main_out(["eval", str(GOLD / "sample_library.dis"), "-", "--from", "dis", "-q"], capsys,
                                  pred.read_bytes(), monkeypatch)
    _, by_name, _ = run_main_out(["eval", str(GOLD / "sample_library.dis"), str(pred), "-q"], capsys)
    rows = [line.split() for line in out.splitlines()]
    # the sample_library scores evaluate()'s doctest states by hand: S 66.67 N 33.33 R 16.67 F 16.67
    assert status == 0 and rows[3][1:] == ["66.67", "33.33", "16.67", "16.67"]
    assert out.splitlines()[3].split()[1:] == by_name.splitlines()[3].split()[1:]


def test_standard_input_against_a_gold_folder_says_how_its_document_is_named(capsys, monkeypatch):
    status, _, err = run_main_out(["eval", str(GOLD), "-", "--from", "dis"], capsys, BREAD.read_bytes(), monkeypatch)
    assert status == 2 and "no prediction" in err and "named by the format, else 'stdin'" in err


def test_two_inputs_on_standard_input_are_refused(capsys):
    status, err = run_main(["eval", "-", "-"], capsys)
    assert status == 2 and "standard input (-) can be only one" in err


# -- outputs, verbosity, usage ---------------------------------------------------------------------

@pytest.mark.parametrize("command", [["eval", str(GOLD), str(PRED)], ["stats", str(GOLD)],
                                     ["audit", str(GOLD), str(PRED), "--published", "S=81.25"]])
def test_output_option_writes_what_standard_output_shows(command, tmp_path, capsys):
    _, shown, _ = run_main_out([*command, "-q"], capsys)
    target = tmp_path / "result.txt"
    status, out, _ = run_main_out([*command, "-q", "-o", str(target)], capsys)
    assert status == 0 and out == "" and target.read_text(encoding="utf-8") == shown


def test_output_option_never_overwrites_an_input(capsys):
    status, err = run_main(["eval", str(BREAD), str(PRED / "sample_bread.dis"), "-o", str(BREAD)], capsys)
    assert status == 2 and "error" in err


def test_quiet_prints_only_the_result_and_json_keeps_the_warnings(capsys):
    status, out, err = run_main_out(["eval", str(GOLD), str(PRED), "--format", "json", "-q"], capsys)
    assert status == 0 and err == ""
    # sample_note is the sample's one one-EDU document (corpora/sample/gold/sample_note.dis)
    assert any("one-EDU" in w and "sample_note" in w for w in json.loads(out)["warnings"])
    _, _, loud = run_main_out(["eval", str(GOLD), str(PRED)], capsys)
    assert "rstkit: warning: 1 one-EDU document(s)" in loud


def test_detected_format_is_a_note_not_a_warning(capsys):
    status, out, err = run_main_out(["eval", str(GOLD), str(PRED), "--pred-format", "auto", "--format", "json"],
                                    capsys)
    assert status == 0 and f"rstkit: {PRED}: detected format 'dis'" in err
    assert not any("detected" in w for w in json.loads(out)["warnings"])
    assert "detected" not in run_main_out(["eval", str(GOLD), str(PRED), "--from", "auto", "-q"], capsys)[2]


def test_from_sets_both_sides_and_a_side_flag_wins(capsys):
    status, err = run_main(["eval", str(GOLD), str(PRED), "--from", "rs3", "--gold-format", "dis", "-q"], capsys)
    assert status == 2 and "rs3" in err  # the predictions were read as rs3 (the gold as dis)
    assert run_main(["eval", str(GOLD), str(PRED), "--from", "dis", "-q"], capsys)[0] == 0


def test_a_subcommand_error_points_to_the_subcommand_usage(capsys):
    with pytest.raises(SystemExit) as exit_:
        run_main(["eval", str(GOLD), str(PRED), "--no-such-flag"], capsys)
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err == "rstkit eval: error: unrecognized arguments: --no-such-flag (see rstkit eval --help)\n"


def test_help_states_defaults_and_comma_lists(capsys):
    with pytest.raises(SystemExit):
        build_parser(["eval"]).parse_args(["eval", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "METRIC[,METRIC...]" in text and "comma list of them" in text
    assert "(default: micro)" in text and "(default: 12345)" in text  # --average and --seed


@pytest.mark.parametrize("command", [["parse", "x", "o"], ["segment", "x", "o"], ["train", "--corpus", "c"],
                                     ["train-segmenter"], ["eval", "g", "p"]])
def test_jobs_everywhere_and_threads_its_other_spelling(command, capsys):
    for flag in ("--jobs", "--threads") if command[0] != "eval" else ("--jobs",):  # eval: --jobs only
        argv = [*command, flag, "3"]
        assert build_parser(argv).parse_args(argv).jobs == 3


def test_two_different_outputs_are_refused(capsys):
    status, err = run_main(["convert", str(BREAD), "a.rsd", "-o", "b.rsd", "--to", "rsd"], capsys)
    assert status == 2 and "two outputs given" in err


# -- small fixes -----------------------------------------------------------------------------------

@pytest.mark.parametrize("key", sorted(all_formats()))
def test_rstdt_out_is_stripped_by_every_format(key):
    fmt = all_formats()[key]
    names = ["wsj_1100.out.txt", *(f"wsj_1100.out{ext}" for ext in fmt.extensions),
             *(f"{prefix}wsj_1100.out" for prefix in fmt.prefixes)]
    assert {fmt.doc_id(name) for name in names} == {"wsj_1100"}


def test_ids_without_rstdt_out_are_unchanged():
    assert [doc_id_from_path(n) for n in ["GUM_news_iodine.rs4", "doc.1.dis", "a.txt", "out.dis", "x.outline.dis"]] \
        == ["GUM_news_iodine", "doc.1", "a", "out", "x"]


def test_missing_predictions_name_the_nearest_ids(tmp_path, capsys):
    pred = tmp_path / "pred"
    pred.mkdir()
    for file in PRED.glob("*.dis"):  # every prediction under a slightly different id
        (pred / file.name.replace("sample_", "sample-")).write_bytes(file.read_bytes())
    status, err = run_main(["eval", str(GOLD), str(pred)], capsys)
    assert status == 2 and "nearest predicted ids: sample_bread ~ sample-bread" in err


def test_api_warnings_point_at_the_callers_line():
    import rstkit

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rstkit.evaluate(str(GOLD), str(PRED)); line = sys._getframe().f_lineno  # noqa: E702
    assert caught and {(Path(w.filename).name, w.lineno) for w in caught} == {("test_cli_vocabulary.py", line)}


def test_shipped_model_cards_name_no_machine_path():
    configs = [*ROOT.glob("rstkit/data/**/config.json"), *ROOT.glob("parsers/**/config.json")]
    assert configs
    for config in configs:
        text = config.read_text(encoding="utf-8")
        assert '"corpus": "/' not in text, config
    card = json.loads((ROOT / "rstkit/data/models/segmenter/config.json").read_text())["training"]["corpus"]
    assert card["name"] == "GUM" and isinstance(card["documents"], int)


def test_audit_paper_row_detects_the_prediction_format(capsys):
    """The README's ``rstkit audit --paper morey2017 GOLD PRED --parser "JE14 DPLP"`` on .dis predictions."""
    status, out, err = run_main_out(["audit", "--paper", "morey2017", str(GOLD), str(PRED), "--parser", "JE14 DPLP",
                                     "-q"], capsys)
    assert status == 0 and err == "" and "JE14" in out


# -- progress --------------------------------------------------------------------------------------

class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class _Stream:
    def __init__(self, terminal: bool) -> None:
        self.text, self.terminal = "", terminal

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return self.terminal


def test_progress_off_a_terminal_is_a_line_every_few_seconds():
    clock, stream = _Clock(), _Stream(terminal=False)
    with Progress(10, "read", "file", enabled=True, every=5, stream=stream, clock=clock) as bar:
        for _ in range(10):
            clock.now += 2  # items done at 2, 4, ..., 20 s: reports due at 6 s, then 5 s apart: 6, 12, 18
            bar.update()
    assert stream.text.splitlines() == ["read: 3/10 file (6s)", "read: 6/10 file (12s)", "read: 9/10 file (18s)"]


def test_progress_on_a_terminal_is_one_bar_and_quick_work_shows_nothing():
    clock, stream = _Clock(), _Stream(terminal=True)
    with Progress(4, "parse", "doc", enabled=True, stream=stream, clock=clock) as bar:
        for _ in range(4):
            clock.now += 1
            bar.update()
    assert "\n" not in stream.text.rstrip("\n") and stream.text.endswith("4/4 doc 4.0s\n")
    assert "[" + "#" * 30 + "]" in stream.text
    quick, hidden = _Stream(terminal=True), _Stream(terminal=False)
    for stream in (quick, hidden):
        with Progress(4, "parse", enabled=True, stream=stream, clock=_Clock()) as bar:
            bar.update(4)
    assert quick.text == hidden.text == ""
    off = _Stream(terminal=False)
    with Progress(4, "parse", stream=off, clock=clock) as bar:  # not asked for: the library's default
        clock.now += 100
        bar.update(4)
    assert off.text == ""


def test_a_phase_with_nothing_to_count_reports_its_time():
    slow, quick, off = _Stream(terminal=False), _Stream(terminal=False), _Stream(terminal=False)
    with waiting("start-up: importing torch", every=0.2, stream=slow, enabled=True):
        time.sleep(0.9)  # a line every 0.2 s of real time (its timer thread), at least two before the block ends
    lines = slow.text.splitlines()
    assert len(lines) >= 2 and all(re.fullmatch(r"start-up: importing torch \(\d+s\)", line) for line in lines), lines
    with waiting("loading", every=5, stream=quick, enabled=True):
        pass
    with waiting("loading", every=0.01, stream=off):  # not asked for: the library's default
        time.sleep(0.1)
    assert quick.text == off.text == ""
    terminal = _Stream(terminal=True)
    with waiting("loading the parser", stream=terminal, enabled=True):
        time.sleep(0.8)  # drawn from 0.5 s on, then every 0.1 s, on one line
    assert terminal.text.startswith("\rloading the parser 0.") and terminal.text.endswith("s\n")
    assert terminal.text.count("\n") == 1


def test_eval_takes_the_reference_binarization_as_draw_and_convert_spell_it(capsys):
    """`eval --binarize rst-eval` is `--compat rst-eval` (the reference's binarization comes with its mode)."""
    sample = ["eval", "corpora/sample/gold", "corpora/sample/pred", "--metric", "rst-parseval", "-q",
              "--format", "json"]
    status, by_binarize, _ = run_main_out([*sample, "--binarize", "rst-eval"], capsys)
    assert status == 0
    status, by_compat, _ = run_main_out([*sample, "--compat", "rst-eval"], capsys)
    assert status == 0 and by_binarize == by_compat and "compat=rst-eval" in by_binarize
