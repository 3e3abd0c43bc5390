"""Per-relation precision / recall / F1, a relation confusion table over matched spans, and
whether the relation labels of gold and prediction meet at all.

All work on any metric family's rows: ``relation`` names the column holding the relation label
(``rel`` for the constituency families, ``label`` for dependencies), ``match`` the columns that must
be equal for a row to count as matched under the family's relation measure (R).

Label sets that do not meet (:class:`LabelSets`): a relation label token is a row's relation label
as scored (after the label map); ``span`` (Marcu's nucleus marker) and the dependency root's ``ROOT``
are structure, not relations, and do not count. The label sets *meet* when at least half
(:data:`MEETING_SHARE`) of the prediction's tokens on spans the gold also has (the rows R can match)
have a label that occurs among the gold's tokens; otherwise R and F compare inventories, not relations
(GUM's fine labels against its classes score R = 0 with S = 100), and the pipeline warns, naming each
side's most frequent labels and the built-in label maps under which they would meet. Measured where
the prediction has tokens on the gold's spans and the gold has tokens.

A multiset family (rows that may repeat a key: secondary edges; ``multiset_key`` names the value
columns that complete its key) counts matched rows per relation as its R measure does (multiset
intersection, :func:`rstkit.metrics.counts.multiset_matched`); its confusion table pairs the rows of
the keys that each side has exactly once (a key held several times on a side has no one pairing).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dependency import ROOT_LABEL
from ..errors import printable
from ..labels import LabelMap, get_label_map, label_map_names
from ..settings import ZERO_DIVISION, UnknownLabels, ZeroDivision
from ..tree import SPAN
from .average import f1_score, percent
from .counts import KeyCodec, TupleArrays, align_spans, multiset_matched, row_ids


@dataclass(frozen=True)
class RelationReport:
    """Per-label counts (micro over the corpus) for the R tuples ``(span, relation)``."""

    labels: list[str]
    gold: np.ndarray
    pred: np.ndarray
    matched: np.ndarray

    def rows(self, *, zero_division: ZeroDivision = ZERO_DIVISION) -> list[dict[str, Any]]:
        """One dict per label that occurs: label, gold, pred, matched, precision, recall, f1 (percent).

        A label never predicted has precision ``zero_division`` (x 100), one not in the gold
        recall ``zero_division`` (see :func:`~rstkit.metrics.average.divide`)."""
        rows = []
        for i, label in enumerate(self.labels):
            g, p, m = int(self.gold[i]), int(self.pred[i]), int(self.matched[i])
            if g == 0 and p == 0:
                continue
            prec = float(percent(m, p, zero_division=zero_division))
            rec = float(percent(m, g, zero_division=zero_division))
            f1 = float(f1_score(prec, rec))
            rows.append({"label": label, "gold": g, "pred": p, "matched": m,
                         "precision": prec, "recall": rec, "f1": f1})
        return sorted(rows, key=lambda r: (-r["gold"], r["label"]))


def relation_report(gold: TupleArrays, pred: TupleArrays, codec: KeyCodec, labels: list[str], *,
                    relation: str = "rel", match: Sequence[str] = ("rel",),
                    multiset_key: Sequence[str] | None = None) -> RelationReport:
    """Counts per relation label of gold, predicted and matched rows (span and the ``match`` columns
    equal); each span occurs once per side and document, so these are educe's set counts. With
    ``multiset_key`` (a multiset family; ``match`` must name ``relation``) matched rows are the multiset
    intersection of the ``match`` tuples."""
    n = len(labels)
    if multiset_key is not None:
        rows, common = multiset_matched(gold, pred, match)
        matched = np.bincount(gold.columns[relation][rows], weights=common, minlength=n)[:n].astype(np.int64)
    else:
        gi, pi = align_spans(gold, pred, codec)
        same = np.logical_and.reduce([gold.columns[c][gi] == pred.columns[c][pi] for c in match])
        matched = np.bincount(gold.columns[relation][gi][same], minlength=n)[:n]
    return RelationReport(
        labels,
        np.bincount(gold.columns[relation], minlength=n)[:n],
        np.bincount(pred.columns[relation], minlength=n)[:n],
        matched,
    )


def _paired_once(gold: TupleArrays, pred: TupleArrays, key: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Row indices into ``gold`` and ``pred`` of the rows whose key ``(doc, start, end, *key)`` each
    side has exactly once, paired."""
    gold_ids, pred_ids = row_ids(gold, pred, key)
    n = int(max(gold_ids.max(initial=-1), pred_ids.max(initial=-1))) + 1
    once = (np.bincount(gold_ids, minlength=n) == 1) & (np.bincount(pred_ids, minlength=n) == 1)
    gold_row, pred_row = np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64)
    gold_row[gold_ids] = np.arange(gold_ids.size, dtype=np.int64)
    pred_row[pred_ids] = np.arange(pred_ids.size, dtype=np.int64)
    return gold_row[once], pred_row[once]


@dataclass(frozen=True)
class Confusion:
    """``matrix[g, p]``: spans present in both trees with gold relation g and predicted p."""

    labels: list[str]
    matrix: np.ndarray

    def most_confused(self, k: int = 10) -> list[tuple[str, str, int]]:
        off = self.matrix.copy()
        np.fill_diagonal(off, 0)
        order = np.argsort(off, axis=None)[::-1][:k]
        pairs = [np.unravel_index(i, off.shape) for i in order]
        return [(self.labels[g], self.labels[p], int(off[g, p])) for g, p in pairs if off[g, p] > 0]


def confusion(gold: TupleArrays, pred: TupleArrays, codec: KeyCodec, labels: list[str], *,
              relation: str = "rel", multiset_key: Sequence[str] | None = None) -> Confusion:
    """Relation confusion over the spans found in both gold and prediction (with ``multiset_key``, over
    the keys each side has exactly once)."""
    n = len(labels)
    gi, pi = align_spans(gold, pred, codec) if multiset_key is None else _paired_once(gold, pred, multiset_key)
    flat = np.bincount(gold.columns[relation][gi] * n + pred.columns[relation][pi], minlength=n * n)
    return Confusion(labels, flat.reshape(n, n))


#: relation labels that mark structure, not a relation: not counted by :class:`LabelSets`
STRUCTURAL_LABELS = frozenset({SPAN, ROOT_LABEL})
#: the share of the prediction's relation label tokens that must occur among the gold's for the sets to meet
MEETING_SHARE = 0.5
#: how many of each side's most frequent labels the warning names
NAMED_LABELS = 5


@dataclass(frozen=True)
class LabelSets:
    """The relation labels of gold and of one prediction set as scored, each with its number of rows
    (:data:`STRUCTURAL_LABELS` aside): ``gold`` and ``pred`` over all rows, ``matched`` over the
    prediction's rows on spans the gold also has; see the module docstring."""

    gold: Mapping[str, int]
    pred: Mapping[str, int]
    matched: Mapping[str, int]

    @property
    def tokens(self) -> int:
        """The prediction's label tokens on the gold's spans."""
        return sum(self.matched.values())

    @property
    def shared(self) -> int:
        """Those of :attr:`tokens` whose label occurs among the gold's."""
        return sum(n for label, n in self.matched.items() if label in self.gold)

    @property
    def share(self) -> float | None:
        """:attr:`shared` over :attr:`tokens`; None when there is nothing to compare."""
        return self.shared / self.tokens if self.tokens and self.gold else None

    @property
    def meet(self) -> bool:
        """Whether the sets meet (a share of at least :data:`MEETING_SHARE`, or nothing to compare)."""
        share = self.share
        return share is None or share >= MEETING_SHARE

    def mapped(self, label_map: LabelMap) -> LabelSets:
        """Every count's labels through ``label_map``, labels it does not know kept (lowercased)."""
        return LabelSets(*(_through(counts, label_map) for counts in (self.gold, self.pred, self.matched)))

    def unknown_to(self, label_map: LabelMap) -> list[str]:
        """The labels of either side that ``label_map`` does not know."""
        return sorted(label for label in {**self.gold, **self.pred} if label_map.lookup(label) is None)

    def warning(self, system: str, metric: str, labels: str, unknown_labels: UnknownLabels) -> str | None:
        """What the warnings say when the sets do not meet (None when they do), for ``system`` scored
        under ``metric`` with the label map ``labels``: the share, each side's most frequent labels,
        and the other built-in label maps under which they would meet, each applied to the labels as
        scored (under ``raw``, the labels as written: what a run under that map scores), with the
        labels it does not know kept where ``unknown_labels`` is ``error``. A label map never
        makes labels meet less (a pair of equal labels stays equal), so the identity ``raw`` is no remedy."""
        share = self.share
        if share is None or share >= MEETING_SHARE:
            return None
        maps = [label_map for name in label_map_names() if name != labels
                and (label_map := get_label_map(name)).table is not None]
        meeting = [m for m in maps if self.mapped(m).meet]
        if meeting:
            remedy = "they meet under " + " and under ".join(
                f"the label map {m.name} (--labels {m.name}"
                f"{' --keep-unknown-labels' if unknown_labels == 'error' and self.unknown_to(m) else ''})"
                for m in meeting)
        else:
            remedy = f"no built-in label map ({', '.join(m.name for m in maps)}) makes them meet"
        return (f"{metric}: the relation labels of gold and {system} do not meet: {self.shared} of {self.tokens} "
                f"predicted relation labels on the gold's spans ({100 * share:.1f}%, under "
                f"{100 * MEETING_SHARE:.0f}%) occur among the gold's (span and ROOT aside; label map {labels}), "
                f"so the relation measures compare label inventories; gold: {_most_frequent(self.gold)}; "
                f"{system}: {_most_frequent(self.pred)}; {remedy}")


def label_sets(gold: TupleArrays, pred: TupleArrays, codec: KeyCodec, labels: list[str], *,
               relation: str = "rel", multiset_key: Sequence[str] | None = None,
               aligned: tuple[np.ndarray, np.ndarray] | None = None) -> LabelSets:
    """The relation labels of ``gold`` and ``pred`` rows (codes into ``labels``) with their counts, and
    those of the ``pred`` rows whose span (with ``multiset_key``, whose key) a gold row has. ``aligned``:
    :func:`~rstkit.metrics.counts.align_spans` of the two sides, where the caller has it already."""
    n = len(labels)

    def counted(codes: np.ndarray) -> dict[str, int]:
        counts = np.bincount(codes, minlength=n)[:n]
        return {labels[i]: int(counts[i]) for i in np.flatnonzero(counts) if labels[i] not in STRUCTURAL_LABELS}

    if multiset_key is None:
        _, on_gold_spans = align_spans(gold, pred, codec) if aligned is None else aligned
    else:
        gold_ids, pred_ids = row_ids(gold, pred, multiset_key)
        on_gold_spans = np.isin(pred_ids, gold_ids)
    predicted = pred.columns[relation]
    return LabelSets(counted(gold.columns[relation]), counted(predicted), counted(predicted[on_gold_spans]))


def _through(counts: Mapping[str, int], label_map: LabelMap) -> dict[str, int]:
    mapped: Counter[str] = Counter()
    for label, n in counts.items():
        mapped[label_map.map(label, "keep")] += n
    return dict(mapped)


def _most_frequent(counts: Mapping[str, int]) -> str:
    """The :data:`NAMED_LABELS` most frequent labels with their counts (ties by label), and how many more."""
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    shown = ", ".join(f"{printable(label)} {n}" for label, n in ranked[:NAMED_LABELS])
    return shown + (f" (+{len(ranked) - NAMED_LABELS} more labels)" if len(ranked) > NAMED_LABELS else "")
