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


#: tests/data/worked/README.md, "Averages over both documents": (binarization, family, average) -> S, N, R, F
CONSTITUENCY_AVERAGES = {
    ("right", "rst-parseval", "micro"): (14 / 16, 13 / 16, 12 / 16, 12 / 16),
    ("right", "rst-parseval", "macro"): ((5 / 6 + 9 / 10) / 2, (4 / 6 + 9 / 10) / 2, (4 / 6 + 8 / 10) / 2,
                                         (4 / 6 + 8 / 10) / 2),
    ("right", "parseval", "micro"): (6 / 8, 5 / 8, 3 / 8, 3 / 8),
    ("right", "parseval", "macro"): ((2 / 3 + 4 / 5) / 2, (2 / 3 + 3 / 5) / 2, (1 / 3 + 2 / 5) / 2,
                                     (1 / 3 + 2 / 5) / 2),
    ("right_mixed", "rst-parseval", "micro"): (15 / 16, 14 / 16, 13 / 16, 13 / 16),
    ("right_mixed", "rst-parseval", "macro"): ((5 / 6 + 1) / 2, (4 / 6 + 1) / 2, (4 / 6 + 9 / 10) / 2,
                                               (4 / 6 + 9 / 10) / 2),
    ("right_mixed", "parseval", "micro"): (7 / 8, 7 / 8, 5 / 8, 5 / 8),
    ("right_mixed", "parseval", "macro"): ((2 / 3 + 1) / 2, (2 / 3 + 1) / 2, (1 / 3 + 4 / 5) / 2, (1 / 3 + 4 / 5) / 2),
}

#: section 9 of evaluation.md: ex5 predicted over 4 EDUs
EX5_OVER_4_EDUS = """( Root (span 1 4)
  ( Nucleus (span 1 3) (rel2par span)
    ( Satellite (leaf 1) (rel2par concession) (text _!a_!) )
    ( Nucleus (span 2 3) (rel2par span)
      ( Nucleus (leaf 2) (rel2par span) (text _!b_!) )
      ( Satellite (leaf 3) (rel2par attribution) (text _!c_!) ) ) )
  ( Satellite (leaf 4) (rel2par elaboration) (text _!d_!) ) )"""
