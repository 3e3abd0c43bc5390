"""Scoring throughput and memory on 10,000 synthetic documents; vectorised scorer vs the oracle.

Run: ``python -m pytest benchmarks/bench_scoring.py -s`` (pytest-benchmark prints the table).
Timed separately: turning tuples into integer arrays (done once per tree), matching and
averaging from those arrays (what bootstrap, several averages and several systems reuse),
the pure-Python oracle from the same tuples, and the whole pipeline from trees.
"""
from __future__ import annotations

import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics.average import aggregate
from rstkit.metrics.counts import LabelIds, TupleArrays, codec_for, count_matches
from rstkit.metrics.significance import bootstrap_ci
from rstkit.transform import attachment_decisions, marcu_tuples
from tests.support import oracle, synthetic

N_DOCS = 10_000
EXTRACT = {"rst-parseval": marcu_tuples, "parseval": attachment_decisions}


@pytest.fixture(scope="module")
def corpus():
    gold, pred = synthetic.corpus(N_DOCS, seed=1)
    sizes = np.array([t.n_edus for t in gold.values()])
    print(f"\nsynthetic corpus: {N_DOCS} documents, EDUs mean {sizes.mean():.1f}, max {sizes.max()}")
    return gold, pred


@pytest.fixture(scope="module", params=["rst-parseval", "parseval"])
def prepared(request, corpus):
    gold, pred = corpus
    extract = EXTRACT[request.param]
    g = [extract(t) for t in gold.values()]
    p = [extract(t) for t in pred.values()]
    return request.param, g, p


def to_arrays(g, p):
    nuc, rel = LabelIds(), LabelIds()
    ga, pa = TupleArrays.from_tuples(g, nuc, rel), TupleArrays.from_tuples(p, nuc, rel)
    return ga, pa, codec_for([ga, pa], nuc, rel)


def match(ga, pa, codec, average="micro"):
    return aggregate(count_matches(ga, pa, codec), average).f1


def test_tuples_to_arrays(benchmark, prepared):
    _, g, p = prepared
    benchmark.pedantic(to_arrays, args=(g, p), rounds=3, iterations=1)


def test_vectorised_matching(benchmark, prepared):
    _, g, p = prepared
    arrays = to_arrays(g, p)
    result = benchmark(match, *arrays)
    assert result == pytest.approx(oracle.score(g, p, "micro"))


def test_oracle_matching(benchmark, prepared):
    _, g, p = prepared
    benchmark.pedantic(oracle.score, args=(g, p, "micro"), rounds=1, iterations=1)


def test_speedup_and_memory(prepared):
    """Not a pass/fail speed test: prints the speed-up over the oracle and the peak memory."""
    metric, g, p = prepared
    t0 = time.perf_counter()
    arrays = to_arrays(g, p)
    convert = time.perf_counter() - t0
    t0 = time.perf_counter()
    match(*arrays)
    fast = time.perf_counter() - t0
    t0 = time.perf_counter()
    oracle.score(g, p, "micro")
    slow = time.perf_counter() - t0
    tracemalloc.start()
    match(*to_arrays(g, p))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    n_tuples = sum(map(len, g))
    print(f"\n{metric}: {n_tuples} gold tuples; arrays {convert:.3f} s once, then matching+averaging "
          f"{fast:.3f} s vs oracle {slow:.3f} s (speed-up {slow / fast:.0f}x; with the conversion "
          f"{slow / (fast + convert):.1f}x); peak memory {peak / 2**20:.0f} MiB")


def test_full_pipeline_from_trees(benchmark, corpus):
    gold, pred = corpus
    benchmark.pedantic(score_documents, args=(gold, pred, EvalConfig(metric="rst-parseval")), rounds=1, iterations=1)


def test_bootstrap_38_documents(benchmark, corpus):
    gold, pred = corpus
    ids = list(gold)[:38]
    result = score_documents({d: gold[d] for d in ids}, {d: pred[d] for d in ids}, EvalConfig())
    counts = result.systems[0].counts
    ci = benchmark(bootstrap_ci, counts, "micro", confidence=0.95, n_bootstrap=1000, seed=7)
    assert ci["S"][0] <= result.scores["S"] <= ci["S"][1]
