"""The one tree type of rstkit: an RST document as EDUs plus an n-ary constituency tree.

Conventions (those of RST-DT ``.dis`` files, "rel2par"):

* EDUs are numbered 1..n in textual order; a node covers the inclusive span
  ``(start, end)`` of EDU numbers.
* Every non-root node has a nuclearity, ``"N"`` (nucleus) or ``"S"`` (satellite), and
  the relation it bears to its parent: a satellite carries its relation, the nucleus of
  a mononuclear relation carries ``"span"``, every nucleus of a multinuclear relation
  carries the relation's name.
* The root has nuclearity ``"Root"`` and relation ``None``.

Trees are immutable values: transformations (binarization, label mapping, ...) are
functions that return new trees. Every walk over a tree here is iterative, so equality,
hashing, ``repr``, pickling and copying work on trees of any depth (a 20,000-EDU
right-branching chain included), not only on those within Python's recursion limit.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from .errors import FormatError, RSTKitError, TreeStructureError, printable

if TYPE_CHECKING:  # pragma: no cover
    import nltk

NUCLEUS = "N"
SATELLITE = "S"
ROOT = "Root"
SPAN = "span"

_NUC_WORDS = {NUCLEUS: "Nucleus", SATELLITE: "Satellite", ROOT: ROOT}
_NUC_FROM_WORD = {"nucleus": NUCLEUS, "satellite": SATELLITE, "root": ROOT, "n": NUCLEUS, "s": SATELLITE}


class NuclearityError(FormatError, ValueError):
    """A word that is not a nuclearity (also a ValueError, the type this error had before)."""


def nuclearity_from_word(word: str, path: str | None = None, line: int | None = None) -> str:
    """``"Nucleus"``/``"Satellite"``/``"Root"`` (any case, or ``N``/``S``) to ``N``/``S``/``Root``;
    anything else is a :class:`NuclearityError` naming ``path`` and ``line`` when given."""
    try:
        return _NUC_FROM_WORD[word.lower()]
    except KeyError:
        raise NuclearityError(f"not a nuclearity: {printable(word)!r} (expected Nucleus, Satellite or Root)",
                              path, line) from None


def nuclearity_word(nuc: str) -> str:
    """``N``/``S``/``Root`` to the word used in .dis files (a TreeStructureError for anything else)."""
    try:
        return _NUC_WORDS[nuc]
    except KeyError:
        raise TreeStructureError(f"not a nuclearity: {printable(str(nuc))!r} (expected N, S or Root)") from None


@dataclass(frozen=True, slots=True, init=False)
class EDU:
    """An elementary discourse unit.

    ``sentence`` and ``paragraph`` are 1-based indices of the sentence and paragraph the
    EDU belongs to, where the source format carries them (None otherwise).

    >>> EDU(1, "Rain fell,", sentence=1)
    EDU(index=1, text='Rain fell,', sentence=1, paragraph=None)
    """

    index: int
    text: str = ""
    sentence: int | None = None
    paragraph: int | None = None

    def __init__(self, index: int, text: str = "", sentence: int | None = None, paragraph: int | None = None) -> None:
        # the dataclass's fields set through their slots (see _set_start below): faster
        _set_index(self, index)
        _set_text(self, text)
        _set_sentence(self, sentence)
        _set_paragraph(self, paragraph)


_Walked = TypeVar("_Walked", bound="_HasChildren")


class _HasChildren(Protocol):
    @property
    def children(self) -> Sequence[Any]: ...


def preorder(root: _Walked) -> Iterator[_Walked]:
    """``root`` and every node below it, pre-order (left child first), by ``children``: the walk of
    every tree type (:class:`Node`, attachment trees), iterative, so depth is no limit."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


@dataclass(frozen=True, eq=False, repr=False, slots=True, init=False)
class Node:
    """A constituent: an EDU (no children, ``start == end``) or an internal node.

    Two nodes are equal when their spans, nuclearities, relations and children are
    (``line`` does not count). Equality, hashing, ``repr`` and pickling walk the subtree
    with an explicit stack: no depth limit.

    >>> node = internal(ROOT, None, [leaf(1, "N", "span"), leaf(2, "S", "cause")])
    >>> node.span, node.pattern(), node.arity
    ((1, 2), 'NS', 2)
    >>> bracketed(node)
    '(Root 1-2 (N:span 1) (S:cause 2))'
    """

    start: int
    end: int
    nuclearity: str
    relation: str | None
    children: tuple[Node, ...] = ()
    line: int | None = field(default=None, compare=False, repr=False)

    def __init__(self, start: int, end: int, nuclearity: str, relation: str | None,
                 children: tuple[Node, ...] = (), line: int | None = None) -> None:
        # the dataclass's fields set through their slots (see _set_start below): faster
        _set_start(self, start)
        _set_end(self, end)
        _set_nuclearity(self, nuclearity)
        _set_relation(self, relation)
        _set_children(self, children)
        _set_line(self, line)

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)

    @property
    def is_leaf(self) -> bool:
        return not self.children

    @property
    def arity(self) -> int:
        return len(self.children)

    @property
    def is_multinuclear(self) -> bool:
        """True when all children are nuclei (and there are at least two)."""
        return len(self.children) >= 2 and all(c.nuclearity == NUCLEUS for c in self.children)

    def nodes(self) -> Iterator[Node]:
        """All nodes of this subtree in pre-order (this node first)."""
        return preorder(self)

    def postorder(self) -> Iterator[Node]:
        """All nodes of this subtree in post-order (children before parents)."""
        order = []
        stack = [self]
        while stack:  # reversed pre-order with children pushed left first
            node = stack.pop()
            order.append(node)
            stack.extend(node.children)
        return reversed(order)

    def leaves(self) -> Iterator[Node]:
        return (n for n in self.nodes() if n.is_leaf)

    def pattern(self) -> str:
        """The nuclearity pattern of the children, e.g. ``"SNS"``, ``"NN"``."""
        return "".join(c.nuclearity for c in self.children)

    def _label(self) -> tuple[int, int, str, str | None]:
        return (self.start, self.end, self.nuclearity, self.relation)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        pairs = [(self, other)]
        while pairs:
            a, b = pairs.pop()
            if a is b:
                continue
            if (b.__class__ is not a.__class__ or a._label() != b._label()
                    or len(a.children) != len(b.children)):
                return False
            pairs.extend(zip(a.children, b.children))
        return True

    def __hash__(self) -> int:
        hashes: dict[int, int] = {}
        for node in self.postorder():
            hashes[id(node)] = hash((*node._label(), tuple(hashes[id(c)] for c in node.children)))
        return hashes[id(self)]

    def __repr__(self) -> str:
        """``Node.fromstring('(Root 1-2 (N:span 1) (S:cause 2))')``: the one bracketed line
        (:func:`bracketed`), which evaluates back to an equal node."""
        return f"{type(self).__qualname__}.fromstring({bracketed(self)!r})"

    @classmethod
    def fromstring(cls, text: str) -> Node:
        """The node whose :func:`bracketed` line (or ``repr``'s argument) ``text`` is."""
        return from_bracketed(text)

    def __reduce__(self) -> tuple[Callable[..., Node], tuple[type[Node], list[_Record]]]:
        """Pickle (and copy) as a flat post-order list of node records, not as nested objects."""
        records = [(*n._label(), n.arity, n.line) for n in self.postorder()]
        return (_node_from_records, (type(self), records))


# Readers build millions of nodes and EDUs. A frozen dataclass's generated __init__ sets each
# field with ``object.__setattr__(self, name, value)`` (a name look-up per field); the __init__
# methods of EDU and Node call their slots' own setters instead, about twice as fast, with the
# same signature, defaults and frozen behaviour (assignment after construction still raises).
_set_index, _set_text, _set_sentence, _set_paragraph = (
    getattr(EDU, name).__set__ for name in ("index", "text", "sentence", "paragraph"))
_set_start, _set_end, _set_nuclearity, _set_relation, _set_children, _set_line = (
    getattr(Node, name).__set__ for name in ("start", "end", "nuclearity", "relation", "children", "line"))


#: one node of a pickled subtree: start, end, nuclearity, relation, number of children, line
_Record = tuple[int, int, str, str | None, int, int | None]


def _node_from_records(cls: type[Node], records: list[_Record]) -> Node:
    """Inverse of :meth:`Node.__reduce__`: rebuild a subtree from its post-order records."""
    built: list[Node] = []
    for start, end, nuclearity, relation, arity, line in records:
        children = tuple(built[len(built) - arity:]) if arity else ()
        del built[len(built) - arity:]
        built.append(cls(start, end, nuclearity, relation, children, line))
    return built[0]


#: an inclusive span of EDU numbers, ``(first, last)``
Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class SecondaryEdge:
    """An eRST secondary edge (GUM's ``.rs4`` ``<secedge>``): a relation between two nodes that the
    tree does not hold. ``source`` and ``target`` are the EDU extents of the nodes it joins (a
    node of a tree is its extent: node ids are a file's, extents are the document's).

    >>> SecondaryEdge((3, 3), (1, 2), "elaboration-additional")
    SecondaryEdge(source=(3, 3), target=(1, 2), relation='elaboration-additional')
    """

    source: Span
    target: Span
    relation: str


@dataclass(frozen=True, slots=True)
class Signal:
    """An eRST signal (``<signal>``): what in the text signals a relation. ``source`` is the
    relation signalled: the extent of the node whose relation to its parent it is, or a
    :class:`SecondaryEdge`; ``tokens`` are 1-based indices of the document's tokens (the EDU
    texts split at whitespace, in order), possibly none; ``status`` is kept as the file has it
    (GUM: ``gold`` or none)."""

    source: Span | SecondaryEdge
    type: str
    subtype: str
    tokens: tuple[int, ...] = ()
    status: str | None = None


@dataclass(frozen=True, slots=True)
class ERST:
    """A document's eRST layer beside its tree (Zeldes et al. 2025): secondary edges and signals,
    in file order, and the signal types its header declares (``(type, subtypes)`` in order).
    Immutable, hashable and picklable, like the tree; empty for formats that have none.
    :func:`validate` checks that every extent it names is a node of the tree.

    Nodes are named by extent so that transformations keep the layer: binarization
    (:func:`rstkit.transform.binarize`, every mode) only adds nodes, each original node keeping
    its extent, so every edge and signal stays on the node it was on and the new nodes have
    none; a label map (:meth:`~rstkit.labels.LabelMap.apply`) maps the edges' relations as the
    tree's (:meth:`relabelled`)."""

    secondary_edges: tuple[SecondaryEdge, ...] = ()
    signals: tuple[Signal, ...] = ()
    signal_types: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def is_empty(self) -> bool:
        """Whether there is nothing here: no secondary edge, signal or signal type."""
        return not (self.secondary_edges or self.signals or self.signal_types)

    def extents(self) -> Iterator[Span]:
        """Every node extent named: each edge's source and target, each node signal's source."""
        for edge in self.secondary_edges:
            yield edge.source
            yield edge.target
        for signal in self.signals:
            if isinstance(signal.source, SecondaryEdge):
                yield signal.source.source
                yield signal.source.target
            else:
                yield signal.source

    def relabelled(self, relation: Callable[[str], str]) -> ERST:
        """The layer with every secondary edge's relation mapped by ``relation`` (signals of an
        edge follow it)."""
        if not self.secondary_edges:
            return self
        edges = {edge: replace(edge, relation=relation(edge.relation)) for edge in self.secondary_edges}
        signals = tuple(replace(s, source=edges[s.source]) if isinstance(s.source, SecondaryEdge) else s
                        for s in self.signals)
        return replace(self, secondary_edges=tuple(edges[e] for e in self.secondary_edges), signals=signals)


#: the eRST layer of a tree without one
NO_ERST = ERST()


@dataclass(frozen=True)
class RSTTree:
    """An RST document: its EDUs, its tree, its id.

    ``source`` is the file the tree came from (for error messages); ``extra`` holds
    format-specific data that is not part of the tree (e.g. an .rsd file's other columns);
    ``erst`` is the document's eRST layer (:class:`ERST`: GUM's secondary edges and signals).
    None of the three takes part in equality.

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> tree.doc_id, tree.n_edus, tree.is_binary()
    ('sample_bread', 6, False)
    >>> tree.edus[2].text
    'leave the dough for an hour'
    >>> bracketed(tree.subtree(3, 4))
    '(N:Sequence 3-4 (N:span 3) (S:purpose 4))'
    """

    root: Node
    edus: tuple[EDU, ...]
    doc_id: str = ""
    source: str | None = field(default=None, compare=False)
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    erst: ERST = field(default=NO_ERST, compare=False, repr=False)

    @property
    def n_edus(self) -> int:
        return len(self.edus)

    def nodes(self) -> Iterator[Node]:
        return self.root.nodes()

    def internal_nodes(self) -> Iterator[Node]:
        return (n for n in self.root.nodes() if not n.is_leaf)

    def is_binary(self) -> bool:
        return all(n.arity in (0, 2) for n in self.root.nodes())

    def with_root(self, root: Node) -> RSTTree:
        return replace(self, root=root)

    def edu_texts(self) -> list[str]:
        return [e.text for e in self.edus]

    def subtree(self, start: int, end: int) -> Node:
        """The node covering exactly ``(start, end)``; an RSTKitError if there is none."""
        for node in self.root.nodes():
            if node.span == (start, end):
                return node
        raise RSTKitError(f"{self.doc_id or 'document'}: no node spans {start}-{end}", self.source)

    # -- display ----------------------------------------------------------------------
    def to_nltk(self) -> nltk.Tree:
        return to_nltk(self)

    def _repr_svg_(self) -> str | None:
        """Notebook display as SVG, by the renderer :mod:`rstkit.draw` registers (:func:`register_display`)."""
        render = _DISPLAY.get("svg")
        return render(self) if render else None

    def _repr_html_(self) -> str | None:
        """Notebook display as HTML, by the renderer :mod:`rstkit.draw` registers (:func:`register_display`)."""
        render = _DISPLAY.get("html")
        return render(self) if render else None

    def __str__(self) -> str:
        """The tree on one line (:func:`bracketed`)."""
        return bracketed(self.root)

    @classmethod
    def fromstring(cls, text: str, edus: tuple[EDU, ...] | None = None, doc_id: str = "") -> RSTTree:
        """The tree whose ``str`` is ``text`` (one bracketed line, :func:`bracketed`), as nltk's
        ``Tree.fromstring`` reads back its own output: with ``edus`` (the line holds no EDU texts;
        by default one EDU without text per number, 1..the root's last). A FormatError where
        ``text`` is not such a line; call :func:`validate` to check the tree it describes.

        >>> tree = RSTTree.fromstring("(Root 1-2 (N:span 1) (S:cause 2))")
        >>> str(tree), tree.n_edus
        ('(Root 1-2 (N:span 1) (S:cause 2))', 2)
        """
        root = from_bracketed(text)
        if edus is None:
            edus = tuple(EDU(i) for i in range(1, root.end + 1))
        return cls(root, tuple(edus), doc_id)


#: notebook renderers of trees by kind; filled by rstkit.draw, so that this module knows no drawing
_DISPLAY: dict[str, Callable[[RSTTree], str]] = {}


def register_display(kind: Literal["svg", "html"], render: Callable[[RSTTree], str]) -> None:
    """Let notebooks (IPython, Jupyter and other frontends of the ``_repr_*_`` protocol) show trees
    with ``render``. :mod:`rstkit.draw` registers its diagrams when imported, which ``import
    rstkit`` does."""
    _DISPLAY[kind] = render


def one_line_brackets(root: Node, head: Callable[[Node], str], leaf: Callable[[Node], str]) -> str:
    """A subtree on one line, ``(head child child)``, an EDU as ``leaf(node)``: the one bracket
    writer (:func:`bracketed`, and the bracketed formats with their own labels). Iterative: any depth."""
    out: list[str] = []
    stack: list[Node | str] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif item.is_leaf:
            out.append(leaf(item))
        else:
            out.append(f"({head(item)}")
            stack.append(")")
            for child in reversed(item.children):
                stack.extend((child, " "))
    return "".join(out)


#: a relation written as it is (anything else is written as a JSON string)
_BARE_RELATION = re.compile(r'[^\s()"]+')


def _bracket_label(node: Node) -> str:
    """``nuclearity:relation``: ``Root`` for the root without a relation, the nuclearity alone for
    another node without one, a relation holding spaces, brackets or quotes (or empty) quoted."""
    if node.relation is None:
        return node.nuclearity
    relation = node.relation
    if not _BARE_RELATION.fullmatch(relation):
        relation = json.dumps(relation, ensure_ascii=False)
    return f"{node.nuclearity}:{relation}"


def bracketed(node: Node) -> str:
    """A subtree on one line: each node as ``(nuclearity:relation first-last children...)``, an
    EDU as ``(nuclearity:relation number)``, the root as ``(Root first-last ...)``; e.g.
    ``(Root 1-2 (N:span 1) (S:elaboration 2))``. A node without a relation shows its nuclearity
    alone; a relation with spaces, brackets or quotes is quoted (JSON). :func:`from_bracketed`
    reads it back. Iterative: any depth."""
    return one_line_brackets(node, lambda n: f"{_bracket_label(n)} {n.start}-{n.end}",
                             lambda n: f"({_bracket_label(n)} {n.start})")


_BRACKET_TOKEN = re.compile(r"""\s*(?:
    (?P<open>\()(?P<nuc>[^\s():"]+)(?::(?:(?P<quoted>"(?:[^"\\]|\\.)*")|(?P<bare>[^\s()"]+)))?
    \s+(?P<start>\d+)(?:-(?P<end>\d+))?
    |(?P<close>\)))""", re.VERBOSE)


def from_bracketed(text: str, source: str | None = None) -> Node:
    """The subtree that :func:`bracketed` (and ``str(tree)``) writes, read back; a
    :class:`~rstkit.errors.FormatError` naming the column where ``text`` is not such a line.
    Iterative: any depth.

    >>> from_bracketed("(Root 1-2 (N:span 1) (S:cause 2))") == internal(ROOT, None, [leaf(1, "N", "span"),
    ...                                                                                 leaf(2, "S", "cause")])
    True
    """
    opened: list[tuple[int, int, str, str | None, list[Node], bool]] = []
    done: Node | None = None
    at = 0
    while at < len(text):
        if not text[at:].strip():
            break
        match = _BRACKET_TOKEN.match(text, at)
        if match is None or done is not None:
            where = at + len(text[at:]) - len(text[at:].lstrip())
            problem = "text after the tree" if done is not None else "expected '(label span' or ')'"
            raise FormatError(f"not a bracketed tree at column {where + 1}: {problem}", source, 1)
        at = match.end()
        if match["close"]:
            if not opened:
                raise FormatError(f"not a bracketed tree at column {at}: ')' closes nothing", source, 1)
            start, end, nuc, relation, children, has_range = opened.pop()
            if has_range and not children:
                raise FormatError(f"not a bracketed tree at column {at}: span {start}-{end} without children",
                                  source, 1)
            node = Node(start, end, nuc, relation, tuple(children))
            if opened:
                opened[-1][4].append(node)
            else:
                done = node
            continue
        if opened and not opened[-1][5]:
            raise FormatError(f"not a bracketed tree at column {match.start('open') + 1}: an EDU has no children",
                              source, 1)
        relation = json.loads(match["quoted"]) if match["quoted"] else match["bare"]
        start = int(match["start"])
        end = int(match["end"]) if match["end"] else start
        opened.append((start, end, match["nuc"], relation, [], match["end"] is not None))
    if done is None:
        raise FormatError("not a bracketed tree: " + ("unclosed '('" if opened else "no tree"), source, 1)
    return done


def leaf(index: int, nuclearity: str, relation: str | None, line: int | None = None) -> Node:
    return Node(index, index, nuclearity, relation, (), line)


def internal(nuclearity: str, relation: str | None, children: tuple[Node, ...] | list[Node],
             line: int | None = None) -> Node:
    """An internal node whose span is computed from its children."""
    children = tuple(children)
    return Node(children[0].start, children[-1].end, nuclearity, relation, children, line)


def validate(tree: RSTTree) -> None:
    """Check well-formedness; raise TreeStructureError naming the file and line.

    Checks: leaves numbered 1..n in order and matching the EDU list, every span equal to
    the union of its children's (contiguous), internal nodes with >= 2 children and at
    least one nucleus, nuclearity ``Root`` on the root only, non-root nodes labelled, and
    every extent the eRST layer names (:class:`ERST`) a node of the tree, every signal token one
    of the document's (the EDU texts split at whitespace, numbered from 1).

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> validate(tree)  # well-formed: returns None
    >>> validate(tree.with_root(tree.root.children[1]))
    Traceback (most recent call last):
    ...
    rstkit.errors.TreeStructureError: ...
    """
    path = tree.source
    root = tree.root
    if root.nuclearity != ROOT:
        raise TreeStructureError(f"top node has nuclearity {root.nuclearity!r}, expected Root", path, root.line)
    expected = 1
    for node in root.leaves():
        if node.start != expected or node.end != expected:
            raise TreeStructureError(
                f"EDU numbering is not 1..n in order: found EDU {node.start} where EDU {expected} was expected",
                path, node.line)
        expected += 1
    if expected - 1 != len(tree.edus):
        raise TreeStructureError(f"tree has {expected - 1} EDUs but the EDU list has {len(tree.edus)}", path, root.line)
    for node in root.nodes():
        if node is not root:
            if node.nuclearity not in (NUCLEUS, SATELLITE):
                raise TreeStructureError(f"node {node.start}-{node.end} has nuclearity {node.nuclearity!r}",
                                         path, node.line)
            if not node.relation:
                raise TreeStructureError(f"node {node.start}-{node.end} has no relation", path, node.line)
        if node.is_leaf:
            continue
        if node.arity < 2:
            raise TreeStructureError(f"node {node.start}-{node.end} has a single child (unary node)", path, node.line)
        if not any(c.nuclearity == NUCLEUS for c in node.children):
            raise TreeStructureError(f"node {node.start}-{node.end} has no nucleus among its children "
                                     f"({node.pattern()})", path, node.line)
        if node.children[0].start != node.start or node.children[-1].end != node.end:
            raise TreeStructureError(
                f"span {node.start}-{node.end} does not match its children "
                f"({node.children[0].start}-{node.children[-1].end})", path, node.line)
        for left, right in zip(node.children, node.children[1:]):
            if right.start != left.end + 1:
                raise TreeStructureError(
                    f"children of {node.start}-{node.end} are not contiguous ({left.end} then {right.start})",
                    path, right.line)
    if not tree.erst.is_empty():
        spans = {node.span for node in root.nodes()}
        for start, end in tree.erst.extents():
            if (start, end) not in spans:
                raise TreeStructureError(f"the eRST layer names EDUs {start}-{end}, which no node of the tree spans",
                                         path)
        n_tokens = sum(len(edu.text.split()) for edu in tree.edus)
        for signal in tree.erst.signals:
            if signal.tokens and not 1 <= min(signal.tokens) <= max(signal.tokens) <= n_tokens:
                raise TreeStructureError(f"a {signal.type}/{signal.subtype} signal names tokens "
                                         f"{min(signal.tokens)}-{max(signal.tokens)}, outside the document's "
                                         f"1-{n_tokens}", path)


# -- nltk interop ---------------------------------------------------------------------
# Both conversions are iterative. nltk.Tree itself recurses in some methods (==, repr,
# pformat, leaves, height): on trees deeper than about 900 levels call only those that
# do not (indexing, label(), len(), subtrees via an explicit stack).
def to_nltk(tree: RSTTree) -> nltk.Tree:
    """Convert to an ``nltk.Tree``.

    Internal labels are ``Nucleus:relation`` / ``Satellite:relation``, the top is
    ``Root``; each EDU is a pre-terminal whose single leaf is the EDU text.

    >>> from rstkit.formats.dis import loads_dis
    >>> tree = loads_dis("( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!Rain fell,_!) )"
    ...                  " ( Satellite (leaf 2) (rel2par cause) (text _!so we stayed in._!) ) )")
    >>> print(to_nltk(tree))
    (Root (Nucleus:span Rain fell,) (Satellite:cause so we stayed in.))
    """
    import nltk

    def label(node: Node) -> str:
        if node.nuclearity == ROOT:
            return ROOT
        return f"{nuclearity_word(node.nuclearity)}:{node.relation}"

    built: dict[int, nltk.Tree] = {}
    for node in tree.root.postorder():
        if node.is_leaf:
            built[id(node)] = nltk.Tree(label(node), [tree.edus[node.start - 1].text])
        else:
            built[id(node)] = nltk.Tree(label(node), [built[id(c)] for c in node.children])
    return built[id(tree.root)]


def from_nltk(t: nltk.Tree, doc_id: str = "") -> RSTTree:
    """Inverse of :func:`to_nltk`. Spans are recomputed from the leaves.

    >>> import nltk
    >>> tree = from_nltk(nltk.Tree.fromstring("(Root (Nucleus:span Rain) (Satellite:cause fell))"), doc_id="d")
    >>> print(tree)
    (Root 1-2 (N:span 1) (S:cause 2))
    >>> tree.edu_texts()
    ['Rain', 'fell']
    """
    import nltk

    def parse_label(lab: object) -> tuple[str, str | None]:
        lab = str(lab)
        if lab == ROOT:
            return ROOT, None
        word, sep, rel = lab.partition(":")
        if not sep:
            raise TreeStructureError(f"nltk label {printable(lab)!r} is not 'Nucleus:rel', 'Satellite:rel' or 'Root'")
        return nuclearity_from_word(word), rel

    texts: list[str] = []
    built: list[Node] = []  # finished subtrees, the latest last
    stack: list[tuple[object, bool]] = [(t, False)]
    while stack:
        sub, expanded = stack.pop()
        if not isinstance(sub, nltk.Tree):
            raise TreeStructureError(f"nltk tree: the text {printable(str(sub))!r} is not the only child of "
                                     "its node (an EDU is a node with one text leaf)")
        if len(sub) == 0:
            raise TreeStructureError(f"nltk tree: node {printable(str(sub.label()))!r} has no children")
        if len(sub) == 1 and not isinstance(sub[0], nltk.Tree):
            texts.append(str(sub[0]))
            built.append(leaf(len(texts), *parse_label(sub.label())))
        elif not expanded:
            stack.append((sub, True))
            stack.extend((child, False) for child in reversed(sub))
        else:
            children = built[len(built) - len(sub):]
            del built[len(built) - len(sub):]
            built.append(internal(*parse_label(sub.label()), children))
    root = built[0]
    edus = tuple(EDU(i + 1, text) for i, text in enumerate(texts))
    result = RSTTree(root, edus, doc_id)
    validate(result)
    return result
