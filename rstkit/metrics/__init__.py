"""Scoring: RST-Parseval, original Parseval, dependencies and segmentation; micro / macro / DPLP-style averaging.

One metric family per module (:mod:`.rst_parseval`, :mod:`.parseval`, :mod:`.dependency`,
:mod:`.segmentation`), each a :class:`~rstkit.metrics.family.MetricFamily` named in :mod:`.registry`
with its own settings type; settings in :class:`EvalConfig` (the shared ones, and the family's); the
pipeline in :mod:`.pipeline`: :func:`score_documents` (one
configuration over ``{doc_id: tree}`` mappings) and :func:`evaluate_all` (several metrics and averages
from one preparation). :func:`rstkit.evaluate` is the one entry point that also reads files.
"""
from __future__ import annotations

from .average import Scores
from .config import EvalConfig
from .pipeline import EvalResult, SystemResult, evaluate_all, score_documents

__all__ = ["EvalConfig", "EvalResult", "Scores", "SystemResult", "evaluate_all", "score_documents"]
