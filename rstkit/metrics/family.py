"""What a metric family is: the one object the scoring pipeline asks about a metric.

A family (RST-Parseval, original Parseval, dependency) says, in one place: its name and title;
the rows it scores per document (a key ``(start, end)`` and named value columns, some of them
labels); its measures, each the value columns that must be equal on rows of the same key; its
default binarization; its own settings (:class:`FamilySettings`: their fields and defaults, their
validation, their signature keys), which the signature and the JSON settings show for it alone; what
it scores (:attr:`MetricFamily.token_level`) and how gold and prediction must agree for it
(:meth:`MetricFamily.check_pair`); and what the warnings say of gold trees that bug B1 of the
reference left n-ary. The pipeline (:mod:`rstkit.metrics.pipeline`) only calls these; a new family is
one module with a :class:`MetricFamily` (and its settings) and one line in :mod:`rstkit.metrics.registry`.

A family reads the configuration it scores under as a :class:`Scoring` (what
:class:`rstkit.metrics.config.EvalConfig` is), so that no family module imports the configuration.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, Self, get_args, get_origin, get_type_hints

from ..errors import RSTKitError
from ..settings import Binarization, Compat, EduMode, EvalBinarization, SpanKey, UnknownLabels
from ..tree import RSTTree
from .edus import Document, check_same_edus

if TYPE_CHECKING:
    import numpy as np

    from ..dependency import Forest

#: a document's rows as a table (:meth:`MetricFamily.forest_tables`): int32 rows, label columns' labels, B1 count
ForestTable = tuple["np.ndarray", dict[str, tuple[str, ...]], int | None]

#: one scored row of a document: ``(start, end, *values)``, values in the family's column order
Row = tuple[Any, ...]


@dataclass(frozen=True)
class FamilySettings:
    """The settings of one metric family, beside those every family shares: a frozen dataclass whose
    fields are the settings (by the keyword :class:`~rstkit.metrics.config.EvalConfig` takes them),
    whose defaults are the family's, and whose ``__post_init__`` checks each alone: here, that a setting
    whose type is a ``Literal`` (of :mod:`rstkit.settings`) has one of its values, else an
    :class:`~rstkit.errors.RSTKitError` naming the setting. A family without settings of its own has this
    one, empty."""

    #: the signature key of each field (:meth:`rstkit.metrics.config.EvalConfig.from_signature` reads them)
    signature_keys: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: the fields that the signature and the JSON settings show only where they differ from their defaults
    quiet: ClassVar[frozenset[str]] = frozenset()

    def __post_init__(self) -> None:
        hints = get_type_hints(type(self))
        for setting in fields(self):
            allowed, value = get_args(hints[setting.name]), getattr(self, setting.name)
            if get_origin(hints[setting.name]) is Literal and value not in allowed:
                raise RSTKitError(f"{setting.name} must be one of {', '.join(allowed)}, not {value!r}")

    def check(self, config: Scoring) -> None:
        """Raise RSTKitError where these settings cannot go with the shared settings of ``config``."""

    def items(self) -> dict[str, Any]:
        """The settings by name, less the quiet ones at their defaults (what the JSON settings show)."""
        defaults = {f.name: f.default for f in fields(self)}
        return {name: value for name, value in asdict(self).items()
                if not (name in self.quiet and value == defaults[name])}

    def signature_items(self) -> list[tuple[str, str]]:
        """``(key, value)`` of the settings the signature shows (quiet ones only where not their defaults)."""
        shown = self.items()
        keys = {name: key for key, name in self.signature_keys.items()}
        return [(keys[name], str(value)) for name, value in shown.items() if name in keys]

    @classmethod
    def of(cls, config: Scoring) -> Self:
        """``config``'s family settings, as this type (what a family's code reads its own settings by)."""
        settings = config.settings
        assert isinstance(settings, cls), f"{config.metric} has {type(settings).__name__}, not {cls.__name__}"
        return settings


class Scoring(Protocol):
    """What a family reads of the configuration it scores under (:class:`~rstkit.metrics.config.EvalConfig`)."""

    @property
    def metric(self) -> str: ...
    @property
    def labels(self) -> str: ...
    @property
    def unknown_labels(self) -> UnknownLabels: ...
    @property
    def binarize(self) -> EvalBinarization: ...
    @property
    def compat(self) -> Compat | None: ...
    @property
    def edus(self) -> EduMode: ...
    @property
    def span_key(self) -> SpanKey: ...
    @property
    def lenient(self) -> bool: ...
    @property
    def settings(self) -> FamilySettings: ...
    @property
    def gold_binarization(self) -> Binarization: ...
    @property
    def family(self) -> MetricFamily: ...


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
    #: the type of the family's own settings (their fields, defaults, validation and signature keys)
    settings_type: ClassVar[type[FamilySettings]] = FamilySettings
    #: the keys of the family's signature items that are no setting of its own: those that describe what it
    #: scores (``tuples``, ``seg``, ``docinit``, ``edges``, ``signals``) or follow from the shared settings
    #: (``bin.att``); its settings' keys are :attr:`FamilySettings.signature_keys`
    descriptive_keys: ClassVar[tuple[str, ...]] = ()
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
    def rows(self, tree: RSTTree, config: Scoring, *, gold: bool) -> tuple[list[Row], int | None]:
        """The rows of ``tree`` (a gold tree when ``gold``) under ``config`` (its label map and
        binarization), in one walk where possible, and for a gold tree how many of its nodes bug B1
        of the reference left n-ary (None where the configuration has no such warning, and for
        predictions); raises what the tree deserves (unknown label, unsupported pattern...)."""

    def reads_forests(self, config: Scoring) -> bool:
        """Whether :meth:`forest_tables` gives the rows under ``config`` (no family does by default)."""
        return False

    def forest_tables(self, forest: Forest, config: Scoring, *, gold: bool) -> list[ForestTable | None]:
        """What :meth:`rows` gives each tree of ``forest`` (several documents' nodes read as arrays, no
        tree: :class:`~rstkit.dependency.Forest`), where :meth:`reads_forests`, as a table: ``(rows, labels,
        count)``, the rows as int32 in :meth:`rows`' order, each label column as codes into its entry of
        ``labels`` (the column's labels in order of first appearance), and the B1 count; None for a tree
        :meth:`rows` would refuse (it is then read as a tree, which raises the error)."""
        raise NotImplementedError(f"{self.name} reads no forests")

    def signature_items(self, config: Scoring) -> list[tuple[str, str]]:
        """The family's items of the signature, after ``avg``."""
        return []

    def check_pair(self, gold: Document, pred: Document, config: Scoring, notes: list[str]) -> None:
        """Raise an EDUMismatchError unless gold and prediction of one document can be scored together
        (with ``lenient``, add a warning to ``notes`` where they can be, differently): the same EDUs with
        gold EDUs (:func:`~rstkit.metrics.edus.check_same_edus`); with aligned EDUs, their texts are
        placed on each other instead (:mod:`rstkit.metrics.aligned`), which checks them."""
        if config.edus == "gold":
            check_same_edus(gold, pred, config.lenient, notes)

    def span_key(self, config: Scoring) -> SpanKey:
        """How rows are keyed with aligned EDUs (``edus="aligned"``): by ``config.span_key``, a keying of
        spans; a family whose rows are EDUs keys them by their whole characters instead."""
        return config.span_key

    def binarization_items(self, config: Scoring) -> list[tuple[str, str]]:
        """The family's items of the signature after ``bin``."""
        return []

    @property
    def own_settings(self) -> tuple[str, ...]:
        """The names of the family's own settings (those :class:`~rstkit.metrics.config.EvalConfig` takes for it)."""
        return tuple(f.name for f in fields(self.settings_type))

    @property
    def measure_names(self) -> tuple[str, ...]:
        return tuple(self.measures)

    def __repr__(self) -> str:
        return f"<metric family {self.name}>"
