"""Averaging per-document counts into P, R, F1: micro, document-macro, DPLP-style.

All functions take document weights ``W`` of shape (B, n_docs): one row per (re)sample
of documents, each entry how often the document is drawn. Plain scoring uses one row of
ones; bootstrap resampling uses many rows, and nothing is re-scored.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import RSTKitError
from .counts import METRIC_KEYS, Counts


def _div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den with 0 where den == 0 (never NaN), as the reference does."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _f1(p: np.ndarray, r: np.ndarray) -> np.ndarray:
    return _div(2 * p * r, p + r)


def per_document(counts: Counts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-document precision, recall and F1 (fractions), each of shape (4, n_docs)."""
    p = _div(counts.matched, counts.pred)
    r = _div(counts.matched, counts.gold)
    return p, r, _f1(p, r)


def document_values(counts: Counts, average: str) -> np.ndarray:
    """What an averaging sums over documents, shape (3, 4, n_docs): the counts (matched, gold,
    predicted) for ``micro``; per-document precision, recall and F1 for ``macro`` and ``dplp``."""
    if average == "micro":
        return np.stack([counts.matched, counts.gold, counts.pred]).astype(np.float64)
    if average in ("macro", "dplp"):
        return np.stack(per_document(counts))
    raise RSTKitError(f"unknown average {average!r}; choose from micro, macro, dplp")


def scores_from_sums(sums: np.ndarray, n: np.ndarray, average: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 (fractions) of shape (B, 4) from weighted sums of
    :func:`document_values`, shape (B, 3, 4), and the total document weight ``n``, shape (B, 1)."""
    first, second, third = sums[:, 0], sums[:, 1], sums[:, 2]
    if average == "micro":  # matched, gold, predicted
        p = _div(first, third)
        r = _div(first, second)
        return p, r, _f1(p, r)
    p, r = _div(first, n), _div(second, n)  # mean per-document P and R
    return p, r, (_div(third, n) if average == "macro" else _f1(p, r))


def weighted_scores(counts: Counts, weights: np.ndarray, average: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 (fractions) of shape (B, 4) for document weights (B, n_docs)."""
    weights = np.asarray(weights, dtype=np.float64)
    sums = np.stack([weights @ v.T for v in document_values(counts, average)], axis=1)
    return scores_from_sums(sums, weights.sum(axis=1, keepdims=True), average)


@dataclass(frozen=True)
class Scores:
    """Precision, recall and F1 in percent, each a dict over "S", "N", "R", "F"."""

    precision: dict[str, float]
    recall: dict[str, float]
    f1: dict[str, float]


def aggregate(counts: Counts, average: str) -> Scores:
    """Scores of a whole corpus."""
    p, r, f = weighted_scores(counts, np.ones((1, counts.n_docs)), average)

    def as_dict(values: np.ndarray) -> dict[str, float]:
        return {k: float(100.0 * v) for k, v in zip(METRIC_KEYS, values[0])}

    return Scores(as_dict(p), as_dict(r), as_dict(f))
