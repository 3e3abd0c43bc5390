"""The EDU segmenter: plain text -> EDUs as character spans (needs torch).

``Segmenter.load()`` reads the model shipped with rstkit (``rstkit/data/models/segmenter``)
or a model folder (:mod:`rstkit.models`) written by ``rstkit train-segmenter`` or ``Segmenter.train``;
``segment(text)`` splits the text into paragraphs (at blank lines) and GUM-like tokens, tags every token (begins an EDU,
begins a sentence, or neither) and returns a :class:`Segmentation`. A paragraph always
begins an EDU and a sentence; EDUs never cross paragraphs.

Long texts are tagged in overlapping windows (``window`` tokens, ``margin`` tokens of
context on each side) and read by a pretrained encoder in its own overlapping windows,
each batch of windows just before it is needed, so time grows linearly with the text,
memory beyond a few hundred bytes of features per token stays bounded, and the
segmentation does not depend on where a batch begins or ends.

A model trained with a pretrained encoder (``settings["pretrained"]``: its name, e.g.
``minilm``, and the layers averaged) also reads the frozen states of that encoder
(:mod:`rstkit.pretrained`, the parser's feature code): a token's vector is the mean
of the word pieces overlapping its characters.
"""
from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from .. import models
from ..extras import needs
from ..pretrained import MINILM, missing_packages
from ..progress import Progress
from ..vocabulary import Vocabulary
from .features import TokenFeatures, featurize, load_encoder, pool_pieces
from .model import EDU_START, SENTENCE_START, NetConfig, SegmenterNet, batch_windows
from .result import Segmentation, build_segmentation, merge_lone_edus
from .tokenizer import Span, paragraphs, tokenize

if TYPE_CHECKING:
    from ..tree import RSTTree
    from .train import SegmenterTrainConfig

MODEL_FORMAT = "rstkit-segmenter/1"
VOCAB = "vocab.json"
_FILES = (models.CONFIG, VOCAB, models.WEIGHTS)

#: the shipped model used when none is named (it also reads MiniLM's frozen states), and the one
#: used instead when it cannot run here (it needs nothing but torch)
DEFAULT_MODEL, FALLBACK_MODEL = models.shipped("segmenter")[0], models.shipped("segmenter")[-1]


def default_segmenter() -> tuple[str, str | None]:
    """The name of the best shipped segmenter that can run here, and why the default cannot
    (None when it can)."""
    missing = missing_packages(MINILM)
    if missing is None:
        return DEFAULT_MODEL, None
    return FALLBACK_MODEL, f"{needs(f'the {DEFAULT_MODEL} model', missing)}; using the {FALLBACK_MODEL} segmenter"


class Segmenter:
    """A trained segmenter (network, vocabularies and decoding settings).

    >>> segmenter = rstkit.Segmenter.load()  # doctest: +SKIP
    >>> [edu.text for edu in segmenter.segment("The bridge closed, so traffic moved.").edus]  # doctest: +SKIP
    """

    def __init__(self, net: SegmenterNet, words: Vocabulary, chars: Vocabulary, settings: dict, encoder=None,
                 source: str | None = None):
        self.net = net.eval()
        self.source = source  # the model's name or folder, once loaded or saved
        self.encoder = encoder
        self.words = words
        self.chars = chars
        self.settings = dict(settings)
        self.threshold = float(self.settings.get("threshold", 0.5))
        self.window = int(self.settings.get("window", 256))
        self.margin = int(self.settings.get("margin", 32))
        self.batch_size = int(self.settings.get("batch_size", 32))

    # -- loading and saving ------------------------------------------------------------

    @classmethod
    def load(cls, model: str | Path | None = None, *, threads: int | None = None,
             cache_dir: str | Path | None = None) -> Segmenter:
        """A shipped model by name (``segmenter``, ``segmenter-base``; None: ``segmenter``) or a
        model folder, as :meth:`rstkit.Parser.load` takes them; ``threads``: torch's threads;
        ``cache_dir`` keeps a pretrained encoder's states on disk (models that use one)."""
        directory = models.shipped_model_dir(DEFAULT_MODEL) if model is None else models.locate(model, "segmenter")
        if threads:
            torch.set_num_threads(threads)
        missing = [name for name in _FILES if not (directory / name).is_file()]
        if missing:
            raise models.ModelDirError(f"not a segmenter model directory (missing {', '.join(missing)})",
                                       str(directory))
        settings = models.read_config(directory, "segmenter")
        try:
            vocab = json.loads((directory / VOCAB).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise models.ModelDirError(f"unreadable vocabulary: {exc}", str(directory / VOCAB)) from None
        if settings.get("format") != MODEL_FORMAT:
            raise models.ModelDirError(f"not a segmenter model of this rstkit version (format "
                                       f"{settings.get('format')!r}, expected {MODEL_FORMAT!r})",
                                       str(directory / models.CONFIG))
        net = SegmenterNet(NetConfig(**settings["net"]))
        try:
            net.load_state_dict(models.read_weights(directory))
        except (RuntimeError, KeyError) as exc:
            raise models.ModelDirError(f"weights do not fit the config: {str(exc).splitlines()[0]}",
                                       str(directory / models.WEIGHTS)) from None
        pretrained = settings.get("pretrained")
        encoder = load_encoder(pretrained["encoder"], cache_dir) if pretrained else None
        return cls(net, Vocabulary(vocab["words"][2:]), Vocabulary(vocab["chars"][2:]), settings, encoder,
                   str(DEFAULT_MODEL if model is None else model))

    def save(self, path: str | Path) -> None:
        """Write the model folder (weights in half precision: the model is small and its
        predictions do not change measurably)."""
        settings = dict(self.settings, format=MODEL_FORMAT, net=self.net.config.to_dict(), threshold=self.threshold,
                        window=self.window, margin=self.margin, batch_size=self.batch_size)
        vocab = {"words": self.words.items, "chars": self.chars.items}
        models.write_model_dir(path, {models.CONFIG: models.config_text(settings, indent=1),
                                      VOCAB: json.dumps(vocab, ensure_ascii=False) + "\n",
                                      models.WEIGHTS: models.weights_bytes(self.net.state_dict())})
        self.source = str(path)

    @classmethod
    def train(cls, train_docs: Mapping[str, RSTTree], dev_docs: Mapping[str, RSTTree],
              config: SegmenterTrainConfig, *, out: str | Path | None = None,
              info: Mapping[str, Any] | None = None, resume: bool = False,
              log: Callable[[str], None] | None = None) -> Segmenter:
        """Train on ``train_docs`` (``{doc_id: tree}`` whose EDUs know their sentences and paragraphs,
        e.g. :func:`rstkit.segment.gum.read_gum_trees`), select on ``dev_docs``, write the model to
        ``out`` (default: a new temporary folder) and return it: :meth:`rstkit.Parser.train`'s shape.
        ``resume`` continues from ``out``'s checkpoint; ``log`` takes the training's lines (default:
        standard error where progress is shown, :func:`rstkit.progress.shown`); ``info`` (facts such as
        the corpus) goes into the model's training record. The loop: :func:`rstkit.training.fit`."""
        from .train import train_segmenter  # segmenting needs none of the training code

        if out is None:
            out = tempfile.mkdtemp(prefix="rstkit-segmenter-")
        return train_segmenter(cls, train_docs, dev_docs, out, config, resume=resume, log=log, info=info)

    # -- segmenting ------------------------------------------------------------------------

    def segment(self, text: str) -> Segmentation:
        """EDUs of a plain text (paragraphs separated by blank lines)."""
        paragraph_spans = paragraphs(text)
        tokens = [t for start, end in paragraph_spans for t in tokenize(text, start, end)]
        return self.segment_tokens(text, tokens, [start for start, _ in paragraph_spans])

    def segment_tokens(self, text: str, tokens: Sequence[Span], paragraph_starts: Sequence[int] = ()) -> Segmentation:
        """EDUs of ``text`` already split into ``tokens`` (spans of ``text``, e.g. a
        corpus' gold tokens); ``paragraph_starts`` are character offsets (none: one paragraph).
        No EDU is a lone dash, nor a lone conjunction but before a subordinate clause
        (:func:`~rstkit.segment.result.merge_lone_edus`)."""
        paragraph_starts = sorted(paragraph_starts)
        edu_starts, sentence_starts = self.decide(self.probabilities(text, tokens, paragraph_starts))
        edu_starts, sentence_starts = merge_lone_edus(text, tokens, edu_starts, sentence_starts, paragraph_starts)
        return build_segmentation(text, tokens, edu_starts, sentence_starts, paragraph_starts)

    def decide(self, probabilities: np.ndarray) -> tuple[list[int], list[int]]:
        """Token numbers that begin an EDU (boundary probability >= threshold) and, among
        them, those that begin a sentence."""
        boundary = probabilities[:, EDU_START] + probabilities[:, SENTENCE_START]
        edu_starts = np.flatnonzero(boundary >= self.threshold)
        sentence = probabilities[edu_starts, SENTENCE_START] > probabilities[edu_starts, EDU_START]
        return edu_starts.tolist(), edu_starts[sentence].tolist()

    def token_vectors(self, text: str, tokens: Sequence[Span]) -> np.ndarray:
        """Pretrained vectors [T, dim] of all the tokens (see :class:`TokenVectors`)."""
        return TokenVectors(self, text, tokens).take(0, len(tokens))

    def probabilities(self, text: str, tokens: Sequence[Span], paragraph_starts: Sequence[int] = ()) -> np.ndarray:
        """Class probabilities [T, 3] (inside, begins an EDU, begins an EDU and a sentence).

        The tokens are tagged in windows of ``window`` tokens, each read with ``margin``
        tokens of context on either side, ``batch_size`` windows at a time; a model with
        a pretrained encoder gets the vectors of each batch's tokens just before it
        (:class:`TokenVectors`), so time and memory beyond the per-token features grow
        with one batch, not with the text, and no chunk edge shows: every token is tagged
        as if the whole text had been read at once.
        """
        n = len(tokens)
        result = np.zeros((n, 3), dtype=np.float32)
        if not n:
            return result
        features = featurize(text, tokens, paragraph_starts, self.words, self.chars)
        vectors = TokenVectors(self, text, tokens) if self.encoder is not None else None
        windows = [(max(0, s - self.margin), min(n, s + self.window + self.margin), s, min(n, s + self.window))
                   for s in range(0, n, self.window)]
        # a text of several batches of windows reports as it goes, a batch at a time (where progress is shown);
        # one batch is one step, reported by the caller's count of texts if at all
        several = len(windows) > self.batch_size
        with torch.no_grad(), Progress(n, "segment", "token", enabled=None if several else False) as bar:
            for b in range(0, len(windows), self.batch_size):
                batch = windows[b:b + self.batch_size]
                lo, hi = batch[0][0], batch[-1][1]
                part = TokenFeatures(features.words[lo:hi], features.chars[lo:hi], features.flags[lo:hi],
                                     vectors.take(lo, hi) if vectors is not None else None)
                scores = self.net(*batch_windows([(part, a - lo, z - lo) for a, z, _, _ in batch]))
                probabilities = torch.softmax(scores, dim=-1).numpy()
                for row, (a, _, keep_from, keep_to) in enumerate(batch):
                    result[keep_from:keep_to] = probabilities[row, keep_from - a:keep_to - a]
                bar.update(batch[-1][3] - batch[0][2])
        return result


class TokenVectors:
    """The pretrained vectors of a text's tokens, computed as they are asked for.

    The text from its first to its last token is split into word pieces once; their states
    come from the encoder's sliding windows (:meth:`rstkit.pretrained.PretrainedEncoder.stream`:
    every piece from the window where it is most central, as if the text were read whole),
    a batch of windows at a time, and only the pieces still needed are kept. A token's
    vector is the mean of the chosen layers, averaged over the pieces that overlap its
    characters. :meth:`take` must be asked for ranges that never move backwards.
    """

    def __init__(self, segmenter: Segmenter, text: str, tokens: Sequence[Span]):
        self.layers = segmenter.settings["pretrained"]["layers"]
        self.dim = segmenter.encoder.dim
        self.tokens = np.asarray(tokens, dtype=np.int64).reshape(-1, 2)
        begin = int(self.tokens[0, 0]) if len(self.tokens) else 0
        end = int(self.tokens[-1, 1]) if len(self.tokens) else 0
        offsets, self._runs = segmenter.encoder.encode_pieces(text[begin:end])
        self.offsets = offsets + begin
        self._first = 0  # the piece number of the first piece kept
        self._kept: list[np.ndarray] = []  # vectors of the pieces read and kept, in order
        self._read = 0   # pieces read so far

    def take(self, lo: int, hi: int) -> np.ndarray:
        """Vectors [hi - lo, dim] of tokens ``lo`` to ``hi - 1``."""
        if hi <= lo:
            return np.zeros((0, self.dim), dtype=np.float32)
        spans = self.tokens[lo:hi]
        # every piece that starts before the last token ends
        needed = int(np.searchsorted(self.offsets[:, 0], spans[-1, 1], side="left"))
        while self._read < needed:
            first, states = next(self._runs)
            self._kept.append(states[self.layers].astype(np.float32).mean(axis=0))
            self._read = first + states.shape[1]
        keep_from = int(np.searchsorted(self.offsets[:, 1], spans[0, 0], side="right"))  # pieces ending after it starts
        vectors = np.concatenate(self._kept) if self._kept else np.zeros((0, self.dim), dtype=np.float32)
        vectors = vectors[max(0, keep_from - self._first):]
        self._first = max(self._first, keep_from)
        self._kept = [vectors]
        pieces = self.offsets[self._first:self._read]
        return pool_pieces(pieces, vectors[:len(pieces)], spans)
