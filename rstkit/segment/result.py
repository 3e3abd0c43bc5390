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
