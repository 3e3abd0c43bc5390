"""Segmentation speed of rstkit's shipped segmenter: GUM test as raw text (tokens/s).

Run: ``python -m pytest benchmarks/bench_segment.py -s`` (pytest-benchmark prints the
table, ``-s`` the tokens/s figure; ``RSTKIT_GUM`` points at a GUM checkout). Rebuilding
the raw text is not timed; a pretrained encoder's states are computed afresh (no cache).
The target is "seconds, not minutes" for the 30 test documents on one CPU thread; long
unpunctuated text (up to 1 MB) must take time linear in its length and memory bounded
beyond the model's own.
"""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from rstkit.models import shipped_model_dir
from rstkit.segment.gum import read_gum
from rstkit.segment.segmenter import Segmenter
from rstkit.segment.tokenizer import tokenize


@pytest.fixture(scope="module")
def test_texts(gum_dir) -> list[str]:
    return [d.text for d in read_gum(gum_dir, "test") if not d.masked]


@pytest.mark.parametrize("model", ["segmenter", "segmenter-base"])
def test_segment_gum_test(benchmark, test_texts, model) -> None:
    if not (shipped_model_dir(model) / "model.pt").is_file():
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


# -- long text without punctuation: linear time, bounded memory (issue 26, finding 12) --------

_MEASURE = r"""
import resource, sys, time, torch
torch.set_num_threads(1)
from rstkit.segment.segmenter import Segmenter
segmenter = Segmenter.load(sys.argv[1])
text = open(sys.argv[2], encoding="utf-8").read()
loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
result = segmenter.segment(text)
seconds = time.perf_counter() - started
covered = "".join(e.text for e in result.edus).replace(" ", "") == "".join(text.split())
print(len(result.edus), seconds, loaded // 1024, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, covered)
"""


def unpunctuated_text(gum_dir, size: int, unit: str = "words") -> str:
    """GUM test's words, lower-cased, letters only, on one line: ``size`` words, or the
    first ``size`` characters (cut at a space)."""
    import re

    words = [w for d in read_gum(gum_dir, "test") if not d.masked for w in re.findall(r"[a-z]+", d.text.lower())]
    if unit == "words":
        return " ".join(words[i % len(words)] for i in range(size))
    out, length, i = [], 0, 0
    while length < size:
        out.append(words[i % len(words)])
        length, i = length + len(out[-1]) + 1, i + 1
    return " ".join(out)[:size].rsplit(" ", 1)[0]


@pytest.mark.parametrize("model", ["segmenter-base", "segmenter"])
def test_segment_unpunctuated_text_scales_linearly(gum_dir, tmp_path, model) -> None:
    """10k, 20k, 50k and 100k words, then 1 MB, of unpunctuated text, each segmented in a
    fresh process (one torch thread): seconds, tokens/s and peak RSS (and RSS once the model
    is loaded) per size. Time should grow with the text, memory beyond the model stay flat."""
    import subprocess
    import sys

    if not (shipped_model_dir(model) / "model.pt").is_file():
        pytest.skip(f"no {model} model shipped")
    if model == "segmenter":
        pytest.importorskip("transformers")
    sizes = [(10_000, "words"), (20_000, "words"), (50_000, "words"), (100_000, "words"), (1_000_000, "chars")]
    print(f"\n{model} (1 torch thread)\n{'text':>14} {'tokens':>8} {'EDUs':>6} {'s':>7} {'tokens/s':>9} "
          f"{'RSS loaded':>10} {'peak RSS':>9}")
    for size, unit in sizes:
        text = unpunctuated_text(gum_dir, size, unit)
        path = tmp_path / f"{size}.txt"
        path.write_text(text, encoding="utf-8")
        done = subprocess.run([sys.executable, "-c", _MEASURE, model, str(path)], capture_output=True, text=True,
                              check=True)
        edus, seconds, loaded, peak, covered = done.stdout.split()
        tokens = len(tokenize(text))
        label = f"{size:,} {unit}" if unit == "words" else f"{len(text.encode()) / 1e6:.2f} MB"
        print(f"{label:>14} {tokens:>8} {edus:>6} {float(seconds):>7.1f} {tokens / float(seconds):>9.0f} "
              f"{loaded:>8}MB {peak:>7}MB")
        assert covered == "True" and int(edus) > tokens / 100


@pytest.mark.parametrize("chunk", ["a+", "a.+", "ab.cd@", "http://" + ")" * 10, "word "])
def test_tokenize_long_chunks_linearly(chunk) -> None:
    """Tokens of a 1 MB run of one pattern (most without spaces: one chunk), against 100 kB:
    the time ratio should be about 10 (it was quadratic for ``a+``, ``a.+``, and ``http://)))``)."""
    import time

    timings = []
    for size in (100_000, 1_000_000):
        text = (chunk * (size // len(chunk) + 1))[:size] + "x"
        started = time.perf_counter()
        tokens = tokenize(text)
        timings.append(time.perf_counter() - started)
    print(f"\n{chunk[:12]!r}: 100 kB {timings[0]:.2f} s, 1 MB {timings[1]:.2f} s ({len(tokens)} tokens), "
          f"ratio {timings[1] / timings[0]:.1f}")
