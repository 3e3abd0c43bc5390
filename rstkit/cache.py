"""Where rstkit keeps what it computes once and reads again: one rule for every cache.

The root is ``$RSTKIT_CACHE`` when set, else ``$XDG_CACHE_HOME/rstkit``, else ``~/.cache/rstkit``;
each kind of cached data has a folder of its own under it (``features``: pretrained token states,
``encodings``: DiscoEval's sentence encodings, ``models``: models unpacked from
split archives, :mod:`rstkit.archives`). Imports nothing from rstkit.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

#: the kinds of cached data, each a folder under the root
CacheKind = Literal["features", "encodings", "models"]


def cache_root() -> Path:
    """The root of rstkit's caches (see the module's text)."""
    if os.environ.get("RSTKIT_CACHE"):
        return Path(os.environ["RSTKIT_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rstkit"


def cache_dir(kind: CacheKind) -> Path:
    """The folder of one kind of cached data (``features``, ``encodings``, ``models``) under :func:`cache_root`."""
    return cache_root() / kind
