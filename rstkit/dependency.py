"""Dependency views of an RST tree: EDU heads and labelled arcs.

Two views live here.

**The .rsd view** (Li et al. 2014; :func:`to_dependencies` without an encoding, and
:func:`from_dependencies`). The head of a constituent is the head of its leftmost nucleus (an
EDU heads itself). At each internal node with leftmost nucleus ``F``, every other child ``C``
gives an arc from ``head(F)`` to ``head(C)``: a satellite arc (nuclearity ``S``) labelled with the
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

**The scored view** of Morey, Muller & Asher (2018), educe's ``RstDepTree.from_rst_tree``
exactly (docs/metrics/dependency.md#definition; :func:`dependency_records`). Each EDU gets one
record: its head (``0`` for the fake root), the relation label, the nuclearity as a word
(``Nucleus``/``Satellite``) and a rank, the order in which its head took its dependents (1 at
the lowest node the head heads, 2 at the next one up, ...; all dependents attached at one node
share one rank). The real root's record is ``(0, "ROOT", "Nucleus", 1)``. The ``tree`` encoding
converts the tree as it is: an n-ary node gives a star with one shared rank. The ``chain``
encoding first binarizes n-ary nodes the ``right_mixed`` way (multinuclear ``c1..ck`` as the
cascade ``(c1, M(c2, M(... ck)))`` whose new nodes take ``c1``'s relation; ``S N S`` as ``(M(S, N),
S)``); the binarization happens inside the walk, on virtual nodes, without building a tree.
``b1=True`` reproduces the reference's bug B1 (``c1`` and ``c2`` of an ``S N S`` node are not
binarized, so n-ary nodes below them stay stars) and counts the nodes it leaves n-ary.

``chain``'s binarization is :func:`rstkit.transform.binarize`'s ``right_mixed`` (the one binarization;
this module, on transform's layer, cannot import it), done on virtual nodes inside the walk: with
B1 it equals one ``right_mixed`` pass then ``tree``, without B1 the pass repeated to a binary tree
(tests/transform/test_dependency_conversion.py checks both on random trees). It is kept inside the
walk for speed: GUM's 560 lisp_nary and lisp_binary trees (well-formed ones) convert under ``chain``
in 0.060 s of CPU, 0.212 s binarized to a binary tree first and converted as ``tree``; with B1,
0.095 s against 0.372 s for one pass, ``tree`` and the count of n-ary nodes.

Both passes of the conversion's walk treat a node of two children (most nodes) in a branch of its
own, which gives what the general case gives it (a star of one dependent). The branch is kept for
speed: it halves the conversion (GUM's 280 lisp_nary trees: 0.033-0.051 s against 0.065-0.114 s
without it, either encoding, with or without relabelling), and ``rstkit eval --metric dependency``
on GUM's 280 lisp_nary/lisp_binary pairs takes 1.41 s of CPU with it, 1.68 s without.

A worked example, a list of four ``Sequence`` nuclei under a ``background`` satellite: under
``chain`` the list is a chain (the middle link carries the first nucleus's relation), under
``tree`` a star whose dependents share rank 1.

>>> from rstkit import read_tree
>>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
>>> print(dependency_records(tree, "chain"))
sample_bread: 6 EDUs
EDU  head  label       nuclearity  rank
  1     2  background  Satellite      2
  2     0  ROOT        Nucleus        1
  3     2  Sequence    Nucleus        1
  4     3  purpose     Satellite      1
  5     3  Sequence    Nucleus        2
  6     5  Sequence    Nucleus        1
>>> dependency_records(tree, "tree").rows()[4:]
[(5, 2, 'Sequence', 'Nucleus', 1), (6, 2, 'Sequence', 'Nucleus', 1)]
>>> graph = to_dependencies(tree, "chain")
>>> graph.edges[3, 5]
{'relation': 'Sequence', 'nuclearity': 'Nucleus', 'rank': 2}
"""
from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, TypeVar, cast

import numpy as np

from .errors import BinarizationError, LabelError, RSTKitError, TreeStructureError
from .settings import DEP_ENCODINGS, DependencyEncoding
from .tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree, internal, leaf, validate

if TYPE_CHECKING:  # imported where a graph is made or read: scoring dependencies needs none
    import networkx as nx

VIRTUAL_ROOT = 0
#: the label and nuclearity of the real root's record (and of EDUs never attached, ``tree``'s one-child quirk)
ROOT_LABEL = "ROOT"
NUCLEUS_WORD = "Nucleus"
SATELLITE_WORD = "Satellite"


def to_dependencies(tree: RSTTree, encoding: DependencyEncoding | None = None) -> nx.DiGraph:
    """The dependency graph of a tree (see the module docstring).

    Without ``encoding``, the .rsd view (edge attributes ``relation``, ``nuclearity`` as ``N``/``S``,
    ``height``). With ``encoding`` ``"chain"`` or ``"tree"``, the records of
    :func:`dependency_records` as a graph: one edge per EDU, from its head to it, with attributes
    ``relation``, ``nuclearity`` (``Nucleus``/``Satellite``) and ``rank``; the edge from ``0`` carries
    the real root's record (``ROOT``, ``Nucleus``, 1). EDUs that ``tree``'s one-child quirk leaves
    unattached hang from ``0`` with rank 0, as their records say. The graph's attribute ``b1_nary``
    is the records' count (0 unless bug B1 is asked for, which only :func:`dependency_records` does).

    >>> from rstkit import read_tree
    >>> graph = to_dependencies(read_tree("corpora/sample/gold/sample_bread.dis"))
    >>> graph.edges[2, 1]["relation"], graph.edges[0, 2]["relation"]
    ('background', None)
    >>> star = to_dependencies(read_tree("corpora/sample/gold/sample_bread.dis"), "tree")
    >>> sorted(star.successors(2)), star.edges[0, 2]
    ([1, 3, 5, 6], {'relation': 'ROOT', 'nuclearity': 'Nucleus', 'rank': 1})
    """
    import networkx as nx

    if encoding is not None:
        records = dependency_records(tree, encoding)
        scored = nx.DiGraph(doc_id=tree.doc_id, b1_nary=records.b1_nary)
        scored.add_nodes_from(range(len(records) + 1))
        for edu, parent, label, nuclearity, rank in records.rows():
            scored.add_edge(parent, edu, relation=label, nuclearity=nuclearity, rank=rank)
        return scored
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
    import networkx as nx

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
    import networkx as nx

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


# -- the scored view (Morey, Muller & Asher 2018; docs/metrics/dependency.md) -----------------------

@dataclass(frozen=True)
class DependencyRecords:
    """One document's head-ordered dependency tree (docs/metrics/dependency.md): one record per EDU, in EDU order.

    ``head[i - 1]`` is the head of EDU ``i`` (0 = the fake root, else a 1-based EDU number);
    ``label`` its relation (after any relabelling; the real root's is ``ROOT``); ``nuclearity``
    ``Nucleus`` or ``Satellite``; ``rank`` the order of attachment to its head (the real root's
    is 1; an EDU never attached, ``tree``'s one-child quirk, has head 0, ``ROOT``, ``Nucleus``
    and rank 0). ``b1_nary`` counts the nodes that bug B1 left n-ary in ``chain``'s ``right_mixed``
    pass (0 unless asked for with ``b1=True``).

    >>> records = DependencyRecords("d", (2, 0), ("attribution", "ROOT"), ("Satellite", "Nucleus"), (1, 1), 0)
    >>> len(records), records.rows()[0]
    (2, (1, 2, 'attribution', 'Satellite', 1))
    """

    doc_id: str
    head: tuple[int, ...]
    label: tuple[str, ...]
    nuclearity: tuple[str, ...]
    rank: tuple[int, ...]
    b1_nary: int = 0

    def __len__(self) -> int:
        """The number of EDUs (of records)."""
        return len(self.head)

    def rows(self) -> list[tuple[int, int, str, str, int]]:
        """The records as ``(edu, head, label, nuclearity, rank)``, EDUs numbered from 1."""
        return list(zip(range(1, len(self.head) + 1), self.head, self.label, self.nuclearity, self.rank))

    def __str__(self) -> str:
        """A title line (document, EDUs, B1 count when there is one), then one aligned row per EDU."""
        title = f"{self.doc_id or 'document'}: {len(self)} EDUs"
        if self.b1_nary:
            title += f", {self.b1_nary} node(s) left n-ary by B1"
        rows: list[tuple[str, ...]] = [("EDU", "head", "label", "nuclearity", "rank")]
        rows += [tuple(map(str, row)) for row in self.rows()]
        widths = [max(len(row[i]) for row in rows) for i in range(5)]
        numeric = (True, True, False, False, True)
        lines = ["  ".join(cell.rjust(w) if right and r else cell.ljust(w)
                           for cell, w, right in zip(row, widths, numeric)).rstrip()
                 for r, row in enumerate(rows)]
        return "\n".join([title, *lines])


# what the walk does at a node: an EDU (or a one-child node read as one under ``tree``), a star of
# dependents with one shared rank, chain's multinuclear cascade, chain's S N S split
_LEAF, _STAR, _CASCADE, _SPLIT = range(4)
# how a subtree is encoded: as it is (``tree``), binarized (``chain``), or left as it is by bug B1
_AS_IS, _CHAINED, _B1 = range(3)


def dependency_records(tree: RSTTree, encoding: DependencyEncoding = "chain", *, b1: bool = False,
                       relabel: Mapping[str | None, str] | None = None) -> DependencyRecords:
    """The head-ordered dependency tree of ``tree`` (docs/metrics/dependency.md#definition), as educe's
    ``RstDepTree.from_rst_tree`` builds it.

    ``tree`` is converted as it is (binarize it first if that is wanted). ``encoding`` ``"tree"``
    keeps n-ary nodes (a star of dependents with one shared rank); ``"chain"`` binarizes them the
    ``right_mixed`` way first, recursively everywhere, or with bug B1 exactly when ``b1``
    (rst-eval compatibility: the first two children of an ``S N S`` node and all below them are left
    as they are and converted as under ``tree``; the n-ary nodes there, stars, are counted in
    ``b1_nary``). ``relabel[label]`` gives the
    scored label of each relation (a ``LabelMap.relabeller``; None keeps them as written); every
    node's label is looked up.

    Errors, naming the file, line and node: a node without a nucleus (TreeStructureError, either
    encoding); under ``chain``, an n-ary pattern other than all nuclei and ``S N S`` and a node with
    a single child (BinarizationError; under ``tree`` such a node is read as the first EDU of its
    span and the EDUs below it stay unattached, as in the reference); a label ``relabel`` does not know (LabelError).

    >>> from rstkit.formats.dis import loads_dis
    >>> tree = loads_dis("( Root (span 1 3) ( Satellite (leaf 1) (rel2par attribution) (text _!a_!) )"
    ...                  " ( Nucleus (leaf 2) (rel2par span) (text _!b_!) )"
    ...                  " ( Satellite (leaf 3) (rel2par elaboration) (text _!c_!) ) )")
    >>> dependency_records(tree, "chain").rows()  # S N S: the left satellite first
    [(1, 2, 'attribution', 'Satellite', 1), (2, 0, 'ROOT', 'Nucleus', 1), (3, 2, 'elaboration', 'Satellite', 2)]
    >>> dependency_records(tree, "tree").rank
    (1, 1, 1)
    """
    if encoding not in DEP_ENCODINGS:
        raise RSTKitError(f"unknown dependency encoding {encoding!r}; choose from {', '.join(DEP_ENCODINGS)}",
                          tree.source)
    label = relabel if relabel is not None else _IDENTITY
    try:
        return _convert(tree, encoding == "chain", b1, label)
    except KeyError:
        if relabel is None:
            raise
        raise _unknown_label(tree, relabel) from None


def _convert(tree: RSTTree, chain: bool, b1: bool, label: Mapping[str | None, str]) -> DependencyRecords:
    """One walk without recursion: a pre-order pass over the internal nodes in file order (checks,
    and what the walk does at each), then those nodes in reverse, each after everything below it,
    attaching dependents (docs/metrics/dependency.md#definition). EDUs are handled at their parent
    (an EDU heads itself)."""
    source = tree.source
    root = tree.root
    n = len(tree.edus)
    if root.start != 1 or root.end != n:
        raise TreeStructureError(f"the tree spans EDUs {root.start}-{root.end} but the document has {n}",
                                 source, root.line)
    order: list[tuple[Node, int, int]] = []  # (internal node, what the walk does there, its head child)
    add = order.append
    stack = [(root, _CHAINED if chain else _AS_IS)] if root.children else []
    pop, push = stack.pop, stack.append
    b1_nary = 0
    while stack:
        node, mode = pop()
        kids = node.children
        k = len(kids)
        if k == 2:  # most nodes (the same as the general case below, faster)
            c0, c1 = kids
            if c0.nuclearity == NUCLEUS:
                add((node, _STAR, 0))
            elif c1.nuclearity == NUCLEUS:
                add((node, _STAR, 1))
            else:
                raise _no_nucleus(node, source)
            if c1.children:
                push((c1, mode))
            if c0.children:
                push((c0, mode))
            continue
        if k == 1:
            if mode == _CHAINED:
                raise BinarizationError(f"node {node.start}-{node.end} has a single child (unary node): "
                                        "chain's binarization does not define it", source, node.line)
            add((node, _LEAF, 0))
            continue
        first = 0
        while kids[first].nuclearity != NUCLEUS:
            first += 1
            if first == k:
                raise _no_nucleus(node, source)
        if mode != _CHAINED:  # kept as it is: a star (counted where only bug B1 kept it)
            if mode == _B1:
                b1_nary += 1
            add((node, _STAR, first))
            for i in range(k - 1, -1, -1):
                if kids[i].children:
                    push((kids[i], mode))
            continue
        pattern = node.pattern()
        if pattern == NUCLEUS * k:
            add((node, _CASCADE, 0))
            for i in range(k - 1, -1, -1):
                if kids[i].children:
                    push((kids[i], _CHAINED))
        elif pattern == "SNS":
            add((node, _SPLIT, 1))
            grouped = _B1 if b1 else _CHAINED  # bug B1: c1 and c2 are not binarized
            for child, child_mode in ((kids[2], _CHAINED), (kids[1], grouped), (kids[0], grouped)):
                if child.children:
                    push((child, child_mode))
        else:
            kind = "a multinuclear node with satellites" if pattern.count(NUCLEUS) > 1 else f"{pattern} nodes"
            raise BinarizationError(f"node {node.start}-{node.end} ({pattern}): chain's right_mixed binarization "
                                    f"does not define {kind} (only all nuclei and S N S)", source, node.line)

    head = [VIRTUAL_ROOT] * (n + 1)
    relation = [ROOT_LABEL] * (n + 1)
    nuclearity = [NUCLEUS_WORD] * (n + 1)
    rank = [0] * (n + 1)
    top = [0] * (n + 1)  # the largest rank each EDU has given so far
    heads: list[int] = []  # heads of the finished internal subtrees, the leftmost one's on top
    pop_head, push_head = heads.pop, heads.append
    for node, what, first in reversed(order):
        if what == _LEAF:  # a one-child node read as an EDU under ``tree``; its labels still checked
            for below in node.children[0].nodes():
                label[below.relation]
            push_head(node.start)
            continue
        kids = node.children
        if len(kids) == 2:  # most nodes: one dependent (the same as the general case below, faster)
            c0, c1 = kids
            h0 = pop_head() if c0.children else c0.start
            h1 = pop_head() if c1.children else c1.start
            l0, l1 = label[c0.relation], label[c1.relation]
            if first:  # S N: the right child heads
                h, d, dependent, dependent_label = h1, h0, c0, l0
            else:
                h, d, dependent, dependent_label = h0, h1, c1, l1
            r = top[h] = top[h] + 1
            head[d], relation[d], rank[d] = h, dependent_label, r
            nuclearity[d] = NUCLEUS_WORD if dependent.nuclearity == NUCLEUS else SATELLITE_WORD
            push_head(h)
            continue
        hs = [pop_head() if child.children else child.start for child in kids]
        labels = [label[child.relation] for child in kids]  # every label checked, used or not
        h = hs[first]
        if what == _STAR:  # every other child at once, one rank
            r = top[h] = top[h] + 1
            for i, child in enumerate(kids):
                if i != first:
                    d = hs[i]
                    head[d], relation[d], rank[d] = h, labels[i], r
                    nuclearity[d] = NUCLEUS_WORD if child.nuclearity == NUCLEUS else SATELLITE_WORD
        elif what == _CASCADE:  # (c1, M2(c2, ... M(ck-1, ck))): ci -> ci+1, new nodes with c1's relation
            last = len(kids) - 2
            for i in range(last + 1):
                hi, d = hs[i], hs[i + 1]
                top[hi] += 1
                head[d], rank[d], nuclearity[d] = hi, top[hi], NUCLEUS_WORD
                relation[d] = labels[i + 1] if i == last else labels[0]
        else:  # S N S as (M(c1, c2), c3): the left satellite at rank r, the right one at r + 1
            r = top[h] + 1
            top[h] = r + 1
            left, right = hs[0], hs[2]
            head[left], relation[left], nuclearity[left], rank[left] = h, labels[0], SATELLITE_WORD, r
            head[right], relation[right], nuclearity[right], rank[right] = h, labels[2], SATELLITE_WORD, r + 1
        push_head(h)
    real_root = heads[0] if heads else root.start
    head[real_root], relation[real_root], nuclearity[real_root], rank[real_root] = (
        VIRTUAL_ROOT, ROOT_LABEL, NUCLEUS_WORD, 1)
    return DependencyRecords(tree.doc_id, tuple(head[1:]), tuple(relation[1:]), tuple(nuclearity[1:]),
                             tuple(rank[1:]), b1_nary)


# -- many trees at once: the same conversion vectorised, for readers that make no tree ---------------

@dataclass(frozen=True)
class Forest:
    """Several trees' nodes, each tree in pre-order (file order), one tree after the other, as arrays:
    what :func:`forest_dependencies` converts. ``parent[i]`` is node ``i``'s parent (-1 for a tree's
    root), ``nucleus[i]`` whether it is a nucleus, ``first[i]`` its first EDU in its document (a leaf's
    EDU, from 1), ``depth[i]`` its depth (a root's 0), ``relation[i]`` its label as written, as a code into
    ``labels`` (which holds each label once: they are few, the nodes many); ``n_edus[t]`` is tree ``t``'s
    number of EDUs."""

    parent: np.ndarray
    nucleus: np.ndarray
    first: np.ndarray
    depth: np.ndarray
    relation: np.ndarray
    labels: Sequence[str | None]
    n_edus: np.ndarray


#: a label: a string, or None where a tree's root has none
Label = TypeVar("Label", bound=Hashable)


def label_codes(labels: Sequence[Label], names: Sequence[Label] = ()) -> tuple[np.ndarray, list[Label]]:
    """(each label's code, the distinct labels the codes index: ``names`` first, then the others in order of
    first appearance): labels as :class:`Forest` and :class:`ForestDependencies` hold them."""
    index = {name: code for code, name in enumerate(dict.fromkeys([*names, *labels]))}
    return np.fromiter(map(index.__getitem__, labels), np.int64, len(labels)), list(index)


@dataclass(frozen=True)
class ForestDependencies:
    """:func:`forest_dependencies`' records, the EDUs of every tree one after the other, as
    :class:`DependencyRecords` has them: ``head`` (in the EDU's document, 0 = the fake root), ``label`` (a
    code into ``label_names``, which holds each label once), ``nucleus`` (bool), ``rank``; per tree
    ``b1_nary``, and ``failed``: the trees that :func:`dependency_records` would refuse (their records are
    meaningless)."""

    head: np.ndarray
    label: np.ndarray
    label_names: list[str | None]
    nucleus: np.ndarray
    rank: np.ndarray
    b1_nary: np.ndarray
    failed: np.ndarray

    def labels(self) -> list[str | None]:
        """Each EDU's label."""
        return list(map(self.label_names.__getitem__, self.label.tolist()))


def forest_dependencies(forest: Forest, encoding: DependencyEncoding = "chain", *, b1: bool = False,
                        relabel: Mapping[str | None, str] | None = None) -> ForestDependencies:
    """:func:`dependency_records` of many trees at once, vectorised over all their nodes (it pays from a
    few hundred nodes on; ``dependency_records``' walk is faster for one tree; tests/transform/
    test_dependency_forest.py checks that both give the same records, errors included).

    Every node is classified at once: what the definition's walk does there (a star of dependents
    sharing one rank; under ``chain`` an all-nuclei n-ary node's cascade or an ``S N S`` node's split; a
    one-child node read as its first EDU, unless chained), whether it lies below such a one-child node
    (then it gives nothing), and under B1 whether it lies in the first two children of an ``S N S``
    node (then it is kept as it is). Heads follow first nuclei down to an EDU (pointer jumping). Each
    dependent's attachment is an event of its head at the node's depth; its rank is that event's place
    among its head's events, deepest first (an ``S N S`` split's right satellite one after its left).
    A tree the walk would refuse (a node without a nucleus, under ``chain`` a one-child node or an n-ary
    pattern it does not define, a label ``relabel`` does not know) is marked ``failed``."""
    parent, nucleus, first, depth = forest.parent, forest.nucleus, forest.first, forest.depth
    m, n_trees = len(parent), len(forest.n_edus)
    everyone = np.arange(m)
    roots = np.flatnonzero(parent < 0)
    tree_of = np.cumsum(parent < 0) - 1
    nonroot = np.flatnonzero(parent >= 0)
    kids = np.bincount(parent[nonroot], minlength=m)
    order = np.sort(parent[nonroot] * m + nonroot) % m  # every node but the roots, by parent, in order
    offset = np.cumsum(kids) - kids  # where each node's children start in ``order``
    inner = np.flatnonzero(kids)
    first_nucleus = np.full(m, m)  # m: none
    nuclei = np.zeros(m, np.int64)
    if len(inner):
        first_nucleus[inner] = np.minimum.reduceat(np.where(nucleus[order], order, m), offset[inner])
        nuclei[inner] = np.add.reduceat(nucleus[order], offset[inner], dtype=np.int64)
    three = np.flatnonzero(kids == 3)
    left, middle, right = (order[offset[three] + i] for i in range(3))
    is_sns = ~nucleus[left] & nucleus[middle] & ~nucleus[right]
    sns = np.zeros(m, np.bool_)
    sns[three[is_sns]] = True
    chained = np.full(m, encoding == "chain")
    kept = np.zeros(m, np.bool_)  # left as it is by bug B1: the first two children of an S N S node, all below
    if encoding == "chain" and b1 and is_sns.any():
        kept = _covered(m, three[is_sns] + 1, right[is_sns])
        chained = ~kept
    as_edu = (kids == 1) & ~chained
    active = np.ones(m, np.bool_)
    if as_edu.any():
        active = ~_covered(m, np.flatnonzero(as_edu) + 1, last_descendants(order, kids)[as_edu] + 1)
    nary = kids > 2
    cascade = chained & nary & (nuclei == kids)
    split = chained & sns
    failed = np.zeros(n_trees, np.bool_)
    failed[tree_of[active & (((kids == 1) & chained) | ((kids >= 2) & (nuclei == 0))
                             | (chained & nary & ~cascade & ~split))]] = True
    label = relabel if relabel is not None else _IDENTITY
    mapped: list[str | None] = []
    unknown = np.zeros(len(forest.labels), np.bool_)
    used = np.bincount(forest.relation, minlength=len(forest.labels)) > 0
    for code, (relation, in_use) in enumerate(zip(forest.labels, used.tolist())):
        try:
            mapped.append(label[relation] if in_use else None)
        except KeyError:  # a label the map does not know: its trees fail (but for a root's)
            mapped.append(None)
            unknown[code] = True
    if unknown.any():
        failed[tree_of[unknown[forest.relation] & (parent >= 0)]] = True
    # each node's head EDU: first nuclei followed down to an EDU, or to a one-child node read as one
    head_of = first[_chain_ends(np.where((kids >= 2) & active & (nuclei > 0), first_nucleus, everyone))]
    edu_base = np.cumsum(forest.n_edus) - forest.n_edus - 1  # + an EDU's number: its index over all trees
    # the dependents: every child of an active node of two children or more but its head child
    up = parent[order]
    place = np.zeros(m, np.int64)
    place[order] = np.arange(len(order)) - offset[up]  # each node's place among its siblings
    child = order[active[up] & (kids[up] >= 2) & (order != first_nucleus[up])]
    up = parent[child]
    cascading = cascade[up]
    governor = np.where(cascading, head_of[order[offset[up] + place[child] - 1]], head_of[up])
    slot = (split[up] & (place[child] == 2)).astype(np.int64)  # S N S: the right satellite one rank later
    # a cascade's links carry its first nucleus's relation, but the last, which carries its own
    labelled = np.where(cascading & (place[child] < kids[up] - 1), up + 1, child)
    base = edu_base[tree_of[child]]
    # each attachment's event, as one key: its head, deepest first, then the slot (those alike are one event)
    deepest = int(depth.max()) if len(depth) else 0
    event = ((governor + base) * (deepest + 1) + deepest - depth[up]) * 2 + slot
    events = np.argsort(event)
    g, e = (governor + base)[events], event[events]
    new_event = np.ones(len(events), np.bool_)
    new_event[1:] = e[1:] != e[:-1]
    count = np.cumsum(new_event)
    before = np.where(np.concatenate(([True], g[1:] != g[:-1])), count - 1, 0)
    ranks = np.empty(len(events), np.int64)
    ranks[events] = count - np.maximum.accumulate(before)
    # the records in EDU order (EDUs never attached: head 0, ROOT, Nucleus, rank 0)
    total = int(forest.n_edus.sum())
    dependent = head_of[child] + base
    head = np.zeros(total, np.int64)
    label_of = np.full(total, -1)  # -1: ROOT, else the node whose relation the EDU carries
    is_nucleus = np.ones(total, np.bool_)
    rank = np.zeros(total, np.int64)
    head[dependent], label_of[dependent], rank[dependent] = governor, labelled, ranks
    is_nucleus[dependent] = nucleus[child]
    real_roots = head_of[roots] + edu_base
    head[real_roots], label_of[real_roots], rank[real_roots] = VIRTUAL_ROOT, -1, 1
    label_code, names = label_codes([*mapped, ROOT_LABEL])  # labels the map makes one are one
    node_label = np.append(label_code[forest.relation], label_code[-1])  # each node's, then ROOT's (at -1)
    return ForestDependencies(head, node_label[label_of], names, is_nucleus, rank,
                              np.bincount(tree_of[kept & active & nary], minlength=n_trees), failed)


def _covered(m: int, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Which of ``m`` positions lie in one of the intervals ``[starts[i], ends[i])``."""
    return np.cumsum(np.bincount(starts, minlength=m + 1) - np.bincount(ends, minlength=m + 1))[:m] > 0


def last_descendants(order: np.ndarray, kids: np.ndarray) -> np.ndarray:
    """Each pre-order node's last descendant (itself for a node without children), from the nodes but the
    roots grouped by parent in order (``order``) and each node's number of children (``kids``): last
    children followed down."""
    last = np.arange(len(kids))  # a node's last child (a later node: no cycle), or itself
    parents = np.flatnonzero(kids)
    last[parents] = order[np.cumsum(kids)[parents] - 1]
    return _chain_ends(last)


def _chain_ends(pointer: np.ndarray) -> np.ndarray:
    """Where each chain of ``pointer`` (an index into itself, without cycles but fixed points) ends:
    pointer jumping, each round doubling the steps taken."""
    while not np.array_equal(jumped := pointer[pointer], pointer):
        pointer = jumped
    return pointer


def _no_nucleus(node: Node, source: str | None) -> TreeStructureError:
    return TreeStructureError(f"node {node.start}-{node.end} has no nucleus among its children ({node.pattern()}): "
                              "no head for the dependency conversion", source, node.line)


def _unknown_label(tree: RSTTree, relabel: Mapping[str | None, str]) -> LabelError:
    """The error for the first node in the file whose label ``relabel`` does not know, worded by its
    label map (``LabelMap.map``) when ``relabel`` is a map's relabeller."""
    for node in tree.root.nodes():
        if node.relation is None:
            continue
        try:
            relabel[node.relation]
        except KeyError:
            label_map = getattr(relabel, "label_map", None)
            if label_map is not None:
                try:
                    label_map.map(node.relation, getattr(relabel, "unknown_labels", "error"), tree.source, node.line)
                except LabelError as error:
                    return error
            return LabelError(f"relation label {node.relation!r} is unknown to the label map", tree.source,
                              node.line, fixes=("unknown_labels", "labels"))
    raise AssertionError("a label lookup failed once but not again")  # pragma: no cover


class _Identity(dict[str | None, str | None]):
    """Every label maps to itself (each distinct label stored once met)."""

    def __missing__(self, key: str | None) -> str | None:
        self[key] = key
        return key


#: typed as relabellers are: only the root's label is None, and no record takes the root's
_IDENTITY = cast("Mapping[str | None, str]", _Identity())
