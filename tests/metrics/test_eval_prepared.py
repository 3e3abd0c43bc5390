"""Documents prepared where they are read score exactly as their trees do, and ``--jobs`` changes
nothing an evaluation prints.

Processes that read files for an evaluation send back :class:`PreparedDocument` instead of trees.
The expected value of every comparison here is the in-process pipeline on the trees themselves
(``evaluate_all`` on ``{doc_id: tree}``, or ``rstkit eval --jobs 1``, which reads trees in this
process): a separate path through tuple lists and :meth:`TupleArrays.from_tuples`, compared
result for result, warning for warning, error for error.
"""
from __future__ import annotations

import pickle
import shutil
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rstkit.cli import main
from rstkit.corpus import files, read_input
from rstkit.corpus.files import resolve_jobs
from rstkit.errors import RSTKitError, RSTKitWarning
from rstkit.evaluation import Evaluation, _worker_result
from rstkit.metrics import EvalConfig, evaluate_all
from rstkit.metrics.counts import LabelIds
from rstkit.metrics.parseval import PARSEVAL
from rstkit.metrics.prepared import (
    PreparationSpec,
    PreparedDocument,
    Rows,
    arrays_of_prepared,
    first_of_each_metric,
    prepare_document,
)
from rstkit.metrics.registry import METRICS
from rstkit.settings import AVERAGES
from rstkit.tree import EDU, Node, RSTTree
from tests.support.cli_run import no_progress_lines
from tests.support.strategies import rst_trees

SAMPLE = Path(__file__).resolve().parents[1].parent / "corpora" / "sample"


def outcome(gold, preds, configs) -> tuple:
    """What an evaluation gives: every rendering (per-relation JSON included) and the warnings, or
    the error's type, text, place and fixes."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RSTKitWarning)
            evaluation = Evaluation.of(evaluate_all(gold, preds, configs, [f"s{i}" for i in range(len(preds))]))
            return (evaluation.render("json", per_relation=True), evaluation.render("text"),
                    [r.warnings for r in evaluation.results], [r.relation_labels for r in evaluation.results])
    except RSTKitError as error:
        return type(error), str(error), error.path, error.line, error.fixes


def prepared(documents: dict[str, RSTTree], configs: list[EvalConfig], gold: bool) -> dict[str, PreparedDocument]:
    """The documents as a reading process sends them back: prepared there, pickled (rows packed)."""
    spec = PreparationSpec(tuple(first_of_each_metric(configs)), gold)
    return {doc_id: pickle.loads(pickle.dumps(prepare_document(tree, spec))) for doc_id, tree in documents.items()}


# -- generated corpora, prepared in this process ----------------------------------------------------
def relabelled(node: Node, old: str, new: str) -> Node:
    kids = tuple(relabelled(kid, old, new) for kid in node.children)
    return replace(node, relation=new if node.relation == old else node.relation, children=kids)


@st.composite
def corpora(draw) -> tuple[dict[str, RSTTree], list[dict[str, RSTTree]]]:
    """Gold trees and one or two prediction sets with what breaks or bends scoring: missing and
    extra documents, other EDU counts and texts, unknown labels, one-EDU documents, n-ary and
    satellite-rich predictions."""
    gold: dict[str, RSTTree] = {}
    systems: list[dict[str, RSTTree]] = [{} for _ in range(draw(st.integers(1, 2)))]
    for i in range(draw(st.integers(1, 5))):
        doc_id = f"doc{i}"
        tree = draw(rst_trees(max_edus=8, patterns=draw(st.sampled_from(["reference", "any"]))))
        gold[doc_id] = replace(tree, doc_id=doc_id)
        for system in systems:
            kind = draw(st.sampled_from(["same-edus"] * 6 + ["missing", "other-count", "other-text", "unknown"]))
            if kind == "missing":
                continue
            n = tree.n_edus + (1 if kind == "other-count" else 0)
            pred = draw(rst_trees(min_edus=n, max_edus=n, patterns=draw(st.sampled_from(["binary", "any"]))))
            if kind == "other-text":
                pred = replace(pred, edus=(EDU(1, "something else"), *pred.edus[1:]))
            if kind == "unknown" and pred.n_edus > 1:
                pred = replace(pred, root=relabelled(pred.root, pred.root.children[0].relation or "", "zzz-unknown"))
            system[doc_id] = replace(pred, doc_id=doc_id)
    if draw(st.booleans()):
        systems[0]["extra"] = draw(rst_trees(max_edus=4, patterns="binary"))
    return gold, systems


@st.composite
def configurations(draw) -> list[EvalConfig]:
    settings_ = {"labels": draw(st.sampled_from(["raw", "rstdt18"])),
                 "missing": draw(st.sampled_from(["error", "skip", "zero"])),
                 "lenient": draw(st.booleans()), "exclude_single_edu": draw(st.booleans())}
    if draw(st.booleans()):
        base = EvalConfig(compat="rst-eval", **settings_)
    else:
        base = EvalConfig(unknown_labels=draw(st.sampled_from(["error", "keep"])),
                          binarize=draw(st.sampled_from(["right", "right_mixed", "none"])), **settings_)
    metrics = draw(st.lists(st.sampled_from(METRICS), min_size=1, max_size=2, unique=True))
    averages = draw(st.lists(st.sampled_from(AVERAGES), min_size=1, max_size=3, unique=True))
    return [base.replace(metric=m, average=a) for m in metrics for a in averages]


@pytest.mark.slow  # hypothesis: 150 corpora, prepared against the trees
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), configurations())
def test_prepared_documents_score_as_their_trees(corpus, configs):
    gold, systems = corpus
    expected = outcome(gold, systems, configs)
    assert outcome(prepared(gold, configs, True), [prepared(s, configs, False) for s in systems], configs) == expected


def test_a_prepared_side_fills_the_vocabularies_in_order_of_first_appearance():
    # by hand: first appearance over the documents in order is "NS", "SN", "NN" and "a", "c", "b"
    per_doc = [[(1, 2, "NS", "a"), (1, 1, "SN", "c")], [], [(2, 3, "NN", "b"), (1, 3, "NS", "c")], [(1, 2, "SN", "b")]]
    for packed in (False, True):  # rows as made in this process, and as a reading process sends them
        vocabularies = {"nuc": LabelIds(), "rel": LabelIds()}
        rows = [Rows(t, PARSEVAL) if t else None for t in per_doc]
        if packed:
            rows = [pickle.loads(pickle.dumps(r)) for r in rows]
            assert all(r is None or r.rows is None for r in rows)
        arrays = arrays_of_prepared(rows, PARSEVAL, vocabularies)
        assert vocabularies["nuc"].labels() == ["NS", "SN", "NN"] and vocabularies["rel"].labels() == ["a", "c", "b"]
        assert arrays.doc.tolist() == [0, 0, 2, 2, 3] and arrays.n_docs == 4
        assert arrays.start.tolist() == [1, 1, 2, 1, 1] and arrays.end.tolist() == [2, 1, 3, 3, 2]
        assert arrays.columns["nuc"].tolist() == [0, 1, 2, 0, 1]
        assert arrays.columns["rel"].tolist() == [0, 1, 2, 1, 2]
        for column in (arrays.doc, arrays.start, arrays.end, *arrays.columns.values()):
            assert column.dtype == np.int64


def test_aligned_edus_score_prepared_documents_as_their_trees():
    gold = read_input(SAMPLE / "gold")
    configs = [EvalConfig(edus="aligned")]
    assert _worker_result(configs, gold=True) is None  # readers send trees: their texts are compared whole
    documents = prepared(gold, configs, True)
    assert outcome(documents, [documents], configs) == outcome(gold, [gold], configs)


# -- the command line, with worker processes -------------------------------------------------------
@pytest.fixture(scope="module")
def bent_sample(tmp_path_factory) -> tuple[Path, Path]:
    """The sample's gold, and predictions with one document missing, one extra, one with an unknown
    label and one whose first EDU reads differently."""
    root = tmp_path_factory.mktemp("bent")
    gold, pred = root / "gold", root / "pred"
    shutil.copytree(SAMPLE / "gold", gold)
    pred.mkdir()
    for path in sorted((SAMPLE / "pred").glob("*.dis")):
        text = path.read_text(encoding="utf-8")
        if path.name == "sample_harbour.dis":
            continue
        if path.name == "sample_bread.dis":
            text = text.replace("(rel2par purpose)", "(rel2par no-such-relation)")
        if path.name == "sample_library.dis":
            text = text.replace("_!", "_!Not ", 1)
        (pred / path.name).write_text(text, encoding="utf-8")
    shutil.copy(SAMPLE / "pred" / "sample_note.dis", pred / "sample_zz_extra.dis")
    return gold, pred


FLAGS = [
    ["--metric", "all", "--average", "all", "--format", "json", "--per-relation"],
    ["--metric", "all", "--average", "micro,macro", "--missing", "zero", "--lenient", "--keep-unknown-labels"],
    ["--metric", "all", "--missing", "skip", "--lenient", "--keep-unknown-labels", "--format", "json"],
    ["--compat", "rst-eval", "--metric", "all", "--average", "all", "--missing", "skip", "--per-relation"],
    ["--missing", "skip", "--lenient"],  # the unknown label: an error
    ["--missing", "skip", "--keep-unknown-labels"],  # the EDU text: an error
    [],  # the missing document: an error
    ["--labels", "rstdt18", "--missing", "zero", "--lenient", "--exclude-single-edu", "--binarize", "right_mixed"],
    # the dependency family alone: worker processes prepare .dis files without trees (Preparer.from_texts)
    ["--metric", "dependency", "--average", "all", "--format", "json", "--per-relation", "--missing", "zero",
     "--keep-unknown-labels", "--lenient"],
    ["--metric", "dependency", "--compat", "rst-eval", "--labels", "rstdt18", "--missing", "skip",
     "--keep-unknown-labels", "--skip-errors", "--format", "json"],
    ["--metric", "dependency", "--dep-encoding", "tree,chain", "--missing", "zero", "--keep-unknown-labels"],
    ["--metric", "dependency", "--missing", "skip"],  # the unknown label: an error
]


@pytest.mark.parametrize("flags", FLAGS)
def test_the_command_prints_the_same_with_any_number_of_jobs(bent_sample, capsys, flags):
    gold, pred = bent_sample
    printed = {}
    for jobs in (1, 2, 3):
        code = main(["eval", str(gold), str(pred), str(SAMPLE / "pred"), "--names", "bent,sample", *flags,
                     "--jobs", str(jobs)])
        captured = capsys.readouterr()
        printed[jobs] = (code, captured.out, captured.err)
    assert printed[1] == printed[2] == printed[3]


@pytest.mark.slow  # GUM-wide, twice
def test_gum_scores_the_same_with_any_number_of_jobs(gum_dir, capsys):
    printed = {}
    # --dep-encoding tree: chain rejects GENTLE_syllabus_techtonica's NN..N with a satellite
    argv = [str(gum_dir / "lisp_binary"), "--labels", "gum", "--lenient", "--metric", "all", "--average", "all",
            "--format", "json", "--per-relation", "--dep-encoding", "tree"]
    for jobs in (1, 2):
        # gold: the corpus root (GUM's layout, read by its corpus kind); predictions: a plain directory.
        # A progress line, due after 5 s of reading, came in one run and not the other: none under the test
        with no_progress_lines():
            code = main(["eval", str(gum_dir), *argv, "--jobs", str(jobs)])
        captured = capsys.readouterr()
        printed[jobs] = (code, captured.out, captured.err)
    assert printed[1] == printed[2]
    assert printed[1][0] == 0 and '"docs=281' not in printed[1][1] and "docs=281" in printed[1][1]


@pytest.mark.slow  # GUM-wide, twice
@pytest.mark.parametrize("encoding", ["chain", "tree"])
def test_gum_dependencies_score_the_same_with_any_number_of_jobs(gum_dir, capsys, encoding):
    """Without --lenient (the processes read .dis files without trees): GUM's one file with a wrong extent,
    and under chain the one whose multinuclear node has a satellite, are skipped by both."""
    printed = {}
    argv = [str(gum_dir / "lisp_nary"), str(gum_dir / "lisp_binary"), "--labels", "gum", "--metric", "dependency",
            "--average", "all", "--format", "json", "--per-relation", "--skip-errors", "--dep-encoding", encoding]
    for jobs in (1, 2):
        with no_progress_lines():
            code = main(["eval", *argv, "--jobs", str(jobs)])
        captured = capsys.readouterr()
        printed[jobs] = (code, captured.out, captured.err)
    assert printed[1] == printed[2]
    assert printed[1][0] == 0 and "docs=280" in printed[1][1] and "GENTLE_syllabus_techtonica" in printed[1][2]


@pytest.mark.parametrize("cores, n_files, small_results, expected", [
    (2, 10_000, True, 2), (2, 10_000, False, 1), (1, 10_000, True, 1), (2, 199, True, 1), (4, 200, True, 4),
])
def test_workers_that_send_back_small_results_use_two_cores(monkeypatch, cores, n_files, small_results, expected):
    # the rule of rstkit/corpus/files.py's resolve_jobs docstring
    monkeypatch.setattr(files, "usable_cores", lambda: cores)
    assert resolve_jobs(None, n_files, small_results=small_results) == expected
