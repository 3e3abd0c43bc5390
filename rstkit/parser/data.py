"""From documents to model inputs: gold trees for training, EDU lists for parsing.

Training trees are right-heavy binarized (as the scorer binarizes gold) and their labels
mapped to the chosen classes; the oracle then gives every state and gold action. Parse
inputs are files or directories of documents with gold EDUs: ``.dis``/``.rs3``/``.rs4``
or any registered format (the tree is ignored), RST-DT ``.edus`` files, or plain text
with one EDU per line (``.txt``); or one split of a corpus (a GUM checkout, whose EDUs
are read from the ``.rsd`` files for their sentence and paragraph indices, an RST-DT
release, or a directory with ``splits.tsv``).
"""
from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from torch import nn

from ..corpus import format_for_path, gum_corpus, list_files, open_corpus, read_file
from ..errors import CorpusError, FormatError, ManyErrors, RSTKitError
from ..formats import doc_id_from_path, read_text
from ..labels import LabelMap
from ..transform import binarize
from ..tree import EDU, RSTTree
from .features import Boundaries
from .model import IGNORE, PreparedDocument, StateArrays
from .transition import PAIRS, SHIFT, oracle_states

#: extensions read as one EDU per line
LINE_FORMATS = (".edus", ".txt")


def check_edus(edus: Sequence[EDU], doc_id: str, path: str | None = None) -> None:
    """A parseable document has at least one EDU and some EDU text."""
    if not edus:
        raise FormatError(f"document {doc_id!r} has no EDUs", path)
    if not any(e.text.strip() for e in edus):
        raise FormatError(f"document {doc_id!r} has no EDU text (the parser needs the words of the EDUs)", path)


def training_tree(tree: RSTTree, label_map: LabelMap) -> RSTTree:
    """Right-heavy binarized tree with labels mapped (LabelError for unknown labels)."""
    return label_map.apply(binarize(tree, "right"))


def prepare(doc_id: str, edus: tuple[EDU, ...], encoder: nn.Module) -> PreparedDocument:
    """Inputs for parsing one document."""
    check_edus(edus, doc_id)
    return PreparedDocument(doc_id, edus, encoder.prepare([e.text for e in edus]), Boundaries.of(edus))


def prepare_training(tree: RSTTree, encoder: nn.Module, relations: Sequence[str], context: int = 3
                     ) -> PreparedDocument:
    """Inputs, oracle states (as a model of ``context`` items sees them) and gold labels of
    one (binarized, mapped) training tree."""
    doc = prepare(tree.doc_id, tree.edus, encoder)
    steps = oracle_states(tree)
    index = {r: i for i, r in enumerate(relations)}
    try:
        doc.relation = np.array([IGNORE if a.kind == SHIFT else index[a.relation] for _, a in steps], dtype=np.int64)
    except KeyError as exc:
        raise RSTKitError(f"relation {exc.args[0]!r} of document {tree.doc_id!r} is not among the model's "
                          f"relation classes", tree.source) from None
    doc.states = StateArrays.of(doc.boundaries, [view for view, _ in steps], context)
    doc.action = np.array([0 if a.kind == SHIFT else 1 for _, a in steps], dtype=np.int64)
    doc.pair = np.array([IGNORE if a.kind == SHIFT else PAIRS.index(a.pair) for _, a in steps], dtype=np.int64)
    return doc


def _read_lines(path: Path) -> tuple[EDU, ...]:
    lines = [line.strip() for line in read_text(path).splitlines()]
    return tuple(EDU(i, text) for i, text in enumerate((t for t in lines if t), 1))


def read_parse_inputs(path: str | Path, format: str | None = None) -> dict[str, tuple[EDU, ...]]:
    """``{doc_id: EDUs}`` of a file or a directory of documents to parse; every bad file is reported."""
    path = Path(path)
    if not path.exists():
        raise CorpusError("no such file or directory", str(path))
    if path.is_dir():
        files = list_files(path, format) if format else sorted(
            p for p in path.rglob("*") if p.is_file() and not p.name.startswith(".")
            and (p.name.lower().endswith(LINE_FORMATS) or _known(p)))
        if not files:
            raise CorpusError("no documents to parse found", str(path))
    else:
        files = [path]
    documents: dict[str, tuple[EDU, ...]] = {}
    failures: list[RSTKitError] = []
    for file in files:
        try:
            for doc_id, edus in _read_input_file(file, format):
                check_edus(edus, doc_id, str(file))
                if doc_id in documents:
                    raise CorpusError(f"document id {doc_id!r} appears twice", str(file))
                documents[doc_id] = edus
        except RSTKitError as exc:
            failures.append(exc)
    if failures:
        raise failures[0] if len(failures) == 1 else ManyErrors(failures)
    return documents


def _known(path: Path) -> bool:
    try:
        format_for_path(path)
        return True
    except CorpusError:
        return False


def _read_input_file(file: Path, format: str | None) -> list[tuple[str, tuple[EDU, ...]]]:
    if format is None and file.name.lower().endswith(LINE_FORMATS):
        return [(doc_id_from_path(file).removesuffix(".txt"), _read_lines(file))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tree is ignored: its repairs do not matter here
        trees = read_file(file, format, lenient=True)
    return [(t.doc_id or doc_id_from_path(file), t.edus) for t in trees]


def read_corpus_split(path: str | Path, split: str) -> tuple[dict[str, tuple[EDU, ...]], dict[str, Path]]:
    """``({doc_id: EDUs}, {doc_id: gold file})`` of one split of a corpus directory."""
    corpus = open_corpus(path)
    ids = corpus.doc_ids(split)
    source = corpus
    if corpus.name.startswith("gum") and (corpus.root / "dependencies").is_dir():
        source = gum_corpus(corpus.root, "rsd")  # same EDUs, with sentence and paragraph indices
    documents: dict[str, tuple[EDU, ...]] = {}
    for doc_id in ids:
        file = source.path(doc_id)
        ((_, edus),) = _read_input_file(file, source.format)
        check_edus(edus, doc_id, str(file))
        documents[doc_id] = edus
    return documents, {d: corpus.path(d) for d in ids}
