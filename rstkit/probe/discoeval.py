"""Running the DiscoEval RST task: encode every distinct EDU once, build features, fit, score.

:func:`evaluate_encoder` runs it on a corpus (named, a path or a :class:`~rstkit.corpus.Corpus`);
:func:`run_discoeval` on a task already built.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..corpus import Corpus, resolve_corpus
from ..labels import get_label_map
from .cache import EncodingCache
from .classifier import ClassifierConfig, FittedProbe, fit_probe, majority_label, subtree_features
from .corpora import check_published_sizes
from .encoders import Encoder, get_encoder
from .signature import signature
from .task import ProbeTask, SplitTask, build_task


@dataclass
class SplitResult:
    """Accuracy on one split, overall and per gold label (``label -> (correct, total)``)."""

    name: str
    accuracy: float
    n_instances: int
    n_documents: int
    n_edus: int
    per_label: dict[str, tuple[int, int]]

    def as_dict(self) -> dict:
        return {
            "accuracy": self.accuracy, "n_instances": self.n_instances, "n_documents": self.n_documents,
            "n_edus": self.n_edus,
            "per_label": {label: {"n": total, "correct": correct, "accuracy": 100 * correct / total}
                          for label, (correct, total) in self.per_label.items()},
        }


@dataclass
class DiscoEvalResult:
    """Dev and test results, the training-set size, how the classifier was chosen, the signature."""

    dev: SplitResult
    test: SplitResult
    train: dict[str, int]
    labels: list[str]
    classifier: str
    chosen_c: float | None
    dev_accuracy_by_c: dict[float, float]
    signature: str
    timing: dict[str, float] = field(default_factory=dict)
    excluded: dict[str, list[str]] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "dev": self.dev.as_dict(), "test": self.test.as_dict(), "train": self.train,
            "labels": self.labels, "classifier": self.classifier, "chosen_c": self.chosen_c,
            "dev_accuracy_by_c": {f"{c:g}": a for c, a in self.dev_accuracy_by_c.items()},
            "excluded_documents": self.excluded, "signature": self.signature, "timing": self.timing,
        }


def split_result(split: SplitTask, predicted: Sequence[str]) -> SplitResult:
    gold = [i.label for i in split.instances]
    per_label: dict[str, list[int]] = {}
    for g, p in zip(gold, predicted):
        counts = per_label.setdefault(g, [0, 0])
        counts[0] += g == p
        counts[1] += 1
    correct = sum(c for c, _ in per_label.values())
    return SplitResult(split.name, 100 * correct / len(gold) if gold else 0.0, len(gold), split.n_documents,
                       split.n_edus, {label: (c, n) for label, (c, n) in sorted(per_label.items())})


def encode_edus(task: ProbeTask, encoder: Encoder,
                cache_dir: str | Path | None) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """EDU vectors per document of every split, each distinct text encoded once (cached on disk
    when ``cache_dir`` is given and the encoder is worth caching)."""
    distinct = sorted({text for split in task.splits.values() for texts in split.texts.values() for text in texts})
    started = time.perf_counter()
    if cache_dir is not None and encoder.cacheable:
        vectors, n_encoded = EncodingCache(cache_dir, encoder).encode(distinct)
    else:
        vectors, n_encoded = encoder(distinct), len(distinct)
    seconds = time.perf_counter() - started
    row = {text: i for i, text in enumerate(distinct)}
    by_doc = {doc: vectors[[row[t] for t in texts]]
              for split in task.splits.values() for doc, texts in split.texts.items()}
    timing: dict[str, float] = {"encode_seconds": seconds, "texts": len(distinct), "texts_encoded": n_encoded}
    return by_doc, timing


def run_discoeval(task: ProbeTask, encoder: Encoder | None, config: ClassifierConfig | None = None,
                  cache_dir: str | Path | None = None) -> DiscoEvalResult:
    """Fit on train, select on dev, report dev and test; ``encoder=None`` is the majority baseline."""
    config = config or ClassifierConfig()
    train, dev, test = (task.splits[name] for name in ("train", "dev", "test"))
    train_labels = [i.label for i in train.instances]
    probe: FittedProbe | None = None
    if encoder is None:
        label = majority_label(train_labels)
        dev_predicted, test_predicted = ([label] * len(split.instances) for split in (dev, test))
        timing: dict[str, float] = {}
        classifier = "majority"
    else:
        vectors, timing = encode_edus(task, encoder, cache_dir)
        features = {name: subtree_features(split.instances, vectors) for name, split in task.splits.items()}
        started = time.perf_counter()
        probe = fit_probe(features["train"], train_labels, features["dev"], [i.label for i in dev.instances], config)
        timing["fit_seconds"] = time.perf_counter() - started
        dev_predicted, test_predicted = (probe.predict(features[split.name]) for split in (dev, test))
        classifier = config.describe()
    sizes = {"n_instances": len(train.instances), "n_documents": train.n_documents, "n_edus": train.n_edus}
    return DiscoEvalResult(
        split_result(dev, dev_predicted), split_result(test, test_predicted), sizes, sorted(set(train_labels)),
        classifier,
        probe.chosen_c if probe else None, probe.dev_accuracy_by_c if probe else {},
        signature(task, encoder.name if encoder else "none", classifier, config.seed), timing, task.excluded)


def evaluate_encoder(corpus: str | Path | Corpus, encoder: str | Encoder | None, *, labels: str | None = None,
              include_masked: bool = False, config: ClassifierConfig | None = None,
              cache_dir: str | Path | None = None) -> DiscoEvalResult:
    """The DiscoEval RST task on ``corpus`` (``gum``, ``rstdt``, a directory, or a corpus) with
    ``encoder`` (a built-in name, ``MODULE:FN``, an :class:`Encoder`, or None for the majority
    baseline). ``labels``: the label map (default: the corpus kind's); ``include_masked`` keeps
    documents whose text is masked. A corpus with published DiscoEval sizes that gives other
    instance counts is warned about (:class:`~rstkit.errors.RSTKitWarning`)."""
    if isinstance(encoder, str):
        encoder = get_encoder(encoder)
    if not isinstance(corpus, Corpus):
        corpus = resolve_corpus(corpus)
    task = build_task(corpus, get_label_map(labels or corpus.kind.label_map), include_masked=include_masked)
    check_published_sizes(task)
    return run_discoeval(task, encoder, config, cache_dir)
