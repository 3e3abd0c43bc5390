"""The cyclic garbage collector paused while rstkit reads or scores many trees, and only where
its caller asked for that: the command line does (:func:`gc_pauses_allowed` around each command),
a Python program may (the same block, or :func:`no_cyclic_gc` around its own work). A library
call made outside such a block leaves the host's collector alone."""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_PAUSES_ALLOWED: ContextVar[bool] = ContextVar("rstkit_gc_pauses_allowed", default=False)


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """The cyclic garbage collector paused: reading builds millions of acyclic objects (nodes,
    EDUs, tuples), and each collection would walk all those built so far (a third of the time
    of reading 4,000 files). Reference counting still frees everything; the collector is
    restored as it was (enabled or not, its thresholds and frozen objects untouched).

    On restoring it, everything the collector tracks moves to its oldest generation at once
    (``gc.freeze`` then ``gc.unfreeze``: no object is walked): otherwise the first young
    collection after the pause would walk every object built during it (0.03 s of the 0.29 s
    it takes to read GUM's 281 .rs4 files). Full collections still visit them; nothing is kept
    alive. When the program has frozen objects of its own, they stay frozen and this step is
    skipped.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()


@contextmanager
def gc_pauses_allowed() -> Iterator[None]:
    """Within this block (in this thread or task), rstkit's bulk work (:func:`read_files
    <rstkit.corpus.files.read_files>`, evaluation) runs with the collector paused, as
    :func:`no_cyclic_gc` pauses it; the command line runs every command inside it."""
    token = _PAUSES_ALLOWED.set(True)
    try:
        yield
    finally:
        _PAUSES_ALLOWED.reset(token)


@contextmanager
def bulk_work() -> Iterator[None]:
    """Where rstkit builds or scores many trees: the collector paused when the caller allowed it
    (:func:`gc_pauses_allowed`), left alone otherwise."""
    if not _PAUSES_ALLOWED.get():
        yield
        return
    with no_cyclic_gc():
        yield
