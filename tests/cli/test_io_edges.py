"""Issue 32, items 6, 7, 10 and 15: the command line's streams and output paths.

* 6: a reader of standard output that went away (a closed pipe: ``| head``) does not change the exit
  status: a malformed input is status 2 with or without it. The pipe is closed before the command
  starts, so every write of the command meets it (no race).
* 7: a regular file under ``/dev/shm`` or behind ``/proc/self/cwd`` is an output file like any other
  (exists: an error without ``--force``; replaced, never written through a hard link to an input);
  only FIFOs, devices, sockets and the process's own descriptors are written into.
* 10: a closed standard input read as ``-`` is one error line naming it, status 2.
* 15: ``-o ''`` is a usage error; ``-o DIR/`` writes the report into DIR (README: a trailing slash
  names a folder); a full standard output is status 2 with one line.

Every expectation is the exit status, the one error line or the bytes of files, from the command
line by hand.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from rstkit.cli import main

PROJECT = Path(__file__).resolve().parents[1].parent
GOLD = PROJECT / "corpora" / "sample" / "gold"
PRED = PROJECT / "corpora" / "sample" / "pred"
ENV = {**os.environ, "PYTHONPATH": str(PROJECT)}
#: a .dis file cut short: the reader's error names line 1
BROKEN = "( Root (span 1 2)\n"


def rstkit(*argv) -> list[str]:
    return [sys.executable, "-m", "rstkit", *map(str, argv)]


def run(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exc:
        status = int(exc.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def bad_folder(tmp_path) -> Path:
    """The sample gold and one malformed file: stats prints its statistics, then the error."""
    folder = tmp_path / "bad"
    shutil.copytree(GOLD, folder)
    (folder / "zz_broken.dis").write_text(BROKEN, encoding="utf-8")
    return folder


# -- item 6: a closed pipe does not decide the exit status ------------------------------------------
def _closed_pipe_run(argv: list[str], stderr_too: bool = False) -> tuple[int, str]:
    """``argv`` with its standard output (and error, ``stderr_too``) a pipe nobody reads: its read end
    is closed before the command starts, so every write meets EPIPE."""
    read, write = os.pipe()
    os.close(read)
    try:
        result = subprocess.run(argv, env=ENV, stdout=write, stderr=write if stderr_too else subprocess.PIPE,
                                text=True, timeout=120, check=False)
    finally:
        os.close(write)
    return result.returncode, result.stderr or ""


def _printing_commands(bad_folder: Path) -> list[tuple[list[str], int]]:
    """Commands that print, and their status when their output is read (by hand: 2 where an input is
    malformed, 0 otherwise)."""
    broken = bad_folder / "zz_broken.dis"
    one = GOLD / "sample_bread.dis"
    return [
        (rstkit("stats", bad_folder), 2),  # statistics of the 4 good files printed, then the error
        (rstkit("stats", bad_folder, "--format", "json"), 2),
        (rstkit("stats", GOLD), 0),
        (rstkit("eval", GOLD, PRED), 0),
        (rstkit("eval", bad_folder, PRED), 2),
        (rstkit("draw", one), 0),
        (rstkit("draw", broken), 2),
        (rstkit("convert", one, "-", "--to", "rs3"), 0),
        (rstkit("convert", broken, "-", "--to", "rs3"), 2),
    ]


@pytest.mark.slow  # every printing command, twice, as a process
def test_a_closed_pipe_does_not_change_the_exit_status(bad_folder):
    for argv, expected in _printing_commands(bad_folder):
        read = subprocess.run(argv, env=ENV, capture_output=True, text=True, timeout=120, check=False)
        assert read.returncode == expected, (argv, read.stderr)
        status, err = _closed_pipe_run(argv)
        assert (status, err) == (expected, read.stderr), argv  # the same status, the same error lines
        assert "Traceback" not in err and "Exception ignored" not in err


def test_a_closed_pipe_on_both_streams_keeps_the_error_status(bad_folder):
    """``rstkit stats DIR 2>&1 | head -1``: the error line cannot be shown either; the status is 2."""
    status, _ = _closed_pipe_run(rstkit("stats", bad_folder), stderr_too=True)
    assert status == 2


# -- item 7: a regular file is an output file wherever it is ----------------------------------------
def _shm() -> Path | None:
    shm = Path("/dev/shm")
    return shm if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK) else None


@pytest.fixture(params=["tmp", "dev-shm"])
def place(request, tmp_path):
    """A folder in the temporary directory, or under /dev/shm (skipped where there is none)."""
    if request.param == "tmp":
        yield tmp_path
        return
    shm = _shm()
    if shm is None:
        pytest.skip("no writable /dev/shm")
    folder = Path(tempfile.mkdtemp(prefix="rstkit-test-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_an_existing_file_is_not_overwritten_without_force(place, capsys):
    existing = place / "existing.rs3"
    existing.write_text("mine\n", encoding="utf-8")
    status, _, err = run(capsys, "convert", GOLD / "sample_bread.dis", existing, "--to", "rs3")
    assert status == 2 and err == f"rstkit: error: {existing}: the output file exists already (use --force)\n"
    assert existing.read_text(encoding="utf-8") == "mine\n"


def test_force_replaces_a_hard_link_to_the_input_and_keeps_the_input(place, capsys):
    """The output is a second name of the input file: --force replaces that name with a new file;
    the input's bytes stay as they were."""
    source = place / "x.dis"
    shutil.copyfile(GOLD / "sample_bread.dis", source)
    before = source.read_bytes()
    link = place / "link.rs3"
    os.link(source, link)
    status, _, err = run(capsys, "convert", source, link, "--to", "rs3", "--force")
    assert status == 0, err
    assert source.read_bytes() == before and os.stat(source).st_nlink == 1
    assert not os.path.samefile(source, link) and link.read_text(encoding="utf-8").startswith("<rst>")


def test_a_path_through_proc_self_cwd_follows_the_normal_rules(tmp_path, capsys, monkeypatch):
    if not Path("/proc/self/cwd").is_dir():
        pytest.skip("no /proc")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "existing.rs3").write_text("mine\n", encoding="utf-8")
    status, _, err = run(capsys, "convert", GOLD / "sample_bread.dis", "/proc/self/cwd/existing.rs3", "--to", "rs3")
    assert status == 2 and "exists already" in err
    assert (tmp_path / "existing.rs3").read_text(encoding="utf-8") == "mine\n"
    shutil.copyfile(GOLD / "sample_bread.dis", tmp_path / "x.dis")
    os.link(tmp_path / "x.dis", tmp_path / "link.dis")
    status, _, err = run(capsys, "convert", tmp_path / "x.dis", "/proc/self/cwd/link.dis", "--to", "rs3",
                         "--force")
    assert status == 0, err
    assert (tmp_path / "x.dis").read_bytes() == (GOLD / "sample_bread.dis").read_bytes()


@pytest.mark.parametrize("name", ["itself", "a hard link"])
def test_standard_output_redirected_to_the_input_is_refused(tmp_path, name):
    """``-o /dev/stdout`` on a redirection's file is written into (tests/corpus/test_output_layer.py),
    but not when that file is the input, by its own name or another (``>> link`` of a hard link)."""
    source = tmp_path / "x.dis"
    shutil.copyfile(GOLD / "sample_bread.dis", source)
    redirection = source
    if name == "a hard link":
        redirection = tmp_path / "link.dis"
        os.link(source, redirection)
    with open(redirection, "ab") as redirected:
        result = subprocess.run(rstkit("convert", source, "/dev/stdout", "--to", "dis"), env=ENV,
                                stdout=redirected, stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    assert result.returncode == 2 and "refusing to write" in result.stderr
    assert source.read_bytes() == (GOLD / "sample_bread.dis").read_bytes()


# -- item 10: a closed standard input -----------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["stats", "-"],
    ["eval", GOLD / "sample_bread.dis", "-"],
    ["eval", "-", PRED / "sample_bread.dis"],
    ["convert", "-", "-", "--to", "rs3"],
    ["draw", "-"],
    ["segment", "-", "-"],
    ["parse", "-", "-", "--model", "scratch"],
], ids=lambda argv: " ".join(map(str, argv)))
def test_a_closed_standard_input_is_one_error_line(argv):
    """``rstkit ARGV <&-``: the shell closes descriptor 0 before Python starts."""
    result = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", *rstkit(*argv)], env=ENV, capture_output=True,
                            text=True, timeout=120, check=False)
    assert (result.returncode, result.stderr) == (2, "rstkit: error: standard input (-) is closed: nothing to read\n")


# -- item 15: output paths ----------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["eval", GOLD, PRED, "-o", ""],
    ["stats", GOLD, "-o", ""],
    ["audit", GOLD, PRED, "-o", ""],
    ["discoeval", "-o", ""],
    ["draw", GOLD / "sample_bread.dis", "-o", ""],
    ["convert", GOLD, "", "--to", "rs3"],
    ["convert", GOLD, "-o", "", "--to", "rs3"],
    ["parse", GOLD, ""],
    ["parse", GOLD, "out", "--split", "test", "--gold-out", ""],
    ["segment", GOLD, ""],
    ["segment", GOLD, "-o", ""],
    ["train", "--corpus", "gum", "-o", ""],
    ["train-segmenter", "-o", ""],
], ids=lambda argv: " ".join(map(str, argv)))
def test_an_empty_output_name_is_a_usage_error(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, *argv)
    lines = err.splitlines()
    command = f"rstkit {argv[0]}"
    assert status == 2 and out == "" and len(lines) == 1, err  # one line, no usage
    assert lines[0].startswith(f"{command}: error: "), err
    assert lines[0].endswith(f"an empty name: give the path of the output (see {command} --help)"), err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fmt, name", [("text", "eval.txt"), ("json", "eval.json"), ("latex", "eval.tex")])
def test_eval_into_a_folder_named_with_a_trailing_slash(tmp_path, capsys, fmt, name):
    status, printed, _ = run(capsys, "eval", GOLD, PRED, "--format", fmt)
    assert status == 0
    folder = tmp_path / "scores"
    status, out, err = run(capsys, "eval", GOLD, PRED, "--format", fmt, "-o", f"{folder}/")
    assert (status, out) == (0, ""), err
    assert folder.is_dir() and [p.name for p in folder.iterdir()] == [name]
    assert (folder / name).read_text(encoding="utf-8") == printed


def test_stats_into_an_existing_folder(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    status, printed, _ = run(capsys, "stats", GOLD)
    status, out, err = run(capsys, "stats", GOLD, "-o", f"{tmp_path}/")
    assert (status, out) == (0, ""), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "stats.txt"]
    assert (tmp_path / "stats.txt").read_text(encoding="utf-8") == printed


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("argv", [
    ["eval", GOLD, PRED],
    ["stats", GOLD],
    ["convert", GOLD / "sample_bread.dis", "-", "--to", "rs3"],
    ["eval", GOLD, PRED, "-o", "/dev/stdout"],
], ids=lambda argv: " ".join(map(str, argv[:1] + argv[3:])))
def test_a_full_standard_output_is_one_error_line(argv):
    with open("/dev/full", "w") as full:
        result = subprocess.run(rstkit(*argv), env=ENV, stdout=full, stderr=subprocess.PIPE, text=True,
                                timeout=120, check=False)
    lines = result.stderr.splitlines()
    assert result.returncode == 2 and len(lines) - ("warning" in result.stderr) == 1, result.stderr
    assert lines[-1] in ("rstkit: error: cannot write to standard output: No space left on device",
                         "rstkit: error: /dev/stdout: cannot write: No space left on device"), result.stderr


def test_a_closed_standard_output_is_one_error_line():
    result = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *rstkit("stats", GOLD)], env=ENV,
                            stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    assert (result.returncode, result.stderr) == (2, "rstkit: error: cannot write to standard output: it is closed\n")
