"""DISRPT segmentation files (``.tok``/``.conllu``, :mod:`rstkit.formats.disrpt`) read as an evaluation
reads them: the documents of several sources (a file, or a directory of them) at once, in processes.

Each source's documents come by ``# newdoc id`` (an id in two files of one source is an error naming
both), each made by the source's ``worker_result`` where it was read (what scoring needs of it is smaller than the
document; :func:`rstkit.metrics.segmentation.prepare_disrpt`), or the first error, in file order,
reading or making one gave. The outcome does not depend on the number of processes.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from ..cores import usable_cores
from ..errors import CorpusError, RSTKitError, detached
from ..formats.disrpt import DisrptDocument, list_disrpt, read_disrpt_documents
from .files import resolve_jobs
from .workers import in_processes

#: what ``worker_result`` makes of a DISRPT document
Made = TypeVar("Made")

#: with ``jobs=None``, DISRPT files are read in several processes from this many bytes in all: below it,
#: starting the processes costs more than they save
PARALLEL_BYTES = 4 << 20

#: one source's documents by id, or the error reading it gave, or None for a source given as None
SegmentationSet = dict[str, Made] | RSTKitError | None
FileOutcome = list[tuple[str, Made | RSTKitError]] | RSTKitError


def read_segmentation_sets(sources: Sequence[tuple[str | os.PathLike[str], Callable[[DisrptDocument], Made]] | None],
                           *, encoding: str | None = None, jobs: int | None = None) -> list[SegmentationSet[Made]]:
    """Each source's documents, each as the source's ``worker_result`` makes it (sources are ``(path,
    worker_result)``; None for a source given as None), or the error reading the source gives (the first, in
    its files' order): every file of every source read at once, in ``jobs`` processes (None: one per usable
    core, at most one per file, where the files hold :data:`PARALLEL_BYTES` or more; else one; the
    ``worker_result`` functions are then picklable), so that a gold file and a prediction are read side by
    side. A ``worker_result`` may raise an RSTKitError, the document's error."""
    listed: list[list[Path] | RSTKitError | None] = []
    for source in sources:
        try:
            listed.append(None if source is None else list_disrpt(source[0]))
        except RSTKitError as error:
            listed.append(error)
    tasks = [(file, source[1], encoding) for source, files in zip(sources, listed)
             if source is not None and isinstance(files, list) for file in files]
    workers = min(_workers(jobs, [file for file, _, _ in tasks]), len(tasks))
    outcomes = iter(in_processes(_read_file, tasks, workers) if workers > 1 else map(_read_file, tasks))
    sets: list[SegmentationSet[Made]] = []
    for files in listed:
        if not isinstance(files, list):
            sets.append(files)
            continue
        sets.append(_merged(files, [next(outcomes) for _ in files]))
    return sets


def _workers(jobs: int | None, files: list[Path]) -> int:
    if jobs is not None:
        return resolve_jobs(jobs, len(files))
    if usable_cores() < 2 or sum(_size(file) for file in files) < PARALLEL_BYTES:
        return 1
    return usable_cores()


def _size(file: Path) -> int:
    try:
        return file.stat().st_size
    except OSError:  # reading it gives the error
        return 0


def _read_file(task: tuple[Path, Callable[[DisrptDocument], Made], str | None]) -> FileOutcome[Made]:
    """One DISRPT file's documents, each made by ``worker_result`` (or the error making it gave), or the
    error reading the file."""
    file, worker_result, encoding = task
    try:
        documents = read_disrpt_documents(file, encoding=encoding)
    except RSTKitError as error:
        return detached(error)
    made: list[tuple[str, Made | RSTKitError]] = []
    for document in documents:
        try:
            made.append((document.doc_id, worker_result(document)))
        except RSTKitError as error:
            made.append((document.doc_id, detached(error)))
    return made


def _merged(files: list[Path], outcomes: list[FileOutcome[Made]]) -> dict[str, Made] | RSTKitError:
    """One source's documents from its files' outcomes, or the first error, as reading the files one
    after the other gives it (a document id in two files is an error naming both)."""
    documents: dict[str, Made] = {}
    where: dict[str, Path] = {}
    for file, outcome in zip(files, outcomes):
        if isinstance(outcome, RSTKitError):
            return outcome
        for doc_id, document in outcome:
            if doc_id in documents:
                return CorpusError(f"document id {doc_id!r} is in {where[doc_id]} and in {file}", str(file))
            if isinstance(document, RSTKitError):
                return document
            documents[doc_id], where[doc_id] = document, file
    return documents
