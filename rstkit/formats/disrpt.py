"""The DISRPT shared tasks' segmentation files: ``.tok`` and ``.conllu``.

Both hold documents, each opened by a ``# newdoc id = DOC`` line (``# newdoc_id = DOC`` is read
too), with one token per line in ten tab-separated columns; the last (MISC) labels the token's
segmentation, possibly among other ``|``-separated items (:data:`LABELS`, the one rule): since
DISRPT 2023 ``Seg=B-seg`` (the token begins an EDU) or ``Seg=O`` (``Seg=I-seg`` too, as DISRPT's
validator allows; ``Seg=B-Seg`` as its 2021-to-2023 conversion read it); in the 2019 and 2021
shared tasks ``BeginSeg=Yes``, and nothing (``_`` or other items) on a token inside an EDU. One
document holds one of the two labellings. Connective labels (``Conn=B-conn``, ``Conn=I-conn``,
``Conn=O``; ``Seg=B-Conn``, ``Seg=I-Conn`` before 2023) mark PDTB-style connectives, not EDU
boundaries, and any other value of ``Seg``, ``BeginSeg`` or ``Conn`` is unknown: both are an error
naming file and line. A document with tokens but no segmentation label at all is read (``rstkit
segment`` labels such files), but :meth:`DisrptDocument.labelled` refuses it wherever its
boundaries would be used (scoring, converting): its labels were not understood. In ``.tok``
files token ids restart at 1 in each document and a blank line ends it; ``.conllu`` files add
sentences (``# sent_id``, ``# text``, ids restarting at 1 in each sentence, a blank line after each).
Multi-word-token lines (id ``3-4``) and empty nodes (``5.1``) are not tokens: they are skipped
when counting, as the official scorer does, and kept byte for byte when a file is written back.

:func:`read_disrpt` reads a file into :class:`DisrptDocument` s (tokens, boundaries, sentence
starts); :func:`with_boundaries` gives the same file's text with other boundaries, every byte but
the MISC column's ``Seg`` item kept; :func:`write_tok` / :func:`write_conllu` write a tree's EDUs
over their whitespace tokens (``rstkit convert --to tok|conllu``, :func:`write_trees`). A file read
here is a segmentation, not a tree, so these are not in the tree format registry:
:meth:`DisrptDocument.edus` gives a document's EDUs, :func:`convert_segmentations` its files.

Two readings of one file, on purpose (speed, issue #37): :func:`read_disrpt` reads in bulk
(:func:`_scan`, numpy over the file's bytes) and hands any file with an error or an unusual line to
the line-by-line reading (:func:`_read_lines`), the one that knows every rule and gives every
error; both give the same documents (tests/formats/test_disrpt_bulk.py). The bulk reading is kept
because DISRPT files are large: a 16 MB ``.tok`` file (benchmarks/make_disrpt.py) reads in 0.14 s
of CPU in bulk and 0.94 s line by line. Scoring reads the documents alone
(:func:`read_disrpt_documents`): a UTF-8 file is then mapped into memory and read in bulk where it
lies, its text never decoded whole.
"""
from __future__ import annotations

import codecs
import mmap
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from ..errors import CorpusError, FormatError, WriteError, printable
from ..folders import holds_file, walk_files
from ..tree import EDU, RSTTree
from . import known_suffixes, read_text_utf8
from ._bytewords import EACH as _EACH
from ._bytewords import LOW as _LOW
from ._bytewords import PADDING as _PADDING
from ._bytewords import Words as _Words
from ._bytewords import has_byte as _has_byte
from ._bytewords import word as _word
from .writable import HEADER_ID, check_doc_id

#: the MISC items of a token that begins an EDU, and of one that does not (what rstkit writes)
SEG_BEGIN, SEG_INSIDE = "Seg=B-seg", "Seg=O"
#: the two labellings of EDU segmentation: DISRPT 2023 on, and the 2019 and 2021 shared tasks
SEG_LABELS, BEGINSEG_LABELS = "Seg=B-seg/Seg=O (DISRPT 2023 on)", "BeginSeg=Yes/_ (DISRPT 2019-2021)"
#: every MISC item that labels a token's segmentation: its labelling, and whether the token begins an EDU
#: (a token of the 2019-2021 labelling without ``BeginSeg=Yes`` does not)
LABELS = MappingProxyType({
    SEG_BEGIN: (SEG_LABELS, True), SEG_INSIDE: (SEG_LABELS, False), "Seg=I-seg": (SEG_LABELS, False),
    "Seg=B-Seg": (SEG_LABELS, True), "BeginSeg=Yes": (BEGINSEG_LABELS, True),
})
#: the keys of MISC items that label segmentation or connectives
_LABEL_KEYS = ("Seg=", "BeginSeg=", "Conn=")
_CONNECTIVE = re.compile(r"Conn=|Seg=[BI]-Conn$")
#: file-name endings of the two kinds of file; ``.conllu`` files have sentences
EXTENSIONS = (".tok", ".conllu")
_NEWDOC = re.compile(r"#\s*newdoc[ _]id\s*=\s*(.*?)\s*$")
_TOKEN_ID = re.compile(r"[1-9][0-9]*")


class DisrptDocument:
    """One document of a DISRPT file: its tokens, which of them begin an EDU, which begin a
    sentence (None in ``.tok`` files, which have no sentences), the 0-based line of each
    token in the file's lines (what :func:`with_boundaries` rewrites), and its labelling
    (:data:`SEG_LABELS` or :data:`BEGINSEG_LABELS`; None where no token has a segmentation label).

    It is held compactly (what scoring reads: ``token_text``, the tokens joined by tabs, which no
    token holds; ``boundary_mask``, ``sentence_mask`` and ``line_numbers``, numpy arrays); the
    tuples ``tokens``, ``boundaries``, ``sentence_starts`` and ``token_lines`` are made on first use."""

    __slots__ = (
        "_tuples",
        "boundary_mask",
        "doc_id",
        "labelling",
        "line_numbers",
        "n_tokens",
        "sentence_mask",
        "source",
        "token_text",
    )

    def __init__(self, doc_id: str, source: str, token_text: str, n_tokens: int, boundary_mask: np.ndarray,
                 sentence_mask: np.ndarray | None, line_numbers: np.ndarray, labelling: str | None = None) -> None:
        self.doc_id, self.source, self.labelling = doc_id, source, labelling
        self.token_text, self.n_tokens = token_text, n_tokens
        self.boundary_mask, self.sentence_mask, self.line_numbers = boundary_mask, sentence_mask, line_numbers
        self._tuples: dict[str, tuple[Any, ...]] = {}

    def _tuple(self, name: str, make: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
        made = self._tuples.get(name)
        if made is None:
            made = self._tuples[name] = make()
        return made

    @property
    def tokens(self) -> tuple[str, ...]:
        return self._tuple("tokens", lambda: tuple(self.token_text.split("\t")) if self.n_tokens else ())

    @property
    def boundaries(self) -> tuple[bool, ...]:
        return self._tuple("boundaries", lambda: tuple(self.boundary_mask.tolist()))

    @property
    def sentence_starts(self) -> tuple[bool, ...] | None:
        if self.sentence_mask is None:
            return None
        mask = self.sentence_mask
        return self._tuple("sentence_starts", lambda: tuple(mask.tolist()))

    @property
    def token_lines(self) -> tuple[int, ...]:
        return self._tuple("token_lines", lambda: tuple(self.line_numbers.tolist()))

    def __repr__(self) -> str:
        return (f"DisrptDocument(doc_id={self.doc_id!r}, source={self.source!r}, tokens={self.n_tokens}, "
                f"labelling={self.labelling!r})")

    def labelled(self) -> DisrptDocument:
        """The document, whose boundaries may be used; a FormatError naming its file and first token's line
        when it has tokens but no segmentation label (read as no boundary, it would score 0, or 100 against
        itself by accident)."""
        if self.labelling is None and self.n_tokens:
            raise FormatError(f"document {self.doc_id!r} has no segmentation label on any of its {self.n_tokens} "
                              f"tokens: the last column labels EDU boundaries {SEG_LABELS} or {BEGINSEG_LABELS}",
                              self.source, int(self.line_numbers[0]) + 1)
        return self

    def edu_starts(self) -> np.ndarray:
        """The index of each EDU's first token: the first token, each token that begins an EDU, and (where
        the file has sentences) each token that begins a sentence."""
        starts = self.boundary_mask.copy()
        if self.sentence_mask is not None:
            starts |= self.sentence_mask
        starts[:1] = True
        return np.flatnonzero(starts)

    def edus(self) -> tuple[EDU, ...]:
        """The document's EDUs (tokens joined by spaces; tokens before the first boundary make one
        too), with sentence numbers where the file has sentences."""
        tokens = self.tokens
        firsts = self.edu_starts().tolist()
        sentences: list[int | None] = ([None] * len(firsts) if self.sentence_mask is None
                                       else np.cumsum(self.sentence_mask)[firsts].tolist())
        return tuple(EDU(i, " ".join(tokens[first:end]), sentence)
                     for i, (first, end, sentence) in enumerate(zip(firsts, [*firsts[1:], len(tokens)], sentences),
                                                                start=1))


@dataclass(frozen=True)
class DisrptFile:
    """A DISRPT file as read: its text (the file's lines, split at ``\\n`` with line endings otherwise
    kept, are ``lines``), documents, and whether it began with a UTF-8 byte-order mark (which
    :func:`read_text` leaves out of the text and :func:`with_boundaries` puts back)."""

    path: str
    conllu: bool
    text: str
    documents: tuple[DisrptDocument, ...]
    bom: bool = False

    @cached_property
    def lines(self) -> tuple[str, ...]:
        return tuple(self.text.split("\n"))


def is_disrpt(path: str | Path) -> bool:
    """Whether a file name is a DISRPT file's (``.tok`` or ``.conllu``)."""
    return str(path).lower().endswith(EXTENSIONS)


def is_disrpt_input(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a DISRPT file, or a directory that holds some."""
    path = Path(path)
    if path.is_dir():
        return holds_file(path, is_disrpt)
    return is_disrpt(path.name)


def list_disrpt(path: str | os.PathLike[str]) -> list[Path]:
    """``path`` itself, or the DISRPT files under a directory (a directory that also holds tree files,
    or that cannot be listed whole, is an error)."""
    path = Path(path)
    if not path.is_dir():
        return [path]
    listing = walk_files(path)
    if listing.problems:
        raise listing.problems[0]
    trees = [p for p in listing.files if not is_disrpt(p.name) and p.name.lower().endswith(tuple(known_suffixes()))]
    if trees:
        raise CorpusError(f"the directory holds DISRPT files ({', '.join(EXTENSIONS)}) and tree files such as "
                          f"{trees[0].name}: give them separately", str(path))
    return [p for p in listing.files if is_disrpt(p.name)]


def read_disrpt(path: str | Path, *, encoding: str | None = None) -> DisrptFile:
    """The documents of a ``.tok`` or ``.conllu`` file; a FormatError names the file and line of
    anything else (a token line without ten columns, a bad id, a ``Seg`` value other than
    ``B-seg``/``O``, a token before the first ``# newdoc id``, a document id given twice).

    The file is read in bulk (:func:`_scan`: its lines classified, the token and label columns found
    with numpy); a file it finds anything unusual in (an error, a line of whitespace, a ``\\r`` inside
    a line, a control byte below the tab, an id of over 16 bytes) is read line by line
    (:func:`_read_lines`), which gives the error, or the same documents."""
    source = str(path)
    conllu = source.lower().endswith(".conllu")
    try:
        text, data = read_text_utf8(path, encoding=encoding)
    except FormatError as exc:  # a DISRPT file is read as it is: no lenient repair gets past its bytes
        exc.fixes = tuple(fix for fix in exc.fixes if fix != "lenient")
        raise
    bom = _utf8_named(encoding) and _starts_with_bom(path)
    documents = _scan(data, source, conllu)
    if documents is None:
        documents = _read_lines(text.split("\n"), source, conllu)
    return DisrptFile(source, conllu, text, tuple(documents), bom)


def read_disrpt_documents(path: str | Path, *, encoding: str | None = None) -> tuple[DisrptDocument, ...]:
    """The documents of a ``.tok`` or ``.conllu`` file, :func:`read_disrpt`'s, without its text (what
    scoring reads). A UTF-8 file (the usual case: no ``encoding`` but UTF-8, no UTF-16 byte-order mark) is
    mapped into memory, checked to be UTF-8 and read in bulk where it lies: neither its bytes nor its
    text are copied whole (of a 64 MB file, 0.1 s of the 0.13 that reading and decoding it took, mostly
    the system's for the new memory). Any other file, and one the bulk reading leaves to the
    line-by-line reading, is read by :func:`read_disrpt`, which gives the same documents or the error."""
    if _utf8_named(encoding):
        mapped = _mapped(path)
        if mapped is not None:
            with mapped:
                start = len(codecs.BOM_UTF8) if mapped[:len(codecs.BOM_UTF8)] == codecs.BOM_UTF8 else 0
                source = str(path)
                documents = (_scan(mapped, source, source.lower().endswith(".conllu"), start)
                             if mapped[:2] not in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
                             and _is_utf8(mapped, start) else None)
            if documents is not None:
                return tuple(documents)
    return read_disrpt(path, encoding=encoding).documents


def _utf8_named(encoding: str | None) -> bool:
    """Whether ``encoding`` (None: UTF-8 unless the file says otherwise) names UTF-8; an unknown name does
    not (reading the file names it as the error)."""
    try:
        return encoding is None or codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


def _mapped(path: str | Path) -> mmap.mmap | None:
    """The file's bytes mapped into memory (read-only), or None where it cannot be (an empty file, one
    that is no regular file, or cannot be opened: :func:`read_disrpt` then reads it, or names the error)."""
    try:
        with open(path, "rb") as stream:
            return mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None


#: bytes of a file checked to be UTF-8 at once (:func:`_is_utf8`)
_CHECKED = 1 << 20


def _is_utf8(data: mmap.mmap, start: int) -> bool:
    """Whether ``data`` from ``start`` is UTF-8 (as ``bytes.decode`` checks it), checked a part at a time
    so that its text is never held whole."""
    view = memoryview(data)
    try:
        position, size = start, len(data)
        while position < size:
            _, used = codecs.utf_8_decode(view[position:position + _CHECKED], "strict",
                                          position + _CHECKED >= size)
            position += used
    except UnicodeDecodeError:
        return False
    finally:
        view.release()
    return True


def _read_lines(lines: list[str], source: str, conllu: bool) -> list[DisrptDocument]:
    """The documents of a file's lines, read one by one: every rule and every error of the format."""
    documents: list[DisrptDocument] = []
    seen: set[str] = set()
    current: tuple[str, list[str], list[bool], list[bool], list[int]] | None = None
    labelling: tuple[str, int] | None = None  # the current document's labelling and its first line

    def close() -> None:
        if current is not None:
            doc_id, tokens, boundaries, starts, where = current
            documents.append(DisrptDocument(doc_id, source, "\t".join(tokens), len(tokens),
                                            np.array(boundaries, dtype=bool),
                                            np.array(starts, dtype=bool) if conllu else None,
                                            np.array(where, dtype=np.int64), labelling[0] if labelling else None))

    for number, raw in enumerate(lines):
        line = raw.rstrip("\r")
        if line.startswith("#"):
            match = _NEWDOC.match(line)
            if match:
                close()
                doc_id = match.group(1)
                if not doc_id:
                    raise FormatError("empty document id", source, number + 1)
                if doc_id in seen:
                    raise FormatError(f"document id {doc_id!r} given twice", source, number + 1)
                seen.add(doc_id)
                current, labelling = (doc_id, [], [], [], []), None
            continue
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != 10:
            raise FormatError(f"a token line has 10 tab-separated columns, this one {len(fields)}", source, number + 1)
        token_id = fields[0]
        if "-" in token_id or "." in token_id:  # multi-word token or empty node: not a token
            continue
        if not _TOKEN_ID.fullmatch(token_id):
            raise FormatError(f"token id {printable(token_id, 20)!r} is not a number, a range (3-4) or an empty "
                              "node (5.1)", source, number + 1)
        if current is None:
            raise FormatError("a token before the first '# newdoc id = ...' line", source, number + 1)
        kind, begins = token_label(fields[9], source, number + 1)
        if kind is not None:
            if labelling is None:
                labelling = (kind, number + 1)
            elif kind != labelling[0]:
                raise FormatError(f"document {current[0]!r} mixes two segmentation labellings: {labelling[0]} from "
                                  f"line {labelling[1]}, {kind} here", source, number + 1)
        current[1].append(fields[1])
        current[2].append(begins)
        current[3].append(token_id == "1")
        current[4].append(number)
    close()
    return documents


#: bytes of text the bulk reading handles at once (its arrays are a few times this size)
_CHUNK = 1 << 19
#: the labellings as the bulk reading numbers them (0: no label)
_KINDS = (None, SEG_LABELS, BEGINSEG_LABELS)
#: the bytes of each MISC item that labels segmentation, its labelling's number and whether it begins an EDU
_LABEL_BYTES = tuple((item.encode(), _KINDS.index(kind), begins) for item, (kind, begins) in LABELS.items())
#: the longest token id the bulk reading takes (two words of :class:`_Words`)
_LONGEST_ID = 16


class _Irregular(Exception):
    """Something the bulk reading leaves to the line-by-line reading."""


@dataclass
class _Tokens:
    """What the bulk reading keeps of the token lines of a part of the file (in file order)."""

    lines: np.ndarray  # 0-based line number
    begins: np.ndarray  # bool
    kinds: np.ndarray  # int8: the number of the token's labelling in _KINDS
    first: np.ndarray  # bool: the token id is 1
    sizes: np.ndarray  # bytes of the token and its separator
    text: bytes  # each token's UTF-8 bytes followed by a tab
    n_lines: int  # lines of the part


def _scan(data: bytes | mmap.mmap, source: str, conllu: bool, offset: int = 0) -> list[DisrptDocument] | None:
    """The documents of a file's text (``data`` from ``offset``: as UTF-8) read in bulk, or None where the
    text has anything the line-by-line reading must judge (:func:`read_disrpt`). The rules are
    :func:`_read_lines`'s; the file is cut into parts of whole lines, each part's lines classified with
    numpy: empty lines, comments (a ``# newdoc id`` line among them is matched with :data:`_NEWDOC`, as
    a line), token lines (ten columns, a numeric id) and the multi-word-token and empty-node lines (an id
    with ``-`` or ``.``) skipped."""
    parts: list[_Tokens] = []
    newdocs: list[tuple[int, str]] = []
    position, line_base = offset, 0
    try:
        while True:
            cut = data.find(b"\n", min(position + _CHUNK, len(data)))
            if cut < 0:
                cut = len(data)
            chunk = data[position:cut]
            parts.append(_scan_part(chunk, line_base, newdocs))
            line_base += parts[-1].n_lines
            if cut == len(data):
                break
            position = cut + 1
    except _Irregular:
        return None
    lines = np.concatenate([p.lines for p in parts])
    if not newdocs:
        return None if len(lines) else []
    ids = [doc_id for _, doc_id in newdocs]
    if "" in ids or len(set(ids)) != len(ids) or (len(lines) and lines[0] < newdocs[0][0]):
        return None  # an empty or repeated id, a token before the first document
    kinds = np.concatenate([p.kinds for p in parts])
    begins = np.concatenate([p.begins for p in parts])
    first = np.concatenate([p.first for p in parts])
    offsets = np.concatenate([[0], np.cumsum(np.concatenate([p.sizes for p in parts]))])
    token_bytes = b"".join(p.text for p in parts)
    bounds = np.searchsorted(lines, [line for line, _ in newdocs] + [line_base]).tolist()
    documents = []
    for (_, doc_id), start, end in zip(newdocs, bounds, bounds[1:]):
        present = np.bincount(kinds[start:end], minlength=len(_KINDS))
        labelled = [kind for kind in range(1, len(_KINDS)) if present[kind]]
        if len(labelled) > 1:
            return None  # two labellings in one document
        words = token_bytes[offsets[start]:offsets[end] - 1].decode("utf-8", "surrogatepass") if end > start else ""
        documents.append(DisrptDocument(doc_id, source, words, end - start, begins[start:end].copy(),
                                        first[start:end].copy() if conllu else None, lines[start:end].copy(),
                                        _KINDS[labelled[0]] if labelled else None))
    return documents


def _scan_part(chunk: bytes, line_base: int, newdocs: list[tuple[int, str]]) -> _Tokens:
    """The token lines of ``chunk`` (whole lines, the first numbered ``line_base``); the ``# newdoc id``
    lines appended to ``newdocs``; :class:`_Irregular` for anything unusual."""
    size = len(chunk)
    padded = np.frombuffer(chunk + bytes(_PADDING), dtype=np.uint8)
    array = padded[:size]
    words = _Words(padded, size)
    tabs = np.flatnonzero(array <= 10)  # the tabs and line breaks (a byte below 9: line by line)
    kinds_of = array[tabs]
    if np.any(kinds_of < 9):
        raise _Irregular
    break_index = np.flatnonzero(kinds_of == 10)
    breaks = tabs[break_index]
    starts = np.concatenate([[0], breaks + 1])
    ends = np.concatenate([breaks, [size]])
    first_tab = np.concatenate([[0], break_index + 1])  # where each line's tabs begin in ``tabs``
    n_tabs = np.concatenate([break_index, [len(tabs)]]) - first_tab
    if b"\r" in chunk:
        ends -= (ends > starts) & (padded[ends - 1] == 13)  # the line's \r, where it has one
        if np.count_nonzero(array == 13) != np.count_nonzero(padded[ends] == 13):
            raise _Irregular  # a \r elsewhere than before a line break
    nonempty = ends > starts
    comments = nonempty & (padded[starts] == ord("#"))
    for line in _maybe_newdoc(padded, starts, comments).tolist():
        match = _NEWDOC.match(chunk[starts[line]:ends[line]].decode("utf-8", "surrogatepass"))
        if match:
            newdocs.append((line_base + line, match.group(1)))
    candidates = np.flatnonzero(nonempty & ~comments & (n_tabs == 9))
    odd = nonempty & ~comments
    odd[candidates] = False
    begin = starts[candidates]
    tab_index = first_tab[candidates]
    id_size = tabs[tab_index] - begin
    head = words.at(begin)
    tokens, skipped = _token_ids(words, begin, head, id_size)
    odd[candidates[~skipped & ~tokens]] = True
    for line in np.flatnonzero(odd).tolist():  # a line of whitespace is skipped; anything else an error
        if chunk[starts[line]:ends[line]].decode("utf-8", "surrogatepass").strip():
            raise _Irregular
    token_rows = candidates[tokens]
    tab_index = tab_index[tokens]
    first = (id_size[tokens] == 1) & ((head[tokens] & np.uint64(0xFF)) == ord("1"))
    kinds, begins = _labels(words, tabs[tab_index + 8] + 1, ends[token_rows])
    word_start = tabs[tab_index] + 1
    sizes = tabs[tab_index + 1] + 1 - word_start  # the word and the tab after it, its separator
    ends_at = np.cumsum(sizes)
    steps = np.ones(ends_at[-1] if len(sizes) else 0, dtype=np.int64)  # from one byte to the next picked
    steps[0:1] = word_start[:1]
    steps[ends_at[:-1]] = word_start[1:] - tabs[tab_index[:-1] + 1]  # from a separator to the next word
    picked = np.cumsum(steps)
    return _Tokens(token_rows + line_base, begins, kinds, first, sizes, array[picked].tobytes(), len(starts))


#: the ASCII bytes that ``\\s`` matches in text; a byte from 0x80 may begin a character it matches
_SPACES = np.zeros(256, dtype=bool)
_SPACES[[ord(c) for c in " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"]] = True
_SPACES[0x80:] = True


def _maybe_newdoc(padded: np.ndarray, starts: np.ndarray, comments: np.ndarray) -> np.ndarray:
    """The comment lines that may be ``# newdoc id`` lines (:data:`_NEWDOC`: ``#``, space, ``newdoc``): all
    but those whose second byte, or third after a space, is an ASCII byte that is neither space nor ``n``."""
    lines = np.flatnonzero(comments)
    second, third = padded[starts[lines] + 1], padded[starts[lines] + 2]
    after = np.where(second == ord(" "), third, second)
    maybe: np.ndarray = lines[_SPACES[after] | (after == ord("n"))]
    return maybe


def _token_ids(words: _Words, begin: np.ndarray, head: np.ndarray, size: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """Of lines of ten columns whose first column starts at ``begin`` (its first 8 bytes ``head``) and has
    ``size`` bytes: which hold a token (an id of digits, the first not 0), and which a multi-word token or
    an empty node (an id with ``-`` or ``.``). Ids longer than :data:`_LONGEST_ID` are neither."""
    kept = _LOW[np.minimum(size, 8)]
    ident = (head & kept) | (np.uint64(_EACH * ord("0")) & ~kept)  # the bytes after the id read as 0s
    high, low = np.uint64(_EACH * 0xF0), np.uint64(_EACH * 0x0F)
    digits = ((ident & high) == np.uint64(_EACH * 0x30)) & (((ident & low) + np.uint64(_EACH * 6)) & high == 0)
    skipped = _has_byte(ident, ord("-")) | _has_byte(ident, ord("."))
    tokens = digits & ~skipped & (size > 0) & (size <= 8) & ((head & np.uint64(0xFF)) != ord("0"))
    long = np.flatnonzero((size > 8) & (size <= _LONGEST_ID))
    if len(long):  # ids of 9 to 16 bytes: the 8 after the first too
        rest = size[long] - 8
        tail_kept = _LOW[rest]
        tail = (words.at(begin[long] + 8) & tail_kept) | (np.uint64(_EACH * ord("0")) & ~tail_kept)
        tail_digits = ((tail & high) == np.uint64(_EACH * 0x30)) & (((tail & low) + np.uint64(_EACH * 6)) & high == 0)
        skipped[long] |= _has_byte(tail, ord("-")) | _has_byte(tail, ord("."))
        tokens[long] = (digits[long] & tail_digits & ~skipped[long] & ((head[long] & np.uint64(0xFF)) != ord("0")))
    return tokens, skipped


def _labels(words: _Words, misc_start: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each token line's labelling (its number in :data:`_KINDS`) and whether it begins an EDU, from
    the items of its last column (``|``-separated, between ``misc_start`` and the line's end; the
    one that starts with a key of :data:`_LABEL_KEYS` the label, :data:`LABELS`); :class:`_Irregular`
    where a line has two such items or one that is no label."""
    n = len(misc_start)
    pipes = np.flatnonzero(words.padded[:words.size] == ord("|")) if n else np.zeros(0, dtype=np.int64)
    owner = np.searchsorted(misc_start, pipes, side="right") - 1  # the token line whose last column may hold it
    inside = (owner >= 0) & (pipes < ends[np.maximum(owner, 0)])
    pipes, owner = pipes[inside], owner[inside]
    kinds, begins, label = _label_items(words, misc_start, ends)  # each column taken as one item
    several = np.zeros(n, dtype=bool)
    several[owner] = True  # (a column of several items, holding a |, is no label)
    if _keyed(words, misc_start[~label & ~several]).any():
        raise _Irregular  # a key without a label's value
    if not len(pipes):
        return kinds, begins
    lines = np.flatnonzero(several)
    item_start = np.concatenate([misc_start[lines], pipes + 1])
    item_line = np.concatenate([lines, owner])
    following = np.searchsorted(pipes, item_start)  # the first | after the item's start, if on its line
    following_at = pipes[np.minimum(following, len(pipes) - 1)]
    item_end = np.where((following < len(pipes)) & (following_at < ends[item_line]), following_at, ends[item_line])
    if np.bincount(item_line[_keyed(words, item_start)], minlength=n).max() > 1:
        raise _Irregular  # two labels in one column
    item_kinds, item_begins, item_label = _label_items(words, item_start, item_end)
    if _keyed(words, item_start[~item_label]).any():
        raise _Irregular
    labelled = np.flatnonzero(item_label)
    kinds[item_line[labelled]] = item_kinds[labelled]
    begins[item_line[labelled]] = item_begins[labelled]
    return kinds, begins


#: the labels of :data:`_LABEL_BYTES` by their first 8 bytes (:func:`_word` of them), in order
_LABEL_HEADS = np.array(sorted(int(_word(item[:8])) for item, _, _ in _LABEL_BYTES), dtype=np.uint64)
_BY_HEAD = sorted(_LABEL_BYTES, key=lambda label: int(_word(label[0][:8])))
_LABEL_SIZES = np.array([len(item) for item, _, _ in _BY_HEAD])
_LABEL_KIND = np.array([kind for _, kind, _ in _BY_HEAD], dtype=np.int8)
_LABEL_BEGINS = np.array([begins for _, _, begins in _BY_HEAD], dtype=bool)
assert len(set(_LABEL_HEADS.tolist())) == len(_LABEL_HEADS), "two labels with the same first 8 bytes"


def _keyed(words: _Words, starts: np.ndarray) -> np.ndarray:
    """Whether each item starting at ``starts`` starts with a key of :data:`_LABEL_KEYS`."""
    first = words.at(starts)
    keyed = np.zeros(len(starts), dtype=bool)
    for key in _LABEL_KEYS:
        head = key.encode()[:8]
        keyed |= (first & _LOW[len(head)]) == _word(head)
        if len(key) > 8:  # BeginSeg=: its ninth byte
            longer = np.flatnonzero(keyed & (first == _word(head)))
            keyed[longer] = words.padded[starts[longer] + 8] == key.encode()[8]
    return keyed


def _label_items(words: _Words, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of each item between ``starts`` and ``ends``, the whole item compared with :data:`LABELS`: its
    labelling (its number in :data:`_KINDS`, 0 for none), whether it begins an EDU, whether it is a label."""
    size = ends - starts
    head = words.at(starts) & _LOW[np.minimum(size, 8)]
    index = np.minimum(np.searchsorted(_LABEL_HEADS, head), len(_LABEL_HEADS) - 1)
    label = (_LABEL_HEADS[index] == head) & (_LABEL_SIZES[index] == size)
    longer = np.flatnonzero(label & (size > 8))
    for item, _, _ in _BY_HEAD:  # the bytes after the first 8
        if len(item) > 8:
            these = longer[_LABEL_HEADS[index[longer]] == _word(item[:8])]
            label[these] = (words.at(starts[these] + 8) & _LOW[len(item) - 8]) == _word(item[8:])
    kinds: np.ndarray = np.where(label, _LABEL_KIND[index], 0).astype(np.int8)
    return kinds, label & _LABEL_BEGINS[index], label


def _starts_with_bom(path: str | Path) -> bool:
    with open(path, "rb") as stream:
        return stream.read(len(codecs.BOM_UTF8)) == codecs.BOM_UTF8


def token_label(misc: str, source: str, line: int) -> tuple[str | None, bool]:
    """The labelling of a token's MISC column (None where it has no segmentation label) and whether it
    begins an EDU (:data:`LABELS`); a FormatError for two labels, a connective's or an unknown one."""
    values = [item for item in misc.split("|") if item.startswith(_LABEL_KEYS)]
    if not values:
        return None, False
    if len(values) > 1:
        raise FormatError(f"{len(values)} segmentation labels in the last column: "
                          f"{printable('|'.join(values), 60)!r}", source, line)
    label = LABELS.get(values[0])
    if label is not None:
        return label
    if _CONNECTIVE.match(values[0]):
        raise FormatError(f"{printable(values[0], 30)!r} labels a discourse connective (PDTB-style connective "
                          "detection), not an EDU boundary", source, line)
    raise FormatError(f"{printable(values[0], 30)!r}: a segmentation label is {SEG_BEGIN}, {SEG_INSIDE} or Seg=I-seg "
                      f"(DISRPT 2023 on), or BeginSeg=Yes (2019-2021)", source, line)


def with_boundaries(file: DisrptFile, boundaries: Mapping[str, Sequence[bool]]) -> str:
    """The text of ``file`` with each document's boundaries replaced by ``boundaries[doc_id]``
    (documents not given keep theirs): only the segmentation label of the last column of token lines
    changes, written ``Seg=B-seg``/``Seg=O`` (added when the column has none; ``_`` replaced; a
    ``BeginSeg=Yes`` of the 2019-2021 labelling dropped); every other byte is kept, a UTF-8 byte-order
    mark too."""
    lines = list(file.lines)
    for document in file.documents:
        new = boundaries.get(document.doc_id)
        if new is None:
            continue
        if len(new) != document.n_tokens:
            raise FormatError(f"document {document.doc_id!r} has {document.n_tokens} tokens, "
                              f"not {len(new)} boundaries", file.path)
        for number, begins in zip(document.line_numbers.tolist(), new):
            lines[number] = _relabelled(lines[number], SEG_BEGIN if begins else SEG_INSIDE)
    return ("\ufeff" if file.bom else "") + "\n".join(lines)


def _relabelled(line: str, label: str) -> str:
    ending = "\r" if line.endswith("\r") else ""
    body = line[:len(line) - len(ending)]
    head, _, misc = body.rpartition("\t")
    items = [] if misc == "_" else misc.split("|")
    seg = [i for i, item in enumerate(items) if item.startswith(("Seg=", "BeginSeg="))]
    if seg:
        items[seg[0]] = label
    else:
        items.append(label)
    return f"{head}\t{'|'.join(items)}{ending}"


def _token_line(number: int, word: str, begins: bool) -> str:
    return f"{number}\t{word}\t_\t_\t_\t_\t_\t_\t_\t{SEG_BEGIN if begins else SEG_INSIDE}\n"


def dumps_segmentation(doc_id: str, tokens: Sequence[str], boundaries: Sequence[bool],
                       sentence_starts: Sequence[bool] | None, *, source: str | None = None) -> str:
    """One document as a DISRPT file: ``.tok`` without ``sentence_starts``, else ``.conllu`` (each
    sentence with ``# sent_id`` and ``# text``); columns 3-9 ``_``. A document id that would not read
    back from its ``# newdoc id`` line (empty, with a line break, with whitespace around it) is a
    :class:`WriteError` naming the document (and ``source``, the file it was read from)."""
    check_doc_id(doc_id, source, ".conllu" if sentence_starts is not None else ".tok", HEADER_ID)
    lines = [f"# newdoc id = {doc_id}\n"]
    if sentence_starts is None:
        lines += [_token_line(i, word, begins) for i, (word, begins) in enumerate(zip(tokens, boundaries), start=1)]
        return "".join(lines) + "\n"
    firsts = [i for i, starts in enumerate(sentence_starts) if starts or i == 0]
    for n, (first, end) in enumerate(zip(firsts, [*firsts[1:], len(tokens)]), start=1):
        lines.append(f"# sent_id = {doc_id}-{n}\n# text = {' '.join(tokens[first:end])}\n")
        lines += [_token_line(i - first + 1, tokens[i], boundaries[i]) for i in range(first, end)]
        lines.append("\n")
    return "".join(lines)


def _tree_tokens(tree: RSTTree, sentences: bool) -> tuple[list[str], list[bool], list[bool] | None]:
    """A tree's whitespace tokens, which begin an EDU, and (``sentences``) which begin a sentence:
    an EDU whose sentence number differs from the previous EDU's. An EDU without a token, or
    without a sentence number when they are asked for, cannot be written."""
    tokens: list[str] = []
    boundaries: list[bool] = []
    starts: list[bool] = []
    previous: int | None = None
    for edu in tree.edus:
        words = edu.text.split()
        if not words:
            raise WriteError(f"document {tree.doc_id!r}: EDU {edu.index} has no text, so no token to begin it")
        if sentences and edu.sentence is None:
            raise WriteError(f"document {tree.doc_id!r} has no sentence numbers on its EDUs, which .conllu needs "
                             "(its format does not carry them): write .tok instead")
        tokens += words
        boundaries += [True] + [False] * (len(words) - 1)
        starts += [edu.sentence != previous] + [False] * (len(words) - 1)
        previous = edu.sentence
    return tokens, boundaries, starts if sentences else None


def write_tok(tree: RSTTree) -> str:
    """A ``.tok`` file of one document: its EDUs' whitespace tokens, numbered from 1."""
    return dumps_segmentation(tree.doc_id or "", *_tree_tokens(tree, sentences=False), source=tree.source)


def write_conllu(tree: RSTTree) -> str:
    """A ``.conllu`` file of one document: sentences from its EDUs' sentence numbers (GUM's
    ``.rsd`` ``sid``), each with ``# sent_id`` and ``# text``; columns 3-9 ``_``. A tree whose EDUs
    carry no sentence numbers cannot be written (write ``.tok``)."""
    return dumps_segmentation(tree.doc_id or "", *_tree_tokens(tree, sentences=True), source=tree.source)


def convert_segmentations(file: DisrptFile, to: str) -> dict[str, str]:
    """Each document of a DISRPT file as its own file in format ``to`` (``tok``, or ``conllu``,
    which needs a ``.conllu`` source: ``.tok`` files have no sentences), by document id."""
    if to not in ("tok", "conllu"):
        raise FormatError(f"a DISRPT file holds EDU segmentations, not trees: it converts to tok or conllu, "
                          f"not {to}", file.path)
    if to == "conllu" and not file.conllu:
        raise FormatError(".tok files have no sentences, which .conllu needs", file.path)
    labelled = [d.labelled() for d in file.documents]
    return {d.doc_id: dumps_segmentation(d.doc_id, d.tokens, d.boundaries, d.sentence_starts if to == "conllu"
                                         else None) for d in labelled}


#: the DISRPT formats ``rstkit convert --to`` writes, by key, with their file-name ending
FORMATS = {"tok": ".tok", "conllu": ".conllu"}


def write_trees(documents: Mapping[str, RSTTree], to: str) -> dict[str, str]:
    """``{file name: text}``: each tree as a DISRPT file of format ``to`` (``tok`` or ``conllu``),
    named by its document id (the key), which is also its ``# newdoc id``."""
    return {f"{doc_id}{FORMATS[to]}": dumps_segmentation(doc_id, *_tree_tokens(tree, sentences=to == "conllu"),
                                                         source=tree.source)
            for doc_id, tree in documents.items()}
