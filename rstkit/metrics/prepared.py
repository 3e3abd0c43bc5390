"""Documents prepared for scoring: what the pipeline scores, wherever the tree was read.

Every tree is reduced, once, to what scoring needs of it (:class:`PreparedDocument`): its id,
source, EDU count and EDU texts, per metric family its rows (:class:`Rows`; packed into int32
bytes with the labels they use when sent between processes), and for gold what the warnings
count of it. The pipeline
(:func:`rstkit.metrics.pipeline.evaluate_all`) scores prepared documents only: trees given to it
are prepared there, and processes that read an evaluation's files prepare them where they read
them (trees are costly to send between processes; these are small, so reading with several
processes pays even on two cores).

A tree's error under a family (an unknown label, a pattern a binarization rejects) is kept and
raised when the pipeline asks for the rows, so that errors come in the same order wherever the
documents were prepared.
"""
from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain
from operator import itemgetter
from pathlib import Path
from typing import Any, TypeVar, cast, overload

import numpy as np

from ..errors import RSTKitError
from ..formats import input_names
from ..formats._dis_direct import direct_forest
from ..tree import RSTTree
from .counts import LabelIds, TupleArrays
from .family import ForestTable, MetricFamily, Row, Scoring

_Config = TypeVar("_Config", bound=Scoring)


def first_of_each_metric(configs: Iterable[_Config]) -> list[_Config]:
    """The first configuration of each metric, in order (what rows are prepared under)."""
    firsts: dict[str, _Config] = {}
    for config in configs:
        firsts.setdefault(config.metric, config)
    return list(firsts.values())


@dataclass(frozen=True)
class PreparationSpec:
    """How the documents of one side are prepared: the first configuration of each metric, and
    whether it is the gold side (whose nodes left n-ary by bug B1 the warnings count)."""

    configs: tuple[Scoring, ...]
    gold: bool


class Rows:
    """One document's rows under one metric family: each ``(start, end, *values)`` in the family's
    column order. In the process that made them they stay the walk's list; pickled (sent back by a
    reading process) they travel packed: one row of int32 per scored item, as bytes (cheap to pickle
    and to join), a label column holding codes into its entry of ``labels``, which lists the column's
    labels in order of first appearance. :func:`arrays_of_prepared` gives the same arrays either way."""

    __slots__ = ("_packed", "_rows", "columns", "label_columns")

    def __init__(self, rows: list[Row], family: MetricFamily) -> None:
        self._rows: list[Row] | None = rows
        self._packed: tuple[bytes, dict[str, tuple[str, ...]]] | None = None
        self.columns, self.label_columns = family.columns, family.label_columns

    @classmethod
    def of_table(cls, table: np.ndarray, family: MetricFamily, labels: dict[str, tuple[str, ...]] | None = None
                 ) -> Rows:
        """Rows given as an integer array of one row per scored item (``start, end, *values``), packed at
        once; a label column holds codes into its entry of ``labels`` (needed when the family has label
        columns), in order of first appearance, as :attr:`packed` has them."""
        if set(labels or {}) != set(family.label_columns):
            raise ValueError(f"{family.name}'s label columns are {sorted(family.label_columns)}: give their labels")
        rows = cls([], family)
        rows._rows = None
        rows._packed = np.ascontiguousarray(table, dtype=_CELL).reshape(-1, rows.width).tobytes(), labels or {}
        return rows

    @property
    def width(self) -> int:
        return 2 + len(self.columns)

    @property
    def rows(self) -> list[Row] | None:
        """The rows as the walk gave them (None once packed)."""
        return self._rows

    @property
    def packed(self) -> tuple[bytes, dict[str, tuple[str, ...]]]:
        """``(table, labels)``: the rows as int32 bytes, label columns as codes into ``labels``."""
        if self._packed is None:
            self._packed = _pack(self._rows or [], self.columns, self.label_columns)
        return self._packed

    def __len__(self) -> int:
        if self._rows is not None:
            return len(self._rows)
        return len(self.packed[0]) // (self.width * _CELL.itemsize)

    def __getstate__(self) -> tuple[object, ...]:
        return self.packed, self.columns, self.label_columns

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self._packed, self.columns, self.label_columns = state
        self._rows = None


def _pack(rows: Sequence[Row], columns: tuple[str, ...], label_columns: frozenset[str]
          ) -> tuple[bytes, dict[str, tuple[str, ...]]]:
    if not rows:
        return b"", {name: () for name in columns if name in label_columns}
    transposed = list(zip(*rows))
    labels: dict[str, tuple[str, ...]] = {}
    for i, name in enumerate(columns, start=2):
        if name in label_columns:
            labels[name] = tuple(dict.fromkeys(transposed[i]))
            code = {label: c for c, label in enumerate(labels[name])}
            transposed[i] = tuple(map(code.__getitem__, transposed[i]))
    return np.array(transposed, dtype=_CELL).T.tobytes(), labels


_CELL = np.dtype(np.int32)


class HeldTexts(Sequence[str]):
    """Texts held compactly (cheap to send between processes, and to compare), made a tuple on first need;
    a subclass says how (``_made``), how many there are, and how it pickles. Equal to any sequence of the same
    texts; a subclass may compare two of its own without making them."""

    __slots__ = ("_texts",)

    def __init__(self) -> None:
        self._texts: tuple[str, ...] | None = None

    def _made(self) -> tuple[str, ...]:
        raise NotImplementedError

    def texts(self) -> tuple[str, ...]:
        if self._texts is None:
            self._texts = self._made()
        return self._texts

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        return self.texts()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self.texts())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return self.texts() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class TokenText(HeldTexts):
    """A document's tokens held as one string, joined by tabs (which no token holds: a DISRPT file's
    tokens are a column of its tab-separated lines): two are equal when their strings are."""

    __slots__ = ("size", "text")

    def __init__(self, text: str, size: int) -> None:
        super().__init__()
        self.text, self.size = text, size

    def _made(self) -> tuple[str, ...]:
        return tuple(self.text.split("\t")) if self.size else ()

    def __len__(self) -> int:
        return self.size

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TokenText):
            return self.size == other.size and self.text == other.text
        return super().__eq__(other)

    def __reduce__(self) -> tuple[type[TokenText], tuple[str, int]]:
        return TokenText, (self.text, self.size)


class TokenSpans(HeldTexts):
    """The texts of consecutive spans of a document's tokens (its EDUs), each its tokens joined by
    spaces, each span from one of ``firsts`` (token indexes, the first 0) to the next."""

    __slots__ = ("firsts", "tokens")

    def __init__(self, tokens: TokenText, firsts: np.ndarray) -> None:
        super().__init__()
        self.tokens, self.firsts = tokens, np.asarray(firsts, dtype=_CELL)

    def _made(self) -> tuple[str, ...]:
        words = self.tokens.texts()
        firsts = self.firsts.tolist()
        return tuple(" ".join(words[a:b]) for a, b in zip(firsts, [*firsts[1:], len(words)]))

    def __len__(self) -> int:
        return len(self.firsts)

    def __reduce__(self) -> tuple[type[TokenSpans], tuple[TokenText, np.ndarray]]:
        return TokenSpans, (self.tokens, self.firsts)


_OFFSET_SIZE = array("i").itemsize


class JoinedTexts(HeldTexts):
    """A document's EDU texts held as one string and where each ends (int32 offsets, as bytes): what a reading
    process sends back of the EDUs; two are equal when their strings and ends are."""

    __slots__ = ("ends", "text")

    def __init__(self, text: str, ends: bytes) -> None:
        super().__init__()
        self.text, self.ends = text, ends

    @classmethod
    def of(cls, texts: Sequence[str]) -> JoinedTexts:
        return cls("".join(texts), array("i", accumulate(map(len, texts))).tobytes())

    def _made(self) -> tuple[str, ...]:
        ends = array("i")
        ends.frombytes(self.ends)
        text = self.text
        return tuple(text[a:b] for a, b in zip([0, *ends], ends))

    def __len__(self) -> int:
        return len(self.ends) // _OFFSET_SIZE

    def __eq__(self, other: object) -> bool:
        if isinstance(other, JoinedTexts):
            return self.ends == other.ends and self.text == other.text
        return super().__eq__(other)

    def __repr__(self) -> str:
        return f"JoinedTexts.of({list(self.texts())!r})"

    def __reduce__(self) -> tuple[type[JoinedTexts], tuple[str, bytes]]:
        return JoinedTexts, (self.text, self.ends)


@dataclass(eq=False)
class PreparedDocument:
    """What scoring needs of one tree (see the module docstring). ``doc_id`` and ``source`` are
    the tree's; ``nary`` holds, for a gold tree, the family's B1 count per metric where it has one."""

    doc_id: str
    source: str | None
    n_edus: int
    edu_texts: Sequence[str]
    rows: dict[str, Rows | RSTKitError]
    nary: dict[str, int] = field(default_factory=dict)
    #: the document's tokens where its source gives them (DISRPT files); else its EDUs' whitespace tokens
    given_tokens: Sequence[str] | None = None

    @property
    def tokens(self) -> Sequence[str]:
        """The document's tokens (what token-level families score)."""
        if self.given_tokens is not None:
            return self.given_tokens
        return tuple(word for text in self.edu_texts for word in text.split())

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
            prepared[config.metric] = Rows(rows, family)
            if count is not None:
                nary[config.metric] = count
        except RSTKitError as error:
            prepared[config.metric] = error
    return PreparedDocument(tree.doc_id, tree.source, tree.n_edus, tuple(edu.text for edu in tree.edus), prepared,
                            nary)


@dataclass(frozen=True)
class Preparer:
    """What processes reading one side's files send back (:func:`rstkit.corpus.files.read_files`'s
    ``worker_result``): each tree prepared under ``spec``, and, where every metric's family reads forests
    (:meth:`MetricFamily.reads_forests`), ``.dis`` files prepared straight from their texts, many at once,
    without trees (:func:`rstkit.formats._dis_direct.direct_forest`): the same documents, faster."""

    spec: PreparationSpec

    def __call__(self, tree: RSTTree) -> PreparedDocument:
        return prepare_document(tree, self.spec)

    @property
    def text_formats(self) -> frozenset[str]:
        """The formats whose files :meth:`from_texts` prepares (none, or ``dis``)."""
        if all(config.family.reads_forests(config) for config in self.spec.configs):
            return frozenset({"dis"})
        return frozenset()

    def from_texts(self, paths: Sequence[Path], texts: Sequence[str], encoded: Sequence[bytes] | None = None
                   ) -> list[PreparedDocument | None]:
        """The documents of ``.dis`` files given with their texts, prepared as trees read from them would
        be; None for a file read no further (one the tree path must read: an irregular layout, an error,
        a warning; or a tree a family refuses, whose error the tree path raises)."""
        forest, edu_texts, read = direct_forest(texts, encoded)
        tables = {config.metric: config.family.forest_tables(forest, config, gold=self.spec.gold)
                  for config in self.spec.configs}
        documents: list[PreparedDocument | None] = []
        t = -1  # the file's place among those read
        for path, is_read in zip(paths, read.tolist()):
            if not is_read:
                documents.append(None)
                continue
            t += 1
            made = [tables[config.metric][t] for config in self.spec.configs]
            if any(table is None for table in made):
                documents.append(None)
                continue
            source, doc_id = input_names(path, None)
            rows: dict[str, Rows | RSTKitError] = {}
            nary: dict[str, int] = {}
            for config, (table, labels, count) in zip(self.spec.configs, cast("list[ForestTable]", made)):
                rows[config.metric] = Rows.of_table(table, config.family, labels)
                if count is not None:
                    nary[config.metric] = count
            text, ends = edu_texts[t]
            documents.append(PreparedDocument(doc_id, source, int(forest.n_edus[t]), JoinedTexts(text, ends.tobytes()),
                                              rows, nary))
        return documents


def arrays_of_prepared(per_doc: Sequence[Rows | None], family: MetricFamily,
                       vocabularies: dict[str, LabelIds]) -> TupleArrays:
    """One side's rows as arrays (None: a document without rows), each label column encoded with
    its vocabulary in ``vocabularies`` (filled as it goes: each document's labels in order of first
    appearance, documents in order, is the order of first appearance over the whole side)."""
    present = [rows for rows in per_doc if rows is not None]
    with_rows = np.flatnonzero(np.fromiter((rows is not None for rows in per_doc), np.bool_, len(per_doc)))
    if all(rows.rows is not None for rows in present):  # made in this process: straight from the lists
        doc = np.repeat(with_rows, np.fromiter(map(len, present), dtype=np.int64, count=len(present)))
        flat = list(chain.from_iterable(cast(list[Row], rows.rows) for rows in present))
        n = len(flat)
        table = {i: list(map(itemgetter(i), flat)) for i in range(2 + len(family.columns))}
        columns = {name: (np.fromiter(vocabularies[name].encode(table[i]), dtype=np.int64, count=n)
                          if name in family.label_columns else np.fromiter(table[i], dtype=np.int64, count=n))
                   for i, name in enumerate(family.columns, start=2)}
        return TupleArrays(doc=doc, start=np.fromiter(table[0], dtype=np.int64, count=n),
                           end=np.fromiter(table[1], dtype=np.int64, count=n), columns=columns, n_docs=len(per_doc))
    packed = [rows.packed for rows in present]
    width = 2 + len(family.columns)
    row_lengths = np.fromiter((len(table) for table, _ in packed), dtype=np.int64, count=len(packed)) // (
        width * _CELL.itemsize)
    doc = np.repeat(with_rows, row_lengths)
    rows_table = np.frombuffer(b"".join(table for table, _ in packed), dtype=_CELL).reshape(-1, width)
    columns = {}
    for i, name in enumerate(family.columns, start=2):
        if name in family.label_columns:
            columns[name] = _global_codes(rows_table[:, i], [labels[name] for _, labels in packed], row_lengths,
                                          vocabularies[name])
        else:
            columns[name] = rows_table[:, i].astype(np.int64)
    return TupleArrays(doc=doc, start=rows_table[:, 0].astype(np.int64), end=rows_table[:, 1].astype(np.int64),
                       columns=columns, n_docs=len(per_doc))


def _global_codes(local: np.ndarray, labels: list[tuple[str, ...]], row_lengths: np.ndarray,
                  vocab: LabelIds) -> np.ndarray:
    """Each row's code in ``vocab`` (filled as it goes) from its document's local code."""
    sizes = np.fromiter(map(len, labels), dtype=np.int64, count=len(labels))
    offsets = np.cumsum(sizes) - sizes
    flat = list(chain.from_iterable(labels))
    lookup = np.fromiter(vocab.encode(flat), dtype=np.int64, count=len(flat))
    result: np.ndarray = lookup[np.repeat(offsets, row_lengths) + local]  # each row's code in ``flat``, looked up
    return result
