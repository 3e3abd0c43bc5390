"""Work spread over worker processes, each with a pipe of its own (:func:`in_processes`).

Not :class:`multiprocessing.pool.Pool`: its workers share one result queue with a lock, and a
worker ended while sending a result (an interrupt ends them all) keeps that lock for ever;
``Pool.terminate()`` then waits for its task thread, which waits for the lock (seen as a hang
after Ctrl-C in ``rstkit eval --jobs 2``). Here nothing is shared between workers: the parent
sends each one chunk of tasks at a time, receives its results, and ends them all (SIGKILL) when
it is interrupted or a worker fails.
"""
from __future__ import annotations

import multiprocessing
import os
import traceback
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from ..errors import RSTKitError
from ..interrupts import interrupts_blocked, worker_ignores_interrupts

Task = TypeVar("Task")
Result = TypeVar("Result")

#: seconds an idle worker waits for work before it checks that its parent is still there
_PARENT_CHECK = 1.0


class WorkerFailed(RSTKitError):
    """A worker process ended without sending back its results (killed, or out of memory)."""


def in_processes(function: Callable[[Task], Result], tasks: Sequence[Task], workers: int, chunksize: int = 1
                 ) -> Iterator[Result]:
    """``function`` of each task, in task order as they are done, computed by ``workers`` processes
    (``function`` and the tasks picklable; an exception ``function`` raises is raised here). The
    workers ignore SIGINT (a Ctrl-C reaches the whole terminal group; the parent ends them) and are
    ended, not waited for, when the parent is interrupted, stops reading, or a worker fails; after
    the last result they have already exited."""
    chunks = [list(tasks[start:start + chunksize]) for start in range(0, len(tasks), chunksize)]
    context = multiprocessing.get_context()
    processes: list[BaseProcess] = []
    connections: list[Connection] = []
    try:
        with interrupts_blocked():  # until each worker has set its own handlers
            for _ in range(min(workers, len(chunks))):
                ours, theirs = context.Pipe()
                worker = context.Process(target=_serve, args=(function, theirs, os.getpid()), daemon=True)
                worker.start()
                theirs.close()
                processes.append(worker)
                connections.append(ours)
        # an interrupt held back meanwhile arrives here, with the workers started: they are ended below
        working: dict[Connection, int] = {}  # connection -> index of the chunk its worker has
        received: dict[int, list[Result]] = {}
        sent = given = 0
        for connection in connections:
            connection.send(chunks[sent])
            working[connection] = sent
            sent += 1
        while working:
            for ready in wait(list(working)):
                assert isinstance(ready, Connection)
                index = working.pop(ready)
                received[index] = _results(ready, processes[connections.index(ready)])
                if sent < len(chunks):
                    ready.send(chunks[sent])
                    working[ready] = sent
                    sent += 1
            if not working:  # all done: the workers leave before the last results are handed out
                _dismiss(connections, processes)
            while given in received:
                yield from received.pop(given)
                given += 1
    except BaseException:  # an interrupt, a failure, or the caller stopped reading: the workers are ended
        for process in processes:
            process.kill()
        raise
    finally:
        for connection in connections:
            connection.close()
        for process in processes:
            process.join()


def _results(connection: Connection, process: BaseProcess) -> list[Any]:
    """The results a worker sent back for its chunk; the exception it raised is raised here."""
    try:
        failed, payload = connection.recv()
    except EOFError:
        process.join()
        raise WorkerFailed(f"a worker process ended without its results (exit status {process.exitcode})") from None
    if failed:
        raise payload
    return payload


def _dismiss(connections: list[Connection], processes: list[BaseProcess]) -> None:
    for connection in connections:
        connection.send(None)
    for process in processes:
        process.join()


def _serve(function: Callable[[Task], Result], connection: Connection, parent: int) -> None:
    """A worker: chunks of tasks in, their results (or the exception) out, until told to stop (None)
    or its parent is gone."""
    worker_ignores_interrupts()
    while True:
        while not connection.poll(_PARENT_CHECK):
            if os.getppid() != parent:
                return
        try:
            chunk = connection.recv()
        except EOFError:
            return
        if chunk is None:
            return
        try:
            outcome: tuple[bool, Any] = (False, [function(task) for task in chunk])
        except Exception as exc:  # noqa: BLE001 - sent to the parent, which raises it
            outcome = (True, exc)
        try:
            connection.send(outcome)
        except Exception:  # noqa: BLE001 - the results or the exception would not pickle
            trace = "".join(traceback.format_exception(outcome[1])) if outcome[0] else traceback.format_exc()
            connection.send((True, RuntimeError(f"a worker's outcome could not be sent back:\n{trace}")))
