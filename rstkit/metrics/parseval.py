"""Original Parseval over labelled attachment decisions (Morey et al. 2017; evaluation.md 6, 7.2).

Every internal node of the binary tree, root included, gives one decision
``(start, end, NS|SN|NN, relation)``; leaves are not scored. A binary tree over n EDUs
gives n - 1 tuples.
"""
from __future__ import annotations

from ..labels import LabelMap
from ..settings import Binarization, Metric
from ..transform import attachment_decisions, binarize
from ..transform import prepared_tuples as walk
from ..tree import RSTTree
from .config import EvalConfig

NAME: Metric = "parseval"


def tuples(tree: RSTTree, config: EvalConfig) -> list[tuple[int, int, str, str]]:
    """Attachment decisions of an already binarized and relabelled tree.

    In ``rst-eval`` compatibility mode the tree first gets educe's ``right_mixed`` pass
    (which re-binarizes most of what bug B1 left n-ary), as ``SimpleRSTTree.from_rst_tree``
    does; a node still n-ary after it gives one decision with a k-letter nuclearity
    (evaluation.md section 6; :func:`nary_decisions` counts them). Otherwise the tree must
    be binary.
    """
    if config.attachment_rebinarization:
        tree = binarize(tree, config.attachment_rebinarization)
        return attachment_decisions(tree, nary=True)
    return attachment_decisions(tree)


def prepared_tuples(tree: RSTTree, label_map: LabelMap, passthrough: bool, mode: Binarization,
                    config: EvalConfig) -> list[tuple[int, int, str, str]]:
    """``tuples(binarize(label_map.apply(tree, passthrough), mode), config)``, the same list and
    the same errors, mostly without building the prepared tree (:func:`rstkit.transform.prepared_tuples`).

    The walk gives a binary tree's decisions; the ``right_mixed`` pass of compatibility mode
    changes no binary tree, and the walk declines any tree it would leave n-ary.
    """
    fast = walk(tree, mode, label_map.relabeller(passthrough), marcu=False)
    if fast is not None:
        return fast[1]
    return tuples(binarize(label_map.apply(tree, passthrough), mode), config)


def nary_decisions(decisions: list[tuple[int, int, str, str]]) -> int:
    """How many decisions come from a node that was still n-ary (a pair of more than two letters)."""
    return sum(len(pair) > 2 for _, _, pair, _ in decisions)
