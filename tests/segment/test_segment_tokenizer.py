"""The segmenter's tokenizer and paragraph splitter (rstkit.segment.tokenizer).

Expected tokens are GUM's own tokenisation of the same words, read off the corpus'
``dependencies/*.rsd`` EDU texts (file named beside each case), not rstkit's output.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.segment.gum import read_gum
from rstkit.segment.tokenizer import paragraphs, tokenize


def words(text: str) -> list[str]:
    return [text[a:b] for a, b in tokenize(text)]


@pytest.mark.parametrize("raw, gum", [
    # GUM_academic_art: "Insights from Eye - Tracking", "University of Portsmouth , United Kingdom"
    ("Insights from Eye-Tracking", "Insights from Eye - Tracking"),
    ("University of Portsmouth, United Kingdom", "University of Portsmouth , United Kingdom"),
    ("Claire Bailey-Ross claire.bailey-ross@port.ac.uk", "Claire Bailey - Ross claire.bailey-ross@port.ac.uk"),
    ("(e.g. colour, texture, brightness etc)", "( e.g. colour , texture , brightness etc )"),
    # clitics as UD/GUM split them: "do n't", "it 's", "ca n't", "gon na", "I 'm"
    ("I don't think it's fair, I can't, I'm gonna go", "I do n't think it 's fair , I ca n't , I 'm gon na go"),
    ("we’re here, they’ve left", "we ’re here , they ’ve left"),
    # prefixes stay attached (GUM: non-avian, re-elected, co-op); other hyphens are tokens
    ("non-avian re-elected co-op self-made", "non-avian re-elected co-op self - made"),
    # abbreviations and numbers stay whole (GUM: U.S., Mr., al., 40,000, 7.2, 1960s, 19th)
    ("Mr. Smith et al. in the U.S. paid $40,000 (7.2%) in the 1960s, 19th c.",
     "Mr. Smith et al. in the U.S. paid $ 40,000 ( 7.2 % ) in the 1960s , 19th c ."),
    ("He left... She stayed—why?", "He left ... She stayed — why ?"),
    ("https://osf.io/abc.", "https://osf.io/abc ."),
    ('She said "no" and left.', 'She said " no " and left .'),
])
def test_gum_conventions(raw: str, gum: str) -> None:
    assert words(raw) == gum.split()


def test_numbered_list_item_keeps_its_period() -> None:
    # GUM/GENTLE: "1. First", "... at night . 2. Metformin", "three basic factors : 1. The nature"
    assert words("1. First\n2. Second") == ["1.", "First", "2.", "Second"]
    assert words("one at night. 2. Metformin") == ["one", "at", "night", ".", "2.", "Metformin"]
    assert words("three basic factors: 1. The nature") == ["three", "basic", "factors", ":", "1.", "The", "nature"]
    # but not a number ending a sentence
    assert words("born in 1990.") == ["born", "in", "1990", "."]
    assert words("He scored 5. Then he left.") == ["He", "scored", "5", ".", "Then", "he", "left", "."]


def test_urls_and_e_mail_addresses_by_the_rule() -> None:
    """A URL runs from its prefix to the chunk's last character that is not closing
    punctuation (at least one character); an e-mail address starts where a run of its
    local part's characters (letters, digits, ``_ . + -``) starts. Expected by hand."""
    assert words("see http://x.org/a_(b)). ok") == ["see", "http://x.org/a_(b", ")", ")", ".", "ok"]
    assert words("(http://x.com)") == ["(", "http://x.com", ")"]
    assert words("http://)))") == ["http://)", ")", ")"]
    assert words("www.a.b,") == ["www.a.b", ","]
    assert words("mail a.b+c@d.co.uk.") == ["mail", "a.b+c@d.co.uk", "."]
    # no address begins inside "#tag.b": the hashtag takes "#tag", then "." and "b" are tokens of their own
    assert words("#tag.b@c.com") == ["#tag", ".", "b", "@", "c", ".", "com"]
    # long chunks where each token once rescanned the rest of the chunk (a benchmark times them)
    assert words("a+" * 3) == ["a", "+"] * 3
    assert words("http://" + ")" * 5 + "a") == ["http://)))))a"]


def test_tokenize_a_range_gives_spans_of_the_whole_text() -> None:
    text = "ab cd\n\nef gh"
    assert tokenize(text, 7, 12) == [(7, 9), (10, 12)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=200))
def test_tokens_cover_every_non_whitespace_character_once(text: str) -> None:
    tokens = tokenize(text)
    covered = []
    previous_end = 0
    for start, end in tokens:
        assert previous_end <= start < end
        assert not any(c.isspace() for c in text[start:end])
        covered.extend(range(start, end))
        previous_end = end
    assert covered == [i for i, c in enumerate(text) if not c.isspace()]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab .\t", max_size=8), max_size=6),
       st.lists(st.sampled_from(["\n\n", "\n \n", "\r\n\r\n", "\n\t\n\n"]), min_size=6, max_size=6))
def test_paragraphs_split_at_blank_lines_only(chunks: list[str], separators: list[str]) -> None:
    text = "".join(c + s for c, s in zip(chunks, separators))
    spans = paragraphs(text)
    expected = [c.strip(" \t") for c in chunks if c.strip()]
    assert [text[a:b] for a, b in spans] == expected


def test_paragraphs_keep_single_line_breaks_inside() -> None:
    text = "  one\ntwo  \n\n\nthree\n"
    assert [text[a:b] for a, b in paragraphs(text)] == ["one\ntwo", "three"]
    assert paragraphs(" \n\t\n ") == []


@pytest.mark.gum
def test_tokenizer_agrees_with_gum_tokens_on_rebuilt_text(gum_dir) -> None:
    """On GUM's dev text rebuilt as raw text, at least 99% of GUM's tokens come out as
    exactly the same character spans."""
    same = total = 0
    for doc in read_gum(gum_dir, "dev"):
        if doc.masked:
            continue
        mine = set(tokenize(doc.text))
        same += sum(1 for span in doc.tokens if span in mine)
        total += len(doc.tokens)
    assert total > 20000
    assert same / total >= 0.99
