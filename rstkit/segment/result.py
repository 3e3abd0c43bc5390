"""What segmenting a text gives: EDUs as character spans of the text, with their paragraph
and (inferred) sentence, in plain Python (no torch)."""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..tree import EDU
from .tokenizer import Span

_WHITESPACE = re.compile(r"\s+")
_LINE_BREAK = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")


def _unwrapped(text: str) -> str:
    """``text`` with every run of whitespace that holds a line break made one space (each
    run is matched once: linear even in a megabyte of spaces)."""
    return _WHITESPACE.sub(lambda run: " " if _LINE_BREAK.search(run.group()) else run.group(), text)


@dataclass(frozen=True)
class EDUSpan:
    """One EDU of a text: ``text[start:end]`` (from its first to its last non-whitespace
    character), with the 1-based indices of its paragraph and sentence in the text."""

    start: int
    end: int
    paragraph: int
    sentence: int
    text: str


@dataclass(frozen=True)
class Segmentation:
    """A text and its EDUs, in order. The EDUs never overlap and cover every
    non-whitespace character: the text is the EDUs plus the whitespace between them."""

    text: str
    edus: tuple[EDUSpan, ...]

    def __len__(self) -> int:
        return len(self.edus)

    def spans(self) -> list[Span]:
        """``(start, end)`` character offsets of the EDUs."""
        return [(e.start, e.end) for e in self.edus]

    def to_edus(self) -> tuple[EDU, ...]:
        """The EDUs as :class:`rstkit.tree.EDU` (index from 1, text, sentence, paragraph)."""
        return tuple(EDU(i, e.text, e.sentence, e.paragraph) for i, e in enumerate(self.edus, 1))

    def lines(self) -> str:
        """EDUs one per line, a blank line between paragraphs; line breaks inside an EDU
        (a paragraph wrapped over several lines) become single spaces."""
        out: list[str] = []
        for i, edu in enumerate(self.edus):
            if i and edu.paragraph != self.edus[i - 1].paragraph:
                out.append("")
            out.append(_unwrapped(edu.text))
        return "\n".join(out) + "\n" if out else ""


#: characters of a dash (hyphen-minus, hyphen, figure, en, em and horizontal bar dashes, minus)
DASH_CHARACTERS = frozenset("-\u2010\u2011\u2012\u2013\u2014\u2015\u2212")
#: words that begin a clause and mean nothing alone (compared lower-cased)
CONJUNCTIONS = frozenset(["and", "but", "or", "nor", "yet", "so", "for", "plus", "&", "that", "because", "although",
                          "though", "whereas", "if"])
#: the words that open a subordinate clause (lower-cased): a lone conjunction before one is GUM's discontinuous
#: main clause (``And`` | ``if atoms are conserved,`` | ``...``), an EDU of its own by GUM's guidelines
SUBORDINATORS = frozenset(["if", "when", "whenever", "as", "while", "whilst", "because", "although", "though",
                           "unless", "once", "before", "after", "since", "until", "till", "whereas", "where",
                           "wherever", "whether", "even", "provided"])


def merge_lone_edus(text: str, tokens: Sequence[Span], edu_starts: Iterable[int], sentence_starts: Iterable[int],
                    paragraph_starts: Sequence[int]) -> tuple[list[int], list[int]]:
    """``(edu_starts, sentence_starts)`` (token numbers) with no EDU that is a lone dash or a lone conjunction,
    the segmenter's post-rule (parsers/rstkit/segmenter.md), merged within its paragraph:

    * a dash alone (tokens of dash characters only) joins the EDU before it, where GUM puts a dash (673
      EDUs end with one, 183 begin with one, none is one); its sentence start, if any, passes to the EDU
      after it; a paragraph-initial one joins the EDU after it;
    * a conjunction alone (:data:`CONJUNCTIONS`, a comma after it allowed) joins the EDU after it, the
      clause it introduces, unless that EDU opens with a subordinator (:data:`SUBORDINATORS`): ``And`` |
      ``when he came back,`` | ``everything had changed.`` is GUM's segmentation (240 such EDUs), the
      conjunction's main clause interrupted by the subordinate one.
    """
    if not tokens:
        return sorted(set(edu_starts)), sorted(set(sentence_starts))
    paragraph_set = set(paragraph_starts)
    forced = {0} | {i for i, (start, _) in enumerate(tokens) if start in paragraph_set}
    firsts = sorted(set(edu_starts) | forced)
    sentences = set(sentence_starts) | forced
    starts = set(firsts)
    words = [text[a:b] for a, b in tokens]
    for k, first in enumerate(firsts):
        if first not in starts:  # merged already
            continue
        last = (firsts[k + 1] if k + 1 < len(firsts) else len(tokens)) - 1
        following = next((f for f in firsts[k + 1:] if f in starts), None)
        edu = words[first:last + 1]
        if all(set(word) <= DASH_CHARACTERS for word in edu):
            if first not in forced:
                starts.discard(first)
                if first in sentences and following is not None and following not in forced:
                    sentences.add(following)
                sentences.discard(first)
            elif following is not None and following not in forced:
                starts.discard(following)
                sentences.discard(following)
        elif (edu[0].lower() in CONJUNCTIONS and edu[1:] in ([], [","]) and following is not None
              and following not in forced and words[following].lower() not in SUBORDINATORS):
            starts.discard(following)
            if following in sentences:
                sentences.discard(following)
                sentences.add(first)
    return sorted(starts), sorted(sentences & starts)


def build_segmentation(text: str, tokens: Sequence[Span], edu_starts: Iterable[int],
                       sentence_starts: Iterable[int], paragraph_starts: Sequence[int]) -> Segmentation:
    """The segmentation of ``text`` whose EDUs begin at the tokens numbered ``edu_starts``.

    ``sentence_starts`` are token numbers where sentences begin (each must begin an EDU),
    ``paragraph_starts`` character offsets where paragraphs begin (sorted). The first
    token, and every token that begins a paragraph, begins an EDU and a sentence.
    """
    if not tokens:
        return Segmentation(text, ())
    paragraph_set = set(paragraph_starts)
    forced = {0} | {i for i, (start, _) in enumerate(tokens) if start in paragraph_set}
    firsts = sorted(set(edu_starts) | forced)
    new_sentences = set(sentence_starts) | forced
    edus: list[EDUSpan] = []
    sentence = 0
    for k, first in enumerate(firsts):
        last = (firsts[k + 1] if k + 1 < len(firsts) else len(tokens)) - 1
        start, end = tokens[first][0], tokens[last][1]
        sentence += first in new_sentences
        paragraph = max(1, bisect_right(paragraph_starts, start))
        edus.append(EDUSpan(start, end, paragraph, sentence, text[start:end]))
    return Segmentation(text, tuple(edus))
