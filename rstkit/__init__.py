"""rstkit: RST discourse parsing and its exact, reproducible evaluation.

The public API in one place::

    from rstkit import read_tree, RSTTree, binarize, to_attachment, get_label_map
"""
from __future__ import annotations

__version__ = "0.1.0"

from .corpus import read_documents, read_tree
from .errors import RSTKitError, RSTKitWarning
from .labels import LabelMap, canonical_label, get_label_map
from .transform import attachment_decisions, binarize, from_attachment, marcu_tuples, to_attachment
from .tree import EDU, Node, RSTTree, from_nltk, to_nltk, validate

__all__ = [
    "EDU",
    "LabelMap",
    "Node",
    "RSTKitError",
    "RSTKitWarning",
    "RSTTree",
    "__version__",
    "attachment_decisions",
    "binarize",
    "canonical_label",
    "from_attachment",
    "from_nltk",
    "get_label_map",
    "marcu_tuples",
    "read_documents",
    "read_tree",
    "to_attachment",
    "to_nltk",
    "validate",
]
