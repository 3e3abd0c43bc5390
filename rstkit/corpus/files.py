"""Files of trees: one file (format from ``format=`` or the file's name), the files of one
format in a directory (through :func:`rstkit.folders.walk_files`: linked folders followed,
unreadable entries reported, never dropped), and many files read at once (:func:`read_files`,
in worker processes with ``jobs`` > 1 (:mod:`.workers`), which may send back something smaller
than each tree)."""
from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..cores import usable_cores
from ..errors import CorpusError, FormatError, ManyErrors, RSTKitError, RSTKitWarning, caller_stacklevel, detached
from ..folders import not_regular, walk_files
from ..formats import Format, as_path, get_format, named_formats, read_text_utf8
from ..formats.detect import describe_groups, sniffed
from ..gcpause import bulk_work
from ..progress import Progress
from ..tree import RSTTree
from .workers import in_processes


def format_for_path(path: str | Path) -> Format:
    """The registered format whose extension ``path`` has."""
    name = path.name if isinstance(path, Path) else Path(path).name
    for fmt in named_formats():
        if fmt.claims(name):
            return fmt
    raise CorpusError("cannot tell the file's format from its name; name the format", str(path),
                      fixes=("format",))


def read_file(path: str | Path, format: str | None = None, *, lenient: bool = False, **options) -> list[RSTTree]:
    """All trees in one file (one for most formats, several for multi-document formats).

    >>> [tree.doc_id for tree in read_file("corpora/sample/gold/sample_bread.dis")]
    ['sample_bread']
    """
    path = as_path(path)
    fmt = get_format(format) if format else format_for_path(path)
    if not path.is_file():
        raise not_regular(path)
    options = {name: value for name, value in options.items() if value is not None}
    unknown = sorted(set(options) - set(fmt.options))
    if unknown:
        raise FormatError(f"format {fmt.key!r} takes no option {', '.join(unknown)}", str(path))
    return fmt.read(path, lenient=lenient, **options)


def read_tree(path: str | Path, format: str | None = None, *, lenient: bool = False, **options) -> RSTTree:
    """The one tree in a single-document file.

    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> tree.doc_id, tree.n_edus
    ('sample_bread', 6)
    """
    trees = read_file(path, format, lenient=lenient, **options)
    if len(trees) != 1:
        raise CorpusError(f"expected one document, found {len(trees)}", str(path))
    return trees[0]


def walk_input(directory: str | Path, *, skip_errors: bool = False, errors: list[RSTKitError] | None = None,
               recursive: bool = True) -> list[Path]:
    """Every regular file under ``directory`` (:func:`rstkit.folders.walk_files`); the entries it
    cannot list or read (an unreadable folder, a link cycle, a FIFO) are an error, or with
    ``skip_errors`` left out and handed to ``errors`` (for the caller to list)."""
    listing = walk_files(directory, recursive=recursive)
    report_failures(listing.problems, skip_errors, errors)
    return listing.files


def list_files(directory: str | Path, format: str | None = None, exclude: Iterable[str | Path] = (), *,
               skip_errors: bool = False, errors: list[RSTKitError] | None = None) -> list[Path]:
    """The files of one format under ``directory`` (recursively, hidden ones left out, linked
    folders followed), sorted; an entry that cannot be listed or read is an error, or with
    ``skip_errors`` handed to ``errors`` (:func:`walk_input`).

    Without ``format``, files are chosen by name and the directory must hold a single
    format. With ``format``, the files named like that format are read (``*.tree`` for
    ``feng``); when none is, every file whose content fits the format is (DMRST strings saved
    as ``*.txt``), with an :class:`RSTKitWarning` naming them and the files left out. Files of
    another format are then an error naming both formats.
    """
    directory = Path(directory)
    excluded = {Path(p).resolve() for p in exclude}
    files = walk_input(directory, skip_errors=skip_errors, errors=errors)
    if excluded:
        files = [p for p in files if p.resolve() not in excluded]
    if format:
        return _files_of_format(directory, files, get_format(format))
    by_format: dict[str, list[Path]] = {}
    for p in files:
        try:
            by_format.setdefault(format_for_path(p).key, []).append(p)
        except CorpusError:
            continue
    if len(by_format) > 1:
        found = {p: {key} for key, paths in by_format.items() for p in paths}
        raise CorpusError(f"directory holds files of several formats ({describe_groups(found)}); name the one "
                          "to read", str(directory), fixes=("format",))
    return next(iter(by_format.values()), [])


def _files_of_format(directory: Path, files: list[Path], fmt: Format) -> list[Path]:
    """Files named like ``fmt``; if there are none, every file (noted), unless some look like
    another format: then the directory mixes formats, an error naming both. A file that fits no
    known format is read too, so that the reader says what is wrong with it."""
    named = [p for p in files if fmt.claims(p.name)]
    if named:
        return named
    chosen: list[Path] = []
    others: dict[Path, set[str]] = {}
    unknown: list[Path] = []
    for p in files:
        keys = sniffed(p)
        if fmt.key in keys or p.stat().st_size == 0:  # an empty file is for the format's reader to judge
            chosen.append(p)
        elif keys:
            others[p] = keys
        else:
            unknown.append(p)
    if others and chosen:
        found = {**{p: {fmt.key} for p in chosen}, **others}
        raise CorpusError(f"directory holds files of two formats ({describe_groups(found)}); put each format in "
                          "its own directory", str(directory))
    if others:
        raise CorpusError(f"no file is in format {fmt.key!r}: the files look like another format "
                          f"({describe_groups(others)})", str(directory))
    every = sorted(chosen + unknown)
    if every:
        note = (f"no file is named as {fmt.key} files are: read all {len(every)} as {fmt.key}: "
                f"{_names(every, directory)}")
        if unknown:
            note += f" ({len(unknown)} fit no known format: {_names(unknown, directory)})"
        warnings.warn(f"{directory}: {note}", RSTKitWarning, stacklevel=caller_stacklevel())
    return every


def _names(paths: list[Path], directory: Path, shown: int = 10) -> str:
    names = [str(p.relative_to(directory)) for p in paths]
    return ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")


def report_failures(failures: Sequence[RSTKitError], skip_errors: bool, errors: list[RSTKitError] | None, *,
                    skippable: bool = True) -> None:
    """Hand the failures of a multi-file read to ``errors``; raise them unless ``skip_errors``, each
    naming ``skip_errors`` as its fix where the read could leave it out (``skippable``: a document
    of a folder or a corpus, not the one file asked for)."""
    if not failures:
        return
    if errors is not None:
        errors.extend(failures)
    if not skip_errors:
        if skippable:
            for each in failures:
                each.fixes = tuple(dict.fromkeys([*each.fixes, "skip_errors"]))
        raise failures[0] if len(failures) == 1 else ManyErrors(list(failures))


#: below this many files, ``jobs=None`` reads in this process (a pool costs more than it saves)
SMALL_INPUT = 200
#: with this many usable cores or fewer, ``jobs=None`` reads trees in this process: on 2 cores a pool
#: was slower at every size measured (4,000 and 20,000 files; benchmarks/README.md), since the trees
#: sent back cost the parent about as much to unpickle as to read. What a ``worker_result`` function
#: makes of them is meant to be small, without that cost.
FEW_CORES = 2


def resolve_jobs(jobs: int | None, n_files: int, *, small_results: bool = False) -> int:
    """The number of processes to read ``n_files`` with: ``jobs`` (an integer >= 1), or for None,
    1 under :data:`SMALL_INPUT` files, with one usable core, or (unless the workers send back
    something smaller than trees: ``small_results``) with :data:`FEW_CORES` usable cores or fewer;
    the number of usable cores otherwise."""
    if jobs is None:
        cores = usable_cores()
        return 1 if n_files < SMALL_INPUT or cores <= (1 if small_results else FEW_CORES) else cores
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise RSTKitError(f"jobs must be an integer >= 1, not {jobs!r}")
    return jobs


Outcome = tuple[list[Any] | RSTKitError, list[tuple[str, type[Warning]]]]


def read_files(files: Sequence[Path], format: str | None = None, lenient: bool = False, jobs: int | None = None,
               *, single: bool = False, worker_result: Callable[[RSTTree], Any] | None = None,
               **options) -> list[list[Any] | RSTKitError]:
    """Per file, in order: its trees, or the RSTKitError reading it raised (``single``: each file holds
    one document, :func:`read_tree`). With ``jobs`` > 1 (see :func:`resolve_jobs`) the files are read
    in worker processes, which send back ``worker_result(tree)`` instead of each tree when that
    picklable function is given (trees are costly to send; read in this process, trees are returned
    as they are); where it also has ``text_formats`` and ``from_texts(paths, texts, encoded)`` (as
    :class:`rstkit.metrics.prepared.Preparer` has), the files of those formats are first given to it with
    their texts, a worker's files at once, and what it makes of them is sent back (None: a file it
    declines, read as usual). The outcome, and the warnings (re-emitted here in file order), are otherwise the
    same whatever ``jobs`` is."""
    workers = min(resolve_jobs(jobs, len(files), small_results=worker_result is not None), len(files))
    worker_result = worker_result if workers > 1 else None
    paths = list(map(as_path, files))
    with bulk_work():
        if workers <= 1:
            with Progress(len(paths), "read", "file") as bar:
                return [_replayed(_counted(_read_one((path, format, lenient, single, None, options)), bar))
                        for path in paths]
        size = max(1, len(paths) // (16 * workers))
        tasks = [(paths[start:start + size], format, lenient, single, worker_result, options)
                 for start in range(0, len(paths), size)]
        with Progress(len(paths), "read", "file") as bar:  # in file order, as the workers finish them
            outcomes = [_counted(outcome, bar) for outcomes in in_processes(_read_some, tasks, workers)
                        for outcome in outcomes]
        return [_replayed(outcome) for outcome in outcomes]


def _counted(outcome: Outcome, bar: Progress) -> Outcome:
    bar.update()
    return outcome


def _read_some(task: tuple[list[Path], str | None, bool, bool, Callable[[RSTTree], Any] | None, dict]
               ) -> list[Outcome]:
    """Each file's outcome (:func:`_read_one`); where ``worker_result`` has ``from_texts``, its results
    for the files of its ``text_formats`` first, made from their texts at once (a file it declines, and
    every file when reading the texts warned, is read as usual)."""
    paths, format, lenient, single, worker_result, options = task
    direct = _from_texts(paths, format, worker_result, options) if not lenient else {}
    return [([direct[i]], []) if i in direct else _read_one((path, format, lenient, single, worker_result, options))
            for i, path in enumerate(paths)]


def _from_texts(paths: list[Path], format: str | None, worker_result: Any, options: dict) -> dict[int, Any]:
    """``worker_result.from_texts``' results by file index, for the files of one of its ``text_formats``
    that it does not decline (none when it has no such method or formats)."""
    formats: frozenset[str] = getattr(worker_result, "text_formats", frozenset())
    if not formats or {name for name, value in options.items() if value is not None} - {"encoding"}:
        return {}
    chosen: list[int] = []
    texts: list[str] = []
    encoded: list[bytes] = []  # each text's UTF-8 (the file's own bytes where it is UTF-8)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i, path in enumerate(paths):
            try:
                fmt = get_format(format) if format else format_for_path(path)
                if fmt.key in formats and path.is_file():
                    text, utf8 = read_text_utf8(path, encoding=options.get("encoding"))
                    texts.append(text)
                    encoded.append(utf8)
                    chosen.append(i)
            except (RSTKitError, OSError):
                continue
    if caught or not chosen:
        return {}
    results = worker_result.from_texts([paths[i] for i in chosen], texts, encoded)
    return {i: result for i, result in zip(chosen, results) if result is not None}


def _read_one(task: tuple[Path, str | None, bool, bool, Callable[[RSTTree], Any] | None, dict]) -> Outcome:
    """One file's trees (or what ``worker_result`` makes of each) or error, with the warnings reading it
    raised (message, category)."""
    path, format, lenient, single, worker_result, options = task
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            trees: list[Any] | RSTKitError = ([read_tree(path, format, lenient=lenient, **options)] if single
                                              else read_file(path, format, lenient=lenient, **options))
        except RSTKitError as exc:
            trees = detached(exc)
        if worker_result is not None and not isinstance(trees, RSTKitError):
            trees = list(map(worker_result, trees))
    return trees, [(str(w.message), w.category) for w in caught]


def _replayed(outcome: Outcome) -> list[Any] | RSTKitError:
    trees, caught = outcome
    for message, category in caught:
        warnings.warn(message, category, stacklevel=caller_stacklevel())
    return trees
