"""rstWeb XML, ``.rs3`` and GUM's ``.rs4`` (parser-formats.md B2): reader and writer.

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
GUM's dis export flattens the two nodes into one ``S N...N`` node (see tests/test_gum_forms.py).

rs4 secondary edges, signals and signal types are not part of the tree; they are kept in
``tree.extra`` (``secedges``, ``signals``, ``sigtypes``), each edge and signal with the
EDU spans (``source_span``, ``target_span``) of the nodes it names. rs3 carries no
sentence or paragraph information.

Groups' ``type`` attributes are not trusted (some producers get them wrong): roles are
decided from the children's relnames. A name declared with both types is a satellite
of a segment or of a group that has a ``span`` child, a nucleus when at least two
children of a group share it, and otherwise a nucleus unless the group already has two
nuclei. Names missing from the header are errors, or (``lenient=True``) get the same
treatment with a warning.
"""
from __future__ import annotations

import bisect
import re
import warnings
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ..errors import FormatError, RSTKitWarning, TreeStructureError
from ..tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree, internal, leaf, validate
from . import Format, doc_id_from_path, read_text, register

RST = "rst"
MULTINUC = "multinuc"
_RELATION_TYPES = (RST, MULTINUC)


# -- reading ------------------------------------------------------------------------------
@dataclass
class _Element:
    """A segment or group of the body, with its children (in file order)."""

    id: str
    is_segment: bool
    parent: str | None
    relname: str | None
    line: int | None
    text: str = ""
    children: list[_Element] = field(default_factory=list)


def loads_rs3(text: str, path: str | Path | None = None, doc_id: str | None = None,
              lenient: bool = False) -> RSTTree:
    """Parse the text of one rs3/rs4 file into an RSTTree."""
    source = str(path) if path is not None else "<string>"
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else None
        message = str(exc).split(": line ")[0]
        column = f" at column {exc.position[1] + 1}" if exc.position else ""
        raise FormatError(f"malformed XML: {message}{column}", source, line) from None
    if root.tag != "rst":
        raise FormatError(f"root element is <{root.tag}>, expected <rst>", source, 1)
    body = root.find("body")
    if body is None:
        raise FormatError("no <body> element", source, 1)
    lines = _ElementLines(text)
    types = _declared_types(root, source)
    elements = _body_elements(body, lines, source)
    top = _link(elements, source)
    reader = _TreeReader(elements, types, source, lenient)
    tree_root = reader.constituent_of_all(top)
    if doc_id is None:
        doc_id = doc_id_from_path(path) if path is not None else ""
    edus = tuple(EDU(i, e.text) for i, e in enumerate(reader.segments, 1))
    extra = _rs4_extra(root, body, reader.spans)
    tree = RSTTree(tree_root, edus, doc_id, source, extra)
    validate(tree)
    return tree


def read_rs3(path: str | Path, lenient: bool = False) -> list[RSTTree]:
    """Read one rs3/rs4 file (a list of one tree, as every format reader returns)."""
    return [loads_rs3(read_text(path), path, lenient=lenient)]


class _ElementLines:
    """Line numbers of segments and groups (ElementTree does not record them)."""

    _TAG = re.compile(r"<(segment|group)\b[^>]*?\bid\s*=\s*([\"'])(.*?)\2", re.DOTALL)

    def __init__(self, text: str):
        newlines = [m.start() for m in re.finditer("\n", text)]
        self._lines: dict[str, list[int]] = {}
        for match in self._TAG.finditer(text):
            line = bisect.bisect_left(newlines, match.start()) + 1
            self._lines.setdefault(match.group(3), []).append(line)

    def take(self, node_id: str) -> int | None:
        """The line of the next element (in file order) with this id."""
        lines = self._lines.get(node_id)
        return lines.pop(0) if lines else None


def _declared_types(root: ET.Element, source: str) -> dict[str, set[str]]:
    """Relation name -> declared types (``rst``, ``multinuc``; a name may have both)."""
    types: dict[str, set[str]] = {}
    for rel in root.iterfind("header/relations/rel"):
        name, kind = rel.get("name"), rel.get("type")
        if not name or kind not in _RELATION_TYPES:
            raise FormatError(f"<rel name={name!r} type={kind!r}>: needs a name and type 'rst' or 'multinuc'",
                              source)
        types.setdefault(name, set()).add(kind)
    return types


def _body_elements(body: ET.Element, lines: _ElementLines, source: str) -> dict[str, _Element]:
    elements: dict[str, _Element] = {}
    for node in body:
        if node.tag not in ("segment", "group"):
            continue
        node_id = node.get("id")
        if not node_id:
            raise FormatError(f"<{node.tag}> without an id", source)
        line = lines.take(node_id)
        if node_id in elements:
            raise FormatError(f"id {node_id!r} is used twice", source, line)
        parent, relname = node.get("parent"), node.get("relname")
        if parent is not None and not relname:
            raise FormatError(f"{node.tag} {node_id} has a parent but no relname", source, line)
        is_segment = node.tag == "segment"
        text = (node.text or "").strip() if is_segment else ""
        elements[node_id] = _Element(node_id, is_segment, parent, relname, line, text)
    if not any(e.is_segment for e in elements.values()):
        raise FormatError("no <segment> in <body>", source)
    return elements


def _link(elements: dict[str, _Element], source: str) -> _Element:
    """Attach children to parents; reject dangling parents, cycles and forests; return the top."""
    tops = []
    for element in elements.values():
        if element.parent is None:
            tops.append(element)
            continue
        parent = elements.get(element.parent)
        if parent is None:
            raise FormatError(f"node {element.id} points to parent {element.parent!r}, which does not exist",
                              source, element.line)
        parent.children.append(element)
    _reject_cycles(elements, source)
    if len(tops) != 1:
        ids = ", ".join(e.id for e in tops[:10])
        raise TreeStructureError(f"expected one top node (without parent), found {len(tops)}: {ids}", source,
                                 tops[1].line if tops else None)
    return tops[0]


def _reject_cycles(elements: dict[str, _Element], source: str) -> None:
    done: set[str] = set()
    for start in elements.values():
        path: list[str] = []
        on_path: set[str] = set()
        node: _Element | None = start
        while node is not None and node.id not in done:
            if node.id in on_path:
                cycle = path[path.index(node.id):] + [node.id]
                raise TreeStructureError(f"parent links form a cycle: {' -> '.join(cycle)}", source,
                                         elements[cycle[0]].line)
            path.append(node.id)
            on_path.add(node.id)
            node = elements.get(node.parent) if node.parent is not None else None
        done.update(path)


SPAN_ROLE, MULTI_ROLE, SAT_ROLE = "span", "multinuc", "satellite"


def child_roles(parent_is_segment: bool, relnames: list[str], types: dict[str, set[str]]) -> list[str]:
    """The role of each child of one node, from the children's relnames.

    ``types`` maps names to their declared types; names declared with both types, or not
    declared at all, are decided as the module docstring says. Shared by reader and
    writer, so that the writer can refuse what would read back differently.
    """
    has_span = SPAN in relnames
    counts = Counter(relnames)
    roles: list[str | None] = []
    for name in relnames:
        declared = types.get(name, set())
        if name == SPAN:
            roles.append(SPAN_ROLE)
        elif declared == {RST} or parent_is_segment or has_span:
            roles.append(SAT_ROLE)
        elif declared == {MULTINUC} or counts[name] >= 2:
            roles.append(MULTI_ROLE)
        else:
            roles.append(None)  # decided below
    nuclei = roles.count(MULTI_ROLE)
    return [role or (SAT_ROLE if nuclei >= 2 else MULTI_ROLE) for role in roles]


class _TreeReader:
    """Builds constituents bottom-up (no recursion: rs3 chains can be deep)."""

    def __init__(self, elements: dict[str, _Element], types: dict[str, set[str]], source: str, lenient: bool):
        self.elements = elements
        self.types = types
        self.source = source
        self.lenient = lenient
        self.segments = [e for e in elements.values() if e.is_segment]
        self.index = {e.id: i for i, e in enumerate(self.segments, 1)}
        self.spans: dict[str, tuple[int, int]] = {}

    def constituent_of_all(self, top: _Element) -> Node:
        order = [top]
        for element in order:  # breadth-first; grows while iterating
            order.extend(element.children)
        built: dict[str, Node] = {}
        for element in reversed(order):
            built[element.id] = self._constituent(element, built)
            self.spans[element.id] = built[element.id].span
        return _labelled(built[top.id], ROOT, None)

    def _constituent(self, element: _Element, built: dict[str, Node]) -> Node:
        kids = element.children
        roles = child_roles(element.is_segment, [k.relname for k in kids], self._types_for(kids))
        spans = [k for k, r in zip(kids, roles) if r == SPAN_ROLE]
        nuclei = [k for k, r in zip(kids, roles) if r == MULTI_ROLE]
        satellites = [k for k, r in zip(kids, roles) if r == SAT_ROLE]
        what = f"{'segment' if element.is_segment else 'group'} {element.id}"
        if element.is_segment:
            if spans or nuclei:
                raise TreeStructureError(f"{what} has nucleus children ({(spans + nuclei)[0].id}); "
                                         "only groups can", self.source, element.line)
            core = leaf(self.index[element.id], NUCLEUS, SPAN, element.line)
        elif spans and nuclei:
            raise TreeStructureError(f"{what} has both a span child ({spans[0].id}) and multinuclear children "
                                     f"({nuclei[0].id})", self.source, element.line)
        elif len(spans) > 1:
            raise TreeStructureError(f"{what} has {len(spans)} span children "
                                     f"({', '.join(k.id for k in spans)})", self.source, element.line)
        elif spans:
            core = built[spans[0].id]
        elif len(nuclei) == 1:
            raise TreeStructureError(f"{what} is multinuclear with a single nucleus ({nuclei[0].id})",
                                     self.source, element.line)
        elif nuclei:
            core = self._node([(built[k.id], NUCLEUS, k.relname) for k in nuclei], element)
        else:
            raise TreeStructureError(f"{what} has no nucleus (no child with relname 'span' or a multinuclear "
                                     "relation)", self.source, element.line)
        if not satellites:
            return core
        members = [(core, NUCLEUS, SPAN)] + [(built[k.id], SATELLITE, k.relname) for k in satellites]
        return self._node(members, element)

    def _types_for(self, kids: list[_Element]) -> dict[str, set[str]]:
        for kid in kids:
            if kid.relname != SPAN and kid.relname not in self.types:
                message = f"relname {kid.relname!r} is not declared in <header><relations>"
                if not self.lenient:
                    raise FormatError(message, self.source, kid.line)
                warnings.warn(f"{self.source}:{kid.line}: {message}; its type is guessed from the structure "
                              "(lenient)", RSTKitWarning, stacklevel=4)
                self.types[kid.relname] = set(_RELATION_TYPES)
        return self.types

    def _node(self, members: list[tuple[Node, str, str]], element: _Element) -> Node:
        """An internal node over ``members`` (node, nuclearity, relation), in textual order."""
        children = sorted((_labelled(n, nuc, rel) for n, nuc, rel in members), key=lambda n: n.start)
        for left, right in zip(children, children[1:]):
            if right.start != left.end + 1:
                raise TreeStructureError(
                    f"non-projective structure: the children of node {element.id} cover EDUs "
                    f"{left.start}-{left.end} and {right.start}-{right.end}, not a contiguous span",
                    self.source, element.line)
        return internal(NUCLEUS, SPAN, children, element.line)


def _labelled(node: Node, nuclearity: str, relation: str | None) -> Node:
    return Node(node.start, node.end, nuclearity, relation, node.children, node.line)


def _rs4_extra(root: ET.Element, body: ET.Element, spans: dict[str, tuple[int, int]]) -> dict[str, Any]:
    """Secondary edges, signals and signal types of an rs4 file (empty for plain rs3)."""
    extra: dict[str, Any] = {}
    secedges = [dict(e.attrib) for e in body.iterfind("secedges/secedge")]
    for edge in secedges:
        edge["source_span"] = spans.get(edge.get("source", ""))
        edge["target_span"] = spans.get(edge.get("target", ""))
    signals = [dict(s.attrib) for s in body.iterfind("signals/signal")]
    for signal in signals:
        signal["source_span"] = spans.get(signal.get("source", ""))
    sigtypes = {s.get("type", ""): s.get("subtypes", "").split(";") for s in root.iterfind("header/sigtypes/sig")}
    for key, value in (("secedges", secedges), ("signals", signals), ("sigtypes", sigtypes)):
        if value:
            extra[key] = value
    return extra


# -- writing ------------------------------------------------------------------------------
def rs3_normal_form(tree: RSTTree) -> RSTTree:
    """The tree as rs3 can express it (what writing then reading gives back).

    A node mixing satellites with several nuclei becomes a span node whose nucleus is a
    new multinuclear node over those nuclei; the nucleus of a mononuclear node is
    labelled ``span``; sentence and paragraph indices are dropped (rs3 has none).
    """

    def normal(node: Node) -> Node:
        if node.is_leaf:
            return node
        children = [normal(c) for c in node.children]
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
    return replace(tree, root=normal(tree.root), edus=edus)


def dumps_rs3(tree: RSTTree) -> str:
    """Write a tree as rstWeb XML (tab-indented, like GUM's files).

    Segments come first (ids 1..n), then groups (ids n+1.. in pre-order; the top group
    first). Satellites point to their span group. ``tree.extra`` is not written.
    """
    tree = rs3_normal_form(tree)
    n = tree.n_edus
    declared: dict[str, set[str]] = {}
    links: dict[int, tuple[int, str]] = {}  # element id -> (parent id, relname)
    groups: list[tuple[int, str]] = []  # (id, type)

    def element_id(node: Node) -> int:
        if node.is_leaf:
            return node.start
        gid = n + len(groups) + 1
        groups.append((gid, MULTINUC if node.is_multinuclear else SPAN))
        for child in node.children:
            cid = element_id(child)
            if node.is_multinuclear:
                _check_writable(child.relation, "a multinuclear nucleus", child, tree)
                declared.setdefault(child.relation, set()).add(MULTINUC)
                links[cid] = (gid, child.relation)
            elif child.nuclearity == NUCLEUS:
                links[cid] = (gid, SPAN)
            else:
                _check_writable(child.relation, "a satellite", child, tree)
                declared.setdefault(child.relation, set()).add(RST)
                links[cid] = (gid, child.relation)
        return gid

    element_id(tree.root)
    _check_unambiguous(tree, links, declared)
    out = ["<rst>", "\t<header>", "\t\t<relations>"]
    for name in sorted(declared):
        out.extend(f"\t\t\t<rel name={quoteattr(name)} type=\"{kind}\"/>" for kind in sorted(declared[name]))
    out += ["\t\t</relations>", "\t</header>", "\t<body>"]

    def attrs(eid: int) -> str:
        if eid not in links:
            return ""
        parent, relname = links[eid]
        return f" parent=\"{parent}\" relname={quoteattr(relname)}"

    for edu in tree.edus:
        bad = _NOT_XML.search(edu.text)
        if bad:
            raise FormatError(f"cannot write as rs3: EDU {edu.index} contains U+{ord(bad.group()):04X}, which XML "
                              "cannot hold", tree.source)
        out.append(f"\t\t<segment id=\"{edu.index}\"{attrs(edu.index)}>{escape(edu.text)}</segment>")
    for gid, kind in groups:
        out.append(f"\t\t<group id=\"{gid}\" type=\"{kind}\"{attrs(gid)}/>")
    out += ["\t</body>", "</rst>"]
    return "\n".join(out) + "\n"


_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _check_writable(relation: str | None, role: str, node: Node, tree: RSTTree) -> None:
    if not relation or relation == SPAN:
        raise TreeStructureError(f"cannot write as rs3: {role} ({node.start}-{node.end}) is labelled "
                                 f"{relation!r}, which rs3 reserves for nuclei of span groups",
                                 tree.source, node.line)


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
            raise TreeStructureError(f"cannot write as rs3 unambiguously: relation(s) {', '.join(both)} are used "
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
register(Format("rs4", "GUM rstWeb XML with secondary edges and signals (read as rs3, kept in tree.extra)",
                read_rs3, dumps_rs3, (".rs4",), _sniff_rs4))
