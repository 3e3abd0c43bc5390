"""Corpora with splits, and the registry of corpus kinds.

A :class:`CorpusKind` knows how to recognise and open its layout, the splits that layout
defines, its default label map and where its EDUs get sentence and paragraph indices:

========================  =================================  ===========  ==============================
kind                      layout                             label map    sentence/paragraph boundaries
========================  =================================  ===========  ==============================
``gum``                   ``splits.md`` + ``lisp_nary/``     ``gum``      ``dependencies/*.rsd``
``rstdt``                 ``RSTtrees-WSJ-main-1.0``          ``rstdt18``  paragraphs in the ``.dis`` files
``rstdt-double``          ``RSTtrees-WSJ-double-1.0``        ``rstdt18``  paragraphs in the ``.dis`` files
``directory``             any directory (``splits.tsv``)     ``raw``      whatever the files' format has
========================  =================================  ===========  ==============================

:func:`open_corpus` recognises the kind of a directory; the kind is then ``corpus.kind``.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar, overload

from ..data import rstdt_dev_ids
from ..errors import CorpusError, RSTKitError
from ..folders import walk_files
from ..formats import Format, doc_id_from_path, get_format, read_text, split_lines
from ..settings import LabelMapName
from ..tree import RSTTree
from .files import format_for_path, list_files, read_files, report_failures


class Identified(Protocol):
    """What a reader's ``worker_result`` makes of a tree: something with the tree's document id."""

    @property
    def doc_id(self) -> str: ...


#: what a ``worker_result`` function makes of each tree
Result = TypeVar("Result", bound=Identified)


@dataclass(frozen=True)
class BoundarySource:
    """Where a corpus kind's EDUs get their sentence and paragraph indices: ``folder`` (under the
    corpus root) holds the same documents in ``format``, which carries them; with no folder, the
    corpus's own files are all there is (``description`` says what they carry)."""

    description: str
    folder: str | None = None
    format: str | None = None


@dataclass(frozen=True)
class CorpusKind:
    """One layout of corpus: how to recognise and open it, and its defaults."""

    key: str
    description: str
    #: the splits the layout defines
    splits: str
    #: the label map that gives the corpus its coarse classes
    label_map: LabelMapName
    boundaries: BoundarySource
    #: the environment variable naming the corpus's directory, for kinds that are named corpora
    variable: str | None = None
    recognises: Callable[[Path], bool] = field(default=lambda path: False, repr=False, compare=False)
    open: Callable[[Path, str | None], Corpus] = field(default=lambda path, form: directory_corpus(path, form),
                                                       repr=False, compare=False)


@dataclass
class Corpus:
    """A set of documents (files of one format under ``root``) with named splits, of one kind.

    >>> corpus = open_corpus("corpora/sample/gold")
    >>> sorted(corpus.files)[0], corpus.splits()
    ('sample_bread', [])
    """

    name: str
    root: Path
    files: dict[str, Path]
    split_ids: dict[str, list[str]] = field(default_factory=dict)
    format: str | None = None
    kind: CorpusKind = field(default_factory=lambda: _directory_kind())

    def splits(self) -> list[str]:
        return list(self.split_ids)

    def doc_ids(self, split: str | None = None) -> list[str]:
        """The documents of ``split`` in the split's order (all documents, sorted, for None);
        ``train+dev`` is the union of several splits: each one's documents in turn, each
        document once."""
        if split is None:
            return sorted(self.files)
        if split not in self.split_ids and "+" in split:
            return list(dict.fromkeys(d for part in split.split("+") for d in self.doc_ids(part)))
        try:
            ids = self.split_ids[split]
        except KeyError:
            raise CorpusError(f"corpus {self.name} has no split {split!r}; splits: "
                              f"{', '.join(self.split_ids) or 'none'}"
                              + (" (several joined by +, e.g. train+dev)" if self.split_ids else ""),
                              str(self.root)) from None
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

    @overload
    def documents(self, split: str | None = None, lenient: bool = False, skip_errors: bool = False,
                  errors: list[RSTKitError] | None = None, jobs: int | None = None,
                  worker_result: None = None, **options) -> dict[str, RSTTree]: ...
    @overload
    def documents(self, split: str | None = None, lenient: bool = False, skip_errors: bool = False,
                  errors: list[RSTKitError] | None = None, jobs: int | None = None, *,
                  worker_result: Callable[[RSTTree], Result], **options) -> dict[str, RSTTree | Result]: ...
    def documents(self, split: str | None = None, lenient: bool = False, skip_errors: bool = False,
                  errors: list[RSTKitError] | None = None, jobs: int | None = None,
                  worker_result: Callable[[RSTTree], Any] | None = None, **options) -> dict[str, Any]:
        """``{doc_id: tree}`` of a split (all documents when ``split`` is None); ``jobs``,
        ``worker_result`` (whose results are dataclasses with a ``doc_id``) and the readers' ``options``
        (``encoding``) as in :func:`~rstkit.corpus.files.read_files`."""
        failures: list[RSTKitError] = []
        result: dict[str, Any] = {}
        doc_ids = self.doc_ids(split)
        outcomes = read_files([self.files[d] for d in doc_ids], self.format, lenient, jobs, single=True,
                              worker_result=worker_result, **options)
        for doc_id, outcome in zip(doc_ids, outcomes):
            if isinstance(outcome, RSTKitError):
                failures.append(outcome)
                continue
            (tree,) = outcome
            result[doc_id] = tree if tree.doc_id == doc_id else replace(tree, doc_id=doc_id)
        report_failures(failures, skip_errors, errors)
        return result

    def boundary_corpus(self) -> Corpus | None:
        """The same documents in the form that carries sentence and paragraph indices (GUM's
        ``.rsd`` files), with the same splits; None when the kind has no such form or this
        copy of the corpus lacks it."""
        source = self.kind.boundaries
        if source.folder is None or source.format is None or not (self.root / source.folder).is_dir():
            return None
        fmt = get_format(source.format)
        files = _index(_files_named(self.root / source.folder, fmt.claims), fmt)
        return Corpus(f"{self.kind.key}/{source.folder}", self.root, files, self.split_ids, fmt.key, self.kind)


def _directory_kind() -> CorpusKind:
    return DIRECTORY


def _index(files: list[Path], fmt: Format | None = None) -> dict[str, Path]:
    """``{document id: file}``; an id given by two files is an error."""
    index: dict[str, Path] = {}
    for f in files:
        doc_id = fmt.doc_id(f) if fmt else doc_id_from_path(f)
        if doc_id in index:
            raise CorpusError(f"document id {doc_id!r} appears twice ({index[doc_id]})", str(f))
        index[doc_id] = f
    return index


def _files_named(folder: Path, wanted: Callable[[str], bool], recursive: bool = False) -> list[Path]:
    """The files in ``folder`` (and its subfolders with ``recursive``) whose names ``wanted``
    accepts, through the one input walk: a folder, or an entry of such a name, that cannot be
    read is an error, not a document silently missing."""
    listing = walk_files(folder, recursive=recursive)
    problems = [p for p in listing.problems if wanted(Path(p.path or "").name) or os.path.isdir(p.path or "")]
    report_failures(problems, False, None, skippable=False)
    return [f for f in listing.files if wanted(f.name)]


def _is_dis(name: str) -> bool:
    return name.endswith(".dis")


def _find_dir(root: Path, name: str) -> Path | None:
    if root.name == name:
        return root
    for depth_glob in (name, f"*/{name}", f"*/*/{name}"):
        found = sorted(root.glob(depth_glob))
        if found:
            return found[0]
    return None


# -- GUM ---------------------------------------------------------------------------------------
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
    files = _index(_files_named(root / folder, lambda name: name.endswith(f".{fmt}")))
    return Corpus(f"gum/{folder}", root, files, parse_gum_splits(read_text(splits_md)), fmt, GUM)


def _is_gum(path: Path) -> bool:
    return (path / "splits.md").is_file() and (path / "lisp_nary").is_dir()


# -- RST-DT ------------------------------------------------------------------------------------
def rstdt_corpus(root: str | Path) -> Corpus:
    """An RST-DT release (LDC2002T07): the folder holding ``RSTtrees-WSJ-main-1.0`` (at any
    depth up to 3), or that folder itself.

    Splits: ``train`` (TRAINING minus the 35 validation documents), ``dev`` (those 35),
    ``test`` (TEST, 38 documents) and ``training`` (all of TRAINING, ``file1``-``file5``
    included). The doubly annotated trees are a separate corpus
    (:func:`rstdt_double_corpus`): their ids clash with the main corpus.
    """
    root = Path(root)
    main = _find_dir(root, "RSTtrees-WSJ-main-1.0")
    if main is None and (root / "TRAINING").is_dir():
        main = root
    if main is None or not (main / "TRAINING").is_dir() or not (main / "TEST").is_dir():
        raise CorpusError("not an RST-DT release: no RSTtrees-WSJ-main-1.0/ with TRAINING/ and TEST/", str(root))
    training = _index(_files_named(main / "TRAINING", _is_dis))
    test = _index(_files_named(main / "TEST", _is_dis))
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
    return Corpus("rstdt", main, {**training, **test}, splits, "dis", RSTDT)


def _is_rstdt(path: Path) -> bool:
    return _find_dir(path, "RSTtrees-WSJ-main-1.0") is not None or (
        (path / "TRAINING").is_dir() and (path / "TEST").is_dir())


def rstdt_double_corpus(root: str | Path) -> Corpus:
    """RST-DT's doubly annotated documents (``RSTtrees-WSJ-double-1.0``), one split ``double``."""
    root = Path(root)
    double = _find_dir(root, "RSTtrees-WSJ-double-1.0")
    if double is None:
        raise CorpusError("no RSTtrees-WSJ-double-1.0/ here", str(root))
    files = _index(_files_named(double, _is_dis, recursive=True))
    return Corpus("rstdt-double", double, files, {"double": sorted(files)}, "dis", RSTDT_DOUBLE)


# -- any directory -----------------------------------------------------------------------------
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
    return Corpus(root.name, root, files, splits, fmt, DIRECTORY)


# -- the registry ------------------------------------------------------------------------------
_IN_DIS = BoundarySource("paragraphs from the <P> markers of the .dis files; no sentences")

GUM = CorpusKind(
    "gum", "a GUM checkout: splits.md and lisp_nary/ (also lisp_binary/, rstweb/, dependencies/)",
    "splits.md: train, dev, test, test2 (GENTLE)", "gum",
    BoundarySource("sentences and paragraphs from the .rsd files in dependencies/", "dependencies", "rsd"),
    "RSTKIT_GUM", _is_gum, lambda path, form: gum_corpus(path, form or "dis"))
RSTDT = CorpusKind(
    "rstdt", "an RST-DT release (LDC2002T07): RSTtrees-WSJ-main-1.0/ with TRAINING/ and TEST/",
    "train (TRAINING less the 35 dev documents), dev, test (TEST), training (all of TRAINING)", "rstdt18",
    _IN_DIS, "RSTKIT_RSTDT", _is_rstdt, lambda path, form: rstdt_corpus(path))
RSTDT_DOUBLE = CorpusKind(
    "rstdt-double", "RST-DT's doubly annotated documents: RSTtrees-WSJ-double-1.0/",
    "double (every document)", "rstdt18", _IN_DIS, None,
    lambda path: _find_dir(path, "RSTtrees-WSJ-double-1.0") is not None,
    lambda path, form: rstdt_double_corpus(path))
DIRECTORY = CorpusKind(
    "directory", "any directory of documents of one format",
    "from splits.tsv (doc_id<TAB>split lines), if there is one", "raw",
    BoundarySource("what the documents' format carries (.rsd: both; .dis: paragraphs)"))

#: every corpus kind, in the order :func:`open_corpus` tries them (``directory`` last: it takes any directory)
CORPUS_KINDS: dict[str, CorpusKind] = {kind.key: kind for kind in (GUM, RSTDT, RSTDT_DOUBLE, DIRECTORY)}


def recognise_corpus(path: str | Path, form: str | None = None) -> Corpus | None:
    """The corpus at ``path`` if it has a layout rstkit knows (a GUM checkout, an RST-DT
    release, RST-DT's doubly annotated set), else None."""
    path = Path(path)
    for kind in CORPUS_KINDS.values():
        if kind.recognises(path):
            return kind.open(path, form)
    return None


def split_corpus(path: str | Path, split: str, form: str | None = None) -> Corpus:
    """The corpus at ``path`` (:func:`open_corpus`) whose split ``split`` is to be read: a known
    layout or a directory with ``splits.tsv``. A path that is not a directory, a directory that
    defines no splits, a split the corpus does not have (its splits listed) and a split naming
    documents with no file are errors.

    >>> split_corpus("corpora/sample/gold", "test").splits()
    Traceback (most recent call last):
    rstkit.errors.CorpusError: corpora/sample/gold: not a corpus with splits (no split 'test'): ...
    """
    path = Path(path)
    layouts = ("a GUM checkout (splits.md, lisp_nary/), an RST-DT release (RSTtrees-WSJ-main-1.0/) or a directory "
               "with splits.tsv (doc_id<TAB>split lines)")
    if path.exists() and not path.is_dir():
        raise CorpusError(f"a split ({split!r}) is read from a corpus directory, not a file: {layouts}", str(path))
    corpus = open_corpus(path, form)
    if not corpus.splits():
        raise CorpusError(f"not a corpus with splits (no split {split!r}): expected {layouts}", str(path))
    corpus.doc_ids(split)  # an unknown split, or one naming documents without a file, is an error now
    return corpus


def open_corpus(path: str | Path, form: str | None = None) -> Corpus:
    """The corpus in a directory: a known layout (:data:`CORPUS_KINDS`), else a plain directory
    of documents (``form`` is then their format).

    >>> corpus = open_corpus("corpora/sample/gold")
    >>> corpus.kind.key, len(corpus.files)
    ('directory', 4)
    """
    path = Path(path)
    if not path.is_dir():
        raise CorpusError("not a directory", str(path))
    return recognise_corpus(path, form) or directory_corpus(path, form)
