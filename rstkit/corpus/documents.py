"""Documents from a file or a directory, whatever its layout: ``{doc_id: tree}``."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, overload

from ..errors import CorpusError, ManyErrors, RSTKitError
from ..folders import not_regular
from ..formats import doc_id_from_path, get_format
from ..tree import RSTTree
from .files import list_files, read_files, report_failures
from .kinds import Result, recognise_corpus, split_corpus


@overload
def read_documents(path: str | Path, format: str | None = None, *, lenient: bool = False,
                   skip_errors: bool = False, errors: list[RSTKitError] | None = None,
                   jobs: int | None = None, worker_result: None = None, split: str | None = None,
                   **options) -> dict[str, RSTTree]: ...
@overload
def read_documents(path: str | Path, format: str | None = None, *, lenient: bool = False,
                   skip_errors: bool = False, errors: list[RSTKitError] | None = None,
                   jobs: int | None = None, worker_result: Callable[[RSTTree], Result],
                   split: str | None = None, **options) -> dict[str, RSTTree | Result]: ...
def read_documents(path: str | Path, format: str | None = None, *, lenient: bool = False,
                   skip_errors: bool = False, errors: list[RSTKitError] | None = None,
                   jobs: int | None = None, worker_result: Callable[[RSTTree], Any] | None = None,
                   split: str | None = None, **options) -> dict[str, Any]:
    """Read a file or a directory into ``{doc_id: tree}``, sorted by document id; with ``split``, the
    documents of that split of a corpus directory (:func:`~rstkit.corpus.kinds.split_corpus`: a GUM
    checkout, an RST-DT release, a directory with ``splits.tsv``; ``format`` is then a GUM checkout's form
    or the directory's format), as a directory holding just them is read.

    Every unreadable file, and every entry of a folder that cannot be listed or read (a folder
    without permission, a link cycle, a FIFO: :func:`rstkit.folders.walk_files`), is reported: by
    default a :class:`ManyErrors` listing all of them is raised (folder entries before anything is
    read, files after reading the rest); with ``skip_errors`` they are appended to
    ``errors`` (when given) and the readable documents are returned. ``jobs``: processes that
    read the files (default: 1 for fewer than 200 files or with one usable core, or without
    ``worker_result`` with up to 2, else every usable core); nothing read, warned or raised depends on
    it, except that with ``worker_result`` (a picklable function of a tree whose result has the tree's
    ``doc_id``) worker processes send back ``worker_result(tree)`` instead of each tree.

    >>> gold = read_documents("corpora/sample/gold")
    >>> list(gold)
    ['sample_bread', 'sample_harbour', 'sample_library', 'sample_note']
    """
    path = Path(path)
    if not path.exists():
        raise CorpusError("no such file or directory", str(path))
    if split is not None:
        chosen = split_corpus(path, split, format).documents(split, lenient=lenient, skip_errors=skip_errors,
                                                              errors=errors, jobs=jobs, worker_result=worker_result,
                                                              **options)
        return dict(sorted(chosen.items()))
    known = recognise_corpus(path) if path.is_dir() and not format else None
    if known is not None:
        return known.documents(lenient=lenient, skip_errors=skip_errors, errors=errors, jobs=jobs,
                               worker_result=worker_result)
    companions = [options["doc_map"]] if options.get("doc_map") else []  # a doc map beside the files is not one
    failures: list[RSTKitError] = []
    files = (list_files(path, format, exclude=companions, skip_errors=skip_errors, errors=failures) if path.is_dir()
             else [path])
    if path.is_dir() and not files:
        raise CorpusError("no documents found" + (f" in format {format!r}" if format else ""), str(path))
    doc_id = get_format(format).doc_id if format else doc_id_from_path
    documents: dict[str, Any] = {}
    origin: dict[str, str] = {}
    for file, trees in zip(files, read_files(files, format, lenient, jobs, worker_result=worker_result, **options)):
        if isinstance(trees, ManyErrors):
            failures.extend(trees.errors)
            continue
        if isinstance(trees, RSTKitError):
            failures.append(trees)
            continue
        for tree in trees:
            name = tree.doc_id or doc_id(file)
            if name in documents:
                failures.append(CorpusError(f"document id {name!r} also read from {origin[name]}", str(file)))
                continue
            documents[name] = tree
            origin[name] = str(file)
    report_failures(failures, skip_errors, errors, skippable=path.is_dir())
    return dict(sorted(documents.items()))


def check_input(path: str | os.PathLike, file: bool = False) -> None:
    """Raise a CorpusError now if ``path`` is missing, cannot be read (a directory: listed), is
    neither a regular file nor a directory (a FIFO, a device: said so) or, with ``file``, is not
    a regular file."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise CorpusError("no such file" + ("" if file else " or directory"), str(path))
    if not path.is_file() and (file or not path.is_dir()):
        raise not_regular(path)
    if not os.access(path, os.R_OK | (os.X_OK if path.is_dir() else 0)):
        raise CorpusError(f"cannot read {'directory' if path.is_dir() else 'file'}: permission denied", str(path))


def input_format(path: str | os.PathLike, fmt: str | None, notes: list[str] | None = None) -> str | None:
    """``fmt``, or for ``"auto"`` the format detected from ``path`` (noted in ``notes``)."""
    if fmt != "auto":
        return fmt
    from ..formats.detect import detect_format

    fmt = detect_format(Path(path))
    if notes is not None:
        notes.append(f"{path}: detected format {fmt!r}")
    return fmt


@overload
def read_input(path: str | os.PathLike, format: str | None = None, *, lenient: bool = False, skip_errors: bool = False,
               notes: list[str] | None = None, jobs: int | None = None, worker_result: None = None,
               split: str | None = None, **options) -> dict[str, RSTTree]: ...
@overload
def read_input(path: str | os.PathLike, format: str | None = None, *, lenient: bool = False, skip_errors: bool = False,
               notes: list[str] | None = None, jobs: int | None = None, worker_result: Callable[[RSTTree], Result],
               split: str | None = None, **options) -> dict[str, RSTTree | Result]: ...
def read_input(path: str | os.PathLike, format: str | None = None, *, lenient: bool = False, skip_errors: bool = False,
               notes: list[str] | None = None, jobs: int | None = None,
               worker_result: Callable[[RSTTree], Any] | None = None, split: str | None = None,
               **options) -> dict[str, Any]:
    """The documents of a file or directory as the command line reads an input: the path (and a
    ``doc_map`` option) checked first, ``format="auto"`` detected (noted in ``notes``), unreadable
    documents left out and noted with ``skip_errors``; otherwise :func:`read_documents` (``worker_result``
    and ``split`` as there; ."""
    check_input(path)
    if options.get("doc_map"):
        check_input(options["doc_map"], file=True)
    format = input_format(path, format, notes)
    errors: list[RSTKitError] = []
    documents = read_documents(Path(path), format, lenient=lenient, skip_errors=skip_errors, errors=errors, jobs=jobs,
                               worker_result=worker_result, split=split, **options)
    if notes is not None:
        notes.extend(f"skipped unreadable document: {e}" for e in errors)
    return documents
