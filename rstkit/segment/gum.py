"""GUM's EDUs as raw text: the training and evaluation material of the segmenter.

GUM's ``.rsd`` files give each EDU as space-separated tokens (``Portsmouth , United``),
with its sentence (``sid``) and paragraph. Users give raw text, so :func:`detokenize`
rebuilds raw-looking text from the tokens (``Portsmouth, United``, ``do n't`` ->
``don't``, ``Eye - Tracking`` -> ``Eye-Tracking``, paragraphs separated by a blank line)
and keeps every gold token's span in it. The segmenter is trained on its own
tokenisation (:func:`rstkit.segment.tokenizer.tokenize`) of this text, which is exactly
what it sees on a user's text; gold EDU boundaries are character offsets, so they carry
over to any tokenisation.

Eighteen GUM reddit documents are distributed with every token replaced by underscores
(the text must be rebuilt from reddit); they are marked ``masked`` and left out of
training and scoring.
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..corpus import gum_corpus, read_tree
from ..progress import Progress
from ..tree import EDU, RSTTree
from .tokenizer import Span

_NO_SPACE_BEFORE = frozenset([",", ".", ";", ":", "!", "?", ")", "]", "}", "%", "...", "…", "”", "’", "n't", "'s",
                              "'re", "'ve", "'ll", "'d", "'m"])
_NO_SPACE_AFTER = frozenset(["(", "[", "{", "“", "‘", "$", "#"])
_GLUED = frozenset(["-", "/", "–", "_"])  # hyphen, slash, en dash between two words or numbers
_SPLIT_WORDS = {("gon", "na"), ("wan", "na"), ("got", "ta"), ("can", "not")}


@dataclass(frozen=True)
class GoldDocument:
    """A document's raw text with its gold tokens, EDUs, sentences and paragraphs.

    ``edu_starts``, ``sentence_starts`` and ``paragraph_starts`` are character offsets
    of the first character of each unit (sorted; the first is the first token's start).
    """

    doc_id: str
    text: str
    tokens: tuple[Span, ...]
    edu_starts: tuple[int, ...]
    sentence_starts: tuple[int, ...]
    paragraph_starts: tuple[int, ...]
    masked: bool = False


def detokenize(doc_id: str, edus: Sequence[EDU], paragraphs: bool = True) -> GoldDocument:
    """Raw-looking text of tokenised EDUs. With ``paragraphs``, paragraphs (as the EDUs
    know them) are separated by a blank line; without, the text is one paragraph, as in
    the DISRPT shared tasks' plain ``.tok`` files, which carry no layout."""
    pieces: list[str] = []
    tokens: list[Span] = []
    edu_starts: list[int] = []
    sentence_starts: list[int] = []
    paragraph_starts: list[int] = []
    length = 0
    previous: str | None = None
    open_quote = False
    previous_edu: EDU | None = None
    for edu in edus:
        words = edu.text.split()
        if not words:
            continue
        new_paragraph = previous_edu is None or (paragraphs and edu.paragraph != previous_edu.paragraph)
        new_sentence = previous_edu is None or edu.sentence != previous_edu.sentence
        for i, word in enumerate(words):
            if previous is None:
                separator = ""
            elif i == 0 and new_paragraph:
                separator, open_quote = "\n\n", False
            else:
                separator = "" if _glued(previous, word, open_quote) else " "
            if word == '"':
                open_quote = not open_quote
            pieces.append(separator)
            length += len(separator)
            if i == 0:
                edu_starts.append(length)
                if new_sentence:
                    sentence_starts.append(length)
                if new_paragraph:
                    paragraph_starts.append(length)
            tokens.append((length, length + len(word)))
            pieces.append(word)
            length += len(word)
            previous = word
        previous_edu = edu
    masked = bool(tokens) and all(set(w) == {"_"} for e in edus for w in e.text.split())
    return GoldDocument(doc_id, "".join(pieces), tuple(tokens), tuple(edu_starts), tuple(sentence_starts),
                        tuple(paragraph_starts), masked)


def _glued(previous: str, word: str, open_quote: bool) -> bool:
    """Whether raw text writes ``word`` right after ``previous``, without a space."""
    if word == '"':
        return open_quote  # a closing quote sticks to the word before it
    if previous == '"':
        return open_quote  # an opening quote sticks to the word after it
    if word.lower().replace("’", "'") in _NO_SPACE_BEFORE or previous in _NO_SPACE_AFTER:
        return True
    if (previous.lower(), word.lower()) in _SPLIT_WORDS:
        return True
    if word == "'":
        return previous[-1:].isalnum()
    if word in _GLUED:
        return previous[-1:].isalnum()
    if previous in _GLUED:
        return word[:1].isalnum()
    return False


def corpus_card(root: str | Path) -> dict[str, object]:
    """What a model card says of the GUM checkout it was trained on: the corpus, how many ``.rsd``
    documents it has and a fingerprint of their content (the version, whatever the machine; never the
    checkout's path)."""
    files = sorted(Path(root, "dependencies").glob("*.rsd"))
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.name.encode() + b"\0" + file.read_bytes())
    return {"name": "GUM", "documents": len(files), "sha256": digest.hexdigest()[:16]}


def read_gum_trees(root: str | Path, split: str) -> dict[str, RSTTree]:
    """The trees of one split of a GUM checkout, from its ``.rsd`` files (``dependencies/``: their
    EDUs know their sentences and paragraphs), in the split's order."""
    corpus = gum_corpus(root, "rsd")
    return {doc_id: read_tree(corpus.path(doc_id)) for doc_id in Progress.counting(corpus.doc_ids(split),
                                                                                   f"read {split}", "doc")}


def gold_documents(trees: Mapping[str, RSTTree], paragraphs: bool = True) -> list[GoldDocument]:
    """Each tree (``{doc_id: tree}``) as raw text with its gold boundaries, with or without its
    paragraph breaks."""
    return [detokenize(doc_id, tree.edus, paragraphs) for doc_id, tree in trees.items()]


def read_gum(root: str | Path, split: str, paragraphs: bool = True) -> list[GoldDocument]:
    """The documents of one split of a GUM checkout, as raw text."""
    return gold_documents(read_gum_trees(root, split), paragraphs)
