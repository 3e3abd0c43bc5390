"""Independent readers of rstWeb XML (.rs3/.rs4) and RST dependencies (.rsd), written from
../shared/docs/parser-formats.md (B2, B4) and the rules the reader modules document, for
tests/formats/test_readers_equivalence.py. Nothing of rstkit is imported: XML goes through
``xml.parsers.expat`` (which gives each element's place), trees are plain tuples.

A reading is the tree as a list of nodes in pre-order, ``(start, end, nuclearity, relation, line)``
(nuclearity ``N``, ``S`` or ``Root``; EDUs 1..n), the EDUs ``(index, text, sentence, paragraph)``
and what the file keeps outside the tree. ``line`` is the line of the element a constituent comes
from (rs3: the segment or group; a span group's constituent is its ``span`` child's) or of the
head EDU's row (.rsd: every constituent an EDU projects).

A file that breaks a rule raises :class:`Rejected` with every ``(error kind, line)`` a reader may
name for it: the problems of the first check that fails, in the order a file is read (XML, header,
elements, parent links, structure; .rsd: rows, heights, arcs, sentence ids, structure), all
problems of that check, since which one a reader meets first is its own business. Kinds:
``FormatError`` for a field that is malformed, missing or names nothing, ``TreeStructureError``
for fields that do not make one projective tree.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from xml.parsers import expat

FORMAT, STRUCTURE = "FormatError", "TreeStructureError"


class Rejected(Exception):
    """The file breaks a rule; ``problems``: the (kind, line) pairs a reader may report."""

    def __init__(self, problems: set[tuple[str, int | None]]):
        super().__init__(problems)
        self.problems = problems


@dataclass
class Reading:
    nodes: list[tuple[int, int, str, str | None, int | None]]
    edus: list[tuple[int, str, int | None, int | None]]
    extra: dict = field(default_factory=dict)
    undeclared: dict[str, set[int]] = field(default_factory=dict)  # relnames guessed (lenient rs3): their lines


def _check(problems: set[tuple[str, int | None]]) -> None:
    if problems:
        raise Rejected(problems)


def _interval(cover: set[int]) -> bool:
    return max(cover) - min(cover) + 1 == len(cover)


def _preorder(top: tuple, label: tuple[str, str | None]) -> list[tuple]:
    """Nodes ``(start, end, children, line)`` as pre-order tuples; children are (node, nuc, rel)."""
    out, stack = [], [(top, *label)]
    while stack:
        (start, end, kids, line), nuc, rel = stack.pop()
        out.append((start, end, nuc, rel, line))
        stack.extend(reversed(kids))
    return out


def _node(members: list[tuple], line: int | None) -> tuple:
    """A node over labelled members ``(node, nuc, rel)``, in textual order."""
    members = sorted(members, key=lambda m: m[0][0])
    return (members[0][0][0], members[-1][0][1], tuple(members), line)


# -- rs3 / rs4 (B2) ------------------------------------------------------------------------------
def _parse_xml(text: str) -> tuple:
    """The root tag; header rels and sigs; the first body's segments and groups (tag, attributes,
    line, text content), secondary edges and signals."""
    parser = expat.ParserCreate()
    # an element's line counts the "\n" before its tag (as every line of every format); expat's own line
    # numbers, taken as they are for malformed XML, also count a lone "\r" as XML does
    newlines = [m.start() for m in re.finditer(b"\n", text.encode("utf-8", "surrogatepass"))]
    path: list[str] = []
    rels, sigs, items, secedges, signals = [], [], [], [], []
    bodies = 0
    root_tag = None

    def start(tag, attrs):
        nonlocal bodies, root_tag
        if not path:
            root_tag = tag
        where = "/".join(path[1:] + [tag])
        in_body = len(path) >= 2 and path[1] == "body" and bodies == 1
        if where == "body" and len(path) == 1:
            bodies += 1
        elif where == "header/relations/rel":
            rels.append((attrs.get("name"), attrs.get("type")))
        elif where == "header/sigtypes/sig":
            sigs.append((attrs.get("type", ""), attrs.get("subtypes", "")))
        elif in_body and len(path) == 2 and tag in ("segment", "group"):
            items.append([tag, attrs, bisect_left(newlines, parser.CurrentByteIndex) + 1, []])
        elif in_body and where == "body/secedges/secedge":
            secedges.append((dict(attrs), bisect_left(newlines, parser.CurrentByteIndex) + 1))
        elif in_body and where == "body/signals/signal":
            signals.append((dict(attrs), bisect_left(newlines, parser.CurrentByteIndex) + 1))
        path.append(tag)

    def end(tag):
        path.pop()

    def data(chars):
        if len(path) >= 3 and path[1] == "body" and bodies == 1 and items and path[2] == "segment" \
                and items[-1][0] == "segment":
            items[-1][3].append(chars)

    parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = start, end, data
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise Rejected({(FORMAT, exc.lineno)}) from None
    except UnicodeEncodeError as exc:  # a lone surrogate
        raise Rejected({(FORMAT, text.count("\n", 0, exc.start) + 1)}) from None
    return root_tag, bodies, rels, sigs, items, secedges, signals


def read_rs3(text: str, lenient: bool = False) -> Reading:
    root_tag, bodies, rels, sigs, items, secedges, signals = _parse_xml(text)
    _check({(FORMAT, 1)} if root_tag != "rst" or not bodies else set())
    types: dict[str, set[str]] = {}
    for name, kind in rels:
        _check({(FORMAT, None)} if not name or kind not in ("rst", "multinuc") else set())
        types.setdefault(name, set()).add(kind)
    # elements: ids present and unique, a relname wherever a parent is named, some segment
    ids = [attrs.get("id") for _, attrs, _, _ in items]
    problems = {(FORMAT, None) for i in ids if not i}
    seen: set[str] = set()
    for i, (_, _, line, _) in zip(ids, items):
        if i and (i in seen or seen.add(i)):
            problems.add((FORMAT, line))
    problems |= {(FORMAT, line) for _, attrs, line, _ in items if "parent" in attrs and not attrs.get("relname")}
    _check(problems or ({(FORMAT, None)} if all(tag != "segment" for tag, *_ in items) else set()))
    line = {attrs["id"]: ln for _, attrs, ln, _ in items}
    parent = {attrs["id"]: attrs.get("parent") for _, attrs, _, _ in items}
    relname = {attrs["id"]: attrs.get("relname") for _, attrs, _, _ in items}
    segment = {attrs["id"]: tag == "segment" for tag, attrs, _, _ in items}
    # parent links: names that exist, no cycle, one top
    _check({(FORMAT, line[i]) for i, p in parent.items() if p is not None and p not in parent})
    on_cycle, done = set(), set()
    for i in list(parent):
        walked: list[str] = []
        while i is not None and i not in done:
            done.add(i)
            walked.append(i)
            i = parent[i]
        if i in walked:  # came back to this walk, not to an earlier one
            on_cycle.update(walked[walked.index(i):])
    _check({(STRUCTURE, line[i]) for i in on_cycle})
    tops = [i for i, p in parent.items() if p is None]
    _check({(STRUCTURE, line[i]) for i in tops[1:]})
    children: dict[str, list[str]] = {i: [] for i in parent}
    for i, p in parent.items():
        if p is not None:
            children[p].append(i)
    order = tops[:]
    for i in order:
        order.extend(children[i])
    index = {i: k for k, i in enumerate((i for i in parent if segment[i]), 1)}
    # structure: roles from relnames (module docstring of rstkit/formats/rs3.py), one nucleus kind,
    # contiguous spans; unknown names are errors, or (lenient) declared with both types
    undeclared: dict[str, set[int]] = {}
    for j, p in parent.items():
        if p is not None and relname[j] != "span" and relname[j] not in types:
            undeclared.setdefault(relname[j], set()).add(line[j])
    problems = set() if lenient else {(FORMAT, ln) for lines in undeclared.values() for ln in lines}
    for name in undeclared:
        types[name] = {"rst", "multinuc"}
    cover: dict[str, set[int]] = {}
    roles: dict[str, list[str]] = {}
    for i in reversed(order):
        kids = children[i]
        cover[i] = {index[i]} if segment[i] else set()
        for j in kids:
            cover[i] |= cover[j]
        roles[i] = role = _roles(segment[i], [relname[j] for j in kids], types)
        spans, nuclei = role.count("span"), role.count("multinuc")
        if (segment[i] and spans) or (not segment[i] and (spans > 1 or nuclei == 1 or not spans + nuclei)):
            problems.add((STRUCTURE, line[i]))
        if nuclei and not _interval(set().union(*(cover[j] for j, r in zip(kids, role) if r == "multinuc"))):
            problems.add((STRUCTURE, line[i]))
        if "satellite" in role and not _interval(cover[i]):
            problems.add((STRUCTURE, line[i]))
    _check(problems)
    built: dict[str, tuple] = {}
    for i in reversed(order):
        kids, role = children[i], roles[i]
        if segment[i]:
            core = (index[i], index[i], (), line[i])
        elif "span" in role:
            core = built[kids[role.index("span")]]
        else:
            core = _node([(built[j], "N", relname[j]) for j, r in zip(kids, role) if r == "multinuc"], line[i])
        satellites = [(built[j], "S", relname[j]) for j, r in zip(kids, role) if r == "satellite"]
        built[i] = _node([(core, "N", "span"), *satellites], line[i]) if satellites else core
    texts = ["".join(chars).strip() for tag, _, _, chars in items if tag == "segment"]
    extra = _erst({i: node[:2] for i, node in built.items()}, secedges, signals, sigs,
                  sum(len(text.split()) for text in texts))
    return Reading(_preorder(built[tops[0]], ("Root", None)), [(k, t, None, None) for k, t in enumerate(texts, 1)],
                   extra, undeclared)


def _erst(spans: dict[str, tuple[int, int]], secedges: list, signals: list, sigs: list, n_tokens: int) -> dict:
    """The eRST layer as plain tuples: ``edges`` (source extent, target extent, relname), ``signals``
    (the extent of the source node, or ``("edge", *edge)``; type, subtype, tokens as numbers, status)
    and ``sigtypes`` (type, subtypes split at ``;``), each in file order (empty when the file has none of
    them). A node or edge id that names nothing, an edge id used twice, or tokens that are not numbers
    from 1 separated by commas or are past the last of the document (its EDU texts split at whitespace,
    ``n_tokens``) are FormatErrors at the element's line."""
    problems: set[tuple[str, int | None]] = set()
    edges, by_id = [], {}
    for attrs, line in secedges:
        ends = (spans.get(attrs.get("source")), spans.get(attrs.get("target")))
        if None in ends or attrs.get("id") in by_id:
            problems.add((FORMAT, line))
            continue
        by_id[attrs.get("id")] = (*ends, attrs.get("relname") or "")
        edges.append(by_id[attrs.get("id")])
    kept = []
    for attrs, line in signals:
        name, tokens = attrs.get("source"), attrs.get("tokens") or ""
        on = spans[name] if name in spans else ("edge", *by_id[name]) if name in by_id else None
        numbers = tokens.split(",") if tokens else []
        if on is None or not all(n.isascii() and n.isdigit() and n[0] != "0" and int(n) <= n_tokens
                                 for n in numbers):
            problems.add((FORMAT, line))
            continue
        kept.append((on, attrs.get("type") or "", attrs.get("subtype") or "", tuple(int(n) for n in numbers),
                     attrs.get("status")))
    _check(problems)
    if not (edges or kept or sigs):
        return {}
    sigtypes = [(kind, tuple(subtypes.split(";"))) for kind, subtypes in sigs]
    return {"edges": edges, "signals": kept, "sigtypes": sigtypes}


def _roles(of_segment: bool, names: list[str], types: dict[str, set[str]]) -> list[str]:
    """``span``, ``multinuc`` or ``satellite`` for each child of one node, in order."""
    if of_segment or "span" in names:
        return ["span" if name == "span" else "satellite" for name in names]
    decided = ["satellite" if types[name] == {"rst"} else "multinuc" if types[name] == {"multinuc"}
               or names.count(name) >= 2 else None for name in names]
    nuclei = decided.count("multinuc")
    return [role or ("satellite" if nuclei >= 2 else "multinuc") for role in decided]


# -- rsd (B4) ------------------------------------------------------------------------------------
def read_rsd(text: str, heights: bool = True) -> Reading:
    rows = []
    for number, raw in enumerate(text.split("\n"), 1):
        raw = raw.rstrip("\r")
        if not raw.strip() or raw.startswith("#"):
            continue
        cells = raw.split("\t")
        _check({(FORMAT, number)} if len(cells) != 10 or cells[0].strip() != str(len(rows) + 1) else set())
        rows.append((number, cells))
    _check(set() if rows else {(FORMAT, None)})
    n = len(rows)
    given = [cells[2] != "_" for _, cells in rows]
    _check({(FORMAT, next(ln for (ln, _), g in zip(rows, given) if not g))} if any(given) and not all(given)
           else set())
    use_heights = heights and all(given)
    head, label, height = [0] * (n + 1), [""] * (n + 1), [0] * (n + 1)
    for edu, (ln, cells) in enumerate(rows, 1):
        try:
            head[edu] = int(cells[6])
            height[edu] = int(cells[2]) if use_heights else 0
        except ValueError:
            raise Rejected({(FORMAT, ln)}) from None
        label[edu] = cells[7]
        relation, _, suffix = cells[7].rpartition("_")
        if not 0 <= head[edu] <= n or (head[edu] == 0) != (cells[7] == "ROOT") \
                or (head[edu] and (suffix not in ("r", "m") or not relation)):
            raise Rejected({(FORMAT, ln)})
    features = [dict(item.split("=", 1) for item in cells[5].split("|") if "=" in item) for _, cells in rows]
    sentences = []
    for feats, (ln, _) in zip(features, rows):
        try:
            sentences.append(None if "sid" not in feats else int(feats["sid"]))
        except ValueError:
            raise Rejected({(FORMAT, ln)}) from None
    edus = list(zip(range(1, n + 1), [cells[1].strip() for _, cells in rows], sentences, _paragraphs(features)))
    lines = [None] + [ln for ln, _ in rows]
    roots = [edu for edu in range(1, n + 1) if head[edu] == 0]
    _check({(STRUCTURE, lines[r]) for r in roots[1:]} | ({(STRUCTURE, None)} if not roots else set()))
    dependents: list[list[int]] = [[] for _ in range(n + 1)]
    for edu in range(1, n + 1):
        dependents[head[edu]].append(edu)
    order = list(roots)
    for h in order:
        order.extend(dependents[h])
    on_cycle = set()
    for edu in set(range(1, n + 1)) - set(order):  # every EDU has a head: those not under the root hang on cycles
        seen = []
        while edu not in seen:
            seen.append(edu)
            edu = head[edu]
        on_cycle.update(seen[seen.index(edu):])
    _check({(STRUCTURE, lines[e]) for e in on_cycle})
    nuc = ["Root"] + ["Root" if label[e] == "ROOT" else "N" if label[e].endswith("_m") else "S"
                      for e in range(1, n + 1)]
    rel = [None] + [None if label[e] == "ROOT" else label[e].rpartition("_")[0] for e in range(1, n + 1)]
    built: dict[int, tuple] = {}
    cover: dict[int, set[int]] = {}
    problems = set()
    for h in reversed(order):  # dependents first
        current, cover[h] = (h, h, (), lines[h]), {h}
        for level in _levels(h, dependents[h], nuc, rel, height if use_heights else None):
            cover[h] = cover[h].union(*(cover[d] for d in level))
            if not _interval(cover[h]):
                problems.add((STRUCTURE, lines[h]))
                continue
            nuclei = [d for d in level if nuc[d] == "N"]
            members = [(current, "N", rel[min(nuclei)] if nuclei else "span")]
            current = _node(members + [(built[d], nuc[d], rel[d]) for d in level], lines[h])
        built[h] = current
    _check(problems)
    columns = tuple((c[3], c[4], c[5], c[8], c[9]) for _, c in rows)
    return Reading(_preorder(built[roots[0]], ("Root", None)), edus, {"rsd_columns": columns})


def _levels(h: int, dependents: list[int], nuc: list[str], rel: list, height: list[int] | None) -> list[list[int]]:
    """Dependents of ``h`` by attachment level, innermost first: by height, or (no heights) one at a
    time, right side nearest first, then left side nearest first, consecutive multinuclear
    dependents with one relation sharing a level."""
    if height is not None:
        return [[d for d in dependents if height[d] == k] for k in sorted({height[d] for d in dependents})]
    levels: list[list[int]] = []
    for d in sorted(d for d in dependents if d > h) + sorted((d for d in dependents if d < h), reverse=True):
        if levels and nuc[d] == "N" and all(nuc[p] == "N" and rel[p] == rel[d] for p in levels[-1]):
            levels[-1].append(d)
        else:
            levels.append([d])
    return levels


def _paragraphs(features: list[dict[str, str]]) -> list[int | None]:
    """A paragraph starts at each EDU marked ``para`` or ``item`` and where a heading or caption
    starts or ends (rstkit/formats/rsd.py); no marks at all: no paragraph information."""
    if not any(key in feats for feats in features for key in ("para", "item", "heading", "caption")):
        return [None] * len(features)
    out, previous = [], None
    for feats in features:
        flags = ("heading" in feats, "caption" in feats)
        starts = "para" in feats or "item" in feats or flags != previous
        out.append(1 if not out else out[-1] + starts)
        previous = flags
    return out
