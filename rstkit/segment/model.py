"""The segmenter's network: a token tagger over windows of a text (torch).

Each token is represented by a word embedding, a character CNN over its characters,
its layout/shape flags (:mod:`rstkit.segment.features`) and, optionally, frozen token
vectors of a pretrained encoder; a two-layer BiLSTM reads the window and a linear layer
gives three scores per token: inside an EDU, begins an EDU, begins an EDU and a sentence.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields

import numpy as np
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from ..errors import RSTKitError
from .features import TokenFeatures

#: the classes of a token
INSIDE, EDU_START, SENTENCE_START = 0, 1, 2


@dataclass
class NetConfig:
    """Sizes of the network (saved with the model)."""

    words: int
    chars: int
    flags: int
    extra: int = 0
    extra_dim: int = 128
    word_dim: int = 100
    char_dim: int = 32
    char_filters: int = 64
    hidden: int = 128
    layers: int = 2
    dropout: float = 0.33

    def to_dict(self) -> dict:
        return asdict(self)


#: the sizes a training run may set (the others come from the vocabularies and features)
NET_OPTIONS = tuple(f.name for f in fields(NetConfig) if f.name not in ("words", "chars", "flags", "extra"))


class SegmenterNet(nn.Module):
    def __init__(self, config: NetConfig):
        super().__init__()
        self.config = config
        self.word_embedding = nn.Embedding(config.words, config.word_dim, padding_idx=0)
        self.char_embedding = nn.Embedding(config.chars, config.char_dim, padding_idx=0)
        self.char_cnn = nn.Conv1d(config.char_dim, config.char_filters, kernel_size=3, padding=1)
        width = config.word_dim + config.char_filters + config.flags + (config.extra_dim if config.extra else 0)
        self.extra_projection = nn.Sequential(nn.LayerNorm(config.extra), nn.Linear(config.extra, config.extra_dim),
                                              nn.ReLU()) if config.extra else None
        self.lstm = nn.LSTM(width, config.hidden, num_layers=config.layers, batch_first=True, bidirectional=True,
                            dropout=config.dropout if config.layers > 1 else 0.0)
        self.dropout = nn.Dropout(config.dropout)
        self.output = nn.Linear(2 * config.hidden, 3)

    def forward(self, words: torch.Tensor, chars: torch.Tensor, flags: torch.Tensor, lengths: torch.Tensor,
                extra: torch.Tensor | None = None) -> torch.Tensor:
        """Scores [B, T, 3] of padded windows ``words`` [B, T], ``chars`` [B, T, C],
        ``flags`` [B, T, F], ``extra`` [B, T, E] of true lengths ``lengths`` [B]."""
        batch, steps, width = chars.shape
        char_vectors = self.char_embedding(chars.reshape(batch * steps, width)).transpose(1, 2)
        char_vectors = torch.relu(self.char_cnn(char_vectors)).max(dim=2).values.reshape(batch, steps, -1)
        parts = [self.word_embedding(words), char_vectors, flags]
        if self.extra_projection is not None:
            parts.append(self.extra_projection(extra))
        inputs = self.dropout(torch.cat(parts, dim=-1))
        packed = pack_padded_sequence(inputs, lengths.cpu(), batch_first=True, enforce_sorted=False)
        states, _ = self.lstm(packed)
        states, _ = pad_packed_sequence(states, batch_first=True, total_length=steps)
        return self.output(self.dropout(states))


def batch_windows(windows: Sequence[tuple[TokenFeatures, int, int]]) -> tuple[
        torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor | None]:
    """Padded inputs (words, chars, flags, lengths, extra) of token ranges ``[lo, hi)`` of
    texts (``extra`` None without pretrained vectors)."""
    steps = max(hi - lo for _, lo, hi in windows)
    size = len(windows)
    first = windows[0][0]
    words = np.zeros((size, steps), dtype=np.int64)
    chars = np.zeros((size, steps, first.chars.shape[1]), dtype=np.int64)
    flags = np.zeros((size, steps, first.flags.shape[1]), dtype=np.float32)
    for row, (features, lo, hi) in enumerate(windows):
        words[row, :hi - lo] = features.words[lo:hi]
        chars[row, :hi - lo] = features.chars[lo:hi]
        flags[row, :hi - lo] = features.flags[lo:hi]
    extra = None
    if first.extra is not None:
        padded = np.zeros((size, steps, first.extra.shape[1]), dtype=np.float32)
        for row, (features, lo, hi) in enumerate(windows):
            if features.extra is None:
                raise RSTKitError("a batch mixes texts with and without pretrained vectors")
            padded[row, :hi - lo] = features.extra[lo:hi]
        extra = torch.from_numpy(padded)
    lengths = torch.tensor([hi - lo for _, lo, hi in windows])
    return torch.from_numpy(words), torch.from_numpy(chars), torch.from_numpy(flags), lengths, extra
