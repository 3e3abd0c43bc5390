"""Shared benchmark fixtures: the GUM checkout (``$RSTKIT_GUM``, default ../shared/corpora/gum)."""
from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

from rstkit.corpus import gum_corpus
from rstkit.errors import RSTKitWarning

GUM = Path(os.environ.get("RSTKIT_GUM", Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "gum"))


@pytest.fixture(scope="session")
def gum_dir() -> Path:
    if not (GUM / "lisp_nary").is_dir():
        pytest.skip(f"GUM corpus not found at {GUM}")
    return GUM


@pytest.fixture(scope="session")
def gum_trees(gum_dir) -> dict:
    """All 281 lisp_nary trees (read leniently: one GUM document has a bad extent)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RSTKitWarning)
        trees = gum_corpus(gum_dir).documents(lenient=True)
    print(f"\nGUM: {len(trees)} documents, {sum(t.n_edus for t in trees.values())} EDUs")
    return trees
