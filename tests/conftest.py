"""Shared fixtures: paths of the GUM corpus (../shared/corpora/gum) and of the sample corpus."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
GUM = Path(os.environ.get("RSTKIT_GUM", PROJECT.parent / "shared" / "corpora" / "gum"))
EXAMPLES = Path(os.environ.get("RSTKIT_EXAMPLES", PROJECT.parent / "shared" / "docs" / "examples"))


@pytest.fixture(scope="session")
def gum_dir() -> Path:
    """The GUM checkout (splits.md, lisp_nary/, lisp_binary/, rstweb/, dependencies/)."""
    if not (GUM / "lisp_nary").is_dir():
        pytest.skip(f"GUM corpus not found at {GUM}")
    return GUM


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    """evaluation.md's worked-example files (gold/, pred/, one_edu/, nested_sns/)."""
    if not (EXAMPLES / "gold").is_dir():
        pytest.skip(f"evaluation.md examples not found at {EXAMPLES}")
    return EXAMPLES


@pytest.fixture(scope="session")
def gum_nary(gum_dir):
    """All 281 lisp_nary trees, read once per session (leniently: one GUM file has a bad extent)."""
    import warnings

    from rstkit.corpus import read_documents

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_documents(gum_dir / "lisp_nary", lenient=True)
