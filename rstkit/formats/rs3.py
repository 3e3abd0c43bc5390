"""rstWeb XML, ``.rs3`` and GUM's ``.rs4`` (docs/formats.md#rs3): reader and writer.

An rs3 file lists segments (the EDUs, in textual order) and groups (``span`` or
``multinuc``); every node but the top one names its ``parent`` and a ``relname``:
``span`` makes it the nucleus of a span group, a name declared ``multinuc`` makes it a
nucleus of a multinuclear group, a name declared ``rst`` makes it a satellite of the
node it points to (a segment, a span group or a multinuclear group).

Reading turns these parent links into rstkit's rel2par constituency tree, as GUM's own
rs4 -> dis conversion does: the constituent of a node is its *core* (the EDU of a
segment, the constituent of a span group's ``span`` child, or a multinuclear node over a
multinuc group's nuclei), wrapped, when satellites point to the node, in a new node whose
children are the core (``N``/``span``) and the satellites (``S``/relname) in textual
order. A satellite of a multinuclear group therefore yields a span node whose nucleus is
the multinuclear node (rs3 cannot express a flat ``S N N`` node). On GUM this equals
``lisp_nary`` for 280 of 281 documents; the exception, ``GENTLE_syllabus_techtonica``,
is GUM's only satellite of a multinuc group that is not itself a ``span`` child, where
GUM's dis export flattens the two nodes into one ``S N...N`` node (see tests/formats/test_gum_forms.py).

rs4 secondary edges, signals and signal types (eRST) are not part of the tree; they are
``tree.erst`` (:class:`~rstkit.tree.ERST`), each edge and signal naming the nodes it joins by
their EDU extents (the extent of a segment or group is the one of the constituent it builds,
which bears its relname), a signal of a secondary edge by the edge; rs3 files that have
them are read alike, and the writer writes them back (see :func:`dumps_rs3`). rs3 carries no
sentence or paragraph information.

A segment's text is its element's text content, markup stripped: ``<segment>Making <i>bread</i> at
home</segment>`` is the EDU ``Making bread at home`` (the text of the inner elements is kept, their
tags are not); leading and trailing whitespace is stripped. The fast scanner reads only segments
without markup and leaves the others to the XML parser, so both give this text.

Two front ends, then, give one markup to one tree builder: the scanner (``_rs3_scan``, files laid
out as rstWeb and GUM write them) and ElementTree (``_rs3_xml``, any XML, and every syntax error).
The scanner is kept for speed: GUM's 281 ``.rs4`` files read in 0.95 s of CPU with it, 2.04 s
through ElementTree alone (its front end alone: 0.23 s against 1.23 s); the two give the same
markup on every GUM file (tests/formats/test_readers_equivalence.py).

Groups' ``type`` attributes are not trusted (some producers get them wrong): roles are
decided from the children's relnames. A name declared with both types is a satellite
of a segment or of a group that has a ``span`` child, a nucleus when at least two
children of a group share it, and otherwise a nucleus unless the group already has two
nuclei. Names missing from the header are errors, or (``lenient=True``) get the same
treatment with a warning.
"""
from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from itertools import compress, pairwise, repeat
from operator import attrgetter, is_not, itemgetter
from pathlib import Path
from typing import NoReturn, TypeGuard

from ..errors import FormatError, RSTKitWarning, TreeStructureError, WriteError, printable
from ..tree import (
    EDU,
    ERST,
    NO_ERST,
    NUCLEUS,
    ROOT,
    SATELLITE,
    SPAN,
    Node,
    RSTTree,
    SecondaryEdge,
    Signal,
    Span,
    internal,
)
from . import Format, doc_id_from_path, read_text, register, source_name
from ._fastnodes import new_edu, new_node
from ._rs3_scan import Markup, scan
from ._rs3_xml import parse_xml, rs4_element_line
from .rebuild import bottom_up
from .writable import NOT_XML, SURROGATE, shown, writer

RST = "rst"
MULTINUC = "multinuc"
_RELATION_TYPES = (RST, MULTINUC)


# -- reading ------------------------------------------------------------------------------
def loads_rs3(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
              lenient: bool = False) -> RSTTree:
    """Parse the text of one rs3/rs4 file into an RSTTree.

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> loads_rs3(dumps_rs3(tree)).root == tree.root
    True
    """
    source = source_name(path)
    markup = scan(text)
    if markup is None:
        markup = parse_xml(text, source)
    types = _declared_types(markup.relations, source)
    builder = _TreeBuilder(_Body(*markup.body, source), types, lenient)
    tree_root = builder.tree()
    if doc_id is None:
        doc_id = doc_id_from_path(path) if path is not None else ""
    texts = builder.body.segment_texts
    edus = tuple(map(new_edu, range(1, len(texts) + 1), texts, repeat(None), repeat(None)))
    layer = _rs4_layer(markup, builder, text)
    # no validate(): every element is used once and children are checked contiguous, which implies
    # every property it checks (tests/formats/test_readers_equivalence.py runs it on every tree read)
    return RSTTree(tree_root, edus, doc_id, source, {}, layer)


def read_rs3(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    """Read one rs3/rs4 file (a list of one tree, as every format reader returns). A segment's text is
    its element's text content, markup stripped (``Making <i>bread</i>`` -> ``Making bread``)."""
    return [loads_rs3(read_text(path, encoding=encoding, lenient=lenient), path, lenient=lenient)]


# -- from markup to the tree (shared by both front ends) ----------------------------------------
def _declared_types(relations: list[tuple[str | None, str | None]], source: str) -> dict[str, set[str]]:
    """Relation name -> declared types (``rst``, ``multinuc``; a name may have both)."""
    types: dict[str, set[str]] = {}
    for name, kind in relations:
        if not name or kind not in _RELATION_TYPES:
            raise FormatError(f"<rel name={_shown(name)} type={_shown(kind)}>: needs a name and type 'rst' or "
                              "'multinuc'", source)
        types.setdefault(name, set()).add(kind)
    return types


def _shown(value: str | None) -> str:
    """An attribute value for a message: quoted and printable, or None."""
    return "None" if value is None else f"'{printable(value)}'"


def _all_named(ids: list[str | None]) -> TypeGuard[list[str]]:
    """Whether every element has an id (a non-empty one)."""
    return all(ids)


class _Body:
    """The segments and groups of the body as columns (index = position in the body), linked.

    ``order`` lists the indices breadth-first from the one top node; ``children`` holds each
    node's children in file order. Dangling parents, cycles and forests are errors.
    """

    def __init__(self, is_segment: list[bool], ids: list[str | None], parents: list[str | None],
                 relnames: list[str], texts: list[str], lines: list[int | None], source: str):
        self.source = source
        self.is_segment, self.parents, self.relnames, self.lines = is_segment, parents, relnames, lines
        self.position: dict[str | None, int] = dict(zip(ids, range(len(ids))))
        if not (_all_named(ids) and len(self.position) == len(ids) and any(is_segment)
                and all(compress(relnames, map(is_not, parents, repeat(None))))):  # a relname where a parent
            self._explain_bad_items(ids)
        self.ids: list[str] = ids
        self.segment_texts = list(map(str.strip, compress(texts, is_segment)))
        self.children: list[Sequence[int]] = [()] * len(ids)  # by position, in file order
        self.order = self._link()

    def _explain_bad_items(self, ids: list[str | None]) -> NoReturn:
        seen: set[str] = set()
        for segment, node_id, parent, relname, line in zip(self.is_segment, ids, self.parents, self.relnames,
                                                           self.lines):
            tag = "segment" if segment else "group"
            if not node_id:
                raise FormatError(f"<{tag}> without an id", self.source)
            if node_id in seen:
                raise FormatError(f"id {_shown(node_id)} is used twice", self.source, line)
            if parent is not None and not relname:
                raise FormatError(f"{tag} {printable(node_id)} has a parent but no relname", self.source, line)
            seen.add(node_id)
        raise FormatError("no <segment> in <body>", self.source)

    def _link(self) -> list[int]:
        position, children = self.position, self.children
        tops = []
        for k, parent in enumerate(self.parents):
            if parent is None:
                tops.append(k)
                continue
            j = position.get(parent)
            if j is None:
                raise FormatError(f"node {printable(self.ids[k])} points to parent {_shown(parent)}, which does not "
                                  "exist", self.source, self.lines[k])
            kids = children[j]
            if kids:
                kids.append(k)  # type: ignore[attr-defined]  # a list once a child is linked
            else:
                children[j] = [k]
        order = tops[:1]
        for k in order:  # grows while iterating
            order.extend(children[k])
        if len(tops) == 1 and len(order) == len(self.position):
            return order  # every node hangs from the one top: no cycle
        self._reject_cycles()
        ids = ", ".join(printable(self.ids[k]) for k in tops[:10])
        raise TreeStructureError(f"expected one top node (without parent), found {len(tops)}: {ids}", self.source,
                                 self.lines[tops[1]] if tops else None)

    def _reject_cycles(self) -> None:
        done: set[int] = set()
        for start in range(len(self.ids)):
            path: list[int] = []
            on_path: set[int] = set()
            k: int | None = start
            while k is not None and k not in done:
                if k in on_path:
                    cycle = [self.ids[j] for j in path[path.index(k):] + [k]]
                    raise TreeStructureError(f"parent links form a cycle: {' -> '.join(map(printable, cycle))}",
                                             self.source, self.lines[k])
                path.append(k)
                on_path.add(k)
                parent = self.parents[k]
                k = self.position.get(parent) if parent is not None else None
            done.update(path)


SPAN_ROLE, MULTI_ROLE, SAT_ROLE = "span", "multinuc", "satellite"
_ONLY_RST: AbstractSet[str] = frozenset({RST})
_ONLY_MULTINUC: AbstractSet[str] = frozenset({MULTINUC})


def child_roles(parent_is_segment: bool, relnames: list[str], types: dict[str, set[str]]) -> list[str]:
    """The role of each child of one node, from the children's relnames.

    ``types`` maps names to their declared types; names declared with both types, or not
    declared at all, are decided as the module docstring says. Shared by reader and
    writer, so that the writer can refuse what would read back differently.
    """
    if parent_is_segment or SPAN in relnames:
        return [SPAN_ROLE if name == SPAN else SAT_ROLE for name in relnames]
    roles: list[str | None] = []
    for name in relnames:
        declared = types.get(name)
        if declared == _ONLY_RST:
            roles.append(SAT_ROLE)
        elif declared == _ONLY_MULTINUC:
            roles.append(MULTI_ROLE)
        else:
            roles.append(MULTI_ROLE if relnames.count(name) >= 2 else None)  # None: decided below
    nuclei = roles.count(MULTI_ROLE)
    return [role or (SAT_ROLE if nuclei >= 2 else MULTI_ROLE) for role in roles]


#: a constituent before its parent labels it: (start, end, children, line)
_Unlabelled = tuple[int, int, tuple[Node, ...], "int | None"]
_UNBUILT: _Unlabelled = (0, 0, (), None)  # a group before its children are built
_EXTENT = itemgetter(0, 1)


def _label(u: _Unlabelled, nuclearity: str, relation: str | None) -> Node:
    """The node ``u`` (start, end, children, line) with a nuclearity and a relation."""
    return new_node(u[0], u[1], nuclearity, relation, u[2], u[3])


class _TreeBuilder:
    """Builds constituents bottom-up over a linked body (no recursion: rs3 chains can be deep)."""

    def __init__(self, body: _Body, types: dict[str, set[str]], lenient: bool):
        self.body = body
        self.types = types
        self.source = body.source
        self.lenient = lenient
        self.built: list[_Unlabelled] = []

    def tree(self) -> Node:
        """The tree of the whole body (the top node labelled ``Root``)."""
        body = self.body
        relnames, lines, is_segment, children = body.relnames, body.lines, body.is_segment, body.children
        index = 0
        built = self.built = [((index := index + 1), index, (), line) if segment else _UNBUILT
                              for segment, line in zip(is_segment, lines)]
        check_each = not set(relnames) <= self.types.keys() | {SPAN, ""}
        # the role a child of a group without a span child has by its relname alone, for names declared with one
        # type (see child_roles); the others are decided by _core
        role_of = {name: SAT_ROLE if kinds == _ONLY_RST else MULTI_ROLE
                   for name, kinds in self.types.items() if len(kinds) == 1 and name != SPAN}
        # segments without satellites are built already: visit the rest, children before parents
        for k in [k for k in reversed(body.order) if children[k] or not is_segment[k]]:
            kids = children[k]
            segment = is_segment[k]
            if check_each:
                self._check_declared(kids)
            if len(kids) == 1 and relnames[kids[0]] == SPAN and not segment:  # a group around its span child
                built[k] = built[kids[0]]
                continue
            if len(kids) == 1 and segment and relnames[kids[0]] != SPAN:  # a segment with one satellite
                core, satellite = built[k], kids[0]
            elif len(kids) == 2 and not segment and (relnames[kids[0]] == SPAN) != (relnames[kids[1]] == SPAN):
                core, satellite = (built[kids[0]], kids[1]) if relnames[kids[0]] == SPAN else (built[kids[1]], kids[0])
            else:  # multinuclear groups, several satellites, names declared with both types, malformed nodes
                if (len(kids) > 1 and not segment
                        and None not in (roles := [role_of.get(relnames[j]) for j in kids])
                        and roles.count(MULTI_ROLE) > 1):  # every child's role known from its name alone
                    core = self._in_order([_label(built[j], NUCLEUS, relnames[j])
                                           for j, role in zip(kids, roles) if role is MULTI_ROLE], k)
                    satellites = [j for j, role in zip(kids, roles) if role is SAT_ROLE]
                else:
                    core, satellites = self._core(k, [relnames[j] for j in kids])
                if satellites:
                    nodes = [_label(core, NUCLEUS, SPAN)]
                    nodes += [_label(built[j], SATELLITE, relnames[j]) for j in satellites]
                    core = self._in_order(nodes, k)
                built[k] = core
                continue
            other = built[satellite]  # the common case, one nucleus and one satellite
            nucleus = new_node(core[0], core[1], NUCLEUS, SPAN, core[2], core[3])
            satellite_node = new_node(other[0], other[1], SATELLITE, relnames[satellite], other[2], other[3])
            if other[0] == core[1] + 1:
                built[k] = (core[0], other[1], (nucleus, satellite_node), lines[k])
            elif core[0] == other[1] + 1:
                built[k] = (other[0], core[1], (satellite_node, nucleus), lines[k])
            else:
                built[k] = self._in_order([nucleus, satellite_node], k)  # explains the gap
        start, end, kids_of_top, line = built[body.order[0]]
        return Node(start, end, ROOT, None, kids_of_top, line)

    def _core(self, k: int, names: list[str]) -> tuple[_Unlabelled, list[int]]:
        """The nucleus of node ``k`` (the node itself for a segment) and its satellites."""
        body, built = self.body, self.built
        kids = body.children[k]
        roles = child_roles(body.is_segment[k], names, self.types)
        spans = [j for j, role in zip(kids, roles) if role == SPAN_ROLE]
        nuclei = [j for j, role in zip(kids, roles) if role == MULTI_ROLE]
        satellites = [j for j, role in zip(kids, roles) if role == SAT_ROLE]
        ids, source, line = body.ids, self.source, body.lines[k]
        if body.is_segment[k]:
            if spans or nuclei:
                first = printable(ids[(spans + nuclei)[0]])
                raise TreeStructureError(f"{self._what(k)} has nucleus children ({first}); only groups can",
                                         source, line)
            return built[k], satellites
        if len(spans) > 1:
            raise TreeStructureError(f"{self._what(k)} has {len(spans)} span children "
                                     f"({', '.join(printable(ids[j]) for j in spans)})", source, line)
        if spans:
            return built[spans[0]], satellites
        if len(nuclei) == 1:
            raise TreeStructureError(f"{self._what(k)} is multinuclear with a single nucleus "
                                     f"({printable(ids[nuclei[0]])})", source, line)
        if nuclei:
            nodes = [_label(built[j], NUCLEUS, body.relnames[j]) for j in nuclei]
            return self._in_order(nodes, k), satellites
        raise TreeStructureError(f"{self._what(k)} has no nucleus (no child with relname 'span' or a multinuclear "
                                 "relation)", source, line)

    def _what(self, k: int) -> str:
        return f"{'segment' if self.body.is_segment[k] else 'group'} {printable(self.body.ids[k])}"

    def _check_declared(self, kids: Sequence[int]) -> None:
        relnames, lines = self.body.relnames, self.body.lines
        for j in kids:
            name = relnames[j]
            if name != SPAN and name not in self.types:
                message = f"relname {_shown(name)} is not declared in <header><relations>"
                if not self.lenient:
                    raise FormatError(message, self.source, lines[j])
                warnings.warn(f"{self.source}:{lines[j]}: {message}; its type is guessed from the structure "
                              "(lenient)", RSTKitWarning, stacklevel=5)
                self.types[name] = set(_RELATION_TYPES)

    def _in_order(self, children: list[Node], k: int) -> _Unlabelled:
        """Node ``k`` over ``children`` in textual order (which must cover a contiguous span)."""
        children.sort(key=_start)
        for left, right in pairwise(children):
            if right.start != left.end + 1:
                raise TreeStructureError(
                    f"non-projective structure: the children of node {printable(self.body.ids[k])} cover EDUs "
                    f"{left.start}-{left.end} and {right.start}-{right.end}, not a contiguous span",
                    self.source, self.body.lines[k])
        return (children[0].start, children[-1].end, tuple(children), self.body.lines[k])


_start = attrgetter("start")


_TOKENS = re.compile(r"(?:[1-9][0-9]*(?:,[1-9][0-9]*)*)?")


def _rs4_layer(markup: Markup, builder: _TreeBuilder, text: str) -> ERST:
    """The eRST layer of an rs4 file (empty for plain rs3): each secondary edge and signal with the EDU
    extents of the nodes it names. A name that is no segment or group (nor, for a signal, a secondary
    edge), an edge id used twice, or tokens that are not 1-based numbers separated by commas, or that
    are past the document's last token, are errors naming the element's line."""
    if not (markup.secedges or markup.signals or markup.sigtypes):
        return NO_ERST
    source = builder.source
    extent: dict[str | None, Span] = dict(zip(builder.body.ids, map(_EXTENT, builder.built)))

    def fail(tag: str, k: int, problem: str) -> NoReturn:
        raise FormatError(f"<{tag}> {problem}", source, rs4_element_line(text, tag, k))

    edges: list[SecondaryEdge] = []
    by_id: dict[str | None, SecondaryEdge] = {}
    for k, attributes in enumerate(markup.secedges):
        ends = [extent.get(attributes.get(end)) for end in ("source", "target")]
        for end, span in zip(("source", "target"), ends):
            if span is None:
                fail("secedge", k, f"{end}={_shown(attributes.get(end))} is no segment or group")
        edge = SecondaryEdge(ends[0], ends[1], attributes.get("relname") or "")  # type: ignore[arg-type]
        if attributes.get("id") in by_id:
            fail("secedge", k, f"id={_shown(attributes.get('id'))} is used twice")
        by_id[attributes.get("id")] = edge
        edges.append(edge)
    signals: list[Signal] = []
    n_tokens = sum(len(text.split()) for text in builder.body.segment_texts) if markup.signals else 0
    for k, attributes in enumerate(markup.signals):
        name = attributes.get("source")
        on: Span | SecondaryEdge | None = extent.get(name)
        if on is None:
            on = by_id.get(name)
        if on is None:
            fail("signal", k, f"source={_shown(name)} is no segment, group or secondary edge")
        tokens = attributes.get("tokens") or ""
        if not _TOKENS.fullmatch(tokens):
            fail("signal", k, f"tokens={_shown(tokens)}: expected token numbers from 1, separated by commas")
        numbers = tuple(map(int, tokens.split(","))) if tokens else ()
        if numbers and max(numbers) > n_tokens:
            fail("signal", k, f"token {max(numbers)} is past the document's last ({n_tokens} tokens: the EDU "
                              "texts split at whitespace)")
        signals.append(Signal(on, attributes.get("type") or "", attributes.get("subtype") or "", numbers,
                              attributes.get("status")))
    sigtypes = tuple((kind, tuple(subtypes.split(";"))) for kind, subtypes in markup.sigtypes)
    return ERST(tuple(edges), tuple(signals), sigtypes)


# -- writing ------------------------------------------------------------------------------
def rs3_normal_form(tree: RSTTree) -> RSTTree:
    """The tree as rs3 can express it (what writing then reading gives back).

    A node mixing satellites with several nuclei becomes a span node whose nucleus is a
    new multinuclear node over those nuclei; the nucleus of a mononuclear node is
    labelled ``span``; sentence and paragraph indices are dropped (rs3 has none).
    """

    def normal(node: Node, children: list[Node]) -> Node:
        """``node`` over its children in normal form."""
        nuclei = [c for c in children if c.nuclearity == NUCLEUS]
        if len(nuclei) == len(children):
            return replace(node, children=tuple(children))
        if len(nuclei) > 1:
            first, last = children.index(nuclei[0]), children.index(nuclei[-1])
            if children[first:last + 1] != nuclei:
                raise TreeStructureError(f"node {node.start}-{node.end} ({node.pattern()}) has satellites "
                                         "between its nuclei: rs3 cannot express it", tree.source, node.line)
            inner = internal(NUCLEUS, SPAN, nuclei, node.line)
            children = children[:first] + [inner] + children[last + 1:]
        children = [replace(c, relation=SPAN) if c.nuclearity == NUCLEUS else c for c in children]
        return replace(node, children=tuple(children))

    edus = tuple(EDU(e.index, e.text) for e in tree.edus)
    return replace(tree, root=bottom_up(tree.root, normal), edus=edus)


@writer("rs3", (NOT_XML,), (NOT_XML,))
def dumps_rs3(tree: RSTTree) -> str:
    """Write a tree as rstWeb XML (tab-indented, like GUM's files).

    Segments come first (ids 1..n), then groups (ids n+1.. in pre-order; the top group
    first). Satellites point to their span group. ``tree.extra`` is not written; the eRST layer
    (``tree.erst``) is: the header's ``<sigtypes>``, then ``<secedges>`` and ``<signals>`` after the
    groups, each naming a node by the element written for its extent (an extent that no node of the
    tree spans is an error), a secondary edge's relation declared as ``rst`` where the tree does not
    declare it.

    Text and relation names are escaped (``&lt;``, ``&amp;``; a carriage return as ``&#13;``, which
    XML would otherwise read as a line break) and read back as written, but for leading and trailing
    whitespace of EDU text, which the reader strips. Characters XML cannot hold at all (NUL and
    most other control characters) are refused (:class:`~rstkit.errors.WriteError`).

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> print(dumps_rs3(tree).splitlines()[9].strip())
    <segment id="1" parent="7" relname="background">Making bread at home is simpler than it looks.</segment>
    """
    from xml.sax.saxutils import quoteattr  # here: it imports urllib, which reading does not need

    tree = rs3_normal_form(tree)
    n = tree.n_edus
    declared: dict[str, set[str]] = {}
    links: dict[int, tuple[int, str]] = {}  # element id -> (parent id, relname)
    groups: list[tuple[int, str]] = []  # (id, type)

    element: dict[Span, int] = {}  # a node's extent -> its element's id (for the eRST layer)
    stack: list[tuple[Node, Node | None, int, int | None]] = [(tree.root, None, 0, None)]
    while stack:  # depth-first; an element's link is checked once its subtree is numbered
        node, parent, gid, own = stack.pop()
        if own is None and not node.is_leaf:  # entering a group: number it, then its children
            own = n + len(groups) + 1
            element[node.span] = own
            groups.append((own, MULTINUC if node.is_multinuclear else SPAN))
            stack.append((node, parent, gid, own))
            stack.extend((child, node, own, None) for child in reversed(node.children))
            continue
        if parent is None:
            continue
        cid = node.start if own is None else own  # a leaf is its segment; a group was numbered on entry
        if parent.is_multinuclear:
            relation = _writable(node.relation, "a multinuclear nucleus", node, tree)
            declared.setdefault(relation, set()).add(MULTINUC)
            links[cid] = (gid, relation)
        elif node.nuclearity == NUCLEUS:
            links[cid] = (gid, SPAN)
        else:
            relation = _writable(node.relation, "a satellite", node, tree)
            declared.setdefault(relation, set()).add(RST)
            links[cid] = (gid, relation)

    _check_unambiguous(tree, links, declared)
    layer = tree.erst
    _check_layer(tree)
    for edge in layer.secondary_edges:  # rstWeb shows an edge whose name is declared; as rst where it is not
        declared.setdefault(edge.relation, {RST})
    out = ["<rst>", "\t<header>", "\t\t<relations>"]
    for name in sorted(declared):
        out.extend(f"\t\t\t<rel name={quoteattr(name)} type=\"{kind}\"/>" for kind in sorted(declared[name]))
    out.append("\t\t</relations>")
    if layer.signal_types:
        out.append("\t\t<sigtypes>")
        out.extend(f"\t\t\t<sig type={quoteattr(kind)} subtypes={quoteattr(';'.join(subtypes))}/>"
                   for kind, subtypes in layer.signal_types)
        out.append("\t\t</sigtypes>")
    out += ["\t</header>", "\t<body>"]

    def attrs(eid: int) -> str:
        if eid not in links:
            return ""
        parent, relname = links[eid]
        return f" parent=\"{parent}\" relname={quoteattr(relname)}"

    out.extend(f"\t\t<segment id=\"{edu.index}\"{attrs(edu.index)}>{xml_text(edu.text)}</segment>"
               for edu in tree.edus)
    for gid, kind in groups:
        out.append(f"\t\t<group id=\"{gid}\" type=\"{kind}\"{attrs(gid)}/>")
    element.update(((edu.index, edu.index), edu.index) for edu in tree.edus)
    out += _layer_lines(tree, element, quoteattr)
    out += ["\t</body>", "</rst>"]
    return "\n".join(out) + "\n"


def _layer_lines(tree: RSTTree, element: dict[Span, int], quoteattr: Callable[[str], str]) -> list[str]:
    """The ``<secedges>`` and ``<signals>`` sections of ``tree``'s eRST layer, naming each node by the id of
    the element written for its extent (an EDU's segment, another node's group). An edge's id is
    ``source-target``, GUM's form, with ``-2``, ``-3``... after a second edge between the same elements."""
    layer = tree.erst

    def node_id(span: Span) -> int:
        found = element.get(span)
        if found is None:
            raise TreeStructureError(f"its eRST layer names EDUs {span[0]}-{span[1]}, which no node of the tree "
                                     "spans", tree.source)
        return found

    out: list[str] = []
    edge_ids: dict[SecondaryEdge, str] = {}  # an edge's signals name the first of its equals
    used: set[str] = set()
    if layer.secondary_edges:
        out.append("\t\t<secedges>")
        for edge in layer.secondary_edges:
            base = f"{node_id(edge.source)}-{node_id(edge.target)}"
            edge_id, k = base, 1
            while edge_id in used:
                k += 1
                edge_id = f"{base}-{k}"
            used.add(edge_id)
            edge_ids.setdefault(edge, edge_id)
            out.append(f"\t\t\t<secedge id=\"{edge_id}\" source=\"{node_id(edge.source)}\" "
                       f"target=\"{node_id(edge.target)}\" relname={quoteattr(edge.relation)}/>")
        out.append("\t\t</secedges>")
    if layer.signals:
        out.append("\t\t<signals>")
        for signal in layer.signals:
            on = signal.source
            source = edge_ids[on] if isinstance(on, SecondaryEdge) else str(node_id(on))
            status = "" if signal.status is None else f" status={quoteattr(signal.status)}"
            out.append(f"\t\t\t<signal source=\"{source}\" type={quoteattr(signal.type)} "
                       f"subtype={quoteattr(signal.subtype)} tokens=\"{','.join(map(str, signal.tokens))}\"{status}/>")
        out.append("\t\t</signals>")
    return out


def _check_layer(tree: RSTTree) -> None:
    """A WriteError for a name, type or status of the eRST layer that XML cannot hold."""
    layer = tree.erst
    words = [edge.relation for edge in layer.secondary_edges]
    words += [word for signal in layer.signals for word in (signal.type, signal.subtype, signal.status or "")]
    words += [word for kind, subtypes in layer.signal_types for word in (kind, *subtypes)]
    for word in words:
        for rule in (SURROGATE, NOT_XML):
            found = rule.pattern.search(word)
            if found:
                raise WriteError(f"cannot write document '{printable(tree.doc_id)}' as rs3: '{printable(word)}' "
                                 f"in its eRST layer holds {shown(found.group())}, {rule.why}", tree.source)


def xml_text(text: str) -> str:
    """``text`` as XML character data that reads back as ``text``: ``&``, ``<`` and ``>`` escaped, and a
    carriage return as ``&#13;`` (a parser turns a literal one into a line break)."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return escaped.replace("\r", "&#13;") if "\r" in escaped else escaped


def _writable(relation: str | None, role: str, node: Node, tree: RSTTree) -> str:
    """``relation`` as the relname of a ``role`` element; an error if it has none or is ``span``."""
    if not relation or relation == SPAN:
        raise TreeStructureError(f"{role} ({node.start}-{node.end}) is labelled "
                                 f"{relation!r}, which rs3 reserves for nuclei of span groups",
                                 tree.source, node.line)
    return relation


def _check_unambiguous(tree: RSTTree, links: dict[int, tuple[int, str]], declared: dict[str, set[str]]) -> None:
    """Refuse output whose relnames would read back in other roles (names used both ways)."""
    if all(len(kinds) == 1 for kinds in declared.values()):
        return
    children: dict[int, list[str]] = {}
    for parent, relname in links.values():
        children.setdefault(parent, []).append(relname)
    for relnames in children.values():
        if SPAN in relnames:
            continue  # a span group: every other child reads as a satellite
        if any(role != MULTI_ROLE for role in child_roles(False, relnames, declared)):
            both = sorted(name for name in set(relnames) if len(declared.get(name, ())) == 2)
            raise TreeStructureError(f"it would not read back unambiguously: relation(s) {', '.join(both)} are used "
                                     "both as satellite and as multinuclear relations, and a multinuclear node "
                                     "mixes them with other relations", tree.source)


# -- registration -------------------------------------------------------------------------
_RSTWEB = re.compile(r"\A(?:\ufeff)?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<rst[\s>]", re.DOTALL)
_RS4_ONLY = re.compile(r"<(sigtypes|signals|secedges)[\s>/]")


def _sniff_rs3(text: str) -> bool:
    return bool(_RSTWEB.match(text)) and not _RS4_ONLY.search(text)


def _sniff_rs4(text: str) -> bool:
    return bool(_RSTWEB.match(text)) and bool(_RS4_ONLY.search(text))


register(Format("rs3", "rstWeb XML (.rs3, and GUM's .rs4): segments, span/multinuc groups, parent links",
                read_rs3, dumps_rs3, (".rs3", ".rs4"), _sniff_rs3))
register(Format("rs4", "GUM rstWeb XML with secondary edges and signals (read as rs3, kept in tree.erst)",
                read_rs3, dumps_rs3, (".rs4",), _sniff_rs4))
