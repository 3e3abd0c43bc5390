"""Interrupts (SIGINT: Ctrl-C; SIGTERM: a polite kill), in one place: every signal handler rstkit sets.

* :class:`Terminated` is SIGTERM raised where the program is, as Ctrl-C raises
  :class:`KeyboardInterrupt` (it is one), so that the cleanup of what was being written runs;
  :func:`terminate_as_interrupt` makes SIGTERM raise it while a block runs (the command line
  around each command; ``rstkit.__main__`` from the first moment of start-up).
* :func:`deferred_interrupts` holds both back while a block runs (files moved into place, a
  staging folder removed), then delivers them.
* :func:`interrupts_blocked` and :func:`worker_ignores_interrupts`: worker processes are
  started with both blocked and then leave SIGINT to their parent (a Ctrl-C reaches every process
  of the terminal's group) and end at once on SIGTERM, whatever handler they inherited.

Only the main thread can set handlers; elsewhere the blocks just run. Imports nothing from rstkit.
"""
from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

#: the signals that end a command: held back, blocked or turned into exceptions here
INTERRUPTS = (signal.SIGINT, signal.SIGTERM)
#: the exit statuses of a command they ended (128 + the signal's number, as a shell reports it)
INTERRUPTED, TERMINATED = 128 + signal.SIGINT, 128 + signal.SIGTERM


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is (as Ctrl-C raises KeyboardInterrupt), so that the
    cleanup of what was being written runs."""


def _raise_terminated(signum, frame) -> None:
    raise Terminated()


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` while the block runs (in the main thread only); the
    handler there was before comes back after it."""
    if not _main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def raise_terminated_from_now() -> None:
    """SIGTERM raises :class:`Terminated` from now on (``rstkit.__main__`` at start-up, before the
    command line, which sets it again around the command, is imported)."""
    signal.signal(signal.SIGTERM, _raise_terminated)


@contextlib.contextmanager
def deferred_interrupts() -> Iterator[None]:
    """SIGINT and SIGTERM held back while the block runs, then delivered (to the handlers there
    were before). Only the main thread can hold them; elsewhere the block just runs."""
    if not _main_thread():
        yield
        return
    received: list[signal.Signals | int] = []
    previous = {sig: signal.signal(sig, lambda number, frame: received.append(number)) for sig in INTERRUPTS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for number in dict.fromkeys(received):
            signal.raise_signal(number)


@contextlib.contextmanager
def interrupts_blocked() -> Iterator[None]:
    """SIGINT and SIGTERM blocked in this thread (where the system can), so that processes started
    meanwhile begin with them blocked."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, INTERRUPTS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def worker_ignores_interrupts() -> None:
    """A pool worker's initializer: it leaves SIGINT to its parent, which ends it, and ends at once
    on SIGTERM, whatever handler it inherited; then unblocks both (see :func:`interrupts_blocked`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, INTERRUPTS)
