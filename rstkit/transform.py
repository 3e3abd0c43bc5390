"""Tree transformations: binarization, Marcu's encoding, labelled attachment decisions.

Binarization modes (docs/evaluation.md#binarization):

``right`` (default, "right-heavy" as Morey et al. define it)
    Every node of arity > 2 becomes a right-branching cascade, recursively, all the way
    down. All-nuclei nodes ``N1 N2 ... Nk`` become ``(N1, M(N2, M(... Nk)))``; new nodes
    are nuclei carrying the relation of ``N1``. A nucleus with satellites attaches the
    satellites on its right first (nearest first), then those on its left (nearest
    first); new nodes are nuclei labelled ``span``. So ``S N S`` becomes ``(S, M(N, S))``.
    This mode also defines patterns the reference rejects: ``N S S`` -> ``(M(N, S), S)``,
    ``S S N`` -> ``(S, M(S, N))``, and nodes mixing satellites with several contiguous
    nuclei (GUM's ``S N N N``) first group the nuclei into a multinuclear cascade, a new
    nucleus labelled ``span``, which then takes the satellites. Nuclei separated by a
    satellite and nodes without a nucleus are errors. GUM's ``lisp_binary`` files follow
    this convention.
``rst-eval``
    educe's ``_binarize(branching='right')`` exactly, as used by rst-eval: the same on
    all-nuclei nodes, but in an ``S N S`` node the two right children are grouped without
    being binarized themselves (bug B1), and any other n-ary pattern is an error.
``right_mixed``
    educe's ``right_mixed`` (its default, used when building attachment trees):
    ``S N S`` becomes ``(M(S, N), S)`` with the same B1 bug; multinuclear as ``right``.
``none``
    the tree unchanged.

Two ways lead to the tuples the constituency metrics score: the long way (relabel the tree, binarize it,
then :func:`marcu_tuples` or :func:`attachment_decisions`), public and the one that reports every
error, and :func:`prepared_walk`, the same tuples in one walk that builds no tree, which leaves to the
long way only the trees it declares it does not take (checked where they arise; any other exception
surfaces). The walk is kept for speed: ``rstkit eval --metric rst-parseval,parseval`` on GUM's 280
lisp_nary/lisp_binary pairs takes 1.57 s of CPU with it and 1.87 s the long way, reading included;
scoring the trees already read, 0.31 s against 0.72 s.

Every walk here is iterative (:func:`_rebuild` keeps its own stack; the one-walk tuples of
:func:`prepared_walk` nest one walk per binarization pass at most), so tree depth is bounded by
memory, not by Python's recursion limit.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar, cast

from .errors import BinarizationError, RSTKitError, TreeStructureError
from .settings import BINARIZATIONS, RST_EVAL, Binarization
from .tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree, internal, leaf, preorder

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")


def _rebuild(root: _Item, enter: Callable[[_Item], Sequence[_Item]],
             leave: Callable[[_Item, list[_Result]], _Result]) -> _Result:
    """Structural recursion without Python recursion.

    ``enter(item)`` is called top-down, in document order (pre-order), and returns the
    children to descend into; it is where problems are detected, so the first one reported
    is the first in the file. ``leave(item, results)`` builds an item's result from its
    children's results (in order); it is called for children before their parents.
    """
    order: list[tuple[_Item, int]] = []
    stack = [root]
    while stack:
        item = stack.pop()
        children = enter(item)
        order.append((item, len(children)))
        if children:
            stack.extend(reversed(children))
    results: list[_Result] = []
    for item, k in reversed(order):  # right subtrees first: a node's children's results are on top, reversed
        if k:
            done = results[-k:]
            del results[-k:]
            done.reverse()
            results.append(leave(item, done))
        else:
            results.append(leave(item, []))
    return results[0]


def binarize(tree: RSTTree, mode: Binarization = "right") -> RSTTree:
    """Binarize a tree (see the module docstring for the modes). A binary tree is returned as it is:
    every mode leaves binary nodes unchanged.

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> print(binarize(tree, "right"))  # the four Sequence nuclei of 2-6 nested to the right
    (Root 1-6 (S:background 1) (N:span 2-6 (N:Sequence 2) (N:Sequence 3-6 (N:Sequence 3-4 (N:span 3) (S:purpose 4))
     (N:Sequence 5-6 (N:Sequence 5) (N:Sequence 6)))))
    """
    if mode not in BINARIZATIONS:
        raise RSTKitError(f"unknown binarization {mode!r}; choose from {', '.join(BINARIZATIONS)}")
    if mode == "none" or tree.is_binary():
        return tree
    if mode == "right":
        return _right_heavy(tree)
    branching = "right" if mode == RST_EVAL else "right_mixed"
    return tree.with_root(_rebuild(tree.root, lambda node: _educe_enter(node, branching, tree.source),
                                   lambda node, done: _educe_leave(node, done, branching)))


def nary_nodes(tree: RSTTree) -> list[Node]:
    """Internal nodes with more than two children (after rst-eval binarization: B1 leftovers)."""
    return [n for n in tree.nodes() if n.arity > 2]


def _relabel(node: Node, children: tuple[Node, ...]) -> Node:
    """``node``'s own nuclearity and relation over new children."""
    return Node(children[0].start, children[-1].end, node.nuclearity, node.relation, children, node.line)


def _cascade(nodes: list[Node], relation: str | None, line: int | None) -> Node:
    """Right-branching cascade of nuclei; new nodes are nuclei labelled ``relation``."""
    result = nodes[-1]
    for node in reversed(nodes[:-1]):
        result = internal(NUCLEUS, relation, (node, result), line)
    return result


def _right_heavy(tree: RSTTree) -> RSTTree:
    """The ``right`` binarization: checks in document order, then one post-order pass."""
    for node in tree.nodes():
        if node.arity == 1 or node.arity > 2:
            _right_heavy_check(node, tree.source)
    built: list[Node] = []
    for node in tree.root.postorder():  # left to right: a node's binarized children are on top, in order
        k = node.arity
        if k:
            kids = built[-k:]
            del built[-k:]
            built.append(_right_heavy_node(node, kids))
        else:
            built.append(node)
    return tree.with_root(built[0])


def _right_heavy_check(node: Node, path: str | None) -> None:
    """Raise BinarizationError if the ``right`` binarization does not define ``node``'s pattern."""
    kids = node.children
    if len(kids) == 1:
        raise BinarizationError(f"unary node {node.start}-{node.end}", path, node.line)
    nuclei = [i for i, c in enumerate(kids) if c.nuclearity == NUCLEUS]
    if not nuclei:
        raise BinarizationError(f"node {node.start}-{node.end} has no nucleus ({node.pattern()})", path, node.line)
    if nuclei[-1] - nuclei[0] + 1 != len(nuclei):
        raise BinarizationError(
            f"node {node.start}-{node.end} has nuclei separated by satellites ({node.pattern()}); "
            "no binarization is defined for it", path, node.line)


def _right_heavy_node(node: Node, kids: list[Node]) -> Node:
    """One checked node of the ``right`` binarization, its children already binarized (``kids``)."""
    if len(kids) == 2:
        return node if kids[0] is node.children[0] and kids[1] is node.children[1] else _relabel(node, tuple(kids))
    nuclei = [i for i, c in enumerate(kids) if c.nuclearity == NUCLEUS]
    if len(nuclei) == len(kids):
        return _relabel(node, (kids[0], _cascade(kids[1:], kids[0].relation, node.line)))
    first, last = nuclei[0], nuclei[-1]
    group = kids[first:last + 1]
    if len(group) == 1:
        nucleus = group[0]
    else:
        nucleus = internal(NUCLEUS, SPAN, (group[0], _cascade(group[1:], group[0].relation, node.line)), node.line)
    # (nucleus on the left?, satellite): right satellites nearest first, then left ones
    steps = [(True, s) for s in kids[last + 1:]] + [(False, s) for s in reversed(kids[:first])]
    current = nucleus
    for nucleus_left, satellite in steps[:-1]:
        current = internal(NUCLEUS, SPAN, (current, satellite) if nucleus_left else (satellite, current), node.line)
    nucleus_left, satellite = steps[-1]
    return _relabel(node, (current, satellite) if nucleus_left else (satellite, current))


def _educe_enter(node: Node, branching: str, path: str | None) -> tuple[Node, ...]:
    """educe's ``_binarize`` checks of one node (before its children, as educe does) and the
    children it binarizes: in ``S N S`` only the one outside the new node (bug B1)."""
    kids = node.children
    if len(kids) <= 2:
        if len(kids) == 1:
            raise BinarizationError(f"unary node {node.start}-{node.end}", path, node.line)
        return kids
    pattern = node.pattern()
    if NUCLEUS not in pattern:
        raise BinarizationError(f"No nucleus: node {node.start}-{node.end} ({pattern})", path, node.line)
    if pattern == NUCLEUS * len(kids):
        return kids
    if pattern == "SNS":
        return kids[:1] if branching == "right" else kids[2:]
    if SATELLITE in pattern and pattern.count(NUCLEUS) > 1:
        raise BinarizationError(f"Multinuclear with satellites: node {node.start}-{node.end} ({pattern}); "
                                "the reference binarization (rst-eval) does not define it", path, node.line)
    raise BinarizationError(f"Don't know how to handle {pattern} trees: node {node.start}-{node.end}; "
                            "the reference binarization (rst-eval) does not define it", path, node.line)


def _educe_leave(node: Node, done: list[Node], branching: str) -> Node:
    """educe's ``_binarize`` result for one node, from the children it binarized (``done``)."""
    kids = node.children
    if not kids:
        return node
    if len(kids) == 2:
        return _relabel(node, tuple(done))
    if len(done) == len(kids):  # all nuclei
        return _relabel(node, (done[0], _cascade(done[1:], done[0].relation, node.line)))
    c1, c2, c3 = kids  # S N S: c2 and c3 (right) or c1 and c2 (right_mixed) grouped as they are (B1)
    if branching == "right":
        return _relabel(node, (done[0], internal(NUCLEUS, SPAN, (c2, c3), node.line)))
    return _relabel(node, (internal(NUCLEUS, SPAN, (c1, c2), node.line), done[0]))


# -- Marcu's encoding -------------------------------------------------------------------
#: scored tuples: ``(start, end, nuclearity or pair, relation)``
Tuples = list[tuple[int, int, str, str]]


def marcu_tuples(tree: RSTTree) -> Tuples:
    """RST-Parseval tuples: ``(start, end, nuclearity, relation)`` for every node but the
    root, EDU leaves included, in post-order (docs/evaluation.md#marcus-encoding).

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> marcu_tuples(binarize(tree))[:3]
    [(1, 1, 'S', 'background'), (2, 2, 'N', 'Sequence'), (3, 3, 'N', 'span')]
    """
    tuples = [(n.start, n.end, n.nuclearity, n.relation) for n in tree.root.postorder() if n is not tree.root]
    return cast("Tuples", tuples)  # below the root every node has a relation (tree.validate)


# -- labelled attachment decisions ----------------------------------------------------
LEAF = "leaf"


@dataclass(frozen=True, eq=False, repr=False)
class Attachment:
    """A node of a tree of labelled attachment decisions (educe's SimpleRSTTree).

    An internal node joins ``left`` and ``right`` with a nuclearity pair (``NS``, ``SN``,
    ``NN``) and one relation; a leaf is an EDU (pair and relation ``leaf``). Only under
    rst-eval compatibility can a node have k > 2 children and a k-letter ``pair``
    (docs/evaluation.md#attachment-decisions). Equality, hashing and repr do not recurse.
    """

    start: int
    end: int
    pair: str
    relation: str
    children: tuple[Attachment, ...] = ()

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def nodes(self) -> Iterator[Attachment]:
        """This node and all below it, in pre-order."""
        return preorder(self)

    def _flat(self) -> tuple[tuple[int, int, str, str, int], ...]:
        """Pre-order labels and arities: equal exactly for equal trees."""
        return tuple((a.start, a.end, a.pair, a.relation, len(a.children)) for a in self.nodes())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Attachment):
            return NotImplemented
        return self is other or self._flat() == other._flat()

    def __hash__(self) -> int:
        return hash(self._flat())

    def __repr__(self) -> str:
        return f"Attachment({self.start}-{self.end} {self.pair} {self.relation}, {len(self.children)} children)"


@dataclass(frozen=True)
class AttachmentTree:
    root: Attachment
    edus: tuple[EDU, ...]
    doc_id: str = ""

    def decisions(self) -> list[tuple[int, int, str, str]]:
        """Original Parseval tuples: ``(start, end, pair, relation)`` of every internal
        node, root included (n - 1 for n EDUs), in pre-order."""
        return [(a.start, a.end, a.pair, a.relation) for a in self.root.nodes() if not a.is_leaf]


def to_attachment(tree: RSTTree, *, nary: bool = False) -> AttachmentTree:
    """Tree of labelled attachment decisions of a **binary** tree (docs/evaluation.md#attachment-decisions).

    Each internal node (L, R) becomes one decision: pair = first letters of L's and R's
    nuclearity, relation = R's relation if R is a satellite, else L's.

    ``nary=True`` is rst-eval's behaviour on a node that is still n-ary (bug B1 can leave
    one after educe's ``right_mixed`` pass): the node becomes one decision whose pair
    holds the first letters of all k children's nuclearities (``SNS``, ``NNN``), whose
    relation follows the same rule on its first two children, and whose children are
    converted in turn. Otherwise an n-ary node is a BinarizationError.

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> to_attachment(binarize(tree)).decisions()[:2]
    [(1, 6, 'SN', 'background'), (2, 6, 'NN', 'Sequence')]
    """
    built: list[Attachment] = []
    for node in tree.root.postorder():  # left to right: a node's converted children are on top, in order
        children = node.children
        k = len(children)
        if k == 0:
            built.append(Attachment(node.start, node.end, LEAF, LEAF))
            continue
        if k == 1 or (k > 2 and not nary):
            first = next(n for n in tree.nodes() if n.arity == 1 or (n.arity > 2 and not nary))  # first in the file
            raise BinarizationError(
                f"node {first.start}-{first.end} has {first.arity} children: attachment decisions need a "
                "binary tree (binarize it first)", tree.source, first.line)
        kids = tuple(built[-k:])
        del built[-k:]
        left, right = children[0], children[1]
        pair = left.nuclearity[0] + right.nuclearity[0] if k == 2 else "".join(c.nuclearity[0] for c in children)
        relation = cast(str, right.relation if right.nuclearity == SATELLITE else left.relation)  # not the root's
        built.append(Attachment(node.start, node.end, pair, relation, kids))
    return AttachmentTree(built[0], tree.edus, tree.doc_id)


def attachment_decisions(tree: RSTTree, *, nary: bool = False) -> list[tuple[int, int, str, str]]:
    """Shortcut for ``to_attachment(tree, nary=nary).decisions()``.

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> len(attachment_decisions(binarize(tree))) == tree.n_edus - 1
    True
    """
    return to_attachment(tree, nary=nary).decisions()


# -- tuples of a prepared tree in one walk ------------------------------------------------


class PreparedWalk(NamedTuple):
    """What :func:`prepared_walk` gives for a tree ``t`` relabelled and binarized, ``b =
    binarize(relabelled(t), mode)``: Marcu's tuples of ``b``; its attachment decisions (after the
    ``rebinarization`` pass when there is one); how many nodes of ``b`` have more than two children
    (what bug B1 left n-ary under ``rst-eval`` and ``right_mixed``; None when Marcu's tuples were
    not asked for); how many decisions have a k-letter nuclearity (nodes still n-ary after the
    ``rebinarization`` pass)."""

    marcu: Tuples
    decisions: Tuples
    nary_nodes: int | None
    nary_decisions: int


def prepared_walk(tree: RSTTree, mode: Binarization, relabel: Mapping[str | None, str] | None, *,
                  rebinarization: Binarization | None = None, marcu: bool = True,
                  decisions: bool = True) -> PreparedWalk | None:
    """Marcu's tuples and the attachment decisions of ``tree`` relabelled and binarized, each in one
    walk that builds no tree (a few nodes for each n-ary node), with the counts of n-ary nodes
    the warnings need; None where the walks do not apply, and the caller takes the long way (which
    also raises whatever error the tree deserves).

    With ``b = binarize(relabelled(tree), mode)`` the result holds ``marcu_tuples(b)``,
    ``len(nary_nodes(b))``, and the decisions: ``attachment_decisions(binarize(b, rebinarization),
    nary=True)`` when ``rebinarization`` is given (rst-eval's procedure: educe's ``right_mixed``
    pass before attachment trees, a node still n-ary after it giving one decision with a k-letter
    nuclearity), else ``attachment_decisions(b)``; the same tuples in the same order (a list not
    asked for is empty). ``relabel[label]`` is the scored label (None: labels as they are); a
    ``KeyError`` from that lookup (a label the map does not know, on any node) gives None. Relabelling
    commutes with binarization (new nodes copy labels of existing ones, or are ``span``, which
    every map keeps), so nodes are relabelled as they are met.

    Every mode is walked: each n-ary node is expanded as the binarization expands it, when met,
    one level at a time, and the children that bug B1 groups without binarizing them are walked
    as the next pass leaves them. Whatever the long way rejects (a unary node where a pass or the
    attachment trees refuse one, a pattern a mode does not define, an n-ary node left for
    attachment decisions without ``rebinarization``) gives None.

    Those are the only conditions for None: each is detected where it arises (the label lookup, the
    binarizations' own checks, :class:`_Declined` for what the walks leave to the long way), and any
    other exception from the walks (``KeyError``, ``IndexError``, ...: a bug) surfaces as it is, never
    hidden by the long way.
    """
    if mode not in BINARIZATIONS or (rebinarization is not None and rebinarization not in BINARIZATIONS):
        return None
    label = relabel if relabel is not None else _IDENTITY
    passes = tuple(m for m in (mode,) if m != "none")
    try:
        tuples, nary = _marcu_walk(tree, passes, label) if marcu else ([], None)
        if decisions:
            attachment_passes = passes + tuple(m for m in (rebinarization,) if m not in (None, "none"))
            chosen, k_letter = _decision_walk(tree, attachment_passes, label, rebinarization is not None)
        else:
            chosen, k_letter = [], 0
    except (BinarizationError, _Declined):
        return None
    return PreparedWalk(tuples, chosen, nary, k_letter)


class _Declined(RSTKitError):
    """A node the walks leave to the long way (caught in :func:`prepared_walk`)."""


class _UnknownLabel(_Declined):
    """A label the map does not know (its ``KeyError``, caught around each lookup of the walks): left
    to the long way, which reports it."""

    def __init__(self, relation: str | None) -> None:
        super().__init__(f"relation label {relation!r} is unknown to the label map")


def _expand(node: Node, mode: Binarization, source: str | None) -> tuple[tuple[Node, ...], int | None]:
    """The two children of an n-ary (or unary) ``node`` once ``mode`` has binarized it, and which
    of them (0, 1 or None) bug B1 leaves to the next pass: a new node that groups two children as
    they are. Other new nodes keep the children they group as they are too, for the walk to
    expand when it meets them. Raises as the binarization does (or _Declined: a unary node)."""
    kids = node.children
    if len(kids) == 1:
        raise _Declined(f"unary node {node.start}-{node.end}")
    if mode == "right":
        _right_heavy_check(node, source)
        return _right_heavy_node(node, list(kids)).children, None
    branching = "right" if mode == RST_EVAL else "right_mixed"
    if len(_educe_enter(node, branching, source)) == len(kids):  # all nuclei: every child is binarized
        return (kids[0], _cascade(list(kids[1:]), kids[0].relation, node.line)), None
    c1, c2, c3 = kids  # S N S: two of them grouped as they are (B1)
    if branching == "right":
        return (c1, internal(NUCLEUS, SPAN, (c2, c3), node.line)), 1
    return (internal(NUCLEUS, SPAN, (c1, c2), node.line), c3), 0


#: on a walk's stack, where the subtree that bug B1 left to the next pass (on the walk's list of
#: those) is walked, by a walk of its own
_LATER = Node(0, 0, NUCLEUS, None)


def _binarized_preorder(root: Node, passes: tuple[Binarization, ...], source: str | None,
                        right_first: bool) -> Iterator[tuple[Node, tuple[Node, ...]]]:
    """Each node of ``root``'s subtree as ``passes`` binarize it, with its children there (two once
    binarized; its own where no pass is left), pre-order, right child first when ``right_first``.
    Each n-ary node is expanded when met, one level at a time; a subtree that bug B1 leaves to the
    next pass is walked, when met, by a walk of its own (nested no deeper than the passes). Raises
    as the binarization does (or _Declined: a unary node a pass meets)."""
    stack = [root]
    later: list[Node] = []
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        if node is _LATER:
            yield from _binarized_preorder(later.pop(), passes[1:], source, right_first)
            continue
        kids = node.children
        if len(kids) == 2 or not kids or not passes:
            yield node, kids
            extend(kids if right_first else kids[::-1])
            continue
        kids, left_over = _expand(node, passes[0], source)
        yield node, kids
        if left_over is None:
            extend(kids if right_first else kids[::-1])
        else:
            _push(kids if right_first else kids[::-1], left_over if right_first else 1 - left_over, push, later)


def _marcu_walk(tree: RSTTree, passes: tuple[Binarization, ...],
                label: Mapping[str | None, str]) -> tuple[Tuples, int]:
    """Post-order Marcu tuples of the tree binarized by ``passes``, and how many of its nodes it
    leaves n-ary: the reverse of a pre-order walk that takes right children first."""
    out: Tuples = []
    add = out.append
    nary = 0
    for node, kids in _binarized_preorder(tree.root, passes, tree.source, True):
        try:
            mapped = label[node.relation]
        except KeyError:
            raise _UnknownLabel(node.relation) from None
        add((node.start, node.end, node.nuclearity, mapped))
        nary += len(kids) > 2
    out.reverse()
    out.pop()  # the root
    return out, nary


def _decision_walk(tree: RSTTree, passes: tuple[Binarization, ...], label: Mapping[str | None, str],
                   nary: bool) -> tuple[Tuples, int]:
    """Pre-order attachment decisions of the tree binarized by ``passes`` in turn, and how many
    have a k-letter nuclearity: with ``nary``, a node left n-ary is one decision
    (:func:`to_attachment`); without, it declines. Every node's label is looked up (an unknown one
    declines)."""
    out: Tuples = []
    add = out.append
    k_letter = 0
    for node, kids in _binarized_preorder(tree.root, passes, tree.source, False):
        try:
            label[node.relation]
        except KeyError:
            raise _UnknownLabel(node.relation) from None
        if not kids:
            continue
        if len(kids) == 2:
            left, right = kids
            pair = left.nuclearity[0] + right.nuclearity[0]
        elif nary and len(kids) > 2:  # one decision of k letters
            left, right = kids[0], kids[1]
            pair = "".join([c.nuclearity[0] for c in kids])
            k_letter += 1
        else:
            raise _Declined(f"node {node.start}-{node.end}: {len(kids)} children left for attachment decisions")
        relation = right.relation if right.nuclearity == SATELLITE else left.relation
        try:
            mapped = label[relation]
        except KeyError:
            raise _UnknownLabel(relation) from None
        add((node.start, node.end, pair, mapped))
    return out, k_letter


def _push(kids: tuple[Node, ...], left_over: int | None, push: Callable[[Node], None], later: list[Node]) -> None:
    """Push ``kids`` in turn on a walk's stack, the one at ``left_over`` as :data:`_LATER` (itself
    on ``later``)."""
    for i, kid in enumerate(kids):
        if i == left_over:
            later.append(kid)
            push(_LATER)
        else:
            push(kid)


class _Identity(dict[str | None, str | None]):
    """Every label maps to itself (each distinct label stored once met; the root's None too)."""

    def __missing__(self, key: str | None) -> str | None:
        self[key] = key
        return key


#: typed as the relabellers are: only the root's label is None, and the walks store no root tuple
_IDENTITY = cast("Mapping[str | None, str]", _Identity())


_PAIRS = {"NS": (NUCLEUS, SATELLITE), "SN": (SATELLITE, NUCLEUS), "NN": (NUCLEUS, NUCLEUS)}


def from_attachment(att: AttachmentTree) -> RSTTree:
    """Inverse of :func:`to_attachment` on binary trees: NS/SN put the relation on the
    satellite and ``span`` on the nucleus; NN puts the relation on both children.

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> binary = binarize(tree)
    >>> from_attachment(to_attachment(binary)) == binary
    True
    """
    def enter(item: tuple[Attachment, str, str | None]) -> list[tuple[Attachment, str, str | None]]:
        a = item[0]
        if a.is_leaf:
            return []
        if a.pair not in _PAIRS or len(a.children) != 2:
            raise TreeStructureError(f"attachment {a.start}-{a.end} has nuclearity pair {a.pair!r} over "
                                     f"{len(a.children)} children; expected NS, SN or NN over 2")
        nuclearities = _PAIRS[a.pair]
        relations = [a.relation if nuc == SATELLITE or a.pair == "NN" else SPAN for nuc in nuclearities]
        return list(zip(a.children, nuclearities, relations))

    def leave(item: tuple[Attachment, str, str | None], kids: list[Node]) -> Node:
        a, nuclearity, relation = item
        return leaf(a.start, nuclearity, relation) if a.is_leaf else internal(nuclearity, relation, kids)

    top: tuple[Attachment, str, str | None] = (att.root, ROOT, None)
    return RSTTree(_rebuild(top, enter, leave), att.edus, att.doc_id)
