"""What a writer cannot write, refused in one way by every writer, before it returns any text.

Each format escapes what it can (XML entities, Python string escapes, CODRA's quotes, PTB
bracket tokens) and declares the rest as :class:`Unwritable` rules: a pattern of EDU text or
relation label that would not read back as it was (it would end an EDU text early, be taken
for a marker, or is not allowed by the format at all). :func:`writer` wraps a format's
function of one tree: it checks the rules first and raises :class:`~rstkit.errors.WriteError`
naming the document, the EDU (or node) and the characters found; any other error the writer
raises gets the document's name too. What a format only normalises (leading and trailing
whitespace of EDU text, whitespace runs in token formats) is documented by the format, not
refused.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..errors import ManyErrors, RSTKitError, WriteError, printable
from ..tree import EDU, RSTTree


@dataclass(frozen=True)
class Unwritable:
    """Text a format cannot hold: a ``pattern`` to search for and ``why`` (a phrase, "which ...")."""

    pattern: re.Pattern[str]
    why: str


#: lone surrogates: a str may hold them (an API caller's text), UTF-8 output cannot
SURROGATE = Unwritable(re.compile("[\ud800-\udfff]"), "a lone surrogate, which UTF-8 cannot encode")
#: characters XML 1.0 does not allow, even escaped: every code point but its ``Char`` production (tab, line
#: feed, carriage return, U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF), listed as they are few (the
#: complement of that production, written as such, takes 10 times longer to compile at each start)
NOT_XML = Unwritable(re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]"),
                     "which XML cannot hold, even escaped")
#: Penn Treebank bracket tokens: formats that write brackets as these read the tokens back as brackets
PTB_TOKEN = Unwritable(re.compile(r"-[LR][RSC]B-"), "a Penn Treebank bracket token, which this format reads back "
                                                    "as a bracket")
#: in formats that write brackets as PTB tokens: a token in the text, or one that writing a bracket after
#: ``-LRB`` (...) would make (``-LRB(`` is written ``-LRB-LRB-``, read back ``(LRB-``)
PTB_ESCAPED = Unwritable(re.compile(r"-[LR][RSC]B(?:-|(?=[()]))"),
                         "a Penn Treebank bracket token (or one with the bracket after it), which this format "
                         "reads back as a bracket")
#: a line break, in formats with one EDU a line
LINE_BREAK = Unwritable(re.compile("\n"), "a line break, which this format cannot hold (one EDU a line)")
#: what a document id written on a header line (DISRPT's ``# newdoc id = ID``) cannot hold: a line break
#: would end the line there (the rest read as lines of their own), and the reader strips whitespace around it
HEADER_ID = (Unwritable(re.compile("[\n\r]"), "a line break, which would end the header line that holds it"),
             Unwritable(re.compile(r"^\s+|\s+$"), "whitespace at its start or end, which the reader strips"))


def shown(found: str) -> str:
    """``found`` for a message: quoted, printable, with its code points (``'\\x00' (U+0000)``)."""
    points = " ".join(f"U+{ord(c):04X}" for c in found[:4]) + (" ..." if len(found) > 4 else "")
    return f"'{printable(found, 30)}' ({points})"


def _source(tree: RSTTree) -> str | None:
    return tree.source if tree.source and tree.source != "<string>" else None


def check_texts(edus: Iterable[EDU], doc_id: str, source: str | None, fmt: str, rules: Sequence[Unwritable]) -> None:
    """A :class:`WriteError` for the first EDU text that one of ``rules`` (or :data:`SURROGATE`) finds."""
    for edu in edus:
        for rule in (SURROGATE, *rules):
            found = rule.pattern.search(edu.text)
            if found:
                raise WriteError(f"cannot write document '{printable(doc_id)}' as {fmt}: EDU {edu.index} "
                                 f"holds {shown(found.group())}, {rule.why}", source)


def check_doc_id(doc_id: str, source: str | None, fmt: str, rules: Sequence[Unwritable]) -> None:
    """A :class:`WriteError` for a document id that a format writing it in the file cannot hold: an
    empty one, or one that one of ``rules`` (or :data:`SURROGATE`) finds; ``source``: the file the
    document was read from (None or ``<string>``: none)."""
    source = source if source != "<string>" else None
    if not doc_id:
        raise WriteError(f"cannot write a document without an id as {fmt}, which writes the id in the file", source)
    for rule in (SURROGATE, *rules):
        found = rule.pattern.search(doc_id)
        if found:
            raise WriteError(f"cannot write document '{printable(doc_id)}' as {fmt}: its id holds "
                             f"{shown(found.group())}, {rule.why}", source)


def check_labels(tree: RSTTree, fmt: str, rules: Sequence[Unwritable]) -> None:
    """A :class:`WriteError` for the first relation label that one of ``rules`` (or :data:`SURROGATE`) finds."""
    for node in tree.root.nodes():
        if node.relation is None:
            continue
        if not node.relation:
            raise WriteError(f"cannot write document '{printable(tree.doc_id)}' as {fmt}: node {node.start}-"
                             f"{node.end} has an empty relation label", _source(tree), node.line)
        for rule in (SURROGATE, *rules):
            found = rule.pattern.search(node.relation)
            if found:
                raise WriteError(f"cannot write document '{printable(tree.doc_id)}' as {fmt}: the relation label "
                                 f"'{printable(node.relation)}' of node {node.start}-{node.end} holds "
                                 f"{shown(found.group())}, {rule.why}", _source(tree), node.line)


def writer(fmt: str, texts: Sequence[Unwritable] | None = (), labels: Sequence[Unwritable] = ()
           ) -> Callable[[Callable[[RSTTree], str]], Callable[[RSTTree], str]]:
    """Decorate a writer of one tree in format ``fmt``: EDU texts (unless ``texts`` is None: a format
    that writes no text) and relation labels are checked against the rules before it runs, and any
    rstkit error it raises names the document."""
    def decorate(dumps: Callable[[RSTTree], str]) -> Callable[[RSTTree], str]:
        @functools.wraps(dumps)
        def write(tree: RSTTree) -> str:
            if texts is not None:
                check_texts(tree.edus, tree.doc_id, _source(tree), fmt, texts)
            check_labels(tree, fmt, labels)
            try:
                return dumps(tree)
            except (WriteError, ManyErrors):
                raise
            except RSTKitError as exc:
                named = type(exc)(f"cannot write document '{printable(tree.doc_id)}' as {fmt}: {exc.message}",
                                  _source(tree) if exc.path in (None, "<string>") else exc.path, exc.line,
                                  fixes=exc.fixes)
                raise named from None
        return write
    return decorate
