"""Document maps for formats whose files do not name their documents (``--doc-map FILE``).

A map file is either a two-column TSV, ``native name<TAB>document id`` per line, or a
plain list of document ids, one per line, in the format's file order (Braud COLING:
the index ``k`` of ``k.mrg.pred``; Braud EACL and other one-line-per-document files: the
line order). Blank lines and ``#`` comments are skipped. Ids lose RST-DT's ``.out`` (and a
``.dis``) so that they match rstkit's document ids.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import FormatError, MissingDocumentError, RSTKitWarning, printable
from . import doc_id_from_path, read_text, split_lines


@dataclass(frozen=True)
class DocMap:
    """Document ids in file order (``ids``) and, for a two-column map, by native name."""

    ids: tuple[str, ...]
    by_name: Mapping[str, str] | None = None
    source: str = "<doc map>"

    def resolve(self, names: Sequence[str], position: int | None, what: str) -> str:
        """Id of one document: by any of its native ``names`` in a two-column map, else by
        its 0-based ``position`` in file order; ``what`` names the document in errors."""
        if self.by_name is not None:
            for name in names:
                if name in self.by_name:
                    return self.by_name[name]
            raise FormatError(f"{what} is not in the document map (looked up: {', '.join(names)})", self.source)
        if position is None or not 0 <= position < len(self.ids):
            raise FormatError(f"document map lists {len(self.ids)} documents; none for {what}", self.source)
        return self.ids[position]


DocMapSpec = DocMap | str | Path | Sequence[str] | Mapping[str, str]


def load_doc_map(spec: DocMapSpec, builtin: Mapping[str, Callable[[], DocMap]] | None = None) -> DocMap:
    """A :class:`DocMap` from a file path, a list of ids, a ``{native name: id}`` dict, or
    the name of a map the format ships (``builtin``, e.g. ``rstdt-test``)."""
    if isinstance(spec, DocMap):
        return spec
    if isinstance(spec, Mapping):
        by_name = {str(k): _clean(str(v)) for k, v in spec.items()}
        return DocMap(tuple(by_name.values()), by_name, "<doc map>")
    if isinstance(spec, (str, Path)):
        if builtin and str(spec) in builtin:
            return builtin[str(spec)]()
        return _read_map_file(Path(spec))
    ids = tuple(_clean(str(i)) for i in spec)
    _check_unique(ids, "<doc map>", [None] * len(ids))
    return DocMap(ids, None, "<doc map>")


def ids_in_line_order(doc_map: DocMap, line_numbers: Sequence[int], fmt: str, source: str,
                      lenient: bool = False) -> list[str]:
    """Ids of the documents on ``line_numbers`` of a one-document-per-line file (by line
    number in a two-column map, else by position). Documents of the map without a line
    are reported by id: an error, or with ``lenient`` a warning."""
    ids = [doc_map.resolve((str(n),), i, f"line {n}") for i, n in enumerate(line_numbers)]
    missing = [d for d in doc_map.ids if d not in set(ids)]
    if missing:
        message = (f"{fmt} file has {len(ids)} trees but the document map lists {len(doc_map.ids)} documents; "
                   f"no tree for: {', '.join(missing)}")
        if not lenient:
            raise MissingDocumentError(message, source)
        warnings.warn(f"{source}: {message} (skipped, lenient)", RSTKitWarning, stacklevel=3)
    return ids


def warn_unnamed(fmt: str, fallback: str) -> None:
    """Warn that documents of ``fmt`` get placeholder ids because no map was given."""
    warnings.warn(f"{fmt} files do not name their documents and no document map was given: ids are "
                  f"{fallback}, which match no corpus (give a document map: doc_map)", RSTKitWarning, stacklevel=3)


def _clean(doc_id: str) -> str:
    return doc_id_from_path(doc_id.strip())


def _read_map_file(path: Path) -> DocMap:
    source = str(path)
    if not path.is_file():
        raise FormatError("document map file not found", source)
    rows: list[tuple[int, list[str]]] = []
    for number, line in enumerate(split_lines(read_text(path)), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            rows.append((number, [field.strip() for field in line.rstrip("\r\n").split("\t")]))
    if not rows:
        raise FormatError("document map is empty", source)
    width = len(rows[0][1])
    for number, fields in rows:
        if len(fields) != width or width not in (1, 2) or not all(fields):
            raise FormatError("document map lines must all be 'native name<TAB>document id' or all "
                              "'document id'", source, number)
        if width == 1 and len(fields[0].split()) != 1:
            raise FormatError("a document id cannot contain spaces (separate two columns with a TAB)",
                              source, number)
    lines = [number for number, _ in rows]
    ids = tuple(_clean(fields[-1]) for _, fields in rows)
    _check_unique(ids, source, lines)
    if width == 1:
        return DocMap(ids, None, source)
    names = [fields[0] for _, fields in rows]
    _check_unique(tuple(names), source, lines)
    return DocMap(ids, dict(zip(names, ids)), source)


def _check_unique(values: tuple[str, ...], source: str, lines: Sequence[int | None]) -> None:
    seen: set[str] = set()
    for value, line in zip(values, lines):
        if value in seen:
            raise FormatError(f"document map names '{printable(value)}' twice", source, line)
        seen.add(value)
