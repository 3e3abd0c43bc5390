"""Bootstrap confidence intervals and paired significance tests, from per-document counts.

Documents are the resampling unit. Everything is computed from the (matched, gold,
predicted) counts of each document, with all resamples as one matrix product, so
nothing is re-scored. All procedures are seeded.
"""
from __future__ import annotations

import numpy as np

from .average import weighted_scores
from .counts import METRIC_KEYS, Counts


def resample_weights(n_docs: int, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """(n_samples, n_docs) matrix: how often each document is drawn in each resample."""
    draws = rng.integers(0, n_docs, size=(n_samples, n_docs))
    offsets = np.arange(n_samples)[:, None] * n_docs
    return np.bincount((draws + offsets).ravel(), minlength=n_samples * n_docs).reshape(n_samples, n_docs)


def bootstrap_ci(counts: Counts, average: str, confidence: float = 0.95, n_samples: int = 1000,
                 seed: int = 12345) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap interval of F1 (percent) for S, N, R, F."""
    rng = np.random.default_rng(seed)
    _, _, f1 = weighted_scores(counts, resample_weights(counts.n_docs, n_samples, rng), average)
    alpha = (1.0 - confidence) / 2
    low, high = np.quantile(f1, [alpha, 1 - alpha], axis=0)
    return {k: (100.0 * float(lo), 100.0 * float(hi)) for k, lo, hi in zip(METRIC_KEYS, low, high)}


def paired_bootstrap(baseline: Counts, system: Counts, average: str, n_samples: int = 1000,
                     seed: int = 12345) -> dict[str, float]:
    """Two-sided paired bootstrap p-values for F1(system) - F1(baseline).

    Both systems are scored on the same resamples; the p-value is the share of resamples
    whose difference lies as far from the observed difference as the observed difference
    lies from zero (the bootstrap distribution shifted to the null hypothesis).
    """
    ones = np.ones((1, baseline.n_docs))
    observed = weighted_scores(system, ones, average)[2][0] - weighted_scores(baseline, ones, average)[2][0]
    weights = resample_weights(baseline.n_docs, n_samples, np.random.default_rng(seed))
    deltas = weighted_scores(system, weights, average)[2] - weighted_scores(baseline, weights, average)[2]
    extreme = np.abs(deltas - observed) >= np.abs(observed) - 1e-12
    return {k: float(v) for k, v in zip(METRIC_KEYS, extreme.mean(axis=0))}


def approximate_randomization(baseline: Counts, system: Counts, average: str, n_trials: int = 10000,
                              seed: int = 12345) -> dict[str, float]:
    """Two-sided approximate randomization p-values (Noreen 1989), swapping whole documents.

    In each trial every document's two outputs are swapped with probability 1/2; the
    p-value is (c + 1) / (n_trials + 1), c counting trials whose absolute F1 difference
    is at least the observed one.
    """
    rng = np.random.default_rng(seed)
    n = baseline.n_docs
    ones = np.ones((1, n))
    observed = np.abs(weighted_scores(system, ones, average)[2][0] - weighted_scores(baseline, ones, average)[2][0])
    hits = np.zeros(4, dtype=np.int64)
    batch = 1000
    for done in range(0, n_trials, batch):
        size = min(batch, n_trials - done)
        swap = rng.random((size, n)) < 0.5
        a = _mix(baseline, system, swap)
        b = _mix(system, baseline, swap)
        diff = np.abs(_scores_per_trial(b, average) - _scores_per_trial(a, average))
        hits += (diff >= observed - 1e-12).sum(axis=0)
    return {k: float((h + 1) / (n_trials + 1)) for k, h in zip(METRIC_KEYS, hits)}


def _mix(first: Counts, second: Counts, swap: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-trial counts (trials, 4, n_docs) taking ``second``'s document where ``swap``."""
    s = swap[:, None, :]
    return (np.where(s, second.matched, first.matched), np.where(s, second.gold, first.gold),
            np.where(s, second.pred, first.pred))


def _scores_per_trial(mixed: tuple[np.ndarray, np.ndarray, np.ndarray], average: str) -> np.ndarray:
    """F1 (trials, 4) of per-trial counts."""
    matched, gold, pred = mixed
    ones = np.ones((1, matched.shape[2]))
    return np.stack([weighted_scores(Counts(m, g, p), ones, average)[2][0]
                     for m, g, p in zip(matched, gold, pred)])
