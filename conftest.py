"""Fixtures shared by tests/ and benchmarks/: where the GUM corpus and the worked examples are.

The shared folder is ``$RSTKIT_SHARED`` (default ``../shared``; point it at a missing path to run as a
fresh clone would). GUM is read from ``$RSTKIT_GUM`` (default ``<shared>/corpora/gum``), evaluation.md's
examples from ``$RSTKIT_EXAMPLES`` (default ``<shared>/docs/examples``), the specifications from
``<shared>/docs``; fixtures skip when absent.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# No per-example deadline: how long an example takes is the benchmarks' concern (benchmarks/), and a
# loaded CI machine must not turn a slow example into a failure.
settings.register_profile("rstkit", deadline=None)
settings.load_profile("rstkit")

PROJECT = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("RSTKIT_SHARED", PROJECT.parent / "shared"))
GUM = Path(os.environ.get("RSTKIT_GUM", SHARED / "corpora" / "gum"))
EXAMPLES = Path(os.environ.get("RSTKIT_EXAMPLES", SHARED / "docs" / "examples"))


@pytest.fixture(scope="session")
def gum_dir() -> Path:
    """The GUM checkout (splits.md, lisp_nary/, lisp_binary/, rstweb/, dependencies/)."""
    if not (GUM / "lisp_nary").is_dir():
        pytest.skip(f"GUM corpus not found at {GUM}")
    return GUM


@pytest.fixture(scope="session")
def gum_nary(gum_dir) -> dict:
    """All 281 lisp_nary trees, read once per session (leniently: one GUM file has a bad extent,
    repaired with the one warning asserted here)."""
    from rstkit.corpus import read_documents
    from rstkit.errors import RSTKitWarning

    with pytest.warns(RSTKitWarning) as caught:
        docs = read_documents(gum_dir / "lisp_nary", lenient=True)
    bad = gum_dir / "lisp_nary" / "GENTLE_syllabus_techtonica.dis"
    assert [str(w.message) for w in caught] == [
        f"{bad}:60: declares (span 49 266) over children covering 22-266; repaired from the leaves (lenient)"]
    return docs


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    """evaluation.md's worked-example files (gold/, pred/, one_edu/, nested_sns/)."""
    if not (EXAMPLES / "gold").is_dir():
        pytest.skip(f"evaluation.md examples not found at {EXAMPLES}")
    return EXAMPLES


@pytest.fixture(scope="session")
def spec_docs() -> Path:
    """The specifications: evaluation.md, dependency-evaluation.md, parser-formats.md, ..."""
    if not (SHARED / "docs" / "evaluation.md").is_file():
        pytest.skip(f"specifications not found at {SHARED / 'docs'}")
    return SHARED / "docs"


@pytest.fixture(autouse=True)
def _recursion_limit_restored():
    """Each test starts with the recursion limit the run started with: a library that raises it for a
    test and does not lower it again (hypothesis's stack guard, once a test changed the limit inside
    it) must not hide a recursion from the depth tests that come after (they check their trees are
    deeper than the limit)."""
    limit = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(limit)
