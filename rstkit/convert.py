"""Converting trees: binarized and relabelled as asked, then written in a format.

:func:`convert_tree` is what ``rstkit convert`` and ``rstkit draw`` do to each tree before writing
or drawing it; :func:`convert_documents` writes documents in a format, one text per document;
:func:`unwritable` finds, before any work, text that a format's writer would refuse. A tree's eRST layer
(GUM's secondary edges and signals) is kept through binarization and relabelling (a secondary edge's
relation is mapped as the tree's are; nodes are named by EDU extents, which binarization keeps, as
it only adds nodes) and written by the formats that hold it (rs3, rs4); writing it in another warns
once with what is dropped (:func:`warn_erst_loss`).
"""
from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from typing import Protocol

from .errors import RSTKitError, RSTKitWarning
from .formats import get_format
from .labels import get_label_map
from .settings import Binarization, UnknownLabels
from .transform import binarize as binarize_tree
from .tree import EDU, ROOT, RSTTree, internal, leaf


class TreeSettings(Protocol):
    """What a scoring configuration (:class:`~rstkit.EvalConfig`) says about the trees it scores:
    how gold is binarized and relabelled (convert sits below the metrics, so it names no class of theirs)."""

    @property
    def gold_binarization(self) -> Binarization: ...

    @property
    def labels(self) -> str: ...

    @property
    def unknown_labels(self) -> UnknownLabels: ...


def convert_tree(tree: RSTTree, *, binarize: Binarization = "none", labels: str = "raw",
            unknown_labels: UnknownLabels = "error") -> RSTTree:
    """``tree`` binarized (``binarize``, :func:`rstkit.transform.binarize`), then its relations
    mapped with the label map ``labels``; an unknown label is an error, or kept lowercased."""
    return get_label_map(labels).apply(binarize_tree(tree, binarize), unknown_labels)


def convert_documents(documents: Mapping[str, RSTTree], to: str, *, binarize: Binarization = "none",
                      labels: str = "raw", unknown_labels: UnknownLabels = "error",
                      config: TreeSettings | None = None) -> dict[str, str]:
    """Each document converted (:func:`convert_tree`) and written in format ``to``: ``{file name: text}``,
    each file named by its document id and the format's first extension. ``config`` (an
    :class:`~rstkit.EvalConfig`) gives binarization, label map and unknown-label policy at once, as a
    scoring run binarizes and relabels its gold trees.

    >>> from rstkit import read_documents
    >>> files = convert_documents(read_documents("corpora/sample/gold"), "rsd", binarize="right")
    >>> sorted(files)[:2]
    ['sample_bread.rsd', 'sample_harbour.rsd']
    """
    if config is not None:
        binarize = config.gold_binarization
        labels, unknown_labels = config.labels, config.unknown_labels
    fmt = get_format(to)
    if fmt.write is None:
        raise RSTKitError(f"format {fmt.key!r} can be read but not written")
    get_label_map(labels)
    warn_erst_loss(documents.values(), fmt.key)
    return {f"{doc_id}{fmt.extensions[0]}":
            fmt.write(convert_tree(tree, binarize=binarize, labels=labels, unknown_labels=unknown_labels))
            for doc_id, tree in documents.items()}


#: the formats whose writer writes a tree's eRST layer (secondary edges, signals, signal types)
ERST_FORMATS = frozenset({"rs3", "rs4"})


def warn_erst_loss(trees: Iterable[RSTTree], to: str) -> None:
    """One RSTKitWarning with the secondary edges and signals that writing ``trees`` in format ``to``
    drops (a format other than :data:`ERST_FORMATS`), when there are any: nothing is lost unsaid."""
    if to in ERST_FORMATS:
        return
    edges = signals = documents = 0
    for tree in trees:
        layer = tree.erst
        if layer.secondary_edges or layer.signals:
            edges += len(layer.secondary_edges)
            signals += len(layer.signals)
            documents += 1
    if documents:
        warnings.warn(f"--to {to} drops the eRST layer: {edges:,} secondary edge(s) and {signals:,} signal(s) of "
                      f"{documents:,} document(s) are not written (rs3 and rs4 keep them)",
                      RSTKitWarning, stacklevel=2)


def _probe(text: str) -> RSTTree:
    """A two-EDU tree whose first EDU is ``text``: what a writer is shown to test that text."""
    root = internal(ROOT, None, [leaf(1, "N", "joint"), leaf(2, "N", "joint")])
    return RSTTree(root, (EDU(1, text), EDU(2, "probe")))


def unwritable(text: str, to: str) -> tuple[int | None, str] | None:
    """Whether the writer of format ``to`` would refuse ``text`` as EDU text: None if it writes it,
    else (the offset of the first character it refuses on its own, or None when no single
    character is to blame; the writer's message). Cheap enough to run on every input first.

    >>> unwritable("fine text", "rs3") is None
    True
    >>> unwritable("nul\\x00 here", "rs3")[0]
    3
    """
    write = get_format(to).write
    if write is None:
        raise RSTKitError(f"format {to!r} can be read but not written")
    try:
        write(_probe(text))
        return None
    except RSTKitError as exc:
        message = exc.message
    refused = set()
    for char in set(text):
        try:
            write(_probe(char))
        except RSTKitError:
            refused.add(char)
    offset = next((i for i, c in enumerate(text) if c in refused), None)
    return offset, message

