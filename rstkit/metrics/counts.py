"""Vectorised matching: rows as integer arrays, one int64 key per (document, span), per-document counts.

Each side of an evaluation (gold, or one system's predictions) becomes a :class:`TupleArrays`:
one row per scored item, its key ``(doc, start, end)`` and the value columns of its metric
family (:mod:`rstkit.metrics.family`) as int64 arrays, labels encoded by one
:class:`LabelIds` per label column shared by all sides. Each row's (document, span) becomes one
mixed-radix int64 key (document most significant); the spans of a whole corpus are aligned with
two sorts and a binary search, and a measure's matches are comparisons of the columns it names on
aligned rows. Counts follow educe: matched = |set(gold) & set(pred)| per document, supports =
list lengths.

A family whose rows may repeat a key (``multiset``: eRST secondary edges, several between the same
two nodes) is matched by :func:`count_multiset_matches` instead: per measure, each row is the tuple
``(doc, start, end, *columns)`` of the columns the measure names, and matched = the size of the
multiset intersection of the two sides' tuples per document (each tuple ``min(gold, pred)`` times).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import RSTKitError
from ..settings import MEASURES


class LabelIds:
    """String labels to dense integer ids (shared by gold and all prediction sets)."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def encode(self, labels: Iterable[str]) -> list[int]:
        labels = labels if isinstance(labels, (list, tuple)) else list(labels)
        ids = self.ids
        for label in dict.fromkeys(labels):  # new labels in order of first appearance
            ids.setdefault(label, len(ids))
        return list(map(ids.__getitem__, labels))

    def __len__(self) -> int:
        return len(self.ids)

    def labels(self) -> list[str]:
        """Labels in id order."""
        return list(self.ids)


@dataclass(frozen=True)
class TupleArrays:
    """All rows of one side of a corpus: the key columns ``doc``, ``start``, ``end`` and, in
    ``columns``, the metric family's value columns by name (label columns hold vocabulary ids)."""

    doc: np.ndarray
    start: np.ndarray
    end: np.ndarray
    columns: Mapping[str, np.ndarray]
    n_docs: int


@dataclass(frozen=True)
class Counts:
    """Per-document counts of each measure: arrays of shape (len(measures), n_docs)."""

    matched: np.ndarray
    gold: np.ndarray
    pred: np.ndarray
    measures: tuple[str, ...] = MEASURES

    @property
    def n_docs(self) -> int:
        return int(self.matched.shape[1])

    def select(self, mask: np.ndarray) -> Counts:
        """Counts of the documents where ``mask`` is true."""
        return Counts(self.matched[:, mask], self.gold[:, mask], self.pred[:, mask], self.measures)


class KeyCodec:
    """Mixed-radix int64 keys for the (document, span) of rows of a corpus, document most significant."""

    def __init__(self, n_docs: int, max_edu: int):
        self.edu_base = max_edu + 1
        self.doc_stride = self.edu_base * self.edu_base
        if max(n_docs, 1) * self.doc_stride >= 2 ** 62:
            raise RSTKitError(f"corpus too large to encode spans as 64-bit keys ({n_docs} documents, {max_edu} EDUs)")

    def span_keys(self, t: TupleArrays) -> np.ndarray:
        keys: np.ndarray = (t.doc * self.edu_base + t.start) * self.edu_base + t.end
        return keys


def codec_for(sides: Sequence[TupleArrays]) -> KeyCodec:
    max_edu = max((int(s.end.max()) for s in sides if s.end.size), default=1)
    return KeyCodec(max(s.n_docs for s in sides), max_edu)


def align_spans(gold: TupleArrays, pred: TupleArrays, codec: KeyCodec) -> tuple[np.ndarray, np.ndarray]:
    """Row indices into ``gold`` and ``pred`` of the rows whose (document, span) occurs on both sides.

    A validated tree has every span once (no unary nodes), so each span pairs exactly one
    gold and one predicted row, and set intersection on (span, labels) reduces to
    comparing the labels of aligned rows: two sorts and one binary search per corpus.
    """
    gold_keys, pred_keys = codec.span_keys(gold), codec.span_keys(pred)
    gold_order = np.argsort(gold_keys)  # keys are unique (checked below): stability is moot
    pred_order = np.argsort(pred_keys)
    gold_sorted, pred_sorted = gold_keys[gold_order], pred_keys[pred_order]
    for side, keys in (("gold", gold_sorted), ("predicted", pred_sorted)):
        if keys.size > 1 and bool(np.any(keys[1:] == keys[:-1])):
            raise RSTKitError(f"a {side} tree has the same span twice (an unvalidated tree with a unary node?)")
    if not pred_sorted.size or not gold_sorted.size:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    position = np.searchsorted(pred_sorted, gold_sorted)
    found = position < pred_sorted.size
    found[found] = pred_sorted[position[found]] == gold_sorted[found]
    return gold_order[found], pred_order[position[found]]


def row_ids(gold: TupleArrays, pred: TupleArrays, columns: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Each row's id of its tuple ``(doc, start, end, *columns)``, the same id for equal tuples on either
    side: dense ids in ``range(number of distinct tuples)``, for gold's rows and for pred's."""
    def stacked(side: TupleArrays) -> np.ndarray:
        return np.column_stack([side.doc, side.start, side.end, *(side.columns[c] for c in columns)])

    both = np.concatenate([stacked(gold), stacked(pred)]).astype(np.int64, copy=False)
    if not both.shape[0]:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    _, inverse = np.unique(both, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1).astype(np.int64)
    return inverse[:gold.doc.size], inverse[gold.doc.size:]


def multiset_matched(gold: TupleArrays, pred: TupleArrays, columns: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, common)``: for each distinct tuple ``(doc, start, end, *columns)`` of gold's rows, one
    gold row that has it (an index into ``gold``) and how many times both sides have it (``min(gold, pred)``)."""
    gold_ids, pred_ids = row_ids(gold, pred, columns)
    n = int(max(gold_ids.max(initial=-1), pred_ids.max(initial=-1))) + 1
    common = np.minimum(np.bincount(gold_ids, minlength=n), np.bincount(pred_ids, minlength=n))
    row = np.full(n, -1, dtype=np.int64)
    row[gold_ids] = np.arange(gold_ids.size, dtype=np.int64)  # equal tuples: any of their rows
    present = row >= 0
    return row[present], common[present]


def rows_of_kind(side: TupleArrays, kind: int) -> TupleArrays:
    """The rows of ``side`` whose ``kind`` column is ``kind``."""
    keep = side.columns["kind"] == kind
    return TupleArrays(side.doc[keep], side.start[keep], side.end[keep],
                       {name: column[keep] for name, column in side.columns.items()}, side.n_docs)


def count_multiset_matches(gold: TupleArrays, pred: TupleArrays, measures: Mapping[str, Sequence[str]],
                           kinds: Mapping[str, int] | None = None) -> Counts:
    """:func:`count_matches` for rows that may repeat a key (module docstring): per document and measure,
    the multiset intersection of the two sides' tuples ``(start, end, *columns)``. With ``kinds`` (a family
    whose rows are of several kinds, told apart by the column ``kind``), each measure counts, matches and
    supports alike, only the rows of its kind."""
    n_docs = gold.n_docs
    matched, gold_support, pred_support = [], [], []
    for name, columns in measures.items():
        g, p = (gold, pred) if kinds is None else (rows_of_kind(gold, kinds[name]), rows_of_kind(pred, kinds[name]))
        first_row, common = multiset_matched(g, p, columns)
        matched.append(np.bincount(g.doc[first_row], weights=common, minlength=n_docs).astype(np.int64))
        gold_support.append(np.bincount(g.doc, minlength=n_docs))
        pred_support.append(np.bincount(p.doc, minlength=n_docs))
    return Counts(np.stack(matched), np.stack(gold_support), np.stack(pred_support), tuple(measures))


def count_matches(gold: TupleArrays, pred: TupleArrays, codec: KeyCodec,
                  measures: Mapping[str, Sequence[str]], *,
                  aligned: tuple[np.ndarray, np.ndarray] | None = None) -> Counts:
    """Per-document matched / gold / predicted counts of each measure; ``measures`` names, per
    measure in order, the value columns that must be equal on aligned rows for a match. ``aligned``:
    :func:`align_spans` of the two sides, where the caller has it already."""
    n_docs = gold.n_docs
    gold_support = np.bincount(gold.doc, minlength=n_docs)
    pred_support = np.bincount(pred.doc, minlength=n_docs)
    gi, pi = align_spans(gold, pred, codec) if aligned is None else aligned
    doc = gold.doc[gi]
    same = {name: gold.columns[name][gi] == pred.columns[name][pi]
            for name in dict.fromkeys(c for columns in measures.values() for c in columns)}
    everywhere = np.ones(doc.size, dtype=bool)
    matched = [np.bincount(doc[np.logical_and.reduce([same[c] for c in columns]) if columns else everywhere],
                           minlength=n_docs) for columns in measures.values()]
    k = len(measures)
    return Counts(np.stack(matched), np.tile(gold_support, (k, 1)), np.tile(pred_support, (k, 1)), tuple(measures))
