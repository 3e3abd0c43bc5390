"""Named corpora: ``gum`` and ``rstdt`` are wherever the user says they are.

A name resolves to the directory given with it, else to the one its environment variable
holds (``$RSTKIT_GUM``, ``$RSTKIT_RSTDT``), never to a path guessed from the working
directory or the installation; the error says what was tried.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import CorpusError
from .kinds import GUM, RSTDT, Corpus, CorpusKind, open_corpus

#: corpus name -> its kind (whose ``variable`` names the environment variable)
NAMED_CORPORA: dict[str, CorpusKind] = {"gum": GUM, "rstdt": RSTDT}


def resolve_corpus(spec: str | Path, root: str | Path | None = None) -> Corpus:
    """The corpus ``spec`` names or points to.

    ``gum`` and ``rstdt`` are opened at ``root`` when it is given, else at the directory in
    their environment variable; any other ``spec`` is a directory (:func:`open_corpus`).

    >>> resolve_corpus("corpora/sample/gold").root.name
    'gold'
    """
    kind = NAMED_CORPORA.get(str(spec))
    if kind is None:
        return open_corpus(spec)
    variable = kind.variable
    where, origin = (root, "the directory given") if root else (os.environ.get(variable or ""), f"${variable}")
    if not where:
        raise CorpusError(f"where is the {spec} corpus? ${variable} is not set: set {variable} to its directory, "
                          "or give the directory")
    if not Path(where).is_dir():
        raise CorpusError(f"{spec} corpus not found: {origin} is not a directory; set {variable} to the "
                          "corpus's directory, or give the directory", str(where))
    try:
        return kind.open(Path(where), None)
    except CorpusError as exc:
        raise CorpusError(f"{exc.message} (the {spec} corpus, from {origin})", exc.path, exc.line) from None
