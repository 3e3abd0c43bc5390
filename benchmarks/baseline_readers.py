"""The rs3/rs4 and .rsd readers as they were before the fast readers, kept only as a speed baseline.

benchmarks/bench_formats.py and benchmarks/read_gum.py time them beside the package's readers on
GUM. Nothing else uses them: the readers' correctness is tested against the format specification
(tests/formats/test_readers_spec.py, and the independent oracle of tests/support/reader_oracle.py).
Kept verbatim (reading code only), so that the speed-up is measured against the code it replaced.
"""
# ruff: noqa: RUF007 (verbatim)
from __future__ import annotations

import bisect
import re
import warnings
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import networkx as nx

from rstkit.dependency import VIRTUAL_ROOT, from_dependencies
from rstkit.errors import FormatError, RSTKitWarning, TreeStructureError
from rstkit.formats import doc_id_from_path
from rstkit.tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree, internal, leaf, validate

RST = "rst"
MULTINUC = "multinuc"
_RELATION_TYPES = (RST, MULTINUC)


# == rs3 / rs4 ================================================================================
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



# == rsd =======================================================================================
N_COLUMNS = 10
ROOT_LABEL = "ROOT"
_SUFFIX = {"r": SATELLITE, "m": NUCLEUS}
_BLOCK_STARTS = ("para", "item")
_BLOCK_FLAGS = ("heading", "caption")
KEPT_COLUMNS = "rsd_columns"


def loads_rsd(text: str, path: str | Path | None = None, doc_id: str | None = None,
              lenient: bool = False, heights: bool = True) -> RSTTree:
    """Parse the text of one ``.rsd`` file into an RSTTree (``lenient`` is accepted for
    the common reader signature; nothing in this format is repaired)."""
    source = str(path) if path is not None else "<string>"
    rows = _rows(text, source)
    if not rows:
        raise FormatError("no EDU lines", source)
    n = len(rows)
    graph = nx.DiGraph()
    graph.add_node(VIRTUAL_ROOT)
    height_given = [row[2] != "_" for _, row in rows]
    if any(height_given) and not all(height_given):
        missing = next(line for (line, _), given in zip(rows, height_given) if not given)
        raise FormatError("attachment height (column 3) is '_' here but given on other lines", source, missing)
    use_heights = heights and all(height_given)
    graph.add_nodes_from((edu, {"line": line}) for edu, (line, _) in enumerate(rows, 1))
    for edu, (line, row) in enumerate(rows, 1):
        head, label = _int(row[6], "head (column 7)", source, line), row[7]
        if not 0 <= head <= n:
            raise FormatError(f"head {head} is not an EDU of this file (1..{n}) nor 0", source, line)
        if (head == 0) != (label == ROOT_LABEL):
            raise FormatError(f"head {head} with relation {label!r}: the root has head 0 and relation ROOT, "
                              "and only the root", source, line)
        height = _int(row[2], "attachment height (column 3)", source, line) if use_heights else None
        if head == 0:
            graph.add_edge(VIRTUAL_ROOT, edu, relation=None, nuclearity=None, height=0)
            continue
        relation, _, suffix = label.rpartition("_")
        if suffix not in _SUFFIX or not relation:
            raise FormatError(f"relation {label!r} does not end in _r (satellite) or _m (multinuclear)",
                              source, line)
        graph.add_edge(head, edu, relation=relation, nuclearity=_SUFFIX[suffix], height=height)
    features = [_features(row[5]) for _, row in rows]
    sentences, paragraphs = _sentences(features, rows, source), _paragraphs(features)
    edus = tuple(EDU(i, row[1].strip(), sentences[i - 1], paragraphs[i - 1]) for i, (_, row) in enumerate(rows, 1))
    if doc_id is None:
        doc_id = doc_id_from_path(path) if path is not None else ""
    tree = from_dependencies(graph, edus, doc_id=doc_id, source=source)
    columns = tuple((row[3], row[4], row[5], row[8], row[9]) for _, row in rows)
    return replace(tree, extra={KEPT_COLUMNS: columns})


def _rows(text: str, source: str) -> list[tuple[int, list[str]]]:
    rows = []
    for number, raw in enumerate(text.split("\n"), 1):
        raw = raw.rstrip("\r")
        if not raw.strip() or raw.startswith("#"):
            continue
        row = raw.split("\t")
        if len(row) != N_COLUMNS:
            raise FormatError(f"expected {N_COLUMNS} tab-separated columns, found {len(row)}", source, number)
        expected = len(rows) + 1
        if row[0].strip() != str(expected):
            raise FormatError(f"EDU id {row[0]!r} where {expected} was expected (ids are 1..n in order)",
                              source, number)
        rows.append((number, row))
    return rows


def _int(value: str, what: str, source: str, line: int) -> int:
    try:
        return int(value)
    except ValueError:
        raise FormatError(f"{what} is {value!r}, not a number", source, line) from None


def _features(column: str) -> dict[str, str]:
    """``key=value|...`` (GUM has some malformed items without ``=``: ignored)."""
    pairs = (item.split("=", 1) for item in column.split("|") if "=" in item)
    return {key: value for key, value in pairs}


def _sentences(features: list[dict[str, str]], rows: list[tuple[int, list[str]]], source: str) -> list[int | None]:
    sentences = []
    for feats, (line, _) in zip(features, rows):
        sid = feats.get("sid")
        sentences.append(None if sid is None else _int(sid, "sentence id (sid)", source, line))
    return sentences


def _paragraphs(features: list[dict[str, str]]) -> list[int | None]:
    if not any(key in feats for feats in features for key in _BLOCK_STARTS + _BLOCK_FLAGS):
        return [None] * len(features)
    paragraphs, paragraph, previous_flags = [], 1, None
    for i, feats in enumerate(features):
        flags = tuple(key in feats for key in _BLOCK_FLAGS)
        starts = any(key in feats for key in _BLOCK_STARTS) or flags != previous_flags
        if i > 0 and starts:
            paragraph += 1
        paragraphs.append(paragraph)
        previous_flags = flags
    return paragraphs


