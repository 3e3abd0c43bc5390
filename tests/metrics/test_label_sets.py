"""Label sets that do not meet: a warning, in every output, where fewer than half of the prediction's
relation label tokens (after the label map, ``span`` and ``ROOT`` aside) occur among the gold's.

Every count below is derived by hand from the bracketed trees (each derivation in a comment)."""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from rstkit.cli import main
from rstkit.corpus import read_documents
from rstkit.formats import dumps
from rstkit.labels import get_label_map
from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics.relations import MEETING_SHARE
from rstkit.tree import EDU, RSTTree

SAMPLE = Path(__file__).resolve().parents[2] / "corpora" / "sample"

#: GUM's fine labels (gold) and its classes (prediction) on the same 4-EDU tree
GUM_FINE = "(Root 1-4 (N:span 1-3 (N:span 1-2 (N:joint-list 1) (N:joint-list 2)) (S:elaboration-additional 3)) " \
           "(S:causal-cause 4))"
GUM_CLASSES = "(Root 1-4 (N:span 1-3 (N:span 1-2 (N:joint 1) (N:joint 2)) (S:elaboration 3)) (S:causal 4))"


def tree(line: str, doc_id: str = "doc") -> RSTTree:
    root = RSTTree.fromstring(line).root
    return RSTTree.fromstring(line, tuple(EDU(i, f"word{i} more{i}") for i in range(1, root.end + 1)), doc_id)


def score(gold: str, pred: str | list[str], **settings) -> tuple:
    preds = [pred] if isinstance(pred, str) else pred
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = score_documents({"doc": tree(gold)}, [{"doc": tree(p)} for p in preds], EvalConfig(**settings))
    return result, [w for w in result.warnings if "relation labels" in w]


def test_gum_fine_labels_against_classes_warn():
    # original Parseval decisions: gold (1-4 NS causal-cause) (1-3 NS elaboration-additional) (1-2 NN joint-list),
    # predicted the same spans and nuclearity with causal, elaboration, joint: no predicted label occurs in the
    # gold (0 of 3), S = N = 100, R = F = 0
    result, found = score(GUM_FINE, GUM_CLASSES, metric="parseval")
    assert (result.scores["S"], result.scores["N"], result.scores["R"], result.scores["F"]) == (100, 100, 0, 0)
    assert found == [(
        "parseval: the relation labels of gold and system1 do not meet: 0 of 3 predicted relation labels on the "
        "gold's spans (0.0%, under 50%) occur among the gold's (span and ROOT aside; label map raw), so the "
        "relation measures compare label inventories; gold: causal-cause 1, elaboration-additional 1, joint-list 1; "
        "system1: causal 1, elaboration 1, joint 1; they meet under the label map gum (--labels gum)")]
    # rstdt18 (with unknown labels kept) maps elaboration-additional to elaboration and knows neither causal-cause,
    # causal nor joint-list: 1 of 3 predicted labels would meet, under half, so it is not named
    assert result.systems[0].label_sets.share == 0.0


def test_rst_parseval_and_dependency_count_their_own_rows():
    # RST-Parseval tuples (root excluded, leaves included): (1-3 span) (1-2 span) (1 joint-list) (2 joint-list)
    # (3 elaboration-additional) (4 causal-cause): span aside, gold joint-list 2, elaboration-additional 1,
    # causal-cause 1; predicted joint 2, elaboration 1, causal 1: 0 of 4; R = the two span tuples of 6 = 33.33
    result, found = score(GUM_FINE, GUM_CLASSES, metric="rst-parseval")
    assert round(result.scores["R"], 2) == 33.33
    assert len(found) == 1 and "0 of 4 predicted relation labels on" in found[0]
    assert "gold: joint-list 2, causal-cause 1, elaboration-additional 1;" in found[0]
    # dependencies (chain): EDU 1 the root (ROOT, aside), EDU 2 -> 1 joint-list, EDU 3 -> 1
    # elaboration-additional, EDU 4 -> 1 causal-cause: 0 of 3; R = the root's record (ROOT on both sides) of 4 = 25
    result, found = score(GUM_FINE, GUM_CLASSES, metric="dependency")
    assert result.scores["U"] == 100 and result.scores["R"] == 25
    assert len(found) == 1 and found[0].startswith("dependency: ") and "0 of 3 predicted relation labels on" in found[0]


def test_labels_gum_makes_them_meet():
    # under gum both sides are causal, elaboration, joint: every label meets, no warning, R = 100
    for metric in ("rst-parseval", "parseval", "dependency"):
        result, found = score(GUM_FINE, GUM_CLASSES, metric=metric, labels="gum")
        assert found == [] and result.scores["R"] == 100


def test_labels_that_meet_do_not_warn():
    result, found = score(GUM_FINE, GUM_FINE, metric="rst-parseval")
    assert found == [] and result.systems[0].label_sets.share == 1.0


def test_half_meets_under_half_warns():
    gold = "(Root 1-3 (N:span 1-2 (N:List 1) (N:List 2)) (S:elaboration 3))"
    # Parseval decisions (1-3 NS rel) (1-2 NN rel): gold elaboration, List
    assert MEETING_SHARE == 0.5
    _, half = score(gold, "(Root 1-3 (N:span 1-2 (N:List 1) (N:List 2)) (S:background 3))")  # List: 1 of 2
    assert half == []
    _, none = score(gold, "(Root 1-3 (N:span 1-2 (N:Joint 1) (N:Joint 2)) (S:background 3))")  # 0 of 2
    assert len(none) == 1 and "0 of 2 predicted relation labels on" in none[0]


def test_only_the_gold_spans_labels_count():
    # Parseval decisions: gold (1-4 NS elaboration) (1-3 NS elaboration) (1-2 NS elaboration); predicted
    # (1-4 NS elaboration) (2-4 NS purpose) (3-4 NS purpose). Of all predicted labels 1 of 3 occurs in the gold,
    # but R can only match on the gold's spans: there (1-4) 1 of 1 does, so the sets meet; S = R = 1/3
    gold = "(Root 1-4 (N:span 1-3 (N:span 1-2 (N:span 1) (S:elaboration 2)) (S:elaboration 3)) (S:elaboration 4))"
    pred = "(Root 1-4 (N:span 1) (S:elaboration 2-4 (N:span 2) (S:purpose 3-4 (N:span 3) (S:purpose 4))))"
    result, found = score(gold, pred)
    assert found == [] and round(result.scores["S"], 2) == round(result.scores["R"], 2) == 33.33
    sets = result.systems[0].label_sets
    assert (dict(sets.pred), dict(sets.matched), sets.share) == ({"elaboration": 1, "purpose": 2}, {"elaboration": 1},
                                                                 1.0)


def test_span_and_root_are_not_relation_labels():
    # two EDUs: gold (1 N span) (2 S elaboration-additional), predicted (2 S elaboration). Counting span (RST-Parseval)
    # or the dependency root's ROOT would make 1 of 2 meet; they are structure, so 0 of 1 does not
    gold, pred = "(Root 1-2 (N:span 1) (S:elaboration-additional 2))", "(Root 1-2 (N:span 1) (S:elaboration 2))"
    for metric in ("rst-parseval", "dependency"):
        result, found = score(gold, pred, metric=metric)
        assert len(found) == 1 and "0 of 1 predicted relation labels on" in found[0]
        assert dict(result.systems[0].label_sets.gold) == {"elaboration-additional": 1}


def test_no_built_in_map_makes_them_meet():
    gold = "(Root 1-3 (N:span 1-2 (N:List 1) (N:List 2)) (S:elaboration 3))"
    _, found = score(gold, "(Root 1-3 (N:span 1-2 (N:foo 1) (N:foo 2)) (S:bar 3))")
    assert len(found) == 1 and found[0].endswith("no built-in label map (gum, rstdt18) makes them meet")


def test_a_map_that_lacks_labels_is_named_with_unknown_labels_kept():
    # gold Contrast (NN 1-2), elaboration-additional (NS 1-3); predicted contrast, elaboration: raw 0 of 2;
    # rstdt18 maps Contrast and contrast to contrast, both elaborations to elaboration: 2 of 2; gum knows neither
    # Contrast nor contrast (kept, lowercased: they meet) and maps both elaborations: 2 of 2, with unknown labels kept
    gold = "(Root 1-3 (N:span 1-2 (N:Contrast 1) (N:Contrast 2)) (S:elaboration-additional 3))"
    _, found = score(gold, "(Root 1-3 (N:span 1-2 (N:contrast 1) (N:contrast 2)) (S:elaboration 3))")
    assert found[0].endswith("they meet under the label map gum (--labels gum --keep-unknown-labels) "
                             "and under the label map rstdt18 (--labels rstdt18)")
    _, kept = score(gold, "(Root 1-3 (N:span 1-2 (N:contrast 1) (N:contrast 2)) (S:elaboration 3))",
                    unknown_labels="keep", labels="raw")
    assert kept[0].endswith("they meet under the label map gum (--labels gum) "
                            "and under the label map rstdt18 (--labels rstdt18)")


def test_each_system_is_checked_alone():
    _, found = score(GUM_FINE, [GUM_FINE, GUM_CLASSES], metric="parseval")
    assert len(found) == 1 and "gold and system2 do not meet" in found[0]


def test_segmentation_has_no_relations_to_compare():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = score_documents({"doc": tree(GUM_FINE)}, {"doc": tree(GUM_CLASSES)}, EvalConfig(metric="segmentation"))
    assert result.systems[0].label_sets is None and not any("relation labels" in w for w in result.warnings)


# -- every output shows it ------------------------------------------------------------------------------
@pytest.fixture
def gum_pair(tmp_path):
    (tmp_path / "gold.dis").write_text(dumps(tree(GUM_FINE), "dis"), encoding="utf-8")
    (tmp_path / "pred.dis").write_text(dumps(tree(GUM_CLASSES), "dis"), encoding="utf-8")
    return tmp_path / "gold.dis", tmp_path / "pred.dis"


def test_eval_text_and_json_show_it(gum_pair, capsys):
    gold, pred = gum_pair
    assert main(["eval", str(gold), str(pred)]) == 0
    captured = capsys.readouterr()
    assert "rstkit: warning: parseval: the relation labels of gold and pred do not meet: 0 of 3" in captured.err
    assert "(--labels gum)" in captured.err
    assert main(["eval", str(gold), str(pred), "--format", "json", "--metric", "all"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [sum("do not meet" in w for w in o["warnings"]) for o in payload] == [1, 1, 1]
    assert main(["eval", str(gold), str(pred), "--labels", "gum", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["warnings"] == [] and "do not meet" not in captured.err


def test_presets_show_it(gum_pair, capsys):
    gold, pred = gum_pair
    assert main(["eval", str(gold), str(pred), "--preset", "neuralrst", "--format", "json"]) == 0  # labels raw
    assert any(w.startswith("rst-parseval: the relation labels of gold and pred do not meet")
               for w in json.loads(capsys.readouterr().out)["warnings"])
    assert main(["eval", str(gold), str(pred), "--preset", "crossgenre", "--format", "json"]) == 0  # labels gum
    assert json.loads(capsys.readouterr().out)["warnings"] == []


def test_comparison_page_shows_it(gum_pair, tmp_path):
    gold, pred = gum_pair
    assert main(["draw", str(gold), "--compare", str(pred), "-o", str(tmp_path / "raw.html")]) == 0
    page = (tmp_path / "raw.html").read_text(encoding="utf-8")
    assert "parseval: the relation labels of gold and prediction do not meet: 0 of 3" in page
    assert "rst-parseval: the relation labels of gold and prediction do not meet: 0 of 4" in page
    assert main(["draw", str(gold), "--compare", str(pred), "--labels", "gum", "-o", str(tmp_path / "gum.html")]) == 0
    assert "do not meet" not in (tmp_path / "gum.html").read_text(encoding="utf-8")


# -- corpora whose labels meet --------------------------------------------------------------------------
def test_sample_corpus_labels_meet(capsys):
    for labels in ("raw", "rstdt18"):
        assert main(["eval", str(SAMPLE / "gold"), str(SAMPLE / "pred"), "--metric", "all", "--labels", labels]) == 0
        assert "do not meet" not in capsys.readouterr().err


@pytest.mark.slow  # GUM-wide
@pytest.mark.gum
def test_gum_fine_against_its_classes_and_nary_against_binary(gum_dir, gum_nary):
    gold = gum_nary
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        binary = read_documents(gum_dir / "lisp_binary", lenient=True)
    classes = {doc_id: get_label_map("gum").apply(t) for doc_id, t in gold.items()}
    config = EvalConfig(metric="parseval")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert not any("do not meet" in w for w in score_documents(gold, binary, config).warnings)
        found = [w for w in score_documents(gold, classes, config).warnings if "do not meet" in w]
        assert len(found) == 1 and found[0].endswith("they meet under the label map gum (--labels gum)")
        under_gum = score_documents(gold, classes, config.replace(labels="gum"))
        assert not any("do not meet" in w for w in under_gum.warnings)
