"""Per-relation precision / recall / F1 and a relation confusion table over matched spans.

Both work on any metric family's rows: ``relation`` names the column holding the relation label
(``rel`` for the constituency families, ``label`` for dependencies), ``match`` the columns that must
be equal for a row to count as matched under the family's relation measure (R)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..settings import ZERO_DIVISION, ZeroDivision
from .average import f1_score, percent
from .counts import KeyCodec, TupleArrays, align_spans


@dataclass(frozen=True)
class RelationReport:
    """Per-label counts (micro over the corpus) for the R tuples ``(span, relation)``."""

    labels: list[str]
    gold: np.ndarray
    pred: np.ndarray
    matched: np.ndarray

    def rows(self, *, zero_division: ZeroDivision = ZERO_DIVISION) -> list[dict[str, Any]]:
        """One dict per label that occurs: label, gold, pred, matched, precision, recall, f1 (percent).

        A label never predicted has precision ``zero_division`` (x 100), one not in the gold
        recall ``zero_division`` (see :func:`~rstkit.metrics.average.divide`)."""
        rows = []
        for i, label in enumerate(self.labels):
            g, p, m = int(self.gold[i]), int(self.pred[i]), int(self.matched[i])
            if g == 0 and p == 0:
                continue
            prec = float(percent(m, p, zero_division=zero_division))
            rec = float(percent(m, g, zero_division=zero_division))
            f1 = float(f1_score(prec, rec))
            rows.append({"label": label, "gold": g, "pred": p, "matched": m,
                         "precision": prec, "recall": rec, "f1": f1})
        return sorted(rows, key=lambda r: (-r["gold"], r["label"]))


def relation_report(gold: TupleArrays, pred: TupleArrays, codec: KeyCodec, labels: list[str], *,
                    relation: str = "rel", match: Sequence[str] = ("rel",)) -> RelationReport:
    """Counts per relation label of gold, predicted and matched rows (span and the ``match`` columns
    equal); each span occurs once per side and document, so these are educe's set counts."""
    n = len(labels)
    gi, pi = align_spans(gold, pred, codec)
    same = np.logical_and.reduce([gold.columns[c][gi] == pred.columns[c][pi] for c in match])
    return RelationReport(
        labels,
        np.bincount(gold.columns[relation], minlength=n)[:n],
        np.bincount(pred.columns[relation], minlength=n)[:n],
        np.bincount(gold.columns[relation][gi][same], minlength=n)[:n],
    )


@dataclass(frozen=True)
class Confusion:
    """``matrix[g, p]``: spans present in both trees with gold relation g and predicted p."""

    labels: list[str]
    matrix: np.ndarray

    def most_confused(self, k: int = 10) -> list[tuple[str, str, int]]:
        off = self.matrix.copy()
        np.fill_diagonal(off, 0)
        order = np.argsort(off, axis=None)[::-1][:k]
        pairs = [np.unravel_index(i, off.shape) for i in order]
        return [(self.labels[g], self.labels[p], int(off[g, p])) for g, p in pairs if off[g, p] > 0]


def confusion(gold: TupleArrays, pred: TupleArrays, codec: KeyCodec, labels: list[str], *,
              relation: str = "rel") -> Confusion:
    """Relation confusion over the spans found in both gold and prediction."""
    n = len(labels)
    gi, pi = align_spans(gold, pred, codec)
    flat = np.bincount(gold.columns[relation][gi] * n + pred.columns[relation][pi], minlength=n * n)
    return Confusion(labels, flat.reshape(n, n))
