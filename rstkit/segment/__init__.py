"""EDU segmentation of plain text: ``Segmenter.load().segment(text)``.

The segmenter (:mod:`rstkit.segment.segmenter`) needs torch and is imported on first use,
so ``import rstkit.segment`` stays light; the tokenizer, the result types and the
DISRPT-style scoring are plain Python.

    >>> from rstkit.segment import Segmenter
    >>> result = Segmenter.load().segment(text)      # doctest: +SKIP
    >>> [(e.start, e.end, e.paragraph, e.sentence) for e in result.edus]   # doctest: +SKIP
"""
from __future__ import annotations

from .evaluate import BoundaryScore, boundary_score
from .result import EDUSpan, Segmentation, build_segmentation
from .tokenizer import paragraphs, read_plain_text, tokenize

__all__ = ["BoundaryScore", "EDUSpan", "Segmentation", "Segmenter", "SegmenterTrainConfig", "boundary_score",
           "build_segmentation", "paragraphs", "read_plain_text", "tokenize"]


def __getattr__(name: str):
    if name == "Segmenter":
        from .segmenter import Segmenter

        return Segmenter
    if name == "SegmenterTrainConfig":
        from .train import SegmenterTrainConfig

        return SegmenterTrainConfig
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
