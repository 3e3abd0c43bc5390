"""Training the segmenter (CPU, minutes): :meth:`Segmenter.train(train_trees, dev_trees, config, out=)
<rstkit.segment.segmenter.Segmenter.train>`, the parser's shape; ``rstkit train-segmenter`` gives it
GUM's splits. The loop is rstkit's one training loop (:func:`rstkit.training.fit`); this module gives
it the segmenter's hooks (:class:`SegmenterTrainee`) and prepares the data. It needs nothing from
:mod:`rstkit.segment.segmenter` (which imports it): what it asks of a segmenter is :class:`Trainable`,
and the segmenter is made by the class that :meth:`~rstkit.segment.segmenter.Segmenter.train` passes.

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
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import torch
from torch import nn

from ..cache import cache_dir
from ..errors import RSTKitError
from ..metrics.segmentation import BoundaryCounts
from ..models import CONFIG, TrainSettings, config_text, read_config, write_model_dir
from ..progress import Progress
from ..training import Trainee, fit, seed_everything, stderr_log
from ..tree import RSTTree
from ..vocabulary import UNK, Vocabulary
from .features import FLAGS, TokenFeatures, featurize, load_encoder, word_key
from .gum import GoldDocument, gold_documents
from .model import EDU_START, INSIDE, NET_OPTIONS, SENTENCE_START, NetConfig, SegmenterNet, batch_windows
from .result import Segmentation
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


def make_examples(documents: Sequence[GoldDocument], segmenter: Trainable,
                  same_text: Sequence[Example] | None = None, what: str = "prepare training texts") -> list[Example]:
    """Training examples of ``documents``. ``same_text``: examples of the same documents laid
    out otherwise (with paragraph breaks), whose pretrained vectors are reused where the
    tokens are the same (a pretrained tokenizer does not see the layout's whitespace). Progress is
    reported as ``what``."""
    examples = []
    for i, doc in enumerate(Progress.counting([d for d in documents if d.tokens], what, "doc")):
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


class Trainable(Protocol):
    """What training asks of a segmenter (:class:`rstkit.segment.segmenter.Segmenter`, made from the
    parts :func:`train_segmenter` builds by the ``make`` it is given)."""

    net: SegmenterNet
    words: Vocabulary
    chars: Vocabulary
    encoder: Any
    settings: dict
    threshold: float

    def token_vectors(self, text: str, tokens: Sequence[Span]) -> np.ndarray: ...

    def segment(self, text: str) -> Segmentation: ...

    def probabilities(self, text: str, tokens: Sequence[Span], paragraph_starts: Sequence[int] = ()
                      ) -> np.ndarray: ...

    def decide(self, probabilities: np.ndarray) -> tuple[list[int], list[int]]: ...

    def save(self, path: str | Path) -> None: ...


S = TypeVar("S", bound=Trainable)


def dev_f1(segmenter: Trainable, documents: Sequence[GoldDocument], what: str = "segment dev") -> BoundaryCounts:
    return BoundaryCounts.of((doc.edu_starts, [e.start for e in segmenter.segment(doc.text).edus])
                             for doc in Progress.counting(documents, what, "doc"))


class SegmenterTrainee(Trainee):
    """The segmenter's hooks of the training loop (:func:`rstkit.training.fit`): random windows of
    each document with or without its paragraph breaks, a per-token cross-entropy with word dropout,
    Adam with a per-epoch exponential decay, dev F1 with and without paragraph breaks (their mean
    selects), the best weights kept in memory (and in the checkpoint) until the end."""

    schedule_per = "epoch"

    def __init__(self, segmenter: Trainable, config: SegmenterTrainConfig, examples: list[Example],
                 flat_examples: list[Example], dev_docs: list[GoldDocument], dev_flat: list[GoldDocument]):
        self.segmenter, self.config = segmenter, config
        self.examples, self.flat_examples, self.dev_docs, self.dev_flat = examples, flat_examples, dev_docs, dev_flat
        self.model = segmenter.net
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.lr)
        self.scheduler = torch.optim.lr_scheduler.ExponentialLR(self.optimizer, gamma=config.lr_decay)
        self.loss_function = nn.CrossEntropyLoss(reduction="sum")
        self.best_state: dict[str, Any] | None = None

    def batches(self, epoch: int) -> list[list[tuple[Example, int, int]]]:
        windows = _epoch_windows(self.examples, self.flat_examples, self.config)
        return [windows[b:b + self.config.batch_size] for b in range(0, len(windows), self.config.batch_size)]

    def loss(self, net: torch.nn.Module, batch: list[tuple[Example, int, int]]) -> tuple[torch.Tensor, int]:
        words_t, chars_t, flags_t, lengths, extra_t = batch_windows([(e.features, lo, hi) for e, lo, hi in batch])
        if self.config.word_dropout:
            drop = (torch.rand(words_t.shape) < self.config.word_dropout) & (words_t > UNK)
            words_t = words_t.masked_fill(drop, UNK)
        gold = torch.full(words_t.shape, -100, dtype=torch.int64)
        for row, (e, lo, hi) in enumerate(batch):
            gold[row, :hi - lo] = torch.from_numpy(e.labels[lo:hi])
        scores = net(words_t, chars_t, flags_t, lengths, extra_t)
        tokens = int(lengths.sum())
        return self.loss_function(scores.reshape(-1, 3), gold.reshape(-1)) / tokens, tokens

    def evaluate(self) -> tuple[dict[str, float], float]:
        with_paragraphs = dev_f1(self.segmenter, self.dev_docs)
        flat = dev_f1(self.segmenter, self.dev_flat, "segment dev without paragraph breaks")
        return {"F1": 100 * with_paragraphs.f1, "flat F1": 100 * flat.f1}, (with_paragraphs.f1 + flat.f1) / 2

    def describe(self, scores: dict[str, float]) -> str:
        return f"F1 {scores['F1']:.2f} (flat {scores['flat F1']:.2f})"

    def keep_best(self, epoch: int, scores: dict[str, float]) -> None:
        self.best_state = copy.deepcopy(self.model.state_dict())

    def kept(self) -> dict[str, Any]:
        return {"best_state": self.best_state}

    def restore(self, kept: dict[str, Any]) -> None:
        self.best_state = kept["best_state"]


def train_segmenter(make: Callable[..., S], train_trees: Mapping[str, RSTTree], dev_trees: Mapping[str, RSTTree],
                    out: str | Path, config: SegmenterTrainConfig, *, resume: bool = False,
                    log: Callable[[str], None] | None = None, info: Mapping[str, Any] | None = None) -> S:
    """Train on ``train_trees`` (``{doc_id: tree}``, their EDUs with sentences and paragraphs),
    select on ``dev_trees``, write the model to ``out`` and return it; ``info`` (facts such as the
    corpus) is written into the model's training record. ``make(net, words, chars, settings,
    encoder)`` makes the segmenter (:meth:`rstkit.segment.segmenter.Segmenter.train` passes its
    class); ``resume``: continue from ``out``'s checkpoint; ``log``: where the lines go (default:
    standard error, ``rstkit train-segmenter: ...``)."""
    log = log or stderr_log("train-segmenter")
    out = Path(out)
    seed_everything(config.seed)
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
    segmenter = make(net, words, chars, settings, encoder)
    examples = make_examples(train_docs, segmenter)
    flat_examples = make_examples(train_flat, segmenter, same_text=examples,
                                  what="prepare training texts without paragraph breaks")
    segmenter.settings["training"]["train_documents"] = len(examples)
    log(f"{len(examples)} training documents, {sum(len(e.labels) for e in examples)} tokens; "
        f"{len(words)} words, {len(chars)} characters; {len(dev_docs)} dev documents ({time.time() - started:.0f}s)")
    trainee = SegmenterTrainee(segmenter, config, examples, flat_examples, dev_docs, dev_flat)
    state = fit(trainee, config, out, resume=resume, log=log)
    if trainee.best_state is not None:
        segmenter.net.load_state_dict(trainee.best_state)
    segmenter.net.eval()
    segmenter.threshold = tune_threshold(segmenter, dev_docs + dev_flat)
    history = [{"epoch": h["epoch"], "loss": round(h["loss"], 4), "dev_f1": round(h["dev"]["F1"], 2),
                "dev_flat_f1": round(h["dev"]["flat F1"], 2)} for h in state["history"]]
    segmenter.settings["training"].update(best_epoch=state["best_epoch"], history=history,
                                          seconds=round(time.time() - started))
    segmenter.save(out)
    log(f"best epoch {state['best_epoch']}, threshold {segmenter.threshold:.2f}; model in {out} "
        f"({time.time() - started:.0f}s)")
    return segmenter


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


def tune_threshold(segmenter: Trainable, documents: Sequence[GoldDocument]) -> float:
    """The boundary probability threshold with the best F1 on ``documents``."""
    predictions = []
    for doc in Progress.counting(documents, "tune the threshold on dev", "doc"):
        tokens = own_tokens(doc)
        paragraph_starts = set(doc.paragraph_starts)
        forced = {0} | {i for i, (a, _) in enumerate(tokens) if a in paragraph_starts}
        predictions.append((doc, tokens, forced, segmenter.probabilities(doc.text, tokens, doc.paragraph_starts)))
    best, best_threshold = -1.0, 0.5
    for threshold in np.arange(0.20, 0.81, 0.05):
        segmenter.threshold = float(threshold)
        chosen = []
        for doc, tokens, forced, p in predictions:
            starts, _ = segmenter.decide(p)
            chosen.append((doc.edu_starts, [tokens[i][0] for i in set(starts) | forced]))
        score = BoundaryCounts.of(chosen)
        if score.f1 > best:
            best, best_threshold = score.f1, float(threshold)
    return round(best_threshold, 2)


def write_scores(out: str | Path, scores: dict) -> None:
    """Add evaluation scores to a model directory's config.json."""
    settings = read_config(out, "segmenter")
    settings["scores"] = scores
    write_model_dir(out, {CONFIG: config_text(settings, indent=1)})
