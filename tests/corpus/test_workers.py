"""rstkit.corpus.workers.in_processes: results in task order whatever the chunks and workers, a
worker's exception raised in the parent, a worker that dies reported (not waited for), and no
process left behind however the caller stops reading. Expected values are the plain ``map`` of
the same function."""
from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.corpus.workers import WorkerFailed, in_processes


def square(number: int) -> int:
    return number * number


def fail_on_three(number: int) -> int:
    if number == 3:
        raise ValueError("three")
    return number


def die_on_three(number: int) -> int:
    if number == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return number


def big(number: int) -> bytes:
    return bytes(8_000_000)  # more than a pipe holds: the worker is still writing when the parent stops


def unpicklable(number: int):
    return lambda: number


def no_children_left() -> bool:
    deadline = time.monotonic() + 5
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    return not multiprocessing.active_children()


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(-1000, 1000), max_size=40), st.integers(2, 4), st.integers(1, 7))
def test_results_in_task_order(numbers, workers, chunksize) -> None:
    assert list(in_processes(square, numbers, workers, chunksize)) == list(map(square, numbers))
    assert no_children_left()


def test_workers_have_left_when_the_last_result_is_handed_out() -> None:
    results = in_processes(square, list(range(10)), 2, 3)
    assert [next(results) for _ in range(10)] == list(map(square, range(10)))
    assert multiprocessing.active_children() == []  # the generator is not even finished


def test_an_exception_in_a_worker_is_raised_in_the_parent() -> None:
    with pytest.raises(ValueError, match="three"):
        list(in_processes(fail_on_three, list(range(8)), 2))
    assert no_children_left()


def test_a_worker_that_dies_is_reported() -> None:
    with pytest.raises(WorkerFailed, match="ended without its results"):
        list(in_processes(die_on_three, list(range(8)), 2))
    assert no_children_left()


def test_a_result_that_cannot_be_sent_back_is_reported() -> None:
    with pytest.raises(RuntimeError, match="could not be sent back"):
        list(in_processes(unpicklable, [1, 2], 2))
    assert no_children_left()


def test_stopping_midway_ends_workers_that_are_still_writing() -> None:
    """Before, with multiprocessing.Pool: a worker ended while writing a result kept the shared
    queue's lock, and terminating the pool hung."""
    results = in_processes(big, list(range(6)), 2)
    assert len(next(results)) == 8_000_000
    started = time.monotonic()
    results.close()
    assert time.monotonic() - started < 10
    assert no_children_left()


def first_waits_for_last(task: tuple[int, int, str]) -> tuple[int, int]:
    """Task 0 waits (at most 60 s) until the last task has been done, by another worker."""
    number, last, marker = task
    if number == 0:
        deadline = time.monotonic() + 60
        while not os.path.exists(marker):
            if time.monotonic() > deadline:
                raise TimeoutError("the last task was never done: chunks were not dealt to the free worker")
            time.sleep(0.01)
    if number == last:
        Path(marker).touch()
    return number, os.getpid()


def test_a_busy_worker_is_dealt_no_more_chunks(tmp_path) -> None:
    """Chunks go to the worker that is free: while one worker is held on task 0 (until the last task is
    done), the other does every chunk but those dealt ahead to the first (AHEAD of them in all)."""
    marker = str(tmp_path / "last-done")
    tasks = [(number, 11, marker) for number in range(12)]
    done = list(in_processes(first_waits_for_last, tasks, 2))
    assert [number for number, _ in done] == list(range(12))
    held = done[0][1]
    assert [number for number, pid in done if pid == held] == [0, 2]  # dealt at the start: 0, 2 and 1, 3
    assert no_children_left()


def test_no_tasks() -> None:
    assert list(in_processes(square, [], 2)) == []


ORPHAN_SCRIPT = """
import multiprocessing, sys, time
from rstkit.corpus.workers import in_processes
from tests.corpus.test_workers import slow_big

results = in_processes(slow_big, list(range(1000)), 2)
next(results)
print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
time.sleep(60)
"""


def slow_big(number: int) -> bytes:
    time.sleep(0.01)
    return bytes(100_000)


def test_workers_end_when_their_parent_is_killed(tmp_path) -> None:
    """A parent killed outright (SIGKILL: no cleanup runs) leaves no worker behind: a worker's next
    send fails once no process holds the pipe's other end."""
    project = Path(__file__).resolve().parents[2]
    parent = subprocess.Popen([sys.executable, "-c", ORPHAN_SCRIPT], cwd=project, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(project)})
    pids = [int(pid) for pid in parent.stdout.readline().split()]
    assert len(pids) == 2
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(pid) for pid in pids):
        time.sleep(0.05)
    assert not any(alive(pid) for pid in pids)


def alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (an ended orphan is reaped by init)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
