"""Work spread over worker processes, each with a pipe of its own (:func:`in_processes`).

Not :class:`multiprocessing.pool.Pool`: its workers share one result queue with a lock, and a
worker ended while sending a result (an interrupt ends them all) keeps that lock for ever;
``Pool.terminate()`` then waits for its task thread, which waits for the lock (seen as a hang
after Ctrl-C in ``rstkit eval --jobs 2``). Here nothing is shared between workers: each gets its
tasks when it starts and sends its results back on a pipe of its own; the parent reads them in
order and ends the workers (SIGKILL) when it is interrupted or a worker fails.
"""
from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from ..errors import RSTKitError
from ..interrupts import interrupts_blocked, worker_ignores_interrupts

Task = TypeVar("Task")
Result = TypeVar("Result")


class WorkerFailed(RSTKitError):
    """A worker process ended without sending back its results (killed, or out of memory)."""


def in_processes(function: Callable[[Task], Result], tasks: Sequence[Task], workers: int, chunksize: int = 1
                 ) -> Iterator[Result]:
    """``function`` of each task, in task order as they are done, computed by ``workers`` processes
    (``function`` and the tasks picklable; an exception ``function`` raises is raised here). The tasks
    go in chunks of ``chunksize``, dealt out in turn (worker ``w`` has chunks ``w``, ``w + workers``,
    ...) when the workers start, so that a worker never waits for the parent: it sends back each
    chunk's results as it finishes them, and the parent reads them in order. The workers ignore
    SIGINT (a Ctrl-C reaches the whole terminal group; the parent ends them) and are ended, not
    waited for, when the parent is interrupted, stops reading, or a worker fails; after the last
    result they have already exited."""
    chunks = [list(tasks[start:start + chunksize]) for start in range(0, len(tasks), chunksize)]
    count = min(workers, len(chunks))
    context = multiprocessing.get_context()
    processes: list[BaseProcess] = []
    connections: list[Connection] = []
    try:
        with interrupts_blocked():  # until each worker has set its own handlers
            for index in range(count):
                ours, theirs = context.Pipe(duplex=False)
                inherited = [*connections, ours]  # the parent's ends a forked worker holds copies of
                worker = context.Process(target=_serve, args=(function, chunks[index::count], theirs, inherited),
                                         daemon=True)
                worker.start()
                theirs.close()
                processes.append(worker)
                connections.append(ours)
        # an interrupt held back meanwhile arrives here, with the workers started: they are ended below
        for index in range(len(chunks)):
            results = _results(connections[index % count], processes[index % count])
            if index == len(chunks) - 1:  # all done: the workers leave before the last results are handed out
                for process in processes:
                    process.join()
            yield from results
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
    """The results a worker sent back for its next chunk; the exception it raised is raised here."""
    try:
        failed, payload = connection.recv()
    except EOFError:
        process.join()
        raise WorkerFailed(f"a worker process ended without its results (exit status {process.exitcode})") from None
    if failed:
        raise payload
    return payload


def _serve(function: Callable[[Task], Result], chunks: list[list[Task]], connection: Connection,
           others: list[Connection]) -> None:
    """A worker: its chunks' results (or the exception that stops it) sent back one chunk at a time.
    It closes the parent's ends of the pipes that it inherited (``others``: its own and the workers'
    started before it), so that the parent's going away ends it (a send to a closed pipe fails)."""
    worker_ignores_interrupts()
    for other in others:
        other.close()
    for chunk in chunks:
        try:
            outcome: tuple[bool, Any] = (False, [function(task) for task in chunk])
        except Exception as exc:  # noqa: BLE001 - sent to the parent, which raises it
            outcome = (True, exc)
        try:
            connection.send(outcome)
        except OSError:  # the parent has gone
            return
        except Exception:  # noqa: BLE001 - the results or the exception would not pickle
            trace = "".join(traceback.format_exception(outcome[1])) if outcome[0] else traceback.format_exc()
            outcome = (True, RuntimeError(f"a worker's outcome could not be sent back:\n{trace}"))
            connection.send(outcome)
        if outcome[0]:
            return
