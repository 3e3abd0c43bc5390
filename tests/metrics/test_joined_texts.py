"""JoinedTexts (a document's EDU texts as one string, as reading processes send them) behaves as the tuple of
its texts: length, items, slices, iteration, equality, pickling; two are equal only when every text is."""
from __future__ import annotations

import pickle

from hypothesis import given
from hypothesis import strategies as st

from rstkit.metrics.prepared import JoinedTexts

TEXTS = st.lists(st.text(max_size=6), max_size=8)


@given(TEXTS)
def test_as_the_tuple_of_its_texts(texts):
    joined = JoinedTexts.of(texts)
    assert len(joined) == len(texts) and list(joined) == texts and tuple(joined[:]) == tuple(texts)
    assert all(joined[i] == text for i, text in enumerate(texts))
    assert joined == texts and joined == tuple(texts) and tuple(texts) == joined
    again = pickle.loads(pickle.dumps(joined))
    assert again == joined and list(again) == texts


@given(TEXTS, TEXTS)
def test_equal_exactly_when_every_text_is(first, second):
    assert (JoinedTexts.of(first) == JoinedTexts.of(second)) == (first == second)
    assert (JoinedTexts.of(first) == second) == (first == second)


def test_same_characters_cut_elsewhere_differ():
    assert JoinedTexts.of(["ab", "c"]) != JoinedTexts.of(["a", "bc"])
    assert JoinedTexts.of(["", "a"]) != JoinedTexts.of(["a", ""])
    assert JoinedTexts.of([]) == () and JoinedTexts.of([]) != "" and JoinedTexts.of(["a"]) != "a"
