"""Boundary features of parser states: sentence and paragraph structure around the spans.

Sentence and paragraph indices come from the EDUs when the input carries them (GUM's
rsd, RST-DT's ``<P>`` markers, a boundary file); sentences the input does not give are
inferred from the text (:func:`rstkit.boundaries.infer_sentences`); unknown paragraphs
give zero features plus an "unknown" flag, so that documents with and without the
information share one model.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..boundaries import has_paragraphs, has_sentences, infer_sentences
from ..tree import EDU
from .transition import Span


@dataclass(frozen=True)
class Boundaries:
    """Sentence and paragraph index per EDU (0-based lists; paragraphs None when unknown)."""

    sentences: list[int]
    paragraphs: list[int] | None

    @classmethod
    def of(cls, edus: tuple[EDU, ...]) -> Boundaries:
        if has_sentences(edus):
            sentences = [int(e.sentence) for e in edus]  # type: ignore[arg-type]
        else:
            sentences = infer_sentences([e.text for e in edus])
        paragraphs = [int(e.paragraph) for e in edus] if has_paragraphs(edus) else None
        return cls(sentences, paragraphs)

    def _unit(self, ids: list[int], span: Span) -> tuple[float, float, float]:
        """(starts a unit, ends a unit, lies within one unit) for a 1-based inclusive span."""
        i, j = span[0] - 1, span[1] - 1
        starts = float(i == 0 or ids[i - 1] != ids[i])
        ends = float(j == len(ids) - 1 or ids[j + 1] != ids[j])
        return starts, ends, float(ids[i] == ids[j])

    def span_features(self, span: Span | None) -> list[float]:
        if span is None:
            return [0.0] * 8
        n = len(self.sentences)
        length = span[1] - span[0] + 1
        out = [1.0, math.log1p(length) / 6.0, (span[0] - 1) / n, (n - span[1]) / n]
        out += self._unit(self.sentences, span)[:2]
        out += self._unit(self.paragraphs, span)[:2] if self.paragraphs else [0.0, 0.0]
        return out

    def pair_features(self, left: Span | None, right: Span | None) -> list[float]:
        """Same sentence / same paragraph (boundary EDUs and whole spans)."""
        if left is None or right is None:
            return [0.0] * 4
        sent = self.sentences
        out = [float(sent[left[1] - 1] == sent[right[0] - 1]), float(sent[left[0] - 1] == sent[right[1] - 1])]
        if self.paragraphs:
            par = self.paragraphs
            out += [float(par[left[1] - 1] == par[right[0] - 1]), float(par[left[0] - 1] == par[right[1] - 1])]
        else:
            out += [0.0, 0.0]
        return out

    def state_features(self, s1: Span | None, s0: Span | None, q0: int | None) -> list[float]:
        queue = (q0, q0) if q0 is not None else None
        return (self.span_features(s1) + self.span_features(s0) + self.span_features(queue)
                + self.pair_features(s1, s0) + self.pair_features(s0, queue)
                + [float(self.paragraphs is None)])


#: length of :meth:`Boundaries.state_features`
N_STATE_FEATURES = 3 * 8 + 2 * 4 + 1
