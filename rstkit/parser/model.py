"""The state scorer: document-level EDU encoding, span vectors, three heads.

A state is seen through the spans of the top two stack items (s1, s0) and the first
queue EDU (q0); with ``context=5`` also the third stack item (s2) and the second queue
EDU (q1). EDU vectors from the encoder go through a document-level BiLSTM; a span
is ``[h_start; h_end; mean(h_start..h_end)]`` projected (with ``span_diff``, also the
endpoint differences of the two directions, ``f_end - f_start-1`` and
``b_start - b_end+1``, which summarise exactly the span's EDUs), missing items get a
learned vector (``doc_layers`` stacked BiLSTM layers; ``unit_features`` adds the sentences and
paragraphs each item covers and lies apart to the boundary features). With the boundary
features of :mod:`.features`, an MLP scores the action
(shift/reduce), the nuclearity pair and the relation; relation scores are given for each
pair (``(K, 3, R)``), conditioned on it with ``relation_given_pair`` (an NN joint and an
NS elaboration call for different evidence), the same for all pairs otherwise.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from ..errors import RSTKitError
from ..tree import EDU
from .features import CONTEXT_SLOTS, N_STATE_FEATURES, N_UNIT_FEATURES, Boundaries, StateArrays

if TYPE_CHECKING:
    from .encoders import EDUEncoder

IGNORE = -100
PAIR_DIM = 32


@dataclass
class EncodedDocuments:
    """Document-level EDU vectors ``(B, N, D)`` and their prefix sums ``(B, N + 1, D)``."""

    vectors: torch.Tensor
    prefix: torch.Tensor


class ParserModel(nn.Module):
    """EDU encoder + document BiLSTM + state MLP with action, nuclearity and relation heads."""

    def __init__(self, encoder: EDUEncoder, relations: Sequence[str], hidden: int = 128, span_dim: int = 128,
                 mlp_dim: int = 256, dropout: float = 0.3, span_diff: bool = False,
                 relation_given_pair: bool = False, context: int = 3, unit_features: bool = False,
                 doc_layers: int = 1):
        super().__init__()
        self.encoder = encoder
        self.relations = list(relations)
        self.hidden = hidden
        self.span_diff = span_diff
        self.document = nn.LSTM(encoder.dim, hidden, batch_first=True, bidirectional=True, num_layers=doc_layers,
                                dropout=dropout if doc_layers > 1 else 0.0)
        self.n_features = N_STATE_FEATURES + (N_UNIT_FEATURES if unit_features else 0)
        self.span = nn.Sequential(nn.Linear((8 if span_diff else 6) * hidden, span_dim), nn.Tanh())
        if context not in CONTEXT_SLOTS:
            raise RSTKitError(f"context must be one of {sorted(CONTEXT_SLOTS)}, got {context}")
        self.context = context
        self.empty = nn.Parameter(torch.zeros(context, span_dim))
        self.mlp = nn.Sequential(nn.Dropout(dropout), nn.Linear(context * span_dim + self.n_features, mlp_dim),
                                 nn.ReLU(),
                                 nn.Dropout(dropout))
        self.action_head = nn.Linear(mlp_dim, 2)
        self.pair_head = nn.Linear(mlp_dim, 3)
        self.relation_given_pair = relation_given_pair
        self.pair_embedding = nn.Embedding(3, PAIR_DIM) if relation_given_pair else None
        self.relation_head = nn.Linear(mlp_dim + (PAIR_DIM if relation_given_pair else 0), len(self.relations))
        self.dropout = nn.Dropout(dropout)

    def encode(self, inputs: dict[str, Any], sizes: Sequence[int]) -> EncodedDocuments:
        """Encode the EDUs of ``len(sizes)`` documents given back to back in ``inputs``."""
        flat = self.encoder(**inputs)
        device = flat.device
        padded = flat.new_zeros(len(sizes), max(sizes), flat.shape[-1])
        rows = torch.repeat_interleave(torch.arange(len(sizes), device=device), torch.tensor(sizes, device=device))
        cols = torch.cat([torch.arange(n, device=device) for n in sizes])
        padded[rows, cols] = flat
        packed = nn.utils.rnn.pack_padded_sequence(self.dropout(padded), torch.tensor(sizes), batch_first=True,
                                                   enforce_sorted=False)
        out, _ = self.document(packed)
        vectors, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=max(sizes))
        vectors = vectors.float()
        prefix = torch.cat([vectors.new_zeros(len(sizes), 1, vectors.shape[-1]), vectors.cumsum(1)], dim=1)
        return EncodedDocuments(vectors, prefix)

    def score(self, docs: EncodedDocuments, doc_index: torch.Tensor, spans: torch.Tensor, present: torch.Tensor,
              features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Logits of action ``(K, 2)``, pair ``(K, 3)`` and relation given each pair ``(K, 3, R)``
        for K states (``doc_index`` (K,) into the batch)."""
        b = doc_index[:, None].expand(-1, self.context)
        start, end = spans[..., 0], spans[..., 1]
        first = docs.vectors[b, start - 1]
        last = docs.vectors[b, end - 1]
        mean = (docs.prefix[b, end] - docs.prefix[b, start - 1]) / (end - start + 1).unsqueeze(-1).to(first.dtype)
        parts = [first, last, mean]
        if self.span_diff:
            parts += self._differences(docs.vectors, b, start, end)
        span_vectors = self.span(torch.cat(parts, dim=-1))
        mask = present.unsqueeze(-1)
        span_vectors = mask * span_vectors + (1 - mask) * self.empty.unsqueeze(0)
        hidden = self.mlp(torch.cat([span_vectors.flatten(1), features[:, :self.n_features]], dim=-1))
        if self.pair_embedding is not None:
            pairs = self.pair_embedding.weight.unsqueeze(0).expand(hidden.shape[0], -1, -1)
            relation = self.relation_head(torch.cat([hidden.unsqueeze(1).expand(-1, 3, -1), pairs], dim=-1))
        else:
            relation = self.relation_head(hidden).unsqueeze(1).expand(-1, 3, -1)
        return self.action_head(hidden), self.pair_head(hidden), relation

    def _differences(self, vectors: torch.Tensor, b: torch.Tensor, start: torch.Tensor, end: torch.Tensor
                     ) -> list[torch.Tensor]:
        """Forward ``f_end - f_start-1`` and backward ``b_start - b_end+1`` (zero outside the document)."""
        zero = vectors.new_zeros(vectors.shape[0], 1, vectors.shape[-1])
        padded = torch.cat([zero, vectors, zero], dim=1)  # padded[k] = h_k; rows past a document are zero
        h = self.hidden
        forward = padded[b, end, :h] - padded[b, start - 1, :h]
        backward = padded[b, start, h:] - padded[b, end + 1, h:]
        return [forward, backward]

    def forward(self, batch: dict[str, Any]) -> torch.Tensor:
        """Teacher-forcing loss over all oracle states of a batch of documents."""
        docs = self.encode(batch["inputs"], batch["sizes"])
        action, pair, relation = self.score(docs, batch["doc_index"], batch["spans"], batch["present"],
                                            batch["features"])
        loss = F.cross_entropy(action.float(), batch["action"])
        if bool((batch["pair"] != IGNORE).any()):
            loss = loss + F.cross_entropy(pair.float(), batch["pair"], ignore_index=IGNORE)
            gold_pair = relation[torch.arange(relation.shape[0], device=relation.device), batch["pair"].clamp(min=0)]
            loss = loss + F.cross_entropy(gold_pair.float(), batch["relation"], ignore_index=IGNORE)
        return loss


@dataclass
class ParserInput:
    """A document ready for the model: its EDUs, encoder inputs (one per ensemble member),
    boundaries and, for training, its oracle states and gold labels."""

    doc_id: str
    edus: tuple[EDU, ...]
    inputs: Any
    boundaries: Boundaries
    states: StateArrays | None = None
    action: np.ndarray | None = None
    pair: np.ndarray | None = None
    relation: np.ndarray | None = None


def collate(docs: Sequence[ParserInput], encoder: EDUEncoder, device: torch.device) -> dict[str, Any]:
    """One training batch: encoder inputs and all oracle states of ``docs``."""
    assert all(d.states is not None for d in docs)
    counts = [len(d.action) for d in docs]  # type: ignore[arg-type]

    def cat(name: str, source=lambda d, n: getattr(d, n)) -> torch.Tensor:
        return torch.from_numpy(np.concatenate([source(d, name) for d in docs])).to(device)

    return {
        "inputs": encoder.collate([d.inputs[0] for d in docs], device),
        "sizes": [len(d.edus) for d in docs],
        "doc_index": torch.repeat_interleave(torch.arange(len(docs)), torch.tensor(counts)).to(device),
        "spans": cat("spans", lambda d, n: getattr(d.states, n)),
        "present": cat("present", lambda d, n: getattr(d.states, n)),
        "features": cat("features", lambda d, n: getattr(d.states, n)),
        "action": cat("action"),
        "pair": cat("pair"),
        "relation": cat("relation"),
    }
