"""Documents from a file or a directory, whatever its layout: ``{doc_id: tree}``."""
from __future__ import annotations

from pathlib import Path

from ..errors import CorpusError, ManyErrors, RSTKitError
from ..formats import doc_id_from_path, get_format
from ..tree import RSTTree
from .files import list_files, read_file, report_failures
from .kinds import recognise_corpus


def read_documents(path: str | Path, format: str | None = None, *, lenient: bool = False,
                   skip_errors: bool = False, errors: list[RSTKitError] | None = None,
                   **options) -> dict[str, RSTTree]:
    """Read a file or a directory into ``{doc_id: tree}``, sorted by document id.

    Every unreadable file is reported: by default a :class:`ManyErrors` listing all of
    them is raised after reading the rest; with ``skip_errors`` they are appended to
    ``errors`` (when given) and the readable documents are returned.

    >>> gold = read_documents("corpora/sample/gold")
    >>> list(gold)
    ['sample_bread', 'sample_harbour', 'sample_library', 'sample_note']
    """
    path = Path(path)
    if not path.exists():
        raise CorpusError("no such file or directory", str(path))
    known = recognise_corpus(path) if path.is_dir() and not format else None
    if known is not None:
        return known.documents(lenient=lenient, skip_errors=skip_errors, errors=errors)
    companions = [options["doc_map"]] if options.get("doc_map") else []  # a doc map beside the files is not one
    files = list_files(path, format, exclude=companions) if path.is_dir() else [path]
    if path.is_dir() and not files:
        raise CorpusError("no documents found" + (f" in format {format!r}" if format else ""), str(path))
    doc_id = get_format(format).doc_id if format else doc_id_from_path
    documents: dict[str, RSTTree] = {}
    origin: dict[str, str] = {}
    failures: list[RSTKitError] = []
    for file in files:
        try:
            trees = read_file(file, format, lenient=lenient, **options)
        except ManyErrors as exc:
            failures.extend(exc.errors)
            continue
        except RSTKitError as exc:
            failures.append(exc)
            continue
        for tree in trees:
            name = tree.doc_id or doc_id(file)
            if name in documents:
                failures.append(CorpusError(f"document id {name!r} also read from {origin[name]}", str(file)))
                continue
            documents[name] = tree
            origin[name] = str(file)
    report_failures(failures, skip_errors, errors)
    return dict(sorted(documents.items()))
