"""Documents prepared for scoring: what the pipeline scores, wherever the tree was read.

Every tree is reduced, once, to what scoring needs of it (:class:`PreparedDocument`): its id,
source, EDU count and EDU texts, per metric family its rows (:class:`Rows`: int32 values in
bytes, with the labels they use), and for gold what the warnings count of it. The pipeline
(:func:`rstkit.metrics.evaluate.evaluate_all`) scores prepared documents only: trees given to it
are prepared there, and processes that read an evaluation's files prepare them where they read
them (trees are costly to send between processes; these are small, so reading with several
processes pays even on two cores).

A tree's error under a family (an unknown label, a pattern a binarization rejects) is kept and
raised when the pipeline asks for the rows, so that errors come in the same order wherever the
documents were prepared.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain

import numpy as np

from ..errors import RSTKitError
from ..tree import RSTTree
from .config import EvalConfig
from .counts import TupleArrays, Vocabulary
from .family import MetricFamily, Row


def first_of_each_metric(configs: Iterable[EvalConfig]) -> list[EvalConfig]:
    """The first configuration of each metric, in order (what rows are prepared under)."""
    firsts: dict[str, EvalConfig] = {}
    for config in configs:
        firsts.setdefault(config.metric, config)
    return list(firsts.values())


@dataclass(frozen=True)
class PreparationSpec:
    """How the documents of one side are prepared: the first configuration of each metric, and
    whether it is the gold side (whose nodes left n-ary by bug B1 the warnings count)."""

    configs: tuple[EvalConfig, ...]
    gold: bool


@dataclass(eq=False)
class Rows:
    """One document's rows under one metric family. ``table`` holds one row of int32 per scored
    item, in the family's order: start, end, then the family's value columns (as bytes: cheap to
    pickle and to join); a label column holds codes into its entry of ``labels``, which lists the
    column's labels in order of first appearance."""

    table: bytes
    width: int
    labels: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, rows: Sequence[Row], family: MetricFamily) -> Rows:
        width = 2 + len(family.columns)
        if not rows:
            return cls(b"", width, {name: () for name in family.columns if name in family.label_columns})
        columns = list(zip(*rows))
        labels: dict[str, tuple[str, ...]] = {}
        for i, name in enumerate(family.columns, start=2):
            if name in family.label_columns:
                labels[name] = tuple(dict.fromkeys(columns[i]))
                code = {label: c for c, label in enumerate(labels[name])}
                columns[i] = tuple(map(code.__getitem__, columns[i]))
        return cls(np.array(columns, dtype=_CELL).T.tobytes(), width, labels)

    def __len__(self) -> int:
        return len(self.table) // (self.width * _CELL.itemsize)

    def array(self) -> np.ndarray:
        """The table as an (n, width) array."""
        return np.frombuffer(self.table, dtype=_CELL).reshape(-1, self.width)


_CELL = np.dtype(np.int32)


@dataclass(eq=False)
class PreparedDocument:
    """What scoring needs of one tree (see the module docstring). ``doc_id`` and ``source`` are
    the tree's; ``nary`` holds, for a gold tree, the family's B1 count per metric where it has one."""

    doc_id: str
    source: str | None
    n_edus: int
    edu_texts: tuple[str, ...]
    rows: dict[str, Rows | RSTKitError]
    nary: dict[str, int] = field(default_factory=dict)

    def rows_of(self, metric: str) -> Rows:
        """The rows of ``metric``, or the error the tree gave for them."""
        try:
            outcome = self.rows[metric]
        except KeyError:
            raise RSTKitError(f"document {self.doc_id!r} was prepared without the metric {metric!r}") from None
        if isinstance(outcome, RSTKitError):
            raise outcome
        return outcome


def prepare_document(tree: RSTTree, spec: PreparationSpec) -> PreparedDocument:
    """``tree`` prepared for scoring under ``spec`` (module docstring)."""
    prepared: dict[str, Rows | RSTKitError] = {}
    nary: dict[str, int] = {}
    for config in spec.configs:
        family = config.family
        try:
            rows, count = family.rows(tree, config, gold=spec.gold)
            prepared[config.metric] = Rows.of(rows, family)
            if count is not None:
                nary[config.metric] = count
        except RSTKitError as error:
            prepared[config.metric] = error
    return PreparedDocument(tree.doc_id, tree.source, tree.n_edus, tuple(edu.text for edu in tree.edus), prepared,
                            nary)


def arrays_of_prepared(per_doc: Sequence[Rows | None], family: MetricFamily,
                       vocabularies: dict[str, Vocabulary]) -> TupleArrays:
    """One side's rows as arrays (None: a document without rows), each label column encoded with
    its vocabulary in ``vocabularies`` (filled as it goes: each document's labels in order of first
    appearance, documents in order, is the order of first appearance over the whole side)."""
    prepared = [rows for rows in per_doc if rows is not None]
    lengths = np.fromiter((len(rows) if rows is not None else 0 for rows in per_doc), dtype=np.int64,
                          count=len(per_doc))
    row_lengths = np.fromiter(map(len, prepared), dtype=np.int64, count=len(prepared))
    width = 2 + len(family.columns)
    table = np.frombuffer(b"".join(rows.table for rows in prepared), dtype=_CELL).reshape(-1, width)
    columns: dict[str, np.ndarray] = {}
    for i, name in enumerate(family.columns, start=2):
        if name in family.label_columns:
            columns[name] = _global_codes(table[:, i], [rows.labels[name] for rows in prepared], row_lengths,
                                          vocabularies[name])
        else:
            columns[name] = table[:, i].astype(np.int64)
    return TupleArrays(doc=np.repeat(np.arange(len(per_doc), dtype=np.int64), lengths),
                       start=table[:, 0].astype(np.int64), end=table[:, 1].astype(np.int64), columns=columns,
                       n_docs=len(per_doc))


def _global_codes(local: np.ndarray, labels: list[tuple[str, ...]], row_lengths: np.ndarray,
                  vocab: Vocabulary) -> np.ndarray:
    """Each row's code in ``vocab`` (filled as it goes) from its document's local code."""
    sizes = np.fromiter(map(len, labels), dtype=np.int64, count=len(labels))
    offsets = np.cumsum(sizes) - sizes
    flat = list(chain.from_iterable(labels))
    lookup = np.fromiter(vocab.encode(flat), dtype=np.int64, count=len(flat))
    result: np.ndarray = lookup[np.repeat(offsets, row_lengths) + local]  # each row's code in ``flat``, looked up
    return result
