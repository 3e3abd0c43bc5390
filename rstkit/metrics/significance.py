"""Bootstrap confidence intervals and paired significance tests, from per-document counts.

Documents are the resampling unit. Everything is computed from the (matched, gold,
predicted) counts of each document, with all resamples (or randomization trials) as
matrix products, so nothing is re-scored. All procedures are seeded.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..errors import RSTKitError
from ..settings import Average
from .average import document_values, scores_from_sums, weighted_scores
from .config import Statistics
from .counts import Counts

#: approximate randomization works on (trials, documents) matrices of at most this many entries
MAX_BATCH_ENTRIES = 1 << 22


def resample_weights(n_docs: int, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """(n_samples, n_docs) matrix: how often each document is drawn in each resample."""
    draws = rng.integers(0, n_docs, size=(n_samples, n_docs))
    offsets = np.arange(n_samples)[:, None] * n_docs
    return np.bincount((draws + offsets).ravel(), minlength=n_samples * n_docs).reshape(n_samples, n_docs)


def bootstrap_ci(counts: Counts, average: Average, *, confidence: float = 0.95, n_bootstrap: int = 1000,
                 seed: int = 12345) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap interval of F1 (percent) for each measure of ``counts``."""
    _check(counts, Statistics(confidence, n_bootstrap, None, seed))
    rng = np.random.default_rng(seed)
    _, _, f1 = weighted_scores(counts, resample_weights(counts.n_docs, n_bootstrap, rng), average)
    alpha = (1.0 - confidence) / 2
    low, high = np.quantile(f1, [alpha, 1 - alpha], axis=0)
    return {k: (100.0 * float(lo), 100.0 * float(hi)) for k, lo, hi in zip(counts.measures, low, high)}


def paired_bootstrap(baseline: Counts, system: Counts, average: Average, *, n_bootstrap: int = 1000,
                     seed: int = 12345) -> dict[str, float]:
    """Two-sided paired bootstrap p-values for F1(system) - F1(baseline).

    Both systems are scored on the same resamples; the p-value is the share of resamples
    whose difference lies as far from the observed difference as the observed difference
    lies from zero (the bootstrap distribution shifted to the null hypothesis).
    """
    _check(baseline, Statistics(None, n_bootstrap, None, seed))
    ones = np.ones((1, baseline.n_docs))
    observed = weighted_scores(system, ones, average)[2][0] - weighted_scores(baseline, ones, average)[2][0]
    weights = resample_weights(baseline.n_docs, n_bootstrap, np.random.default_rng(seed))
    deltas = weighted_scores(system, weights, average)[2] - weighted_scores(baseline, weights, average)[2]
    extreme = np.abs(deltas - observed) >= np.abs(observed) - 1e-12
    return {k: float(v) for k, v in zip(baseline.measures, extreme.mean(axis=0))}


def approximate_randomization(baseline: Counts, system: Counts, average: Average, *, n_trials: int = 10000,
                              seed: int = 12345) -> dict[str, float]:
    """Two-sided approximate randomization p-values (Noreen 1989), swapping whole documents.

    In each trial every document's two outputs are swapped with probability 1/2; the
    p-value is (c + 1) / (n_trials + 1), c counting trials whose absolute F1 difference
    is at least the observed one.

    All trials at once: what an averaging sums over documents (:func:`document_values`) is
    linear in the swaps, so a batch of trials is one product of its (trials, documents)
    swap matrix with the per-document differences of the two systems. Batches hold at most
    :data:`MAX_BATCH_ENTRIES` swaps; the random draws do not depend on the batching.
    """
    _check(baseline, Statistics(None, None, n_trials, seed))
    rng = np.random.default_rng(seed)
    n = baseline.n_docs
    ones = np.ones((1, n))
    observed = np.abs(weighted_scores(system, ones, average)[2][0] - weighted_scores(baseline, ones, average)[2][0])
    base, other = document_values(baseline, average), document_values(system, average)
    base_sums = np.stack([ones @ v.T for v in base], axis=1)  # (1, 3, measures)
    other_sums = np.stack([ones @ v.T for v in other], axis=1)
    difference = (other - base).reshape(-1, n).T  # (n, 3 * measures): what swapping each document adds to the baseline
    hits = np.zeros(len(baseline.measures), dtype=np.int64)
    batch = max(1, MAX_BATCH_ENTRIES // n)
    for done in range(0, n_trials, batch):
        size = min(batch, n_trials - done)
        shift = ((rng.random((size, n)) < 0.5).astype(np.float64) @ difference).reshape(size, 3, -1)
        total = np.full((size, 1), float(n))
        swapped_baseline = scores_from_sums(base_sums + shift, total, average)[2]
        swapped_system = scores_from_sums(other_sums - shift, total, average)[2]
        hits += (np.abs(swapped_system - swapped_baseline) >= observed - 1e-12).sum(axis=0)
    return {k: float((h + 1) / (n_trials + 1)) for k, h in zip(baseline.measures, hits)}


#: the paired tests of :meth:`EvalResult.paired_tests <rstkit.metrics.EvalResult.paired_tests>`, by name
PAIRED_TESTS = ("bootstrap", "randomization")


def p_value_floor(test: str, trials: int) -> tuple[float, float]:
    """``(floor, bound)`` of a paired test's p-values with ``trials`` resamples (``"bootstrap"``) or
    trials (``"randomization"``).

    ``floor`` is the p-value the test gives when no resample or trial is as extreme as the observed
    difference: 0 for :func:`paired_bootstrap` (the share c / N, no smoothing), 1 / (N + 1) for
    :func:`approximate_randomization` ((c + 1) / (N + 1), add-one smoothing). A p-value at the floor
    says only that p is under the test's resolution, about 1 / (N + 1): ``bound`` is that, rounded
    up to one significant digit (1000 trials: 0.001, 10000: 0.0001), what a report prints as
    ``< bound``.

    >>> p_value_floor("bootstrap", 1000)
    (0.0, 0.001)
    >>> p_value_floor("randomization", 10000)[1]
    0.0001
    """
    if test not in PAIRED_TESTS:
        raise RSTKitError(f"unknown paired test {test!r}; known: {', '.join(PAIRED_TESTS)}")
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise RSTKitError(f"the number of trials must be an integer >= 1, not {trials!r}")
    floor = 0.0 if test == "bootstrap" else 1 / (trials + 1)
    return floor, float(_round_up(Fraction(1, trials + 1)))


def _round_up(value: Fraction) -> Fraction:
    """``value`` (in (0, 1]) rounded up to one significant digit, exactly: 1/1001 -> 1/1000, 3/7 -> 1/2."""
    unit = Fraction(1)
    while value < unit:
        unit /= 10
    return -(-value // unit) * unit


def _check(counts: Counts, statistics: Statistics) -> None:
    """Valid settings (Statistics checks them) and at least one document to resample."""
    if counts.n_docs == 0:
        raise RSTKitError("no document to resample (every document was excluded from the averages)")
