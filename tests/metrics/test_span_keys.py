"""``span_key`` (``--span-key chars|first-edu-end``) for aligned EDUs, against DMRST's metric.

DMRST_Parser's ``Metric.py`` (read for its facts; no code of it here) keys every span by
``"<last token of its first EDU>-<last token of its last EDU>"`` through the EDU breaks of its
own side, so gold and prediction meet only where those token positions agree: with
``use_org_Parseval=False`` each internal node gives its two children (relation, nuclearity;
``span`` on the nucleus of NS/SN, the node's one relation on both children of NN), with ``True``
each internal node gives itself (a two-letter nuclearity, the relation that is not ``span``).
Micro P = c/p, R = c/g, F1 = 2c/(g + p), Full = both matched; macro is the mean of per-document
F1 (S, N, R). :func:`dmrst_scores` re-implements that on oracle trees (tests/support/oracle.py) and plain
character counts; it shares no code with rstkit.
"""
from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.cli import main
from rstkit.errors import RSTKitError
from rstkit.formats.dis import loads_dis
from rstkit.metrics import EvalConfig, score_documents
from tests.metrics.test_aligned_examples import GOLD, MERGE, SPLIT
from tests.support import oracle
from tests.support.oracle import T


# -- the independent re-implementation ---------------------------------------------------------------
def leaves(tree: T) -> list[T]:
    return [n for n in oracle.walk(tree) if not n.kids]


def breaks(texts: list[str]) -> list[int]:
    """The position of each EDU's last character in the text without whitespace (DMRST's EDU breaks,
    with characters for tokens)."""
    out, at = [], -1
    for text in texts:
        at += len("".join(text.split()))
        out.append(at)
    return out


def dmrst_entries(tree: T, texts: list[str], org_parseval: bool, fixer: dict[str, str] | None = None
                  ) -> dict[str, tuple[str, str]]:
    """DMRST's dictionary of one document: span key -> (relation, nuclearity); ``fixer`` rewrites a node's
    ``relation_pair`` (lowercased) first, as isanlp_rst's data_manager.py does."""
    ends = breaks(texts)

    def key(node: T) -> str:
        return f"{ends[node.start - 1]}-{ends[node.end - 1]}"

    out: dict[str, tuple[str, str]] = {}
    for node in oracle.walk(tree):
        if not node.kids:
            continue
        left, right = node.kids
        pair = left.nuc + right.nuc
        relation = right.rel if pair == "NN" else (right.rel if pair == "NS" else left.rel)
        fixed = (fixer or {}).get(f"{relation}_{pair}".lower())
        if fixed is not None:
            relation, pair = fixed.split("_")[0], fixed.split("_")[1].upper()
        if org_parseval:
            out[key(node)] = (relation, pair)
        else:
            out[key(left)] = ("span" if pair == "NS" else relation, left.nuc)
            out[key(right)] = ("span" if pair == "SN" else relation, right.nuc)
    return out


def dmrst_counts(gold: dict, pred: dict) -> tuple[dict[str, int], int, int]:
    both = set(gold) & set(pred)
    matched = {"S": len(both), "N": sum(gold[k][1] == pred[k][1] for k in both),
               "R": sum(gold[k][0] == pred[k][0] for k in both), "F": sum(gold[k] == pred[k] for k in both)}
    return matched, len(gold), len(pred)


def dmrst_scores(pairs: list[tuple[T, list[str], T, list[str]]], org_parseval: bool,
                 fixer: dict[str, str] | None = None) -> dict[str, dict[str, float]]:
    """Micro (S N R F) and macro (S N R) F1 in percent, as DMRST's Metric.py computes them."""
    per_doc = [dmrst_counts(dmrst_entries(g, gt, org_parseval, fixer), dmrst_entries(p, pt, org_parseval, fixer))
               for g, gt, p, pt in pairs]
    g_total, p_total = sum(d[1] for d in per_doc), sum(d[2] for d in per_doc)
    micro = {m: 100 * 2 * sum(d[0][m] for d in per_doc) / (g_total + p_total) for m in "SNRF"}
    macro = {m: 100 * sum(2 * d[0][m] / (d[1] + d[2]) for d in per_doc) / len(per_doc) for m in "SNR"}
    return {"micro": micro, "macro": macro}


# -- predicted segmentations of GUM: merged and split EDUs, same text ----------------------------------
def renumbered(tree: T, counter: list[int]) -> T:
    if not tree.kids:
        counter[0] += 1
        return T(counter[0], counter[0], tree.nuc, tree.rel)
    return oracle.grouped(tree.nuc, tree.rel, [renumbered(k, counter) for k in tree.kids])


def resegmented(tree: T, texts: list[str], rng: random.Random) -> tuple[T, list[str]]:
    """``tree`` with some pairs of sister EDUs merged, some EDUs split at a space (into nucleus + an
    elaboration), some satellites relabelled; EDU texts follow, so the text stays the same."""
    new_texts: list[str] = []

    def walk(node: T) -> T:
        if node.kids and all(not k.kids for k in node.kids) and rng.random() < 0.25:
            new_texts.append(" ".join(texts[k.start - 1] for k in node.kids))
            return T(0, 0, node.nuc, node.rel)
        if not node.kids:
            words = texts[node.start - 1].split()
            if len(words) > 3 and rng.random() < 0.15:
                cut = rng.randrange(1, len(words))
                new_texts.extend([" ".join(words[:cut]), " ".join(words[cut:])])
                halves = [T(0, 0, "N", "span"), T(0, 0, "S", "elaboration-additional")]
                return oracle.grouped(node.nuc, node.rel, halves)
            new_texts.append(texts[node.start - 1])
            return node
        kids = [walk(k) for k in node.kids]
        if node.kids[1].nuc == "S" and rng.random() < 0.1:
            kids[1] = kids[1]._replace(rel="causal-cause")
        return oracle.grouped(node.nuc, node.rel, kids)

    return renumbered(walk(tree), [0]), new_texts


def edu_texts(dis_text: str) -> list[str]:
    return re.findall(r"\(text _!(.*?)_!\)", dis_text, flags=re.DOTALL)


@pytest.fixture(scope="module")
def gum_pairs(gum_dir):
    """GUM test documents (binary gold, lisp_binary) with resegmented predictions: oracle trees and texts,
    and the same as rstkit trees read from .dis text."""
    split = (gum_dir / "splits.md").read_text().split("## test\n")[1].split("##")[0]
    test_ids = re.findall(r"\* (\S+)", split)
    rng = random.Random(23)
    pairs, gold, pred = [], {}, {}
    for doc in sorted(test_ids)[:12]:
        text = (gum_dir / "lisp_binary" / f"{doc}.dis").read_text(encoding="utf-8")
        gold_t, texts = oracle.read_dis(text), edu_texts(text)
        pred_t, pred_texts = resegmented(gold_t, texts, rng)
        pairs.append((gold_t, texts, pred_t, pred_texts))
        gold[doc] = loads_dis(text, doc_id=doc)
        pred[doc] = loads_dis(oracle.write_dis(pred_t, dict(enumerate(pred_texts, start=1))), doc_id=doc)
    return pairs, gold, pred


@pytest.mark.gum
@pytest.mark.parametrize("metric,org_parseval", [("rst-parseval", False), ("parseval", True)])
def test_first_edu_end_reproduces_dmrst_metric_on_resegmented_gum(gum_pairs, metric, org_parseval):
    pairs, gold, pred = gum_pairs
    assert all(breaks(texts) != breaks(pred_texts) for _, texts, _, pred_texts in pairs)  # segmentations differ
    expected = dmrst_scores(pairs, org_parseval)
    for average, measures in (("micro", "SNRF"), ("macro", "SNR")):
        config = EvalConfig.preset("dmrst", edus="aligned", metric=metric, average=average)
        scores = score_documents(gold, pred, config).scores
        for m in measures:
            assert scores[m] == pytest.approx(expected[average][m], abs=1e-6), (average, m)
    chars = score_documents(gold, pred,
                            EvalConfig.preset("dmrst", edus="aligned", metric=metric, span_key="chars")).scores
    assert chars["S"] != pytest.approx(expected["micro"]["S"], abs=1e-6)  # rstkit's own keying gives other numbers


@pytest.mark.gum
def test_isanlp_preset_reproduces_its_metric_with_gum_classes_and_the_fixer(gum_dir):
    """isanlp_rst: DMRST's metric (original Parseval by default), GUM labels cut to their class, and its
    GUM relation fixer (topic_ns -> contingency_ns, restatement_sn -> restatement_ns), on the two GUM
    documents with a topic NS node, resegmented, the predictions saying contingency where gold says topic
    (isanlp's model has no topic_ns class to predict)."""
    fixer = {"topic_ns": "contingency_ns", "restatement_sn": "restatement_ns"}
    rng = random.Random(5)
    pairs, gold, pred = [], {}, {}
    for doc in ("GUM_fiction_frankenstein", "GUM_letter_gorbachev"):
        text = (gum_dir / "lisp_binary" / f"{doc}.dis").read_text(encoding="utf-8")
        gold_t, texts = oracle.read_dis(text), edu_texts(text)
        pred_t, pred_texts = resegmented(gold_t, texts, rng)
        pred_t = _topic_as_contingency(pred_t)
        pairs.append((oracle.relabel(gold_t, "gum"), texts, oracle.relabel(pred_t, "gum"), pred_texts))
        gold[doc] = loads_dis(text, doc_id=doc)
        pred[doc] = loads_dis(oracle.write_dis(pred_t, dict(enumerate(pred_texts, start=1))), doc_id=doc)
    expected = dmrst_scores(pairs, org_parseval=True, fixer=fixer)["micro"]
    assert expected != dmrst_scores(pairs, org_parseval=True)["micro"]  # the fixer fires
    scores = score_documents(gold, pred, EvalConfig.preset("isanlp", edus="aligned")).scores
    assert scores == pytest.approx(expected, abs=1e-6)


def _topic_as_contingency(tree: T) -> T:
    rel = "contingency-condition" if tree.rel and tree.rel.startswith("topic") else tree.rel
    return T(tree.start, tree.end, tree.nuc, rel, tuple(_topic_as_contingency(k) for k in tree.kids))


# -- the worked example of docs/presets.md (tests/metrics/test_aligned_examples.py's trees) ----------------------
# Gold EDUs (text without whitespace): 1 = chars 0-3, 2 = 4-7, 3 = 8-11, 4 = 12-15; their last characters
# 3, 7, 11, 15. first-edu-end keys a span (i, j) by (end of EDU i, end of EDU j).
# Gold RST-Parseval tuples: (1,1)->(3,3) N span, (2,2)->(7,7) S elaboration, (1,2)->(3,7) N span,
#   (3,3)->(11,11) N List, (4,4)->(15,15) N List, (3,4)->(11,15) S background.
#
# MERGE predicts EDUs 1, 2 and "cccc dddd" (chars 8-15, end 15), the latter S circumstance:
#   tuples (3,3) N span, (7,7) S elaboration, (3,7) N span, (15,15) S circumstance.
#   chars: the merged EDU is (8,15), gold's span 3-4: S and N match 4 (P 4/4, R 4/6: F1 80), R and F 3 (60).
#   first-edu-end: the merged EDU keys (15,15), gold's EDU 4 (N List): S matches 4 (F1 80) but N only 3
#   (F1 2*3/(6+4) = 60), R and F 3 (60).
# SPLIT splits gold EDU 2 into "bb" (end 5) S-less nucleus and "b b" (end 7) S purpose, grouped as S elaboration:
#   tuples (3,3) N span, (5,5) N span, (7,7) S purpose, (5,7) S elaboration, (3,7) N span, (11,11) N List,
#   (15,15) N List, (11,15) S background.
#   chars: all 6 gold tuples are there (gold EDU 2 = chars 4-7 = the group): S N R F = 2*6/(6+8) = 85.714.
#   first-edu-end: gold EDU 2 keys (7,7), which is the second fragment, S purpose: S and N still 6 (85.714),
#   R and F 5: 2*5/14 = 71.429.
@pytest.mark.parametrize("pred,span_key,expected", [
    (MERGE, "chars", {"S": 80.0, "N": 80.0, "R": 60.0, "F": 60.0}),
    (MERGE, "first-edu-end", {"S": 80.0, "N": 60.0, "R": 60.0, "F": 60.0}),
    (SPLIT, "chars", {"S": 600 / 7, "N": 600 / 7, "R": 600 / 7, "F": 600 / 7}),
    (SPLIT, "first-edu-end", {"S": 600 / 7, "N": 600 / 7, "R": 500 / 7, "F": 500 / 7}),
])
def test_worked_example_rst_parseval(pred, span_key, expected):
    config = EvalConfig(metric="rst-parseval", edus="aligned", span_key=span_key)
    scores = score_documents({"d": loads_dis(GOLD, doc_id="d")}, {"d": loads_dis(pred, doc_id="d")}, config).scores
    assert scores == pytest.approx(expected, abs=1e-9)


def test_span_key_needs_aligned_edus():
    with pytest.raises(RSTKitError, match="aligned"):
        EvalConfig(span_key="first-edu-end")


def test_span_key_in_signature_only_when_not_chars():
    default = EvalConfig(edus="aligned").signature(1)
    assert "span=" not in default
    keyed = EvalConfig(edus="aligned", span_key="first-edu-end")
    assert "|edus=aligned|span=first-edu-end|" in keyed.signature(1)
    assert EvalConfig.from_signature(keyed.signature(1)) == keyed


# -- invariant: with the same EDUs on both sides, both keyings give the same scores --------------------
@pytest.mark.gum
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), metric=st.sampled_from(["rst-parseval", "parseval"]),
       average=st.sampled_from(["micro", "macro", "dplp"]))
def test_same_edus_give_the_same_scores_under_both_keyings(gum_pairs, seed, metric, average):
    """(first EDU, last EDU) -> (end of first EDU, end of last EDU) is one-to-one when both sides share
    their EDUs, so matching, hence every score, is the same as under ``chars``."""
    pairs, gold, _ = gum_pairs
    rng = random.Random(seed)
    chosen = rng.sample(range(len(pairs)), 3)
    docs = [sorted(gold)[i] for i in chosen]
    pred = {}
    for doc, i in zip(docs, chosen):  # the gold's EDUs under another structure and other labels
        gold_t, texts = pairs[i][0], pairs[i][1]
        pred[doc] = loads_dis(oracle.write_dis(_rotated(gold_t, rng), dict(enumerate(texts, start=1))), doc_id=doc)
    golds = {d: gold[d] for d in docs}
    scores = {key: score_documents(golds, pred, EvalConfig(metric=metric, average=average, edus="aligned",
                                                   span_key=key)).scores for key in ("chars", "first-edu-end")}
    assert scores["chars"] == scores["first-edu-end"]


def _rotated(tree: T, rng: random.Random) -> T:
    """(A (B C)) -> ((A B) C) rotations and satellite relabelling: the same leaves, other spans."""
    if not tree.kids:
        return tree
    left, right = (_rotated(k, rng) for k in tree.kids)
    if right.kids and rng.random() < 0.3:
        b, c = right.kids
        left = oracle.grouped("N", "span", [left, b])
        right = c._replace(nuc="S", rel=c.rel if c.nuc == "S" else "elaboration-additional")
        if left.kids[0].nuc == "S" and left.kids[1].nuc == "S":
            left = left._replace(kids=(left.kids[0], left.kids[1]._replace(nuc="N", rel="span")))
    return oracle.grouped(tree.nuc, tree.rel, [left, right])


@pytest.mark.gum
def test_audit_ranks_an_end_to_end_number_under_both_keyings(gum_pairs):
    """A number DMRST's metric gives (micro RST-Parseval, rounded as papers print it) is reproduced by the
    first-edu-end variants and the dmrst preset, not by rstkit's own character keying."""
    from rstkit.audit import audit_published, parse_published

    pairs, gold, pred = gum_pairs
    micro = dmrst_scores(pairs, org_parseval=False)["micro"]
    published = parse_published(" ".join(f"{m}={micro[m]:.1f}" for m in "SNRF"))
    result = audit_published(gold, pred, published, label_maps=("gum",), edus="aligned", presets=True)
    exact = [m.scored.variant for m in result.exact]
    assert exact and all(v.span_key == "first-edu-end" for v in exact)
    assert "preset:dmrst/rst-parseval/micro/aligned:first-edu-end" in result.exact_presets
    keyings = {m.scored.variant.span_key for m in result.matches}
    assert keyings == {"chars", "first-edu-end"}


# -- dependencies key an EDU by its whole extent under every span keying (issue 32, item 4) -----------------
# Gold: three EDUs "aaaa" (chars 0-3), "bbbb" (4-7), "cccc" (8-11);
#   Root[ N(1-2)[ N 1 span, S 2 elaboration ], S 3 background ].
#   Dependencies (head of a node = head of its first nucleus): EDU 1 the root (head 0, ROOT),
#   EDU 2 -> EDU 1 elaboration, EDU 3 -> EDU 1 background.
# Prediction: the same tree over "aaaa" (0-3), "bb" (4-5), "bbcccc" (6-11): the boundary between EDUs 2 and 3
#   is two characters early, so predicted EDUs 2 and 3 are cut wrongly; EDU 1 is exact.
# README: a dependency counts only when its dependent's EDU is predicted exactly (same characters) and, for U,
#   its head's EDU too. Only EDU 1 (root, head none on both sides) qualifies: 1 matched of 3 gold and 3 predicted
#   rows, U = R = P = R = F1 = 100/3 = 33.33 (labels agree where EDUs do).
#   Keyed by the end of the EDU alone, predicted EDU 3 (end 11) would pass as gold EDU 3 (end 11), head EDU 1 in
#   both: 2 of 3, 66.67 -- what --span-key first-edu-end gave before the fix.
DEP_GOLD = """( Root (span 1 3)
  ( Nucleus (span 1 2) (rel2par span)
    ( Nucleus (leaf 1) (rel2par span) (text _!aaaa_!) )
    ( Satellite (leaf 2) (rel2par elaboration) (text _!bbbb_!) ) )
  ( Satellite (leaf 3) (rel2par background) (text _!cccc_!) ) )"""
DEP_PRED = DEP_GOLD.replace("_!bbbb_!", "_!bb_!").replace("_!cccc_!", "_!bbcccc_!")


@pytest.mark.parametrize("span_key", ["chars", "first-edu-end"])
def test_dependency_needs_the_exact_edu_under_every_span_key(span_key):
    config = EvalConfig(metric="dependency", edus="aligned", span_key=span_key)
    result = score_documents({"d": loads_dis(DEP_GOLD, doc_id="d")}, {"d": loads_dis(DEP_PRED, doc_id="d")}, config)
    assert result.scores["U"] == pytest.approx(100 / 3, abs=1e-9)
    assert result.scores["R"] == pytest.approx(100 / 3, abs=1e-9)
    assert result.scores["F"] == pytest.approx(100 / 3, abs=1e-9)


def test_dependency_cli_with_first_edu_end(tmp_path, capsys):
    (tmp_path / "gold").mkdir()
    (tmp_path / "pred").mkdir()
    (tmp_path / "gold" / "d.dis").write_text(DEP_GOLD)
    (tmp_path / "pred" / "d.dis").write_text(DEP_PRED)
    code = main(["eval", str(tmp_path / "gold"), str(tmp_path / "pred"), "--metric", "dependency",
                 "--edus", "aligned", "--span-key", "first-edu-end", "--format", "json"])
    assert code == 0
    scores = json.loads(capsys.readouterr().out)["scores"]
    assert scores["U"] == pytest.approx(100 / 3, abs=1e-2)
