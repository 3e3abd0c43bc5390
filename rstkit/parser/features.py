"""Boundary features of parser states: sentence and paragraph structure around the spans.

Sentence and paragraph indices come from the EDUs when the input carries them (GUM's
rsd, RST-DT's ``<P>`` markers, a boundary file); sentences the input does not give are
inferred from the text (:func:`rstkit.boundaries.infer_sentences`); unknown paragraphs
give zero features plus an "unknown" flag, so that documents with and without the
information share one model.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..boundaries import infer_sentences
from ..tree import EDU
from .transition import View


def _given(ids: Sequence[int | None]) -> list[int] | None:
    """The ids as given; None when there are none or some EDU lacks its id."""
    known = [int(i) for i in ids if i is not None]
    return known if known and len(known) == len(ids) else None


@dataclass(frozen=True)
class Boundaries:
    """Sentence and paragraph index per EDU (0-based lists; paragraphs None when unknown)."""

    sentences: list[int]
    paragraphs: list[int] | None

    @classmethod
    def of(cls, edus: tuple[EDU, ...]) -> Boundaries:
        sentences = _given([e.sentence for e in edus])
        if sentences is None:
            sentences = infer_sentences([e.text for e in edus])
        return cls(sentences, _given([e.paragraph for e in edus]))

    @cached_property
    def arrays(self) -> dict[str, np.ndarray]:
        """Per EDU (0-based): sentence and paragraph ids (0 when unknown), whether the EDU
        starts / ends its sentence or paragraph (0 when unknown), the number of its sentence and
        paragraph in the document (from 0), its position, the document length and whether
        paragraphs are known."""
        arrays: dict[str, np.ndarray] = {}
        for name, ids in (("sent", self.sentences), ("par", self.paragraphs)):
            values = np.asarray(ids if ids is not None else [0] * len(self.sentences), dtype=np.int64)
            change = values[1:] != values[:-1]
            known = float(ids is not None)
            arrays[name] = values
            arrays[name + "_starts"] = np.concatenate([[True], change]) * known
            arrays[name + "_ends"] = np.concatenate([change, [True]]) * known
            arrays[name + "_rank"] = np.concatenate([[0], np.cumsum(change)])  # the unit's number, from 0
        n = len(self.sentences)
        arrays["position"] = np.arange(n)
        arrays["n"] = np.full(n, n, dtype=np.int64)
        arrays["known"] = np.full(n, float(self.paragraphs is not None))
        return arrays


#: length of the first part of a row of :func:`state_features` (what every model reads)
N_STATE_FEATURES = 3 * 8 + 2 * 4 + 1
#: length of the second part (the units covered, read by models with ``unit_features``)
N_UNIT_FEATURES = 3 * 4 + 2 * 2
_ABSENT = (0, 0)
#: the items of a :data:`View` a model of each context size sees
CONTEXT_SLOTS = {3: (1, 2, 3), 5: (0, 1, 2, 3, 4)}


def state_features(edus: dict[str, np.ndarray], spans: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Features ``(K, N_STATE_FEATURES)`` of K states seen as s1, s0 and q0. ``edus`` holds
    the :attr:`Boundaries.arrays` of the states' documents concatenated, ``spans`` ``(K, 3, 2)``
    the items as 0-based inclusive indices into them (any valid index where absent), and
    ``present`` ``(K, 3)``.

    Per item (zeros when absent): present, log(1 + length) / 6, EDUs of its document before
    and after it over the document's length, whether it starts / ends a sentence, starts /
    ends a paragraph (0 when paragraphs are unknown). Per pair (s1, s0) and (s0, q0), when
    both are present: the boundary EDUs share a sentence, the outer EDUs share a sentence,
    the same for paragraphs. Last: paragraphs unknown.

    Then :data:`N_UNIT_FEATURES` more, on the units above the EDU: per item (zeros when absent),
    log(1 + sentences it covers) / 3, log(1 + paragraphs it covers) / 3, whether it is whole
    sentences (starts one and ends one), whether it is whole paragraphs; per pair (s1, s0) and
    (s0, q0), when both are present, log(1 + d) / 3 for the sentences and for the paragraphs,
    d the number of boundaries between the left item's last EDU and the right item's first. Paragraph features are
    0 when paragraphs are unknown.
    """
    start, end = spans[..., 0], spans[..., 1]
    n = edus["n"][start].astype(np.float64)
    mask = present.astype(np.float64)
    items = np.stack([np.ones_like(mask), np.log1p(end - start + 1) / 6.0, edus["position"][start] / n,
                      (n - 1 - edus["position"][end]) / n,
                      edus["sent_starts"][start], edus["sent_ends"][end], edus["par_starts"][start],
                      edus["par_ends"][end]], axis=-1) * mask[..., None]
    known = edus["known"][start[:, 0]]
    sent, par = edus["sent"], edus["par"]
    pairs = []
    for left, right in ((0, 1), (1, 2)):
        both = mask[:, left] * mask[:, right]
        pairs.append(np.stack([sent[end[:, left]] == sent[start[:, right]],
                               sent[start[:, left]] == sent[end[:, right]],
                               (par[end[:, left]] == par[start[:, right]]) * known,
                               (par[start[:, left]] == par[end[:, right]]) * known], axis=-1) * both[:, None])
    return np.concatenate([items.reshape(len(spans), -1), *pairs, 1.0 - known[:, None],
                           _unit_features(edus, start, end, mask, known)], axis=1).astype(np.float32)


def _unit_features(edus: dict[str, np.ndarray], start: np.ndarray, end: np.ndarray, mask: np.ndarray,
                   known: np.ndarray) -> np.ndarray:
    """The :data:`N_UNIT_FEATURES` columns of :func:`state_features` (see there)."""
    sent, par = edus["sent_rank"], edus["par_rank"]
    par_known = known[:, None]
    items = np.stack([np.log1p(sent[end] - sent[start] + 1) / 3.0,
                      np.log1p(par[end] - par[start] + 1) / 3.0 * par_known,
                      edus["sent_starts"][start] * edus["sent_ends"][end],
                      edus["par_starts"][start] * edus["par_ends"][end]], axis=-1) * mask[..., None]
    pairs = []
    for left, right in ((0, 1), (1, 2)):
        both = mask[:, left] * mask[:, right]
        pairs.append(np.stack([np.log1p(np.abs(sent[start[:, right]] - sent[end[:, left]])) / 3.0,
                               np.log1p(np.abs(par[start[:, right]] - par[end[:, left]])) / 3.0 * known],
                              axis=-1) * both[:, None])
    return np.concatenate([items.reshape(len(start), -1), *pairs], axis=1)


@dataclass
class StateArrays:
    """Parser states as arrays: spans ``(K, C, 2)`` of the C context items (1-based, (1, 1)
    where absent), presence ``(K, C)`` and boundary features
    ``(K, N_STATE_FEATURES + N_UNIT_FEATURES)``."""

    spans: np.ndarray
    present: np.ndarray
    features: np.ndarray

    @classmethod
    def of(cls, boundaries: Boundaries, views: Sequence[View], context: int = 3) -> StateArrays:
        return cls.of_documents([(boundaries, views)], context)

    @classmethod
    def of_documents(cls, documents: Sequence[tuple[Boundaries, Sequence[View]]], context: int = 3) -> StateArrays:
        """The states of several documents (each: its boundaries and state views), in order."""
        views = [v for _, doc_views in documents for v in doc_views]
        raw = np.array([(*(v[0] or _ABSENT), *(v[1] or _ABSENT), *(v[2] or _ABSENT), v[3] or 0, v[3] or 0,
                         v[4] or 0, v[4] or 0) for v in views], dtype=np.int64).reshape(len(views), 5, 2)
        present = raw[..., 0] > 0
        spans = np.where(present[..., None], raw, 1)
        offsets = np.cumsum([0] + [len(b.sentences) for b, _ in documents[:-1]])
        shift = np.repeat(offsets, [len(v) for _, v in documents])
        features = np.zeros((0, N_STATE_FEATURES + N_UNIT_FEATURES), dtype=np.float32)
        if views:
            edus = {key: np.concatenate([b.arrays[key] for b, _ in documents]) for key in documents[0][0].arrays}
            features = state_features(edus, spans[:, 1:4] - 1 + shift[:, None, None], present[:, 1:4])
        slots = list(CONTEXT_SLOTS[context])
        return cls(spans[:, slots], present[:, slots].astype(np.float32), features)
