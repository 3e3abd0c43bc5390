"""Parse throughput of rstkit's shipped parsers (documents/s), GUM test split, gold EDUs.

Run: ``python -m pytest benchmarks/bench_parser.py -s`` (pytest-benchmark prints the table;
the documents/s figure is printed). One torch thread, as ``rstkit parse`` uses on a busy
machine. ``scratch``: greedy and beam 4; ``minilm``: greedy, transformer feature extraction
included (no feature cache). Greedy on CUDA too when a GPU is present. Reading the
documents is not timed. The CPU time is printed beside the wall time: on a shared machine
it is the better measure of what one core does.

``test_speed_and_memory``: ``minilm`` and ``mpnet`` (when their packages are installed) on
one thread and on all usable cores, each in a fresh process so that its peak memory (resident
set, model loading included) is its own: the first ``RSTKIT_BENCH_PARSER_DOCS`` documents of
GUM test (default 4; 32 for all), greedy, no feature cache. It prints the load time (``Parser.load``
and a two-EDU parse, which reads the transformer's weights: they are read on first use), documents
and EDUs per second of wall and of CPU time, peak memory and the machine's 1-minute load
before the run (other processes' load makes wall time longer, not CPU time).
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from rstkit.cores import usable_cores
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


SPEED_DOCS = int(os.environ.get("RSTKIT_BENCH_PARSER_DOCS", "4"))


def measure(model: str, threads: int, gum: str, n_docs: int) -> dict:
    """Run in a fresh process: load ``model``, parse the first ``n_docs`` GUM test documents
    with ``threads`` torch threads; the timings and this process's peak resident memory."""
    torch.set_num_threads(threads)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        docs = list(gum_corpus(Path(gum), "rsd").documents("test").values())[:n_docs]
    load1 = os.getloadavg()[0]
    started = time.perf_counter()
    parser = Parser.load(model, device="cpu")
    parser.parse([["Loading", "reads the transformer ."]])  # its weights are read on first use
    loaded = time.perf_counter()
    cpu = time.process_time()
    trees = parser.parse(docs, batch_docs=32)
    seconds, cpu = time.perf_counter() - loaded, time.process_time() - cpu
    assert len(trees) == len(docs)
    return {"model": model, "threads": threads, "documents": len(docs), "edus": sum(t.n_edus for t in docs),
            "load_s": loaded - started, "parse_s": seconds, "parse_cpu_s": cpu, "load1": load1,
            "peak_gib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20}


@pytest.mark.parametrize("model", ["minilm", "mpnet"])
@pytest.mark.parametrize("all_cores", [False, True], ids=["1 thread", "all cores"])
def test_speed_and_memory(benchmark, gum_dir, model, all_cores):
    if pretrained_available(model):
        pytest.skip(f"the {model} model needs {pretrained_available(model)}")
    threads = usable_cores() if all_cores else 1
    code = (f"import json, sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import bench_parser; "
            f"print(json.dumps(bench_parser.measure({model!r}, {threads}, {str(gum_dir)!r}, {SPEED_DOCS})))")
    done = benchmark.pedantic(subprocess.run, args=([sys.executable, "-c", code],),
                              kwargs={"capture_output": True, "text": True, "check": True}, rounds=1, iterations=1)
    r = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"\n{model} CPU {r['threads']} thread(s): load {r['load_s']:.1f}s; {r['documents']} documents "
          f"({r['edus']} EDUs) in {r['parse_s']:.1f}s = {r['documents'] / r['parse_s']:.2f} docs/s "
          f"({r['edus'] / r['parse_s']:.0f} EDUs/s) wall; CPU {r['parse_cpu_s']:.1f}s = "
          f"{r['documents'] / r['parse_cpu_s']:.2f} docs/s per CPU second; peak memory {r['peak_gib']:.2f} GiB; "
          f"1-minute load before {r['load1']:.1f} on {usable_cores()} cores")
