"""Reading documents and corpora: single files, directories, RST-DT and GUM layouts.

Document ids are stable and format-independent: ``wsj_0600.out.dis`` -> ``wsj_0600``,
``GUM_news_iodine.rs4`` -> ``GUM_news_iodine``.

* :func:`read_tree` / :func:`read_file` read one file (format from ``format=`` or the
  file extension).
* :func:`read_documents` reads a file or a whole directory into ``{doc_id: tree}``,
  reporting every bad file at once (:class:`~rstkit.errors.ManyErrors`).
* :func:`open_corpus` recognises a GUM checkout (``splits.md`` + ``lisp_nary/``), an
  RST-DT release (``RSTtrees-WSJ-main-1.0`` with ``TRAINING``/``TEST``) or a plain
  directory (optionally with a ``splits.tsv`` of ``doc_id<TAB>split`` lines), and gives
  documents by split.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from .errors import CorpusError, FormatError, ManyErrors, RSTKitError, RSTKitWarning
from .formats import Format, all_formats, doc_id_from_path, get_format, read_text, split_lines
from .formats.detect import describe_groups, regular_files, sniffed
from .tree import RSTTree


def format_for_path(path: str | Path) -> Format:
    """The registered format whose extension ``path`` has."""
    name = Path(path).name
    for fmt in all_formats().values():
        if fmt.by_name and fmt.claims(name):
            return fmt
    raise CorpusError("cannot tell the file's format from its name; name the format", str(path),
                      fixes=("format",))


def read_file(path: str | Path, format: str | None = None, lenient: bool = False, **options) -> list[RSTTree]:
    """All trees in one file (one for most formats, several for multi-document formats)."""
    fmt = get_format(format) if format else format_for_path(path)
    if not Path(path).is_file():
        raise CorpusError("no such file", str(path))
    options = {name: value for name, value in options.items() if value is not None}
    unknown = sorted(set(options) - set(fmt.options))
    if unknown:
        raise FormatError(f"format {fmt.key!r} takes no option {', '.join(unknown)}", str(path))
    return fmt.read(Path(path), lenient=lenient, **options)


def read_tree(path: str | Path, format: str | None = None, lenient: bool = False, **options) -> RSTTree:
    """The one tree in a single-document file."""
    trees = read_file(path, format, lenient, **options)
    if len(trees) != 1:
        raise CorpusError(f"expected one document, found {len(trees)}", str(path))
    return trees[0]


def list_files(directory: str | Path, format: str | None = None) -> list[Path]:
    """The files of one format under ``directory`` (recursively, hidden ones left out), sorted.

    Without ``format``, files are chosen by name and the directory must hold a single
    format. With ``format``, the files named like that format are read (``*.tree`` for
    ``feng``); when none is, every file whose content fits the format is (DMRST strings saved
    as ``*.txt``), with an :class:`RSTKitWarning` naming them and the files left out. Files of
    another format are then an error naming both formats.
    """
    directory = Path(directory)
    files = regular_files(directory)
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
    """Files named like ``fmt``; if there are none, the files whose content fits it (noted)."""
    named = [p for p in files if fmt.claims(p.name)]
    if named:
        return named
    chosen: list[Path] = []
    others: dict[Path, set[str]] = {}
    skipped: list[Path] = []
    for p in files:
        keys = sniffed(p)
        if fmt.key in keys or p.stat().st_size == 0:  # an empty file is for the format's reader to judge
            chosen.append(p)
        elif keys:
            others[p] = keys
        else:
            skipped.append(p)
    if others and chosen:
        found = {**{p: {fmt.key} for p in chosen}, **others}
        raise CorpusError(f"directory holds files of two formats ({describe_groups(found)}); put each format in "
                          "its own directory", str(directory))
    if others:
        raise CorpusError(f"no file is in format {fmt.key!r}: the files look like another format "
                          f"({describe_groups(others)})", str(directory))
    if chosen:
        note = f"read {len(chosen)} file(s) as {fmt.key} by their content: {_names(chosen, directory)}"
        if skipped:
            note += f"; left out {len(skipped)} that fit no format: {_names(skipped, directory)}"
        warnings.warn(f"{directory}: {note}", RSTKitWarning, stacklevel=3)
    return chosen


def _names(paths: list[Path], directory: Path, shown: int = 10) -> str:
    names = [str(p.relative_to(directory)) for p in paths]
    return ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")


def read_documents(path: str | Path, format: str | None = None, lenient: bool = False,
                   skip_errors: bool = False, errors: list[RSTKitError] | None = None,
                   **options) -> dict[str, RSTTree]:
    """Read a file or a directory into ``{doc_id: tree}``, sorted by document id.

    Every unreadable file is reported: by default a :class:`ManyErrors` listing all of
    them is raised after reading the rest; with ``skip_errors`` they are appended to
    ``errors`` (when given) and the readable documents are returned.
    """
    path = Path(path)
    if not path.exists():
        raise CorpusError("no such file or directory", str(path))
    known = recognise_corpus(path) if path.is_dir() and not format else None
    if known is not None:
        return known.documents(lenient=lenient, skip_errors=skip_errors, errors=errors)
    files = list_files(path, format) if path.is_dir() else [path]
    if path.is_dir() and not files:
        raise CorpusError("no documents found" + (f" in format {format!r}" if format else ""), str(path))
    doc_id = get_format(format).doc_id if format else doc_id_from_path
    documents: dict[str, RSTTree] = {}
    origin: dict[str, str] = {}
    failures: list[RSTKitError] = []
    for file in files:
        try:
            trees = read_file(file, format, lenient, **options)
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
    _report(failures, skip_errors, errors)
    return dict(sorted(documents.items()))


def _report(failures: list[RSTKitError], skip_errors: bool, errors: list[RSTKitError] | None) -> None:
    """Hand the failures of a multi-file read to ``errors``; raise them unless ``skip_errors``."""
    if not failures:
        return
    if errors is not None:
        errors.extend(failures)
    if not skip_errors:
        raise failures[0] if len(failures) == 1 else ManyErrors(failures)


# -- corpora with splits --------------------------------------------------------------
def _manifest(name: str) -> list[str]:
    text = resources.files("rstkit.data").joinpath("splits", name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def rstdt_test_ids() -> list[str]:
    """The 38 documents of RST-DT's TEST directory."""
    return _manifest("rstdt_test.txt")


def rstdt_dev_ids() -> list[str]:
    """The 35 TRAINING documents used as a validation set by several parsers and DiscoEval."""
    return _manifest("rstdt_dev.txt")


@dataclass
class Corpus:
    """A set of documents (files of one format under ``root``) with named splits."""

    name: str
    root: Path
    files: dict[str, Path]
    split_ids: dict[str, list[str]] = field(default_factory=dict)
    format: str | None = None

    def splits(self) -> list[str]:
        return list(self.split_ids)

    def doc_ids(self, split: str | None = None) -> list[str]:
        if split is None:
            return sorted(self.files)
        try:
            ids = self.split_ids[split]
        except KeyError:
            raise CorpusError(f"corpus {self.name} has no split {split!r}; splits: "
                              f"{', '.join(self.split_ids) or 'none'}", str(self.root)) from None
        missing = [d for d in ids if d not in self.files]
        if missing:
            raise CorpusError(f"split {split!r} names documents with no file: {', '.join(missing[:10])}"
                              + (" ..." if len(missing) > 10 else ""), str(self.root))
        return list(ids)

    def path(self, doc_id: str) -> Path:
        try:
            return self.files[doc_id]
        except KeyError:
            raise CorpusError(f"no document {doc_id!r} in corpus {self.name}", str(self.root)) from None

    def documents(self, split: str | None = None, lenient: bool = False, skip_errors: bool = False,
                  errors: list[RSTKitError] | None = None) -> dict[str, RSTTree]:
        """``{doc_id: tree}`` of a split (all documents when ``split`` is None)."""
        failures: list[RSTKitError] = []
        result: dict[str, RSTTree] = {}
        for doc_id in self.doc_ids(split):
            try:
                tree = read_tree(self.files[doc_id], self.format, lenient)
            except RSTKitError as exc:
                failures.append(exc)
                continue
            result[doc_id] = tree if tree.doc_id == doc_id else _with_id(tree, doc_id)
        _report(failures, skip_errors, errors)
        return result


def _with_id(tree: RSTTree, doc_id: str) -> RSTTree:
    return replace(tree, doc_id=doc_id)


def _index(files: list[Path], fmt: Format | None = None) -> dict[str, Path]:
    """``{document id: file}``; an id given by two files is an error."""
    index: dict[str, Path] = {}
    for f in files:
        doc_id = fmt.doc_id(f) if fmt else doc_id_from_path(f)
        if doc_id in index:
            raise CorpusError(f"document id {doc_id!r} appears twice ({index[doc_id]})", str(f))
        index[doc_id] = f
    return index


#: folders of a GUM checkout's rst/ directory, by the form of the trees they hold
GUM_FORMS = {"dis": ("lisp_nary", "dis"), "binary": ("lisp_binary", "dis"),
             "rs4": ("rstweb", "rs4"), "rsd": ("dependencies", "rsd")}


def parse_gum_splits(text: str) -> dict[str, list[str]]:
    """Splits of GUM's ``splits.md``: ``## name`` headings followed by ``* doc_id`` items."""
    splits: dict[str, list[str]] = {}
    current = None
    for line in split_lines(text):
        heading = re.match(r"^#{2,}\s*(\S+)\s*$", line)
        if heading:
            current = heading.group(1)
            splits[current] = []
            continue
        item = re.match(r"^\s*[*-]\s+(\S+)\s*$", line)
        if item and current is not None:
            splits[current].append(item.group(1))
    return {name: ids for name, ids in splits.items() if ids}


def gum_corpus(root: str | Path, form: str = "dis") -> Corpus:
    """A GUM checkout (the folder holding ``splits.md`` and ``lisp_nary/`` ...).

    ``form``: ``dis`` (lisp_nary, the default), ``binary`` (lisp_binary), ``rs4``
    (rstweb) or ``rsd`` (dependencies). Splits: train, dev, test, test2 (GENTLE).
    """
    root = Path(root)
    if form not in GUM_FORMS:
        raise CorpusError(f"unknown GUM form {form!r}; choose from {', '.join(GUM_FORMS)}", str(root))
    folder, fmt = GUM_FORMS[form]
    splits_md = root / "splits.md"
    if not splits_md.is_file() or not (root / folder).is_dir():
        raise CorpusError(f"not a GUM checkout: needs splits.md and {folder}/", str(root))
    files = _index(sorted((root / folder).glob(f"*.{fmt}")))
    return Corpus(f"gum/{folder}", root, files, parse_gum_splits(read_text(splits_md)), fmt)


def _find_dir(root: Path, name: str) -> Path | None:
    if root.name == name:
        return root
    for depth_glob in (name, f"*/{name}", f"*/*/{name}"):
        found = sorted(root.glob(depth_glob))
        if found:
            return found[0]
    return None


def rstdt_corpus(root: str | Path) -> Corpus:
    """An RST-DT release (LDC2002T07): the folder holding ``RSTtrees-WSJ-main-1.0`` (at any
    depth up to 3), or that folder itself.

    Splits: ``train`` (TRAINING minus the 35 validation documents), ``dev`` (those 35),
    ``test`` (TEST, 38 documents), ``training`` (all of TRAINING, ``file1``-``file5``
    included) and, when ``RSTtrees-WSJ-double-1.0`` is present, ``double``. The doubly
    annotated trees are a separate corpus (:func:`rstdt_double_corpus`): their ids clash
    with the main corpus.
    """
    root = Path(root)
    main = _find_dir(root, "RSTtrees-WSJ-main-1.0")
    if main is None and (root / "TRAINING").is_dir():
        main = root
    if main is None or not (main / "TRAINING").is_dir() or not (main / "TEST").is_dir():
        raise CorpusError("not an RST-DT release: no RSTtrees-WSJ-main-1.0/ with TRAINING/ and TEST/", str(root))
    training = _index(sorted((main / "TRAINING").glob("*.dis")))
    test = _index(sorted((main / "TEST").glob("*.dis")))
    clash = set(training) & set(test)
    if clash:
        raise CorpusError(f"documents in both TRAINING and TEST: {', '.join(sorted(clash))}", str(main))
    dev = rstdt_dev_ids()
    splits = {
        "train": [d for d in sorted(training) if d not in set(dev)],
        "dev": [d for d in dev if d in training],
        "test": sorted(test),
        "training": sorted(training),
    }
    return Corpus("rstdt", main, {**training, **test}, splits, "dis")


def rstdt_double_corpus(root: str | Path) -> Corpus:
    """RST-DT's doubly annotated documents (``RSTtrees-WSJ-double-1.0``)."""
    root = Path(root)
    double = _find_dir(root, "RSTtrees-WSJ-double-1.0")
    if double is None:
        raise CorpusError("no RSTtrees-WSJ-double-1.0/ here", str(root))
    files = _index(sorted(double.rglob("*.dis")))
    return Corpus("rstdt-double", double, files, {"double": sorted(files)}, "dis")


def directory_corpus(root: str | Path, format: str | None = None) -> Corpus:
    """Any directory of documents; splits from an optional ``splits.tsv`` (``doc_id<TAB>split``)."""
    root = Path(root)
    files = _index(list_files(root, format), get_format(format) if format else None)
    if not files:
        raise CorpusError("no documents found", str(root))
    splits: dict[str, list[str]] = {}
    split_file = root / "splits.tsv"
    if split_file.is_file():
        for number, line in enumerate(split_lines(read_text(split_file)), 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 2:
                raise CorpusError("expected 'doc_id<TAB>split'", str(split_file), number)
            splits.setdefault(parts[1].strip(), []).append(parts[0].strip())
    fmt = format or format_for_path(next(iter(files.values()))).key
    return Corpus(root.name, root, files, splits, fmt)


def recognise_corpus(path: str | Path, form: str | None = None) -> Corpus | None:
    """A GUM checkout or an RST-DT release at ``path``, or None."""
    path = Path(path)
    if (path / "splits.md").is_file() and (path / "lisp_nary").is_dir():
        return gum_corpus(path, form or "dis")
    if _find_dir(path, "RSTtrees-WSJ-main-1.0") is not None or (
            (path / "TRAINING").is_dir() and (path / "TEST").is_dir()):
        return rstdt_corpus(path)
    return None


def open_corpus(path: str | Path, form: str | None = None) -> Corpus:
    """Recognise a GUM checkout, an RST-DT release or a plain directory."""
    path = Path(path)
    if not path.is_dir():
        raise CorpusError("not a directory", str(path))
    return recognise_corpus(path, form) or directory_corpus(path, form)
