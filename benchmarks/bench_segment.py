"""Segmentation speed of rstkit's shipped segmenter: GUM test as raw text (tokens/s).

Run: ``python -m pytest benchmarks/bench_segment.py -s`` (pytest-benchmark prints the
table, ``-s`` the tokens/s figure; ``RSTKIT_GUM`` points at a GUM checkout). Rebuilding
the raw text is not timed; a pretrained encoder's states are computed afresh (no cache).
The target is "seconds, not minutes" for the 30 test documents on one CPU thread.
"""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from rstkit.segment.gum import read_gum
from rstkit.segment.segmenter import Segmenter, default_model_dir
from rstkit.segment.tokenize import tokenize


@pytest.fixture(scope="module")
def test_texts(gum_dir) -> list[str]:
    return [d.text for d in read_gum(gum_dir, "test") if not d.masked]


@pytest.mark.parametrize("model", ["segmenter", "segmenter-base"])
def test_segment_gum_test(benchmark, test_texts, model) -> None:
    if not (default_model_dir(model) / "model.pt").is_file():
        pytest.skip(f"no {model} model shipped")
    if model == "segmenter":
        pytest.importorskip("transformers")
    torch.set_num_threads(1)
    segmenter = Segmenter.load(model)
    edus = benchmark.pedantic(lambda: sum(len(segmenter.segment(t)) for t in test_texts), rounds=1, iterations=1)
    tokens = sum(len(tokenize(t)) for t in test_texts)
    print(f"\n{model}: {tokens} tokens, {edus} EDUs, {tokens / benchmark.stats.stats.mean:.0f} tokens/s (1 thread)")
    assert edus > 1000
    assert benchmark.stats.stats.max < 300, "segmenting GUM test must take seconds, not many minutes"
