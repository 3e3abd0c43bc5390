"""Approximate randomization, vectorised: exactly the p-values of the former per-trial loop.

``loop_reference`` is the implementation rstkit shipped before the vectorised one (one
scoring per trial, trials drawn in batches of 1,000), kept here as the reference.
"""
from __future__ import annotations

import numpy as np
import pytest

from rstkit.errors import RSTKitError
from rstkit.metrics import significance
from rstkit.metrics.average import weighted_scores
from rstkit.metrics.counts import Counts
from rstkit.metrics.significance import approximate_randomization, bootstrap_ci, paired_bootstrap
from rstkit.settings import MEASURES


def loop_reference(baseline: Counts, system: Counts, average: str, n_trials: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    n = baseline.n_docs
    ones = np.ones((1, n))
    observed = np.abs(weighted_scores(system, ones, average)[2][0] - weighted_scores(baseline, ones, average)[2][0])
    hits = np.zeros(4, dtype=np.int64)
    for done in range(0, n_trials, 1000):
        size = min(1000, n_trials - done)
        swap = rng.random((size, n)) < 0.5
        s = swap[:, None, :]
        a = (np.where(s, system.matched, baseline.matched), np.where(s, system.gold, baseline.gold),
             np.where(s, system.pred, baseline.pred))
        b = (np.where(s, baseline.matched, system.matched), np.where(s, baseline.gold, system.gold),
             np.where(s, baseline.pred, system.pred))
        per_trial = [np.stack([weighted_scores(Counts(m, g, p), ones, average)[2][0] for m, g, p in zip(*mixed)])
                     for mixed in (a, b)]
        hits += (np.abs(per_trial[1] - per_trial[0]) >= observed - 1e-12).sum(axis=0)
    return {k: float((h + 1) / (n_trials + 1)) for k, h in zip(MEASURES, hits)}


def random_counts(rng: np.random.Generator, n: int, high: int, pred_differs: bool) -> Counts:
    gold = rng.integers(1, high, size=n)
    pred = rng.integers(1, high, size=n) if pred_differs else gold
    matched = np.sort(np.stack([rng.integers(0, np.minimum(gold, pred) + 1) for _ in range(4)]), axis=0)[::-1]
    return Counts(matched, np.tile(gold, (4, 1)), np.tile(pred, (4, 1)))


CASES = [  # (documents, largest count, predictions of other lengths, trials, seed)
    (400, 200, False, 3000, 1), (400, 200, True, 2500, 2), (7, 4, True, 4000, 3), (7, 4, False, 999, 4),
    (2, 3, False, 1500, 5), (1, 5, True, 50, 6), (60, 12, True, 2001, 7),
]


@pytest.mark.parametrize("average", ["micro", "macro", "dplp"])
@pytest.mark.parametrize("n_docs, high, pred_differs, n_trials, seed", CASES)
def test_same_p_values_as_the_loop(n_docs, high, pred_differs, n_trials, seed, average):
    rng = np.random.default_rng(100 + seed)
    a, b = random_counts(rng, n_docs, high, pred_differs), random_counts(rng, n_docs, high, pred_differs)
    expected = loop_reference(a, b, average, n_trials, seed)
    assert approximate_randomization(a, b, average, n_trials=n_trials, seed=seed) == expected


@pytest.mark.parametrize("entries", [1, 400, 1 << 12])
def test_batching_does_not_change_the_draws(monkeypatch, entries):
    rng = np.random.default_rng(9)
    a, b = random_counts(rng, 40, 30, True), random_counts(rng, 40, 30, True)
    expected = loop_reference(a, b, "macro", 2500, 11)
    monkeypatch.setattr(significance, "MAX_BATCH_ENTRIES", entries)
    assert approximate_randomization(a, b, "macro", n_trials=2500, seed=11) == expected


def test_identical_systems_are_never_significant():
    a = random_counts(np.random.default_rng(1), 50, 20, True)
    for average in ("micro", "macro", "dplp"):
        assert approximate_randomization(a, a, average, n_trials=300, seed=1) == {k: 1.0 for k in "SNRF"}


@pytest.mark.parametrize("call", [
    lambda c: approximate_randomization(c, c, "micro", n_trials=0, seed=1),
    lambda c: approximate_randomization(c, c, "micro", n_trials=10, seed=-1),
    lambda c: paired_bootstrap(c, c, "micro", n_bootstrap=0, seed=1),
    lambda c: bootstrap_ci(c, "micro", confidence=1.0, n_bootstrap=10, seed=1),
    lambda c: bootstrap_ci(c, "median", confidence=0.9, n_bootstrap=10, seed=1),
    lambda c: bootstrap_ci(c.select(np.zeros(c.n_docs, dtype=bool)), "micro", confidence=0.9, n_bootstrap=10, seed=1),
])
def test_bad_settings_are_clear_errors(call):
    with pytest.raises(RSTKitError):
        call(random_counts(np.random.default_rng(2), 5, 10, True))
