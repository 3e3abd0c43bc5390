"""Segmenting many files on a Dask cluster (``rstkit segment --engine dask``; the ``dask`` extra):
each task segments a batch of texts (plain text, or DISRPT files' documents) with a segmenter
that its worker process loads once."""
from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from ..cluster import Outcome, failure_message
from ..formats.disrpt import DisrptFile
from .segmenter import Segmenter, default_segmenter

_SEGMENTERS: dict[str, Segmenter] = {}
_LOADING = threading.Lock()


def worker_segmenter(name: str | None) -> Segmenter:
    """The segmenter ``name`` (None: the best shipped one that runs here), loaded once per process."""
    name = name or default_segmenter()[0]
    with _LOADING:
        if name not in _SEGMENTERS:
            _SEGMENTERS[name] = Segmenter.load(name, threads=1)
        return _SEGMENTERS[name]


@dataclass(frozen=True)
class SegmentTask:
    """One input file: its output name and its contents (plain text, or a read DISRPT file)."""

    name: str
    content: str | DisrptFile


def segment_batch(model: str | None, tasks: Sequence[SegmentTask]) -> list[Outcome]:
    """The task: each file's :class:`~rstkit.segment.result.Segmentation` (plain text) or
    ``{doc_id: EDU starts}`` (DISRPT), or the error of that file alone."""
    from .disrpt import segment_document

    segmenter = worker_segmenter(model)
    outcomes = []
    for task in tasks:
        try:
            if isinstance(task.content, DisrptFile):
                value: object = {d.doc_id: segment_document(segmenter, d) for d in task.content.documents}
            else:
                value = segmenter.segment(task.content)
            outcomes.append(Outcome(task.name, value))
        except Exception as exc:  # noqa: BLE001 - reported for this file, the run goes on
            outcomes.append(Outcome(task.name, None, failure_message(exc)))
    return outcomes
