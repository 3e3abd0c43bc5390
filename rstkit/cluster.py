"""Running rstkit's work on a Dask cluster (the ``dask`` extra): connecting to one, and the
batches of a run with their results as they come.

``connect(workers=N)`` starts a local cluster of N single-threaded worker processes (a laptop,
one machine); ``connect(scheduler="tcp://host:8786")`` joins a running one, started with
``dask scheduler`` and ``dask worker tcp://host:8786 --nthreads 1`` on each machine (rstkit, the
same version, installed on every worker). Tasks are pure functions of their inputs, so a
batch whose worker is lost is run again on another worker by Dask itself.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import RSTKitError
from .extras import needs


@dataclass(frozen=True)
class Outcome:
    """What a task gives for one item of its batch: its value, or why it failed (a message)."""

    key: str
    value: Any
    error: str | None = None


def failure_message(exc: Exception) -> str:
    """An item's error as the run lists it: rstkit's own errors as they are, others with their type."""
    from .errors import RSTKitError

    return str(exc) if isinstance(exc, RSTKitError) else f"{type(exc).__name__}: {exc}"


def _dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise RSTKitError(needs("the Dask engine (--engine dask)", "dask and distributed", extra="dask")) from None
    return distributed


@contextlib.contextmanager
def connect(scheduler: str | None = None, workers: int | None = None) -> Iterator[Any]:
    """A ``distributed.Client``: to the scheduler at ``scheduler``, or to a local cluster of
    ``workers`` processes (default: the machine's cores) that is shut down afterwards."""
    distributed = _dask()
    if scheduler is not None and workers is not None:
        raise RSTKitError("give --scheduler ADDRESS (a running cluster) or --workers N (a local one), not both")
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout="30s")
        except (OSError, TimeoutError) as exc:
            raise RSTKitError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        with client:
            yield client
        return
    n = workers or os.cpu_count() or 1
    with distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        yield client


def run_batches(client: Any, task: Callable[..., Any], spec: Any, batches: Sequence[Any],
                done: Callable[[int, Any], None]) -> None:
    """``task(spec, batch)`` for every batch on the cluster; ``done(i, result)`` on this machine as
    each batch ends, in the order they end. A batch that fails on every worker it was tried on
    (Dask tries a lost worker's tasks again) is an error naming it."""
    distributed = _dask()
    futures = {client.submit(task, spec, batch, pure=False): i for i, batch in enumerate(batches)}
    try:
        for future in distributed.as_completed(futures):
            i = futures[future]
            try:
                result = future.result()
            except distributed.KilledWorker as exc:
                raise RSTKitError(f"batch {i + 1} of {len(batches)} was lost with every worker that ran it "
                                  f"({exc}); run again with --resume") from None
            done(i, result)
    finally:
        for future in futures:
            future.cancel()
