"""Parsing many documents on a Dask cluster (``rstkit parse --engine dask``; the ``dask`` extra).

The documents are cut into the batches a local run decodes (sorted by their number of EDUs,
``batch_size`` at a time: the same batches give the same trees, byte for byte); each batch is
one task; each worker process loads the model once and keeps it. From Python::

    from distributed import Client
    from rstkit.parser.distributed import parse_on_dask

    with Client(n_workers=4, threads_per_worker=1) as client:
        trees = parse_on_dask(client, documents, model="minilm")   # RSTTrees, Documents or EDU lists

or, for a ``dask.bag`` of plain texts (each worker segments and parses its partitions)::

    import dask.bag as db
    from rstkit.parser.distributed import parse_texts

    trees = db.from_sequence(texts, npartitions=64).map_partitions(parse_texts, model="minilm").compute()
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..boundaries import complete
from ..cluster import Outcome, failure_message, run_batches
from ..errors import RSTKitError
from ..segment.distributed import worker_segmenter
from ..tree import RSTTree
from .api import Parser, _as_input
from .inputs import Document

_LOADED: dict[tuple, Parser] = {}
_LOADING = threading.Lock()


@dataclass(frozen=True)
class ParseSpec:
    """What every task needs besides its documents: the model and how to decode."""

    model: str
    device: str = "cpu"
    cache_dir: str | None = None
    beam: int = 1
    amp: bool = True
    threads: int = 1


def worker_parser(spec: ParseSpec) -> Parser:
    """The model of ``spec``, loaded once per process (a worker keeps it for every batch)."""
    key = (spec.model, spec.device, spec.cache_dir)
    with _LOADING:
        if key not in _LOADED:
            import torch

            torch.set_num_threads(spec.threads)
            _LOADED[key] = Parser.load(spec.model, device=spec.device, cache_dir=spec.cache_dir)
        return _LOADED[key]


def plan_batches(sizes: Sequence[int], batch_size: int) -> list[list[int]]:
    """Indices of the documents of each batch, as :func:`rstkit.parser.decode.decode` forms them:
    by number of EDUs (``sizes``; stable), ``batch_size`` at a time."""
    order = sorted(range(len(sizes)), key=lambda i: sizes[i])
    return [order[start:start + batch_size] for start in range(0, len(order), batch_size)]


def parse_batch(spec: ParseSpec, documents: Sequence[Document]) -> list[Outcome]:
    """The task: parse one batch. If the batch fails, each document is parsed alone, so that only
    the documents that fail by themselves are reported (their error), the others parsed."""
    parser = worker_parser(spec)
    inputs = [replace(doc, edus=complete(doc.edus).edus) for doc in documents]
    try:
        trees = parser.parse(inputs, beam=spec.beam, batch_docs=max(1, len(inputs)), amp=spec.amp)
        return [Outcome(doc.doc_id, tree) for doc, tree in zip(inputs, trees)]
    except Exception:  # noqa: BLE001 - narrowed below, document by document
        return [_alone(parser, doc, spec) for doc in inputs]


def _alone(parser: Parser, doc: Document, spec: ParseSpec) -> Outcome:
    """One document parsed by itself: its tree, or its error."""
    try:
        (tree,) = parser.parse([doc], beam=spec.beam, batch_docs=1, amp=spec.amp)
        return Outcome(doc.doc_id, tree)
    except Exception as exc:  # noqa: BLE001 - reported for this document, the run goes on
        return Outcome(doc.doc_id, None, failure_message(exc))


def parse_on_dask(client: Any, documents: Iterable[Any], model: str = "minilm", *, batch_size: int = 16,
                  beam: int = 1, device: str = "cpu", cache_dir: str | None = None,
                  done: Callable[[list[Outcome]], None] | None = None) -> list[RSTTree]:
    """Trees of ``documents`` (as :meth:`Parser.parse` takes them), in order, parsed on the
    cluster of ``client``; ``done(outcomes)`` is called as each batch ends. A document that fails
    is an error naming it (the CLI's ``--skip-errors`` lists them instead)."""
    docs = list(documents)
    inputs = [Document(given.doc_id, given.edus) for given in (_as_input(doc, i) for i, doc in enumerate(docs, 1))]
    batches = plan_batches([len(doc.edus) for doc in inputs], batch_size)
    spec = ParseSpec(model, device, cache_dir, beam)
    trees: dict[str, RSTTree] = {}
    failures: list[Outcome] = []

    def collect(_: int, outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            if outcome.value is None:
                failures.append(outcome)
            else:
                trees[outcome.key] = outcome.value
        if done is not None:
            done(outcomes)

    run_batches(client, parse_batch, spec, [[inputs[i] for i in batch] for batch in batches], collect)
    if failures:
        raise RSTKitError(f"{len(failures)} document(s) failed: "
                          + "; ".join(f"{f.key}: {f.error}" for f in failures[:5]))
    return [trees[doc.doc_id] for doc in inputs]


def parse_texts(texts: Iterable[str], model: str = "minilm", segmenter: str | None = None, beam: int = 1
                ) -> list[RSTTree]:
    """Trees of plain texts, segmented and parsed in this process with models loaded once per
    process: for ``dask.bag.Bag.map_partitions`` (or any worker)."""
    parser = worker_parser(ParseSpec(model))
    texts = list(texts)
    if not texts:
        return []
    trees = parser.parse_text(texts, segmenter=worker_segmenter(segmenter), beam=beam)
    return trees if isinstance(trees, list) else [trees]
