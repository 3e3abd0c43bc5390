"""RST-Parseval (Marcu 2000): tuples of Marcu's encoding (docs/metrics/rst-parseval.md).

Every node but the root gives ``(start, end, nuclearity, relation)``, EDU leaves
included; the relation is the node's rel2par (``span`` on nuclei of mononuclear
relations counts as a label). A binary tree over n >= 2 EDUs gives 2n - 2 tuples.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, ClassVar

from ..labels import get_label_map
from ..settings import RST_EVAL
from ..transform import PreparedWalk, binarize, marcu_tuples, nary_nodes, prepared_walk
from ..tree import RSTTree
from .family import MetricFamily, Row, Scoring
from .quirks import ConstituencySettings, quirk_rows

#: the binarizations of gold trees that bug B1 of the reference can leave n-ary
B1_BINARIZATIONS = (RST_EVAL, "right_mixed")

#: the measures of the constituency families: span, nuclearity, relation, full (Marcu 2000; Morey et al. 2017)
CONSTITUENCY_MEASURES = MappingProxyType({"S": (), "N": ("nuc",), "R": ("rel",), "F": ("nuc", "rel")})


def tuples(tree: RSTTree, config: Scoring) -> list[tuple[int, int, str, str]]:
    """RST-Parseval tuples of an already binarized and relabelled tree."""
    return marcu_tuples(tree)


def walk_or_prepare(tree: RSTTree, config: Scoring, **walk_options: Any) -> PreparedWalk | RSTTree:
    """What the constituency families take their rows from: the one walk of ``tree`` under
    ``config``'s label map and binarization (:func:`rstkit.transform.prepared_walk`, which builds no
    tree), or where it declines, the tree relabelled and binarized the long way (which raises the
    tree's error, if it has one)."""
    label_map, unknown_labels = get_label_map(config.labels), config.unknown_labels
    walked = prepared_walk(tree, config.gold_binarization, label_map.relabeller(unknown_labels), **walk_options)
    return walked if walked is not None else binarize(label_map.apply(tree, unknown_labels), config.gold_binarization)


class ConstituencyFamily(MetricFamily):
    """What the two constituency families share: a (nuclearity, relation) row per span, the measures
    S/N/R/F, right-heavy binarization by default."""

    columns = ("nuc", "rel")
    label_columns = frozenset(columns)
    measures = CONSTITUENCY_MEASURES
    table_measures = tuple(CONSTITUENCY_MEASURES)
    relation_column = "rel"
    default_binarization = "right"
    settings_type = ConstituencySettings
    descriptive_keys: ClassVar[tuple[str, ...]] = ("tuples",)

    def binarization_items(self, config: Scoring) -> list[tuple[str, str]]:
        """The quirks that are on (:class:`~rstkit.metrics.quirks.ConstituencySettings`)."""
        return ConstituencySettings.of(config).signature_items()


class RSTParseval(ConstituencyFamily):
    """Marcu's nodes, root excluded, leaves included."""

    name = "rst-parseval"
    title = "RST-Parseval"
    b1_note = ("", "RST-Parseval supports fall below 2n-2")

    def rows(self, tree: RSTTree, config: Scoring, *, gold: bool) -> tuple[list[Row], int | None]:
        """``tuples(binarize(relabelled tree), config)``, the same list and the same errors, mostly
        without building the prepared tree (:func:`rstkit.transform.prepared_walk`); under a gold
        binarization of :data:`B1_BINARIZATIONS`, the nodes it leaves n-ary in a gold tree."""
        if ConstituencySettings.of(config).has_quirks:
            return list(quirk_rows(tree, config, marcu=True)), None
        counted = gold and config.gold_binarization in B1_BINARIZATIONS
        prepared = walk_or_prepare(tree, config, decisions=False)
        if isinstance(prepared, PreparedWalk):
            return prepared.marcu, (prepared.nary_nodes if counted else None)
        return tuples(prepared, config), (len(nary_nodes(prepared)) if counted else None)

    def signature_items(self, config: Scoring) -> list[tuple[str, str]]:
        return [("tuples", "nodes-root+leaves")]


RST_PARSEVAL = RSTParseval()
