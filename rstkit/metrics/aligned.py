"""Scoring predictions whose EDUs differ from the gold: spans over characters (``edus="aligned"``).

Parsers that segment their own text cannot be scored by EDU numbers. Here each document is
mapped onto the characters of its text as :func:`~rstkit.metrics.edus.normalise_edu_text`
compares texts (whitespace removed, PTB bracket and quote escapes undone), and every span
``(first EDU, last EDU)`` becomes ``(first character, last character)`` of those EDUs.
Gold and prediction must have the same normalised text; the tuples (Marcu's encoding or
attachment decisions) are otherwise those of gold-EDU scoring, so the RST-Parseval leaf
tuples of a prediction match only the gold EDUs it reproduces exactly.

The character spans are then renumbered densely per document (the distinct endpoints that
occur on any side, in order), which keeps equality and order and bounds the key radix of
:class:`~rstkit.metrics.counts.KeyCodec` by the number of EDU boundaries, whatever the
length of the text. When both sides have the same EDUs, every number equals gold-EDU
scoring's.

Segmentation is scored beside the trees as DISRPT's ``seg_eval.py`` does: precision, recall
and F1 of the positions where an EDU begins, micro over the corpus. The document-initial
boundary counts, because DISRPT labels the first token of every document ``BeginSeg=Yes``
and counts it like any other; it is always matched, which is part of why segmentation
scores run high.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..errors import EDUMismatchError, printable
from ..settings import ZERO_DIVISION, SpanKey, ZeroDivision
from .average import f1_score, percent
from .counts import TupleArrays
from .edus import normalise_edu_text
from .prepared import PreparedDocument

#: characters of context shown on each side of the first difference between two texts
CONTEXT = 20


@dataclass(frozen=True)
class CharacterMap:
    """A document's EDUs on the characters of its normalised text.

    ``bounds`` has n + 1 offsets: EDU i (1-based) covers characters ``bounds[i-1]`` to
    ``bounds[i] - 1`` of ``text``.
    """

    text: str
    bounds: np.ndarray

    @classmethod
    def of(cls, tree: PreparedDocument, side: str) -> CharacterMap:
        """The map of the document ``tree`` (``side``: "gold" or "prediction", for messages);
        EDUMismatchError when an EDU has no text, as aligning needs the text of every EDU."""
        texts = [normalise_edu_text(text) for text in tree.edu_texts]
        where = f"{side} {tree.source or '?'}"
        if not any(texts):
            raise EDUMismatchError(f"document {tree.doc_id!r}: the {where} has no EDU text (its format may not "
                                   f"carry text); aligned EDUs (edus='aligned') need the text of both sides")
        empty = [i for i, text in enumerate(texts, start=1) if not text]
        if empty:
            raise EDUMismatchError(f"document {tree.doc_id!r}: {len(empty)} EDU(s) of the {where} have no text "
                                   f"(whitespace aside), the first is EDU {empty[0]}; aligned EDUs "
                                   f"(edus='aligned') place every EDU on the characters of the text")
        lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
        return cls("".join(texts), np.concatenate(([0], np.cumsum(lengths))))

    @property
    def n_edus(self) -> int:
        return self.bounds.size - 1

    @property
    def edu_starts(self) -> np.ndarray:
        """Offsets where an EDU begins (0 included): the segmentation's boundaries."""
        return self.bounds[:-1]

    def edu_at(self, offset: int) -> int:
        """The (1-based) number of the EDU holding character ``offset``."""
        return int(np.searchsorted(self.bounds, offset, side="right"))


def check_same_text(gold: PreparedDocument, pred: PreparedDocument, gold_map: CharacterMap,
                    pred_map: CharacterMap) -> None:
    """EDUMismatchError naming the document, both files and the first difference when the
    normalised texts of gold and prediction differ."""
    g, p = gold_map.text, pred_map.text
    if g == p:
        return
    k = next((i for i, (a, b) in enumerate(zip(g, p)) if a != b), min(len(g), len(p)))

    def at(text: str, cmap: CharacterMap, side: str, tree: PreparedDocument) -> str:
        where = (f"EDU {cmap.edu_at(k)}" if k < len(text) else f"the end of the text, after EDU {cmap.n_edus}")
        shown = f"'{printable(text[max(0, k - CONTEXT):k], None)}|{printable(text[k:k + CONTEXT], None)}'"
        return f"{side} {tree.source or '?'} has {where}: {shown}"

    raise EDUMismatchError(
        f"text mismatch for document {gold.doc_id!r}: gold and prediction must have the same text to align "
        f"their EDUs (compared without whitespace, PTB bracket and quote escapes undone); they first differ at "
        f"character {k + 1} (gold {len(g)} characters, prediction {len(p)}): "
        f"{at(g, gold_map, 'gold', gold)}; {at(p, pred_map, 'prediction', pred)} ('|' marks the difference)")


def key_starts(flat: np.ndarray, first_edu: np.ndarray, span_key: SpanKey) -> np.ndarray:
    """The first key of spans whose first EDU is ``first_edu`` (indices of that EDU's start into ``flat``,
    a document's EDU start offsets): its first character (``chars``), or the last character of that EDU
    (``first-edu-end``, the keying of DMRST and isanlp_rst, which key a span by the last token of its
    first EDU and of its last EDU)."""
    keys: np.ndarray = flat[first_edu] if span_key == "chars" else flat[first_edu + 1] - 1
    return keys


def to_characters(arrays: TupleArrays, maps: Sequence[CharacterMap | None], edu_columns: Sequence[str] = (),
                  span_key: SpanKey = "chars") -> TupleArrays:
    """``arrays`` with each span ``(first EDU, last EDU)`` replaced by ``(first character, last
    character)`` through the map of its document (``maps[doc]``; None where it has no row), and each
    value column of ``edu_columns`` (an EDU number, 0 for none) by one code of its EDU's characters
    (``first * (length + 1) + last``; -1 for none), equal on two sides exactly when the EDUs are.
    ``span_key`` chooses the first character (:func:`key_starts`)."""
    bounds = [m.bounds if m is not None else np.zeros(1, dtype=np.int64) for m in maps]
    offsets = np.concatenate(([0], np.cumsum([b.size for b in bounds])))[:-1]
    flat = np.concatenate(bounds) if bounds else np.zeros(0, dtype=np.int64)
    base = offsets[arrays.doc] if arrays.doc.size else arrays.doc
    columns = dict(arrays.columns)
    if edu_columns:
        radix = (flat.max() + 1) if flat.size else 1
        for name in edu_columns:
            edu = columns[name]
            placed = flat[base + np.maximum(edu, 1) - 1] * radix + flat[base + np.maximum(edu, 1)] - 1
            columns[name] = np.where(edu > 0, placed, -1)
    return replace(arrays, start=key_starts(flat, base + arrays.start - 1, span_key), end=flat[base + arrays.end] - 1,
                   columns=columns)


def renumber(sides: Sequence[TupleArrays]) -> list[TupleArrays]:
    """``sides`` with span endpoints replaced by their rank among the distinct endpoints (starts
    and ends alike) that occur in the same document on any side: equal endpoints stay equal,
    and no value exceeds the number of EDU boundaries of the document's sides, so the keys of
    long documents stay small."""
    values = np.concatenate([column for side in sides for column in (side.start, side.end)])
    docs = np.concatenate([side.doc for side in sides for _ in range(2)])
    if not values.size:
        return list(sides)
    order = np.lexsort((values, docs))
    v, d = values[order], docs[order]
    new_doc = np.concatenate(([True], d[1:] != d[:-1]))
    new_value = new_doc | np.concatenate(([True], v[1:] != v[:-1]))
    rank = np.cumsum(new_value) - 1
    first_rank = rank[new_doc][np.cumsum(new_doc) - 1]  # rank of the first value of each row's document
    ranks = np.empty_like(values)
    ranks[order] = rank - first_rank
    out, at = [], 0
    for side in sides:
        n = side.start.size
        out.append(replace(side, start=ranks[at:at + n], end=ranks[at + n:at + 2 * n]))
        at += 2 * n
    return out


@dataclass(frozen=True)
class Segmentation:
    """EDU boundary counts per document (arrays of shape (n_docs,)): gold, predicted, matched."""

    gold: np.ndarray
    pred: np.ndarray
    matched: np.ndarray

    def select(self, mask: np.ndarray) -> Segmentation:
        return Segmentation(self.gold[mask], self.pred[mask], self.matched[mask])

    def summary(self, *, zero_division: ZeroDivision = ZERO_DIVISION) -> dict[str, float | int]:
        """Micro precision, recall, F1 (percent; ``zero_division`` where a denominator is 0, see
        :func:`~rstkit.metrics.average.divide`) and the three counts."""
        g, p, m = int(self.gold.sum()), int(self.pred.sum()), int(self.matched.sum())
        precision = float(percent(m, p, zero_division=zero_division))
        recall = float(percent(m, g, zero_division=zero_division))
        f1 = float(f1_score(precision, recall))
        return {"precision": precision, "recall": recall, "f1": f1, "gold": g, "pred": p, "matched": m}


def segmentation(gold_maps: Sequence[CharacterMap], pred_maps: Sequence[CharacterMap | None]) -> Segmentation:
    """Boundary counts of each document; a missing prediction (None) predicts no boundary."""
    gold = np.array([m.n_edus for m in gold_maps], dtype=np.int64)
    pred = np.array([m.n_edus if m is not None else 0 for m in pred_maps], dtype=np.int64)
    matched = np.array([np.intersect1d(g.edu_starts, p.edu_starts, assume_unique=True).size if p is not None else 0
                        for g, p in zip(gold_maps, pred_maps)], dtype=np.int64)
    return Segmentation(gold, pred, matched)


def align(gold: Sequence[PreparedDocument], systems: Sequence[Sequence[PreparedDocument | None]],
          gold_arrays: TupleArrays, pred_arrays: Sequence[TupleArrays], edu_columns: Sequence[str] = (),
          span_key: SpanKey = "chars") -> tuple[TupleArrays, list[TupleArrays], list[Segmentation]]:
    """Gold and predicted rows on (renumbered) character spans, and each system's segmentation.

    ``gold_arrays`` and ``pred_arrays`` hold the rows of the documents ``gold`` (in order) over EDU
    numbers, and of each of ``systems`` (the same documents, None where a system has none);
    ``edu_columns`` name the value columns that hold EDU numbers, ``span_key`` how spans are keyed
    (:func:`to_characters`).
    """
    gold_maps = [CharacterMap.of(doc, "gold") for doc in gold]
    char_sides, segmentations = [to_characters(gold_arrays, gold_maps, edu_columns, span_key)], []
    for docs, arrays in zip(systems, pred_arrays):
        maps = []
        for gold_doc, gold_map, doc in zip(gold, gold_maps, docs):
            pred_map = None
            if doc is not None:
                pred_map = CharacterMap.of(doc, "prediction")
                check_same_text(gold_doc, doc, gold_map, pred_map)
            maps.append(pred_map)
        char_sides.append(to_characters(arrays, maps, edu_columns, span_key))
        segmentations.append(segmentation(gold_maps, maps))
    renumbered = renumber(char_sides)
    return renumbered[0], renumbered[1:], segmentations
