"""From gold trees to training inputs.

Training trees are right-heavy binarized (as the scorer binarizes gold) and their labels
mapped to the chosen classes; the oracle then gives every state and gold action.
Documents to parse are read by :mod:`.inputs` and prepared by :class:`.ensemble.ModelEnsemble`.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..boundaries import complete
from ..errors import RSTKitError
from ..labels import LabelMap
from ..transform import binarize
from ..tree import RSTTree
from .encoders import EDUEncoder
from .features import Boundaries, StateArrays
from .inputs import check_input_edus
from .model import IGNORE, ParserInput
from .transition import PAIRS, SHIFT, oracle_states


def training_tree(tree: RSTTree, label_map: LabelMap) -> RSTTree:
    """Right-heavy binarized tree with labels mapped (LabelError for unknown labels)."""
    return label_map.apply(binarize(tree, "right"))


def training_input(tree: RSTTree, encoder: EDUEncoder, relations: Sequence[str], context: int = 3
                   ) -> ParserInput:
    """Inputs, oracle states (as a model of ``context`` items sees them) and gold labels of
    one (binarized, mapped) training tree (sentences inferred where it has none)."""
    edus = complete(tree.edus).edus
    check_input_edus(edus, tree.doc_id, tree.source)
    doc = ParserInput(tree.doc_id, edus, [encoder.text_inputs([e.text for e in edus])], Boundaries.of(edus))
    steps = oracle_states(tree)
    index: dict[str | None, int] = {r: i for i, r in enumerate(relations)}  # a reduce's relation is never None
    try:
        doc.relation = np.array([IGNORE if a.kind == SHIFT else index[a.relation] for _, a in steps], dtype=np.int64)
    except KeyError as exc:
        raise RSTKitError(f"relation {exc.args[0]!r} of document {tree.doc_id!r} is not among the model's "
                          f"relation classes", tree.source) from None
    doc.states = StateArrays.of(doc.boundaries, [view for view, _ in steps], context)
    doc.action = np.array([0 if a.kind == SHIFT else 1 for _, a in steps], dtype=np.int64)
    doc.pair = np.array([IGNORE if a.kind == SHIFT else PAIRS.index(a.pair) for _, a in steps], dtype=np.int64)
    return doc
