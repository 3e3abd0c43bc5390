"""The dependency view of an RST tree: EDU heads and labelled arcs (Li et al. 2014).

The head of a constituent is the head of its leftmost nucleus (an EDU heads itself).
At each internal node with leftmost nucleus ``F``, every other child ``C`` gives an arc
from ``head(F)`` to ``head(C)``: a satellite arc (nuclearity ``S``) labelled with the
satellite's relation, or a multinuclear arc (``N``) labelled with the nucleus's relation.
The arc's *height* is the number of constituents from ``head(F)`` (excluded) up to ``F``
(included), so that all dependents of one EDU with the same height were children of the
same node. The head of the whole tree depends on the virtual root ``0``.

With heights, the constituency tree is recovered exactly up to labels the arcs do not
carry: the relation of a mononuclear node's nucleus (always ``span`` again) and of the
leftmost nucleus of a multinuclear node (it takes the relation of the next nucleus).
Without heights (``height`` None), each EDU attaches its dependents one at a time, those
on its right first (nearest first), then those on its left (nearest first); consecutive
multinuclear dependents with one relation share one node. This is the right-branching
convention of binarization, and cannot know the annotated attachment order.

The graph is a :class:`networkx.DiGraph` over nodes ``0..n`` (``0`` = virtual root);
edges go from head to dependent with attributes ``relation``, ``nuclearity`` and
``height``; the edge from ``0`` has nuclearity and relation None. Node attributes
``line`` (optional) locate EDUs in a source file for error messages.
"""
from __future__ import annotations

from itertools import pairwise

import networkx as nx

from .errors import TreeStructureError
from .tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree, internal, leaf, validate

VIRTUAL_ROOT = 0


def to_dependencies(tree: RSTTree) -> nx.DiGraph:
    """The dependency graph of a tree (see the module docstring).

    >>> from rstkit import read_tree
    >>> graph = to_dependencies(read_tree("corpora/sample/gold/sample_bread.dis"))
    >>> graph.edges[2, 1]["relation"], graph.edges[0, 2]["relation"]
    ('background', None)
    """
    graph = nx.DiGraph(doc_id=tree.doc_id)
    graph.add_nodes_from(range(tree.n_edus + 1))
    head: dict[int, int] = {}  # id(node) -> head EDU
    level: dict[int, int] = {}  # id(node) -> constituents between its head EDU and it
    for node in tree.root.postorder():
        if node.is_leaf:
            head[id(node)], level[id(node)] = node.start, 0
            continue
        first = next(c for c in node.children if c.nuclearity == NUCLEUS)
        h, height = head[id(first)], level[id(first)]
        for child in node.children:
            if child is not first:
                graph.add_edge(h, head[id(child)], relation=child.relation, nuclearity=child.nuclearity,
                               height=height)
        head[id(node)], level[id(node)] = h, height + 1
    graph.add_edge(VIRTUAL_ROOT, head[id(tree.root)], relation=None, nuclearity=None, height=0)
    return graph


def from_dependencies(graph: nx.DiGraph, edus: tuple[EDU, ...], *, doc_id: str = "",
                      source: str | None = None) -> RSTTree:
    """Rebuild the constituency tree from a dependency graph over ``edus``.

    Raises TreeStructureError (naming the EDU's line when the graph has ``line``
    attributes) for EDUs without exactly one head, several roots, cycles and arcs that
    cross (non-projective).

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> from_dependencies(to_dependencies(tree), tree.edus, doc_id=tree.doc_id) == tree
    True
    """
    n = len(edus)
    _check_graph(graph, n, source)
    top = next(iter(graph.successors(VIRTUAL_ROOT)))
    built: dict[int, Node] = {}
    for h in reversed(list(nx.bfs_tree(graph, top))):  # dependents before their heads
        built[h] = _projection(graph, h, built, source)
    root = _labelled(built[top], ROOT, None)
    tree = RSTTree(root, tuple(edus), doc_id, source)
    validate(tree)
    return tree


def _line(graph: nx.DiGraph, edu: int) -> int | None:
    return graph.nodes[edu].get("line") if edu in graph else None


def _check_graph(graph: nx.DiGraph, n: int, source: str | None) -> None:
    expected = set(range(n + 1))
    if set(graph.nodes) != expected:
        extra = sorted(set(graph.nodes) - expected)
        missing = sorted(expected - set(graph.nodes))
        raise TreeStructureError(f"dependency graph nodes must be 0..{n}: extra {extra[:5]}, missing {missing[:5]}",
                                 source)
    for edu in range(1, n + 1):
        heads = list(graph.predecessors(edu))
        if len(heads) != 1:
            raise TreeStructureError(f"EDU {edu} has {len(heads)} heads, expected one", source, _line(graph, edu))
    if graph.in_degree(VIRTUAL_ROOT):
        raise TreeStructureError("the virtual root 0 has a head", source)
    roots = list(graph.successors(VIRTUAL_ROOT))
    if len(roots) != 1:
        raise TreeStructureError(f"expected one root EDU (head 0), found {len(roots)}: {roots[:10]}", source,
                                 _line(graph, roots[1]) if len(roots) > 1 else None)
    unreached = set(range(1, n + 1)) - nx.descendants(graph, VIRTUAL_ROOT)
    if unreached:  # every EDU has one head, so the EDUs not under the root hang on a cycle
        edus = [u for u, _ in nx.find_cycle(graph.subgraph(unreached))]
        raise TreeStructureError(f"dependency cycle: {' -> '.join(map(str, edus + [edus[0]]))}", source,
                                 _line(graph, edus[0]))


def _projection(graph: nx.DiGraph, h: int, built: dict[int, Node], source: str | None) -> Node:
    """The constituent headed by EDU ``h``: its leaf, then one node per attachment level."""
    current = leaf(h, NUCLEUS, SPAN, _line(graph, h))
    for level in _levels(graph, h):
        nuclei = [d for d in level if graph.edges[h, d]["nuclearity"] == NUCLEUS]
        relation = graph.edges[h, min(nuclei)]["relation"] if nuclei else SPAN
        members = [_labelled(current, NUCLEUS, relation)]
        for d in level:
            arc = graph.edges[h, d]
            nuclearity = NUCLEUS if arc["nuclearity"] == NUCLEUS else SATELLITE
            members.append(_labelled(built[d], nuclearity, arc["relation"]))
        members.sort(key=lambda node: node.start)
        for left, right in pairwise(members):
            if right.start != left.end + 1:
                raise TreeStructureError(
                    f"non-projective dependencies: EDU {h} and its dependents "
                    f"{', '.join(map(str, sorted(level)))} do not cover a contiguous span "
                    f"({left.start}-{left.end} then {right.start}-{right.end})", source, _line(graph, h))
        current = internal(NUCLEUS, SPAN, members, _line(graph, h))
    return current


def _labelled(node: Node, nuclearity: str, relation: str | None) -> Node:
    return Node(node.start, node.end, nuclearity, relation, node.children, node.line)


def _levels(graph: nx.DiGraph, h: int) -> list[list[int]]:
    """The dependents of ``h`` grouped by attachment level, innermost first."""
    dependents = sorted(graph.successors(h))
    heights = [graph.edges[h, d].get("height") for d in dependents]
    if dependents and all(height is not None for height in heights):
        by_height: dict[int, list[int]] = {}
        for d, height in zip(dependents, heights):
            by_height.setdefault(height, []).append(d)
        return [by_height[k] for k in sorted(by_height)]
    order = [d for d in dependents if d > h] + [d for d in reversed(dependents) if d < h]
    levels: list[list[int]] = []
    for d in order:
        arc = graph.edges[h, d]
        previous = levels[-1] if levels else []
        if (arc["nuclearity"] == NUCLEUS and previous
                and all(graph.edges[h, p]["nuclearity"] == NUCLEUS
                        and graph.edges[h, p]["relation"] == arc["relation"] for p in previous)):
            previous.append(d)
        else:
            levels.append([d])
    return levels
