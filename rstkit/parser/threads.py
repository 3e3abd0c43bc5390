"""How many CPU threads torch gets when the user does not say.

torch's default (one thread per core) is pathologically slow on a busy machine: threads
spin waiting for each other on cores other processes hold (32 GUM test documents: 28.6 s
with the default against 2.9 s with one thread on a loaded 2-core machine).
"""
from __future__ import annotations

import os

from ..cores import usable_cores

#: documents below which parsing uses one thread (threads cost more than they give)
SMALL_BATCH = 4


def default_threads(n_documents: int) -> int:
    """Threads for torch that are never pathologically slow: 1 for small batches, else
    min(4, usable cores) less the cores other processes keep busy (the 1-minute load),
    at least 1 (on a busy machine more threads than free cores wait on each other)."""
    if n_documents <= SMALL_BATCH:
        return 1
    try:
        busy = int(os.getloadavg()[0])
    except OSError:
        busy = 0
    return max(1, min(4, usable_cores()) - busy)
