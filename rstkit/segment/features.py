"""Token features of the segmenter: word ids, character ids and layout/shape flags.

Everything here is plain Python and numpy (no torch), computed once per text from the
text and its token spans, so the same code serves training (GUM as raw text) and
prediction (a user's text); a model that also reads a pretrained encoder's states loads it
with :func:`load_encoder` (torch, imported then) and pools them per token (:func:`pool_pieces`).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import RSTKitError
from ..extras import needs
from ..vocabulary import Vocabulary
from .tokenizer import Span

#: characters kept per token: the first and the last half (prefixes and suffixes both matter)
MAX_CHARS = 16
#: the layout and shape flags, in the order of the flag vector
FLAGS = ("paragraph_start", "line_start", "space_before", "space_after", "capitalized", "all_caps", "digit",
         "punctuation", "sentence_final", "text_start")
_SENTENCE_FINAL = re.compile(r"(?:[.!?…]|\.\.\.)[\"'”’)\]]*$")


def word_key(word: str) -> str:
    """How a word is looked up: lower-cased, digits folded to 0."""
    return re.sub(r"\d", "0", word.lower())


@dataclass
class TokenFeatures:
    """The inputs of one text: ``words`` [T], ``chars`` [T, MAX_CHARS], ``flags`` [T, len(FLAGS)]
    and, with a pretrained encoder, its pooled token vectors ``extra`` [T, E]."""

    words: np.ndarray
    chars: np.ndarray
    flags: np.ndarray
    extra: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.words)


def token_chars(token: str) -> str:
    """The characters of a token the character encoder sees (long tokens: both ends)."""
    if len(token) <= MAX_CHARS:
        return token
    half = MAX_CHARS // 2
    return token[:half] + token[-half:]


def featurize(text: str, tokens: Sequence[Span], paragraph_starts: Iterable[int],
              words: Vocabulary, chars: Vocabulary) -> TokenFeatures:
    """Features of ``tokens`` of ``text``; ``paragraph_starts`` are the character offsets
    where paragraphs begin (a token starting there gets the paragraph flag)."""
    paragraph_starts = set(paragraph_starts)
    n = len(tokens)
    word_ids = np.zeros(n, dtype=np.int64)
    char_ids = np.zeros((n, MAX_CHARS), dtype=np.int64)
    flags = np.zeros((n, len(FLAGS)), dtype=np.float32)
    for i, (start, end) in enumerate(tokens):
        token = text[start:end]
        word_ids[i] = words.get(word_key(token))
        for j, c in enumerate(token_chars(token)):
            char_ids[i, j] = chars.get(c)
        before = text[tokens[i - 1][1]:start] if i else ""
        after_end = tokens[i + 1][0] if i + 1 < n else end
        flags[i] = (
            start in paragraph_starts,
            "\n" in before,
            i == 0 or bool(before),
            i + 1 == n or after_end > end,
            token[:1].isupper(),
            len(token) > 1 and token.isupper(),
            any(c.isdigit() for c in token),
            not any(c.isalnum() for c in token),
            bool(_SENTENCE_FINAL.search(token)),
            i == 0,
        )
    return TokenFeatures(word_ids, char_ids, flags)


def pool_pieces(offsets: np.ndarray, vectors: np.ndarray, tokens: Sequence[Span] | np.ndarray) -> np.ndarray:
    """Token vectors [T, dim] from word-piece vectors: each token's vector is the mean of
    the pieces whose characters ``offsets`` [n, 2] overlap the token's (zeros if none, as
    for characters a pretrained tokenizer drops). Pieces are in text order. Each token's
    sum is taken over its own pieces only, so the result does not depend on which other
    pieces are given (a long text's pieces can be pooled a few at a time)."""
    result = np.zeros((len(tokens), vectors.shape[1]), dtype=np.float32)
    if not len(tokens) or not len(offsets):
        return result
    spans = np.asarray(tokens, dtype=np.int64).reshape(-1, 2)
    first = np.searchsorted(offsets[:, 1], spans[:, 0], side="right")  # first piece ending after the token starts
    stop = np.searchsorted(offsets[:, 0], spans[:, 1], side="left")    # first piece starting at or after its end
    counts = np.maximum(stop - first, 0)
    some = np.flatnonzero(counts)
    if not len(some):
        return result
    # the pieces of every token with some, one after the other, and where each token's run begins
    run_starts = np.concatenate([[0], np.cumsum(counts[some])[:-1]])
    pieces = np.arange(counts.sum()) - np.repeat(run_starts, counts[some]) + np.repeat(first[some], counts[some])
    sums = np.add.reduceat(vectors[pieces].astype(np.float64), run_starts, axis=0)
    result[some] = sums / counts[some, None]
    return result


def load_encoder(name: str, cache_dir: str | Path | None = None):
    """The parser's pretrained encoder ``name`` (``minilm`` or ``hf:PATH``)."""
    try:
        from ..pretrained import PretrainedEncoder

        return PretrainedEncoder.load(name, cache_dir=cache_dir)
    except ImportError as exc:
        raise RSTKitError(needs(f"this segmenter model reads the pretrained encoder {name!r}, which",
                                exc.name or "transformers", extra="parser")
                          + "; or use the shipped model that needs nothing but torch (segmenter-base)") from None
    except RSTKitError as exc:
        if name != "minilm":
            raise
        raise RSTKitError(f"this segmenter model reads the pretrained encoder 'minilm': {exc.message}; or use the "
                          "shipped model that needs nothing but torch (segmenter-base)", exc.path) from None
