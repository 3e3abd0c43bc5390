"""RST dependencies, ``.rsd`` (Zeldes' rst2dep; GUM ``rst/dependencies``; parser-formats.md B4).

One EDU per line, 10 tab-separated columns: id, text, attachment height, two ``_``
columns, features (``key=value|...``), head EDU (``0`` for the root), relation with
``_r`` (satellite) or ``_m`` (multinuclear) or ``ROOT``, secondary edges, signals.

Reading rebuilds the constituency tree as :mod:`rstkit.dependency` describes: every EDU
projects a constituent, one node per distinct attachment height of its dependents. A
file whose height column is ``_`` throughout is read with the fallback attachment order
(nearest first, right before left); ``heights=False`` forces it. On GUM the tree read
from the ``.rsd`` equals the one read from the ``.rs4`` for every document.

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
from dataclasses import replace
from pathlib import Path

import networkx as nx

from ..dependency import VIRTUAL_ROOT, from_dependencies, to_dependencies
from ..errors import FormatError
from ..tree import EDU, NUCLEUS, SATELLITE, SPAN, Node, RSTTree
from . import Format, doc_id_from_path, read_text, register

N_COLUMNS = 10
ROOT_LABEL = "ROOT"
_SUFFIX = {"r": SATELLITE, "m": NUCLEUS}
_BLOCK_STARTS = ("para", "item")
_BLOCK_FLAGS = ("heading", "caption")
#: key of ``tree.extra`` holding an .rsd file's columns 4, 5, 6, 9, 10 per EDU
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
    tree = from_dependencies(graph, edus, doc_id, source)
    columns = tuple((row[3], row[4], row[5], row[8], row[9]) for _, row in rows)
    return replace(tree, extra={KEPT_COLUMNS: columns})


def read_rsd(path: str | Path, lenient: bool = False, heights: bool = True) -> list[RSTTree]:
    """Read one ``.rsd`` file (a list of one tree, as every format reader returns)."""
    return [loads_rsd(read_text(path), path, lenient=lenient, heights=heights)]


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


def dumps_rsd(tree: RSTTree) -> str:
    """Write a tree as ``.rsd`` lines (Li et al. heads, rst2dep attachment heights)."""
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
    def normal(node: Node) -> Node:
        if node.is_leaf:
            return node
        children = [normal(c) for c in node.children]
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
    return replace(tree, root=normal(tree.root), edus=tuple(edus))


_RSD_LINE = re.compile(r"^\d+\t[^\t]*\t(\d+|_)\t[^\t]*\t[^\t]*\t[^\t]*\t\d+\t(ROOT|\S+_[rm])\t[^\t]*\t[^\t]*$")


def _sniff(text: str) -> bool:
    first = next((line for line in text.split("\n") if line.strip() and not line.startswith("#")), "")
    return bool(_RSD_LINE.match(first.rstrip("\r")))


register(Format("rsd", "RST dependencies (rst2dep .rsd: head EDU, relation_r/_m, attachment height)",
                read_rsd, dumps_rsd, (".rsd",), _sniff, options=("heights",)))
