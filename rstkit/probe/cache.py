"""An on-disk cache of encodings, keyed by encoder identity and the SHA-256 of each text.

Layout: ``ROOT/<encoder slug>-<hash of the encoder name>/<shard>.npz``, each shard holding
``keys`` (SHA-256 digests of the texts, one row of 32 bytes each) and ``vectors``. A run
reads every shard of its encoder, encodes only the texts none of them holds, and writes
those as new shards of :data:`SHARD_TEXTS` texts each as soon as each is encoded (through
:func:`rstkit.output.write_files`: a file whole or not at all, so concurrent runs never see half a
file): an interrupted run resumes where it stopped.

Default root: ``encodings`` under rstkit's cache root (:mod:`rstkit.cache`: ``$RSTKIT_CACHE``, else
``$XDG_CACHE_HOME/rstkit`` or ``~/.cache/rstkit``).
"""
from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..output import write_files
from ..progress import Progress
from .encoders import Encoder
from .errors import EncoderError

#: texts encoded and saved together: an interrupted run loses at most one shard's work
SHARD_TEXTS = 1024


def text_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


class EncodingCache:
    """Encodings of one encoder, stored under ``root``."""

    def __init__(self, root: str | Path, encoder: Encoder):
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", encoder.name)[:60]
        digest = hashlib.sha256(encoder.name.encode("utf-8")).hexdigest()[:12]
        self.directory = Path(root) / f"{slug}-{digest}"
        self.encoder = encoder

    def load(self) -> dict[bytes, np.ndarray]:
        """Every vector stored for this encoder, by text digest."""
        stored: dict[bytes, np.ndarray] = {}
        for shard in sorted(self.directory.glob("*.npz")):
            with np.load(shard) as data:
                for key, vector in zip(data["keys"], data["vectors"]):
                    stored[key.tobytes()] = vector
        return stored

    def save(self, keys: list[bytes], vectors: np.ndarray) -> None:
        name = hashlib.sha256(b"".join(sorted(keys))).hexdigest()[:16]
        shard = io.BytesIO()
        # raw uint8 rows: a fixed-width bytes array would drop a digest's trailing zero bytes
        digests = np.frombuffer(b"".join(keys), dtype=np.uint8).reshape(len(keys), 32)
        np.savez(shard, keys=digests, vectors=vectors)
        write_files(self.directory / f"{name}.npz", {name: shard.getvalue()}, into_directory=False, force=True)

    def encode(self, texts: Sequence[str]) -> tuple[np.ndarray, int]:
        """Vectors of ``texts`` (rows in order) and how many texts had to be encoded."""
        keys = [text_key(t) for t in texts]
        stored = self.load()
        todo = {k: t for k, t in zip(keys, texts) if k not in stored}
        pending = list(todo.items())
        with Progress(len(pending), "encode", "text") as bar:
            for start in range(0, len(pending), SHARD_TEXTS):  # each shard saved as soon as it is encoded
                chunk = pending[start:start + SHARD_TEXTS]
                fresh = self.encoder([text for _, text in chunk])
                self.save([key for key, _ in chunk], fresh)
                stored.update(zip((key for key, _ in chunk), fresh))
                bar.update(len(chunk))
        widths = {stored[k].shape for k in keys}
        if len(widths) > 1:
            raise EncoderError(f"cached encodings of encoder {self.encoder.name!r} have different shapes "
                               f"({', '.join(map(str, sorted(widths)))}): the encoder changed under the same "
                               f"name; clear the cache ({self.directory}) or give the encoder a new cache_id")
        return np.stack([stored[k] for k in keys]).astype(np.float32), len(todo)
