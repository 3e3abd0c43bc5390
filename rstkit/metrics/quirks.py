"""Peers' scoring quirks: the settings of the constituency metrics (:class:`ConstituencySettings`).

Three things published parsers' own scorers do that rstkit's procedure does not, each named
so that a peer's number can be reproduced and said to be different (docs/presets.md):

- ``nary_children="first-three"``: NTT's RSTParser_EMNLP22 (``src/data/tree.py``,
  ``RSTTree.binarize``) binarizes an n-ary node whose children all carry the same label
  right-heavy, and any other n-ary node as ``((c1 c2) c3)``, the new node a nucleus with
  relation ``span``, dropping children 4 and later; spans then run from the first to the
  last EDU left under a node.
- ``nn_relation="right"``: a binary multinuclear node takes its relation from its right child
  (both children carry it in Marcu's tuples; its attachment decision has it).
- ``relation_fixer``: isanlp_rst's ``relation_fixer`` tables (``universal_parser/data_manager.py``)
  rewrite a binary node's (relation, nuclearity) before scoring, e.g. GUM's ``topic`` NS to
  ``contingency`` NS and ``restatement`` SN to ``restatement`` NS. Applied to both sides.

The rows are those of :mod:`~rstkit.metrics.rst_parseval` and :mod:`~rstkit.metrics.parseval`
(Marcu's tuples in post-order, attachment decisions in pre-order) over the tree so changed. The
signature shows each quirk after ``bin`` only where it is on (``nary=``, ``nn=``, ``fixer=``).
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from ..errors import BinarizationError, RSTKitError
from ..labels import get_label_map
from ..settings import NaryChildren, NNRelation, RelationFixer
from ..transform import binarize
from ..tree import NUCLEUS, SATELLITE, Node, RSTTree
from .family import FamilySettings, Scoring

SPAN = "span"

#: isanlp_rst's relation fixers, keyed ``relation_nuclearity`` lowercased (its data_manager.py)
FIXERS: dict[RelationFixer, dict[str, str]] = {
    "none": {},
    "isanlp-gum": {"topic_ns": "contingency_ns", "restatement_sn": "restatement_ns"},
    "isanlp-rurstb": {"restatement_sn": "condition_sn", "restatement_ns": "elaboration_ns",
                      "solutionhood_ns": "solutionhood_sn", "preparation_ns": "elaboration_ns",
                      "elaboration_sn": "preparation_sn", "background_ns": "elaboration_ns"},
}


@dataclass(frozen=True)
class ConstituencySettings(FamilySettings):
    """The settings of the constituency families (RST-Parseval, original Parseval): the peers' quirks
    (module docstring), all off by default."""

    nary_children: NaryChildren = "all"
    nn_relation: NNRelation = "left"
    relation_fixer: RelationFixer = "none"

    signature_keys = MappingProxyType({"nary": "nary_children", "nn": "nn_relation", "fixer": "relation_fixer"})
    quiet = frozenset({"nary_children", "nn_relation", "relation_fixer"})

    @property
    def has_quirks(self) -> bool:
        """Whether a peer's quirk (NTT's binarization, NN relation from the right, a relation fixer) is on."""
        return (self.nary_children, self.nn_relation, self.relation_fixer) != ("all", "left", "none")

    def check(self, config: Scoring) -> None:
        if self.has_quirks and (config.compat is not None or config.binarize not in ("right", "none")):
            raise RSTKitError("nary_children, nn_relation and relation_fixer need binarize='right' (or 'none' "
                              "where every tree is binary) and no compat mode")


@dataclass
class BinaryNode:
    """A node of the binary tree the quirks work on: its EDU span, nuclearity and relation to its
    parent, and two children (none for an EDU)."""

    start: int
    end: int
    nuclearity: str
    relation: str
    left: BinaryNode | None = None
    right: BinaryNode | None = None

    @property
    def pair(self) -> str:
        assert self.left is not None and self.right is not None
        return self.left.nuclearity[0] + self.right.nuclearity[0]


@dataclass(frozen=True, eq=False)
class _Grouped:
    """A node NTT's binarization makes: a nuclearity, a relation and (tree or grouped) children."""

    nuclearity: str
    relation: str | None
    children: tuple[Node | _Grouped, ...]


def binary_tree(tree: RSTTree, nary_children: str, binarization: str) -> BinaryNode:
    """``tree`` as binary nodes: binarized by rstkit (``binarization``), or NTT's way when
    ``nary_children == "first-three"``; BinarizationError where a node is not binary then."""
    if nary_children != "first-three":
        tree = binarize(tree, binarization)  # type: ignore[arg-type]
    root: Node | _Grouped = tree.root
    built: dict[int, BinaryNode] = {}
    stack: list[tuple[Node | _Grouped, tuple[Node | _Grouped, Node | _Grouped] | None]] = [(root, None)]
    while stack:  # post-order without recursion: trees may be deeper than Python's recursion limit
        item, pair = stack.pop()
        if pair is not None:
            left, right = built.pop(id(pair[0])), built.pop(id(pair[1]))
            built[id(item)] = BinaryNode(left.start, right.end, item.nuclearity, item.relation or "", left, right)
        elif not item.children:
            assert isinstance(item, Node)
            built[id(item)] = BinaryNode(item.start, item.end, item.nuclearity, item.relation or "")
        else:
            pair = _two_children(item, nary_children, tree)
            stack.extend([(item, pair), (pair[1], None), (pair[0], None)])
    return built[id(root)]


def _two_children(item: Node | _Grouped, nary_children: str, tree: RSTTree
                  ) -> tuple[Node | _Grouped, Node | _Grouped]:
    """The two children of ``item``; NTT's binarization of k > 2 children (module docstring)."""
    children = item.children
    if len(children) == 2:
        return children[0], children[1]
    if nary_children != "first-three" or len(children) < 2:
        node = item if isinstance(item, Node) else children[0]
        raise BinarizationError(f"node {node.start}-{node.end} has {len(children)} children where the "  # type: ignore[union-attr]
                                "quirks need a binary tree", tree.source, getattr(node, "line", None))
    labels = [(c.nuclearity, c.relation) for c in children]
    if all(label == labels[0] for label in labels):
        return children[0], _Grouped(*labels[0], children[1:])
    return _Grouped(NUCLEUS, SPAN, children[:2]), children[2]


def _nodes(root: BinaryNode) -> list[BinaryNode]:
    """Every node of ``root``'s tree in pre-order."""
    order, stack = [], [root]
    while stack:
        node = stack.pop()
        order.append(node)
        if node.left is not None and node.right is not None:
            stack.extend([node.right, node.left])
    return order


def apply_quirks(root: BinaryNode, nn_relation: str, fixer: RelationFixer) -> None:
    """Rewrite the relations (and nuclearities) of ``root``'s tree in place: the relation of each NN
    node from its ``nn_relation`` child, then the relation ``fixer``'s table."""
    table = FIXERS[fixer]
    for node in _nodes(root):
        left, right = node.left, node.right
        if left is None or right is None:
            continue
        pair = node.pair
        if pair == "NN":
            relation = right.relation if nn_relation == "right" else left.relation
        else:
            relation = right.relation if pair == "NS" else left.relation
        fixed = table.get(f"{relation}_{pair}".lower())
        if fixed is not None:
            relation, _, pair = fixed.rpartition("_")
            pair = pair.upper()
        if fixed is not None or (pair == "NN" and nn_relation == "right"):
            left.nuclearity = NUCLEUS if pair[0] == "N" else SATELLITE
            right.nuclearity = NUCLEUS if pair[1] == "N" else SATELLITE
            left.relation = relation if pair != "NS" else SPAN
            right.relation = relation if pair != "SN" else SPAN


def quirk_rows(tree: RSTTree, config: Scoring, *, marcu: bool) -> list[tuple[int, int, str, str]]:
    """Marcu's tuples (``marcu``) or the attachment decisions of ``tree`` under ``config``'s label map
    and quirks (module docstring), in the order of the families' own rows."""
    quirks = ConstituencySettings.of(config)
    label_map = get_label_map(config.labels)
    relabelled = label_map.apply(tree, config.unknown_labels)
    root = binary_tree(relabelled, quirks.nary_children, config.gold_binarization)
    apply_quirks(root, quirks.nn_relation, quirks.relation_fixer)
    nodes = _nodes(root)
    if marcu:
        rows = [(n.start, n.end, n.nuclearity, n.relation) for n in _postorder(nodes) if n is not root]
        return rows
    return [(n.start, n.end, n.pair, n.right.relation if n.pair[1] == SATELLITE[0] else n.left.relation)  # type: ignore[union-attr]
            for n in nodes if n.left is not None]


def _postorder(preorder: list[BinaryNode]) -> list[BinaryNode]:
    """Post-order of a binary tree from its pre-order (the reverse of a right-first pre-order)."""
    order, stack = [], [preorder[0]]
    while stack:
        node = stack.pop()
        order.append(node)
        if node.left is not None and node.right is not None:
            stack.extend([node.left, node.right])
    return order[::-1]
