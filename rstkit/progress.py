"""Progress of long work on standard error: a bar on a terminal, a line every few seconds otherwise.

Library functions report progress through :class:`Progress`; whether anything is shown is the
caller's choice, made once with :func:`shown` (the command line shows progress unless
``--quiet``; the Python API shows none unless asked). Work that ends before the first report is
due (half a second on a terminal, ``every`` seconds otherwise) prints nothing. :func:`waiting`
reports a phase with nothing to count (its time).
"""
from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator
from contextvars import ContextVar
from typing import Self, TextIO, TypeVar

T = TypeVar("T")
_SHOWN: ContextVar[bool] = ContextVar("rstkit_progress_shown", default=False)

#: seconds before a bar is first drawn on a terminal
BAR_DELAY = 0.5
#: width of the bar in characters
BAR_WIDTH = 30
#: seconds between two report lines off a terminal (and before the first)
EVERY = 5.0


@contextlib.contextmanager
def shown(enabled: bool = True) -> Iterator[None]:
    """Within this block, :class:`Progress` objects created without ``enabled`` report (or not)."""
    token = _SHOWN.set(enabled)
    try:
        yield
    finally:
        _SHOWN.reset(token)


def showing() -> bool:
    """Whether progress is shown here (see :func:`shown`): also asked by reports that are lines, not
    counts (a training epoch's scores)."""
    return _SHOWN.get()


class Progress:
    """Counts done items of ``total`` (None: unknown) and reports them on ``stream`` (stderr).

    On a terminal, one line redrawn in place (``what [#####.....] 12/40 doc 3.1s``), at most ten
    times a second; elsewhere (a log, a pipe), ``what: 12/40 doc (3.1s)`` every ``every`` seconds
    (default: :data:`EVERY`).
    ``clock`` and ``stream`` are for tests.
    """

    def __init__(self, total: int | None, what: str, unit: str = "item", *, enabled: bool | None = None,
                 every: float | None = None, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total, self.what, self.unit, self.every = total, what, unit, EVERY if every is None else every
        self.enabled = _SHOWN.get() if enabled is None else enabled
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.done = 0
        self.started = clock()
        self._last_report: float | None = None
        self._drawn = False
        self._terminal = bool(getattr(self.stream, "isatty", lambda: False)())

    @classmethod
    def counting(cls, items: Collection[T], what: str, unit: str = "item") -> Iterator[T]:
        """``items`` one by one, each counted as done when the next is asked for: the report of a
        loop over them (``for doc in Progress.counting(docs, "score", "doc"): ...``)."""
        with cls(len(items), what, unit) as bar:
            for item in items:
                yield item
                bar.update()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(self, n: int = 1) -> None:
        """``n`` more items done; report if one is due."""
        self.done += n
        if not self.enabled:
            return
        now = self.clock()
        elapsed = now - self.started
        if self._terminal:
            if elapsed >= BAR_DELAY and (self._last_report is None or now - self._last_report >= 0.1):
                self._draw(elapsed)
                self._last_report = now
        elif elapsed >= self.every and (self._last_report is None or now - self._last_report >= self.every):
            count = self._count()
            self.stream.write(f"{self.what}: {count} ({elapsed:.0f}s)\n" if count
                              else f"{self.what} ({elapsed:.0f}s)\n")
            self.stream.flush()
            self._last_report = now

    def close(self) -> None:
        """End the report: a bar that was drawn is drawn complete and kept on its line."""
        if self.enabled and self._drawn:
            self._draw(self.clock() - self.started)
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False

    def _count(self) -> str:
        if self.total is None and not self.unit:  # a phase with nothing to count (:func:`waiting`): its time
            return ""
        return f"{self.done}/{self.total} {self.unit}" if self.total is not None else f"{self.done} {self.unit}"

    def _draw(self, elapsed: float) -> None:
        if self.total:
            filled = min(BAR_WIDTH, BAR_WIDTH * self.done // self.total)
            bar = f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] "
        else:
            bar = ""
        count = self._count()
        self.stream.write(f"\r{self.what} {bar}{count + ' ' if count else ''}{elapsed:.1f}s")
        self.stream.flush()
        self._drawn = True


@contextlib.contextmanager
def waiting(what: str, *, every: float = 5.0, stream: TextIO | None = None,
            enabled: bool | None = None) -> Iterator[Progress]:
    """A phase with nothing to count (importing torch, loading a model) reported as :class:`Progress`
    reports counted work, its time only: ``what 3.1s`` redrawn on a terminal, ``what (5s)`` every ``every``
    seconds elsewhere, nothing when it ends before the first report is due. A timer thread reports while
    the block runs, so the block's own work needs no calls."""
    bar = Progress(None, what, "", enabled=enabled, every=every, stream=stream)
    done = threading.Event()

    def report() -> None:
        while not done.wait(0.1 if bar._terminal else every / 10):  # a bar is redrawn up to ten times a second
            bar.update(0)

    timer = threading.Thread(target=report, name=f"rstkit progress: {what}", daemon=True)
    if bar.enabled:
        timer.start()
    try:
        yield bar
    finally:
        done.set()
        if timer.is_alive():
            timer.join()
        bar.close()
