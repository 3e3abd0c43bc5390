"""Drawing speed: all 281 GUM documents (lisp_nary) to SVG, and to text and HTML.

Run: ``python -m pytest benchmarks/bench_draw.py`` (pytest-benchmark prints the table;
``RSTKIT_GUM`` points at a GUM checkout, default ``../shared/corpora/gum``). Reading the
corpus is not timed: the target is "seconds, not minutes" for drawing all of it.
"""
from __future__ import annotations

import pytest

from rstkit import draw


def _draw_all(trees: dict, render) -> int:
    return sum(len(render(tree)) for tree in trees.values())


@pytest.mark.parametrize("render", [draw.to_svg, draw.to_html, draw.to_text], ids=["svg", "html", "text"])
def test_draw_all_gum_documents(benchmark, gum_nary: dict, render) -> None:
    size = benchmark.pedantic(_draw_all, args=(gum_nary, render), rounds=3, iterations=1)
    assert len(gum_nary) == 281
    assert size > 1000 * len(gum_nary)
    assert benchmark.stats.stats.max < 60, "drawing GUM must take seconds, not minutes"
