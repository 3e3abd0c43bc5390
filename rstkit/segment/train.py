"""Training the segmenter (CPU, minutes): ``train(train_trees, dev_trees, out, config)``, the
parser's shape (:func:`rstkit.parser.train.train`); ``rstkit train-segmenter`` gives it GUM's splits.

The training text is each tree's EDUs rebuilt as raw text (:mod:`rstkit.segment.gum`: GUM's
``.rsd`` files give each EDU's tokens, sentence and paragraph)
and tokenised by the segmenter's own tokenizer, so training sees exactly what prediction
on a user's text sees; a token's class comes from the gold character offsets (begins an
EDU, begins an EDU and a sentence, or neither). Each epoch shows every document either
with its paragraph breaks or, with probability ``flat_probability``, as one paragraph,
so that the model finds boundaries that layout would give away (headings, list items)
from the words alone and still uses paragraph breaks where a text has them.

Training reads random windows of ``window`` tokens; the model of the epoch with the best
mean dev F1 (raw text with and without paragraph breaks) is kept, and the decision
threshold is then tuned on dev.

With ``pretrained`` (an encoder name of :mod:`rstkit.pretrained`, e.g. ``minilm``),
each token also gets the frozen states of that encoder (``pretrained_layers`` averaged,
pooled over the token's word pieces), computed once per text and cached on disk.
"""
from __future__ import annotations

import copy
import os
import random
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..cache import cache_dir
from ..errors import RSTKitError
from ..models import CONFIG, TrainSettings, config_text, read_config, write_model_dir
from ..tree import RSTTree
from ..vocabulary import UNK, Vocabulary
from .evaluate import BoundaryScore, boundary_score
from .features import FLAGS, TokenFeatures, featurize, word_key
from .gum import GoldDocument, corpus_card, gold_documents, read_gum_trees
from .model import EDU_START, INSIDE, NET_OPTIONS, SENTENCE_START, NetConfig, SegmenterNet, batch_windows
from .segmenter import Segmenter, load_encoder
from .tokenizer import Span, tokenize


@dataclass(frozen=True)
class SegmenterTrainConfig(TrainSettings):
    """The segmenter's training settings (saved with the model); with those of every run
    (:class:`rstkit.models.TrainSettings`: ``epochs``, ``patience``, ``lr``, ``seed``), checked
    when made. ``net``: sizes of the network (:data:`rstkit.segment.model.NET_OPTIONS`)."""

    batch_size: int = 32
    window: int = 128
    lr_decay: float = 1.0
    flat_probability: float = 0.5
    word_dropout: float = 0.05
    min_word_count: int = 2
    max_docs: int | None = None
    pretrained: str | None = None
    pretrained_layers: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    net: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.check_counts("batch_size", "window", "min_word_count")
        self.check_ranges(lr_decay=(0, 1), flat_probability=(0, 1), word_dropout=(0, 1))
        if self.lr_decay == 0:
            raise RSTKitError("lr_decay must be a number in (0, 1], not 0")
        if self.max_docs is not None:
            self.check_counts("max_docs")
        if not self.pretrained_layers or not all(isinstance(n, int) and n >= 0 for n in self.pretrained_layers):
            raise RSTKitError(f"pretrained_layers must be layer numbers >= 0, not {self.pretrained_layers!r}")
        unknown = sorted(set(self.net) - set(NET_OPTIONS)) if isinstance(self.net, dict) else ["(not a mapping)"]
        if unknown:
            raise RSTKitError(f"unknown network option {', '.join(map(repr, unknown))}; "
                              f"known: {', '.join(NET_OPTIONS)}")


def __getattr__(name: str) -> type[SegmenterTrainConfig]:
    if name == "TrainConfig":
        warnings.warn("rstkit.segment.train.TrainConfig is deprecated: its name is SegmenterTrainConfig",
                      DeprecationWarning, stacklevel=2)
        return SegmenterTrainConfig
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class Example:
    """One training text: features of its own tokens and their classes."""

    features: TokenFeatures
    labels: np.ndarray
    tokens: list[str]


def own_tokens(doc: GoldDocument) -> list[Span]:
    """The segmenter's tokenisation of a document's text, paragraph by paragraph."""
    bounds = list(doc.paragraph_starts) + [len(doc.text)]
    return [t for start, end in pairwise(bounds) for t in tokenize(doc.text, start, end)]


def token_labels(doc: GoldDocument, tokens: Sequence[Span]) -> np.ndarray:
    """The class of each token: where it begins (a sentence and) an EDU, by character offset."""
    edus, sentences = set(doc.edu_starts), set(doc.sentence_starts)
    return np.array([SENTENCE_START if a in sentences else EDU_START if a in edus else INSIDE for a, _ in tokens],
                    dtype=np.int64)


def build_vocabularies(documents: Sequence[GoldDocument], min_word_count: int) -> tuple[Vocabulary, Vocabulary]:
    words: list[str] = []
    chars: list[str] = []
    for doc in documents:
        for a, b in own_tokens(doc):
            words.append(word_key(doc.text[a:b]))
            chars.extend(doc.text[a:b])
    return Vocabulary.build(words, min_word_count), Vocabulary.build(chars, 2)


def make_examples(documents: Sequence[GoldDocument], segmenter: Segmenter,
                  same_text: Sequence[Example] | None = None) -> list[Example]:
    """Training examples of ``documents``. ``same_text``: examples of the same documents laid
    out otherwise (with paragraph breaks), whose pretrained vectors are reused where the
    tokens are the same (a pretrained tokenizer does not see the layout's whitespace)."""
    examples = []
    for i, doc in enumerate(d for d in documents if d.tokens):
        tokens = own_tokens(doc)
        features = featurize(doc.text, tokens, doc.paragraph_starts, segmenter.words, segmenter.chars)
        if segmenter.encoder is not None:
            other = same_text[i] if same_text is not None else None
            if other is not None and other.tokens == [doc.text[a:b] for a, b in tokens]:
                features.extra = other.features.extra
            else:
                features.extra = segmenter.token_vectors(doc.text, tokens).astype(np.float16)
        examples.append(Example(features, token_labels(doc, tokens), [doc.text[a:b] for a, b in tokens]))
    return examples


def dev_f1(segmenter: Segmenter, documents: Sequence[GoldDocument]) -> BoundaryScore:
    score = BoundaryScore()
    for doc in documents:
        score += boundary_score(doc.edu_starts, [e.start for e in segmenter.segment(doc.text).edus])
    return score


def train(train_trees: Mapping[str, RSTTree], dev_trees: Mapping[str, RSTTree], out: str | Path,
          config: SegmenterTrainConfig | None = None, *args: Any, log: Callable[[str], None] = print,
          info: Mapping[str, Any] | None = None, **old: Any) -> Segmenter:
    """Train on ``train_trees`` (``{doc_id: tree}``, their EDUs with sentences and paragraphs),
    select on ``dev_trees``, write the model to ``out`` and return it; ``info`` (facts such as the
    corpus) is written into the model's training record. The order of the parser's
    :func:`rstkit.parser.train.train`; the old ``train(gum_root, out, config, log, train_split,
    dev_split)`` still works, deprecated."""
    if isinstance(train_trees, (str, os.PathLike)):
        warnings.warn("train(gum_root, out, config, ...) is deprecated: call train(train_trees, dev_trees, out, "
                      "config) (rstkit.segment.gum.read_gum_trees reads a split)", DeprecationWarning, stacklevel=2)
        rest = ([config] if config is not None else []) + list(args)  # the old log, train_split, dev_split
        return train_on_gum(train_trees, dev_trees, out, *rest[1:], log=rest[0] if rest else log,  # type: ignore
                            **old)
    if config is None or args or old:
        raise TypeError("train() takes (train_trees, dev_trees, out, config, *, log=, info=)")
    random.seed(config.seed)
    np.random.seed(config.seed)
    torch.manual_seed(config.seed)
    started = time.time()

    def usable(trees: Mapping[str, RSTTree], paragraphs: bool) -> list[GoldDocument]:
        docs = [d for d in gold_documents(trees, paragraphs) if not d.masked and d.tokens]
        return docs[:config.max_docs] if config.max_docs else docs

    train_docs, train_flat = usable(train_trees, True), usable(train_trees, False)
    dev_docs, dev_flat = usable(dev_trees, True), usable(dev_trees, False)
    words, chars = build_vocabularies(train_docs, config.min_word_count)
    settings: dict[str, Any] = {"training": {**asdict(config), **(info or {})}}
    encoder = None
    if config.pretrained:
        encoder = load_encoder(config.pretrained, cache_dir("features"))
        if not all(0 <= layer < encoder.n_layers for layer in config.pretrained_layers):
            raise RSTKitError(f"the encoder {config.pretrained!r} has layers 0-{encoder.n_layers - 1} "
                              f"(0: embeddings), not {list(config.pretrained_layers)}")
        settings["pretrained"] = {"encoder": config.pretrained, "layers": list(config.pretrained_layers)}
    extra = encoder.dim if encoder is not None else 0
    net = SegmenterNet(NetConfig(words=len(words), chars=len(chars), flags=len(FLAGS), extra=extra, **config.net))
    segmenter = Segmenter(net, words, chars, settings, encoder)
    examples = make_examples(train_docs, segmenter)
    flat_examples = make_examples(train_flat, segmenter, same_text=examples)
    settings["training"]["train_documents"] = len(examples)
    log(f"{len(examples)} training documents, {sum(len(e.labels) for e in examples)} tokens; "
        f"{len(words)} words, {len(chars)} characters; {len(dev_docs)} dev documents ({time.time() - started:.0f}s)")

    optimizer = torch.optim.Adam(net.parameters(), lr=config.lr)
    schedule = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=config.lr_decay)
    loss_function = nn.CrossEntropyLoss(reduction="sum")
    best, best_state, best_epoch, history = -1.0, None, 0, []
    for epoch in range(1, config.epochs + 1):
        net.train()
        total, count = 0.0, 0
        windows = _epoch_windows(examples, flat_examples, config)
        for b in range(0, len(windows), config.batch_size):
            batch = windows[b:b + config.batch_size]
            words_t, chars_t, flags_t, lengths, extra_t = batch_windows([(e.features, lo, hi) for e, lo, hi in batch])
            if config.word_dropout:
                drop = (torch.rand(words_t.shape) < config.word_dropout) & (words_t > UNK)
                words_t = words_t.masked_fill(drop, UNK)
            gold = torch.full(words_t.shape, -100, dtype=torch.int64)
            for row, (e, lo, hi) in enumerate(batch):
                gold[row, :hi - lo] = torch.from_numpy(e.labels[lo:hi])
            scores = net(words_t, chars_t, flags_t, lengths, extra_t)
            loss = loss_function(scores.reshape(-1, 3), gold.reshape(-1)) / int(lengths.sum())
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 5.0)
            optimizer.step()
            total += loss.item() * int(lengths.sum())
            count += int(lengths.sum())
        schedule.step()
        net.eval()
        with_paragraphs, flat = dev_f1(segmenter, dev_docs), dev_f1(segmenter, dev_flat)
        mean = (with_paragraphs.f1 + flat.f1) / 2
        history.append({"epoch": epoch, "loss": round(total / max(count, 1), 4),
                        "dev_f1": round(100 * with_paragraphs.f1, 2), "dev_flat_f1": round(100 * flat.f1, 2)})
        log(f"epoch {epoch}: loss {total / max(count, 1):.4f}, dev F1 {100 * with_paragraphs.f1:.2f} "
            f"(flat {100 * flat.f1:.2f}), {time.time() - started:.0f}s")
        if mean > best:
            best, best_state, best_epoch = mean, copy.deepcopy(net.state_dict()), epoch
        elif epoch - best_epoch >= config.patience:
            break
    if best_state is not None:
        net.load_state_dict(best_state)
    net.eval()
    segmenter.threshold = tune_threshold(segmenter, dev_docs + dev_flat)
    segmenter.settings["training"].update(best_epoch=best_epoch, history=history,
                                          seconds=round(time.time() - started))
    segmenter.save(out)
    log(f"best epoch {best_epoch}, threshold {segmenter.threshold:.2f}; model in {out} "
        f"({time.time() - started:.0f}s)")
    return segmenter


def train_on_gum(root: str | Path, out: str | Path, config: SegmenterTrainConfig, train_split: str = "train",
                 dev_split: str = "dev", *, log: Callable[[str], None] = print) -> Segmenter:
    """:func:`train` on two splits of the GUM checkout ``root`` (``rstkit train-segmenter``), its
    corpus card and the splits' names as ``info``."""
    info = {"corpus": corpus_card(root), "train_split": train_split, "dev_split": dev_split}
    return train(read_gum_trees(root, train_split), read_gum_trees(root, dev_split), out, config, log=log,
                 info=info)


def _epoch_windows(examples: list[Example], flat_examples: list[Example],
                   config: SegmenterTrainConfig) -> list[tuple[Example, int, int]]:
    """Shuffled windows of one epoch: each document with or without paragraph breaks,
    cut into ``window``-token pieces from a random offset."""
    windows: list[tuple[Example, int, int]] = []
    for example, flat in zip(examples, flat_examples):
        chosen = flat if random.random() < config.flat_probability else example
        n = len(chosen.labels)
        offset = random.randrange(config.window) if n > config.window else 0
        starts = ([0] if offset else []) + list(range(offset, n, config.window))
        windows.extend((chosen, s, min(n, e)) for s, e in zip(starts, starts[1:] + [n]))
    random.shuffle(windows)
    return windows


def tune_threshold(segmenter: Segmenter, documents: Sequence[GoldDocument]) -> float:
    """The boundary probability threshold with the best F1 on ``documents``."""
    predictions = []
    for doc in documents:
        tokens = own_tokens(doc)
        paragraph_starts = set(doc.paragraph_starts)
        forced = {0} | {i for i, (a, _) in enumerate(tokens) if a in paragraph_starts}
        predictions.append((doc, tokens, forced, segmenter.probabilities(doc.text, tokens, doc.paragraph_starts)))
    best, best_threshold = -1.0, 0.5
    for threshold in np.arange(0.20, 0.81, 0.05):
        segmenter.threshold = float(threshold)
        score = BoundaryScore()
        for doc, tokens, forced, p in predictions:
            starts, _ = segmenter.decide(p)
            score += boundary_score(doc.edu_starts, [tokens[i][0] for i in set(starts) | forced])
        if score.f1 > best:
            best, best_threshold = score.f1, float(threshold)
    return round(best_threshold, 2)


def write_scores(out: str | Path, scores: dict) -> None:
    """Add evaluation scores to a model directory's config.json."""
    settings = read_config(out, "segmenter")
    settings["scores"] = scores
    write_model_dir(out, {CONFIG: config_text(settings, indent=1)})
