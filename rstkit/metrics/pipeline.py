"""The scoring pipeline: pair documents, prepare them, extract rows, count, average.

``evaluate(gold, pred, config)`` scores one or several prediction sets against one gold
set; ``evaluate_all(gold, pred, configs)`` scores them under several metrics and averages at
once. Every document is prepared exactly once (:mod:`rstkit.metrics.prepared`: each metric
family's rows, :mod:`rstkit.metrics.family`), its rows turned into integer arrays once per
metric, and matched corpus-wide (:mod:`rstkit.metrics.counts`); each average aggregates the
same counts. The pipeline only asks the metric family what to do.
"""
from __future__ import annotations

import difflib
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import MissingDocumentError, RSTKitError, RSTKitWarning, caller_stacklevel
from ..gcpause import bulk_work
from ..jsontext import Table
from ..settings import Average
from ..tree import RSTTree
from .average import Scores, aggregate, per_document
from .config import EvalConfig
from .counts import (
    Counts,
    KeyCodec,
    LabelIds,
    TupleArrays,
    align_spans,
    codec_for,
    count_matches,
    count_multiset_matches,
)
from .family import MetricFamily
from .prepared import (
    PreparationSpec,
    PreparedDocument,
    Rows,
    arrays_of_prepared,
    first_of_each_metric,
    prepare_document,
)
from .relations import Confusion, LabelSets, RelationReport, confusion, label_sets, relation_report
from .significance import approximate_randomization, bootstrap_ci, paired_bootstrap

if TYPE_CHECKING:  # imported only where EDUs are aligned (edus="aligned"): about a tenth of rstkit's own imports
    from . import aligned

#: what the pipeline takes: a tree, or a document prepared where it was read
Document = RSTTree | PreparedDocument


@dataclass
class SystemResult:
    """The scores of one prediction set."""

    name: str
    counts: Counts
    scores: Scores
    arrays: TupleArrays
    segmentation: aligned.AlignedSegmentation | None = None  # EDU boundaries, with edus="aligned" only
    label_sets: LabelSets | None = None  # its relation labels and the gold's, for families that score relations


@dataclass
class EvalResult:
    """Scores of one or more systems under one configuration, with what produced them.

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> result = score_documents({"bread": tree}, {"bread": tree})
    >>> result.doc_ids, result.signature
    (['bread'], 'rstkit:metric=parseval|avg=micro|...|docs=1|version=...')
    """

    config: EvalConfig
    doc_ids: list[str]
    n_edus: np.ndarray
    systems: list[SystemResult]
    gold: TupleArrays
    codec: KeyCodec
    relation_labels: list[str]
    included: np.ndarray  # documents that enter the averages (1-EDU ones may be excluded)
    warnings: list[str] = field(default_factory=list)
    n_tokens: np.ndarray | None = None  # gold tokens per document, for token-level families

    def __repr__(self) -> str:
        """One line: metric, average, each system's F1 per measure of the text table (percent, 2
        decimals) and the number of documents, e.g. ``EvalResult(parseval micro S=81.25 N=68.75
        R=50.00 F=50.00, 4 docs)``; the full table is what ``print(rstkit.evaluate(...))`` shows."""
        scores = ["{}{}".format(f"{s.name} " if len(self.systems) > 1 else "",
                                " ".join(f"{m}={s.scores.f1[m]:.2f}" for m in self.family.table_measures))
                  for s in self.systems]
        n = len(self.doc_ids)
        return f"EvalResult({self.config.metric} {self.config.average} {'; '.join(scores)}, {n} doc{'s' * (n != 1)})"

    @property
    def signature(self) -> str:
        return self.config.signature(len(self.doc_ids))

    @property
    def family(self) -> MetricFamily:
        return self.config.family

    @property
    def measures(self) -> tuple[str, ...]:
        """The measures of the result's metric family, in the order of the JSON scores."""
        return self.family.measure_names

    # the first (or only) system, for the common one-system case
    @property
    def scores(self) -> dict[str, float]:
        """F1 in percent for each measure ("S", "N", "R", "F" for the constituency metrics; first system)."""
        return self.systems[0].scores.f1

    @property
    def precision(self) -> dict[str, float]:
        return self.systems[0].scores.precision

    @property
    def recall(self) -> dict[str, float]:
        return self.systems[0].scores.recall

    @property
    def label_warnings(self) -> list[str]:
        """What the warnings say of systems whose relation labels do not meet the gold's
        (:class:`~rstkit.metrics.relations.LabelSets`); they are among :attr:`warnings`."""
        config = self.config
        return [note for system in self.systems if system.label_sets is not None
                and (note := system.label_sets.warning(system.name, config.metric, config.labels,
                                                       config.unknown_labels)) is not None]

    def document_counts(self, system: int = 0) -> list[dict[str, Any]]:
        """Per document: id, EDUs, and (matched, gold, pred) for each measure, plus F1 (percent);
        with ``edus="aligned"``, also the document's EDU boundaries (gold, pred, matched)."""
        return self.document_table(system).records()

    def document_table(self, system: int = 0) -> Table:
        """:meth:`document_counts` as columns (what the JSON report writes)."""
        counts = self.systems[system].counts
        segmentation = self.systems[system].segmentation
        f1 = per_document(counts)[2]
        fields: list[Any] = ["doc_id", "edus"]
        columns: list[list[Any]] = [list(self.doc_ids), self.n_edus.tolist()]
        for i, key in enumerate(counts.measures):
            fields.append((key, ("matched", "gold", "pred", "f1")))
            columns += [counts.matched[i].tolist(), counts.gold[i].tolist(), counts.pred[i].tolist(),
                        (100.0 * f1[i]).tolist()]
        if segmentation is not None:
            fields.append(("segmentation", ("gold", "pred", "matched")))
            boundaries = segmentation.boundaries
            columns += [boundaries.gold.tolist(), boundaries.pred.tolist(), boundaries.matched.tolist()]
        return Table(tuple(fields), tuple(columns))

    def segmentation(self, system: int = 0) -> dict[str, float | int] | None:
        """EDU boundary precision, recall, F1 (percent, micro over the documents that enter the
        averages) and counts, with ``edus="aligned"``; None otherwise."""
        segmentation = self._system(system).segmentation
        return None if segmentation is None else segmentation.boundaries.select(self.included).summary()

    def alignment(self, system: int = 0) -> list[dict[str, Any]]:
        """With ``edus="aligned"``, per document whose texts were aligned approximately: its id and
        the characters changed, inserted and deleted; empty otherwise."""
        segmentation = self._system(system).segmentation
        return [] if segmentation is None else segmentation.alignment(self.doc_ids)

    def relations(self, system: int = 0) -> RelationReport:
        family = self.family
        return relation_report(self.gold, self.systems[system].arrays, self.codec, self.relation_labels,
                               relation=family.relation_column, match=family.measures[family.relation_measure],
                               multiset_key=_multiset_key(family))

    def confusion(self, system: int = 0) -> Confusion:
        return confusion(self.gold, self.systems[system].arrays, self.codec, self.relation_labels,
                         relation=self.family.relation_column, multiset_key=_multiset_key(self.family))

    def _scored(self, counts: Counts) -> Counts:
        return counts.select(self.included)

    def bootstrap(self, *, confidence: float | None = None, n_bootstrap: int | None = None, seed: int | None = None,
                  system: int = 0) -> dict[str, tuple[float, float]]:
        """Bootstrap intervals of F1. Settings not given come from ``config.statistics`` (what the
        signature pins), else from DEFAULT_STATISTICS."""
        confidence_used, n_used, _, seed_used = self._statistics(confidence, n_bootstrap, None, seed)
        return bootstrap_ci(self._scored(self._system(system).counts), self.config.average,
                            confidence=confidence_used, n_bootstrap=n_used, seed=seed_used)

    def paired_tests(self, system: int, baseline: int = 0, *, n_bootstrap: int | None = None,
                     n_trials: int | None = None, seed: int | None = None) -> dict[str, dict[str, float]]:
        """p-values of system vs baseline: ``{"bootstrap": {...}, "randomization": {...}}``. Settings
        not given come from ``config.statistics``, else from DEFAULT_STATISTICS."""
        _, n_used, n_trials_used, seed_used = self._statistics(None, n_bootstrap, n_trials, seed)
        a = self._scored(self._system(baseline).counts)
        b = self._scored(self._system(system).counts)
        average = self.config.average
        return {"bootstrap": paired_bootstrap(a, b, average, n_bootstrap=n_used, seed=seed_used),
                "randomization": approximate_randomization(a, b, average, n_trials=n_trials_used, seed=seed_used)}

    def _statistics(self, confidence: float | None, n_bootstrap: int | None, n_trials: int | None,
                    seed: int | None) -> tuple[float, int, int, int]:
        """``(confidence, n_bootstrap, n_trials, seed)``: each setting given, else the configuration's,
        else the default; checked as :class:`Statistics` checks them."""
        configured = self.config.statistics
        return configured.filled(confidence, n_bootstrap, n_trials, seed)

    def with_average(self, average: Average) -> EvalResult:
        """The same counts averaged another way (nothing is re-scored)."""
        systems = [replace(s, scores=aggregate(self._scored(s.counts), average)) for s in self.systems]
        return replace(self, config=self.config.replace(average=average), systems=systems, warnings=list(self.warnings))

    def _system(self, index: int) -> SystemResult:
        if not 0 <= index < len(self.systems):
            raise RSTKitError(f"no system {index}: this result has {len(self.systems)} (numbered from 0)")
        return self.systems[index]


def score_documents(gold: Mapping[str, RSTTree], pred: Mapping[str, RSTTree] | Sequence[Mapping[str, RSTTree]],
                    config: EvalConfig | None = None, names: Sequence[str] | None = None) -> EvalResult:
    """Score prediction set(s) against gold trees in memory, matched by document id, under one
    configuration: the level below :func:`rstkit.evaluate` (which also reads files and takes several).

    ``pred`` is one ``{doc_id: tree}`` mapping or a sequence of them (one per system; the
    first is the baseline of paired tests). Raises MissingDocumentError,
    EDUMismatchError, LabelError, BinarizationError as the configuration dictates (with
    ``edus="aligned"``, EDUMismatchError when a document's texts differ or lack text);
    warnings are collected in the result (and emitted as RSTKitWarning).

    >>> from rstkit import read_tree
    >>> gold = {"library": read_tree("corpora/sample/gold/sample_library.dis")}
    >>> pred = {"library": read_tree("corpora/sample/pred/sample_library.dis")}
    >>> result = score_documents(gold, pred, EvalConfig(metric="parseval"))
    >>> {measure: round(f1, 2) for measure, f1 in result.systems[0].scores.f1.items()}
    {'S': 66.67, 'N': 33.33, 'R': 16.67, 'F': 16.67}
    """
    return evaluate_all(gold, pred, [config or EvalConfig()], names)[0]


@bulk_work()
def evaluate_all(gold: Mapping[str, Document], pred: Mapping[str, Document] | Sequence[Mapping[str, Document]],
                 configs: Sequence[EvalConfig], names: Sequence[str] | None = None) -> list[EvalResult]:
    """One result per configuration, as :func:`evaluate` gives it, from one pass over the documents.

    Configurations of one metric may differ in ``average`` only; configurations of different
    metrics may also differ in what belongs to their family (``binarize``, whose default is the
    family's, and the family's own settings). Every document is prepared once (each family's rows;
    documents may also come prepared already, :class:`~rstkit.metrics.prepared.PreparedDocument`, as
    processes that read files prepare them: the result is the same) and its EDUs checked once; rows
    are matched once per metric; each average is an aggregation of the same counts.
    """
    if not configs:
        raise RSTKitError("no configuration to score")
    base = configs[0]
    firsts = {config.metric: config for config in first_of_each_metric(configs)}
    token_level = [m for m, c in firsts.items() if c.family.token_level]
    if token_level and (len(firsts) > 1 or base.edus == "aligned"):
        raise RSTKitError(f"{token_level[0]} compares tokens, not EDUs: score it alone, with gold EDUs (edus='gold'; "
                          "lenient aligns tokens by characters)")
    for config in configs:
        leading = firsts[config.metric]
        if config.replace(average=leading.average) != leading or config.shared_settings() != base.shared_settings():
            other = leading if config.replace(average=leading.average) != leading else base
            raise RSTKitError("configurations scored together may differ in metric and average only (and in "
                              f"their metric's own settings); {config} differs from {other} in more")
    pairing = firsts[base.metric].family  # what gold and prediction must share: the same for every family here
    systems = [pred] if isinstance(pred, Mapping) else list(pred)
    if not systems:
        raise RSTKitError("no prediction set to score")
    names = list(names) if names else [f"system{i + 1}" for i in range(len(systems))]
    if len(names) != len(systems):
        raise RSTKitError(f"{len(names)} name(s) for {len(systems)} prediction set(s)")
    paired_notes: list[str] = []
    doc_ids = _paired_ids(gold, systems, names, base, paired_notes)
    if not doc_ids:
        raise MissingDocumentError("no document to score")
    specs = {side: PreparationSpec(tuple(firsts.values()), side) for side in (True, False)}
    gold_docs = [_prepared(gold[d], specs[True]) for d in doc_ids]
    n_edus = np.array([d.n_edus for d in gold_docs], dtype=np.int64)
    # rows become arrays as soon as a side is complete (gold per metric, then each system), with the
    # vocabularies filled in that order: gold, then each system
    vocabularies = {m: {c: LabelIds() for c in f.family.label_columns} for m, f in firsts.items()}
    gold_notes: dict[str, list[str]] = {}
    gold_arrays: dict[str, TupleArrays] = {}
    for m, c in firsts.items():
        gold_rows: list[Rows | None] = [d.rows_of(m) for d in gold_docs]
        gold_notes[m] = _gold_notes(gold_docs, c)
        gold_arrays[m] = arrays_of_prepared(gold_rows, c.family, vocabularies[m])
    edu_notes: list[str] = []
    pred_docs: list[list[PreparedDocument | None]] = []
    pred_arrays: dict[str, list[TupleArrays]] = {m: [] for m in firsts}
    for system in systems:
        docs = [None if (doc := system.get(d)) is None else _prepared(doc, specs[False]) for d in doc_ids]
        per_doc: dict[str, list[Rows | None]] = {m: [] for m in firsts}
        for gold_doc, doc in zip(gold_docs, docs):
            if doc is None:  # missing == "zero": an empty prediction
                for m in firsts:
                    per_doc[m].append(None)
                continue
            pairing.check_pair(gold_doc, doc, base, edu_notes)
            for m in firsts:
                per_doc[m].append(doc.rows_of(m))
        for m, c in firsts.items():
            pred_arrays[m].append(arrays_of_prepared(per_doc.pop(m), c.family, vocabularies[m]))
        pred_docs.append(docs)
    placements = None
    if base.edus == "aligned":
        from . import aligned

        placements = aligned.place(gold_docs, pred_docs, base.lenient, edu_notes)
    included = n_edus > 1 if base.exclude_single_edu else np.ones(len(doc_ids), dtype=bool)
    scored = {}
    for m, c in firsts.items():
        notes = [*paired_notes, *gold_notes[m], *edu_notes]
        scored[m] = _score(gold_docs, placements, names, doc_ids, n_edus, gold_arrays[m], pred_arrays[m],
                           vocabularies[m], included, c, notes)
    results: list[EvalResult] = []
    for config in configs:  # each configuration its own result object, even when one is given twice
        first = scored.pop(config.metric, None)  # scored under this very configuration, the metric's first
        results.append(first if first is not None
                       else next(r for r in results if r.config.metric == config.metric).with_average(config.average))
    for note in dict.fromkeys(n for result in results for n in result.warnings):
        warnings.warn(note, RSTKitWarning, stacklevel=caller_stacklevel())
    return results


def _prepared(document: Document, spec: PreparationSpec) -> PreparedDocument:
    """``document`` prepared under ``spec`` (as it is when it comes prepared)."""
    return document if isinstance(document, PreparedDocument) else prepare_document(document, spec)


def _score(gold: list[PreparedDocument], placements: list[aligned.Placement] | None, names: list[str],
           doc_ids: list[str], n_edus: np.ndarray, gold_arrays: TupleArrays, pred_arrays: list[TupleArrays],
           vocabularies: dict[str, LabelIds], included: np.ndarray, config: EvalConfig, notes: list[str]
           ) -> EvalResult:
    """The result of one metric: its row arrays (and the vocabularies that encoded them), matched
    corpus-wide; on characters when ``placements`` (``edus="aligned"``) are given."""
    family = config.family
    segmentations: Sequence[aligned.AlignedSegmentation | None] = [None] * len(pred_arrays)
    if placements is not None:
        from . import aligned

        gold_arrays, pred_arrays, segmentations = aligned.align(placements, gold_arrays, pred_arrays,
                                                                family.edu_columns, family.span_key(config))
    codec = codec_for([gold_arrays, *pred_arrays])
    relation = family.relation_column
    relation_labels = vocabularies[relation].labels() if relation else []
    results = []
    for name, arrays, segmentation in zip(names, pred_arrays, segmentations):
        if family.multiset:
            pairs = None
            counts = count_multiset_matches(gold_arrays, arrays, family.measures, family.measure_kinds)
            notes.extend(_nothing_to_score(name, doc_ids, counts, included, config))
        else:  # the spans aligned once, for the counts and the label sets
            pairs = align_spans(gold_arrays, arrays, codec)
            counts = count_matches(gold_arrays, arrays, codec, family.measures, aligned=pairs)
        sets = label_sets(gold_arrays, arrays, codec, relation_labels, relation=relation,
                          multiset_key=_multiset_key(family), aligned=pairs) if relation else None
        results.append(SystemResult(name, counts, aggregate(counts.select(included), config.average), arrays,
                                    segmentation, sets))
    n_tokens = np.array([len(d.tokens) for d in gold], dtype=np.int64) if family.token_level else None
    result = EvalResult(config, doc_ids, n_edus, results, gold_arrays, codec, relation_labels, included, notes,
                        n_tokens)
    notes.extend(result.label_warnings)
    return result


def _nothing_to_score(name: str, doc_ids: list[str], counts: Counts, included: np.ndarray,
                      config: EvalConfig) -> list[str]:
    """The warning for documents in which neither gold nor ``name`` has anything that a family that may find
    nothing (eRST's edges and signals) scores, under some measure: each counts P = R = F1 = 0 there in a
    macro or DPLP average (the zero-division rule), so a perfect prediction scores under 100."""
    empty = included & ((counts.gold == 0) & (counts.pred == 0)).any(axis=0)
    if not empty.any():
        return []
    ids = [d for d, e in zip(doc_ids, empty) if e]
    return [(f"{config.metric}: {len(ids)} document(s) in which neither gold nor {name} has anything to score "
             f"(under at least one measure) count F1 = 0 there in macro and DPLP averages (micro is unaffected): "
             f"{_some(ids)}")]


def _multiset_key(family: MetricFamily) -> tuple[str, ...] | None:
    """The value columns completing a multiset family's key (None: a family with one row per span)."""
    return family.key_columns if family.multiset else None


def _paired_ids(gold: Mapping[str, Document], systems: list[Mapping[str, Document]], names: list[str],
                config: EvalConfig, notes: list[str]) -> list[str]:
    """Document ids to score, applying the missing-document policy; extra predictions warn."""
    doc_ids = sorted(gold)
    for name, system in zip(names, systems):
        missing = [d for d in doc_ids if d not in system]
        extra = sorted(set(system) - set(gold))
        if extra:
            notes.append(f"{name}: {len(extra)} predicted document(s) not in gold, ignored: {_some(extra)}")
        if not missing:
            continue
        if config.missing == "error":
            raise MissingDocumentError(
                f"{name}: {len(missing)} gold document(s) have no prediction: {_some(missing, 20)}"
                f"{_nearest(missing, extra)}", fixes=("missing",))
        if config.missing == "skip":
            notes.append(f"{name}: {len(missing)} document(s) without prediction skipped: {_some(missing)}")
            doc_ids = [d for d in doc_ids if d in system]
        else:
            notes.append(f"{name}: {len(missing)} document(s) without prediction scored as empty: {_some(missing)}")
    return doc_ids


def _nearest(missing: Sequence[str], predicted: Sequence[str], k: int = 5) -> str:
    """For an error on documents without prediction: the predicted ids nearest to (the first ``k`` of)
    them, which are most often the same documents under another file-name rule."""
    pairs = [(doc_id, close[0]) for doc_id in missing[:k]
             if (close := difflib.get_close_matches(doc_id, predicted, n=1, cutoff=0.6))]
    return "; nearest predicted ids: " + ", ".join(f"{a} ~ {b}" for a, b in pairs) if pairs else ""


def _some(ids: Sequence[str], k: int = 10) -> str:
    return ", ".join(ids[:k]) + (f" ... (+{len(ids) - k})" if len(ids) > k else "")


def _gold_notes(gold: list[PreparedDocument], config: EvalConfig) -> list[str]:
    """What the warnings say of the gold documents under ``config``: one-EDU documents, and nodes
    that bug B1 of the reference binarization left n-ary (as the metric family counts them)."""
    notes: list[str] = []
    singles = [d.doc_id for d in gold if d.n_edus == 1]
    if singles and (config.exclude_single_edu or not config.family.one_edu_rows):
        what = ("excluded from the averages" if config.exclude_single_edu
                else "scored with 0 tuples (F1 = 0 in macro averages, as the reference does)")
        notes.append(f"{len(singles)} one-EDU document(s) {what}: {_some(singles)}")
    affected = {d.doc_id: n for d in gold if (n := d.nary.get(config.metric))}
    if affected:
        when, consequence = config.family.b1_note
        counts = _some([f"{d}: {n}" for d, n in affected.items()])
        notes.append(f"bug B1 of the reference binarization left {sum(affected.values())} gold node(s) n-ary"
                     f"{when} in {len(affected)} document(s) ({counts}); {consequence}")
    return notes
