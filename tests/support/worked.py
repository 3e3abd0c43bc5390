"""Where the worked examples of the scorer are: evaluation.md's own files (../shared, through conftest's
``examples_dir`` fixture, which skips when they are absent) and the repository's (tests/data/worked,
every number derived by hand in its README.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

WORKED = Path(__file__).resolve().parents[1] / "data" / "worked"


def examples_root(request: pytest.FixtureRequest, source: str) -> Path:
    """``spec``: evaluation.md's examples folder (the test skips without ../shared); ``own``: tests/data/worked."""
    if source == "spec":
        return request.getfixturevalue("examples_dir")
    if source == "own":
        return WORKED
    raise ValueError(f"unknown source of worked examples {source!r}")
