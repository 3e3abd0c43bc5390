"""``--engine dask`` for ``rstkit parse`` and ``rstkit segment``: the work done on a Dask cluster,
the outputs written on this machine as each batch ends.

Each batch's files are written all or none through :func:`rstkit.output.write_files`, so an
output folder holds only complete files, whatever stops the run. ``--resume`` keeps the files
a previous run wrote and parses only the documents without one (a batch is always parsed
whole, so its results are those of an uninterrupted run); it first removes the staging folders
(``.NAME.*.rstkit-tmp``) a killed run can leave. ``--skip-errors`` lists a document that fails
(a warning each) and writes the others; without it, the first failure stops the run (the
files of finished batches stay, for ``--resume``).
"""
from __future__ import annotations

import argparse
import shutil
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import RSTKitError, RSTKitWarning
from ..output import write_files
from ..progress import Progress
from .common import VERBOSITY, info, positive_int, refuse_unused

ENGINE_OPTIONS = ("scheduler", "workers", "resume", "skip_errors")


def add_engine_options(p: argparse.ArgumentParser) -> None:
    group = p.add_argument_group("distributed runs (extra: dask)")
    group.add_argument("--engine", choices=("local", "dask"), default="local",
                       help="local: this process (default); dask: a Dask cluster, --workers N local processes or "
                            "--scheduler ADDRESS")
    group.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="with --engine dask: the running cluster's scheduler (e.g. tcp://host:8786)")
    group.add_argument("--workers", type=positive_int, default=None, metavar="N",
                       help="with --engine dask: start a local cluster of N worker processes (default: the cores)")
    group.add_argument("--resume", action="store_true",
                       help="with --engine dask: keep the outputs a previous run wrote, do only the rest")
    group.add_argument("--skip-errors", action="store_true",
                       help="with --engine dask: list an input that fails (a warning) and write the others")


def check_engine_options(args: argparse.Namespace) -> None:
    """The cluster options mean nothing without ``--engine dask``."""
    if args.engine != "dask":
        refuse_unused(args, ENGINE_OPTIONS, "needs --engine dask")


def remove_staging(out: Path) -> None:
    """The staging folders a killed run left in ``out`` (never complete outputs)."""
    if out.is_dir():
        for leftover in out.glob(".*.rstkit-tmp"):
            if leftover.is_dir():
                shutil.rmtree(leftover, ignore_errors=True)


@dataclass(frozen=True)
class Job:
    """One command's work on the cluster: ``task(spec, batch)`` over batches of its items, and how
    the results become files. Items are indices into ``names`` (each item's output file) and
    ``sources`` (what an error names: ``document 'X' (FILE)``)."""

    command: str
    unit: str
    names: Sequence[str]
    sources: Sequence[str]
    batches: Sequence[Sequence[int]]
    task: Callable[[Any, list], list]
    spec: Any
    item: Callable[[int], Any]
    render: Callable[[int, Any], str | bytes]


def run_on_dask(args: argparse.Namespace, job: Job, out: Path, protected: Sequence[Path]) -> int:
    """Run ``job`` on the cluster that ``--scheduler`` / ``--workers`` name, writing each batch's
    files into ``out`` as it ends (see the module's text); returns the exit status."""
    from ..cluster import connect, run_batches

    started = time.perf_counter()
    if args.resume:
        remove_staging(out)
    done = {i for i, name in enumerate(job.names) if args.resume and (out / name).is_file()}
    batches = [batch for batch in job.batches if any(i not in done for i in batch)]
    todo = sum(i not in done for batch in batches for i in batch)
    if done:
        info(f"--resume: {len(done)} of {len(job.names)} {job.unit}(s) already done in {out}; {todo} to do",
             job.command)
    failures: list[tuple[int, str]] = []
    bar = Progress(todo, f"{job.command.removeprefix('rstkit ')} (dask)", job.unit,
                   enabled=VERBOSITY["level"] >= 1 or None)

    def written(b: int, outcomes: list) -> None:
        files = {}
        for i, outcome in zip(batches[b], outcomes):
            if i in done:
                continue
            if outcome.error is not None:
                failures.append((i, outcome.error))
                if not args.skip_errors:
                    raise RSTKitError(f"{job.sources[i]} failed: {outcome.error} (--skip-errors lists what fails "
                                      "and writes the rest; --resume continues)")
            else:
                files[job.names[i]] = job.render(i, outcome.value)
        if files:
            write_files(out, files, into_directory=True, force=args.force, inputs=protected)
        bar.update(sum(i not in done for i in batches[b]))

    with connect(args.scheduler, args.workers) as client:
        workers = len(client.scheduler_info().get("workers", {}))
        run_batches(client, job.task, job.spec, [[job.item(i) for i in batch] for batch in batches], written)
    bar.close()
    for i, error in sorted(failures):
        warnings.warn(f"{job.sources[i]} was left out: {error}", RSTKitWarning, stacklevel=1)
    seconds = time.perf_counter() - started
    finished = todo - len(failures)
    info(f"{finished} {job.unit}(s) done on Dask ({workers} worker(s), {len(batches)} batch(es), "
         f"{finished / seconds:.2f} {job.unit}s/s) -> {out}"
         + (f"; {len(failures)} failed (listed above)" if failures else ""), job.command)
    return 0
