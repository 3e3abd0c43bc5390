"""EDU vectors from a pretrained transformer's token states (the ``minilm`` / ``hf:PATH`` encoders).

A document's EDU texts are joined by single spaces and read by the transformer in context
(:mod:`rstkit.pretrained`); each word piece belongs to the EDU its first character lies in.
Per EDU and per layer the states of its pieces are pooled three ways, mean, first and
last piece (the first and last pieces carry the connectives and punctuation that mark
discourse structure); a learned scalar mix weighs the layers (softmax weights and a
scale, as in ELMo; with ``layers="concat"`` the projection reads every layer's pooled states
side by side instead), and a trained projection makes the EDU vector. EDUs without any word
piece get zeros.

Frozen (the default): the transformer runs once per document, without gradients, and
because mean/first/last pooling and the layer mix are both linear, the pooled
``(n_edus, layers, 3, dim)`` array is what a document keeps (float16) and training
touches nothing else; with a cache directory that array is what is cached (``pooled/`` under
it, keyed by the model's identity, the window settings and the EDU texts): a tenth of the
word pieces' states, which for a base-size model would be gigabytes. Fine-tuned
(``fine_tune=True``): documents keep their word-piece ids and every batch runs the transformer
with gradients; its weights are then part of the parser's model directory.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..errors import RSTKitError
from ..output import replacing_file
from ..pretrained import PretrainedEncoder

_SHARED: dict[tuple[str, int, float], PretrainedEncoder] = {}
_POOLED_LAYOUT = 1  # bump when what a pooled cache file holds changes
#: how the EDU vector reads the layers: a learned scalar mix of them, or all of them side by side
LAYER_USES = ("mix", "concat")


def document_text(texts: Sequence[str]) -> tuple[str, np.ndarray]:
    """The document text (EDU texts joined by spaces) and each EDU's character start."""
    starts, position = [], 0
    for text in texts:
        starts.append(position)
        position += len(text) + 1
    return " ".join(texts), np.asarray(starts, dtype=np.int64)


def piece_edus(offsets: np.ndarray, edu_starts: np.ndarray) -> np.ndarray:
    """0-based EDU of each word piece (the EDU its first character lies in)."""
    return np.searchsorted(edu_starts, offsets[:, 0], side="right") - 1


def pool(layers: torch.Tensor, edu_of_piece: torch.Tensor, n_edus: int) -> torch.Tensor:
    """Mean, first and last piece of each EDU on every layer: ``(L, n, D)`` -> ``(n_edus, L, 3, D)``
    (pieces in document order, so each EDU's pieces are contiguous)."""
    n_layers, _, dim = layers.shape
    counts = torch.bincount(edu_of_piece, minlength=n_edus)
    ends = torch.cumsum(counts, 0)
    starts = ends - counts
    has = (counts > 0).to(layers.dtype)
    total = layers.new_zeros(n_layers, n_edus, dim).index_add_(1, edu_of_piece, layers)
    mean = total / counts.clamp(min=1).to(layers.dtype)[None, :, None]
    last_piece = max(0, layers.shape[1] - 1)
    if layers.shape[1] == 0:
        first = last = layers.new_zeros(n_layers, n_edus, dim)
    else:
        first = layers[:, starts.clamp(max=last_piece)] * has[None, :, None]
        last = layers[:, (ends - 1).clamp(min=0, max=last_piece)] * has[None, :, None]
    return torch.stack([mean, first, last], dim=2).permute(1, 0, 2, 3)


class ScalarMix(nn.Module):
    """``gamma * sum_l softmax(w)_l x_l`` over the layer axis (dimension 1)."""

    def __init__(self, n_layers: int):
        super().__init__()
        self.weights = nn.Parameter(torch.zeros(n_layers))
        self.gamma = nn.Parameter(torch.ones(()))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        weights = torch.softmax(self.weights, 0).to(x.dtype)
        return self.gamma * torch.einsum("l,nl...->n...", weights, x)


def shared_pretrained(name: str, window: int, overlap: float) -> PretrainedEncoder:
    """One loaded transformer per model and settings (the members of an ensemble share it)."""
    key = (name, window, overlap)
    if key not in _SHARED:
        _SHARED[key] = PretrainedEncoder.load(name, window=window, overlap=overlap)
    return _SHARED[key]


def pooled_file(cache_dir: str | Path, pretrained: PretrainedEncoder, texts: Sequence[str]) -> Path:
    """The cache file of the pooled states of a document's EDU ``texts`` under ``pretrained``."""
    settings = f"pooled|{_POOLED_LAYOUT}|{pretrained.identity}|window={pretrained.window}|step={pretrained.step}|"
    key = hashlib.sha256(settings.encode() + "\x1e".join(texts).encode("utf-8")).hexdigest()
    return Path(cache_dir) / "pooled" / key[:2] / f"{key}.npy"


def pooled_states(pretrained: PretrainedEncoder, texts: Sequence[str], cache_dir: str | Path | None) -> np.ndarray:
    """The pooled ``(n_edus, layers, 3, dim)`` float16 states of a document's EDU ``texts``, read
    from the cache when it holds them and saved to it (when a cache directory is set)."""
    file = pooled_file(cache_dir, pretrained, texts) if cache_dir else None
    if file is not None and file.is_file():
        return np.load(file)
    text, starts = document_text(texts)
    states = pretrained.encode(text)
    edus = torch.from_numpy(piece_edus(states.offsets, starts))
    pooled = pool(torch.from_numpy(states.layers), edus, len(texts)).half().numpy()
    if file is not None:
        with replacing_file(file) as stream:  # whole or not at all: runs may share the cache
            np.save(stream, pooled)
    return pooled


class PooledEncoder(nn.Module):
    """EDU vectors from pooled transformer states (see the module doc)."""

    def __init__(self, model: str, dim: int = 256, dropout: float = 0.2, fine_tune: bool = False,
                 window: int = 512, overlap: float = 0.25, n_layers: int | None = None, width: int | None = None,
                 layers: str = "mix", cache_dir: str | Path | None = None):
        super().__init__()
        self.model_name = model
        self.fine_tune = fine_tune
        self.settings = {"window": window, "overlap": overlap}
        self.cache_dir = cache_dir
        object.__setattr__(self, "_pretrained", None)  # not a submodule: frozen weights stay out of the model
        if fine_tune or n_layers is None or width is None:
            pretrained = self.pretrained
            n_layers, width = pretrained.n_layers, pretrained.dim
        if fine_tune:
            self.transformer = self.pretrained  # registered: trained and saved with the parser
        self.n_layers, self.width = n_layers, width
        if layers not in LAYER_USES:
            raise RSTKitError(f"encoder option layers must be one of {', '.join(LAYER_USES)}, not {layers!r}")
        self.layers = layers
        self.mix = ScalarMix(n_layers) if layers == "mix" else None
        inputs = 3 * width * (1 if layers == "mix" else n_layers)
        self.projection = nn.Sequential(nn.Dropout(dropout), nn.Linear(inputs, dim), nn.Tanh())
        self.dim = dim
        self.dropout = dropout

    @property
    def pretrained(self) -> PretrainedEncoder:
        """The transformer (loaded on first use: frozen features may all come from the cache)."""
        if self._pretrained is None:
            settings = self.settings
            if self.fine_tune:
                loaded = PretrainedEncoder.load(self.model_name, window=settings["window"], overlap=settings["overlap"],
                                                fresh=True)
            else:
                loaded = shared_pretrained(self.model_name, settings["window"], settings["overlap"])
            object.__setattr__(self, "_pretrained", loaded)
        return self._pretrained  # type: ignore[return-value]

    def options(self) -> dict[str, Any]:
        """What rebuilds this encoder (written to the model's config)."""
        return {"dim": self.dim, "dropout": self.dropout, "fine_tune": self.fine_tune,
                "window": self.settings["window"], "overlap": self.settings["overlap"], "n_layers": self.n_layers,
                "width": self.width, "layers": self.layers}

    def input_key(self) -> tuple:
        """Encoders with equal keys make equal inputs (ensemble members share them)."""
        return ("pooled", self.model_name, self.settings["window"], self.settings["overlap"], self.fine_tune)

    def text_inputs(self, texts: list[str]) -> Any:
        if self.fine_tune:
            text, starts = document_text(texts)
            ids, offsets = self.pretrained.tokenize(text)
            return ids, piece_edus(offsets, starts), len(texts)
        pretrained = self.pretrained
        device = next(self.projection.parameters()).device  # its Linear's
        if next(pretrained.transformer.parameters()).device != device:
            pretrained.to(device)  # frozen, but on the parser's device (a GPU extracts features faster)
        return pooled_states(pretrained, texts, self.cache_dir)

    def collate(self, prepared: list[Any], device: torch.device) -> dict[str, Any]:
        if self.fine_tune:
            return {"pieces": [(torch.from_numpy(ids).to(device), torch.from_numpy(edus).to(device), n)
                               for ids, edus, n in prepared]}
        return {"pooled": torch.from_numpy(np.concatenate(prepared)).to(device)}

    def forward(self, pooled: torch.Tensor | None = None,
                pieces: list[tuple[torch.Tensor, torch.Tensor, int]] | None = None) -> torch.Tensor:
        if pieces is not None:
            pooled = torch.cat([pool(self.pretrained.hidden_states(ids), edus, n) for ids, edus, n in pieces])
        assert pooled is not None
        # (N, 3, D) mixed, or every layer's pooled states side by side: (N, layers, 3, D)
        features = pooled.float() if self.mix is None else self.mix(pooled.float())
        return self.projection(features.flatten(1))
