"""Original Parseval over labelled attachment decisions (Morey et al. 2017; docs/metrics/parseval.md).

Every internal node of the binary tree, root included, gives one decision
``(start, end, NS|SN|NN, relation)``; leaves are not scored. A binary tree over n EDUs
gives n - 1 tuples.
"""
from __future__ import annotations

from ..settings import RST_EVAL, Binarization
from ..transform import PreparedWalk, attachment_decisions, binarize
from ..tree import RSTTree
from .family import Row, Scoring
from .quirks import ConstituencySettings, quirk_rows
from .rst_parseval import ConstituencyFamily, walk_or_prepare


def tuples(tree: RSTTree, config: Scoring) -> list[tuple[int, int, str, str]]:
    """Attachment decisions of an already binarized and relabelled tree.

    In ``rst-eval`` compatibility mode the tree first gets educe's ``right_mixed`` pass
    (which re-binarizes most of what bug B1 left n-ary), as ``SimpleRSTTree.from_rst_tree``
    does; a node still n-ary after it gives one decision with a k-letter nuclearity
    (docs/evaluation.md#attachment-decisions; :func:`nary_decisions` counts them). Otherwise the tree must
    be binary.
    """
    rebinarization = attachment_rebinarization(config)
    if rebinarization:
        tree = binarize(tree, rebinarization)
        return attachment_decisions(tree, nary=True)
    return attachment_decisions(tree)


def attachment_rebinarization(config: Scoring) -> Binarization | None:
    """educe builds attachment trees after a ``right_mixed`` pass (rst-eval compatibility mode); rstkit
    needs binary trees, so none otherwise."""
    return "right_mixed" if config.compat == RST_EVAL else None


def nary_decisions(decisions: list[tuple[int, int, str, str]]) -> int:
    """How many decisions come from a node that was still n-ary (a pair of more than two letters)."""
    return sum(len(pair) > 2 for _, _, pair, _ in decisions)


class Parseval(ConstituencyFamily):
    """Labelled attachment decisions, root included, leaves excluded."""

    name = "parseval"
    title = "Original Parseval"
    descriptive_keys = ("tuples", "bin.att")
    b1_note = (" after educe's right_mixed pass",
               ("each gives one original-Parseval tuple with a k-letter nuclearity, so those documents have "
                "fewer than n-1 gold tuples"))

    def rows(self, tree: RSTTree, config: Scoring, *, gold: bool) -> tuple[list[Row], int | None]:
        """``tuples(binarize(relabelled tree), config)``, the same list and the same errors, mostly
        without building the prepared tree (:func:`rstkit.transform.prepared_walk`); under
        compatibility mode, the decisions of a gold tree's nodes still n-ary after educe's
        ``right_mixed`` pass.

        The walk expands n-ary nodes as each binarization (and the ``right_mixed`` pass of
        compatibility mode) would; where it declines, the long way raises the tree's error.
        """
        if ConstituencySettings.of(config).has_quirks:
            return list(quirk_rows(tree, config, marcu=False)), None
        counted = gold and attachment_rebinarization(config) is not None
        prepared = walk_or_prepare(tree, config, rebinarization=attachment_rebinarization(config), marcu=False)
        if isinstance(prepared, PreparedWalk):
            return prepared.decisions, (prepared.nary_decisions if counted else None)
        rows = tuples(prepared, config)
        return rows, (nary_decisions(rows) if counted else None)

    def signature_items(self, config: Scoring) -> list[tuple[str, str]]:
        return [("tuples", "attachments+root-leaves")]

    def binarization_items(self, config: Scoring) -> list[tuple[str, str]]:
        """``bin.att`` (the re-binarization before attachment trees, under compatibility mode), then the quirks."""
        rebinarization = attachment_rebinarization(config)
        items = [("bin.att", rebinarization)] if rebinarization else []
        return items + super().binarization_items(config)


PARSEVAL = Parseval()
