"""eRST signals (GUM's ``.rs4`` ``<signal>``) scored as P/R/F1 (docs/metrics/erst.md).

A signal is keyed by the span(s) of the relation it signals, by EDU extents (never node ids): a
node's relation to its parent by the node's extent (the second span ``(0, 0)``), a secondary edge's
relation by the edge's source and target extents (a signal on an edge follows it, whatever its
relation). Measures, each matched as a multiset per document as secondary edges are:

* ``T``: key and type; ``S``: key, type and subtype; ``K``: key, type, subtype and the exact tokens
  (the same 1-based token numbers, in order; a signal with no token matches one with none);
* ``tok``: token overlap of the anchors: every token of a signal is one item (key, type, subtype,
  token), so precision and recall count the anchor tokens, and a signal's tokens are credited where
  the other side has a signal of the same type and subtype on the same relation holding them.

Each signal gives one row of kind 0 ``(start, end, target_start, target_end, type, subtype, tokens,
0, 0)`` and each of its tokens one row of kind 1 ``(..., type, subtype, "", token, 1)``: ``T``, ``S``,
``K`` count the first, ``tok`` the second. Signal types are not mapped by ``--labels``.
"""
from __future__ import annotations

from types import MappingProxyType

from ..tree import RSTTree, SecondaryEdge
from .family import MetricFamily, Row, Scoring

#: the kind column's values: a signal's row, one of its tokens' rows
SIGNAL, TOKEN = 0, 1


class Signals(MetricFamily):
    """One row per signal and one per anchor token (see the module docstring)."""

    name = "signals"
    title = "eRST signals"
    columns = ("target_start", "target_end", "type", "subtype", "tokens", "token", "kind")
    label_columns = frozenset({"type", "subtype", "tokens"})
    measures = MappingProxyType({
        "T": ("target_start", "target_end", "type"),
        "S": ("target_start", "target_end", "type", "subtype"),
        "K": ("target_start", "target_end", "type", "subtype", "tokens"),
        "tok": ("target_start", "target_end", "type", "subtype", "token"),
    })
    table_measures = ("T", "S", "K", "tok")
    relation_column = ""
    default_binarization = "none"
    one_edu_rows = True
    multiset = True
    key_columns = ("target_start", "target_end")
    measure_kinds = MappingProxyType({"T": SIGNAL, "S": SIGNAL, "K": SIGNAL, "tok": TOKEN})
    descriptive_keys = ("signals",)
    in_all = False
    aligned_edus = False

    def rows(self, tree: RSTTree, config: Scoring, *, gold: bool) -> tuple[list[Row], int | None]:
        """The rows of ``tree``'s signals, in file order, each signal's row before its tokens'."""
        rows: list[Row] = []
        for signal in tree.erst.signals:
            source = signal.source
            if isinstance(source, SecondaryEdge):
                key = (*source.source, *source.target)
            else:
                key = (*source, 0, 0)
            rows.append((*key, signal.type, signal.subtype, ",".join(map(str, signal.tokens)), 0, SIGNAL))
            rows += [(*key, signal.type, signal.subtype, "", token, TOKEN) for token in signal.tokens]
        return rows, None

    def signature_items(self, config: Scoring) -> list[tuple[str, str]]:
        return [("signals", "relation-extents-multiset")]


SIGNALS = Signals()
