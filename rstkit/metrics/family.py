"""What a metric family is: the one object the scoring pipeline asks about a metric.

A family (RST-Parseval, original Parseval, dependency) says, in one place: its name and title;
the rows it scores per document (a key ``(start, end)`` and named value columns, some of them
labels); its measures, each the value columns that must be equal on rows of the same key; its
default binarization and the settings of its own (which the signature and the JSON settings
show for it alone); and what the warnings say of gold trees that bug B1 of the reference left
n-ary. The pipeline (:mod:`rstkit.metrics.pipeline`) only calls these; a new family is one
module with a :class:`MetricFamily` and one line in :mod:`rstkit.metrics.registry`.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from ..settings import EvalBinarization, SpanKey
from ..tree import RSTTree

if TYPE_CHECKING:
    from .config import EvalConfig

#: one scored row of a document: ``(start, end, *values)``, values in the family's column order
Row = tuple[Any, ...]


class MetricFamily(ABC):
    """One family of metrics (see the module docstring). Instances are stateless singletons."""

    #: the ``metric`` setting that selects the family
    name: ClassVar[str]
    #: its name in report titles
    title: ClassVar[str]
    #: value columns of a row, after the key ``(start, end)``
    columns: ClassVar[tuple[str, ...]]
    #: those of :attr:`columns` that hold strings (encoded with vocabularies for matching)
    label_columns: ClassVar[frozenset[str]]
    #: those of :attr:`columns` that hold an EDU number (0: none), placed on characters with aligned EDUs
    edu_columns: ClassVar[tuple[str, ...]] = ()
    #: every measure, in the order of the JSON scores, with the value columns equal in a match
    measures: ClassVar[Mapping[str, tuple[str, ...]]]
    #: the measures text, Markdown and LaTeX tables show, in their order
    table_measures: ClassVar[tuple[str, ...]]
    #: the column per-relation reports and the confusion table count, and the measure they match under
    relation_column: ClassVar[str]
    relation_measure: ClassVar[str] = "R"
    #: the binarization before rows are extracted when the configuration names none
    default_binarization: ClassVar[EvalBinarization]
    #: EvalConfig fields that only this family reads (shown in its JSON settings, hidden in others')
    own_settings: ClassVar[tuple[str, ...]] = ()
    #: signature keys of the family's own settings, each with the EvalConfig field it pins
    signature_settings: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: what the warning on gold nodes left n-ary by bug B1 adds: when they are counted, what follows
    b1_note: ClassVar[tuple[str, str]] = ("", "")
    #: whether a one-EDU document has rows (else it is scored with none, and the warnings say so)
    one_edu_rows: ClassVar[bool] = False
    #: whether the family scores tokens (keys are token positions): gold and prediction must then have
    #: the same tokens instead of the same EDUs, and reports give its one measure's P, R, F1 and counts
    #: with the number of gold tokens
    token_level: ClassVar[bool] = False
    #: whether a document's rows may repeat a key: matched counts are then multiset intersections of
    #: ``(document, start, end, *columns)`` per measure (the columns the measure names), not comparisons of
    #: the columns on the one row of each span (:func:`rstkit.metrics.counts.count_multiset_matches`)
    multiset: ClassVar[bool] = False
    #: value columns that belong to a row's key beside ``(start, end)`` (a multiset family's second span)
    key_columns: ClassVar[tuple[str, ...]] = ()
    #: for a multiset family whose rows are of several kinds (its value column ``kind``): the kind of rows
    #: each measure counts (None: every measure counts every row)
    measure_kinds: ClassVar[Mapping[str, int] | None] = None
    #: whether ``--metric all`` scores it with the other tree families (the eRST families are named explicitly)
    in_all: ClassVar[bool] = True
    #: whether it can score with aligned EDUs (``edus="aligned"``); else EvalConfig refuses that setting
    aligned_edus: ClassVar[bool] = True

    @abstractmethod
    def rows(self, tree: RSTTree, config: EvalConfig, *, gold: bool) -> tuple[list[Row], int | None]:
        """The rows of ``tree`` (a gold tree when ``gold``) under ``config`` (its label map and
        binarization), in one walk where possible, and for a gold tree how many of its nodes bug B1
        of the reference left n-ary (None where the configuration has no such warning, and for
        predictions); raises what the tree deserves (unknown label, unsupported pattern...)."""

    def signature_items(self, config: EvalConfig) -> list[tuple[str, str]]:
        """The family's items of the signature, after ``avg``."""
        return []

    def span_key(self, config: EvalConfig) -> SpanKey:
        """How rows are keyed with aligned EDUs (``edus="aligned"``): by ``config.span_key``, a keying of
        spans; a family whose rows are EDUs keys them by their whole characters instead."""
        return config.span_key

    def binarization_items(self, config: EvalConfig) -> list[tuple[str, str]]:
        """The family's items of the signature after ``bin``."""
        return []

    @property
    def measure_names(self) -> tuple[str, ...]:
        return tuple(self.measures)

    def __repr__(self) -> str:
        return f"<metric family {self.name}>"
