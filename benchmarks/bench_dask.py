"""Throughput of ``rstkit parse --engine dask`` with 1, 2 and 4 local workers against the local
engine, in one run (issue 35).

Each case is the whole command as a user runs it (a subprocess: start-up, reading, the cluster's
start, parsing, writing), on the GUM test split (32 documents, 3,775 EDUs, gold EDUs with their
``.rsd`` boundaries), ``--batch-size 4`` (8 tasks, so that 4 workers have work), the output
compared byte for byte with the local run's. Printed: wall and CPU seconds (user + system of the
command and its workers), documents per second, the ratio to one worker, and what 100,000
such documents would take at that rate (a linear extrapolation: the per-document cost does not
depend on the corpus size; the cluster's start-up, a few seconds, is paid once).

Run: ``python benchmarks/bench_dask.py [--models scratch,minilm] [--workers 1,2,4] [--gum DIR]``.
"""
from __future__ import annotations

import argparse
import filecmp
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_GUM = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "gum"
DOCS = 32


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``command`` (and every process it started)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def same_files(a: Path, b: Path) -> bool:
    names = sorted(p.name for p in a.iterdir())
    _, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    return names == sorted(p.name for p in b.iterdir()) and not mismatch and not errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="scratch,minilm")
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--gum", type=Path, default=Path(os.environ.get("RSTKIT_GUM", DEFAULT_GUM)))
    args = ap.parse_args()
    print(f"{os.cpu_count()} cores; load average at start {os.getloadavg()[0]:.1f}")
    print("| model | engine | wall s | CPU s | documents/s | vs 1 worker | 100k documents |")
    print("|---|---|---|---|---|---|---|")
    def command(out: Path, *options: str) -> list[str]:
        return [sys.executable, "-m", "rstkit", "parse", str(args.gum), str(out), "--split", "test", "--batch-size",
                "4", "-q", *options]

    with tempfile.TemporaryDirectory() as tmp:
        for model in args.models.split(","):
            local = Path(tmp) / f"{model}-local"
            cases = [("local, 1 thread", command(local, "--model", model, "--jobs", "1"), local)]
            for n in map(int, args.workers.split(",")):
                out = Path(tmp) / f"{model}-dask{n}"
                cases.append((f"dask, {n} worker{'s' if n > 1 else ''}",
                               command(out, "--model", model, "--engine", "dask", "--workers", str(n)), out))
            one = None
            for name, line, out in cases:
                wall, cpu = timed(line)
                assert out == local or same_files(local, out), f"{name}: the files differ from the local run's"
                rate = DOCS / wall
                one = rate if name.startswith("dask, 1 ") else one
                ratio = f"{rate / one:.2f}x" if one and name.startswith("dask") else "-"
                print(f"| {model} | {name} | {wall:.1f} | {cpu:.1f} | {rate:.2f} | {ratio} | "
                      f"{100_000 / rate / 3600:.1f} h |", flush=True)


if __name__ == "__main__":
    main()
