"""Scoring: RST-Parseval, original Parseval and dependencies; micro / macro / DPLP-style averaging.

One metric family per module (:mod:`.rst_parseval`, :mod:`.parseval`, :mod:`.dependency`), each a
:class:`~rstkit.metrics.family.MetricFamily` named in :mod:`.registry`; settings in
:class:`EvalConfig`; the pipeline in :func:`evaluate` (several metrics and averages at once:
:func:`evaluate_all`).
"""
from .average import Scores
from .config import EvalConfig
from .evaluate import EvalResult, SystemResult, evaluate, evaluate_all

__all__ = ["EvalConfig", "EvalResult", "Scores", "SystemResult", "evaluate", "evaluate_all"]
