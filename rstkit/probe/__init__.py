"""The DiscoEval RST task (Chen, Chu & Gimpel 2019): probing sentence encoders with
subtree-averaged EDU vectors, for any RST corpus and any encoder (optional extra ``probe``).

    from rstkit.corpus import resolve_corpus
    from rstkit.labels import get_label_map
    from rstkit.probe import build_task, evaluate_encoder, get_encoder, run_discoeval
    corpus = resolve_corpus("gum")                       # $RSTKIT_GUM, or resolve_corpus("gum", DIR)
    task = build_task(corpus, get_label_map(corpus.kind.label_map))
    result = run_discoeval(task, get_encoder("bow"))
    print(result.test.accuracy, result.signature)
    result = evaluate_encoder("gum", "bow")              # the same in one call

Modules: ``task`` (instances and labels), ``corpora`` (DiscoEval's published sizes),
``encoders`` (built-in and user encoders), ``cache`` (encodings on disk), ``classifier``
(features, logistic regression, majority baseline), ``discoeval`` (running it all),
``signature`` (the settings on one line), ``report`` (text, JSON).
"""
from __future__ import annotations

from .classifier import ClassifierConfig
from .discoeval import DiscoEvalResult, SplitResult, evaluate_encoder, run_discoeval
from .encoders import Encoder, get_encoder
from .errors import EncoderError, ProbeError
from .task import Instance, ProbeTask, SplitTask, build_task, tree_instances

__all__ = [
    "ClassifierConfig",
    "DiscoEvalResult",
    "Encoder",
    "EncoderError",
    "Instance",
    "ProbeError",
    "ProbeTask",
    "SplitResult",
    "SplitTask",
    "build_task",
    "evaluate_encoder",
    "get_encoder",
    "run_discoeval",
    "tree_instances",
]
