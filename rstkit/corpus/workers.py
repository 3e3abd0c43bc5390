"""Work spread over worker processes, each with a pipe of its own (:func:`in_processes`).

Not :class:`multiprocessing.pool.Pool`: its workers share one result queue with a lock, and a
worker ended while sending a result (an interrupt ends them all) keeps that lock for ever;
``Pool.terminate()`` then waits for its task thread, which waits for the lock (seen as a hang
after Ctrl-C in ``rstkit eval --jobs 2``). Here nothing is shared between workers: each has a pipe
of its own on which the parent sends it the numbers of the chunks of tasks it is to do, and one on
which it sends back their results; the parent hands them out in order and ends the workers (SIGKILL)
when it is interrupted or a worker fails.
"""
from __future__ import annotations

import fcntl
import multiprocessing
import traceback
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar, cast

from ..errors import RSTKitError
from ..interrupts import interrupts_blocked, worker_ignores_interrupts

Task = TypeVar("Task")
Result = TypeVar("Result")


class WorkerFailed(RSTKitError):
    """A worker process ended without sending back its results (killed, or out of memory)."""


def in_processes(function: Callable[[Task], Result], tasks: Sequence[Task], workers: int, chunksize: int = 1
                 ) -> Iterator[Result]:
    """``function`` of each task, in task order, computed by ``workers`` processes (``function`` and the
    tasks picklable; an exception ``function`` raises is raised here). The tasks go in chunks of
    ``chunksize``, dealt out as the workers finish them: each worker holds every chunk and is sent the
    numbers of the chunks it is to do, :data:`AHEAD` at a time, so that it never waits for the parent
    (it has its next one when it sends back a chunk's results), and a worker slowed down (by the parent
    on its core, say) does fewer of them instead of holding up the end. The parent reads results as
    they come and hands them out in order. The workers ignore SIGINT (a Ctrl-C reaches the whole
    terminal group; the parent ends them) and are ended, not waited for, when the parent is
    interrupted, stops reading, or a worker fails; after the last result they have already exited."""
    chunks = [list(tasks[start:start + chunksize]) for start in range(0, len(tasks), chunksize)]
    count = min(workers, len(chunks))
    context = multiprocessing.get_context()
    processes: list[BaseProcess] = []
    results: list[Connection] = []  # the parent's ends: each worker's results
    orders: list[Connection] = []  # the parent's ends: each worker's chunk numbers
    try:
        with interrupts_blocked():  # until each worker has set its own handlers
            for _ in range(count):
                ours, theirs = context.Pipe(duplex=False)
                _widen(theirs)
                their_orders, our_orders = context.Pipe(duplex=False)
                inherited = [*results, *orders, ours, our_orders]  # the parent's ends a forked worker holds copies of
                worker = context.Process(target=_serve, args=(function, chunks, their_orders, theirs, inherited),
                                         daemon=True)
                worker.start()
                theirs.close()
                their_orders.close()
                processes.append(worker)
                results.append(ours)
                orders.append(our_orders)
        # an interrupt held back meanwhile arrives here, with the workers started: they are ended below
        dealer = _Dealer(len(chunks))
        owed = {result: 0 for result in results}  # per worker, chunks dealt and not yet sent back
        for _ in range(AHEAD):
            for result, order in zip(results, orders):
                owed[result] += dealer.deal(order)
        done: dict[int, tuple[bool, Any]] = {}
        workers_of = {result: (process, order) for result, process, order in zip(results, processes, orders)}
        for index in range(len(chunks)):
            while index not in done:
                for ready in cast("list[Connection]", wait([result for result, n in owed.items() if n])):
                    process, order = workers_of[ready]
                    number, failed, payload = _outcome(ready, process)
                    done[number] = failed, payload
                    owed[ready] -= 1
                    if failed:  # it has left: what it was dealt after this chunk is not needed
                        owed[ready] = 0
                    else:
                        owed[ready] += dealer.deal(order)
            if index == len(chunks) - 1:  # all done: the workers leave before the last results are handed out
                for process in processes:
                    process.join()
            failed, payload = done.pop(index)
            if failed:
                raise payload
            yield from payload
    except BaseException:  # an interrupt, a failure, or the caller stopped reading: the workers are ended
        for process in processes:
            process.kill()
        raise
    finally:
        for connection in [*results, *orders]:
            connection.close()
        for process in processes:
            process.join()


#: how many chunk numbers a worker is sent ahead of the chunk it is doing
AHEAD = 2


class _Dealer:
    """Chunk numbers in order, one at a time, to the worker that asks."""

    def __init__(self, total: int) -> None:
        self.total, self.dealt = total, 0
        self.told: set[Connection] = set()  # the workers sent None

    def deal(self, order: Connection) -> int:
        """Send a worker the next chunk's number, or None once there is none (once: it leaves after the
        chunks it has, and a second message would find its pipe closed); how many chunks it was dealt (1 or 0).
        A worker that has left (it failed on a chunk it was dealt before, or died) is dealt nothing: what it
        sent back, or its end, is on its results pipe."""
        try:
            if self.dealt < self.total:
                order.send(self.dealt)
                self.dealt += 1
                return 1
            if order not in self.told:
                self.told.add(order)
                order.send(None)
        except BrokenPipeError:
            pass
        return 0


#: the pipe capacity asked for (Linux's default ceiling, /proc/sys/fs/pipe-max-size): a chunk's results fit
#: in it, so that a worker goes on with its next chunk instead of waiting for the parent to read them
PIPE_BYTES = 1 << 20


def _widen(connection: Connection) -> None:
    """Ask for a pipe of :data:`PIPE_BYTES` (Linux; elsewhere, or where refused, the pipe stays as it is)."""
    if hasattr(fcntl, "F_SETPIPE_SZ"):
        try:
            fcntl.fcntl(connection.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        except OSError:
            pass


def _outcome(connection: Connection, process: BaseProcess) -> tuple[int, bool, Any]:
    """What a worker sent back of a chunk: its number, whether it failed, and its results or the exception
    it raised."""
    try:
        outcome: tuple[int, bool, Any] = connection.recv()
    except EOFError:
        process.join()
        raise WorkerFailed(f"a worker process ended without its results (exit status {process.exitcode})") from None
    return outcome


def _serve(function: Callable[[Task], Result], chunks: list[list[Task]], orders: Connection, connection: Connection,
           others: list[Connection]) -> None:
    """A worker: the results of each chunk whose number it is sent (or the exception that stops it), sent
    back one chunk at a time, until it is sent None. It closes the parent's ends of the pipes that it
    inherited (``others``: its own and those of the workers started before it), so that the parent's
    going away ends it (a send to a closed pipe fails; so does waiting for a chunk number)."""
    worker_ignores_interrupts()
    for other in others:
        other.close()
    while True:
        try:
            number = orders.recv()
        except EOFError:  # the parent has gone
            return
        if number is None:
            return
        try:
            outcome: tuple[int, bool, Any] = (number, False, [function(task) for task in chunks[number]])
        except Exception as exc:  # noqa: BLE001 - sent to the parent, which raises it
            outcome = (number, True, exc)
        try:
            connection.send(outcome)
        except OSError:  # the parent has gone
            return
        except Exception:  # noqa: BLE001 - the results or the exception would not pickle
            trace = "".join(traceback.format_exception(outcome[2])) if outcome[1] else traceback.format_exc()
            outcome = (number, True, RuntimeError(f"a worker's outcome could not be sent back:\n{trace}"))
            connection.send(outcome)
        if outcome[1]:
            return
