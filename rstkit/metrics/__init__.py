"""Scoring: RST-Parseval and original Parseval, micro / macro / DPLP-style averaging.

One metric per module (:mod:`.rst_parseval`, :mod:`.parseval`); settings in
:class:`EvalConfig`; the pipeline in :func:`evaluate`.
"""
from .average import Scores
from .config import EvalConfig
from .evaluate import EvalResult, SystemResult, evaluate

__all__ = ["EvalConfig", "EvalResult", "Scores", "SystemResult", "evaluate"]
