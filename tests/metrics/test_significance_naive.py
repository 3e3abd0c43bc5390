"""Bootstrap intervals and paired tests against a naive resampling implementation.

The procedures are those documented in rstkit/metrics/significance.py: documents are the
resampling unit; a percentile bootstrap interval (linear interpolation between order
statistics, numpy's default); a two-sided paired bootstrap whose p-value is the share of
resamples with |delta* - delta| >= |delta| (the bootstrap distribution shifted to the null);
approximate randomization swapping each document's two outputs with probability 1/2, with
p = (c + 1) / (n_trials + 1).

The naive side below is plain Python over documents, with per-document counts from the
oracle (tests/support/oracle.py), not from rstkit. Draw order: resample b draws its n documents one
after another (``rng.integers(0, n)``), and trial t decides document by document
(``rng.random() < 0.5``), from ``numpy.random.default_rng(seed)``; a batched draw of the same
calls consumes the generator identically, so the same seed gives the same resamples whether
the implementation loops or vectorises. Tests that do not rely on this order compare with
the exact distributions (all resamples or all swap patterns of a small corpus) or with
hand-derived cases.
"""
from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from rstkit.metrics import EvalConfig, score_documents
from tests.support import oracle
from tests.support.expected_warnings import LABEL_SETS, ONE_EDU, warns_exactly
from tests.support.oracle import Setting, T
from tests.support.oracle_trees import Chooser, random_tree, to_rstkit_nodes

KEYS = "SNRF"
AVERAGES = ("micro", "macro", "dplp")


# -- the naive procedures ------------------------------------------------------------------------
def corpus_f1(docs: list[dict], average: str) -> dict[str, float]:
    """F1 (percent) of a list of per-document counts, a document repeated as often as drawn."""
    return {k: oracle.average([d[k] for d in docs], average)[2] for k in KEYS}


def percentile(values: list[float], q: float) -> float:
    """The q-quantile with linear interpolation between order statistics (Hyndman & Fan type 7)."""
    ordered = sorted(values)
    h = (len(ordered) - 1) * q
    low = math.floor(h)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (h - low) * (ordered[high] - ordered[low])


def resamples(n_docs: int, n_samples: int, seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    return [[int(rng.integers(0, n_docs)) for _ in range(n_docs)] for _ in range(n_samples)]


def naive_interval(docs, average, confidence, n_samples, seed) -> dict[str, tuple[float, float]]:
    scores = [corpus_f1([docs[i] for i in sample], average) for sample in resamples(len(docs), n_samples, seed)]
    alpha = (1 - confidence) / 2
    return {k: (percentile([s[k] for s in scores], alpha), percentile([s[k] for s in scores], 1 - alpha))
            for k in KEYS}


def assert_intervals_equal(got: dict, expected: dict) -> None:
    assert set(got) == set(expected)
    for k, interval in expected.items():
        assert got[k] == pytest.approx(interval, abs=1e-9), k


def extreme(delta: float, observed: float) -> bool:
    return abs(delta - observed) >= abs(observed) - 1e-10  # percent; rstkit's 1e-12 on fractions


def naive_paired_bootstrap(baseline, system, average, n_samples, seed) -> dict[str, float]:
    observed = {k: corpus_f1(system, average)[k] - corpus_f1(baseline, average)[k] for k in KEYS}
    hits = dict.fromkeys(KEYS, 0)
    for sample in resamples(len(baseline), n_samples, seed):
        a = corpus_f1([baseline[i] for i in sample], average)
        b = corpus_f1([system[i] for i in sample], average)
        for k in KEYS:
            hits[k] += extreme(b[k] - a[k], observed[k])
    return {k: hits[k] / n_samples for k in KEYS}


def swapped_difference(baseline, system, swaps, average) -> dict[str, float]:
    a = [s if swap else b for b, s, swap in zip(baseline, system, swaps)]
    b = [b if swap else s for b, s, swap in zip(baseline, system, swaps)]
    fa, fb = corpus_f1(a, average), corpus_f1(b, average)
    return {k: abs(fb[k] - fa[k]) for k in KEYS}


def naive_randomization(baseline, system, average, n_trials, seed) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    observed = swapped_difference(baseline, system, [False] * len(baseline), average)
    hits = dict.fromkeys(KEYS, 0)
    for _ in range(n_trials):
        swaps = [rng.random() < 0.5 for _ in baseline]
        diff = swapped_difference(baseline, system, swaps, average)
        for k in KEYS:
            hits[k] += diff[k] >= observed[k] - 1e-10
    return {k: (hits[k] + 1) / (n_trials + 1) for k in KEYS}


# -- corpora ---------------------------------------------------------------------------------------
def scored(gold_t: dict[str, T], systems: list[dict[str, T]], average: str, exclude_single_edu: bool = False):
    """rstkit's result for the systems, and the oracle's per-document counts of each system
    (documents that enter the averages only)."""
    gold = {d: to_rstkit_nodes(t, d) for d, t in gold_t.items()}
    preds = [{d: to_rstkit_nodes(t, d) for d, t in s.items()} for s in systems]
    config = EvalConfig(metric="rst-parseval", average=average, labels="rstdt18",
                        exclude_single_edu=exclude_single_edu)
    # generated corpora: some hold one-EDU documents; labels drawn at random may not meet the gold's
    with warns_exactly({ONE_EDU: None, LABEL_SETS: None}):
        result = score_documents(gold, preds, config)
    setting = Setting("rst-parseval", average, "rstdt18", exclude_single_edu=exclude_single_edu)
    kept = [d for d in sorted(gold_t) if not (exclude_single_edu and gold_t[d].end == 1)]
    counts = [oracle.evaluate({d: gold_t[d] for d in kept}, {d: s[d] for d in kept}, setting).counts
              for s in systems]
    return result, counts


def random_corpus(seed: int, n_docs: int, n_systems: int = 2, max_edus: int = 15):
    rng = random.Random(seed)
    choose = Chooser.seeded(rng)
    sizes = [rng.randint(1, max_edus) for _ in range(n_docs)]
    gold = {f"d{i:02d}": random_tree(choose, n, "any") for i, n in enumerate(sizes)}
    systems = [{d: random_tree(choose, t.end, "binary") for d, t in gold.items()} for _ in range(n_systems)]
    return gold, systems


# -- seed-exact agreement with the naive procedures ------------------------------------------------
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("seed", [3, 12345])
def test_bootstrap_interval_equals_naive_resampling(average, seed):
    gold, systems = random_corpus(seed, n_docs=9)
    result, (counts, _) = scored(gold, systems, average)
    for confidence in (0.95, 0.9):
        got = result.bootstrap(confidence=confidence, n_bootstrap=400, seed=seed)
        expected = naive_interval(counts, average, confidence, 400, seed)
        assert_intervals_equal(got, expected)
        assert got != result.bootstrap(confidence=confidence, n_bootstrap=400, seed=seed + 1)


@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("seed", [3, 12345])
def test_paired_tests_equal_naive_resampling(average, seed):
    gold, systems = random_corpus(seed, n_docs=8)
    result, (base, system) = scored(gold, systems, average)
    got = result.paired_tests(system=1, baseline=0, n_bootstrap=300, n_trials=300, seed=seed)
    assert got["bootstrap"] == naive_paired_bootstrap(base, system, average, 300, seed)
    assert got["randomization"] == naive_randomization(base, system, average, 300, seed)


def test_one_edu_documents_excluded_from_resampling():
    """With one-EDU documents excluded, only the other documents are resampled."""
    gold, systems = random_corpus(5, n_docs=6)
    gold["e1"] = systems[0]["e1"] = systems[1]["e1"] = T(1, 1, "Root", None)
    result, (base, system) = scored(gold, systems, "macro", exclude_single_edu=True)
    assert len(base) == sum(t.end > 1 for t in gold.values()) < len(gold)
    assert_intervals_equal(result.bootstrap(confidence=0.95, n_bootstrap=200, seed=1),
                           naive_interval(base, "macro", 0.95, 200, 1))
    got = result.paired_tests(system=1, baseline=0, n_bootstrap=200, n_trials=200, seed=1)
    assert got["bootstrap"] == naive_paired_bootstrap(base, system, "macro", 200, 1)
    assert got["randomization"] == naive_randomization(base, system, "macro", 200, 1)


# -- against the exact distributions (any draw order) --------------------------------------------
def binomial_tolerance(p: float, n: int) -> float:
    return 5 * math.sqrt(max(p * (1 - p), 1 / n) / n)


@pytest.mark.parametrize("average", AVERAGES)
def test_paired_bootstrap_converges_to_the_exact_bootstrap_p_value(average):
    """4 documents: all 4^4 ordered resamples are equally likely, so the exact p-value is a
    share of 256; 20,000 resamples estimate it within five standard errors."""
    gold, systems = random_corpus(11, n_docs=4, max_edus=10)
    result, (base, system) = scored(gold, systems, average)
    observed = {k: corpus_f1(system, average)[k] - corpus_f1(base, average)[k] for k in KEYS}
    draws = list(itertools.product(range(4), repeat=4))
    exact = {}
    for k in KEYS:
        hits = sum(extreme(corpus_f1([system[i] for i in s], average)[k] - corpus_f1([base[i] for i in s], average)[k],
                           observed[k]) for s in draws)
        exact[k] = hits / len(draws)
    got = result.paired_tests(system=1, baseline=0, n_bootstrap=20000, n_trials=1, seed=99)["bootstrap"]
    for k in KEYS:
        assert abs(got[k] - exact[k]) <= binomial_tolerance(exact[k], 20000), (k, got[k], exact[k])


@pytest.mark.parametrize("average", AVERAGES)
def test_randomization_converges_to_the_exact_permutation_p_value(average):
    """6 documents: all 2^6 swap patterns are equally likely; the AR p-value estimates the
    share of patterns at least as extreme as the observed difference."""
    gold, systems = random_corpus(23, n_docs=6, max_edus=10)
    result, (base, system) = scored(gold, systems, average)
    observed = swapped_difference(base, system, [False] * 6, average)
    patterns = list(itertools.product([False, True], repeat=6))
    exact = {k: sum(swapped_difference(base, system, s, average)[k] >= observed[k] - 1e-10 for s in patterns)
             / len(patterns) for k in KEYS}
    assert all(p >= 2 / 64 for p in exact.values())  # no swap and all swaps both count
    got = result.paired_tests(system=1, baseline=0, n_bootstrap=1, n_trials=20000, seed=7)["randomization"]
    for k in KEYS:
        assert abs(got[k] - exact[k]) <= binomial_tolerance(exact[k], 20000), (k, got[k], exact[k])


@pytest.mark.parametrize("average", AVERAGES)
def test_interval_bounds_are_quantiles_of_the_exact_bootstrap_distribution(average):
    """4 documents, 256 equally likely resamples: the lower bound has about 2.5% of the exact
    distribution strictly below it and the upper bound about 2.5% strictly above."""
    gold, systems = random_corpus(31, n_docs=4, max_edus=10)
    result, (counts, _) = scored(gold, systems, average)
    exact = [corpus_f1([counts[i] for i in s], average) for s in itertools.product(range(4), repeat=4)]
    got = result.bootstrap(confidence=0.95, n_bootstrap=20000, seed=5)
    for k in KEYS:
        values = [e[k] for e in exact]
        low, high = got[k]
        below = sum(v < low - 1e-9 for v in values) / len(values)
        at_or_below = sum(v <= low + 1e-9 for v in values) / len(values)
        above = sum(v > high + 1e-9 for v in values) / len(values)
        at_or_above = sum(v >= high - 1e-9 for v in values) / len(values)
        tol = binomial_tolerance(0.025, 20000)
        assert below <= 0.025 + tol and at_or_below >= 0.025 - tol, (k, low)
        assert above <= 0.025 + tol and at_or_above >= 0.025 - tol, (k, high)
        assert min(values) <= low <= high <= max(values)


# -- hand-derived cases ------------------------------------------------------------------------------
@pytest.mark.parametrize("average", AVERAGES)
def test_identical_systems(average):
    """Every swap leaves the difference at 0 >= 0: AR p = (n+1)/(n+1) = 1; every resampled
    difference is 0, as far from 0 as the observed 0: bootstrap p = 1."""
    gold, systems = random_corpus(2, n_docs=7, n_systems=1)
    result, _ = scored(gold, systems * 2, average)
    tests = result.paired_tests(system=1, baseline=0, n_bootstrap=150, n_trials=150, seed=4)
    assert tests == {"bootstrap": dict.fromkeys(KEYS, 1.0), "randomization": dict.fromkeys(KEYS, 1.0)}


def copies(tree: T, k: int) -> dict[str, T]:
    return {f"c{i}": tree for i in range(k)}


@pytest.mark.parametrize("average", AVERAGES)
def test_a_system_better_on_every_document_by_the_same_margin(average):
    """k copies of one document, the system perfect, the baseline not: every resample has the
    observed difference, so |delta* - delta| = 0 < |delta| and the bootstrap p = 0. AR: the
    difference keeps its size only when no or every document is swapped (2 of 2^k patterns),
    otherwise it shrinks, so p estimates 2 / 2^k; the interval of the perfect system is (100, 100)."""
    gold = oracle.read_dis("""( Root (span 1 3)
      ( Nucleus (span 1 2) (rel2par span)
        ( Nucleus (leaf 1) (rel2par span) (text _!a_!) )
        ( Satellite (leaf 2) (rel2par circumstance) (text _!b_!) ) )
      ( Satellite (leaf 3) (rel2par attribution) (text _!c_!) ) )""")
    baseline = oracle.right_heavy(oracle.read_dis("""( Root (span 1 3)
      ( Nucleus (leaf 1) (rel2par span) (text _!a_!) )
      ( Satellite (span 2 3) (rel2par circumstance)
        ( Nucleus (leaf 2) (rel2par span) (text _!b_!) )
        ( Satellite (leaf 3) (rel2par attribution) (text _!c_!) ) ) )"""))
    k = 3
    result, _ = scored(copies(gold, k), [copies(baseline, k), copies(gold, k)], average)
    # evaluation.md 11.1: the baseline scores 75 / 50 / 50 / 50 on this document
    assert result.systems[0].scores.f1 == pytest.approx({"S": 75.0, "N": 50.0, "R": 50.0, "F": 50.0})
    tests = result.paired_tests(system=1, baseline=0, n_bootstrap=200, n_trials=20000, seed=8)
    assert tests["bootstrap"] == dict.fromkeys(KEYS, 0.0)
    for k_ in KEYS:
        assert abs(tests["randomization"][k_] - 2 / 2 ** k) <= binomial_tolerance(0.25, 20000)
    assert result.bootstrap(confidence=0.95, n_bootstrap=100, seed=1, system=1) == dict.fromkeys(KEYS, (100.0, 100.0))
    assert_intervals_equal(result.bootstrap(confidence=0.95, n_bootstrap=100, seed=1, system=0),
                           {"S": (75.0, 75.0), "N": (50.0, 50.0), "R": (50.0, 50.0), "F": (50.0, 50.0)})


@pytest.mark.parametrize("average", AVERAGES)
def test_a_one_document_corpus(average):
    """Every resample is the document itself: the interval is (F1, F1), the resampled
    difference always equals the observed one (bootstrap p = 0 when it is not 0), and a swap
    only changes its sign (AR p = (n+1)/(n+1) = 1)."""
    choose = Chooser.seeded(random.Random(41))
    gold = {"d": random_tree(choose, 8)}
    systems = [{"d": oracle.right_heavy(gold["d"])}, {"d": random_tree(choose, 8, "binary")}]
    result, _ = scored(gold, systems, average)
    f1 = result.systems[1].scores.f1
    assert result.systems[0].scores.f1 == dict.fromkeys(KEYS, 100.0) != f1
    assert_intervals_equal(result.bootstrap(confidence=0.9, n_bootstrap=50, seed=3, system=1),
                           {k: (f1[k], f1[k]) for k in KEYS})
    tests = result.paired_tests(system=1, baseline=0, n_bootstrap=50, n_trials=50, seed=3)
    assert tests["randomization"] == dict.fromkeys(KEYS, 1.0)
    assert tests["bootstrap"] == {k: 0.0 if f1[k] != 100.0 else 1.0 for k in KEYS}
