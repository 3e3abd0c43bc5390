"""The segmenter's post-rule: no EDU is a lone dash, nor a lone conjunction except before a subordinate clause
(GUM's discontinuous main clause). Each case is a hand-made sentence tokenised by rstkit's tokenizer, with the
boundaries a model might propose given by the tokens' text; the expected EDUs are written out by hand."""
from __future__ import annotations

import numpy as np
import pytest

from rstkit.segment.result import build_segmentation, merge_lone_edus
from rstkit.segment.tokenizer import paragraphs, tokenize


def segmented(text: str, edus_at: list[str], sentences_at: list[str] = ()) -> tuple[list[str], list[int]]:
    """EDU texts and sentence numbers after the rule, for EDUs proposed at the tokens ``edus_at`` (their text,
    each taken at its first occurrence after the previous one) and sentences at ``sentences_at``."""
    spans = paragraphs(text)
    tokens = [t for start, end in spans for t in tokenize(text, start, end)]
    words = [text[a:b] for a, b in tokens]

    def numbers(marks) -> list[int]:
        found, at = [], 0
        for mark in marks:
            at = words.index(mark, at)
            found.append(at)
        return found

    starts, sentences = merge_lone_edus(text, tokens, numbers(edus_at), numbers(sentences_at),
                                        [start for start, _ in spans])
    result = build_segmentation(text, tokens, starts, sentences, [start for start, _ in spans])
    return [e.text for e in result.edus], [e.sentence for e in result.edus]


def test_a_lone_dash_joins_the_edu_before_it():
    assert segmented("The river rose quickly — and the town flooded.", ["The", "—", "and"])[0] == [
        "The river rose quickly —", "and the town flooded."]
    assert segmented("We talked - and then we left.", ["We", "-", "and"])[0] == ["We talked -", "and then we left."]
    assert segmented("A -- b c.", ["A", "--", "b"])[0] == ["A --", "b c."]


def test_a_lone_dash_that_began_a_sentence_passes_the_sentence_start_on():
    edus, sentences = segmented("It rained . — The town flooded.", ["It", "—", "The"], ["It", "—"])
    assert edus == ["It rained . —", "The town flooded."] and sentences == [1, 2]


def test_a_paragraph_initial_dash_joins_the_edu_after_it():
    edus, sentences = segmented("It rained.\n\n—\nthe town flooded, and we left.", ["It", "—", "the", "and"])
    assert edus == ["It rained.", "—\nthe town flooded,", "and we left."] and sentences == [1, 2, 2]


def test_a_dash_alone_in_its_paragraph_stays():  # EDUs never cross a paragraph
    assert segmented("It rained.\n\n—\n\nWe left.", ["It", "—", "We"])[0] == ["It rained.", "—", "We left."]


def test_a_lone_conjunction_joins_the_clause_it_introduces():
    edus, sentences = segmented("We waited. But nobody came.", ["We", "But", "nobody"], ["We", "nobody"])
    assert edus == ["We waited.", "But nobody came."] and sentences == [1, 2]  # the sentence starts at But now
    assert segmented("We waited. But, nobody came.", ["We", "But", "nobody"])[0] == ["We waited.",
                                                                                     "But, nobody came."]
    assert segmented("It was late and we were tired.", ["It", "and", "we"])[0] == ["It was late",
                                                                                   "and we were tired."]


def test_a_lone_conjunction_before_a_subordinate_clause_stays():
    """GUM's segmentation: the conjunction's main clause is interrupted by the subordinate clause."""
    text = "He left early. And when he came back, everything had changed."
    assert segmented(text, ["He", "And", "when", "everything"])[0] == [
        "He left early.", "And", "when he came back,", "everything had changed."]


def test_other_one_word_edus_stay():
    assert segmented("Yeah. We left.", ["Yeah", "We"])[0] == ["Yeah.", "We left."]


def test_the_segmenter_applies_the_rule(monkeypatch):
    pytest.importorskip("torch")
    from rstkit.segment.segmenter import Segmenter

    segmenter = Segmenter.load("segmenter-base")
    text = "The river rose quickly — and the town flooded."
    starts = {"The", "—", "and"}  # the model's boundaries, made up: a lone dash

    def probabilities(text, tokens, paragraph_starts=()):
        p = np.zeros((len(tokens), 3), dtype=np.float32)
        for i, (a, b) in enumerate(tokens):
            p[i, 1 if text[a:b] in starts else 0] = 1.0
        return p

    monkeypatch.setattr(segmenter, "probabilities", probabilities)
    assert [e.text for e in segmenter.segment(text).edus] == ["The river rose quickly —", "and the town flooded."]
