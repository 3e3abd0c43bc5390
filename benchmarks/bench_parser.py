"""Parse throughput of rstkit's shipped parsers (documents/s), GUM test split, gold EDUs.

Run: ``python -m pytest benchmarks/bench_parser.py -s`` (pytest-benchmark prints the table;
the documents/s figure is printed). One torch thread, as ``rstkit parse`` uses on a busy
machine. ``scratch``: greedy and beam 4; ``minilm``: greedy, transformer feature extraction
included (no feature cache). Greedy on CUDA too when a GPU is present. Reading the
documents is not timed. The CPU time is printed beside the wall time: on a shared machine
it is the better measure of what one core does.
"""
from __future__ import annotations

import time
import warnings

import pytest

torch = pytest.importorskip("torch")

from rstkit.corpus import gum_corpus
from rstkit.models import shipped, shipped_model_dir
from rstkit.parser.api import Parser
from rstkit.parser.encoder_names import pretrained_available

CASES = [("scratch", "cpu", 1), ("scratch", "cpu", 4), ("minilm", "cpu", 1)]
if torch.cuda.is_available():
    CASES += [("scratch", "cuda", 1), ("minilm", "cuda", 1)]


@pytest.fixture(scope="module")
def test_docs(gum_dir) -> list:
    corpus = gum_corpus(gum_dir, "rsd")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(corpus.documents("test").values())


@pytest.mark.parametrize(("model", "device_name", "beam"), CASES)
def test_parse_throughput(benchmark, test_docs, model, device_name, beam):
    assert model in shipped("parser")
    if not (shipped_model_dir(model) / "config.json").is_file():
        pytest.skip(f"no shipped {model} model")
    if pretrained_available(model):
        pytest.skip(f"the {model} model needs {pretrained_available(model)}")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        parser = Parser.load(model, device=device_name)
        started, cpu = time.perf_counter(), time.process_time()
        trees = benchmark.pedantic(parser.parse, args=(test_docs,), kwargs={"beam": beam, "batch_docs": 32},
                                   rounds=1, iterations=1)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    finally:
        torch.set_num_threads(threads)
    assert len(trees) == len(test_docs)
    print(f"\n{model} {device_name} beam {beam}: {len(test_docs)} documents in {seconds:.1f}s = "
          f"{len(test_docs) / seconds:.2f} docs/s wall; CPU {cpu:.1f}s = {len(test_docs) / cpu:.2f} docs/s per core "
          f"({sum(t.n_edus for t in test_docs)} EDUs, 1 torch thread)")
