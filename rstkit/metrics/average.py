"""Averaging per-document counts into P, R, F1: micro, document-macro, DPLP-style.

All functions take document weights ``W`` of shape (B, n_docs): one row per (re)sample
of documents, each entry how often the document is drawn. Plain scoring uses one row of
ones; bootstrap resampling uses many rows, and nothing is re-scored.

Every precision and recall is one division, :func:`divide`, whose ``zero_division``
parameter says what a ratio with nothing to count gives (no predicted tuples: precision;
no gold tuples: recall): 0 by default, as the reference implementation does, or 1.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import RSTKitError
from ..settings import AVERAGES, ZERO_DIVISION, Average, ZeroDivision
from .counts import Counts


def divide(num: np.ndarray | float, den: np.ndarray | float, *, zero_division: ZeroDivision = ZERO_DIVISION
           ) -> np.ndarray:
    """``num / den`` elementwise; where ``den`` is 0 (nothing predicted, nothing in the gold),
    ``zero_division``: 0 (the reference's rule, the default) or 1, as seqeval's parameter. Never NaN."""
    return _ratio(num, den, _checked(zero_division))


def percent(num: np.ndarray | float, den: np.ndarray | float, *, zero_division: ZeroDivision = ZERO_DIVISION
            ) -> np.ndarray:
    """:func:`divide` in percent: ``(100 * num) / den``, ``100 * zero_division`` where ``den`` is 0."""
    return _ratio(100.0 * np.asarray(num, dtype=np.float64), den, 100.0 * _checked(zero_division))


def _checked(zero_division: object) -> float:
    if zero_division not in (0, 1) or isinstance(zero_division, bool):
        raise RSTKitError(f"zero_division must be 0 or 1, not {zero_division!r}")
    return float(zero_division)


def _ratio(num: np.ndarray | float, den: np.ndarray | float, fill: float) -> np.ndarray:
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.full(np.broadcast(num, den).shape, fill)
    np.divide(num, den, out=out, where=den != 0)
    return out


def f1_score(p: np.ndarray | float, r: np.ndarray | float) -> np.ndarray:
    """The harmonic mean of ``p`` and ``r``; 0 where both are 0."""
    return divide(2 * p * r, p + r)


def per_document(counts: Counts, *, zero_division: ZeroDivision = ZERO_DIVISION
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-document precision, recall and F1 (fractions), each of shape (M, n_docs)."""
    p = divide(counts.matched, counts.pred, zero_division=zero_division)
    r = divide(counts.matched, counts.gold, zero_division=zero_division)
    return p, r, f1_score(p, r)


def document_values(counts: Counts, average: Average, *, zero_division: ZeroDivision = ZERO_DIVISION
                    ) -> np.ndarray:
    """What an averaging sums over documents, shape (3, M, n_docs): the counts (matched, gold,
    predicted) for ``micro``; per-document precision, recall and F1 for ``macro`` and ``dplp``."""
    if average == "micro":
        return np.stack([counts.matched, counts.gold, counts.pred]).astype(np.float64)
    if average in ("macro", "dplp"):
        return np.stack(per_document(counts, zero_division=zero_division))
    raise RSTKitError(f"unknown average {average!r}; choose from {', '.join(AVERAGES)}")


def scores_from_sums(sums: np.ndarray, n: np.ndarray, average: Average, *, zero_division: ZeroDivision = ZERO_DIVISION
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 (fractions) of shape (B, M), M measures, from weighted sums of
    :func:`document_values`, shape (B, 3, M), and the total document weight ``n``, shape (B, 1)."""
    first, second, third = sums[:, 0], sums[:, 1], sums[:, 2]
    if average == "micro":  # matched, gold, predicted
        p = divide(first, third, zero_division=zero_division)
        r = divide(first, second, zero_division=zero_division)
        return p, r, f1_score(p, r)
    p, r = divide(first, n), divide(second, n)  # mean per-document P and R (no documents: 0)
    return p, r, (divide(third, n) if average == "macro" else f1_score(p, r))


def weighted_scores(counts: Counts, weights: np.ndarray, average: Average, *,
                    zero_division: ZeroDivision = ZERO_DIVISION) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 (fractions) of shape (B, M) for document weights (B, n_docs)."""
    weights = np.asarray(weights, dtype=np.float64)
    sums = np.stack([weights @ v.T for v in document_values(counts, average, zero_division=zero_division)], axis=1)
    return scores_from_sums(sums, weights.sum(axis=1, keepdims=True), average, zero_division=zero_division)


@dataclass(frozen=True)
class Scores:
    """Precision, recall and F1 in percent, each a dict over the measures of the metric family
    ("S", "N", "R", "F" for the constituency families)."""

    precision: dict[str, float]
    recall: dict[str, float]
    f1: dict[str, float]


def aggregate(counts: Counts, average: Average, *, zero_division: ZeroDivision = ZERO_DIVISION) -> Scores:
    """Scores of a whole corpus (``zero_division``: see :func:`divide`)."""
    p, r, f = weighted_scores(counts, np.ones((1, counts.n_docs)), average, zero_division=zero_division)

    def as_dict(values: np.ndarray) -> dict[str, float]:
        return {k: float(100.0 * v) for k, v in zip(counts.measures, values[0])}

    return Scores(as_dict(p), as_dict(r), as_dict(f))
