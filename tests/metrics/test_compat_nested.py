"""``--compat rst-eval`` on RST-DT-style gold with S N S nodes nested inside S N S nodes.

educe's ``right`` binarization (rst-eval's ``--binarize_true right``) groups the two right
children of an S N S node without binarizing them (bug B1); for original Parseval its
``right_mixed`` pass re-binarizes the tree, with the same bug, so a node nested one S N S
deeper survives both passes and becomes one attachment tuple with a k-letter nuclearity
(docs/evaluation.md#attachment-decisions).

Every expected tuple and score below is derived by hand from the rules of docs/evaluation.md; the
derivations are in the comments next to each tree. Fine RST-DT labels throughout.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from rstkit.errors import BinarizationError, RSTKitError, RSTKitWarning
from rstkit.formats.dis import loads_dis
from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics import parseval as orig_parseval
from rstkit.transform import binarize, marcu_tuples, nary_nodes, to_attachment


def edu(i: int, nuc: str, rel: str, text: str) -> str:
    word = {"N": "Nucleus", "S": "Satellite"}[nuc]
    return f"( {word} (leaf {i}) (rel2par {rel}) (text _!{text}_!) )"


# -- document A: S N S whose nucleus is S N S whose nucleus is a 3-nucleus List --------------------
A_TEXT = ["The spokeswoman said", "after the strike ended", "output rose,", "exports grew", "and prices fell,",
          "a trend that continued into May,", "to reassure investors."]
A_GOLD = f"""( Root (span 1 7)
  {edu(1, "S", "attribution", A_TEXT[0])}
  ( Nucleus (span 2 6) (rel2par span)
    {edu(2, "S", "background", A_TEXT[1])}
    ( Nucleus (span 3 5) (rel2par span)
      {edu(3, "N", "List", A_TEXT[2])}
      {edu(4, "N", "List", A_TEXT[3])}
      {edu(5, "N", "List", A_TEXT[4])} )
    {edu(6, "S", "elaboration-additional", A_TEXT[5])} )
  {edu(7, "S", "purpose", A_TEXT[6])} )"""
# educe `right` (pass 1): Root(S1, new N(2-7) span [N(2-6), S7]); N(2-6) (S N S) and N(3-5) (N N N)
# are left as they are: 2 n-ary nodes. Marcu tuples, root excluded, post-order: 10 (2n-2 = 12).
A_MARCU = [(1, 1, "S", "attribution"), (2, 2, "S", "background"), (3, 3, "N", "List"), (4, 4, "N", "List"),
           (5, 5, "N", "List"), (3, 5, "N", "span"), (6, 6, "S", "elaboration-additional"), (2, 6, "N", "span"),
           (7, 7, "S", "purpose"), (2, 7, "N", "span")]
# `right_mixed` (pass 2) visits N(2-7) (binary) and so N(2-6), an S N S: (new N(2-5) [S2, N(3-5)], S6),
# with S2 and N(3-5) not binarized, so N(3-5) survives. Attachments, pre-order (n-1 = 6, here 5):
#   1-7 [S1, N2-7]   SN, child 2 is a nucleus -> relation of child 1: attribution
#   2-7 [N2-6, S7]   NS, purpose
#   2-6 [N2-5, S6]   NS, elaboration-additional
#   2-5 [S2, N3-5]   SN, background
#   3-5 [N3, N4, N5] NNN, child 2 is a nucleus -> relation of child 1: List
A_ATTACH = [(1, 7, "SN", "attribution"), (2, 7, "NS", "purpose"), (2, 6, "NS", "elaboration-additional"),
            (2, 5, "SN", "background"), (3, 5, "NNN", "List")]
# Prediction: the full right-heavy binarization of the gold (section 4, `right`):
# Root[S1, N(2-7)[N(2-6)[S2, N(3-6)[N(3-5)[N3, N(4-5)[N4, N5]], S6]], S7]]. Attachments (6):
#   1-7 SN attribution, 2-7 NS purpose, 2-6 SN background, 3-6 NS elaboration-additional,
#   3-5 NN List, 4-5 NN List.
# Original Parseval, gold 5 / pred 6: S 1-7, 2-7, 2-6, 3-5 -> 4; N 1-7, 2-7 -> 2 (2-6 NS/SN, 3-5 NNN/NN);
# R 1-7, 2-7, 3-5 (List) -> 3; F 1-7, 2-7 -> 2.
# RST-Parseval, gold 10 / pred 12 (the binary tree's 2n-2): all 10 gold tuples are in the prediction.
A_COUNTS = {"parseval": ((4, 2, 3, 2), 5, 6), "rst-parseval": ((10, 10, 10, 10), 10, 12)}

# -- document B: the outer right satellite is an S N S with a 3-nucleus Contrast ---------------------
B_TEXT = ["Analysts said", "sales were flat,", "margins thin", "and costs high.", "When the results came out,",
          "the stock fell,", "bonds rallied", "and the dollar held,", "because traders expected a cut."]
B_GOLD = f"""( Root (span 1 9)
  {edu(1, "S", "attribution", B_TEXT[0])}
  ( Nucleus (span 2 4) (rel2par span)
    {edu(2, "N", "List", B_TEXT[1])}
    {edu(3, "N", "List", B_TEXT[2])}
    {edu(4, "N", "List", B_TEXT[3])} )
  ( Satellite (span 5 9) (rel2par elaboration-additional)
    {edu(5, "S", "circumstance", B_TEXT[4])}
    ( Nucleus (span 6 8) (rel2par span)
      {edu(6, "N", "Contrast", B_TEXT[5])}
      {edu(7, "N", "Contrast", B_TEXT[6])}
      {edu(8, "N", "Contrast", B_TEXT[7])} )
    {edu(9, "S", "explanation-argumentative", B_TEXT[8])} ) )"""
# pass 1: Root(S1, new N(2-9) span [N(2-4), S(5-9)]), both left as they are: N(2-4), S(5-9), N(6-8) are
# n-ary (3 nodes). Marcu tuples: 13 (2n-2 = 16).
B_MARCU = [(1, 1, "S", "attribution"), (2, 2, "N", "List"), (3, 3, "N", "List"), (4, 4, "N", "List"),
           (2, 4, "N", "span"), (5, 5, "S", "circumstance"), (6, 6, "N", "Contrast"), (7, 7, "N", "Contrast"),
           (8, 8, "N", "Contrast"), (6, 8, "N", "span"), (9, 9, "S", "explanation-argumentative"),
           (5, 9, "S", "elaboration-additional"), (2, 9, "N", "span")]
# pass 2 visits N(2-9) and both its children: N(2-4) is multinuclear, fully binarized (N2, new N(3-4) List);
# S(5-9) is S N S: (new N(5-8) span [S5, N(6-8)], S9), N(6-8) not binarized. Attachments (n-1 = 8, here 7):
#   1-9 SN attribution; 2-9 NS elaboration-additional; 2-4 NN List; 3-4 NN List;
#   5-9 NS explanation-argumentative; 5-8 SN circumstance; 6-8 NNN Contrast
B_ATTACH = [(1, 9, "SN", "attribution"), (2, 9, "NS", "elaboration-additional"), (2, 4, "NN", "List"),
            (3, 4, "NN", "List"), (5, 9, "NS", "explanation-argumentative"), (5, 8, "SN", "circumstance"),
            (6, 8, "NNN", "Contrast")]
B_PRED = f"""( Root (span 1 9)
  ( Nucleus (span 1 4) (rel2par span)
    {edu(1, "S", "attribution", B_TEXT[0])}
    ( Nucleus (span 2 4) (rel2par span)
      ( Nucleus (span 2 3) (rel2par List)
        {edu(2, "N", "List", B_TEXT[1])}
        {edu(3, "N", "List", B_TEXT[2])} )
      {edu(4, "N", "List", B_TEXT[3])} ) )
  ( Satellite (span 5 9) (rel2par elaboration-additional)
    {edu(5, "S", "circumstance", B_TEXT[4])}
    ( Nucleus (span 6 9) (rel2par span)
      ( Nucleus (span 6 8) (rel2par span)
        {edu(6, "N", "Contrast", B_TEXT[5])}
        ( Nucleus (span 7 8) (rel2par Contrast)
          {edu(7, "N", "Contrast", B_TEXT[6])}
          {edu(8, "N", "Contrast", B_TEXT[7])} ) )
      {edu(9, "S", "explanation-argumentative", B_TEXT[8])} ) ) )"""
# Prediction attachments (8): 1-9 NS elaboration-additional; 1-4 SN attribution; 2-4 NN List; 2-3 NN List;
#   5-9 SN circumstance; 6-9 NS explanation-argumentative; 6-8 NN Contrast; 7-8 NN Contrast.
# Original Parseval, gold 7 / pred 8: S 1-9, 2-4, 5-9, 6-8 -> 4; N 2-4 -> 1 (1-9 SN/NS, 5-9 NS/SN, 6-8 NNN/NN);
# R 2-4 List, 6-8 Contrast -> 2; F 2-4 -> 1.
# RST-Parseval, pred post-order (16): 1 S attribution; 2, 3 N List; 2-3 N List; 4 N List; 2-4 N span;
#   1-4 N span; 5 S circumstance; 6, 7, 8 N Contrast; 7-8 N Contrast; 6-8 N span;
#   9 S explanation-argumentative; 6-9 N span; 5-9 S elaboration-additional.
# Every gold tuple but (2-9, N, span) is predicted: 12 of 13.
B_COUNTS = {"parseval": ((4, 1, 2, 1), 7, 8), "rst-parseval": ((12, 12, 12, 12), 13, 16)}

# -- document C: three S N S levels, an n-ary left satellite and an n-ary innermost nucleus -------
C_TEXT = ["The report says", "the plant opened,", "hired staff", "and started production.",
          "If demand holds,", "the line will run", "two shifts", "and weekends,", "which is rare in the region,",
          "since orders are up.", "Growth should continue."]
C_GOLD = f"""( Root (span 1 11)
  {edu(1, "S", "attribution", C_TEXT[0])}
  ( Nucleus (span 2 10) (rel2par span)
    ( Satellite (span 2 4) (rel2par background)
      {edu(2, "N", "Sequence", C_TEXT[1])}
      {edu(3, "N", "Sequence", C_TEXT[2])}
      {edu(4, "N", "Sequence", C_TEXT[3])} )
    ( Nucleus (span 5 9) (rel2par span)
      {edu(5, "S", "condition", C_TEXT[4])}
      ( Nucleus (span 6 8) (rel2par span)
        {edu(6, "N", "List", C_TEXT[5])}
        {edu(7, "N", "List", C_TEXT[6])}
        {edu(8, "N", "List", C_TEXT[7])} )
      {edu(9, "S", "elaboration-object-attribute-e", C_TEXT[8])} )
    {edu(10, "S", "reason", C_TEXT[9])} )
  {edu(11, "S", "elaboration-general-specific", C_TEXT[10])} )"""
# pass 1: Root(S1, new N(2-11) span [N(2-10), S11]); N(2-10), S(2-4), N(5-9), N(6-8) stay n-ary (4 nodes).
# Marcu tuples: 16 (2n-2 = 20).
C_MARCU = [(1, 1, "S", "attribution"), (2, 2, "N", "Sequence"), (3, 3, "N", "Sequence"), (4, 4, "N", "Sequence"),
           (2, 4, "S", "background"), (5, 5, "S", "condition"), (6, 6, "N", "List"), (7, 7, "N", "List"),
           (8, 8, "N", "List"), (6, 8, "N", "span"), (9, 9, "S", "elaboration-object-attribute-e"),
           (5, 9, "N", "span"), (10, 10, "S", "reason"), (2, 10, "N", "span"),
           (11, 11, "S", "elaboration-general-specific"), (2, 11, "N", "span")]
# pass 2 visits N(2-11) and N(2-10), an S N S: (new N(2-9) span [S(2-4), N(5-9)], S10), S(2-4) and N(5-9)
# not binarized, nor anything under them. Attachments (n-1 = 10, here 7), three of them k-letter:
#   1-11 SN attribution; 2-11 NS elaboration-general-specific; 2-10 NS reason; 2-9 SN background;
#   2-4 NNN Sequence; 5-9 SNS (child 2 a nucleus -> child 1's relation) condition; 6-8 NNN List
C_ATTACH = [(1, 11, "SN", "attribution"), (2, 11, "NS", "elaboration-general-specific"), (2, 10, "NS", "reason"),
            (2, 9, "SN", "background"), (2, 4, "NNN", "Sequence"), (5, 9, "SNS", "condition"),
            (6, 8, "NNN", "List")]
# Prediction: the full right-heavy binarization: Root[S1, N(2-11)[N(2-10)[S(2-4)[N2, N(3-4)], N(5-10)[
#   N(5-9)[S5, N(6-9)[N(6-8)[N6, N(7-8)], S9]], S10]], S11]]. Attachments (10): 1-11 SN attribution;
#   2-11 NS elaboration-general-specific; 2-10 SN background; 2-4 NN Sequence; 3-4 NN Sequence;
#   5-10 NS reason; 5-9 SN condition; 6-9 NS elaboration-object-attribute-e; 6-8 NN List; 7-8 NN List.
# Original Parseval, gold 7 / pred 10: S all but 2-9 -> 6; N 1-11, 2-11 -> 2; R 1-11, 2-11, 2-4, 5-9, 6-8
# -> 5 (2-10: reason / background); F 1-11, 2-11 -> 2.
# RST-Parseval: the prediction's 20 tuples contain all 16 gold ones.
C_COUNTS = {"parseval": ((6, 2, 5, 2), 7, 10), "rst-parseval": ((16, 16, 16, 16), 16, 20)}

COUNTS = {"A": A_COUNTS, "B": B_COUNTS, "C": C_COUNTS}


@pytest.fixture(scope="module")
def corpus():
    gold = {d: loads_dis(text, doc_id=d) for d, text in (("A", A_GOLD), ("B", B_GOLD), ("C", C_GOLD))}
    pred = {"A": binarize(gold["A"], "right"), "B": loads_dis(B_PRED, doc_id="B"), "C": binarize(gold["C"], "right")}
    return gold, pred


#: the note every rst-eval evaluation of this corpus gives (its counts: test_warnings_count_the_nodes_per_document)
B1_NOTE = r"^bug B1 of the reference binarization left \d+ gold node\(s\) n-ary"


def compat(gold, pred, **settings):
    """``evaluate`` under ``EvalConfig(compat="rst-eval", **settings)``, which must warn of B1's n-ary nodes."""
    with pytest.warns(RSTKitWarning, match=B1_NOTE):
        return score_documents(gold, pred, EvalConfig(compat="rst-eval", **settings))


def f1(matched: int, gold: int, pred: int) -> Fraction:
    return Fraction(2 * matched, gold + pred)


def expected(metric: str, average: str, docs=("A", "B", "C")) -> dict[str, float]:
    """F1 (percent) from the hand-derived counts above (section 7.3)."""
    out = {}
    for i, key in enumerate("SNRF"):
        rows = [(COUNTS[d][metric][0][i], COUNTS[d][metric][1], COUNTS[d][metric][2]) for d in docs]
        if average == "micro":
            value = f1(*(sum(col) for col in zip(*rows)))
        else:
            value = sum(f1(*row) for row in rows) / len(rows)
        out[key] = float(100 * value)
    return out


# -- the tuples -------------------------------------------------------------------------------
@pytest.mark.parametrize("doc, marcu, attach, survivors", [
    ("A", A_MARCU, A_ATTACH, 2), ("B", B_MARCU, B_ATTACH, 3), ("C", C_MARCU, C_ATTACH, 4)])
def test_reference_tuples(corpus, doc, marcu, attach, survivors):
    gold = corpus[0][doc]
    reference = binarize(gold, "rst-eval")
    assert len(nary_nodes(reference)) == survivors
    assert marcu_tuples(reference) == marcu
    config = EvalConfig(compat="rst-eval", metric="parseval")
    assert orig_parseval.tuples(reference, config) == attach
    assert len(attach) < gold.n_edus - 1


def test_the_k_letter_rule_is_compat_only(corpus):
    """Outside compat an n-ary node reaching the attachment conversion is an error (RSTKitError);
    rstkit's own binarization leaves none."""
    gold = corpus[0]["A"]
    mixed_twice = binarize(binarize(gold, "rst-eval"), "right_mixed")
    with pytest.raises(BinarizationError, match="3 children"):
        to_attachment(mixed_twice)
    assert issubclass(BinarizationError, RSTKitError)
    with pytest.raises(BinarizationError, match="binary tree"):
        score_documents(corpus[0], corpus[0], EvalConfig(metric="parseval", binarize="right_mixed"))
    own = score_documents(corpus[0], corpus[1], EvalConfig(metric="parseval"))
    assert [row["S"]["gold"] for row in own.document_counts()] == [6, 8, 10]  # n - 1 each


# -- the scores -------------------------------------------------------------------------------
@pytest.mark.parametrize("labels", ["raw", "rstdt18"])
@pytest.mark.parametrize("average", ["micro", "macro"])
@pytest.mark.parametrize("metric", ["parseval", "rst-parseval"])
def test_compat_scores(corpus, metric, average, labels):
    """The label map changes no match on these trees (every mismatched relation pair stays apart
    under rst_112to18), so raw and rstdt18 give the same numbers."""
    result = compat(*corpus, metric=metric, average=average, labels=labels)
    assert result.scores == pytest.approx(expected(metric, average), abs=1e-9)


def test_compat_micro_precision_and_recall(corpus):
    """Original Parseval micro: 14 spans of 24 predicted / 19 gold tuples (5 + 7 + 7)."""
    result = compat(*corpus, metric="parseval")
    assert result.precision["S"] == pytest.approx(100 * 14 / 24)
    assert result.recall["S"] == pytest.approx(100 * 14 / 19)
    assert result.recall["R"] == pytest.approx(100 * 10 / 19)
    rows = {r["doc_id"]: r for r in result.document_counts()}
    assert {d: (rows[d]["S"]["gold"], rows[d]["S"]["pred"]) for d in rows} == {"A": (5, 6), "B": (7, 8), "C": (7, 10)}


@pytest.mark.parametrize("metric", ["parseval", "rst-parseval"])
def test_gold_against_itself_is_100(corpus, metric):
    gold = corpus[0]
    result = compat(gold, gold, metric=metric, average="macro")
    assert result.scores == {k: 100.0 for k in "SNRF"}


def test_rstkit_default_binarization_has_no_leftover(corpus):
    """Without compat (fully recursive right-heavy), A and C's predictions are the gold exactly."""
    gold, pred = corpus
    for metric in ("parseval", "rst-parseval"):
        with pytest.warns(RSTKitWarning, match=r"^system1: 1 predicted document\(s\) not in gold, ignored: B$"):
            result = score_documents({d: gold[d] for d in "AC"}, pred, EvalConfig(metric=metric, missing="skip"))
        assert result.scores == {k: 100.0 for k in "SNRF"}
        assert not any("B1" in w for w in result.warnings)


def test_warnings_count_the_nodes_per_document(corpus):
    parseval = compat(*corpus, metric="parseval")
    (note,) = [w for w in parseval.warnings if "B1" in w]
    assert "left 5 gold node(s) n-ary after educe's right_mixed pass in 3 document(s) (A: 1, B: 1, C: 3)" in note
    assert "k-letter" in note
    marcu = compat(*corpus, metric="rst-parseval")
    (note,) = [w for w in marcu.warnings if "B1" in w]
    assert "left 9 gold node(s) n-ary in 3 document(s) (A: 2, B: 3, C: 4)" in note
