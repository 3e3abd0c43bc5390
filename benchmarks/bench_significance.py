"""Paired significance tests on 400 documents: 10,000 approximate-randomization trials, vectorised,
against the former per-trial loop, with 1,000 bootstrap resamples for scale.

Run: ``python -m pytest benchmarks/bench_significance.py`` (pytest-benchmark prints the table).
The counts are seeded random per-document counts of RST-DT-like sizes (10-200 tuples each).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rstkit.metrics.significance import approximate_randomization, bootstrap_ci, paired_bootstrap
from tests.metrics.test_significance import loop_reference, random_counts

N_DOCS = 400
N_TRIALS = 10_000


@pytest.fixture(scope="module")
def systems():
    rng = np.random.default_rng(2017)
    return random_counts(rng, N_DOCS, 200, True), random_counts(rng, N_DOCS, 200, True)


@pytest.mark.parametrize("average", ["micro", "macro", "dplp"])
def test_randomization_10k_trials(benchmark, systems, average):
    p = benchmark(approximate_randomization, *systems, average, n_trials=N_TRIALS, seed=1)
    assert all(0.0 < v <= 1.0 for v in p.values())


@pytest.mark.parametrize("average", ["micro", "macro"])
def test_randomization_10k_trials_former_loop(benchmark, systems, average):
    expected = approximate_randomization(*systems, average, n_trials=N_TRIALS, seed=1)
    assert benchmark.pedantic(loop_reference, args=(*systems, average, N_TRIALS, 1), rounds=2, iterations=1) == expected


def test_paired_bootstrap_1k_resamples(benchmark, systems):
    benchmark(paired_bootstrap, *systems, "micro", n_bootstrap=1000, seed=1)


def test_bootstrap_ci_1k_resamples(benchmark, systems):
    benchmark(bootstrap_ci, systems[0], "micro", confidence=0.95, n_bootstrap=1000, seed=1)
