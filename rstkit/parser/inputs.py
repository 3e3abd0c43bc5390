"""Documents to parse: their EDUs and where their sentence and paragraph boundaries come from.

Input is a file or a directory of documents with gold EDUs: ``.dis``/``.rs3``/``.rs4``/
``.rsd`` or any registered format (the tree is ignored), RST-DT ``.edus`` files, or plain
text with one EDU per line (``.txt``; a blank line separates paragraphs); or one split of
a corpus (a GUM checkout, whose EDUs are read from its ``.rsd`` files for their
boundaries, an RST-DT release, a directory with ``splits.tsv``). With a segmenter, a
``.txt`` file is plain text instead (paragraphs separated by blank lines), split into EDUs
by the segmenter (:func:`text_document`), which also gives their sentences.
:func:`read_document_file` turns one input file into documents.

Boundaries of each document, first found wins: a boundary source given explicitly (a
boundary file or ``.rsd`` for one document, or a directory of ``DOC_ID.bnd`` /
``DOC_ID.rsd``); a *sibling* ``DOC_ID.rsd`` or ``DOC_ID.bnd`` beside the input file (used
when the input itself lacks sentences or paragraphs); what the input carries. Sentences
still missing are inferred when the document is parsed (:func:`rstkit.boundaries.complete`);
:func:`missing_boundaries` says so in one line. No torch here.
"""
from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from ..boundaries import (
    BOUNDARY_SUFFIX,
    edus_from_lines,
    has_paragraphs,
    has_sentences,
    merge,
    read_boundary_file,
    with_boundaries,
)
from ..corpus import Corpus, format_for_path, list_files, read_file, read_tree, split_corpus, walk_input
from ..errors import CorpusError, FormatError, ManyErrors, RSTKitError
from ..folders import not_regular
from ..formats import doc_id_from_path, read_text
from ..progress import Progress
from ..segment.result import Segmentation
from ..segment.tokenizer import read_plain_text
from ..tree import EDU, RSTTree

#: extensions read as one EDU per line
LINE_FORMATS = (".edus", ".txt")
#: extension of plain text, segmented into EDUs when a segmenter is given
TEXT_SUFFIX = ".txt"
_WHITESPACE = re.compile(r"\s+")


class TextSegmenter(Protocol):
    """What splits plain text into EDUs (:class:`rstkit.segment.Segmenter`)."""

    def segment(self, text: str) -> Segmentation: ...
#: extensions of files that carry boundaries for another input file
BOUNDARY_SOURCES = (".rsd", BOUNDARY_SUFFIX)


@dataclass(frozen=True)
class Document:
    """A document to parse: id, EDUs (with whatever boundaries were found), the file it
    came from and where its boundaries came from (``input``, ``sibling FILE``, ``FILE``)."""

    doc_id: str
    edus: tuple[EDU, ...]
    path: str | None = None
    boundary_source: str = "input"
    #: whether the EDUs come from segmenting plain text
    segmented: bool = False


def check_input_edus(edus: Sequence[EDU], doc_id: str, path: str | None = None) -> None:
    """A parseable document has at least one EDU and some EDU text."""
    if not edus:
        raise FormatError(f"document {doc_id!r} has no EDUs", path)
    if not any(e.text.strip() for e in edus):
        raise FormatError(f"document {doc_id!r} has no EDU text (the parser needs the words of the EDUs)", path)


def _is_line_file(path: Path) -> bool:
    return path.name.lower().endswith(LINE_FORMATS)


def text_document(text: str, doc_id: str, segmenter: TextSegmenter, path: str | None = None) -> Document:
    """A document from plain text (paragraphs separated by blank lines), split into EDUs by
    ``segmenter``: sentences as the segmenter infers them, paragraphs from the blank lines;
    each EDU's text is its span of ``text`` with every run of whitespace made one space."""
    if not text.strip():
        raise FormatError(f"document {doc_id!r} has no text (empty or only whitespace)", path)
    edus = tuple(EDU(i, _WHITESPACE.sub(" ", e.text), e.sentence, e.paragraph)
                 for i, e in enumerate(segmenter.segment(text).edus, 1))
    return Document(doc_id, edus, path, segmented=True)


def read_document_file(file: Path, format: str | None = None, segmenter: TextSegmenter | None = None
                       ) -> list[Document]:
    """The documents of one input file (EDUs with the boundaries the file carries); with a
    ``segmenter``, a ``.txt`` file is plain text and is segmented."""
    if format is None and segmenter is not None and file.name.lower().endswith(TEXT_SUFFIX):
        return [text_document(read_plain_text(file), doc_id_from_path(file), segmenter, str(file))]
    if format is None and _is_line_file(file):
        doc_id = doc_id_from_path(file)
        return [Document(doc_id, edus_from_lines(read_text(file)), str(file))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tree is ignored: its repairs do not matter here
        trees = read_file(file, format, lenient=True)
    return [Document(t.doc_id or doc_id_from_path(file), t.edus, str(file)) for t in trees]


def _boundary_edus(file: Path) -> tuple[EDU, ...]:
    if file.name.endswith(BOUNDARY_SUFFIX):
        return read_boundary_file(file)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (tree,) = read_file(file, None, lenient=True)
    return tree.edus


def _with_source(doc: Document, file: Path, label: str) -> Document:
    return replace(doc, edus=merge(doc.edus, _boundary_edus(file), str(file)), boundary_source=label)


def _sibling(doc: Document) -> Path | None:
    if doc.path is None:
        return None
    here = Path(doc.path)
    for suffix in BOUNDARY_SOURCES:
        candidate = here.with_name(doc.doc_id + suffix)
        if candidate != here and candidate.is_file():
            return candidate
    return None


def _known(path: Path) -> bool:
    try:
        format_for_path(path)
        return True
    except CorpusError:
        return False


def input_files(path: str | Path, format: str | None = None) -> list[Path]:
    """The files :func:`read_parse_inputs` reads from ``path`` (a file, or a directory's files
    in a known format, ``.edus`` and ``.txt``; a ``.rsd`` beside another file of the same
    document is that file's boundary source, not an input)."""
    path = Path(path)
    if not path.exists():
        raise CorpusError("no such file or directory", str(path))
    if not path.is_dir():
        if not path.is_file():
            raise not_regular(path)  # a FIFO would be read forever
        return [path]
    if format:
        return list_files(path, format)
    files = [p for p in walk_input(path) if _is_line_file(p) or _known(p)]
    stems: dict[Path, list[Path]] = {}
    for file in files:
        stems.setdefault(file.with_name(doc_id_from_path(file)), []).append(file)
    # a .rsd beside another input of the same document is that input's boundary source
    return [f for f in files if not (f.suffix == ".rsd" and len(stems[f.with_name(doc_id_from_path(f))]) > 1)]


def plain_text_files(files: Sequence[Path], format: str | None = None) -> list[Path]:
    """Those of ``files`` that a segmenter would read as plain text (``.txt``, no ``format`` given)."""
    return [] if format else [f for f in files if f.name.lower().endswith(TEXT_SUFFIX)]


def read_parse_inputs(path: str | Path, format: str | None = None, boundaries: str | Path | None = None, *,
                      segmenter: TextSegmenter | None = None) -> list[Document]:
    """The documents of a file or a directory, with boundaries from ``boundaries`` (a file for
    one document, or a directory of ``DOC_ID.bnd``/``DOC_ID.rsd``), siblings or the input;
    with a ``segmenter``, ``.txt`` files are plain text, segmented. Every bad file is reported."""
    path = Path(path)
    files = input_files(path, format)
    if not files:
        raise CorpusError("no documents to parse found", str(path))
    documents: dict[str, Document] = {}
    failures: list[RSTKitError] = []
    texts = plain_text_files(files, format) if segmenter is not None else []
    # segmenting plain text takes seconds a document: reported (the caller's shown() decides where)
    with Progress(len(files), "segment" if texts else "read", "file") as bar:
        for file in files:
            try:
                for doc in read_document_file(file, format, segmenter):
                    check_input_edus(doc.edus, doc.doc_id, str(file))
                    if doc.doc_id in documents:
                        raise CorpusError(f"document id {doc.doc_id!r} appears twice", str(file))
                    if boundaries is None and not (has_sentences(doc.edus) and has_paragraphs(doc.edus)):
                        sibling = _sibling(doc)
                        if sibling is not None:
                            doc = _with_source(doc, sibling, f"sibling {sibling.name}")
                    documents[doc.doc_id] = doc
            except RSTKitError as exc:
                failures.append(exc)
            bar.update()
    if failures:
        raise failures[0] if len(failures) == 1 else ManyErrors(failures)
    result = list(documents.values())
    segmented = [d for d in result if d.segmented]
    if boundaries is not None and segmented:
        raise RSTKitError(f"boundaries are given per EDU, but {segmented[0].path} is plain text, segmented here",
                          str(boundaries), fixes=("no_segmenter",))
    return apply_boundaries(result, boundaries) if boundaries is not None else result


def apply_boundaries(documents: list[Document], source: str | Path) -> list[Document]:
    """``documents`` with the boundaries of ``source``: a boundary file or ``.rsd`` (one
    document only), or a directory holding ``DOC_ID.bnd`` or ``DOC_ID.rsd`` for each."""
    source = Path(source)
    if not source.exists():
        raise CorpusError("no such boundary file or directory", str(source))
    if source.is_file():
        if len(documents) != 1:
            raise RSTKitError(f"one boundary file for {len(documents)} documents; give a directory of "
                              f"DOC_ID{BOUNDARY_SUFFIX} or DOC_ID.rsd files", str(source))
        return [_with_source(documents[0], source, source.name)]
    result = []
    for doc in documents:
        found = [source / (doc.doc_id + s) for s in BOUNDARY_SOURCES if (source / (doc.doc_id + s)).is_file()]
        if not found:
            raise CorpusError(f"no boundaries for document {doc.doc_id!r} (expected {doc.doc_id}{BOUNDARY_SUFFIX} "
                              f"or {doc.doc_id}.rsd)", str(source))
        result.append(_with_source(doc, found[0], str(found[0])))
    return result


def read_corpus_split(path: str | Path, split: str) -> tuple[list[Document], dict[str, Path]]:
    """``(documents, {doc_id: gold file})`` of one split of a corpus directory (a GUM
    checkout's EDUs come from its ``.rsd`` files, for their boundaries)."""
    corpus = split_corpus(path, split)
    ids = corpus.doc_ids(split)
    source = corpus.boundary_corpus() or corpus
    documents = []
    for doc_id in ids:
        file = source.path(doc_id)
        (doc,) = read_document_file(file, source.format)
        check_input_edus(doc.edus, doc_id, str(file))
        documents.append(replace(doc, doc_id=doc_id))
    return documents, {d: corpus.path(d) for d in ids}


def read_training_trees(corpus: Corpus, doc_ids: Sequence[str], *, lenient: bool = False) -> dict[str, RSTTree]:
    """``{doc_id: tree}`` of ``doc_ids`` in ``corpus``, their EDUs given the sentence and
    paragraph indices of the corpus's boundary source (:meth:`Corpus.boundary_corpus`, e.g.
    GUM's ``.rsd`` files) where it has one."""
    trees = {d: replace(read_tree(corpus.path(d), corpus.format, lenient=lenient), doc_id=d)
             for d in Progress.counting(doc_ids, "read", "doc")}
    source = corpus.boundary_corpus()
    if source is None:
        return trees
    return {d: with_boundaries(t, read_tree(source.path(d), source.format).edus)
            for d, t in Progress.counting(list(trees.items()), "read boundaries", "doc")}


def missing_boundaries(documents: Sequence[Document], where: str) -> str | None:
    """One line saying which boundaries the documents lack and what the parser does
    instead (None when all have sentences and paragraphs)."""
    no_sentences = sum(not has_sentences(d.edus) for d in documents)
    no_paragraphs = sum(not has_paragraphs(d.edus) for d in documents)
    if not no_sentences and not no_paragraphs:
        return None
    count = max(no_sentences, no_paragraphs)
    share = "" if count == len(documents) == 1 else f" ({count} of {len(documents)} documents)"
    missing = " or ".join(k for k, n in (("sentence", no_sentences), ("paragraph", no_paragraphs)) if n)
    done = (["sentences inferred from punctuation"] if no_sentences else []) + \
        (["paragraphs unknown"] if no_paragraphs else [])
    return f"no {missing} boundaries in {where}{share}: {', '.join(done)}"
