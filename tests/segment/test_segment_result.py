"""Segmentations built from token decisions (rstkit.segment.result) and DISRPT-style
boundary scores (rstkit.segment.evaluate)."""
from __future__ import annotations

from itertools import groupby

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.metrics.segmentation import BoundaryCounts
from rstkit.segment import build_segmentation, paragraphs, tokenize
from rstkit.segment.evaluate import as_record
from rstkit.tree import EDU


def segment_at(text: str, firsts: set[int], sentences: set[int] = frozenset()):
    spans = paragraphs(text)
    tokens = [t for a, b in spans for t in tokenize(text, a, b)]
    return build_segmentation(text, tokens, firsts, sentences, [a for a, _ in spans])


def test_hand_example() -> None:
    text = "I left because\nit rained. Then I slept.\n\nNew paragraph"
    # tokens: I left because it rained . Then I slept . | New paragraph
    result = segment_at(text, {2, 6}, {6})
    assert [e.text for e in result.edus] == ["I left", "because\nit rained.", "Then I slept.", "New paragraph"]
    assert [(e.paragraph, e.sentence) for e in result.edus] == [(1, 1), (1, 1), (1, 2), (2, 3)]
    assert result.spans()[1] == (7, 25)
    assert result.lines() == "I left\nbecause it rained.\nThen I slept.\n\nNew paragraph\n"
    assert result.to_edus()[3] == EDU(4, "New paragraph", 3, 2)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab \t\n\r\x0b\x0c\x1c\x85\u2028\u2029\u00a0"), min_size=1, max_size=60))
def test_lines_make_each_whitespace_run_with_a_line_break_one_space(text: str) -> None:
    """The reference walks the characters (Python's own notion of whitespace and of line
    boundaries, str.isspace and str.splitlines), written here without regular expressions."""
    from rstkit.segment.result import _unwrapped

    expected = []
    for is_space, group in groupby(text, key=str.isspace):
        run = "".join(group)
        expected.append(" " if is_space and run.splitlines()[0] != run else run)
    assert _unwrapped(text) == "".join(expected)


def test_empty_text() -> None:
    result = segment_at(" \n\n ", set())
    assert result.edus == () and result.lines() == ""


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab.,' \n\t\u00a0\u2028-"), max_size=120), st.data())
def test_edus_and_the_whitespace_between_them_are_the_text(text: str, data) -> None:
    n = len([t for a, b in paragraphs(text) for t in tokenize(text, a, b)])
    firsts = data.draw(st.sets(st.integers(0, max(n - 1, 0))))
    result = segment_at(text, firsts)
    rebuilt, position = [], 0
    for edu in result.edus:
        gap = text[position:edu.start]
        assert gap.strip() == ""
        assert edu.text == text[edu.start:edu.end] and edu.text.strip() == edu.text != ""
        rebuilt += [gap, edu.text]
        position = edu.end
    assert text[position:].strip() == ""
    assert "".join(rebuilt) + text[position:] == text
    # EDUs never cross a paragraph break, and each paragraph starts an EDU
    for a, b in paragraphs(text):
        assert any(e.start == a for e in result.edus)
        assert all(e.end <= a or e.start >= b or (a <= e.start and e.end <= b) for e in result.edus)
    # one line per EDU, one blank line between paragraphs
    assert result.lines().count("\n") == (len(result.edus) + len(paragraphs(text)) - 1 if result.edus else 0)


def test_boundary_counts_count_like_disrpt() -> None:
    # DISRPT's seg_eval.py over token labels: gold B _ _ B _ B, predicted B _ B _ _ B
    # -> tokens 0 and 5 are true positives, 2 a false positive, 3 a false negative
    gold, predicted = [0, 3, 5], [0, 2, 5]
    score = BoundaryCounts.of([(gold, predicted)])
    assert as_record(score)["tp"] == 2 and (as_record(score)["fp"], as_record(score)["fn"]) == (1, 1)
    assert score.precision == pytest.approx(2 / 3) and score.recall == pytest.approx(2 / 3)
    assert score.f1 == pytest.approx(2 / 3)
    # a second document with both boundaries right: 4 tp, 1 fp, 1 fn; P = R = 4/5, F1 80.0
    total = score + BoundaryCounts.of([([0, 4], [0, 4])])
    assert {k: as_record(total)[k] for k in ("tp", "fp", "fn")} == {"tp": 4, "fp": 1, "fn": 1}
    assert as_record(total)["f1"] == round(100 * 0.8, 2)
    assert total.matched.tolist() == [2, 2]  # per document


def test_boundary_counts_without_predictions_are_zero_not_an_error() -> None:
    score = BoundaryCounts.of([([0, 4], [])])
    assert (score.precision, score.recall, score.f1) == (0.0, 0.0, 0.0)
    assert BoundaryCounts.of([]).f1 == 0.0


def test_score_documents_counts_edus_and_sentences_over_documents() -> None:
    """The segmenter's scores over documents (rstkit.segment.evaluate.score_documents), with a stub
    segmenter. By hand: document a (text "aa bb cc dd", token starts 0 3 6 9) has gold EDUs at 0 6 and
    one sentence at 0; the stub predicts EDUs at 0 3 6 (sentences 1 1 2: starts 0 6). Document b has
    gold EDU 0 and sentences 0 3; the stub predicts 0 (one sentence: 0). A masked document is left out.
    EDUs: tp 0 6 0 = 3, fp 3 = 1, fn none = 0. Sentences: tp 0 0 = 2, fp 6 = 1, fn 3 = 1."""
    from types import SimpleNamespace

    from rstkit.segment.evaluate import score_documents
    from rstkit.segment.gum import GoldDocument

    docs = [GoldDocument("a", "aa bb cc dd", ((0, 2), (3, 5), (6, 8), (9, 11)), (0, 6), (0,), (0,)),
            GoldDocument("b", "ee ff", ((0, 2), (3, 5)), (0,), (0, 3), (0,)),
            GoldDocument("m", "gg", ((0, 2),), (0,), (0,), (0,), masked=True)]
    predicted = {"a": [(0, 1), (3, 1), (6, 2)], "b": [(0, 1)], "m": [(1, 1)]}

    class Stub:
        def segment_tokens(self, text, tokens, paragraph_starts):
            doc = next(d for d in docs if d.text == text)
            return SimpleNamespace(edus=[SimpleNamespace(start=s, sentence=n) for s, n in predicted[doc.doc_id]])

        def segment(self, text):
            return self.segment_tokens(text, None, None)

    for gold_tokens in (True, False):
        scores = score_documents(Stub(), docs, gold_tokens)
        assert {k: as_record(scores["edus"])[k] for k in ("tp", "fp", "fn")} == {"tp": 3, "fp": 1, "fn": 0}
        assert {k: as_record(scores["sentences"])[k] for k in ("tp", "fp", "fn")} == {"tp": 2, "fp": 1, "fn": 1}
        assert as_record(scores["edus"])["precision"] == 75.0 and as_record(scores["sentences"])["recall"] == round(
            100 * 2 / 3, 2)
        assert scores["edus"].gold.tolist() == [2, 1]  # per document, the masked one left out
