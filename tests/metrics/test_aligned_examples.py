"""``edus="aligned"`` (``rstkit eval --edus aligned``): hand-derived examples, errors, the CLI.

Every expected number here is derived by hand in the comments, from docs/evaluation.md
(Marcu's tuples: every node but the root, leaves included; attachment decisions: every internal
node, root included) and the character-span rule of rstkit.metrics.aligned: a node's span is the
(first, last) character of its first and last EDU in the document's text with whitespace removed
(offsets from 0). Segmentation counts the positions where an EDU begins, the document-initial
one included (DISRPT's seg_eval.py counts every BeginSeg=Yes token).
"""
from __future__ import annotations

import json

import pytest

from rstkit.cli import main
from rstkit.corpus import read_documents
from rstkit.errors import EDUMismatchError, MissingDocumentError, RSTKitError, RSTKitWarning
from rstkit.formats.dis import loads_dis
from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics.config import parse_signature
from rstkit.metrics.counts import KeyCodec
from rstkit.tree import EDU

# Gold: four EDUs of four characters each once whitespace is removed.
#   EDU 1 "aaaa" = chars 0-3, EDU 2 "bb bb" = 4-7, EDU 3 "cccc" = 8-11, EDU 4 "dddd" = 12-15
# Tree: Root[ N(1-2)[ N 1 span, S 2 elaboration ] , S(3-4)[ N 3 List, N 4 List ] background ]
# RST-Parseval tuples (6 = 2n-2): (0,3,N,span) (4,7,S,elaboration) (0,7,N,span)
#                                 (8,11,N,List) (12,15,N,List) (8,15,S,background)
# Attachment decisions (3 = n-1): (0,15,NS,background) (0,7,NS,elaboration) (8,15,NN,List)
# EDU starts: {0, 4, 8, 12}
GOLD = """( Root (span 1 4)
  ( Nucleus (span 1 2) (rel2par span)
    ( Nucleus (leaf 1) (rel2par span) (text _!aaaa_!) )
    ( Satellite (leaf 2) (rel2par elaboration) (text _!bb bb_!) ) )
  ( Satellite (span 3 4) (rel2par background)
    ( Nucleus (leaf 3) (rel2par List) (text _!cccc_!) )
    ( Nucleus (leaf 4) (rel2par List) (text _!dddd_!) ) ) )"""

# Split: gold EDU 2 becomes "bb" (4-5) and "b b" (6-7); 5 EDUs, starts {0, 4, 6, 8, 12}.
# RST-Parseval (8 tuples): (0,3,N,span) (4,5,N,span) (6,7,S,purpose) (4,7,S,elaboration) (0,7,N,span)
#                          (8,11,N,List) (12,15,N,List) (8,15,S,background)
#   all 6 gold tuples are there, labels included: S = N = R = F: P 6/8 = 75, R 6/6 = 100, F1 = 85.714
# Attachments (4): (0,15,NS,background) (0,7,NS,elaboration) (4,7,NS,purpose) (8,15,NN,List)
#   the 3 gold decisions are there: P 3/4 = 75, R 3/3 = 100, F1 = 85.714 (S N R F alike)
# Segmentation: gold 4, pred 5, matched 4 ({0,4,8,12}): P 80, R 100, F1 88.889
SPLIT = """( Root (span 1 5)
  ( Nucleus (span 1 3) (rel2par span)
    ( Nucleus (leaf 1) (rel2par span) (text _!aa aa_!) )
    ( Satellite (span 2 3) (rel2par elaboration)
      ( Nucleus (leaf 2) (rel2par span) (text _!bb_!) )
      ( Satellite (leaf 3) (rel2par purpose) (text _!b b_!) ) ) )
  ( Satellite (span 4 5) (rel2par background)
    ( Nucleus (leaf 4) (rel2par List) (text _!cccc_!) )
    ( Nucleus (leaf 5) (rel2par List) (text _!dddd_!) ) ) )"""

# Merge: gold EDUs 3 and 4 become one EDU "cccc dddd" (8-15), labelled circumstance; 3 EDUs, starts {0, 4, 8}.
# RST-Parseval (4): (0,3,N,span) (4,7,S,elaboration) (0,7,N,span) (8,15,S,circumstance)
#   S and N: 4 matched, P 4/4 = 100, R 4/6 = 66.667, F1 = 80
#   R and F: (8,15) has circumstance, gold background: 3 matched, P 3/4 = 75, R 3/6 = 50, F1 = 60
# Attachments (2): (0,15,NS,circumstance) (0,7,NS,elaboration)
#   S and N: 2 matched, P 100, R 2/3 = 66.667, F1 = 80; R and F: 1 matched, P 50, R 33.333, F1 = 40
# Segmentation: gold 4, pred 3, matched 3: P 100, R 75, F1 85.714
MERGE = """( Root (span 1 3)
  ( Nucleus (span 1 2) (rel2par span)
    ( Nucleus (leaf 1) (rel2par span) (text _!aaaa_!) )
    ( Satellite (leaf 2) (rel2par elaboration) (text _!bbbb_!) ) )
  ( Satellite (leaf 3) (rel2par circumstance) (text _!cccc dddd_!) ) )"""

# Shift: the boundary between gold EDUs 2 and 3 moves two characters right: "bbbb cc" (4-9), "cc" (10-11);
# the gold tree shape and labels. Starts {0, 4, 10, 12}.
# RST-Parseval (6): (0,3,N,span) (4,9,S,elaboration) (0,9,N,span) (10,11,N,List) (12,15,N,List)
#                   (10,15,S,background): only (0,3) and (12,15) are gold spans: 2 matched (labels agree),
#   P = R = 2/6, F1 = 33.333 (S N R F alike)
# Attachments (3): (0,15,NS,background) (0,9,NS,elaboration) (10,15,NN,List): only the root matches:
#   P = R = F1 = 1/3 = 33.333 (S N R F alike)
# Segmentation: gold 4, pred 4, matched 3 ({0,4,12}): P = R = F1 = 75
SHIFT = """( Root (span 1 4)
  ( Nucleus (span 1 2) (rel2par span)
    ( Nucleus (leaf 1) (rel2par span) (text _!aaaa_!) )
    ( Satellite (leaf 2) (rel2par elaboration) (text _!bbbb cc_!) ) )
  ( Satellite (span 3 4) (rel2par background)
    ( Nucleus (leaf 3) (rel2par List) (text _!cc_!) )
    ( Nucleus (leaf 4) (rel2par List) (text _!dddd_!) ) ) )"""

PREDICTIONS = {"split": SPLIT, "merge": MERGE, "shift": SHIFT}
ALIGNED = EvalConfig(edus="aligned")


def tree(text: str, doc_id: str, source: str | None = None):
    return loads_dis(text, source, doc_id=doc_id)


def score(name: str, metric: str):
    gold = {name: tree(GOLD, name, "gold.dis")}
    pred = {name: tree(PREDICTIONS[name], name, "pred.dis")}
    return score_documents(gold, pred, ALIGNED.replace(metric=metric))


def triple(result) -> dict[str, tuple[float, float, float]]:
    return {k: (result.precision[k], result.recall[k], result.scores[k]) for k in "SNRF"}


@pytest.mark.parametrize("name, metric, expected", [
    ("split", "rst-parseval", {k: (75.0, 100.0, 600 / 7) for k in "SNRF"}),
    ("split", "parseval", {k: (75.0, 100.0, 600 / 7) for k in "SNRF"}),
    ("merge", "rst-parseval", {"S": (100.0, 200 / 3, 80.0), "N": (100.0, 200 / 3, 80.0),
                               "R": (75.0, 50.0, 60.0), "F": (75.0, 50.0, 60.0)}),
    ("merge", "parseval", {"S": (100.0, 200 / 3, 80.0), "N": (100.0, 200 / 3, 80.0),
                           "R": (50.0, 100 / 3, 40.0), "F": (50.0, 100 / 3, 40.0)}),
    ("shift", "rst-parseval", {k: (100 / 3, 100 / 3, 100 / 3) for k in "SNRF"}),
    ("shift", "parseval", {k: (100 / 3, 100 / 3, 100 / 3) for k in "SNRF"}),
])
def test_hand_derived_documents(name, metric, expected):
    got = triple(score(name, metric))
    for k in "SNRF":
        assert got[k] == pytest.approx(expected[k]), k


@pytest.mark.parametrize("name, counts, prf", [
    ("split", (4, 5, 4), (80.0, 100.0, 800 / 9)),
    ("merge", (4, 3, 3), (100.0, 75.0, 600 / 7)),
    ("shift", (4, 4, 3), (75.0, 75.0, 75.0)),
])
def test_hand_derived_segmentation(name, counts, prf):
    for metric in ("rst-parseval", "parseval"):  # the segmentation does not depend on the metric
        seg = score(name, metric).segmentation()
        assert (seg["gold"], seg["pred"], seg["matched"]) == counts
        assert (seg["precision"], seg["recall"], seg["f1"]) == pytest.approx(prf)


def test_hand_derived_corpus_micro():
    """The three predictions as one corpus, micro-averaged (counts summed over documents):
    RST-Parseval S, N: matched 6+4+2 = 12 of 8+4+6 = 18 predicted and 18 gold: P = R = F1 = 66.667;
    R, F: 6+3+2 = 11: 61.111. Attachments S, N: 3+2+1 = 6 of 4+2+3 = 9 and 9 gold: 66.667;
    R, F: 3+1+1 = 5: 55.556. Segmentation: gold 12, pred 5+3+4 = 12, matched 4+3+3 = 10: 83.333."""
    gold = {name: tree(GOLD, name) for name in PREDICTIONS}
    pred = {name: tree(text, name) for name, text in PREDICTIONS.items()}
    rst = score_documents(gold, pred, ALIGNED.replace(metric="rst-parseval"))
    orig = score_documents(gold, pred, ALIGNED.replace(metric="parseval"))
    for k, value in {"S": 200 / 3, "N": 200 / 3, "R": 1100 / 18, "F": 1100 / 18}.items():
        assert (rst.precision[k], rst.recall[k], rst.scores[k]) == pytest.approx((value,) * 3)
    for k, value in {"S": 200 / 3, "N": 200 / 3, "R": 500 / 9, "F": 500 / 9}.items():
        assert (orig.precision[k], orig.recall[k], orig.scores[k]) == pytest.approx((value,) * 3)
    seg = rst.segmentation()
    assert (seg["gold"], seg["pred"], seg["matched"]) == (12, 12, 10)
    assert seg["f1"] == pytest.approx(250 / 3)
    rows = {row["doc_id"]: row for row in rst.document_counts()}
    assert rows["merge"]["segmentation"] == {"gold": 4, "pred": 3, "matched": 3}
    assert rows["merge"]["S"] == {"matched": 4, "gold": 6, "pred": 4, "f1": 80.0}


def test_the_signature_says_aligned():
    assert parse_signature(score("split", "parseval").signature)["edus"] == "aligned"
    assert parse_signature(score_documents({"d": tree(GOLD, "d")}, {"d": tree(GOLD, "d")}).signature)["edus"] == "gold"


# -- gold mode: strict, and it suggests aligned ----------------------------------------------------------
def test_gold_mode_count_mismatch_suggests_aligned():
    with pytest.raises(EDUMismatchError, match="EDU count mismatch") as info:
        score_documents({"split": tree(GOLD, "split")}, {"split": tree(SPLIT, "split")})
    assert info.value.fixes == ("lenient", "edus_aligned")


def test_gold_mode_text_mismatch_suggests_aligned_only_over_the_same_text():
    with pytest.raises(EDUMismatchError, match="EDU text mismatch") as info:  # a shifted boundary: same text
        score_documents({"shift": tree(GOLD, "shift")}, {"shift": tree(SHIFT, "shift")})
    assert info.value.fixes == ("lenient", "edus_aligned")
    other = GOLD.replace("_!cccc_!", "_!cxcc_!")
    with pytest.raises(EDUMismatchError, match="EDU text mismatch") as info:  # different words: aligning can't help
        score_documents({"d": tree(GOLD, "d")}, {"d": tree(other, "d")})
    assert info.value.fixes == ("lenient",)


# -- aligned mode: differing texts ---------------------------------------------------------------------------
def test_a_changed_character_is_aligned_approximately_and_reported():
    # the split prediction with "b b" (EDU 3) changed to "b x": one character changed, paired with gold's "b",
    # so every boundary and span is where it was: the split numbers above (RST-Parseval 6 of 8 and of 6)
    wrong = SPLIT.replace("_!b b_!", "_!b x_!")
    with pytest.warns(RSTKitWarning, match=r"document 'd': 1 character\(s\) of the prediction p/d.dis and gold "
                                           r"g/d.dis aligned approximately \(1 changed, 0 inserted, 0 deleted\)"):
        result = score_documents({"d": tree(GOLD, "d", "g/d.dis")}, {"d": tree(wrong, "d", "p/d.dis")},
                          ALIGNED.replace(metric="rst-parseval"))
    counts = result.systems[0].counts
    assert (counts.matched[0, 0], counts.gold[0, 0], counts.pred[0, 0]) == (6, 6, 8)
    assert result.alignment() == [{"doc_id": "d", "changed": 1, "inserted": 0, "deleted": 0}]


def test_different_text_names_document_files_position_and_edus():
    # the merged EDU "cccc dddd" (gold characters 9-16, gold EDUs 3-4) written "wxyz wxyz": 8 gold characters
    # the prediction lacks, more than MAX_APPROXIMATE = 5
    wrong = MERGE.replace("_!cccc dddd_!", "_!wxyz wxyz_!")
    with pytest.raises(EDUMismatchError) as info:
        score_documents({"d": tree(GOLD, "d", "g/d.dis")}, {"d": tree(wrong, "d", "p/d.dis")}, ALIGNED)
    message = str(info.value)
    assert "text mismatch for document 'd'" in message
    assert "the prediction p/d.dis lacks 8 characters of the gold g/d.dis from character 9 (gold EDUs 3-4): " \
           "'ccccdddd'" in message
    assert "and 1 more stretch" in message and info.value.fixes == ("lenient",)


def test_a_prediction_that_stops_early_by_a_few_characters():
    # the merged EDU without "dddd": 4 gold characters lacking (not more than 5): aligned approximately. The
    # missing text follows the prediction's last EDU, and gold EDU 4 begins where it begins, so the predicted
    # boundary stays there: predicted EDU 3 is gold EDU 3 (8-11). RST-Parseval (by hand, as MERGE above but
    # (8,11) for (8,15)): (0,3) (4,7) (0,7) (8,11) all gold spans: S 4 matched, 6 gold, 4 predicted;
    # (8,11) is S circumstance, gold N List: N 3 matched. Segmentation: gold 4, predicted 3, matched 3.
    short = MERGE.replace("_!cccc dddd_!", "_!cccc_!")
    with pytest.warns(RSTKitWarning, match=r"4 character\(s\) .* \(0 changed, 0 inserted, 4 deleted\)"):
        result = score_documents({"d": tree(GOLD, "d")}, {"d": tree(short, "d")},
                                 ALIGNED.replace(metric="rst-parseval"))
    counts = result.systems[0].counts
    assert counts.matched[:2, 0].tolist() == [4, 3] and counts.gold[0, 0] == 6 and counts.pred[0, 0] == 4
    seg = result.segmentation()
    assert (seg["gold"], seg["pred"], seg["matched"]) == (4, 3, 3)


def test_unprintable_characters_are_escaped_in_the_message():
    wrong = GOLD.replace("_!cccc_!", "_!cc\u200b\u200b\u200b\u200b\u200b\u200bcc_!")  # 6 zero-width spaces
    with pytest.raises(EDUMismatchError, match=r"has 6 characters that the gold <string> lacks, from its character "
                                               r"11 \(predicted EDU 3\): '(\\u200b){6}'"):
        score_documents({"d": tree(GOLD, "d")}, {"d": tree(wrong, "d")}, ALIGNED)


def test_a_side_without_text_is_an_error():
    gold = tree(GOLD, "d", "gold.dis")
    no_text = type(gold)(gold.root, tuple(EDU(e.index) for e in gold.edus), "d", "pred.brackets")
    with pytest.raises(EDUMismatchError, match="the prediction pred.brackets has no EDU text"):
        score_documents({"d": gold}, {"d": no_text}, ALIGNED)
    with pytest.raises(EDUMismatchError, match="the gold pred.brackets has no EDU text"):
        score_documents({"d": no_text}, {"d": gold}, ALIGNED)
    one_blank = type(gold)(gold.root, (*gold.edus[:2], EDU(3, " \t"), gold.edus[3]), "d", "pred.dis")
    with pytest.raises(EDUMismatchError, match="1 EDU.s. of the prediction pred.dis have no text .* EDU 3"):
        score_documents({"d": gold}, {"d": one_blank}, ALIGNED)


def test_tokenisation_and_escapes_do_not_matter():
    """The normalisation of EDU-text comparison: PTB escapes and quotes undone, whitespace removed."""
    gold = GOLD.replace("_!aaaa_!", '_!"(a)"_!')
    pred = SHIFT.replace("_!aaaa_!", "_!`` -LRB- a -RRB- ''_!")
    seg = score_documents({"d": tree(gold, "d")}, {"d": tree(pred, "d")}, ALIGNED).segmentation()
    assert (seg["gold"], seg["pred"], seg["matched"]) == (4, 4, 3)


# -- interplay with the other settings ---------------------------------------------------------------------
def test_lenient_changes_nothing_over_the_same_text():
    plain = score("merge", "parseval")
    gold, pred = {"merge": tree(GOLD, "merge")}, {"merge": tree(MERGE, "merge")}
    lenient = score_documents(gold, pred, ALIGNED.replace(metric="parseval", lenient=True))
    assert triple(lenient) == triple(plain) and lenient.warnings == []
    assert "lenient=yes" in lenient.signature and "edus=aligned" in lenient.signature


def test_missing_documents_follow_the_policy():
    gold = {"a": tree(GOLD, "a"), "b": tree(GOLD, "b")}
    pred = {"a": tree(SHIFT, "a")}
    with pytest.raises(MissingDocumentError):
        score_documents(gold, pred, ALIGNED)
    # skip: document b is not scored, as with gold EDUs: the shift numbers of document a alone
    with pytest.warns(RSTKitWarning, match="1 document\\(s\\) without prediction skipped: b"):
        skipped = score_documents(gold, pred, ALIGNED.replace(missing="skip"))
    assert skipped.scores["S"] == pytest.approx(100 / 3) and skipped.segmentation()["gold"] == 4
    # zero: b counts as an empty prediction: attachments 1 matched of 3 predicted and 3 + 3 gold:
    # P 33.333, R 16.667; segmentation: gold 8, pred 4, matched 3
    with pytest.warns(RSTKitWarning, match="1 document\\(s\\) without prediction scored as empty: b"):
        zero = score_documents(gold, pred, ALIGNED.replace(missing="zero"))
    assert (zero.precision["S"], zero.recall["S"]) == pytest.approx((100 / 3, 50 / 3))
    seg = zero.segmentation()
    assert (seg["gold"], seg["pred"], seg["matched"]) == (8, 4, 3)


def test_one_edu_documents_behave_as_with_gold_edus(examples_dir):
    gold = read_documents(examples_dir / "one_edu" / "gold")
    pred = read_documents(examples_dir / "one_edu" / "pred")
    for metric in ("rst-parseval", "parseval"):
        for average in ("micro", "macro", "dplp"):
            for exclude in (False, True):
                config = EvalConfig(metric=metric, average=average, exclude_single_edu=exclude)
                with pytest.warns(Warning, match="one-EDU"):
                    expected = score_documents(gold, pred, config)
                with pytest.warns(Warning, match="one-EDU"):
                    got = score_documents(gold, pred, config.replace(edus="aligned"))
                assert got.scores == expected.scores
                assert got.segmentation()["f1"] == 100.0


def test_one_edu_gold_predicted_as_two():
    """A 1-EDU gold document has no tuple; a prediction that splits it has 2 RST-Parseval tuples (its
    leaves) and 1 attachment: micro P = R = 0; segmentation gold 1, pred 2, matched 1 (offset 0)."""
    gold = tree("( Root (leaf 1) (text _!aaaa bbbb_!) )", "d")
    pred = tree("( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!aaaa_!) )"
                " ( Satellite (leaf 2) (rel2par elaboration) (text _!bbbb_!) ) )", "d")
    for metric, n_pred in (("rst-parseval", 2), ("parseval", 1)):
        with pytest.warns(Warning, match="one-EDU"):
            result = score_documents({"d": gold}, {"d": pred}, ALIGNED.replace(metric=metric))
        counts = result.systems[0].counts
        assert (counts.matched[0, 0], counts.gold[0, 0], counts.pred[0, 0]) == (0, 0, n_pred)
        seg = result.segmentation()
        assert (seg["gold"], seg["pred"], seg["matched"]) == (1, 2, 1)


def test_several_systems_each_get_a_segmentation():
    gold = {"d": tree(GOLD, "d")}
    result = score_documents(gold, [{"d": tree(SPLIT, "d")}, {"d": tree(MERGE, "d")}], ALIGNED, names=["s", "m"])
    assert result.segmentation(0)["pred"] == 5 and result.segmentation(1)["pred"] == 3
    assert result.systems[1].scores.f1["S"] == pytest.approx(80.0)


def test_key_codec_fails_clearly_past_64_bits():
    """Renumbered spans keep the radix at the number of EDU boundaries, so real corpora never get here;
    the codec still refuses rather than overflow."""
    with pytest.raises(RSTKitError, match="too large to encode spans as 64-bit keys"):
        KeyCodec(n_docs=10**7, max_edu=10**6)  # 10**7 * (10**6 + 1)**2 > 2**62


# -- the command line ---------------------------------------------------------------------------------------
@pytest.fixture()
def corpus(tmp_path):
    for side, texts in (("gold", {name: GOLD for name in PREDICTIONS}), ("pred", PREDICTIONS)):
        (tmp_path / side).mkdir()
        for name, text in texts.items():
            (tmp_path / side / f"{name}.dis").write_text(text, encoding="utf-8")
    return tmp_path / "gold", tmp_path / "pred"


def test_cli_gold_mode_suggests_the_flag(corpus, capsys):
    gold, pred = corpus
    assert main(["eval", str(gold), str(pred)]) == 2
    err = capsys.readouterr().err
    assert "EDU count mismatch" in err and "(use --lenient or --edus aligned)" in err


def test_cli_text_and_json(corpus, capsys):
    gold, pred = corpus
    assert main(["eval", str(gold), str(pred), "--edus", "aligned", "--metric", "all"]) == 0
    out = capsys.readouterr().out
    # the hand-derived corpus numbers above in one table (a row per metric), and the segmentation line
    # under it once (it does not depend on the metric)
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in out.splitlines()}
    assert {rows[("rst-parseval", "micro")][2], rows[("parseval", "micro")][2]} == {"61.11", "55.56"}
    assert [rows[(m, "micro")][:2] for m in ("rst-parseval", "parseval")] == [["66.67", "66.67"]] * 2
    assert out.count("segmentation (pred, EDU boundaries, micro): P 83.33  R 83.33  F1 83.33  "
                     "(gold 12, predicted 12, matched 10)") == 1
    assert "|edus=aligned|" in out
    assert main(["eval", str(gold), str(pred), "--edus", "aligned", "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["segmentation"] == {"precision": pytest.approx(250 / 3), "recall": pytest.approx(250 / 3),
                                       "f1": pytest.approx(250 / 3), "gold": 12, "pred": 12, "matched": 10}
    assert payload["settings"]["edus"] == "aligned"
    assert EvalConfig.from_signature(payload["signature"]) == ALIGNED


def test_cli_gold_mode_prints_no_segmentation(capsys):
    assert main(["eval", "corpora/sample/gold", "corpora/sample/pred", "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert "segmentation" not in payload and "|edus=gold|" in payload["signature"]
