"""Documents prepared for scoring where they are read.

A process that reads files for an evaluation sends back, instead of each tree, what scoring
needs of it (:class:`PreparedDocument`): its id, source, EDU count and EDU texts, per metric its
tuples as int32 rows in bytes with the labels they use, and for gold what the warnings count of
it. Trees are costly to send between processes (unpickling them cost the parent about as much as
reading them); these are small, so reading with several processes pays even on two cores.

Everything is what :func:`rstkit.metrics.evaluate.evaluate_all` computes from the tree: the same
tuples in the same order, and the same error, kept here and raised when the pipeline asks for
the tuples (so that errors come in the order they would from trees). Nothing scored depends on
where a document was prepared.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Protocol

import numpy as np

from ..errors import RSTKitError
from ..labels import LabelMap, get_label_map
from ..settings import RST_EVAL, Binarization, Metric
from ..transform import binarize, nary_nodes
from ..tree import RSTTree
from . import parseval, rst_parseval
from .config import EvalConfig
from .counts import TupleArrays, Vocabulary


class MetricModule(Protocol):
    """What the pipeline needs of a metric's module (:mod:`.rst_parseval`, :mod:`.parseval`)."""

    def prepared_tuples(self, tree: RSTTree, label_map: LabelMap, passthrough: bool, mode: Binarization,
                        config: EvalConfig) -> list[tuple[int, int, str, str]]: ...


METRIC_MODULES: dict[Metric, MetricModule] = {rst_parseval.NAME: rst_parseval, parseval.NAME: parseval}

#: the binarizations of gold trees that bug B1 of the reference can leave n-ary
B1_BINARIZATIONS = (RST_EVAL, "right_mixed")


def first_of_each_metric(configs: Iterable[EvalConfig]) -> list[EvalConfig]:
    """The first configuration of each metric, in order (what tuples are prepared under)."""
    firsts: dict[Metric, EvalConfig] = {}
    for config in configs:
        firsts.setdefault(config.metric, config)
    return list(firsts.values())


def b1_nary(tree: RSTTree, tuples: list[tuple[int, int, str, str]], config: EvalConfig) -> int | None:
    """What the warnings count of a gold ``tree`` (with its ``tuples``) that bug B1 of the reference
    left n-ary: original Parseval after educe's ``right_mixed`` pass, the decisions of a node still
    n-ary (:func:`~rstkit.metrics.parseval.nary_decisions`); RST-Parseval under a gold binarization
    of :data:`B1_BINARIZATIONS`, the nodes it leaves n-ary; None where ``config`` has no such warning."""
    if config.metric == parseval.NAME:
        return parseval.nary_decisions(tuples) if config.attachment_rebinarization else None
    if config.gold_binarization in B1_BINARIZATIONS:
        return len(nary_nodes(binarize(tree, config.gold_binarization)))
    return None


@dataclass(frozen=True)
class PreparationSpec:
    """How the documents of one side are prepared: the first configuration of each metric (they
    differ in metric only), the side's binarization, and whether it is the gold side (whose
    nodes left n-ary by bug B1 the warnings count)."""

    configs: tuple[EvalConfig, ...]
    binarization: Binarization
    gold: bool


@dataclass(eq=False)
class PreparedTuples:
    """One document's tuples under one metric. ``table`` holds one row of four int32 per tuple, in
    the pipeline's order: start, end, nuclearity code, relation code (as bytes: cheap to pickle
    and to join); the codes index ``nuclearities`` and ``relations``, which list the labels in
    order of first appearance."""

    table: bytes
    nuclearities: tuple[str, ...]
    relations: tuple[str, ...]

    @classmethod
    def of(cls, tuples: Sequence[tuple[int, int, str, str]]) -> PreparedTuples:
        if not tuples:
            return cls(b"", (), ())
        starts, ends, nucs, rels = zip(*tuples)
        nuclearities, relations = tuple(dict.fromkeys(nucs)), tuple(dict.fromkeys(rels))
        nuc_code = {label: code for code, label in enumerate(nuclearities)}
        rel_code = {label: code for code, label in enumerate(relations)}
        columns = np.array([starts, ends, list(map(nuc_code.__getitem__, nucs)),
                            list(map(rel_code.__getitem__, rels))], dtype=_CELL)
        return cls(columns.T.tobytes(), nuclearities, relations)

    def __len__(self) -> int:
        return len(self.table) // _ROW_BYTES

    def rows(self) -> np.ndarray:
        """The table as an (n, 4) array."""
        return np.frombuffer(self.table, dtype=_CELL).reshape(-1, 4)


_CELL = np.dtype(np.int32)
_ROW_BYTES = 4 * _CELL.itemsize


@dataclass(eq=False)
class PreparedDocument:
    """What scoring needs of one tree (see the module docstring). ``doc_id`` and ``source`` are
    the tree's; ``nary`` holds, for a gold tree, :func:`b1_nary` per metric where it is not None."""

    doc_id: str
    source: str | None
    n_edus: int
    edu_texts: tuple[str, ...]
    tuples: dict[Metric, PreparedTuples | RSTKitError]
    nary: dict[Metric, int] = field(default_factory=dict)

    def prepared_tuples(self, metric: Metric) -> PreparedTuples:
        """The tuples of ``metric``, or the error the tree gave for them."""
        outcome = self.tuples[metric]
        if isinstance(outcome, RSTKitError):
            raise outcome
        return outcome


def prepare_document(tree: RSTTree, spec: PreparationSpec) -> PreparedDocument:
    """``tree`` prepared for scoring under ``spec`` (module docstring)."""
    tuples: dict[Metric, PreparedTuples | RSTKitError] = {}
    nary: dict[Metric, int] = {}
    for config in spec.configs:
        label_map = get_label_map(config.labels)
        try:
            listed = METRIC_MODULES[config.metric].prepared_tuples(tree, label_map, config.unknown_labels == "keep",
                                                                   spec.binarization, config)
            tuples[config.metric] = PreparedTuples.of(listed)
            count = b1_nary(tree, listed, config) if spec.gold else None  # binarizes as the tuples just did
            if count is not None:
                nary[config.metric] = count
        except RSTKitError as error:
            tuples[config.metric] = error
    return PreparedDocument(tree.doc_id, tree.source, tree.n_edus, tuple(edu.text for edu in tree.edus), tuples,
                            nary)


def arrays_of_prepared(per_doc: Sequence[PreparedTuples | list[tuple[int, int, str, str]]], nuc_vocab: Vocabulary,
                       rel_vocab: Vocabulary) -> TupleArrays:
    """:meth:`TupleArrays.from_tuples` of prepared documents (an empty list: a document without
    tuples): the same arrays, and the vocabularies filled in the same order (each document's
    labels in order of first appearance, documents in order, is the order of first appearance
    over the whole side)."""
    prepared = [p for p in per_doc if isinstance(p, PreparedTuples)]
    lengths = np.fromiter((len(p) if isinstance(p, PreparedTuples) else 0 for p in per_doc),
                          dtype=np.int64, count=len(per_doc))
    row_lengths = np.fromiter(map(len, prepared), dtype=np.int64, count=len(prepared))
    rows = np.frombuffer(b"".join(p.table for p in prepared), dtype=_CELL).reshape(-1, 4)
    return TupleArrays(
        doc=np.repeat(np.arange(len(per_doc), dtype=np.int64), lengths),
        start=rows[:, 0].astype(np.int64),
        end=rows[:, 1].astype(np.int64),
        nuc=_global_codes(rows[:, 2], [p.nuclearities for p in prepared], row_lengths, nuc_vocab),
        rel=_global_codes(rows[:, 3], [p.relations for p in prepared], row_lengths, rel_vocab),
        n_docs=len(per_doc),
    )


def _global_codes(local: np.ndarray, labels: list[tuple[str, ...]], row_lengths: np.ndarray,
                  vocab: Vocabulary) -> np.ndarray:
    """Each row's code in ``vocab`` (filled as it goes) from its document's local code."""
    sizes = np.fromiter(map(len, labels), dtype=np.int64, count=len(labels))
    offsets = np.cumsum(sizes) - sizes
    flat = list(chain.from_iterable(labels))
    lookup = np.fromiter(vocab.encode(flat), dtype=np.int64, count=len(flat))
    result: np.ndarray = lookup[np.repeat(offsets, row_lengths) + local]  # each row's code in ``flat``, looked up
    return result
