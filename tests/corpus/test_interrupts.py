"""Issue 26, finding 7: SIGINT and SIGTERM at random points of ``convert``, ``parse`` and ``eval --jobs
2`` end the command with one line and status 130 (SIGINT) or 143 (SIGTERM), no traceback, no hang,
no process left behind, and nothing half-written: a new output folder is either absent or complete,
an existing one (``--force``) holds either its old files or the whole new set, and no staging folder
is left.

The signal goes to the whole process group for SIGINT (as Ctrl-C in a terminal sends it) and to the
command alone for SIGTERM (as ``kill`` does), after a random delay drawn (seeded) between the time
Python takes to start rstkit and the time the uninterrupted command takes (half of them in its last
third, where the output is written); the expected outputs are
those of uninterrupted runs.
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # about 3 minutes on 2 cores: several runs of each command

PROJECT = Path(__file__).resolve().parents[1].parent
ENV = {**os.environ, "PYTHONPATH": str(PROJECT)}
DOCS = 800
#: seconds any run may take before it counts as hanging
PATIENCE = 120


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def rstkit(*argv) -> list[str]:
    return [sys.executable, "-m", "rstkit", *map(str, argv)]


def timed(argv: list[str]) -> float:
    return uninterrupted(argv)[0]


def uninterrupted(argv: list[str]) -> tuple[float, list[str]]:
    """How long ``argv`` takes, and the lines it prints on stderr (warnings an interrupted run may
    have printed before its signal came)."""
    started = time.monotonic()
    result = subprocess.run(argv, env=ENV, check=True, capture_output=True, text=True, timeout=PATIENCE)
    return time.monotonic() - started, result.stderr.splitlines()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("interrupts")
    subprocess.run([sys.executable, str(PROJECT / "benchmarks" / "make_corpus.py"), str(root / "syn"), "--docs",
                    str(DOCS), "--edus", "20"], check=True, capture_output=True)
    return root / "syn"


@pytest.fixture(scope="module")
def startup() -> float:
    """How long Python takes to start rstkit (its --version): no signal is sent before that."""
    return 1.5 * timed(rstkit("--version"))


def interrupted(argv: list[str], delay: float, sig: signal.Signals) -> subprocess.CompletedProcess:
    """``argv`` run in its own process group, sent ``sig`` after ``delay`` seconds (SIGINT to the
    group, SIGTERM to the command), waited for; no process of the group may outlive it."""
    process = subprocess.Popen(argv, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    time.sleep(delay)
    if process.poll() is None:
        if sig == signal.SIGINT:
            os.killpg(process.pid, sig)
        else:
            os.kill(process.pid, sig)
    try:
        out, err = process.communicate(timeout=PATIENCE)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"hung after {sig.name} at {delay:.2f}s: {argv}")
    time.sleep(0.2)
    try:
        os.killpg(process.pid, 0)
        survivors = True
    except ProcessLookupError:
        survivors = False
    if survivors:
        os.killpg(process.pid, signal.SIGKILL)
    assert not survivors, f"processes left behind after {sig.name} at {delay:.2f}s"
    return subprocess.CompletedProcess(argv, process.returncode, out, err)


def check_ending(result: subprocess.CompletedProcess, sig: signal.Signals, printed: Sequence[str] = ()) -> bool:
    """The run ended normally (True) or as an interrupt must end (False). A signal that comes while the
    interpreter starts (before rstkit's handlers, which a loaded machine can stretch past the delay's
    lower bound) or while it shuts down (the work done, its output whole) ends it as the signal does by
    default: no message, nothing of rstkit's on stderr but what the finished work printed; the callers
    check that the output is then absent or whole. ``printed`` is what the uninterrupted run prints on
    stderr: an interrupted run may have printed the first of those lines before its one line."""
    if result.returncode == 0:
        return True
    if result.returncode == -sig:
        lines = result.stderr.strip().splitlines()
        starting = sig == signal.SIGINT and lines[-1:] == ["KeyboardInterrupt"]  # Python's own, importing rstkit
        assert starting or "Traceback" not in result.stderr, result.stderr
        return False
    expected = {signal.SIGINT: (130, "rstkit: interrupted"), signal.SIGTERM: (143, "rstkit: terminated")}[sig]
    assert (result.returncode, result.stderr.strip().splitlines()[-1:]) == (expected[0], [expected[1]]), \
        result.stderr
    before = result.stderr.strip().splitlines()[:-1]
    assert "Traceback" not in result.stderr and before == list(printed[:len(before)]), result.stderr
    return False


def delays(seed: int, low: float, high: float, n: int) -> list[float]:
    """``n`` random delays from ``low`` to ``high``, every other one in the last third (where the
    commands write their output)."""
    rng = random.Random(seed)
    high = max(high, low + 0.1)
    return [rng.uniform(low if i % 2 else high - (high - low) / 3, high) for i in range(n)]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_convert_into_a_new_folder(corpus, tmp_path, startup, sig):
    reference = tmp_path / "reference"
    duration = timed(rstkit("convert", corpus / "gold", reference, "--to", "rs3"))
    expected = snapshot(reference)
    for trial, delay in enumerate(delays(int(sig), startup, duration, 3)):
        out = tmp_path / f"out{trial}"
        result = interrupted(rstkit("convert", corpus / "gold", out, "--to", "rs3"), delay, sig)
        finished = check_ending(result, sig)
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no staging folder
        if finished:
            assert snapshot(out) == expected
        else:
            assert not out.exists() or snapshot(out) == expected, f"half-written after {delay:.2f}s"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_convert_force_into_an_existing_folder(corpus, tmp_path, startup, sig):
    """The folder holds the right-binarized conversion (and a file of the user's); the run rewrites it
    unbinarized: afterwards it holds one of the two sets, whole."""
    old, new = tmp_path / "old", tmp_path / "new"
    subprocess.run(rstkit("convert", corpus / "gold", old, "--to", "rs3", "--binarize", "right"), env=ENV,
                   check=True)
    (old / "notes.txt").write_text("mine", encoding="utf-8")
    duration = timed(rstkit("convert", corpus / "gold", new, "--to", "rs3"))
    before = snapshot(old)
    after = {**snapshot(new), "notes.txt": b"mine"}
    assert before != after
    for delay in delays(int(sig) + 10, startup, duration, 3):
        result = interrupted(rstkit("convert", corpus / "gold", old, "--to", "rs3", "--force"), delay, sig)
        finished = check_ending(result, sig)
        now = snapshot(old)
        assert now == after if finished else now in (before, after), f"mixed after {delay:.2f}s"
        if now == after:  # back to the old set for the next trial
            subprocess.run(rstkit("convert", corpus / "gold", old, "--to", "rs3", "--binarize", "right",
                                  "--force"), env=ENV, check=True)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_eval_with_two_processes(corpus, startup, sig):
    argv = rstkit("eval", corpus / "gold", corpus / "pred", "--jobs", "2")
    duration = timed(argv)
    for delay in delays(int(sig) + 20, startup, duration, 3):
        check_ending(interrupted(argv, delay, sig), sig)


def test_parse(tmp_path, startup):
    sample = PROJECT / "corpora" / "sample" / "gold"
    reference = tmp_path / "reference"
    duration, printed = uninterrupted(rstkit("parse", sample, reference, "--model", "scratch"))
    assert printed and printed[0].startswith("rstkit: warning: no sentence boundaries")
    for trial, delay in enumerate(delays(30, startup, duration, 2)):
        out = tmp_path / f"out{trial}"
        result = interrupted(rstkit("parse", sample, out, "--model", "scratch"), delay, signal.SIGINT)
        if check_ending(result, signal.SIGINT, printed):
            assert snapshot(out) == snapshot(reference)
            continue
        assert not out.exists() or snapshot(out) == snapshot(reference)
