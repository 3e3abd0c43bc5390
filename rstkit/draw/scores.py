"""The scores of one predicted document against its gold tree, for the comparison page.

They are rstkit's own evaluation (:func:`rstkit.metrics.evaluate_all`) of the one document
under the default settings of each constituency metric, so the page shows the numbers
``rstkit eval`` prints for the same pair of files with ``--metric rst-parseval,parseval``.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

from ..errors import RSTKitError
from ..metrics import EvalConfig, evaluate_all
from ..settings import Metric
from ..tree import RSTTree

#: the metrics shown, with the names the page gives them
SHOWN: dict[Metric, str] = {"rst-parseval": "RST-Parseval", "parseval": "Parseval"}


@dataclass(frozen=True)
class MetricScores:
    """One metric's precision, recall and F1 (percentages) by measure, and its signature."""

    name: str
    precision: dict[str, float]
    recall: dict[str, float]
    f1: dict[str, float]
    signature: str


@dataclass(frozen=True)
class DocumentScores:
    """The document's scores, or why it could not be scored (``problem``), and the
    evaluation's warnings."""

    metrics: tuple[MetricScores, ...]
    problem: str = ""
    warnings: tuple[str, ...] = ()


def document_scores(gold: RSTTree, pred: RSTTree) -> DocumentScores:
    """Score ``pred`` against ``gold`` with each metric of :data:`SHOWN` (one pass)."""
    doc_id = gold.doc_id or "document"
    configs = [EvalConfig(metric=metric) for metric in SHOWN]
    try:
        with warnings.catch_warnings(record=True):  # kept in the results, shown on the page
            warnings.simplefilter("always")
            results = evaluate_all({doc_id: gold}, {doc_id: pred}, configs, ["prediction"])  # as the page names it
    except RSTKitError as error:
        return DocumentScores((), problem=str(error))
    shown = tuple(MetricScores(SHOWN[r.config.metric], r.precision, r.recall, r.scores, r.signature)
                  for r in results)
    notes = tuple(dict.fromkeys(note for r in results for note in r.warnings))
    return DocumentScores(shown, warnings=notes)
