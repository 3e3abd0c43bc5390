"""Features of the instances and the probing classifier.

A subtree is the unweighted mean of its EDU vectors; an instance's input is
``[l, r, l*r, |l-r|]`` for its left and right subtrees. The classifier is a multinomial
logistic regression (scikit-learn, no hidden layer) on standardised features; its inverse
regularisation ``C`` is chosen from a grid by dev accuracy (the first best on ties).
Labels get ids in sorted order; dev and test labels never seen in training count as
errors. The majority baseline predicts the most frequent training label (the first in
sorted order on ties).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..extras import needs
from .errors import ProbeError
from .task import Instance

DEFAULT_C_GRID = (0.0003, 0.001, 0.003, 0.01)


@dataclass(frozen=True)
class ClassifierConfig:
    """Every classifier setting that changes an accuracy."""

    c_grid: tuple[float, ...] = DEFAULT_C_GRID
    max_iter: int = 1000
    seed: int = 1

    def describe(self) -> str:
        grid = ",".join(f"{c:g}" for c in self.c_grid)
        return f"logreg(multinomial,lbfgs,std,C={{{grid}}}@dev,max_iter={self.max_iter})"


def subtree_features(instances: Sequence[Instance], edu_vectors: dict[str, np.ndarray]) -> np.ndarray:
    """``[l, r, l*r, |l-r|]`` per instance, subtrees averaged with per-document prefix sums."""
    prefix = {doc: np.vstack([np.zeros((1, v.shape[1]), np.float64), np.cumsum(v, axis=0, dtype=np.float64)])
              for doc, v in edu_vectors.items()}

    def mean(doc: str, span: tuple[int, int]) -> np.ndarray:
        sums = prefix[doc]
        return (sums[span[1]] - sums[span[0] - 1]) / (span[1] - span[0] + 1)

    if not instances:
        dim = next(iter(edu_vectors.values())).shape[1] if edu_vectors else 0
        return np.zeros((0, 4 * dim), np.float32)
    left = np.stack([mean(i.doc_id, i.left) for i in instances])
    right = np.stack([mean(i.doc_id, i.right) for i in instances])
    return np.hstack([left, right, left * right, np.abs(left - right)]).astype(np.float32)


def label_ids(labels: Sequence[str], vocabulary: Sequence[str]) -> np.ndarray:
    """Ids of ``labels`` in the sorted ``vocabulary``; -1 for labels outside it."""
    index = {label: i for i, label in enumerate(vocabulary)}
    return np.array([index.get(label, -1) for label in labels], dtype=np.int64)


def majority_label(train_labels: Sequence[str]) -> str:
    counts = Counter(train_labels)
    return min(counts, key=lambda label: (-counts[label], label))


@dataclass
class FittedProbe:
    """The selected classifier and how it was selected."""

    vocabulary: list[str]
    model: Any  # scikit-learn's LogisticRegression and StandardScaler (the library has no type information)
    scaler: Any
    chosen_c: float
    dev_accuracy_by_c: dict[float, float]

    def predict(self, features: np.ndarray) -> list[str]:
        if len(features) == 0:
            return []
        _, _, threadpool_limits = _sklearn()
        with threadpool_limits(limits=1):
            ids = self.model.predict(self.scaler.transform(features))
        return [self.vocabulary[i] for i in ids]


def _sklearn():
    try:
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler
        from threadpoolctl import threadpool_limits
    except ImportError:
        raise ProbeError(needs("the probe classifier", "scikit-learn")) from None
    return LogisticRegression, StandardScaler, threadpool_limits


def fit_probe(train_x: np.ndarray, train_labels: Sequence[str], dev_x: np.ndarray, dev_labels: Sequence[str],
              config: ClassifierConfig) -> FittedProbe:
    """Fit one logistic regression per ``C`` of the grid on train; keep the first best on dev."""
    LogisticRegression, StandardScaler, threadpool_limits = _sklearn()
    if not config.c_grid:
        raise ProbeError("the classifier's grid of C values is empty")
    vocabulary = sorted(set(train_labels))
    if len(vocabulary) < 2:
        raise ProbeError(f"the training split has {len(vocabulary)} distinct label(s); a classifier needs two")
    train_y = label_ids(train_labels, vocabulary)
    dev_y = label_ids(dev_labels, vocabulary)
    scaler = StandardScaler().fit(train_x)
    train_z, dev_z = scaler.transform(train_x), scaler.transform(dev_x)
    models: dict[float, Any] = {}
    accuracy_by_c: dict[float, float] = {}
    with threadpool_limits(limits=1):  # one BLAS thread: the same sums on any machine, and no spinning threads
        for c in config.c_grid:
            model = LogisticRegression(C=c, max_iter=config.max_iter, random_state=config.seed)
            models[c] = model.fit(train_z, train_y)
            accuracy_by_c[c] = accuracy(models[c].predict(dev_z), dev_y)
    chosen = max(accuracy_by_c, key=accuracy_by_c.__getitem__)  # the first best: max keeps the first of equals
    return FittedProbe(vocabulary, models[chosen], scaler, chosen, accuracy_by_c)


def accuracy(predicted: np.ndarray, gold: np.ndarray) -> float:
    """Percent of equal entries (0 for no entries)."""
    return 100 * int(np.sum(predicted == gold)) / len(gold) if len(gold) else 0.0
