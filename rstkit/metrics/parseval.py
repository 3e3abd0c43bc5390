"""Original Parseval over labelled attachment decisions (Morey et al. 2017; docs/metrics/parseval.md).

Every internal node of the binary tree, root included, gives one decision
``(start, end, NS|SN|NN, relation)``; leaves are not scored. A binary tree over n EDUs
gives n - 1 tuples.
"""
from __future__ import annotations

from ..transform import PreparedWalk, attachment_decisions, binarize
from ..tree import RSTTree
from .config import EvalConfig
from .family import Row
from .quirks import quirk_rows
from .rst_parseval import ConstituencyFamily, walk_or_prepare


def tuples(tree: RSTTree, config: EvalConfig) -> list[tuple[int, int, str, str]]:
    """Attachment decisions of an already binarized and relabelled tree.

    In ``rst-eval`` compatibility mode the tree first gets educe's ``right_mixed`` pass
    (which re-binarizes most of what bug B1 left n-ary), as ``SimpleRSTTree.from_rst_tree``
    does; a node still n-ary after it gives one decision with a k-letter nuclearity
    (docs/evaluation.md#attachment-decisions; :func:`nary_decisions` counts them). Otherwise the tree must
    be binary.
    """
    if config.attachment_rebinarization:
        tree = binarize(tree, config.attachment_rebinarization)
        return attachment_decisions(tree, nary=True)
    return attachment_decisions(tree)


def nary_decisions(decisions: list[tuple[int, int, str, str]]) -> int:
    """How many decisions come from a node that was still n-ary (a pair of more than two letters)."""
    return sum(len(pair) > 2 for _, _, pair, _ in decisions)


class Parseval(ConstituencyFamily):
    """Labelled attachment decisions, root included, leaves excluded."""

    name = "parseval"
    title = "Original Parseval"
    b1_note = (" after educe's right_mixed pass",
               ("each gives one original-Parseval tuple with a k-letter nuclearity, so those documents have "
                "fewer than n-1 gold tuples"))

    def rows(self, tree: RSTTree, config: EvalConfig, *, gold: bool) -> tuple[list[Row], int | None]:
        """``tuples(binarize(relabelled tree), config)``, the same list and the same errors, mostly
        without building the prepared tree (:func:`rstkit.transform.prepared_walk`); under
        compatibility mode, the decisions of a gold tree's nodes still n-ary after educe's
        ``right_mixed`` pass.

        The walk expands n-ary nodes as each binarization (and the ``right_mixed`` pass of
        compatibility mode) would; where it declines, the long way raises the tree's error.
        """
        if config.has_quirks:
            return list(quirk_rows(tree, config, marcu=False)), None
        counted = gold and config.attachment_rebinarization is not None
        prepared = walk_or_prepare(tree, config, rebinarization=config.attachment_rebinarization, marcu=False)
        if isinstance(prepared, PreparedWalk):
            return prepared.decisions, (prepared.nary_decisions if counted else None)
        rows = tuples(prepared, config)
        return rows, (nary_decisions(rows) if counted else None)

    def signature_items(self, config: EvalConfig) -> list[tuple[str, str]]:
        return [("tuples", "attachments+root-leaves")]

    def binarization_items(self, config: EvalConfig) -> list[tuple[str, str]]:
        rebinarization = config.attachment_rebinarization
        return [("bin.att", rebinarization)] if rebinarization else []


PARSEVAL = Parseval()
