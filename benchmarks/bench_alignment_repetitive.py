"""``--edus aligned`` on text with few unique chunks (issue 32, item 12): ``ha ha ha ...``.

Gold: EDUs of five ``ha`` (10 characters without whitespace), N characters in all; prediction: the
same text with one character changed in the middle, its EDUs merged in pairs. Such text has no
chunk that occurs once on each side, so the whole text is one gap between anchors: SequenceMatcher
took 1.1 s at 3,000 characters, 26 s at 12,000 and over 240 s at 48,000 (quadratic and worse);
the gap now goes to Myers' diff, O((n + m) d) for d edits (rstkit/metrics/textalign.py).

Run: ``python -m pytest benchmarks/bench_alignment_repetitive.py -s`` (pytest-benchmark prints the
table; ``test_four_times_the_text`` prints the ratios and fails when 4x the text takes 5x the time).
"""
from __future__ import annotations

import sys
import time
import warnings
from itertools import pairwise
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_alignment import balanced  # the same balanced trees as the other alignment benchmark
from rstkit.errors import RSTKitWarning
from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics.edus import normalise_edu_text
from rstkit.metrics.textalign import align_texts
from rstkit.tree import EDU, RSTTree

SIZES = (3_000, 12_000, 48_000)
CONFIG = EvalConfig(metric="rst-parseval", edus="aligned")


def documents(n_chars: int) -> tuple[RSTTree, RSTTree]:
    """Gold of ``n_chars // 10`` EDUs ``ha ha ha ha ha``; the prediction with one ``a`` of the middle EDU
    written ``e`` and EDUs 1+2, 3+4, ... merged."""
    n = n_chars // 10
    texts = ["ha ha ha ha ha"] * n
    changed = list(texts)
    changed[n // 2] = "ha ha he ha ha"
    merged = [" ".join(changed[i:i + 2]) for i in range(0, n, 2)]
    gold = RSTTree(balanced(1, n, "Root", None), tuple(EDU(i, t) for i, t in enumerate(texts, start=1)), "ha")
    pred = RSTTree(balanced(1, len(merged), "Root", None),
                   tuple(EDU(i, t) for i, t in enumerate(merged, start=1)), "ha")
    return gold, pred


def evaluate(gold: RSTTree, pred: RSTTree):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RSTKitWarning)  # the one changed character is reported
        return score_documents({"ha": gold}, {"ha": pred}, CONFIG)


@pytest.mark.parametrize("n_chars", SIZES)
def test_align_repetitive_text(benchmark, n_chars):
    gold, pred = documents(n_chars)
    gold_text, pred_text = ("".join(normalise_edu_text(e.text) for e in tree.edus) for tree in (gold, pred))
    alignment = benchmark.pedantic(align_texts, args=(gold_text, pred_text), rounds=3, iterations=1)
    assert (alignment.changed, alignment.inserted, alignment.deleted) == (1, 0, 0)


@pytest.mark.parametrize("n_chars", SIZES)
def test_evaluate_repetitive_text(benchmark, n_chars):
    gold, pred = documents(n_chars)
    result = benchmark.pedantic(evaluate, args=(gold, pred), rounds=3, iterations=1)
    assert result.alignment() == [{"doc_id": "ha", "changed": 1, "inserted": 0, "deleted": 0}]


def best_of(runs: int, gold: RSTTree, pred: RSTTree) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        evaluate(gold, pred)
        best = min(best, time.process_time() - start)
    return best


def test_four_times_the_text():
    """The whole evaluation (alignment, carrying the EDUs over, scoring), best of 5 in CPU seconds (less
    sensitive to other work on the machine than wall seconds): 4x the text under 5x the time."""
    seconds = {n: best_of(5, *documents(n)) for n in SIZES}
    for small, large in pairwise(SIZES):
        print(f"\n{small:,} -> {large:,} characters: {seconds[small]:.4f} s -> {seconds[large]:.4f} s "
              f"({seconds[large] / seconds[small]:.2f}x)")
        assert seconds[large] < 5 * seconds[small]
