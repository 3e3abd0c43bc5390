"""Reading documents and corpora: single files, directories, and the corpus layouts rstkit knows.

Document ids are stable and format-independent: ``wsj_0600.out.dis`` -> ``wsj_0600``,
``GUM_news_iodine.rs4`` -> ``GUM_news_iodine``.

* :func:`read_tree` / :func:`read_file` read one file (format from ``format=`` or the
  file extension) (:mod:`.files`).
* :func:`read_documents` reads a file or a whole directory into ``{doc_id: tree}``,
  reporting every bad file at once (:class:`~rstkit.errors.ManyErrors`), with ``jobs``
  processes (:func:`read_files`); :func:`read_input` reads a command's input as ``rstkit eval``
  does (path checked, ``"auto"`` format detected) (:mod:`.documents`).
* :func:`open_corpus` recognises a corpus kind (:data:`CORPUS_KINDS`: a GUM checkout, an
  RST-DT release, RST-DT's doubly annotated set, or a plain directory with an optional
  ``splits.tsv``) and gives documents by split (:func:`split_corpus`: the corpus of one split,
  checked); ``corpus.kind`` knows its default label map and where its sentence and paragraph
  boundaries come from (:mod:`.kinds`).
* :func:`resolve_corpus` finds the named corpora ``gum`` and ``rstdt`` (a directory given,
  else ``$RSTKIT_GUM`` / ``$RSTKIT_RSTDT``) or opens a path (:mod:`.named`).
"""
from __future__ import annotations

from ..data import rstdt_dev_ids, rstdt_test_ids
from .documents import check_input, input_format, read_documents, read_input
from .files import format_for_path, list_files, read_file, read_files, read_tree, resolve_jobs, walk_input
from .kinds import (
    CORPUS_KINDS,
    DIRECTORY,
    GUM,
    GUM_FORMS,
    RSTDT,
    RSTDT_DOUBLE,
    BoundarySource,
    Corpus,
    CorpusKind,
    directory_corpus,
    gum_corpus,
    open_corpus,
    parse_gum_splits,
    recognise_corpus,
    rstdt_corpus,
    rstdt_double_corpus,
    split_corpus,
)
from .named import NAMED_CORPORA, resolve_corpus

__all__ = [
    "CORPUS_KINDS",
    "DIRECTORY",
    "GUM",
    "GUM_FORMS",
    "NAMED_CORPORA",
    "RSTDT",
    "RSTDT_DOUBLE",
    "BoundarySource",
    "Corpus",
    "CorpusKind",
    "check_input",
    "directory_corpus",
    "format_for_path",
    "gum_corpus",
    "input_format",
    "list_files",
    "open_corpus",
    "parse_gum_splits",
    "read_documents",
    "read_file",
    "read_files",
    "read_input",
    "read_tree",
    "recognise_corpus",
    "resolve_corpus",
    "resolve_jobs",
    "rstdt_corpus",
    "rstdt_dev_ids",
    "rstdt_double_corpus",
    "rstdt_test_ids",
    "split_corpus",
    "walk_input",
]
