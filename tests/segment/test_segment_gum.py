"""GUM's tokenised EDUs rebuilt as raw text (rstkit.segment.gum).

The expected texts are written by hand from English punctuation conventions (no space
before a comma, clitics attached, hyphenated words closed up, a blank line between
paragraphs).
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.segment.gum import detokenize, read_gum
from rstkit.tree import EDU


def test_detokenize_hand_example() -> None:
    edus = [EDU(1, "Aesthetic Appreciation and Spanish Art :", 1, 1), EDU(2, "Insights from Eye - Tracking", 2, 1),
            EDU(3, "I do n't think", 3, 2), EDU(4, "it 's \" fair \" ( really ) ,", 3, 2),
            EDU(5, "and we 're gon na go .", 3, 2)]
    doc = detokenize("d", edus)
    assert doc.text == ('Aesthetic Appreciation and Spanish Art: Insights from Eye-Tracking\n\n'
                        'I don\'t think it\'s "fair" (really), and we\'re gonna go.')
    starts = ["Aesthetic", "Insights", "I don't", "it's", "and we"]
    assert [doc.text[s:s + len(w)] for s, w in zip(doc.edu_starts, starts)] == starts
    assert [doc.text[s:s + 9] for s in doc.sentence_starts] == ["Aesthetic", "Insights ", "I don't t"]
    assert [doc.text[s] for s in doc.paragraph_starts] == ["A", "I"]
    assert not doc.masked


def test_detokenize_without_paragraphs_is_one_paragraph() -> None:
    edus = [EDU(1, "Title", 1, 1), EDU(2, "Body text .", 2, 2)]
    flat = detokenize("d", edus, paragraphs=False)
    assert flat.text == "Title Body text."
    assert flat.paragraph_starts == (0,)
    assert flat.edu_starts == (0, 6)


def test_masked_documents_are_marked() -> None:
    assert detokenize("d", [EDU(1, "___ __ _", 1, 1)]).masked


token = st.one_of(st.sampled_from([",", ".", ";", ":", "!", "?", "(", ")", "[", "]", '"', "'", "-", "/", "–", "n't",
                                   "'s", "'re", "$", "%", "..."]),
                  st.text(alphabet="abcXYZ019", min_size=1, max_size=5))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(token, min_size=1, max_size=6), min_size=1, max_size=6), st.data())
def test_every_gold_token_keeps_its_characters_at_its_span(edu_words: list[list[str]], data) -> None:
    paragraph, sentence, edus = 1, 1, []
    for i, words in enumerate(edu_words, 1):
        paragraph += data.draw(st.booleans())
        sentence += data.draw(st.booleans())
        edus.append(EDU(i, " ".join(words), sentence, paragraph))
    doc = detokenize("d", edus)
    flat_words = [w for words in edu_words for w in words]
    assert [doc.text[a:b] for a, b in doc.tokens] == flat_words
    gaps = [doc.text[b:a] for (_, b), (a, _) in zip(doc.tokens, doc.tokens[1:])]
    assert all(gap in ("", " ", "\n\n") for gap in gaps)
    assert len(doc.edu_starts) == len(edus)


@pytest.mark.gum
def test_read_gum_splits(gum_dir) -> None:
    test = read_gum(gum_dir, "test")
    assert len(test) == 32
    assert sum(d.masked for d in test) == 2  # GUM's reddit documents come without their text
    doc = next(d for d in test if not d.masked)
    assert doc.edu_starts[0] == 0 and set(doc.sentence_starts) <= set(doc.edu_starts)
    assert set(doc.paragraph_starts) <= set(doc.sentence_starts)
