"""Parse throughput of rstkit's shipped parser (documents/s), GUM test split, gold EDUs.

Run: ``python -m pytest benchmarks/bench_parser.py`` (pytest-benchmark prints the table;
the documents/s figure is printed with ``-s``). Greedy and beam-4 decoding on CPU, and
greedy on CUDA when a GPU is present. Reading and preparing the documents is not timed.
"""
from __future__ import annotations

import time
import warnings

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tqdm")

from rstkit.corpus import gum_corpus
from rstkit.parser.data import prepare
from rstkit.parser.decode import decode
from rstkit.parser.modeldir import default_model_dir, load_model_dir

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


@pytest.fixture(scope="module")
def test_edus(gum_dir) -> dict:
    if not (default_model_dir() / "config.json").is_file():
        pytest.skip("no shipped model under rstkit/data/models/gum")
    corpus = gum_corpus(gum_dir, "rsd")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {d: t.edus for d, t in corpus.documents("test").items()}


@pytest.mark.parametrize("device_name", DEVICES)
@pytest.mark.parametrize("beam", [1, 4])
def test_parse_throughput(benchmark, test_edus, device_name, beam):
    device = torch.device(device_name)
    model, _, _ = load_model_dir(default_model_dir(), device)
    docs = [prepare(d, edus, model.encoder) for d, edus in test_edus.items()]
    started = time.perf_counter()
    trees = benchmark.pedantic(decode, args=(model, docs, device), kwargs={"beam": beam, "batch_docs": 32},
                               rounds=1, iterations=1)
    seconds = time.perf_counter() - started
    assert len(trees) == len(docs)
    print(f"\n{device_name} beam {beam}: {len(docs)} documents in {seconds:.1f}s = {len(docs) / seconds:.2f} docs/s "
          f"({sum(len(e) for e in test_edus.values())} EDUs, torch threads {torch.get_num_threads()})")
