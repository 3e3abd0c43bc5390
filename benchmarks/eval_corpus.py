"""From files to scores: ``rstkit eval`` against the reference baseline, side by side.

Both are timed as subprocesses, process start included, on a synthetic RST-DT-like corpus
(:mod:`make_corpus`), for all 16 numbers: RST-Parseval and original Parseval, S/N/R/F,
micro and macro (``--metric rst-parseval,parseval --labels rstdt18``, the 18 classes as the reference maps
them). Where the command line offers ``--average all`` one run gives them all; otherwise a
micro run and a macro run are timed together (each reads the files). The baseline is
benchmarks/reference_baseline.py: a pure-Python program doing the reference's work the
reference's way, NOT educe (not installed here). Runs alternate (rstkit, baseline) and the
medians are reported, with the peak resident memory of each process
(``resource.getrusage(RUSAGE_CHILDREN)`` of a fresh wrapper per run). The 16 numbers of both
must agree to 1e-9, else the script fails.

Run: ``python benchmarks/eval_corpus.py [--docs 2000] [--edus 60] [--runs 3] [--no-baseline] [--compat]``;
``--compat`` also times ``--compat rst-eval`` (the reference's own procedure) in each round, so that
the default command, the compat command and the baseline alternate;
Modules run with their bytecode cached (PYTHONDONTWRITEBYTECODE is unset).
``--scaling`` times rstkit alone over growing corpora (500 to 8,000 documents of about 60
EDUs) and over documents of 50, 500 and 5,000 EDUs (100,000 EDUs in each corpus).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the corpus generator beside this script
from make_corpus import make_corpus  # noqa: E402

BASELINE = ("baseline: benchmarks/reference_baseline.py, pure Python written from evaluation.md "
            "(the reference's work done the reference's way), NOT educe")


def measure(command: list[str]) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds, peak RSS in MiB, stdout) of ``command``, run by a fresh wrapper
    process so that RUSAGE_CHILDREN holds this command alone."""
    wrapper = ("import json, resource, subprocess, sys, time\n"
               "t = time.perf_counter()\n"
               "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
               "wall = time.perf_counter() - t\n"
               "if r.returncode: sys.stderr.write(r.stderr); sys.exit(r.returncode)\n"
               "use = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
               "print(json.dumps({'wall': wall, 'cpu': use.ru_utime + use.ru_stime, 'rss': use.ru_maxrss / 1024, "
               "'out': r.stdout}))\n")
    done = subprocess.run([sys.executable, "-c", wrapper, *command], capture_output=True, text=True, check=True)
    result = json.loads(done.stdout)
    return result["wall"], result["cpu"], result["rss"], result["out"]


def averages_in_one_run() -> bool:
    """Whether ``rstkit eval`` takes ``--average all`` (one read of the files for every average)."""
    text = subprocess.run([sys.executable, "-m", "rstkit", "eval", "--help"], capture_output=True, text=True,
                          check=True).stdout
    choices = re.search(r"--average \{([^}]*)\}", text)
    return choices is not None and "all" in choices.group(1).split(",")


#: ``--jobs`` given to rstkit (None: its default, every usable core from 200 files)
JOBS: list[int | None] = [None]


def rstkit_commands(gold: Path, pred: Path, compat: bool = False) -> list[list[str]]:
    """The timed command(s); ``compat``: with ``--compat rst-eval`` (the reference's own procedure)."""
    base = [sys.executable, "-m", "rstkit", "eval", str(gold), str(pred), "--metric", "rst-parseval,parseval",
            "--labels", "rstdt18", "--format", "json", *(["--jobs", str(JOBS[0])] if JOBS[0] else []),
            *(["--compat", "rst-eval"] if compat else [])]
    if averages_in_one_run():  # micro and macro: the 16 numbers (``all`` adds dplp's)
        return [[*base, "--average", "micro,macro"]]
    return [[*base, "--average", "micro"], [*base, "--average", "macro"]]


def rstkit_numbers(outputs: list[str]) -> dict[tuple[str, str, str], float]:
    """The F1 values of every (metric, average, measure) in the JSON outputs (one object, a list
    of them, or an object holding them under ``results``)."""
    numbers = {}
    for out in outputs:
        data = json.loads(out)
        results = data if isinstance(data, list) else data.get("results", [data])
        for result in results:
            scores = result["systems"][0]["scores"] if "systems" in result else result["scores"]
            for key, value in scores.items():
                numbers[(result["metric"], result["average"], key)] = value
    return numbers


@dataclass
class Run:
    """One timed run (for rstkit without ``--average all``: its runs together)."""

    wall: float  # seconds
    cpu: float  # user + system seconds
    rss: float  # peak resident memory, MiB (the largest of the runs)
    numbers: dict[tuple[str, str, str], float]


def run_rstkit(gold: Path, pred: Path, compat: bool = False) -> Run:
    measured = [measure(command) for command in rstkit_commands(gold, pred, compat)]
    return Run(sum(m[0] for m in measured), sum(m[1] for m in measured), max(m[2] for m in measured),
               rstkit_numbers([m[3] for m in measured]))


def run_baseline(gold: Path, pred: Path) -> Run:
    wall, cpu, rss, out = measure([sys.executable, str(HERE / "reference_baseline.py"), str(gold), str(pred)])
    data = json.loads(out)
    numbers = {(metric, average, key): value for metric in ("rst-parseval", "parseval")
               for average, scores in data[metric].items() for key, value in scores.items()}
    return Run(wall, cpu, rss, numbers)


def describe(runs: list[Run]) -> str:
    return (f"median {statistics.median(r.wall for r in runs):.2f} s wall of {[round(r.wall, 2) for r in runs]}, "
            f"{statistics.median(r.cpu for r in runs):.2f} s CPU, peak RSS {max(r.rss for r in runs):.0f} MiB")


def check_agree(a: dict, b: dict) -> float:
    if set(a) != set(b) or len(a) != 16:
        raise SystemExit(f"the two sides give different sets of numbers: {sorted(a)} vs {sorted(b)}")
    worst = max(abs(a[k] - b[k]) for k in a)
    if worst > 1e-9:
        raise SystemExit(f"rstkit and the baseline disagree by {worst}: {a} vs {b}")
    return worst


def corpus(root: Path, docs: int, edus: int, fixed: bool = False) -> tuple[Path, Path]:
    out = root / f"d{docs}_e{edus}{'_fixed' if fixed else ''}"
    if not (out / "pred").is_dir():
        make_corpus(out, docs, edus, seed=1, fixed=fixed)
    return out / "gold", out / "pred"


def compare(root: Path, docs: int, edus: int, runs: int, baseline: bool, compat: bool = False) -> None:
    gold, pred = corpus(root, docs, edus)
    ours: list[Run] = []
    theirs: list[Run] = []
    compats: list[Run] = []
    for _ in range(runs):  # paired: one of each, in turn
        ours.append(run_rstkit(gold, pred))
        if compat:
            compats.append(run_rstkit(gold, pred, compat=True))
        if baseline:
            theirs.append(run_baseline(gold, pred))
    mode = "one run, --average micro,macro" if len(rstkit_commands(gold, pred)) == 1 else "a micro run + a macro run"
    print(f"corpus: {docs} documents, about {edus} EDUs each ({gold.parent})")
    jobs = f"--jobs {JOBS[0]}" if JOBS[0] else "default --jobs"
    print(f"rstkit eval --metric rst-parseval,parseval --labels rstdt18 ({mode}, {jobs}): {describe(ours)}")
    if baseline:
        worst = max(check_agree(a.numbers, b.numbers) for a, b in zip(ours, theirs))
        print(f"{BASELINE}: {describe(theirs)}")
        wall = [b.wall / a.wall for a, b in zip(ours, theirs)]
        cpu = [b.cpu / a.cpu for a, b in zip(ours, theirs)]
        print(f"baseline / rstkit: wall {statistics.median(wall):.2f}x (paired runs {[round(x, 2) for x in wall]}), "
              f"CPU {statistics.median(cpu):.2f}x; the 16 numbers agree to {worst:.1e}")
    if compat:
        report_compat(ours, compats, theirs)
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def report_compat(default: list[Run], compat: list[Run], baseline: list[Run]) -> None:
    """The compat path (``--compat rst-eval``) against the default command and the baseline, paired."""
    print(f"rstkit eval ... --compat rst-eval: {describe(compat)}")
    slower = [c.wall / d.wall for d, c in zip(default, compat)]
    print(f"compat / default: wall {statistics.median(slower):.2f}x (paired runs {[round(x, 2) for x in slower]}), "
          f"CPU {statistics.median(c.cpu / d.cpu for d, c in zip(default, compat)):.2f}x")
    if baseline:
        worst = max(check_agree(c.numbers, b.numbers) for c, b in zip(compat, baseline))
        faster = [b.wall / c.wall for c, b in zip(compat, baseline)]
        cpu = statistics.median(b.cpu / c.cpu for c, b in zip(compat, baseline))
        print(f"baseline / compat: wall {statistics.median(faster):.2f}x (paired runs "
              f"{[round(x, 2) for x in faster]}), CPU {cpu:.2f}x; the 16 numbers agree to {worst:.1e}")
    median = statistics.median(c.wall for c in compat)
    print(f"issue 22's reference figure (111 s, not measured here) / compat median: {111 / median:.0f}x; "
          f"educe's ~100 s (issue 11's figure): {100 / median:.0f}x")


def scaling(root: Path, runs: int) -> None:
    print(f"rstkit eval --metric rst-parseval,parseval --labels rstdt18, {runs} runs each")
    for docs, edus, fixed in [(500, 60, False), (1000, 60, False), (2000, 60, False), (4000, 60, False),
                              (8000, 60, False), (2000, 50, True), (200, 500, True), (20, 5000, True)]:
        gold, pred = corpus(root, docs, edus, fixed)
        timings = describe([run_rstkit(gold, pred) for _ in range(runs)])
        print(f"{docs:>6} documents x {'' if fixed else '~'}{edus} EDUs: {timings}")
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def warm_bytecode_caches() -> None:
    """Time rstkit as it runs after ``pip install``: with its modules' bytecode cached. Some
    machines set PYTHONDONTWRITEBYTECODE (this one does), and then every run compiles rstkit's
    modules again (about 0.12 s); it is unset for the timed commands, and one untimed run writes
    the caches."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "rstkit", "eval", "--help"], capture_output=True, check=True)
    print("bytecode caches: written and used (as after pip install)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=2000)
    parser.add_argument("--edus", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--jobs", type=int, default=None, help="rstkit's --jobs (default: rstkit's default)")
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--compat", action="store_true", help="also time --compat rst-eval (the reference's own "
                        "procedure), paired with the default command and the baseline")
    parser.add_argument("--corpora", type=Path, default=None, help="where corpora are made (default: a temporary "
                        "directory)")
    args = parser.parse_args()
    JOBS[0] = args.jobs
    started = time.perf_counter()
    warm_bytecode_caches()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.corpora or Path(tmp)
        if args.scaling:
            scaling(root, args.runs)
        else:
            compare(root, args.docs, args.edus, args.runs, not args.no_baseline, args.compat)
    print(f"(benchmark took {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
