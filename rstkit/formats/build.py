"""Helpers shared by the parser-output formats: building rel2par trees, label spelling, ids.

Many parsers put the relation on the *parent* with a nuclearity pair for its two
children (``NS``, ``SN``, ``NN``); :func:`attach` turns that into rstkit's rel2par
convention and :func:`parent_label` is its inverse, used by writers
(docs/formats.md#the-normalised-tree). Readers output relations in the canonical spelling of
docs/formats.md#label-spelling (:func:`canonical_relations`); writers spell the 18 RST-DT classes the way each
parser does (:class:`Spelling`) and write any other label in canonical form.
"""
from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from ..errors import BinarizationError, FormatError, LabelError, RSTKitWarning, TreeStructureError, printable
from ..labels import RSTDT18_CANONICAL, canonical_label
from ..tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree, validate

PAIRS = ("NS", "SN", "NN")


# -- reading ---------------------------------------------------------------------------
def relabel(node: Node, nuclearity: str, relation: str | None) -> Node:
    """``node`` with another nuclearity and relation (what its parent says about it)."""
    return replace(node, nuclearity=nuclearity, relation=relation)


def attach(pair: str, relation: str, left: Node, right: Node, source: str | None, line: int | None) -> Node:
    """The binary node over ``left`` and ``right`` whose relation is written on the parent.

    ``NS``: left ``N``/``span``, right ``S``/relation; ``SN``: the mirror image; ``NN``:
    both ``N``/relation. The new node's own nuclearity is ``Root`` until its parent says
    otherwise (see :func:`relabel`). Any other pair (``SS``) is a :class:`FormatError` at
    ``source``:``line``.
    """
    if pair not in PAIRS:
        raise FormatError(f"node '{printable(relation, 30)}' gives its children the nuclearity {pair}: a node needs a "
                          "nucleus (expected NS, SN or NN)", source, line)
    kids = []
    for code, child in zip(pair, (left, right)):
        nuclearity = NUCLEUS if code == "N" else SATELLITE
        own = relation if (nuclearity == SATELLITE or pair == "NN") else SPAN
        kids.append(relabel(child, nuclearity, own))
    return Node(left.start, right.end, ROOT, None, tuple(kids), line)


_canonical = lru_cache(maxsize=4096)(canonical_label)  # a corpus uses few distinct labels


def relabel_all(root: Node, spell: Callable[[str], str]) -> Node:
    """``root``'s subtree with every relation passed through ``spell`` (iterative: any depth)."""
    done: dict[int, Node] = {}
    for node in root.postorder():
        relation = spell(node.relation) if node.relation is not None else None
        children = tuple([done.pop(id(c)) for c in node.children])
        done[id(node)] = Node(node.start, node.end, node.nuclearity, relation, children, node.line)
    return done[id(root)]


def canonical_relations(node: Node) -> Node:
    """``node``'s subtree with every relation in canonical spelling (docs/formats.md#label-spelling)."""
    return relabel_all(node, _canonical)


def finish(root: Node, edus: list[EDU], doc_id: str, source: str | None) -> RSTTree:
    """The validated tree of one document, relations in canonical spelling; a relation label with
    an unprintable character (a control character, a line separator) is a :class:`FormatError`."""
    for node in root.nodes():
        if node.relation is not None and not node.relation.isprintable():
            raise FormatError(f"relation label '{printable(node.relation)}' holds an unprintable character",
                              source, node.line)
    tree = RSTTree(canonical_relations(root), tuple(edus), doc_id, source)
    validate(tree)
    return tree


def loads_dis_syntax(fmt: str, text: str, path: str | Path | None, *, doc_id: str,
                     lenient: bool = False) -> RSTTree:
    """Read a parser's file in RST-DT dis syntax; syntax errors name ``fmt``, relations
    come out canonical."""
    from .dis import loads_dis

    try:
        tree = loads_dis(text, path, doc_id=doc_id, lenient=lenient)
    except FormatError as exc:
        message = printable(exc.message, limit=None)  # the same escaping as every reader, whatever dis's does
        raise FormatError(f"not a valid {fmt} file (dis syntax): {message}", exc.path, exc.line) from None
    return tree.with_root(canonical_relations(tree.root))


def looks_like_dis(text: str) -> bool:
    """Whether text starts like a dis-syntax tree (the sniff of every dis-syntax format)."""
    from .dis import _sniff

    return _sniff(text)


@dataclass
class LeafCounter:
    """Numbers EDUs in reading order and checks numbers a file declares.

    A declared number that differs from the position is an error, or, with ``lenient``,
    a warning (the position wins).
    """

    fmt: str
    source: str
    lenient: bool = False
    edus: list[EDU] = field(default_factory=list)

    def add(self, declared: int | None = None, text: str = "", line: int | None = None,
            sentence: int | None = None, paragraph: int | None = None) -> Node:
        index = len(self.edus) + 1
        if declared is not None and declared != index:
            message = f"{self.fmt}: EDU numbered {declared} where EDU {index} is expected"
            if not self.lenient:
                raise TreeStructureError(message, self.source, line)
            warnings.warn(f"{self.source}:{line}: {message}; renumbered (lenient)", RSTKitWarning, stacklevel=2)
        self.edus.append(EDU(index, text, sentence, paragraph))
        return Node(index, index, ROOT, None, (), line)


# -- writing ---------------------------------------------------------------------------
def parent_label(node: Node, fmt: str, source: str | None = None) -> tuple[str, str | None]:
    """Nuclearity pair and relation of a binary node, for formats that write them on the
    parent: the satellite's relation, or for ``NN`` the left nucleus's (docs/formats.md#the-normalised-tree).

    Information such a format cannot hold (two nuclei with different relations, a nucleus
    of a mononuclear relation not labelled ``span``) is dropped with a warning.
    """
    if node.arity != 2:
        raise BinarizationError(f"{fmt} holds binary trees only: node {node.start}-{node.end} has "
                                f"{node.arity} children (binarize first)", source, node.line)
    left, right = node.children
    pair = left.nuclearity + right.nuclearity
    if pair not in PAIRS:
        raise TreeStructureError(f"node {node.start}-{node.end} has no nucleus ({pair})", source, node.line)
    if pair == "NN":
        relation, lost = left.relation, right.relation if right.relation != left.relation else None
    else:
        satellite, nucleus = (right, left) if pair == "NS" else (left, right)
        relation, lost = satellite.relation, nucleus.relation if nucleus.relation != SPAN else None
    if lost is not None:
        warnings.warn(f"{source or '<tree>'}: node {node.start}-{node.end}: {fmt} writes one relation per "
                      f"node; {lost!r} is dropped in favour of {relation!r}", RSTKitWarning, stacklevel=2)
    return pair, relation


_WRITABLE_LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.\-]*$")
_CASES: dict[str, Callable[[str], str]] = {
    "lower": lambda label: label,
    "title": lambda label: "-".join(part[:1].upper() + part[1:] for part in label.split("-")),
}


@dataclass(frozen=True)
class Spelling:
    """How a parser spells relation labels, applied by its writer.

    The 18 RST-DT classes get ``case`` (``lower``: ``manner-means``, ``title``:
    ``Manner-Means``), without hyphens when ``drop_hyphens``, unless ``exceptions``
    spells them otherwise. Any other label is
    written canonical with ``case`` applied, hyphens kept, so that it reads back as it was.
    """

    fmt: str
    case: str = "lower"
    drop_hyphens: bool = False
    exceptions: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, label: str | None) -> str:
        if label is None:
            raise LabelError(f"{self.fmt}: a non-root node has no relation")
        canon = canonical_label(label)
        if canon == SPAN:
            return SPAN
        if canon in self.exceptions:
            return self.exceptions[canon]
        if not _WRITABLE_LABEL.match(canon):
            raise LabelError(f"relation label {label!r} cannot be written in format {self.fmt} "
                             "(only letters, digits, '.' and '-')")
        spelled = _CASES[self.case](canon)
        return spelled.replace("-", "") if self.drop_hyphens and canon in RSTDT18_CANONICAL else spelled


def respell(tree: RSTTree, spell: Spelling) -> RSTTree:
    """``tree`` with every relation in a parser's spelling (for writers built on dis's)."""
    return tree.with_root(relabel_all(tree.root, spell))


# -- text ------------------------------------------------------------------------------
_PTB_BRACKETS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}
_PTB_PATTERN = re.compile("|".join(re.escape(k) for k in _PTB_BRACKETS))


def ptb_unescape(text: str) -> str:
    """PTB bracket tokens (``-LRB-`` ...) back to brackets; non-breaking spaces to spaces."""
    return _PTB_PATTERN.sub(lambda m: _PTB_BRACKETS[m.group(0)], text).replace("\u00a0", " ")


def ptb_escape_parentheses(text: str) -> str:
    """Round brackets to ``-LRB-``/``-RRB-`` (what CoreNLP-tokenised parser output holds)."""
    return text.replace("(", "-LRB-").replace(")", "-RRB-")
