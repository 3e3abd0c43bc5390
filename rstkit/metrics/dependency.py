"""RST dependency evaluation (Morey, Muller & Asher 2018; docs/metrics/dependency.md).

Each tree becomes a head-ordered dependency tree over its EDUs (:func:`rstkit.dependency.
dependency_records`: ``chain`` or ``tree`` encoding of n-ary nodes, after the configuration's
binarization, ``none`` by default); every EDU gives one row ``(edu, edu, head, label, nuclearity,
rank)``, the real root included (head 0, label ``ROOT``). Rows of the same EDU are compared:
``U`` the head, ``R`` head and label, ``N`` head and nuclearity, ``O`` head and rank, their
conjunctions ``R+N``, ``R+O``, ``O+N`` and ``F`` (all four), and ``tag_R``, ``tag_N``, ``tag_O``
the label, nuclearity or rank alone (``compute_uas_las``'s names; ``eval_disdep.py``'s a, al, an,
ar, aln, alr, alnr are U, R, N, O, R+N, R+O, F on mapped labels).

With aligned EDUs (``edus="aligned"``) a row's key is its EDU's characters and its head is the
head EDU's characters: a dependency counts only when its dependent's EDU is predicted exactly,
and, for the measures that compare heads (all but ``tag_*``), its head's EDU too (the same EDU on
both sides). Precision divides by the predicted EDUs, recall by the gold EDUs; with the same EDUs
on both sides the three are equal. This holds under every ``span_key``: ``first-edu-end`` keys the
spans of the constituency metrics (DMRST's keying), and dependency rows stay keyed by whole EDUs.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from types import MappingProxyType
from typing import cast

import numpy as np

from ..dependency import NUCLEUS_WORD, SATELLITE_WORD, Forest, dependency_records, forest_dependencies
from ..errors import RSTKitError
from ..labels import get_label_map
from ..settings import DEP_ENCODINGS, RST_EVAL, DependencyEncoding, SpanKey
from ..transform import binarize
from ..tree import RSTTree
from .family import FamilySettings, ForestTable, MetricFamily, Row, Scoring


@dataclass(frozen=True)
class DependencySettings(FamilySettings):
    """The dependency family's settings: ``dep_encoding``, how n-ary nodes become dependencies, ``chain``
    (the reference's default) or ``tree``, or ``GOLD,PRED`` to encode the two sides differently
    (``tree,chain`` is what showdown.py does by default); the signature's ``dep``."""

    dep_encoding: str = "chain"

    signature_keys = MappingProxyType({"dep": "dep_encoding"})

    def __post_init__(self) -> None:
        encodings = self.dep_encoding.split(",") if isinstance(self.dep_encoding, str) else [None]
        if len(encodings) > 2 or any(e not in DEP_ENCODINGS for e in encodings):
            raise RSTKitError(f"dep_encoding must be one of {', '.join(DEP_ENCODINGS)} or GOLD,PRED of them, "
                              f"not {self.dep_encoding!r}")

    @property
    def encodings(self) -> tuple[DependencyEncoding, DependencyEncoding]:
        """The dependency encodings of gold and predictions."""
        gold, _, pred = self.dep_encoding.partition(",")
        return cast(DependencyEncoding, gold), cast(DependencyEncoding, pred or gold)


class Dependency(MetricFamily):
    """One head-ordered dependency per EDU (see the module docstring)."""

    name = "dependency"
    title = "RST dependencies"
    columns = ("head", "label", "nuc", "rank")
    label_columns = frozenset({"label", "nuc"})
    edu_columns = ("head",)
    measures = MappingProxyType({
        "U": ("head",), "R": ("head", "label"), "N": ("head", "nuc"), "O": ("head", "rank"),
        "R+N": ("head", "label", "nuc"), "R+O": ("head", "label", "rank"), "O+N": ("head", "rank", "nuc"),
        "F": ("head", "label", "nuc", "rank"), "tag_R": ("label",), "tag_N": ("nuc",), "tag_O": ("rank",)})
    table_measures = ("U", "O", "N", "O+N", "R", "R+N", "F")
    relation_column = "label"
    default_binarization = "none"
    settings_type = DependencySettings
    b1_note = (" inside chain's right_mixed pass",
               ("each is encoded as a star whose dependents share one rank "
                "(docs/metrics/dependency.md#bug-b1-in-dependencies)"))
    one_edu_rows = True

    def rows(self, tree: RSTTree, config: Scoring, *, gold: bool) -> tuple[list[Row], int | None]:
        """One row per EDU of ``tree`` binarized as ``config`` says and converted with the side's
        encoding; under compatibility mode, bug B1 inside ``chain`` and, for gold, its count."""
        label_map, unknown_labels = get_label_map(config.labels), config.unknown_labels
        mode = config.gold_binarization
        if mode != "none":
            tree = binarize(tree, mode)
        encoding = DependencySettings.of(config).encodings[0 if gold else 1]
        compat = config.compat == RST_EVAL
        records = dependency_records(tree, encoding, b1=compat, relabel=label_map.relabeller(unknown_labels))
        rows: list[Row] = [(edu, edu, head, label, nuc, rank) for edu, (head, label, nuc, rank)
                           in enumerate(zip(records.head, records.label, records.nuclearity, records.rank), start=1)]
        return rows, (records.b1_nary if gold and compat and encoding == "chain" else None)

    def reads_forests(self, config: Scoring) -> bool:
        """Without a binarization (which needs the trees)."""
        return config.gold_binarization == "none"

    def forest_tables(self, forest: Forest, config: Scoring, *, gold: bool) -> list[ForestTable | None]:
        """:meth:`rows` of every tree of ``forest`` at once (:func:`rstkit.dependency.forest_dependencies`),
        as tables."""
        encoding = DependencySettings.of(config).encodings[0 if gold else 1]
        compat = config.compat == RST_EVAL
        records = forest_dependencies(forest, encoding, b1=compat,
                                      relabel=get_label_map(config.labels).relabeller(config.unknown_labels))
        n_edus = forest.n_edus
        starts = np.cumsum(n_edus) - n_edus  # every document has an EDU
        table = np.empty((len(records.head), 2 + len(self.columns)), np.int32)
        table[:, 0] = table[:, 1] = np.arange(len(records.head)) - np.repeat(starts, n_edus) + 1
        table[:, 2], table[:, 5] = records.head, records.rank
        # nuclearity codes in order of first appearance: the first EDU's is 0 in its document
        firsts = records.nucleus[starts]
        table[:, 4] = records.nucleus != np.repeat(firsts, n_edus)
        both = np.add.reduceat(table[:, 4], starts) > 0 if len(starts) else np.zeros(0, np.bool_)
        table[:, 3], labels = _codes_by_document(records.label, records.label_names, n_edus)
        counted = gold and compat and encoding == "chain"
        words = (SATELLITE_WORD, NUCLEUS_WORD)
        nuclearities = {(nucleus, two): (words[nucleus], words[not nucleus]) if two else (words[nucleus],)
                        for nucleus in (False, True) for two in (False, True)}
        ends = (starts + n_edus).tolist()
        b1_nary = records.b1_nary.tolist() if counted else [None] * len(ends)
        return [None if failed else (table[start:end], {"label": label_names, "nuc": nuclearities[nucleus, two]}, b1)
                for start, end, failed, label_names, nucleus, two, b1
                in zip(starts.tolist(), ends, records.failed.tolist(), labels, firsts.tolist(), both.tolist(),
                       b1_nary)]

    def signature_items(self, config: Scoring) -> list[tuple[str, str]]:
        return DependencySettings.of(config).signature_items()

    def span_key(self, config: Scoring) -> SpanKey:
        """``chars`` under every ``span_key``: a row is one EDU, which counts only when predicted exactly (its
        first and last character), while ``first-edu-end`` (DMRST's keying of constituents) would key it by its
        last character alone and pass an EDU cut elsewhere."""
        return "chars"


DEPENDENCY = Dependency()


def _codes_by_document(label: np.ndarray, names: list[str | None], n_edus: np.ndarray
                       ) -> tuple[np.ndarray, list[tuple[str, ...]]]:
    """Each EDU's label (``label``: codes into ``names``, the documents' EDUs one after the other, ``n_edus``
    of each) as a code into its document's labels in order of first appearance, and those labels (None, a label
    no map knows, only in a document that failed)."""
    n_docs = len(n_edus)
    if not len(label):
        return np.zeros(0, np.int64), [()] * n_docs
    n = len(label)
    # (document, label) pairs, each with its place: sorted, the first of each pair's run is where it first appears
    placed = np.sort((np.repeat(np.arange(n_docs), n_edus) * len(names) + label) * n + np.arange(n))
    pair, place = placed // n, placed % n
    new = np.ones(n, np.bool_)
    new[1:] = pair[1:] != pair[:-1]
    distinct, first = pair[new], place[new]
    inverse = np.empty(n, np.int64)
    inverse[place] = np.cumsum(new) - 1
    met = np.argsort(first)  # each document's labels in order of first appearance, documents in order
    document = distinct[met] // len(names)
    begins = np.searchsorted(document, np.arange(n_docs + 1)).tolist()
    local = np.empty(len(distinct), np.int64)
    local[met] = np.arange(len(met)) - np.repeat(np.asarray(begins[:-1]), np.diff(begins))
    in_order = list(map(names.__getitem__, (distinct[met] % len(names)).tolist()))
    labels = [tuple(in_order[a:b]) for a, b in pairwise(begins)]
    return local[inverse], cast("list[tuple[str, ...]]", labels)
