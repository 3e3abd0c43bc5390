"""Vectorised matching: tuples as integer arrays, one int64 key per tuple, per-document counts.

Each side of an evaluation (gold, or one system's predictions) becomes a
:class:`TupleArrays`: one row per scored tuple, ``(doc, start, end, nuc, rel)`` as int64
columns, labels encoded by a :class:`Vocabulary` shared by all sides. For each tuple, its
(document, span) becomes one mixed-radix int64 key (document most significant); the
spans of a whole corpus are aligned with two sorts and a binary search, and S, N, R, F
matches are label comparisons of aligned rows. Counts follow educe: matched =
|set(gold) & set(pred)| per document, supports = list lengths.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import itemgetter

import numpy as np

from ..errors import RSTKitError
from ..settings import Measure

#: the label columns each measure's tuples include (counts are rows in the order of settings.MEASURES)
_LABEL_COLUMNS = {"S": (), "N": ("nuc",), "R": ("rel",), "F": ("nuc", "rel")}


class Vocabulary:
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
    """All tuples of one side of a corpus, one row each."""

    doc: np.ndarray
    start: np.ndarray
    end: np.ndarray
    nuc: np.ndarray
    rel: np.ndarray
    n_docs: int

    @classmethod
    def from_tuples(cls, per_doc: Sequence[Sequence[tuple[int, int, str, str]]],
                    nuc_vocab: Vocabulary, rel_vocab: Vocabulary) -> TupleArrays:
        lengths = np.fromiter(map(len, per_doc), dtype=np.int64, count=len(per_doc))
        flat = list(chain.from_iterable(per_doc))  # no object per row or value: garbage collection stays idle
        n = len(flat)

        def column(i: int) -> np.ndarray:
            return np.fromiter(map(itemgetter(i), flat), dtype=np.int64, count=n)

        return cls(
            doc=np.repeat(np.arange(len(per_doc), dtype=np.int64), lengths),
            start=column(0),
            end=column(1),
            nuc=np.fromiter(nuc_vocab.encode(list(map(itemgetter(2), flat))), dtype=np.int64, count=n),
            rel=np.fromiter(rel_vocab.encode(list(map(itemgetter(3), flat))), dtype=np.int64, count=n),
            n_docs=len(per_doc),
        )


@dataclass(frozen=True)
class Counts:
    """Per-document counts for S, N, R, F: arrays of shape (4, n_docs)."""

    matched: np.ndarray
    gold: np.ndarray
    pred: np.ndarray

    @property
    def n_docs(self) -> int:
        return int(self.matched.shape[1])

    def select(self, mask: np.ndarray) -> Counts:
        """Counts of the documents where ``mask`` is true."""
        return Counts(self.matched[:, mask], self.gold[:, mask], self.pred[:, mask])


class KeyCodec:
    """Mixed-radix int64 keys for tuples of a corpus, document most significant."""

    def __init__(self, n_docs: int, max_edu: int, n_nuc: int, n_rel: int):
        self.edu_base = max_edu + 1
        self.n_nuc = max(n_nuc, 1)
        self.n_rel = max(n_rel, 1)
        self.doc_stride = self.edu_base * self.edu_base * self.n_nuc * self.n_rel
        if max(n_docs, 1) * self.doc_stride >= 2 ** 62:
            raise RSTKitError(f"corpus too large to encode tuples as 64-bit keys "
                              f"({n_docs} documents, {max_edu} EDUs, {n_rel} labels)")

    def keys(self, t: TupleArrays, measure: Measure) -> np.ndarray:
        """Keys of ``t``'s tuples for one measure; unused label columns are zero."""
        columns = _LABEL_COLUMNS[measure]
        nuc = t.nuc if "nuc" in columns else 0
        rel = t.rel if "rel" in columns else 0
        span: np.ndarray = (t.doc * self.edu_base + t.start) * self.edu_base + t.end
        keys: np.ndarray = (span * self.n_nuc + nuc) * self.n_rel + rel
        return keys

    def span_keys(self, t: TupleArrays) -> np.ndarray:
        return self.keys(t, "S")


def codec_for(sides: Sequence[TupleArrays], nuc_vocab: Vocabulary, rel_vocab: Vocabulary) -> KeyCodec:
    max_edu = max((int(s.end.max()) for s in sides if s.end.size), default=1)
    return KeyCodec(max(s.n_docs for s in sides), max_edu, len(nuc_vocab), len(rel_vocab))


def sorted_unique(keys: np.ndarray) -> np.ndarray:
    """Sorted distinct keys (sort-based: faster than np.unique's hashing on int64 keys)."""
    keys = np.sort(keys)
    if keys.size:
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    return keys


def align_spans(gold: TupleArrays, pred: TupleArrays, codec: KeyCodec) -> tuple[np.ndarray, np.ndarray]:
    """Row indices into ``gold`` and ``pred`` of the tuples whose (document, span) occurs on both sides.

    A validated tree has every span once (no unary nodes), so each span pairs exactly one
    gold and one predicted tuple, and set intersection on (span, labels) reduces to
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


def count_matches(gold: TupleArrays, pred: TupleArrays, codec: KeyCodec) -> Counts:
    """Per-document matched / gold / predicted counts for S, N, R and F."""
    n_docs = gold.n_docs
    gold_support = np.bincount(gold.doc, minlength=n_docs)
    pred_support = np.bincount(pred.doc, minlength=n_docs)
    gi, pi = align_spans(gold, pred, codec)
    doc = gold.doc[gi]
    same_nuc = gold.nuc[gi] == pred.nuc[pi]
    same_rel = gold.rel[gi] == pred.rel[pi]
    matched = np.stack([np.bincount(doc[mask], minlength=n_docs)
                        for mask in (np.ones(doc.size, dtype=bool), same_nuc, same_rel, same_nuc & same_rel)])
    return Counts(matched, np.tile(gold_support, (4, 1)), np.tile(pred_support, (4, 1)))
