"""``rstkit.evaluate`` from files, as ``rstkit eval`` runs, with one reading process and with two.

With two, the workers send back documents prepared for scoring instead of trees
(:mod:`rstkit.metrics.prepared`); both give the same scores (checked here) and the same output
(tests/metrics/test_eval_prepared.py). Whole-command timings, process start included, against a
baseline: ``benchmarks/eval_corpus.py``.

Run: ``python -m pytest benchmarks/bench_eval_files.py -s``
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_corpus import make_corpus

import rstkit
from rstkit.gcpause import gc_pauses_allowed
from rstkit.metrics import EvalConfig

N_DOCS = 1000
CONFIGS = [EvalConfig(labels="rstdt18", metric=m, average=a)
           for m in ("rst-parseval", "parseval") for a in ("micro", "macro")]


@pytest.fixture(autouse=True, scope="module")
def _as_the_command_runs():
    """The collector paused around reading and scoring, as ``rstkit eval`` pauses it."""
    with gc_pauses_allowed():
        yield


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[Path, Path]:
    out = tmp_path_factory.mktemp("eval") / f"d{N_DOCS}"
    make_corpus(out, N_DOCS, 60, seed=1)
    return out / "gold", out / "pred"


@pytest.fixture(scope="module")
def scores_with_one_process(files) -> list[dict[str, float]]:
    return [r.scores for r in rstkit.evaluate(*files, CONFIGS, jobs=1).results]


@pytest.mark.parametrize("jobs", [1, 2])
def test_evaluate_from_files(benchmark, files, scores_with_one_process, jobs):
    result = benchmark.pedantic(rstkit.evaluate, args=(*files, CONFIGS), kwargs={"jobs": jobs}, rounds=3)
    assert [r.scores for r in result.results] == scores_with_one_process
