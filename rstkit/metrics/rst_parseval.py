"""RST-Parseval (Marcu 2000): tuples of Marcu's encoding (evaluation.md sections 5 and 7.1).

Every node but the root gives ``(start, end, nuclearity, relation)``, EDU leaves
included; the relation is the node's rel2par (``span`` on nuclei of mononuclear
relations counts as a label). A binary tree over n >= 2 EDUs gives 2n - 2 tuples.
"""
from __future__ import annotations

from ..labels import LabelMap
from ..settings import Binarization, Metric
from ..transform import binarize, marcu_tuples
from ..transform import prepared_tuples as walk
from ..tree import RSTTree
from .config import EvalConfig

NAME: Metric = "rst-parseval"


def tuples(tree: RSTTree, config: EvalConfig) -> list[tuple[int, int, str, str]]:
    """RST-Parseval tuples of an already binarized and relabelled tree."""
    return marcu_tuples(tree)


def prepared_tuples(tree: RSTTree, label_map: LabelMap, passthrough: bool, mode: Binarization,
                    config: EvalConfig) -> list[tuple[int, int, str, str]]:
    """``tuples(binarize(label_map.apply(tree, passthrough), mode), config)``, the same list and
    the same errors, mostly without building the prepared tree (:func:`rstkit.transform.prepared_tuples`)."""
    fast = walk(tree, mode, label_map.relabeller(passthrough), decisions=False)
    if fast is not None:
        return fast[0]
    return tuples(binarize(label_map.apply(tree, passthrough), mode), config)
