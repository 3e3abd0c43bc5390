"""EDU segmentation of plain text: ``Segmenter.load().segment(text)``.

The segmenter (:mod:`rstkit.segment.segmenter`) needs torch and is imported on first use,
so ``import rstkit.segment`` stays light; the tokenizer and the result types are plain Python (the
DISRPT-style scoring of :mod:`.evaluate` is the evaluation's,
:class:`rstkit.metrics.segmentation.BoundaryCounts`).

    >>> from rstkit.segment import Segmenter
    >>> result = Segmenter.load().segment(text)      # doctest: +SKIP
    >>> [(e.start, e.end, e.paragraph, e.sentence) for e in result.edus]   # doctest: +SKIP
"""
from __future__ import annotations

from .result import EDUSpan, Segmentation, build_segmentation
from .tokenizer import paragraphs, read_plain_text, tokenize

__all__ = ["EDUSpan", "Segmentation", "Segmenter", "SegmenterTrainConfig", "build_segmentation", "paragraphs",
           "read_plain_text", "tokenize"]


def __getattr__(name: str):
    if name == "Segmenter":
        from .segmenter import Segmenter

        return Segmenter
    if name == "SegmenterTrainConfig":
        from .train import SegmenterTrainConfig

        return SegmenterTrainConfig
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
