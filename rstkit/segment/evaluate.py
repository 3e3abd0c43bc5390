"""Scoring a segmenter the way the DISRPT shared tasks do.

DISRPT's scorer (``seg_eval.py``, 2019-2025) counts, over all tokens of all documents of a
corpus (micro-average), the tokens that begin an EDU: a true positive is a token both
gold and prediction mark, a false positive one only the prediction marks, a false
negative one only the gold marks; precision, recall and F1 follow (0 where undefined).
Document-initial tokens are counted like any other: the gold marks them and the scorer
has no exception for them (nor for sentence-initial tokens, unless asked), so a
segmenter gets them right for free, and so does ours; to compare with the published
scores we count them too.

A boundary here is the character offset where an EDU begins, which is the same as a
token when both sides use the same tokens, and lets a prediction on other tokens (our own
tokenisation of raw text) be scored against the gold as well. The counting is the evaluation's
(:class:`~rstkit.metrics.segmentation.BoundaryCounts`).

Conditions (how the text is presented to the segmenter, see :mod:`rstkit.segment.gum`):

``gold-flat``
    gold tokens, no paragraph breaks: the DISRPT plain-text (``.tok``) setting.
``gold``
    gold tokens, paragraphs separated by blank lines.
``raw``
    GUM's text rebuilt as raw text (paragraphs, blank lines), tokenised by the segmenter:
    what a user of ``rstkit segment`` gives it.
``raw-flat``
    the same without paragraph breaks.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..metrics.segmentation import BoundaryCounts
from ..progress import Progress
from .gum import GoldDocument, gold_documents, read_gum_trees

CONDITIONS = ("gold-flat", "gold", "raw", "raw-flat")


def as_record(counts: BoundaryCounts) -> dict[str, int | float]:
    """The counts of a split and condition as the model's ``config.json`` keeps them: true positives,
    false positives and false negatives, and precision, recall and F1 in percent (two decimals)."""
    matched, gold, pred = int(counts.matched.sum()), int(counts.gold.sum()), int(counts.pred.sum())
    return {"tp": matched, "fp": pred - matched, "fn": gold - matched,
            "precision": round(100 * counts.precision, 2), "recall": round(100 * counts.recall, 2),
            "f1": round(100 * counts.f1, 2)}


def score_documents(segmenter, documents: Sequence[GoldDocument], gold_tokens: bool, what: str = "score"
                    ) -> dict[str, BoundaryCounts]:
    """EDU and sentence boundary counts of ``segmenter`` over ``documents`` (masked ones
    left out), on the documents' gold tokens or on the segmenter's own tokenisation; progress
    reported as ``what``."""
    edus, sentences = [], []
    for doc in Progress.counting(documents, what, "doc"):
        if doc.masked:
            continue
        if gold_tokens:
            result = segmenter.segment_tokens(doc.text, doc.tokens, doc.paragraph_starts)
        else:
            result = segmenter.segment(doc.text)
        starts = [e.start for e in result.edus]
        sentence_starts = [e.start for i, e in enumerate(result.edus)
                           if i == 0 or e.sentence != result.edus[i - 1].sentence]
        edus.append((doc.edu_starts, starts))
        sentences.append((doc.sentence_starts, sentence_starts))
    return {"edus": BoundaryCounts.of(edus), "sentences": BoundaryCounts.of(sentences)}


def evaluate_gum(segmenter, root: str | Path, splits: Sequence[str] = ("dev", "test", "test2"),
                 conditions: Sequence[str] = CONDITIONS) -> dict[str, dict[str, dict[str, BoundaryCounts]]]:
    """``{split: {condition: {"edus"|"sentences": counts}}}`` on a GUM checkout."""
    results: dict[str, dict[str, dict[str, BoundaryCounts]]] = {}
    for split in splits:
        trees = read_gum_trees(root, split)
        with_paragraphs, flat = gold_documents(trees, paragraphs=True), gold_documents(trees, paragraphs=False)
        results[split] = {}
        for condition in conditions:
            documents = flat if condition.endswith("-flat") else with_paragraphs
            results[split][condition] = score_documents(segmenter, documents, condition.startswith("gold"),
                                                        f"score {split} {condition}")
    return results
