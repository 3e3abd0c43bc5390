"""RST dependencies, ``.rsd`` (Zeldes' rst2dep; GUM ``rst/dependencies``; docs/formats.md#rsd).

One EDU per line, 10 tab-separated columns: id, text, attachment height, two ``_``
columns, features (``key=value|...``), head EDU (``0`` for the root), relation with
``_r`` (satellite) or ``_m`` (multinuclear) or ``ROOT``, secondary edges, signals.

Reading rebuilds the constituency tree as :mod:`rstkit.dependency` describes: every EDU
projects a constituent, one node per distinct attachment height of its dependents. A
file whose height column is ``_`` throughout is read with the fallback attachment order
(nearest first, right before left); ``heights=False`` forces it. On GUM the tree read
from the ``.rsd`` equals the one read from the ``.rs4`` for every document.

Two paths read a file and give the same tree: a plainly laid out, well-formed file is split at once
and projected directly (:func:`_read_plain`, which declines anything else by explicit checks), and
every other file goes through the dependency graph (networkx), which explains what is wrong. The
plain path is kept for speed: GUM's 281 ``.rsd`` files read in 0.29 s of CPU with it, 1.22 s through
the graph alone (the same trees; tests/formats/test_readers_equivalence.py compares the paths).

Sentence and paragraph indices come from rst2dep's layout features: ``sid`` is the
1-based sentence number; a paragraph starts at every EDU marked ``para`` (an XML
``<p>``) or ``item`` (a list item), and where an EDU enters or leaves a heading or a
caption. Files without any such mark have no paragraph information.

Writing computes heads, relations and heights from the tree; features carry ``sid`` and
``para`` when the EDUs know them. A tree read from an ``.rsd`` keeps its original columns
4, 5, 6, 9 and 10 (``tree.extra["rsd_columns"]``) and writes them back unchanged.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import replace
from itertools import accumulate, groupby, pairwise, repeat
from operator import itemgetter
from pathlib import Path

from ..errors import FormatError, printable
from ..tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree
from . import Format, input_names, read_text, register
from ._fastnodes import new_edu, new_node
from .rebuild import bottom_up
from .writable import Unwritable, writer

N_COLUMNS = 10
ROOT_LABEL = "ROOT"
_SUFFIX = {"r": SATELLITE, "m": NUCLEUS}
_BLOCK_STARTS = ("para", "item")
_BLOCK_FLAGS = ("heading", "caption")
#: key of ``tree.extra`` holding an .rsd file's columns 4, 5, 6, 9, 10 per EDU
KEPT_COLUMNS = "rsd_columns"


def loads_rsd(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
              lenient: bool = False, heights: bool = True) -> RSTTree:
    """Parse the text of one ``.rsd`` file into an RSTTree (``lenient`` is accepted for
    the common reader signature; nothing in this format is repaired).

    A file laid out plainly (no comments or blank lines, well-formed rows, a projective tree)
    is read directly; anything else goes through the dependency graph of
    :mod:`rstkit.dependency`, which explains what is wrong. Both give the same tree.

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> loads_rsd(dumps_rsd(tree)).root == tree.root
    True
    """
    source, doc_id = input_names(path, doc_id)
    tree = _read_plain(text, source, doc_id, heights)
    return tree if tree is not None else _read_with_graph(text, source, doc_id, heights)


def read_rsd(path: str | Path, *, lenient: bool = False,
             encoding: str | None = None, heights: bool = True) -> list[RSTTree]:
    """Read one ``.rsd`` file (a list of one tree, as every format reader returns)."""
    return [loads_rsd(read_text(path, encoding=encoding, lenient=lenient), path, lenient=lenient, heights=heights)]


# -- the plain path: the file split at once, each constituent built once --------------------------
def _read_plain(text: str, source: str, doc_id: str, heights: bool) -> RSTTree | None:
    """The tree of a plainly laid out, well-formed file; None for anything else."""
    if "\r" in text:
        return None
    # One split for the whole file: each line break becomes a cell boundary followed by a cell that
    # starts with "\n". The ids "1", "\n2", ..., "\nn" every 10 cells account for all n - 1 breaks
    # (the final one aside), so every line has exactly 10 cells (no blank or comment line).
    broken = text.replace("\n", "\t\n")
    n = len(broken) - len(text) + 1  # one "\t" added per line break
    cells = broken.split("\t")
    if cells[-1] == "\n":  # the final line break
        cells.pop()
        n -= 1
    if len(cells) != N_COLUMNS * n or cells[::N_COLUMNS] != _line_ids(n):
        return None
    texts, given_heights, col4, col5, features, given_heads, labels, col9, col10 = (
        cells[column::N_COLUMNS] for column in range(1, N_COLUMNS))
    try:
        heads = [0, *_numbers(given_heads, n)]
        attachment = [0, *_numbers(given_heights, n)] if heights and "_" not in given_heights else None
    except ValueError:
        return None
    if min(heads) < 0 or max(heads) > n or heads.count(0) != 2 or \
            ("_" in given_heights and given_heights.count("_") != n):
        return None
    relation_of: dict[str, str | None] = {ROOT_LABEL: None}
    nuclearity_of = {ROOT_LABEL: ROOT}
    for label in set(labels):  # each distinct label parsed once
        relation, _, suffix = label.rpartition("_")
        if suffix in _SUFFIX and relation:
            relation_of[label], nuclearity_of[label] = relation, _SUFFIX[suffix]
        elif label != ROOT_LABEL:
            return None
    if labels[heads.index(0, 1) - 1] != ROOT_LABEL or labels.count(ROOT_LABEL) != 1:
        return None  # the root must be the one EDU with head 0 and the one labelled ROOT
    relations = [None, *map(relation_of.__getitem__, labels)]
    nuclearities = ["", *map(nuclearity_of.__getitem__, labels)]
    root = _project(heads, relations, nuclearities, attachment)
    if root is None:
        return None
    try:
        edus = _edus(texts, features, range(1, n + 1), source)  # the plain layout has EDU i on line i
    except FormatError:
        return None
    # no validate(): the projection checks contiguity and uses every EDU once, which implies it
    return RSTTree(root, edus, doc_id, source, {KEPT_COLUMNS: tuple(zip(col4, col5, features, col9, col10))})


#: the id cells of plain files as _read_plain splits them, for the longest file read so far
_LINE_IDS = ["1"]


def _line_ids(n: int) -> list[str]:
    """``["1", "\\n2", ..., "\\nn"]``."""
    global _LINE_IDS
    if len(_LINE_IDS) < n:  # a new list bound at once: safe under threads
        _LINE_IDS = ["1", *(f"\n{i}" for i in range(2, 2 * n + 1))]
    return _LINE_IDS[:n]


#: ``str(i) -> i`` for 0..2n, n the longest file read so far
_NUMBER_OF: dict[str, int] = {}


def _numbers(cells: Sequence[str], n: int) -> list[int]:
    """``list(map(int, cells))`` (a ValueError included), the usual spellings of 0..2n looked up."""
    global _NUMBER_OF
    if len(_NUMBER_OF) <= n:  # a new dict bound at once: safe under threads
        _NUMBER_OF = {str(i): i for i in range(2 * n + 1)}
    try:
        return list(map(_NUMBER_OF.__getitem__, cells))
    except KeyError:
        return list(map(int, cells))


def _project(heads: list[int], relations: list[str | None], nuclearities: list[str],
             heights: list[int] | None) -> Node | None:
    """The constituency tree of a dependency tree over EDUs 1..n (index 0 unused; EDU i on line i),
    as :func:`rstkit.dependency.from_dependencies` builds it; None where that would fail. Each EDU's
    constituent takes the nuclearity and relation the EDU has (the root's: Root and None)."""
    n = len(heads) - 1
    dependents: list[list[int]] = [[] for _ in heads]
    for edu in range(1, n + 1):
        dependents[heads[edu]].append(edu)
    order = list(dependents[0])  # the root EDU (one, checked by the caller)
    for h in order:  # breadth-first; grows while iterating
        order.extend(dependents[h])
    if len(order) != n:
        return None  # a cycle
    built = [_UNBUILT] * (n + 1)  # each EDU's constituent, once built
    for h in reversed(order):  # dependents before their heads
        levels: Sequence[int | list[int]] = dependents[h]
        if not levels:
            built[h] = new_node(h, h, nuclearities[h], relations[h], (), h)
            continue
        if len(levels) > 1:
            levels = _levels(h, dependents[h], relations, nuclearities, heights)
        start = end = h
        children: tuple[Node, ...] = ()
        for level in levels:
            if isinstance(level, int):  # most levels: one dependent
                outer = built[level]
                relation = outer.relation if outer.nuclearity == NUCLEUS else SPAN
                inner = new_node(start, end, NUCLEUS, relation, children, h)
                if level < h:
                    if outer.end + 1 != start:
                        return None  # non-projective
                    start, children = outer.start, (outer, inner)
                else:
                    if outer.start != end + 1:
                        return None
                    end, children = outer.end, (inner, outer)
                continue
            nuclei = [d for d in level if nuclearities[d] == NUCLEUS]
            inner = new_node(start, end, NUCLEUS, relations[min(nuclei)] if nuclei else SPAN, children, h)
            left, right = [built[d] for d in sorted(level) if d < h], [built[d] for d in sorted(level) if d > h]
            for member in reversed(left):
                if member.end + 1 != start:
                    return None
                start = member.start
            for member in right:
                if member.start != end + 1:
                    return None
                end = member.end
            children = (*left, inner, *right)
        built[h] = new_node(start, end, nuclearities[h], relations[h], children, h)
    return built[order[0]]


#: what _project's constituents are until built (never read: dependents are built before their heads)
_UNBUILT = Node(0, 0, NUCLEUS, None)


def _levels(h: int, dependents: list[int], relations: list[str | None], nuclearities: list[str],
            heights: list[int] | None) -> list[int | list[int]]:
    """The several dependents of ``h`` grouped by attachment level, innermost first (as
    :mod:`rstkit.dependency` groups them); a level of one dependent is that EDU."""
    if heights is not None:
        if len(dependents) == 2:  # the most common case, directly
            a, b = dependents
            return [a, b] if heights[a] < heights[b] else [b, a] if heights[b] < heights[a] else [[a, b]]
        ordered = sorted(dependents, key=heights.__getitem__)
        if len(set(map(heights.__getitem__, dependents))) == len(dependents):
            return list(ordered)
        grouped = [list(level) for _, level in groupby(ordered, heights.__getitem__)]
        return [level[0] if len(level) == 1 else level for level in grouped]
    levels: list[list[int]] = []
    for d in [d for d in dependents if d > h] + [d for d in reversed(dependents) if d < h]:
        previous = levels[-1] if levels else []
        if (nuclearities[d] == NUCLEUS and previous
                and all(nuclearities[p] == NUCLEUS and relations[p] == relations[d] for p in previous)):
            previous.append(d)
        else:
            levels.append([d])
    return [level[0] if len(level) == 1 else level for level in levels]




# -- the graph path: any file, precise errors ---------------------------------------------------
def _read_with_graph(text: str, source: str, doc_id: str, heights: bool) -> RSTTree:
    import networkx as nx  # here, not at the top: the direct path (most files) needs no graph

    from ..dependency import VIRTUAL_ROOT, from_dependencies

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
            raise FormatError(f"head {head} with relation '{printable(label)}': the root has head 0 and relation "
                              "ROOT, and only the root", source, line)
        height = _int(row[2], "attachment height (column 3)", source, line) if use_heights else None
        if head == 0:
            graph.add_edge(VIRTUAL_ROOT, edu, relation=None, nuclearity=None, height=0)
            continue
        relation, _, suffix = label.rpartition("_")
        if suffix not in _SUFFIX or not relation:
            raise FormatError(f"relation '{printable(label)}' does not end in _r (satellite) or _m (multinuclear)",
                              source, line)
        graph.add_edge(head, edu, relation=relation, nuclearity=_SUFFIX[suffix], height=height)
    edus = _edus([row[1] for _, row in rows], [row[5] for _, row in rows], [line for line, _ in rows], source)
    tree = from_dependencies(graph, edus, doc_id=doc_id, source=source)
    columns = tuple((row[3], row[4], row[5], row[8], row[9]) for _, row in rows)
    return replace(tree, extra={KEPT_COLUMNS: columns})


def _rows(text: str, source: str) -> list[tuple[int, list[str]]]:
    rows: list[tuple[int, list[str]]] = []
    for number, raw in enumerate(text.split("\n"), 1):
        raw = raw.rstrip("\r")
        if not raw.strip() or raw.startswith("#"):
            continue
        row = raw.split("\t")
        if len(row) != N_COLUMNS:
            raise FormatError(f"expected {N_COLUMNS} tab-separated columns, found {len(row)}", source, number)
        expected = len(rows) + 1
        if row[0].strip() != str(expected):
            raise FormatError(f"EDU id '{printable(row[0])}' where {expected} was expected (ids are 1..n in order)",
                              source, number)
        rows.append((number, row))
    return rows


def _int(value: str, what: str, source: str, line: int) -> int:
    try:
        return int(value)
    except ValueError:
        raise FormatError(f"{what} is '{printable(value)}', not a number", source, line) from None


# -- EDUs, sentences and paragraphs (both paths) -------------------------------------------------
def _edus(texts: Sequence[str], features: Sequence[str], lines: Sequence[int], source: str) -> tuple[EDU, ...]:
    """The EDUs, with sentence and paragraph indices from the features column."""
    return tuple(map(new_edu, range(1, len(texts) + 1), map(str.strip, texts), _sentences(features, lines, source),
                     _paragraphs(features)))


def _sentences(features: Sequence[str], lines: Sequence[int], source: str) -> Sequence[int | None]:
    """Sentence indices: the value of the (last) ``sid`` item of each features column, or None."""
    parts = list(map(str.rpartition, features, repeat("|sid=")))
    if "" not in map(itemgetter(1), parts):  # every column has "|sid=" (GUM): all at once
        with suppress(ValueError):
            return _numbers(list(map(itemgetter(0), map(str.partition, map(itemgetter(2), parts), repeat("|")))),
                            len(features))
    return [None if sid is None else _int(sid, "sentence id (sid)", source, line)
            for sid, line in zip(map(_sentence_id, features), lines)]


def _sentence_id(column: str) -> str | None:
    """The value of ``sid`` in a ``key=value|...`` column (the last one given), or None.

    Items without ``=`` are ignored (GUM has some malformed ones).
    """
    _, found, value = column.rpartition("|sid=")
    if not found:
        if not column.startswith("sid="):
            return None
        value = column[4:]
    return value.partition("|")[0]


def _paragraphs(features: Sequence[str]) -> list[int | None]:
    """Paragraph indices: a new paragraph at every start mark and where a flag turns on or off."""
    items = "|" + "\n|".join(features)  # every item of every column after a "|", one column a line
    line_ends = list(accumulate(map((2).__add__, map(len, features))))  # offsets in items of the next lines
    starts = {row for key in _BLOCK_STARTS for row in _rows_with(items, line_ends, key)}
    flagged = [set(_rows_with(items, line_ends, key)) for key in _BLOCK_FLAGS]
    if not starts and not any(flagged):
        return [None] * len(features)
    changes = starts.union(*flagged, *({row + 1 for row in rows} for rows in flagged))
    boundaries = sorted(row for row in changes
                        if 0 < row < len(features) and (row in starts or any((row in rows) != (row - 1 in rows)
                                                                             for rows in flagged)))
    paragraphs: list[int | None] = []
    for paragraph, (begin, end) in enumerate(pairwise([0, *boundaries, len(features)]), 1):
        paragraphs += [paragraph] * (end - begin)
    return paragraphs


def _rows_with(items: str, line_ends: list[int], key: str) -> list[int]:
    """The rows (0-based lines of ``items``, which end before ``line_ends``) that have an item
    ``key=...``, in order."""
    mark = f"|{key}="
    rows: list[int] = []
    position = items.find(mark)
    while position >= 0:
        rows.append(bisect_right(line_ends, position))
        position = items.find(mark, position + 1)
    return rows


#: relation labels an .rsd column cannot hold
LABEL_RULES = (Unwritable(re.compile("[\t\n]"), "which would break the .rsd line into other columns or lines"),)


@writer("rsd", (), LABEL_RULES)
def dumps_rsd(tree: RSTTree) -> str:
    """Write a tree as ``.rsd`` lines (Li et al. heads, rst2dep attachment heights).

    EDU text is written with whitespace runs (tabs and line breaks included) as one space, as
    rst2dep's token columns have it (:func:`rsd_normal_form`); a relation label with a tab or a line
    break is refused (:class:`~rstkit.errors.WriteError`).

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> print(dumps_rsd(tree).splitlines()[0])
    1	Making bread at home is simpler than it looks.	1	_	_	para=para	2	background_r	_	_
    """
    from ..dependency import VIRTUAL_ROOT, to_dependencies

    graph = to_dependencies(tree)
    kept = tree.extra.get(KEPT_COLUMNS)
    if kept is not None and len(kept) != tree.n_edus:
        kept = None
    with_paragraphs = all(e.paragraph is not None for e in tree.edus)
    lines = []
    previous_paragraph = None
    for edu in tree.edus:
        head = next(iter(graph.predecessors(edu.index)))
        arc = graph.edges[head, edu.index]
        if head == VIRTUAL_ROOT:
            label = ROOT_LABEL
        else:
            label = f"{arc['relation']}_{'m' if arc['nuclearity'] == NUCLEUS else 'r'}"
        if kept is not None:
            col4, col5, feats, secedges, signals = kept[edu.index - 1]
        else:
            col4 = col5 = secedges = signals = "_"
            feats = _written_features(edu, with_paragraphs and edu.paragraph != previous_paragraph)
        previous_paragraph = edu.paragraph
        text = " ".join(edu.text.split())
        lines.append("\t".join([str(edu.index), text, str(arc["height"]), col4, col5, feats, str(head), label,
                                secedges, signals]))
    return "\n".join(lines) + "\n"


def _written_features(edu: EDU, starts_paragraph: bool) -> str:
    feats = []
    if edu.sentence is not None:
        feats.append(f"sid={edu.sentence}")
    if starts_paragraph:
        feats.append("para=para")
    return "|".join(feats) or "_"


def rsd_normal_form(tree: RSTTree) -> RSTTree:
    """What writing then reading an ``.rsd`` gives back (with heights).

    Nuclei of mononuclear nodes are labelled ``span``; the leftmost nucleus of a
    multinuclear node takes the relation of the next nucleus; whitespace in EDU text is
    collapsed; paragraphs are renumbered 1, 2, ... (or dropped when some EDU has none).
    """
    def normal(node: Node, children: list[Node]) -> Node:
        nuclei = [i for i, c in enumerate(children) if c.nuclearity == NUCLEUS]
        first = nuclei[0]
        relation = children[nuclei[1]].relation if len(nuclei) > 1 else SPAN
        children[first] = replace(children[first], relation=relation)
        return replace(node, children=tuple(children))

    known = all(e.paragraph is not None for e in tree.edus)
    edus, paragraph = [], 0
    for i, e in enumerate(tree.edus):
        if known and (i == 0 or e.paragraph != tree.edus[i - 1].paragraph):
            paragraph += 1
        edus.append(EDU(e.index, " ".join(e.text.split()), e.sentence, paragraph if known else None))
    return replace(tree, root=bottom_up(tree.root, normal), edus=tuple(edus))


_RSD_LINE = re.compile(r"^\d+\t[^\t]*\t(\d+|_)\t[^\t]*\t[^\t]*\t[^\t]*\t\d+\t(ROOT|\S+_[rm])\t[^\t]*\t[^\t]*$")


def _sniff(text: str) -> bool:
    first = next((line for line in text.split("\n") if line.strip() and not line.startswith("#")), "")
    return bool(_RSD_LINE.match(first.rstrip("\r")))


register(Format("rsd", "RST dependencies (rst2dep .rsd: head EDU, relation_r/_m, attachment height)",
                read_rsd, dumps_rsd, (".rsd",), _sniff, options=("heights",)))
