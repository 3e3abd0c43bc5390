"""Tree transformations: binarization, Marcu's encoding, labelled attachment decisions.

Binarization modes (evaluation.md section 4):

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
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .errors import BinarizationError, TreeStructureError
from .tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree, internal, leaf

BINARIZATIONS = ("right", "rst-eval", "right_mixed", "none")


def binarize(tree: RSTTree, mode: str = "right") -> RSTTree:
    """Binarize a tree (see the module docstring for the modes)."""
    if mode == "none":
        return tree
    if mode == "right":
        return tree.with_root(_right_heavy(tree.root, tree.source))
    if mode == "rst-eval":
        return tree.with_root(_educe(tree.root, "right", tree.source))
    if mode == "right_mixed":
        return tree.with_root(_educe(tree.root, "right_mixed", tree.source))
    raise ValueError(f"unknown binarization {mode!r}; choose from {', '.join(BINARIZATIONS)}")


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


def _right_heavy(node: Node, path: str | None) -> Node:
    if node.is_leaf:
        return node
    kids = [_right_heavy(c, path) for c in node.children]
    if len(kids) == 1:
        raise BinarizationError(f"unary node {node.start}-{node.end}", path, node.line)
    if len(kids) == 2:
        unchanged = kids[0] is node.children[0] and kids[1] is node.children[1]
        return node if unchanged else _relabel(node, tuple(kids))
    nuclei = [i for i, c in enumerate(kids) if c.nuclearity == NUCLEUS]
    if not nuclei:
        raise BinarizationError(f"node {node.start}-{node.end} has no nucleus ({node.pattern()})", path, node.line)
    if len(nuclei) == len(kids):
        return _relabel(node, (kids[0], _cascade(kids[1:], kids[0].relation, node.line)))
    first, last = nuclei[0], nuclei[-1]
    if last - first + 1 != len(nuclei):
        raise BinarizationError(
            f"node {node.start}-{node.end} has nuclei separated by satellites ({node.pattern()}); "
            "no binarization is defined for it", path, node.line)
    group = kids[first:last + 1]
    if len(group) == 1:
        nucleus = group[0]
    else:
        nucleus = internal(NUCLEUS, SPAN, (group[0], _cascade(group[1:], group[0].relation, node.line)), node.line)
    # (nucleus on the left?, satellite): right satellites nearest first, then left ones
    steps = [(True, s) for s in kids[last + 1:]] + [(False, s) for s in reversed(kids[:first])]
    current = nucleus
    for i, (nucleus_left, satellite) in enumerate(steps):
        pair = (current, satellite) if nucleus_left else (satellite, current)
        if i == len(steps) - 1:
            return _relabel(node, pair)
        current = internal(NUCLEUS, SPAN, pair, node.line)
    raise AssertionError("unreachable: a node of arity >= 3 has at least one satellite here")


def _educe(node: Node, branching: str, path: str | None) -> Node:
    """educe's ``_binarize`` for branchings ``right`` and ``right_mixed``, bugs included."""
    if node.is_leaf:
        return node
    kids = node.children
    if len(kids) == 1:
        raise BinarizationError(f"unary node {node.start}-{node.end}", path, node.line)
    if len(kids) == 2:
        return _relabel(node, tuple(_educe(c, branching, path) for c in kids))
    pattern = node.pattern()
    if NUCLEUS not in pattern:
        raise BinarizationError(f"No nucleus: node {node.start}-{node.end} ({pattern})", path, node.line)
    if pattern == NUCLEUS * len(kids):
        done = [_educe(c, branching, path) for c in kids]
        return _relabel(node, (done[0], _cascade(done[1:], done[0].relation, node.line)))
    if pattern == "SNS":
        c1, c2, c3 = kids
        if branching == "right":  # c2 and c3 are grouped as they are (B1)
            return _relabel(node, (_educe(c1, branching, path), internal(NUCLEUS, SPAN, (c2, c3), node.line)))
        return _relabel(node, (internal(NUCLEUS, SPAN, (c1, c2), node.line), _educe(c3, branching, path)))
    if SATELLITE in pattern and pattern.count(NUCLEUS) > 1:
        raise BinarizationError(f"Multinuclear with satellites: node {node.start}-{node.end} ({pattern}); "
                                "the reference binarization (rst-eval) does not define it", path, node.line)
    raise BinarizationError(f"Don't know how to handle {pattern} trees: node {node.start}-{node.end}; "
                            "the reference binarization (rst-eval) does not define it", path, node.line)


# -- Marcu's encoding -------------------------------------------------------------------
def marcu_tuples(tree: RSTTree) -> list[tuple[int, int, str, str]]:
    """RST-Parseval tuples: ``(start, end, nuclearity, relation)`` for every node but the
    root, EDU leaves included, in post-order (evaluation.md section 5)."""
    return [(n.start, n.end, n.nuclearity, n.relation) for n in tree.root.postorder() if n is not tree.root]


# -- labelled attachment decisions ----------------------------------------------------
LEAF = "leaf"


@dataclass(frozen=True)
class Attachment:
    """A node of a tree of labelled attachment decisions (educe's SimpleRSTTree).

    An internal node joins ``left`` and ``right`` with a nuclearity pair (``NS``, ``SN``,
    ``NN``) and one relation; a leaf is an EDU (pair and relation ``leaf``).
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
        yield self
        for child in self.children:
            yield from child.nodes()


@dataclass(frozen=True)
class AttachmentTree:
    root: Attachment
    edus: tuple[EDU, ...]
    doc_id: str = ""

    def decisions(self) -> list[tuple[int, int, str, str]]:
        """Original Parseval tuples: ``(start, end, pair, relation)`` of every internal
        node, root included (n - 1 for n EDUs), in pre-order."""
        return [(a.start, a.end, a.pair, a.relation) for a in self.root.nodes() if not a.is_leaf]


def to_attachment(tree: RSTTree) -> AttachmentTree:
    """Tree of labelled attachment decisions of a **binary** tree (evaluation.md section 6).

    Each internal node (L, R) becomes one decision: pair = first letters of L's and R's
    nuclearity, relation = R's relation if R is a satellite, else L's.
    """
    def build(node: Node) -> Attachment:
        if node.is_leaf:
            return Attachment(node.start, node.end, LEAF, LEAF)
        if node.arity != 2:
            raise BinarizationError(
                f"node {node.start}-{node.end} has {node.arity} children: attachment decisions need a "
                "binary tree (binarize it first)", tree.source, node.line)
        left, right = node.children
        pair = left.nuclearity[0] + right.nuclearity[0]
        relation = right.relation if right.nuclearity == SATELLITE else left.relation
        return Attachment(node.start, node.end, pair, relation, (build(left), build(right)))

    return AttachmentTree(build(tree.root), tree.edus, tree.doc_id)


def attachment_decisions(tree: RSTTree) -> list[tuple[int, int, str, str]]:
    """Shortcut for ``to_attachment(tree).decisions()``."""
    return to_attachment(tree).decisions()


def from_attachment(att: AttachmentTree) -> RSTTree:
    """Inverse of :func:`to_attachment`: NS/SN put the relation on the satellite and
    ``span`` on the nucleus; NN puts the relation on both children."""
    def build(a: Attachment, nuclearity: str, relation: str | None) -> Node:
        if a.is_leaf:
            return leaf(a.start, nuclearity, relation)
        if a.pair not in ("NS", "SN", "NN"):
            raise TreeStructureError(f"attachment {a.start}-{a.end} has nuclearity pair {a.pair!r}")
        left_nuc, right_nuc = (NUCLEUS if c == "N" else SATELLITE for c in a.pair)
        left_rel = a.relation if left_nuc == SATELLITE or a.pair == "NN" else SPAN
        right_rel = a.relation if right_nuc == SATELLITE or a.pair == "NN" else SPAN
        return internal(nuclearity, relation, (build(a.children[0], left_nuc, left_rel),
                                               build(a.children[1], right_nuc, right_rel)))

    return RSTTree(build(att.root, ROOT, None), att.edus, att.doc_id)
