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
"""
from __future__ import annotations

import codecs
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from ..errors import CorpusError, FormatError, WriteError, printable
from ..folders import walk_files
from ..tree import EDU, RSTTree
from . import known_suffixes, read_text
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


@dataclass(frozen=True)
class DisrptDocument:
    """One document of a DISRPT file: its tokens, which of them begin an EDU, which begin a
    sentence (None in ``.tok`` files, which have no sentences), the 0-based line of each
    token in the file's lines (what :func:`with_boundaries` rewrites), and its labelling
    (:data:`SEG_LABELS` or :data:`BEGINSEG_LABELS`; None where no token has a segmentation label)."""

    doc_id: str
    source: str
    tokens: tuple[str, ...]
    boundaries: tuple[bool, ...]
    sentence_starts: tuple[bool, ...] | None
    token_lines: tuple[int, ...]
    labelling: str | None = None

    def labelled(self) -> DisrptDocument:
        """The document, whose boundaries may be used; a FormatError naming its file and first token's line
        when it has tokens but no segmentation label (read as no boundary, it would score 0, or 100 against
        itself by accident)."""
        if self.labelling is None and self.tokens:
            raise FormatError(f"document {self.doc_id!r} has no segmentation label on any of its {len(self.tokens)} "
                              f"tokens: the last column labels EDU boundaries {SEG_LABELS} or {BEGINSEG_LABELS}",
                              self.source, self.token_lines[0] + 1)
        return self

    def edus(self) -> tuple[EDU, ...]:
        """The document's EDUs (tokens joined by spaces; tokens before the first boundary make one
        too), with sentence numbers where the file has sentences."""
        edus: list[EDU] = []
        words: list[str] = []
        sentence = 0
        sentence_of_edu: int | None = None
        for i, token in enumerate(self.tokens):
            starts_sentence = self.sentence_starts is not None and self.sentence_starts[i]
            sentence += starts_sentence
            if words and (self.boundaries[i] or starts_sentence):
                edus.append(EDU(len(edus) + 1, " ".join(words), sentence_of_edu))
                words = []
            if not words:
                sentence_of_edu = sentence if self.sentence_starts is not None else None
            words.append(token)
        if words:
            edus.append(EDU(len(edus) + 1, " ".join(words), sentence_of_edu))
        return tuple(edus)


@dataclass(frozen=True)
class DisrptFile:
    """A DISRPT file as read: its lines (split at ``\\n``, line endings otherwise kept), documents,
    and whether it began with a UTF-8 byte-order mark (which :func:`read_text` leaves out of the text
    and :func:`with_boundaries` puts back)."""

    path: str
    conllu: bool
    lines: tuple[str, ...]
    documents: tuple[DisrptDocument, ...]
    bom: bool = False


def is_disrpt(path: str | Path) -> bool:
    """Whether a file name is a DISRPT file's (``.tok`` or ``.conllu``)."""
    return str(path).lower().endswith(EXTENSIONS)


def is_disrpt_input(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a DISRPT file, or a directory that holds some."""
    path = Path(path)
    if path.is_dir():
        return any(is_disrpt(p.name) for p in walk_files(path).files)
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
    ``B-seg``/``O``, a token before the first ``# newdoc id``, a document id given twice)."""
    source = str(path)
    conllu = source.lower().endswith(".conllu")
    try:
        lines = tuple(read_text(path, encoding=encoding).split("\n"))
    except FormatError as exc:  # a DISRPT file is read as it is: no lenient repair gets past its bytes
        exc.fixes = tuple(fix for fix in exc.fixes if fix != "lenient")
        raise
    bom = (encoding is None or codecs.lookup(encoding).name == "utf-8") and _starts_with_bom(path)
    documents: list[DisrptDocument] = []
    seen: set[str] = set()
    current: tuple[str, list[str], list[bool], list[bool], list[int]] | None = None
    labelling: tuple[str, int] | None = None  # the current document's labelling and its first line

    def close() -> None:
        if current is not None:
            doc_id, tokens, boundaries, starts, where = current
            documents.append(DisrptDocument(doc_id, source, tuple(tokens), tuple(boundaries),
                                            tuple(starts) if conllu else None, tuple(where),
                                            labelling[0] if labelling else None))

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
    return DisrptFile(source, conllu, lines, tuple(documents), bom)


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
        if len(new) != len(document.tokens):
            raise FormatError(f"document {document.doc_id!r} has {len(document.tokens)} tokens, "
                              f"not {len(new)} boundaries", file.path)
        for number, begins in zip(document.token_lines, new):
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
