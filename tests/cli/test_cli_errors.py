"""Bad input on every subcommand: one line ``rstkit: error: ...`` naming the file, exit status 2,
never a traceback; numeric flags checked by argparse; errors a flag fixes name the flag.

Expectations come from the inputs themselves: the file that is bad is the one the message
must name; the exit status 2 and the ``(use --flag)`` hints are the documented contract
(rstkit/cli/__init__.py, README "Bad input").
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rstkit.cli import FIX_FLAGS, build_parser, main
from rstkit.cli.common import nonnegative_int, open_unit_interval, positive_float, positive_int, seed
from rstkit.errors import FIXES, LabelError, RSTKitError, TreeStructureError
from rstkit.labels import get_label_map
from rstkit.probe.encoders import import_encoder
from rstkit.probe.errors import EncoderError
from rstkit.report import Report, render
from rstkit.tree import EDU, RSTTree, internal, leaf, nuclearity_from_word, nuclearity_word
from tests.support.cli_run import without_privileges

#: the test encoder, a module:function spec that discoeval imports
MARKERS_SPEC = "tests.support.probe_corpora:markers"

PROJECT = Path(__file__).resolve().parents[1].parent
SAMPLE = PROJECT / "corpora" / "sample"
OK = SAMPLE / "gold" / "sample_bread.dis"


def run(capsys, *argv) -> tuple[int, str]:
    """Exit status and stderr of ``rstkit argv`` run in this process (argparse's exits included)."""
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exc:
        status = exc.code
    return status, capsys.readouterr().err


def assert_input_error(status: int, err: str, name: str) -> None:
    assert status == 2, err
    assert "Traceback" not in err and "internal error" not in err
    errors = [line for line in err.splitlines() if line.startswith("rstkit: error: ")]
    assert errors, err
    assert any(name in line for line in errors), err
    assert all(line.isprintable() for line in errors), err  # a binary file's bytes are shown escaped


@pytest.fixture(scope="module")
def bad(tmp_path_factory) -> Path:
    """Files and directories that are not what rstkit reads."""
    root = tmp_path_factory.mktemp("bad")
    (root / "empty.dis").write_bytes(b"")
    (root / "binary.dis").write_bytes(bytes(range(256)) * 4)
    (root / "bom_only.dis").write_bytes(b"\xef\xbb\xbf")
    (root / "truncated.dis").write_text(OK.read_text(encoding="utf-8")[:200], encoding="utf-8")
    (root / "dis_in_disguise.rs3").write_text(OK.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "dis_in_disguise.rsd").write_text(OK.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "junk").mkdir()
    (root / "junk" / "notes.dis").write_text("this is not a tree\n", encoding="utf-8")
    (root / "emptydir").mkdir()
    return root


#: a bad input and the name its error must show
BAD_INPUTS = [("missing.dis", "missing.dis"), ("empty.dis", "empty.dis"), ("binary.dis", "binary.dis"),
              ("bom_only.dis", "bom_only.dis"), ("truncated.dis", "truncated.dis"),
              ("dis_in_disguise.rs3", "dis_in_disguise.rs3"), ("dis_in_disguise.rsd", "dis_in_disguise.rsd"),
              ("junk", "notes.dis"), ("emptydir", "emptydir")]

#: each subcommand's way of reading one input ({bad} is replaced, {out} a fresh output path)
COMMANDS = {
    "stats": ["stats", "{bad}"],
    "draw": ["draw", "{bad}"],
    "convert": ["convert", "{bad}", "{out}", "--to", "rs3"],
    "eval-gold": ["eval", "{bad}", OK],
    "eval-pred": ["eval", OK, "{bad}"],
    "eval-pred-auto": ["eval", OK, "{bad}", "--pred-format", "auto"],
    "audit": ["audit", OK, "{bad}", "--published", "S=50"],
    "draw-compare": ["draw", OK, "--compare", "{bad}"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("input_name", "named"), BAD_INPUTS)
def test_bad_input_is_one_error_line_with_status_2(bad, tmp_path, capsys, command, input_name, named):
    out = tmp_path / "out"
    argv = [str(bad / input_name) if a == "{bad}" else str(out) if a == "{out}" else a for a in COMMANDS[command]]
    status, err = run(capsys, *argv)
    if command.endswith("auto") and input_name == "junk":
        named = "junk"  # detection looks at the directory as a whole
    assert_input_error(status, err, named)
    assert not out.exists()  # a failed convert leaves nothing behind


@pytest.mark.parametrize("input_name", ["emptydir", "junk", "missing"])
def test_discoeval_bad_corpus(bad, capsys, input_name):
    status, err = run(capsys, "discoeval", "--corpus", bad / input_name, "--encoder", "bow")
    assert_input_error(status, err, input_name)


def test_the_installed_command_prints_no_traceback(bad):
    """The real process: one line, status 2 (not 1, as ``stats`` used to exit)."""
    result = subprocess.run([sys.executable, "-m", "rstkit", "stats", str(bad / "junk")],
                            check=False, capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1].startswith(f"rstkit: error: {bad / 'junk' / 'notes.dis'}:1:")
    assert "Traceback" not in result.stderr


@pytest.fixture
def unprivileged() -> list[str]:
    prefix = without_privileges()
    if prefix is None:
        pytest.skip("running as root without setpriv: permissions cannot be tested")
    return prefix


@pytest.mark.parametrize("command", [["stats", "{x}"], ["draw", "{x}"], ["eval", OK, "{x}"],
                                     ["convert", "{x}", "{out}", "--to", "rsd"],
                                     ["audit", "{x}", OK, "--published", "S=1"]])
@pytest.mark.parametrize("what", ["file", "directory"])
def test_unreadable_input(tmp_path, unprivileged, command, what):
    target = tmp_path / ("locked.dis" if what == "file" else "locked")
    if what == "file":
        shutil.copy(OK, target)
    else:
        target.mkdir()
        shutil.copy(OK, target / "a.dis")
    target.chmod(0)
    try:
        argv = [str(target) if a == "{x}" else str(tmp_path / "out") if a == "{out}" else str(a) for a in command]
        result = subprocess.run([*unprivileged, sys.executable, "-m", "rstkit", *argv], check=False,
                                capture_output=True, text=True)
    finally:
        target.chmod(0o755)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"rstkit: error: {target}") and "ermission denied" in result.stderr
    assert "Traceback" not in result.stderr


# -- numeric options ----------------------------------------------------------------------------
GOLD, PRED = SAMPLE / "gold", SAMPLE / "pred"
NUMERIC = [
    (["eval", GOLD, PRED, "--ci", "1.5"], "--ci"),
    (["eval", GOLD, PRED, "--ci", "0"], "--ci"),
    (["eval", GOLD, PRED, "--ci", "1"], "--ci"),
    (["eval", GOLD, PRED, "--ci", "nan"], "--ci"),
    (["eval", GOLD, PRED, "--ci", "ninety"], "--ci"),
    (["eval", GOLD, PRED, "--digits", "-1"], "--digits"),
    (["eval", GOLD, PRED, "--n-bootstrap", "0"], "--n-bootstrap"),
    (["eval", GOLD, PRED, PRED, "--n-trials", "0"], "--n-trials"),
    (["eval", GOLD, PRED, "--seed", "-1"], "--seed"),
    (["eval", GOLD, PRED, "--seed", "1.5"], "--seed"),
    (["audit", GOLD, PRED, "--published", "S=1", "--top", "-1"], "--top"),
    (["audit", GOLD, PRED, "--published", "S=1", "--digits", "-2"], "--digits"),
    (["draw", OK, "--width", "-5"], "--width"),
    (["discoeval", "--corpus", GOLD, "--encoder", "bow", "--c-grid", "0,1"], "--c-grid"),
    (["discoeval", "--corpus", GOLD, "--encoder", "bow", "--c-grid", "1,nan"], "--c-grid"),
    (["discoeval", "--corpus", GOLD, "--encoder", "bow", "--c-grid", "inf"], "--c-grid"),
    (["discoeval", "--corpus", GOLD, "--encoder", "bow", "--c-grid", "1,,2"], "--c-grid"),
    (["discoeval", "--corpus", GOLD, "--encoder", "bow", "--batch-size", "0"], "--batch-size"),
    (["discoeval", "--corpus", GOLD, "--encoder", "bow", "--seed", str(2**32)], "--seed"),
]


@pytest.mark.parametrize(("argv", "flag"), NUMERIC, ids=[" ".join(map(str, a[3:])) or a[0] for a, _ in NUMERIC])
def test_numeric_options_are_checked_by_argparse(capsys, argv, flag):
    status, err = run(capsys, *argv)
    assert status == 2
    assert f"error: argument {flag}" in err and "Traceback" not in err


def test_validators_accept_their_boundaries():
    assert positive_int("1") == 1 and nonnegative_int("0") == 0 and seed("4294967295") == 2**32 - 1
    assert open_unit_interval("0.95") == 0.95 and positive_float("1e-9") == 1e-9


def test_digits_zero_is_allowed(capsys):
    assert main(["eval", str(GOLD), str(PRED), "--digits", "0"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("pred"))
    assert all("." not in cell for cell in row.split()[1:])


# -- the last-resort handler ------------------------------------------------------------------
def _failing_stats(monkeypatch, exc: BaseException) -> None:
    def fail(args):
        raise exc

    monkeypatch.setattr("rstkit.cli.stats.run", fail)


def test_a_bug_is_reported_as_an_internal_error(monkeypatch, capsys):
    _failing_stats(monkeypatch, ValueError("boom"))
    monkeypatch.delenv("RSTKIT_TRACEBACK", raising=False)
    status, err = run(capsys, "stats", OK)
    assert status == 1
    assert err.splitlines() == [err.rstrip("\n")]  # one line
    assert err.startswith("rstkit: internal error: ValueError: boom") and "please report" in err


def test_traceback_on_request(monkeypatch):
    _failing_stats(monkeypatch, ValueError("boom"))
    monkeypatch.setenv("RSTKIT_TRACEBACK", "1")
    with pytest.raises(ValueError, match="boom"):
        main(["stats", str(OK)])


def test_system_refusals_and_interrupts(monkeypatch, capsys):
    _failing_stats(monkeypatch, PermissionError(13, "Permission denied", "/some/file"))
    assert run(capsys, "stats", OK) == (1, "rstkit: error: Permission denied: /some/file\n")
    _failing_stats(monkeypatch, KeyboardInterrupt())
    assert run(capsys, "stats", OK) == (130, "rstkit: interrupted\n")


# -- messages that help ---------------------------------------------------------------------------
def test_unknown_label_names_the_flags(capsys):
    status, err = run(capsys, "eval", GOLD, PRED, "--labels", "gum")
    assert_input_error(status, err, "sample_")
    line = err.splitlines()[-1]
    assert line.endswith("is unknown to label map 'gum' (use --keep-unknown-labels or another --labels map)")
    assert ".dis:" in line  # file and line
    assert run(capsys, "eval", GOLD, PRED, "--labels", "gum", "--keep-unknown-labels")[0] == 0


def test_library_errors_name_no_flags():
    with pytest.raises(LabelError) as caught:
        get_label_map("gum").map("mystery")
    assert caught.value.fixes == ("unknown_labels", "labels") and "--" not in str(caught.value)


def test_bad_extent_suggests_lenient(gum_dir, capsys):
    techtonica = gum_dir / "lisp_nary" / "GENTLE_syllabus_techtonica.dis"
    status, err = run(capsys, "draw", techtonica)
    assert_input_error(status, err, "GENTLE_syllabus_techtonica.dis:60")
    assert err.rstrip().endswith("(use --lenient)")
    status, err = run(capsys, "draw", techtonica, "--lenient")
    assert status == 0 and "GENTLE_syllabus_techtonica.dis:60: " in err and "(lenient)" in err, err


def test_missing_documents_suggest_missing(tmp_path, capsys):
    pred = tmp_path / "pred"
    pred.mkdir()
    shutil.copy(PRED / "sample_bread.dis", pred)
    status, err = run(capsys, "eval", GOLD, pred)
    assert status == 2 and err.rstrip().endswith("(use --missing skip or --missing zero)")


def test_an_unreadable_document_of_a_corpus_suggests_skip_errors(tmp_path, capsys):
    """issue 36: ``--metric all`` over a folder with one bad document named no way past it."""
    gold, pred = shutil.copytree(GOLD, tmp_path / "gold"), shutil.copytree(PRED, tmp_path / "pred")
    (pred / "sample_bread.dis").write_text("( Root (span 1 3) garbage\n", encoding="utf-8")
    hint = "(use --skip-errors to leave unreadable documents out, each listed as a warning)"
    status, err = run(capsys, "eval", gold, pred, "--metric", "all")
    assert_input_error(status, err, "sample_bread.dis:1")
    assert err.count("\n") == 1 and err.rstrip().endswith(hint), err
    # what it skips: that document; the gold document then has no prediction, a fix of its own
    status, err = run(capsys, "eval", gold, pred, "--metric", "all", "--skip-errors")
    assert status == 2 and err == ("rstkit: error: pred: 1 gold document(s) have no prediction: sample_bread "
                                   "(use --missing skip or --missing zero)\n"), err
    status, err = run(capsys, "eval", gold, pred, "--metric", "all", "--skip-errors", "--missing", "skip")
    assert status == 0 and "skipped unreadable document: " in err and "sample_bread.dis:1" in err, err
    # the one file given is not left out: no hint; nor in a command without --skip-errors
    status, err = run(capsys, "eval", gold / "sample_bread.dis", pred / "sample_bread.dis")
    assert status == 2 and "sample_bread.dis:1" in err and "(use " not in err, err
    status, err = run(capsys, "convert", pred, tmp_path / "out", "--to", "rs3")
    assert status == 2 and "sample_bread.dis:1" in err and "(use " not in err, err


def test_an_unreadable_document_names_skip_errors_only_in_a_folder(tmp_path):
    from rstkit import read_documents

    bad = tmp_path / "sample_bread.dis"
    bad.write_text("( Root (span 1 3) garbage\n", encoding="utf-8")
    with pytest.raises(RSTKitError) as caught:
        read_documents(tmp_path)
    assert caught.value.fixes == ("skip_errors",) and "--" not in str(caught.value)
    with pytest.raises(RSTKitError) as caught:
        read_documents(bad)
    assert caught.value.fixes == ()


def test_a_directory_of_two_formats_suggests_pred_format(tmp_path, capsys):
    pred = tmp_path / "pred"
    pred.mkdir()
    shutil.copy(PRED / "sample_bread.dis", pred)
    assert main(["convert", str(PRED / "sample_note.dis"), str(pred / "sample_note.rs3"), "--to", "rs3"]) == 0
    status, err = run(capsys, "eval", GOLD, pred)
    assert_input_error(status, err, "pred")
    assert "dis" in err and "rs3" in err and err.rstrip().endswith("(use --pred-format KEY)")  # the side of pred


# -- rstkit's own exceptions on user-input paths ------------------------------------------------------
def test_library_raises_rstkit_errors():
    with pytest.raises(RSTKitError, match="not a nuclearity") as caught:
        nuclearity_from_word("Side", "x.dis", 4)
    assert isinstance(caught.value, ValueError) and str(caught.value).startswith("x.dis:4: ")
    with pytest.raises(TreeStructureError, match="not a nuclearity: 'X'"):
        nuclearity_word("X")
    tree = RSTTree(internal("Root", None, [leaf(1, "N", "span"), leaf(2, "S", "cause")]), (EDU(1), EDU(2)), "two")
    with pytest.raises(RSTKitError, match="no node spans 2-3"):
        tree.subtree(2, 3)
    with pytest.raises(RSTKitError, match="unknown report format 'pdf'"):
        render(Report([]), "pdf")
    with pytest.raises(RSTKitError, match="digits"):
        render(Report([]), "text", -1)
    assert not issubclass(TreeStructureError, ValueError)


# -- --encoder MODULE:FN ---------------------------------------------------------------------------
@pytest.fixture
def in_module_dir(tmp_path, monkeypatch) -> Path:
    """tmp_path as the current directory, and not otherwise on sys.path."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    return tmp_path


def _module(directory: Path, name: str, source: str, monkeypatch) -> str:
    (directory / f"{name}.py").write_text(source, encoding="utf-8")
    monkeypatch.delitem(sys.modules, name, raising=False)
    return name


def test_encoder_module_from_the_current_directory(in_module_dir, monkeypatch):
    name = _module(in_module_dir, "rstkit_test_encoder_here",
                   "def encode(texts):\n    return [[float(len(t)), 1.0] for t in texts]\n", monkeypatch)
    path_before = list(sys.path)
    encoder = import_encoder(f"{name}:encode")
    assert sys.path == path_before  # the current directory was on the path for the import only
    assert encoder(["ab", "abcd"]).tolist() == [[2.0, 1.0], [4.0, 1.0]]
    monkeypatch.delitem(sys.modules, name)


def test_encoder_failures_are_encoder_errors(in_module_dir, monkeypatch):
    broken = _module(in_module_dir, "rstkit_test_encoder_broken", "x = 1 / 0\n", monkeypatch)
    with pytest.raises(EncoderError, match="importing encoder module 'rstkit_test_encoder_broken' failed: "
                                           "ZeroDivisionError"):
        import_encoder(f"{broken}:encode")
    failing = _module(in_module_dir, "rstkit_test_encoder_failing",
                      "def encode(texts):\n    raise RuntimeError('no GPU')\n", monkeypatch)
    with pytest.raises(EncoderError, match="failed: RuntimeError: no GPU"):
        import_encoder(f"{failing}:encode")(["a"])
    with pytest.raises(EncoderError, match="cannot import encoder module 'rstkit_no_such_module'"):
        import_encoder("rstkit_no_such_module:encode")
    monkeypatch.delitem(sys.modules, failing)


def test_discoeval_cache_dir_is_checked_before_the_corpus_is_read(tmp_path, capsys):
    cache = tmp_path / "cache"
    cache.write_text("a file", encoding="utf-8")
    status, err = run(capsys, "discoeval", "--corpus", tmp_path / "absent", "--encoder", MARKERS_SPEC,
                      "--cache-dir", cache)
    assert_input_error(status, err, str(cache))  # the cache, not the missing corpus: checked first
    assert "not a directory" in err


def test_every_fix_has_a_flag_the_command_line_knows():
    assert set(FIX_FLAGS) == set(FIXES)
    options = {option for sub in build_parser()._subparsers._group_actions[0].choices.values()
               for action in sub._actions for option in action.option_strings}
    for hint in FIX_FLAGS.values():
        for flag in re.findall(r"--[a-z-]+", hint):
            assert flag in options, hint
