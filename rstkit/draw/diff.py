"""Differences between a gold tree and a predicted tree, constituent by constituent.

A constituent is identified by its span. A span present in one tree only is
``gold-only`` (a gold constituent the parser missed) or ``pred-only`` (one it invented);
a span present in both is ``nuclearity`` when its nuclearity differs (its relation may
differ too) and ``relation`` when only its relation differs. Nuclearity and relation are
the node's own, in the rel2par convention (a satellite's relation, ``span`` for the
nucleus of a mononuclear relation, the relation for each nucleus of a multinuclear one).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..errors import EDUMismatchError
from ..tree import Node, RSTTree

Span = tuple[int, int]

#: difference kinds, most important first, with the words a legend uses
KINDS = {
    "gold-only": "only in gold (missed by the prediction)",
    "pred-only": "only in the prediction (not in gold)",
    "nuclearity": "same span, different nuclearity",
    "relation": "same span and nuclearity, different relation",
}


@dataclass(frozen=True)
class TreeDiff:
    """Marks for each tree: ``{span: kind}`` for the constituents that differ."""

    gold: dict[Span, str]
    pred: dict[Span, str]
    n_gold: int
    n_pred: int

    def counts(self) -> dict[str, int]:
        """How many constituents of each kind (a shared span is counted once)."""
        counts = Counter(self.gold.values())
        counts["pred-only"] = sum(1 for kind in self.pred.values() if kind == "pred-only")
        return {kind: counts.get(kind, 0) for kind in KINDS}


def _spans(tree: RSTTree) -> dict[Span, Node]:
    return {node.span: node for node in tree.nodes()}


def diff_trees(gold: RSTTree, pred: RSTTree) -> TreeDiff:
    """Compare two trees over the same EDUs (EDUMismatchError otherwise)."""
    if gold.n_edus != pred.n_edus:
        raise EDUMismatchError(f"gold has {gold.n_edus} EDUs, the prediction {pred.n_edus}: trees over "
                               "different segmentations cannot be compared constituent by constituent",
                               pred.source or pred.doc_id or None)
    g, p = _spans(gold), _spans(pred)
    gold_marks: dict[Span, str] = {}
    pred_marks: dict[Span, str] = {}
    for span, node in g.items():
        other = p.get(span)
        if other is None:
            gold_marks[span] = "gold-only"
        elif other.nuclearity != node.nuclearity:
            gold_marks[span] = pred_marks[span] = "nuclearity"
        elif other.relation != node.relation:
            gold_marks[span] = pred_marks[span] = "relation"
    for span in p:
        if span not in g:
            pred_marks[span] = "pred-only"
    return TreeDiff(gold_marks, pred_marks, len(g), len(p))


def strongest(kinds: list[str]) -> str | None:
    """The most important of several difference kinds (None for none)."""
    for kind in KINDS:
        if kind in kinds:
            return kind
    return None
