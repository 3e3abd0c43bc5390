"""One exception hierarchy for everything rstkit rejects.

Every error names where the problem is (file and, when known, line) and what it is, so
the CLI can print it as one line: ``path:line: problem``.
"""
from __future__ import annotations


class RSTKitError(Exception):
    """Base class of all rstkit errors."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = self.path or ""
        if where and self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}" if where else self.message


class FormatError(RSTKitError):
    """A file is not well-formed in the format it claims (brackets, tokens, tags)."""


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
        super().__init__(f"{len(self.errors)} input(s) failed:\n" + "\n".join(str(e) for e in self.errors))


class RSTKitWarning(UserWarning):
    """Something was accepted but deserves attention (a lenient repair, a 1-EDU document)."""
