"""One exception hierarchy for everything rstkit rejects.

Every error names where the problem is (file and, when known, line) and what it is, so
the CLI can print it as one line: ``path:line: problem``.

An error that a setting would get past carries that setting's name in ``fixes`` (names from
:data:`FIXES`, e.g. ``"lenient"``). Library messages never mention command-line flags: the CLI
turns ``fixes`` into a hint naming its own flags, and Python users read ``error.fixes``.
"""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from typing import TypeVar

#: settings an error can point to as its fix, with what each does (library wording, no CLI flags)
FIXES = {
    "lenient": "repair extents / score mismatched EDUs as the reference does (lenient=True)",
    "unknown_labels": "keep unknown labels, lowercased (unknown_labels='keep')",
    "labels": "choose another label map",
    "missing": "score gold documents without prediction anyway (missing='skip' or 'zero')",
    "pred_format": "name the prediction format explicitly",
    "gold_format": "name the gold format explicitly",
    "format": "name the format of the input explicitly (format=KEY)",
    "force": "overwrite existing output files",
    "edus_aligned": "score predictions whose EDUs differ from the gold by aligning characters",
    "encoding": "name the encoding of the input files (encoding='latin-1', ...)",
    "no_segmenter": "read .txt files as one EDU per line, not as plain text to segment (segmenter=None)",
    "skip_errors": "leave the unreadable documents of a folder or corpus out, listed as warnings (skip_errors=True)",
}


def caller_stacklevel() -> int:
    """The ``stacklevel`` for ``warnings.warn`` that names the first line outside rstkit (and outside
    the context managers wrapping its functions) as the warning's origin: the user's call, at
    whatever depth inside rstkit the warning is raised."""
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_INTERNAL):
        frame, level = frame.f_back, level + 1
    return level


#: where the frames that a warning's origin skips come from: rstkit, and contextlib's decorators
_INTERNAL = (os.path.dirname(os.path.abspath(__file__)) + os.sep, os.path.abspath(contextlib.__file__))


def printable(text: str, limit: int | None = 40) -> str:
    """``text`` for an error message: unprintable characters escaped (``\\x00``, ``\\n``, ``\\u200b``),
    cut to ``limit`` characters with ``...``; the same rendering in every reader. With ``limit=None``
    the one way text from the inputs (labels, document ids, file names, EDU text) is shown wherever it
    is printed: warnings and notes, reports other than JSON, ``stats``, ``draw``'s text drawing; so an
    input's escape sequences reach no terminal (``\\x1b`` is shown as four characters)."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if limit is not None and len(shown) > limit:
        shown = shown[:limit] + "..."
    return shown


class RSTKitError(Exception):
    """Base class of all rstkit errors."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None, *,
                 fixes: Sequence[str] = ()):
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        unknown = [f for f in fixes if f not in FIXES]
        if unknown:
            raise ValueError(f"unknown fix name(s) {unknown}; known: {', '.join(FIXES)}")
        self.fixes = tuple(fixes)
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = self.path or ""
        if where and self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}" if where else self.message

    def __reduce__(self) -> tuple:
        """Pickled with its attributes (message, path, line, fixes, errors), so that an error raised in
        a worker process reads the same in the parent."""
        return (_restore, (type(self), self.args, self.__dict__))


E = TypeVar("E", bound=BaseException)


def detached(error: E) -> E:
    """``error`` as it leaves a worker process: without the exception it was raised while handling
    and without its traceback (a reader's exception, such as lark's, can hold what does not pickle,
    and a pickling helper that carries an exception's context along, as tblib does once ``distributed``
    is imported, would fail on it); the errors of a :class:`ManyErrors` too. Only the error's own
    attributes travel, which is what :meth:`RSTKitError.__reduce__` sends."""
    error.__context__ = error.__cause__ = None
    error.__traceback__ = None
    for each in getattr(error, "errors", ()):
        detached(each)
    return error


def _restore(cls: type[RSTKitError], args: tuple, state: dict) -> RSTKitError:
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class FormatError(RSTKitError):
    """A file is not well-formed in the format it claims (brackets, tokens, tags)."""


class WriteError(FormatError):
    """A tree holds something its output format cannot represent (a character of an EDU text, a
    relation label): the writer refuses it, naming the document, the EDU and the character, before it
    returns any text."""


class TreeStructureError(RSTKitError):
    """A tree is syntactically fine but violates RST well-formedness
    (extents, EDU numbering, nodes without a nucleus, unary chains)."""


class BinarizationError(RSTKitError):
    """A node has a pattern the chosen binarization does not define."""


class LabelError(RSTKitError):
    """A relation label is unknown to the chosen label map."""


class EDUMismatchError(RSTKitError):
    """Gold and predicted trees of one document are over different EDUs."""


class MissingDocumentError(RSTKitError):
    """Documents of the gold set have no prediction (or cannot be found)."""


class CorpusError(RSTKitError):
    """A corpus directory does not have the expected layout."""


class ManyErrors(RSTKitError):
    """Several inputs failed; each error is kept so all can be reported at once."""

    def __init__(self, errors: list[RSTKitError]):
        self.errors = list(errors)
        fixes = dict.fromkeys(f for e in self.errors for f in e.fixes)
        super().__init__(f"{len(self.errors)} input(s) failed:\n" + "\n".join(str(e) for e in self.errors),
                         fixes=tuple(fixes))


class RSTKitWarning(UserWarning):
    """Something was accepted but deserves attention (a lenient repair, a 1-EDU document)."""
