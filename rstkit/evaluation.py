"""``rstkit.evaluate``: what ``rstkit eval`` does, as one library call.

Gold and predictions may each be a path (a file or a directory, read as ``rstkit eval`` reads
it), one tree, a list of trees (ids from ``tree.doc_id``) or a ``{doc_id: tree}`` mapping; ``config`` is one
:class:`~rstkit.metrics.EvalConfig` or several that differ in metric and average only (scored
from one pass over the trees). The :class:`Evaluation` it returns holds every configuration's
:class:`~rstkit.metrics.EvalResult` (scores, signature, bootstrap, paired tests) in ``results``, and
renders exactly what the command prints (``print(result)``: its text table; ``repr``: one line)::

    result = rstkit.evaluate("gold/", "pred/", rstkit.EvalConfig(metric="rst-parseval"))
    print(result.render("latex"))

This unit sits above :mod:`rstkit.metrics` (scoring) and :mod:`rstkit.report` (rendering).
"""
from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import partial
from pathlib import Path
from typing import Any, TypeGuard, TypeVar, cast

from .corpus import read_input
from .corpus.segmentations import SegmentationSet, read_segmentation_sets
from .errors import RSTKitError, RSTKitWarning, caller_stacklevel
from .formats.disrpt import is_disrpt_input
from .gcpause import bulk_work
from .metrics import EvalConfig, EvalResult, evaluate_all
from .metrics.config import Statistics
from .metrics.prepared import PreparationSpec, PreparedDocument, Preparer, first_of_each_metric
from .metrics.segmentation import prepare_disrpt
from .report import Report, render
from .tree import RSTTree

_Document = TypeVar("_Document")
#: what ``gold`` and each prediction set may be: a file or directory, one tree, a list of trees, ``{doc_id: tree}``
Source = str | os.PathLike | RSTTree | Mapping[str, RSTTree] | Sequence[RSTTree]
#: the document id of a tree given alone without one
SINGLE_TREE_ID = "document"


@dataclass(eq=False)
class Evaluation:
    """The result of :func:`evaluate`: every configuration's :class:`~rstkit.metrics.EvalResult` in
    ``results`` (in the order given), :meth:`result` to pick one, and :meth:`render`. An evaluation
    of one configuration also reads as that result (``evaluation.scores``, ``.systems``, ...); with
    several, pick one with :meth:`result`.

    >>> configs = [EvalConfig(metric="parseval", average=a) for a in ("micro", "macro")]
    >>> both = evaluate("corpora/sample/gold/sample_library.dis", "corpora/sample/pred/sample_library.dis", configs)
    >>> [(r.config.average, round(r.scores["S"], 2)) for r in both.results]
    [('micro', 66.67), ('macro', 66.67)]
    >>> both.result("parseval", "macro").config.average
    'macro'
    """

    results: list[EvalResult]

    def __repr__(self) -> str:
        """One line: the result's scores (:class:`~rstkit.metrics.EvalResult`'s line), or with several
        configurations, which ones; ``str`` (``print``) is the full table, :meth:`render`'s text."""
        if len(self.results) == 1:
            return "Evaluation" + repr(self.results[0]).removeprefix("EvalResult")
        n = len(self.results[0].doc_ids)
        shown = ", ".join(f"{r.config.metric} {r.config.average}" for r in self.results)
        return f"Evaluation({len(self.results)} results: {shown}; {n} doc{'s' * (n != 1)})"

    def __str__(self) -> str:
        return self.render("text")

    @classmethod
    def of(cls, results: Sequence[EvalResult]) -> Evaluation:
        """The evaluation made of ``results`` (one per configuration; the same systems and documents)."""
        if not results:
            raise RSTKitError("an evaluation needs at least one result")
        return cls(list(results))

    @property
    def warnings(self) -> list[str]:
        """Every configuration's warnings, each once, in order."""
        return list(dict.fromkeys(w for result in self.results for w in result.warnings))

    def __getattr__(self, name: str) -> Any:
        """A one-configuration evaluation read as its result (see the class's text)."""
        if name.startswith("_") or name not in _RESULT_ATTRIBUTES:
            raise AttributeError(f"'Evaluation' object has no attribute {name!r}")
        results = self.__dict__.get("results") or []
        if len(results) > 1:
            raise AttributeError(f"Evaluation.{name}: this evaluation has {len(results)} configurations, each with "
                                 f"its own; pick one: .result(metric, average).{name}")
        return getattr(results[0], name)

    def result(self, metric: str | None = None, average: str | None = None) -> EvalResult:
        """The one result of ``metric`` and ``average`` (either may be left out when only one fits)."""
        fits = [r for r in self.results if metric in (None, r.config.metric) and average in (None, r.config.average)]
        if len(fits) != 1:
            have = ", ".join(f"{r.config.metric}/{r.config.average}" for r in self.results)
            raise RSTKitError(f"{len(fits)} results of metric={metric} average={average}; this evaluation has {have}")
        return fits[0]

    def with_statistics(self, *, confidence: float | None = None, n_bootstrap: int | None = None,
                        n_trials: int | None = None, seed: int | None = None) -> Evaluation:
        """The same scores with other resampling settings (each one not given is kept, else the
        default): bootstrap intervals at ``confidence``; with several systems, paired tests. The
        signatures pin them; nothing is re-scored."""
        first = self.results[0]
        current = first.config.statistics
        paired = len(first.systems) > 1
        _, n_used, trials_used, seed_used = current.filled(None, n_bootstrap, n_trials, seed)
        statistics = Statistics.for_run(confidence if confidence is not None else current.confidence,
                                        n_used, trials_used, seed_used, paired)
        return Evaluation.of([replace(r, config=r.config.replace(statistics=statistics)) for r in self.results])

    def report(self, per_relation: bool = False) -> Report:
        """The scores with what the configurations' statistics print: bootstrap intervals when
        ``statistics.confidence`` is set, and with several systems each one's paired tests
        against the first."""
        confidence = self.results[0].config.statistics.confidence
        report = Report(list(self.results), confidence=confidence, per_relation=per_relation)
        for r, result in enumerate(self.results):
            for s in range(len(result.systems)):
                if confidence is not None:
                    report.ci[(r, s)] = result.bootstrap(system=s)
                if s > 0:
                    report.paired[(r, s)] = result.paired_tests(s, 0)
        return report

    def render(self, format: str = "text", digits: int = 2, *, ci: float | None = None,
               per_relation: bool = False) -> str:
        """What ``rstkit eval --format FORMAT --digits DIGITS`` prints (:data:`rstkit.report.FORMATS`);
        ``ci`` adds bootstrap intervals at that level (:meth:`with_statistics`), ``per_relation``
        per-relation scores and confusions."""
        if ci is not None and ci != self.results[0].config.statistics.confidence:
            return self.with_statistics(confidence=ci).render(format, digits, per_relation=per_relation)
        return render(self.report(per_relation), format, digits)


#: the attributes of an EvalResult that a one-configuration Evaluation reads as its own
_RESULT_ATTRIBUTES = frozenset(f.name for f in fields(EvalResult)) | frozenset(
    name for name in dir(EvalResult) if not name.startswith("_"))


@bulk_work()
def evaluate(gold: Source, pred: Source | Sequence[Source], config: EvalConfig | Sequence[EvalConfig] | None = None,
             names: Sequence[str] | None = None, *, gold_format: str | None = None, pred_format: str | None = None,
             doc_map: str | os.PathLike | None = None, skip_errors: bool = False,
             jobs: int | None = None, encoding: str | None = None, split: str | None = None) -> Evaluation:
    """Score one or several prediction sets against gold, as ``rstkit eval`` does.

    ``gold`` and ``pred``: a path (file or directory; ``gold_format`` / ``pred_format`` name the
    format, ``"auto"`` detects it; ``doc_map`` is the predictions' file-name map; unreadable files
    are an error, or with ``skip_errors`` left out and noted; ``jobs`` processes read them;
    ``encoding`` names the files' encoding, see :func:`~rstkit.formats.read_text`; ``split``: ``gold`` is a
    corpus directory, a GUM checkout, an RST-DT release or a directory with ``splits.tsv``, and the documents
    of this split of it are the gold, as :func:`~rstkit.corpus.read_documents` reads them), one tree
    (:class:`~rstkit.tree.RSTTree`), a list of trees or a ``{doc_id: tree}`` mapping. ``pred`` may also
    be a list of such sets, one per system (the first is the baseline of paired tests); ``names`` name
    them (default: the file or directory name before its first dot, else ``system1``, ``system2``...).
    Two single documents (a file of one document, or one tree) are paired whatever their ids. ``config``: one
    configuration, or several that differ in ``metric`` and ``average`` only; ``lenient`` also applies to reading.
    With several systems, paired tests are computed and their settings not given in ``config.statistics`` are the
    defaults (pinned in the signature, as the command line does).

    Every warning (reading and scoring) is in the results' ``warnings`` and emitted once as an
    :class:`~rstkit.errors.RSTKitWarning`.

    >>> result = evaluate("corpora/sample/gold/sample_library.dis", "corpora/sample/pred/sample_library.dis",
    ...                   EvalConfig(metric="parseval"))
    >>> {measure: round(f1, 2) for measure, f1 in result.scores.items()}
    {'S': 66.67, 'N': 33.33, 'R': 16.67, 'F': 16.67}
    >>> print(result.render("text").splitlines()[0])
    Original Parseval, micro-averaged F1 (%), 1 documents
    >>> from rstkit import read_tree
    >>> gold = read_tree("corpora/sample/gold/sample_library.dis")
    >>> evaluate(gold, read_tree("corpora/sample/pred/sample_library.dis"), EvalConfig(metric="parseval"))
    Evaluation(parseval micro S=66.67 N=33.33 R=16.67 F=16.67, 1 doc)
    """
    configs = [config or EvalConfig()] if config is None or isinstance(config, EvalConfig) else list(config)
    if not configs:
        raise RSTKitError("no configuration to score")
    if split is not None and not _is_path(gold):
        raise RSTKitError(f"split {split!r} selects documents of a corpus directory; gold is a "
                          f"{type(gold).__name__}, not a path")
    sources = _prediction_sets(pred)
    if names is not None and len(names) != len(sources):
        raise RSTKitError(f"{len(names)} name(s) for {len(sources)} prediction set(s)")
    notes: list[str] = []
    lenient = configs[0].lenient
    reading = {"encoding": encoding} if encoding else {}
    segmentations = _segmentations([gold, *sources], configs, encoding, jobs,  # DISRPT files, read at once
                                   gold_split=split is not None)
    gold_reading = {**reading, "split": split} if split is not None else reading
    gold_docs = _read(segmentations[0]) if segmentations[0] is not None else _documents(
        gold, gold_format, lenient, skip_errors, jobs, notes, gold_reading, _worker_result(configs, gold=True))
    options = {"doc_map": doc_map, **reading} if doc_map else reading
    pred_worker_result = _worker_result(configs, gold=False)
    preds = [_documents(p, pred_format, lenient, skip_errors, jobs, notes, options, pred_worker_result)
             if segmentation is None else _read(segmentation) for p, segmentation in zip(sources, segmentations[1:])]
    if _single(gold) and len(gold_docs) == 1:
        (gold_id,) = gold_docs
        preds = [pair_single_files(docs, gold_id, str(p)) if _single(p) else docs for docs, p in zip(preds, sources)]
    if len(preds) > 1:
        configs = [c.replace(statistics=_paired(c.statistics)) for c in configs]
    with warnings.catch_warnings():  # kept in the results, emitted once below
        warnings.simplefilter("ignore", RSTKitWarning)
        results = evaluate_all(gold_docs, preds, configs, list(names) if names else default_names(sources))
    for result in results:
        result.warnings[:0] = notes
    evaluation = Evaluation.of(results)
    for message in dict.fromkeys(m for result in results for m in result.warnings):
        warnings.warn(message, RSTKitWarning, stacklevel=caller_stacklevel())
    return evaluation


def _paired(statistics: Statistics) -> Statistics:
    """``statistics`` with the settings of paired tests, the defaults where not given."""
    _, n_bootstrap, n_trials, seed = statistics.filled()
    return Statistics.for_run(statistics.confidence, n_bootstrap, n_trials, seed, paired=True)


def _is_path(source: object) -> TypeGuard[str | os.PathLike]:
    return isinstance(source, (str, os.PathLike))


def _single(source: object) -> bool:
    """Whether ``source`` is one document: one tree, or the path of a file (of one document, if it pairs)."""
    return isinstance(source, RSTTree) or (_is_path(source) and Path(source).is_file())


def _prediction_sets(pred: Source | Sequence[Source]) -> list[Source]:
    """``pred`` as a list of prediction sets: a path, a tree, a mapping or a list of trees is one set."""
    if _is_path(pred) or isinstance(pred, (Mapping, RSTTree)):
        return [pred]
    items = list(cast(Sequence, pred))
    if not items:
        raise RSTKitError("no prediction set to score")
    if all(isinstance(item, RSTTree) for item in items):
        return [items]
    return items


def _worker_result(configs: Sequence[EvalConfig], gold: bool) -> Callable[[RSTTree], PreparedDocument] | None:
    """What processes reading one side's files send back of each tree: the document prepared for
    scoring (smaller than the tree, so reading in several processes pays), except with aligned EDUs,
    which are scored from the trees."""
    base = configs[0]
    if base.edus == "aligned":
        return None
    return Preparer(PreparationSpec(tuple(first_of_each_metric(configs)), gold))


def _segmentations(sources: Sequence[Source], configs: Sequence[EvalConfig], encoding: str | None,
                   jobs: int | None, gold_split: bool = False) -> list[SegmentationSet[PreparedDocument]]:
    """The documents of the sources that are DISRPT files (a ``.tok``/``.conllu`` file, or a directory of
    them), prepared under ``configs`` where they are read (:mod:`rstkit.corpus.segmentations`), gold first, or
    the error reading one gave; None for the others (and for a gold of which a split is read: a corpus of trees)."""
    specs = [PreparationSpec(tuple(first_of_each_metric(configs)), i == 0) for i in range(len(sources))]
    return read_segmentation_sets([(source, partial(prepare_disrpt, spec=spec))
                                   if _is_path(source) and is_disrpt_input(source) and not (i == 0 and gold_split)
                                   else None for i, (source, spec) in enumerate(zip(sources, specs))],
                                  encoding=encoding, jobs=jobs)


def _read(segmentation: dict[str, PreparedDocument] | RSTKitError) -> dict[str, PreparedDocument]:
    if isinstance(segmentation, RSTKitError):
        raise segmentation
    return segmentation


def _documents(source: Source, fmt: str | None, lenient: bool, skip_errors: bool, jobs: int | None,
               notes: list[str], options: dict,
               worker_result: Callable[[RSTTree], PreparedDocument] | None) -> Mapping[str, RSTTree | PreparedDocument]:
    """``{doc_id: tree}`` of one source (read in several processes, documents prepared by ``worker_result``
    may stand for trees)."""
    if _is_path(source):
        return read_input(source, fmt, lenient=lenient, skip_errors=skip_errors, notes=notes, jobs=jobs,
                          worker_result=worker_result, **options)
    if isinstance(source, Mapping):
        return dict(source)
    if isinstance(source, RSTTree):
        return {source.doc_id or SINGLE_TREE_ID: source}
    if isinstance(source, (str, bytes)) or not isinstance(source, Sequence):
        raise RSTKitError("expected a path, a tree, a list of trees or a {doc_id: tree} mapping, "
                          f"not {type(source).__name__}")
    documents: dict[str, RSTTree] = {}
    for i, tree in enumerate(source):
        if not isinstance(tree, RSTTree):
            raise RSTKitError(f"item {i} of a list of trees is a {type(tree).__name__}, not an RSTTree")
        if not tree.doc_id:
            raise RSTKitError(f"tree {i} of the list has no doc_id: give a {{doc_id: tree}} mapping instead")
        if tree.doc_id in documents:
            raise RSTKitError(f"two trees of the list have the document id {tree.doc_id!r}")
        documents[tree.doc_id] = tree
    return documents


def default_names(sources: Sequence[Source]) -> list[str]:
    """System names: a path's name before its first dot (the path itself if that is empty), else
    ``system1``, ``system2``...; a name given twice gets ``#`` and the set's number."""
    names = [(Path(s).name.split(".")[0] or str(s)) if _is_path(s) else f"system{i + 1}"
             for i, s in enumerate(sources)]
    return [n if names.count(n) == 1 else f"{n}#{i + 1}" for i, n in enumerate(names)]


def pair_single_files(pred: Mapping[str, _Document], gold_id: str, path: str) -> dict[str, _Document]:
    """Two single files are paired whatever their names."""
    if len(pred) != 1:
        raise RSTKitError(f"gold is one document but the prediction file holds {len(pred)}", path)
    return {gold_id: next(iter(pred.values()))}
