"""eRST secondary edges (GUM's ``.rs4`` ``<secedge>``) scored as P/R/F1 (docs/metrics/erst.md).

A secondary edge is keyed by the EDU extents of its source and target nodes
(:class:`rstkit.tree.SecondaryEdge`), never by a file's node ids, so that two files of one document
need not number their nodes alike. Every edge gives one row ``(source_start, source_end,
target_start, target_end, relation)``, the relation through the configuration's label map as the
tree's relations are. ``U`` matches an edge by its two extents, ``R`` by its extents and relation.

A document may hold several edges between the same two nodes (GUM_conversation_family has two, of
different relations), so a document's edges are a multiset and matching is multiset intersection:
per document, ``U`` matches ``min(gold, predicted)`` edges of each (source, target) pair, ``R`` of each
(source, target, relation); supports are the numbers of edges. Nodes are extents, and binarization
only adds nodes, so edges do not depend on the binarization. With aligned EDUs the family is refused.
"""
from __future__ import annotations

from types import MappingProxyType

from ..labels import get_label_map
from ..tree import RSTTree
from .family import MetricFamily, Row, Scoring


class SecondaryEdges(MetricFamily):
    """One row per secondary edge (see the module docstring)."""

    name = "secondary-edges"
    title = "eRST secondary edges"
    columns = ("target_start", "target_end", "relation")
    label_columns = frozenset({"relation"})
    measures = MappingProxyType({"U": ("target_start", "target_end"),
                                 "R": ("target_start", "target_end", "relation")})
    table_measures = ("U", "R")
    relation_column = "relation"
    default_binarization = "none"
    one_edu_rows = True
    multiset = True
    key_columns = ("target_start", "target_end")
    descriptive_keys = ("edges",)
    in_all = False
    aligned_edus = False

    def rows(self, tree: RSTTree, config: Scoring, *, gold: bool) -> tuple[list[Row], int | None]:
        """One row per secondary edge of ``tree``, in file order, its relation mapped by ``config``'s
        label map (an unknown one raises LabelError naming the file, unless unknown labels are kept)."""
        label_map, unknown_labels = get_label_map(config.labels), config.unknown_labels
        return [(edge.source[0], edge.source[1], edge.target[0], edge.target[1],
                 label_map.map(edge.relation, unknown_labels, tree.source))
                for edge in tree.erst.secondary_edges], None

    def signature_items(self, config: Scoring) -> list[tuple[str, str]]:
        return [("edges", "extents-multiset")]


SECONDARY_EDGES = SecondaryEdges()
