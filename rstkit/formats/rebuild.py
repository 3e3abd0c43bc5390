"""Depth-independent tree rebuilding for the writers' normal forms (no recursion limit)."""
from __future__ import annotations

from collections.abc import Callable

from ..tree import Node


def bottom_up(root: Node, combine: Callable[[Node, list[Node]], Node]) -> Node:
    """Rebuild a tree from the leaves up: every internal node becomes ``combine(node,
    children)``, where ``children`` are its children already rebuilt; leaves stay as they are."""
    rebuilt: dict[int, Node] = {}
    for node in root.postorder():
        if not node.is_leaf:
            rebuilt[id(node)] = combine(node, [rebuilt.get(id(c), c) for c in node.children])
    return rebuilt.get(id(root), root)
