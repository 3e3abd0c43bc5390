"""Interrupts (SIGINT: Ctrl-C; SIGTERM: a polite kill), in one place: every signal handler rstkit sets.

* :class:`Terminated` is SIGTERM raised where the program is, as Ctrl-C raises
  :class:`KeyboardInterrupt` (it is one), so that the cleanup of what was being written runs;
  :func:`terminate_as_interrupt` makes SIGTERM raise it while a block runs (the command line
  around each command; ``rstkit.__main__`` from the first moment of start-up).
* :func:`interrupts_never_lost`: one raised where Python can only print it (a lazy import's
  lock callback) is raised again where it propagates, and :func:`interrupt_arrived` tells one that a
  library turned into an error of its own.
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
import sys
import threading
from collections.abc import Iterator
from types import FrameType

#: the signals that end a command: held back, blocked or turned into exceptions here
INTERRUPTS = (signal.SIGINT, signal.SIGTERM)
#: the exit statuses of a command they ended (128 + the signal's number, as a shell reports it)
INTERRUPTED, TERMINATED = 128 + signal.SIGINT, 128 + signal.SIGTERM


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is (as Ctrl-C raises KeyboardInterrupt), so that the
    cleanup of what was being written runs."""


#: the interrupts (their exceptions' classes) that arrived since :func:`interrupts_never_lost` began
_ARRIVED: list[type[KeyboardInterrupt]] = []


def _raise_terminated(signum, frame) -> None:
    _ARRIVED.append(Terminated)
    raise Terminated()


def _raise_interrupted(signum, frame) -> None:
    _ARRIVED.append(KeyboardInterrupt)
    raise KeyboardInterrupt()


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
def interrupts_never_lost() -> Iterator[None]:
    """While the block runs, no interrupt goes unnoticed (a command's run).

    * One raised where an exception cannot propagate (importlib's callback that drops a module lock, as a
      lazy import ends; a ``__del__``) was only printed as "Exception ignored" and the command ran on:
      :data:`sys.unraisablehook` now has it raised again as the next Python function starts, back in
      code where it propagates (:func:`_raise_at_next_call`).
    * One that a library turned into an error of its own (numpy, interrupted while it imports, raises an
      ImportError) is remembered: :func:`interrupt_arrived` names it (SIGINT is recorded as SIGTERM is,
      where it has Python's default handler)."""
    previous_hook = sys.unraisablehook

    def raise_again(unraisable: sys.UnraisableHookArgs) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
            _raise_at_next_call(unraisable.exc_type)
        else:
            previous_hook(unraisable)

    _ARRIVED.clear()
    previous_sigint = None
    if _main_thread() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous_sigint = signal.signal(signal.SIGINT, _raise_interrupted)
    sys.unraisablehook = raise_again
    try:
        yield
    finally:
        sys.unraisablehook = previous_hook
        if previous_sigint is not None:
            signal.signal(signal.SIGINT, previous_sigint)


def interrupt_arrived() -> type[KeyboardInterrupt] | None:
    """The first interrupt (:class:`KeyboardInterrupt` or :class:`Terminated`) that arrived since
    :func:`interrupts_never_lost` began, whatever became of its exception; None if none did."""
    return _ARRIVED[0] if _ARRIVED else None


def _raise_at_next_call(kind: type[KeyboardInterrupt]) -> None:
    """``kind`` raised as the next Python function of this thread starts (a profile function's
    exception propagates into the frame it was called for), not here: a signal sent again now would be
    raised in this hook, where it would be swallowed once more."""
    before = sys.getprofile()

    def raiser(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            sys.setprofile(before)
            raise kind()

    sys.setprofile(raiser)


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
