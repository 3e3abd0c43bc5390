"""``--split NAME`` on ``eval``, ``stats``, ``draw`` and ``audit``: GOLD (the input) is a corpus directory and the
split's documents are the gold set, read exactly as a directory holding copies of them would be.

The expected outputs are those of the same command on a folder of the split's files copied by hand (the
split's document ids read from GUM's ``splits.md`` or the test's own ``splits.tsv`` with a regular
expression here, not by rstkit), so the check is independent of how rstkit opens corpora.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from rstkit import EvalConfig, evaluate, read_tree
from rstkit.cli import main
from rstkit.errors import RSTKitError, RSTKitWarning

PROJECT = Path(__file__).resolve().parents[1].parent
SAMPLE = PROJECT / "corpora" / "sample"


def run(capsys, *argv) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``rstkit argv`` run in this process."""
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exc:
        status = exc.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def gum_test_ids(gum: Path) -> list[str]:
    """The ids listed under ``## test`` in GUM's splits.md (``* GUM_...`` items up to the next heading)."""
    section = re.search(r"^## test\s*$(.*?)(?=^## |\Z)", (gum / "splits.md").read_text(encoding="utf-8"),
                        re.MULTILINE | re.DOTALL)
    assert section is not None
    return re.findall(r"^\s*[*-]\s+(\S+)\s*$", section.group(1), re.MULTILINE)


def relabelled(text: str) -> str:
    """A .dis file's text with every ``elaboration`` relation made ``joint``: a prediction that differs
    from the gold in its relations, so that which documents are scored shows in R and F."""
    return text.replace("(rel2par elaboration", "(rel2par joint")


@pytest.fixture(scope="module")
def gum_copies(gum_dir, tmp_path_factory) -> tuple[Path, Path, list[str]]:
    """(gold, pred, ids): GUM test's lisp_nary files copied by hand, and predictions of them relabelled."""
    ids = gum_test_ids(gum_dir)
    root = tmp_path_factory.mktemp("gum-test")
    gold, pred = root / "gold", root / "pred"
    gold.mkdir()
    pred.mkdir()
    for doc_id in ids:
        source = gum_dir / "lisp_nary" / f"{doc_id}.dis"
        shutil.copy(source, gold / source.name)
        (pred / source.name).write_text(relabelled(source.read_text(encoding="utf-8")), encoding="utf-8")
    return gold, pred, ids


@pytest.mark.gum
def test_eval_split_scores_the_split_as_copies_of_it(gum_dir, gum_copies, capsys):
    gold, pred, ids = gum_copies
    assert len(ids) == 32  # GUM's splits.md lists 32 test documents
    options = ["--metric", "all", "--average", "all", "--format", "json", "--per-relation"]
    status, by_split, err = run(capsys, "eval", gum_dir, pred, "--split", "test", *options)
    assert status == 0, err
    status, by_hand, _ = run(capsys, "eval", gold, pred, *options)
    assert status == 0
    assert by_split == by_hand
    scores = json.loads(by_split)
    assert [d["doc_id"] for d in scores[0]["documents"]] == sorted(ids)
    assert scores[0]["scores"]["R"] < 100  # the relabelled relations count: the documents scored are these


@pytest.mark.gum
def test_stats_draw_and_audit_split(gum_dir, gum_copies, capsys):
    gold, pred, ids = gum_copies
    assert run(capsys, "stats", gum_dir, "--split", "test", "--format", "json")[1] == \
        run(capsys, "stats", gold, "--format", "json")[1]
    assert json.loads(run(capsys, "stats", gum_dir, "--split", "test", "--format", "json")[1])["documents"] == 32
    doc = ids[0]
    status, drawn, err = run(capsys, "draw", gum_dir, "--split", "test", "--doc", doc, "--compare", pred, "--width", 0)
    assert status == 0, err
    assert drawn == run(capsys, "draw", gold / f"{doc}.dis", "--compare", pred / f"{doc}.dis", "--width", 0)[1]
    audit = ["--published", "S=90 N=80 R=70 F=60", "--format", "json"]
    status, audited, err = run(capsys, "audit", gum_dir, pred, "--split", "test", *audit)
    assert status == 0, err
    assert audited == run(capsys, "audit", gold, pred, *audit)[1]


@pytest.mark.gum
def test_split_errors_name_the_corpus_and_the_problem(gum_dir, gum_copies, tmp_path, capsys):
    gold, pred, ids = gum_copies
    status, _, err = run(capsys, "eval", gum_dir, pred, "--split", "tset")
    assert status == 2
    assert err == f"rstkit: error: {gum_dir}: corpus gum/lisp_nary has no split 'tset'; splits: dev, test, test2, " \
                  "train (several joined by +, e.g. train+dev)\n"
    status, _, err = run(capsys, "stats", gold, "--split", "test")  # a folder of files, no splits.tsv
    assert status == 2
    assert err.startswith(f"rstkit: error: {gold}: not a corpus with splits (no split 'test'): expected a GUM "
                          "checkout (splits.md, lisp_nary/), an RST-DT release")
    assert len(err.splitlines()) == 1
    partial = tmp_path / "partial"
    shutil.copytree(pred, partial)
    (partial / f"{ids[3]}.dis").unlink()
    status, _, err = run(capsys, "eval", gum_dir, partial, "--split", "test")
    assert status == 2
    assert err == f"rstkit: error: partial: 1 gold document(s) have no prediction: {ids[3]} (use --missing skip or " \
                  "--missing zero)\n"
    status, _, err = run(capsys, "draw", gum_dir, "--split", "test", "--doc", "GUM_not_in_test")
    assert status == 2 and "no document 'GUM_not_in_test' in split 'test' of this corpus" in err


def sample_corpus(root: Path, split_lines: str) -> Path:
    """The sample gold trees in a folder with a ``splits.tsv``."""
    corpus = root / "corpus"
    shutil.copytree(SAMPLE / "gold", corpus)
    (corpus / "splits.tsv").write_text(split_lines, encoding="utf-8")
    return corpus


def test_a_directory_with_splits_tsv(tmp_path, capsys):
    corpus = sample_corpus(tmp_path, "sample_note\ttest\nsample_bread\ttest\nsample_harbour\ttrain\n")
    by_hand = tmp_path / "by_hand"
    by_hand.mkdir()
    for doc_id in ("sample_note", "sample_bread"):
        shutil.copy(SAMPLE / "gold" / f"{doc_id}.dis", by_hand)
    options = ["--metric", "rst-parseval,parseval", "--format", "json"]
    status, out, err = run(capsys, "eval", corpus, SAMPLE / "pred", "--split", "test", *options)
    assert status == 0, err
    assert out == run(capsys, "eval", by_hand, SAMPLE / "pred", *options)[1]
    assert [d["doc_id"] for d in json.loads(out)[0]["documents"]] == ["sample_bread", "sample_note"]
    status, _, err = run(capsys, "eval", corpus, SAMPLE / "pred", "--split", "dev")
    assert status == 2
    assert err == f"rstkit: error: {corpus}: corpus corpus has no split 'dev'; splits: test, train " \
        "(several joined by +, e.g. train+dev)\n"


def test_split_of_standard_input_or_a_file_is_an_error(tmp_path, capsys, monkeypatch):
    file = SAMPLE / "gold" / "sample_bread.dis"
    status, _, err = run(capsys, "eval", file, SAMPLE / "pred" / "sample_bread.dis", "--split", "test")
    assert status == 2
    assert err.startswith(f"rstkit: error: {file}: a split ('test') is read from a corpus directory, not a file")
    monkeypatch.setattr("sys.stdin", open(file, encoding="utf-8"))  # noqa: SIM115 (closed by pytest)
    status, _, err = run(capsys, "stats", "-", "--split", "test")
    assert status == 2
    assert err == "rstkit: error: --split test reads a split of a corpus directory; PATH is standard input (-), " \
                  "one file\n"


def test_audit_paper_alone_refuses_split(capsys):
    status, _, err = run(capsys, "audit", "--paper", "morey2017", "--split", "test")
    assert status == 2 and "--split is for reading and scoring GOLD and PRED" in err


def test_evaluate_split_needs_a_path(tmp_path):
    corpus = sample_corpus(tmp_path, "sample_library\ttest\n")
    with pytest.warns(RSTKitWarning, match="pred: 3 predicted document"):  # the sample's others, not in the split
        result = evaluate(corpus, SAMPLE / "pred", EvalConfig(metric="parseval"), split="test")
    # sample_library alone: its worked scores, S 66.67 (2 of 3 attachment spans match, see evaluate's docstring)
    assert result.doc_ids == ["sample_library"] and round(result.scores["S"], 2) == 66.67
    tree = read_tree(SAMPLE / "gold" / "sample_library.dis")
    with pytest.raises(RSTKitError, match="split 'test' selects documents of a corpus directory; gold is a RSTTree"):
        evaluate(tree, tree, split="test")
