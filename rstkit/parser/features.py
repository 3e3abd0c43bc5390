"""Boundary features of parser states: sentence and paragraph structure around the spans.

Sentence and paragraph indices come from the EDUs when the format carries them (GUM's
rs4/rsd, RST-DT's ``<P>`` markers). Sentences the format does not give are guessed from
punctuation (an EDU ending in ``.``, ``!`` or ``?``, possibly followed by closing quotes
or brackets, ends a sentence); unknown paragraphs give zero features plus an "unknown"
flag, so that documents with and without the information share one model.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..tree import EDU
from .transition import Span

_SENTENCE_END = re.compile(r"[.!?]+[\"'”’)\]]*\s*$")


def guess_sentences(edus: tuple[EDU, ...]) -> list[int]:
    """1-based sentence index of each EDU, guessed from sentence-final punctuation."""
    result, current = [], 1
    for edu in edus:
        result.append(current)
        if _SENTENCE_END.search(edu.text):
            current += 1
    return result


@dataclass(frozen=True)
class Boundaries:
    """Sentence and paragraph index per EDU (0-based lists; paragraphs None when unknown)."""

    sentences: list[int]
    paragraphs: list[int] | None

    @classmethod
    def of(cls, edus: tuple[EDU, ...]) -> Boundaries:
        if edus and all(e.sentence is not None for e in edus):
            sentences = [int(e.sentence) for e in edus]  # type: ignore[arg-type]
        else:
            sentences = guess_sentences(edus)
        paragraphs = [int(e.paragraph) for e in edus] if edus and all(e.paragraph is not None for e in edus) else None
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
