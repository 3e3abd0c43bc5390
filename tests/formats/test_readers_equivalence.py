"""The fast rs3/rs4 and .rsd readers read what the formats specify, as an independent reader does.

Reference: tests/support/reader_oracle.py, a reader of each format written from
../shared/docs/parser-formats.md alone (no rstkit code). Every GUM file and generated, mutated
files must give the oracle's tree (nodes, spans, nuclearity, relations, line numbers), EDUs and
extras, or an error whose type and line the oracle names among the file's problems. Each fast path
is also compared with its own package fallback (the XML parser for rs3, the dependency graph for
.rsd), and every tree read passes ``validate``. On GUM, the oracle's readings of the .rs4, .rsd and
lisp_nary .dis forms of each document agree with each other (exceptions stated where they are).
Hand-written files with trees worked out by hand: tests/formats/test_readers_spec.py.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rstkit.errors import RSTKitError, printable
from rstkit.formats import _rs3_scan, _rs3_xml, read_text, rsd
from rstkit.formats.rebuild import bottom_up
from rstkit.formats.rs3 import dumps_rs3, loads_rs3
from rstkit.formats.rsd import dumps_rsd, loads_rsd
from rstkit.tree import EDU, RSTTree, SecondaryEdge, validate
from tests.formats.test_dis_fast import chain
from tests.formats.test_gum_forms import QUIRK, TEXT_DIFFERENCES
from tests.support import oracle as dis_oracle
from tests.support import reader_oracle
from tests.support.strategies import rst_trees


def outcome(read, text: str, **options) -> tuple:
    """What a reader makes of a text: the tree in full (with node lines), EDUs, extras and warnings,
    or the error's type and line (an error must name the file)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            tree = read(text, "doc.x", **options)
        except RSTKitError as exc:
            assert exc.path == "doc.x" and "\n" not in exc.message, exc
            return ("error", type(exc).__name__, exc.line)
    validate(tree)
    assert tree.doc_id == "doc" and tree.source == "doc.x"
    nodes = [(n.start, n.end, n.nuclearity, n.relation, n.line) for n in tree.nodes()]
    edus = [(e.index, e.text, e.sentence, e.paragraph) for e in tree.edus]
    return ("tree", nodes, edus, {**tree.extra, **erst_tuples(tree)}, [str(w.message) for w in caught])


def erst_tuples(tree) -> dict:
    """The tree's eRST layer as the oracle gives it (plain tuples; a signal of an edge ``("edge", *edge)``)."""
    layer = tree.erst
    if layer.is_empty():
        return {}
    edges = [(e.source, e.target, e.relation) for e in layer.secondary_edges]
    signals = [(("edge", s.source.source, s.source.target, s.source.relation) if isinstance(s.source, SecondaryEdge)
                else s.source, s.type, s.subtype, s.tokens, s.status) for s in layer.signals]
    return {"edges": edges, "signals": signals, "sigtypes": list(layer.signal_types)}


_GUESSED = re.compile(r"doc\.x:(\d+): relname '(.*)' is not declared in <header><relations>; its type is guessed "
                      r"from the structure \(lenient\)")


def assert_reads_as_the_oracle(read, read_independently, text: str, **options) -> None:
    """``read`` gives the oracle's reading of ``text``, or an error the oracle names (type and line);
    a lenient rs3 reading warns once for each name it guesses, at a line where the name is used."""
    got = outcome(read, text, **options)
    try:
        want = read_independently(text, **options)
    except reader_oracle.Rejected as rejected:
        assert got[0] == "error" and got[1:] in rejected.problems, (got, rejected.problems)
        return
    assert got[:4] == ("tree", want.nodes, want.edus, want.extra)
    warned = [_GUESSED.fullmatch(message) for message in got[4]]
    assert None not in warned, got[4]
    shown = {printable(name): lines for name, lines in want.undeclared.items()}
    assert sorted(m[2] for m in warned) == sorted(shown)  # type: ignore[index]
    assert all(int(m[1]) in shown[m[2]] for m in warned)  # type: ignore[index]


# -- every GUM file ---------------------------------------------------------------------------
@pytest.mark.slow  # GUM-wide, against the specification's reader
@pytest.mark.gum
def test_rs4_reads_as_specified_on_every_gum_file(gum_dir):
    files = sorted((gum_dir / "rstweb").glob("*.rs4"))
    assert len(files) == 281
    for path in files:
        text = read_text(path)
        assert _rs3_scan.scan(text) == _rs3_xml.parse_xml(text, str(path)), path.name  # the scanner takes every file
        assert_reads_as_the_oracle(loads_rs3, reader_oracle.read_rs3, text)


@pytest.mark.slow  # GUM-wide, against the specification's reader
@pytest.mark.gum
def test_rsd_reads_as_specified_on_every_gum_file(gum_dir):
    files = sorted((gum_dir / "dependencies").glob("*.rsd"))
    assert len(files) == 281
    for path in files:
        text = read_text(path)
        for heights in (True, False):
            plain = rsd._read_plain(text, "doc.x", "doc", heights)
            assert plain is not None, path.name  # the plain path takes every file
            graph = rsd._read_with_graph(text, "doc.x", "doc", heights)
            assert [(n.span, n.nuclearity, n.relation, n.line) for n in plain.nodes()] == \
                [(n.span, n.nuclearity, n.relation, n.line) for n in graph.nodes()]
            assert_reads_as_the_oracle(loads_rsd, reader_oracle.read_rsd, text, heights=heights)


_DIS_TEXT = re.compile(r"\(\s*text\s*_!(.*?)_!\s*\)", re.DOTALL)


@pytest.mark.slow  # GUM-wide
@pytest.mark.gum
def test_gum_forms_read_independently_give_one_tree_and_one_text(gum_dir):
    """Read by the oracles, each document's .rs4 and .rsd give the same tree (spans, nuclearity,
    relations) and lisp_nary's .dis gives it too, but for GUM's one flattened node (QUIRK, see
    tests/formats/test_gum_forms.py): there the .rs4 tree has one span node more, over the
    multinuclear group, which the .dis puts directly under the node above. EDU texts agree but for the
    tokens listed in TEXT_DIFFERENCES. Layout (sentences, paragraphs) only .rsd carries; secondary edges:
    test_gum_secondary_edges_of_rs4_are_the_rsd_ones; signals are not compared (the .rsd writes them per
    EDU in its own notation)."""
    texts: dict[str, dict[str, list[int]]] = {"rs4": {}, "rsd": {}}
    for path in sorted((gum_dir / "lisp_nary").glob("*.dis")):
        doc = path.stem
        dis_text = read_text(path)
        dis = [(n.start, n.end, n.nuc, n.rel) for n in dis_oracle.walk(dis_oracle.read_dis(dis_text))]
        rs4 = reader_oracle.read_rs3(read_text(gum_dir / "rstweb" / f"{doc}.rs4"))
        dep = reader_oracle.read_rsd(read_text(gum_dir / "dependencies" / f"{doc}.rsd"))
        rs4_nodes = [node[:4] for node in rs4.nodes]
        assert [node[:4] for node in dep.nodes] == rs4_nodes, doc
        if doc == QUIRK:
            assert rs4_nodes != dis and [n for n in rs4_nodes if n != (49, 266, "N", "span")] == dis
        else:
            assert rs4_nodes == dis, doc
        dis_texts = [" ".join(t.split()) for t in _DIS_TEXT.findall(dis_text)]
        for form, reading in (("rs4", rs4), ("rsd", dep)):
            assert len(reading.edus) == len(dis_texts), (doc, form)
            differing = [i for (i, text, _, _), other in zip(reading.edus, dis_texts) if text != other]
            if differing:
                texts[form][doc] = differing
    assert texts == TEXT_DIFFERENCES


def head_edus(nodes: list[tuple]) -> dict[tuple[int, int], int]:
    """The head EDU of each span of a pre-order node list: the head of its leftmost nucleus
    (parser-formats.md B4), an EDU heading itself."""
    children: dict[tuple[int, int], list[tuple]] = {}
    path: list[tuple] = []
    for node in nodes:
        while path and not path[-1][0] <= node[0] <= node[1] <= path[-1][1]:
            path.pop()
        if path:
            children.setdefault(path[-1][:2], []).append(node)
        path.append(node)
    head = {}
    for node in reversed(nodes):  # children before parents
        span = node[:2]
        head[span] = head[next(c for c in children[span] if c[2] == "N")[:2]] if span in children else span[0]
    return head


#: GUM's one document whose .rsd secondary edges are not the .rs4 ones: (source head, target head, relation)
#: of the three edges that differ, .rs4 side and .rsd side (the other six agree)
SECEDGE_DIFFERENCES = {"GUM_conversation_gossip": (
    [(99, 98, "joint-sequence"), (146, 144, "explanation-justify"), (193, 191, "joint-other")],
    [(102, 98, "joint-sequence"), (104, 195, "joint-other"), (147, 144, "explanation-justify")])}


@pytest.mark.gum
def test_gum_secondary_edges_of_rs4_are_the_rsd_ones(gum_dir):
    """An .rs4 secondary edge between two nodes is, in the .rsd, an item ``target head:relation:...``
    of column 9 on the row of the source's head EDU (items separated by ``|``): the readers' trees and
    extras say so (the head of a span computed here, from the tree)."""
    differences = {}
    for path in sorted((gum_dir / "rstweb").glob("*.rs4")):
        rs4 = loads_rs3(read_text(path))
        columns = loads_rsd(read_text(gum_dir / "dependencies" / f"{path.stem}.rsd")).extra["rsd_columns"]
        head = head_edus([(n.start, n.end, n.nuclearity) for n in rs4.nodes()])
        edges = {(head[e.source], head[e.target], e.relation) for e in rs4.erst.secondary_edges}
        items = {(row, int(item.split(":")[0]), item.split(":")[1])
                 for row, kept in enumerate(columns, 1) if kept[3] != "_" for item in kept[3].split("|")}
        assert len(items) == sum(kept[3].count("|") + 1 for kept in columns if kept[3] != "_")
        if edges != items:
            differences[path.stem] = (sorted(edges - items), sorted(items - edges))
    assert differences == SECEDGE_DIFFERENCES


# -- generated and mutated files -----------------------------------------------------------------
NASTY_TEXT = st.lists(st.sampled_from(["a", " ", "&", "<", ">", '"', "'", "é", "中", "\U0001f600", "\t", "&amp;",
                                       "\\", "b", "]]>"]), max_size=6).map("".join)
RELATIONS = st.sampled_from(["elab", "list", "Contrast", "same-unit", "elab", "list", 'say "x"', "a&b", "r'q", "é"])
SNIPPETS = ["", "&", "&amp;", "&#65;", "<", ">", "]]>", "\r", '"', " x=\"1\"", "\n", "<!-- c -->", "\x01", "\t",
            "<group id=\"99\" type=\"span\"/>", "<segment id=\"1\">", "</body>", "<?xml version=\"1.0\"?>",
            " parent=\"1\"", "relname", "signal", "\ufeff",
            # what the scanner's one-element-per-line and whole-coverage checks must catch
            "\n\n", " ", "\t\n", "x", "]", "]]", "/>", "\n\t\t", "\ufffe",
            # eRST names and tokens that are wrong
            "source=\"77\" ", "tokens=\"0\" ", ","]
RS4_TAIL = ('\t\t<secedges>\n\t\t\t<secedge id="2-1" source="2" target="1" relname="r"/>\n\t\t\t<secedge id="x" '
            'source="1" target="2" relname="elab"/>\n\t\t</secedges>\n\t\t<signals>\n\t\t\t<signal source="1" '
            'type="dm" subtype="dm" tokens="1,2"/>\n\t\t\t<signal source="2" type="x" subtype="y" tokens="" '
            'status="gold"/>\n\t\t\t<signal source="x" type="x" subtype="y" tokens=""/>\n\t\t</signals>\n\t</body>')


@st.composite
def rs3_texts(draw) -> str:
    """An rs3/rs4 file written by rstkit for a random tree with nasty texts and relation names, then
    maybe cut and patched."""
    tree = draw(rst_trees(max_edus=10, patterns="any"))
    names = {}

    def rename(label: str | None) -> str | None:
        return label if label in (None, "span") else names.setdefault(label, draw(RELATIONS))

    root = bottom_up(tree.root, lambda node, kids: replace(node, children=tuple(
        replace(kid, relation=rename(kid.relation)) for kid in kids)))
    edus = tuple(EDU(e.index, draw(NASTY_TEXT)) for e in tree.edus)
    try:
        text = dumps_rs3(RSTTree(root, edus))
    except RSTKitError:
        text = dumps_rs3(RSTTree(tree.root, tuple(EDU(e.index, "x") for e in tree.edus)))
    if draw(st.booleans()):  # an rs4 tail, maybe without secedges
        text = text.replace("\t</body>", RS4_TAIL[RS4_TAIL.index("\t\t<signals>") if draw(st.booleans()) else 0:])
    lines = text.split("\n")
    for _ in range(draw(st.integers(0, 2))):  # lines moved (segments and groups interleaved), doubled, padded
        i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(["move", "double", "pad", "join", "spaces"]))
        if edit == "move":
            lines.insert(j, lines.pop(i))
        elif edit == "double":
            lines.insert(j, lines[i])
        elif edit == "pad":
            lines[i] += draw(st.sampled_from([" ", "\t", " \t "]))
        elif edit == "join" and i + 1 < len(lines):
            lines[i:i + 2] = [lines[i] + draw(st.sampled_from(["", " ", "\t"])) + lines[i + 1].lstrip()]
        elif edit == "spaces":
            lines[i] = lines[i].replace("\t", draw(st.sampled_from(["", " ", "\t\t", "  "])))
    text = "\n".join(lines)
    for _ in range(draw(st.integers(0, 2))):
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.sampled_from(SNIPPETS)) + text[cut + draw(st.integers(0, 4)):]
    return text


@pytest.mark.parametrize("text", [
    # the body's segment 1 is on line 3; the one on line 1 is outside the body
    '<rst><segment id="1">x</segment>\n<header><relations/></header><body>\n<segment id="1">a</segment>\n</body></rst>',
    # the segment is on line 2; XML reads its id as " 1"
    '<rst><header><relations/></header><body>\n<segment id="\n1">a</segment>\n</body></rst>',
])
def test_element_lines_are_the_body_elements_own(text):
    """A segment outside ``<body>`` with a body element's id, or an id XML reads otherwise than it is
    written, once took another element's line (the lines were paired by id as written) or none."""
    line = 3 if text.startswith("<rst><segment") else 2  # worked out by hand
    assert reader_oracle.read_rs3(text).nodes == [(1, 1, "Root", None, line)]
    assert loads_rs3(text).root.line == line


def test_element_lines_count_newlines_before_the_tag_in_the_first_body_only():
    """Lines by hand: non-ASCII text before a tag (the parser reports bytes), a lone carriage return
    (not a line break, as in every format), and a second body, whose elements the reader ignores."""
    text = ('<rst><header><relations><rel name="elab" type="rst"/></relations></header><body>\n'
            '<segment id="1">été</segment>\r<segment id="2" parent="1" relname="elab">b</segment>\n'
            '</body><body>\n<segment id="9">z</segment></body></rst>')
    assert _rs3_scan.scan(text) is None  # the XML parser's path
    assert [(n.start, n.end, n.line) for n in loads_rs3(text).nodes()] == [(1, 2, 2), (1, 1, 2), (2, 2, 2)]
    assert reader_oracle.read_rs3(text).nodes == [(1, 2, "Root", None, 2), (1, 1, "N", "span", 2),
                                                  (2, 2, "S", "elab", 2)]


@pytest.mark.slow  # against the specification's reader
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rs3_texts())
def test_rs3_reads_generated_and_mutated_files_as_specified(text):
    markup = _rs3_scan.scan(text)
    try:
        parsed = _rs3_xml.parse_xml(text, "doc.x")
    except RSTKitError:
        assert markup is None, "the scanner took a file the XML parser rejects"
    else:
        assert markup is None or markup == parsed
    for lenient in (False, True):
        assert_reads_as_the_oracle(loads_rs3, reader_oracle.read_rs3, text, lenient=lenient)


# names by declared type: rst only, multinuc only, both, none (``span`` is the span child's)
LINK_NAMES = ["span", "elab", "cause", "list", "joint", "both", "undeclared"]
LINK_HEADER = ('<rst>\n\t<header>\n\t\t<relations>\n\t\t\t<rel name="elab" type="rst"/>\n'
               '\t\t\t<rel name="cause" type="rst"/>\n\t\t\t<rel name="list" type="multinuc"/>\n'
               '\t\t\t<rel name="joint" type="multinuc"/>\n\t\t\t<rel name="both" type="rst"/>\n'
               '\t\t\t<rel name="both" type="multinuc"/>\n\t\t</relations>\n\t</header>\n\t<body>\n')


@st.composite
def rs3_link_texts(draw) -> str:
    """An rs3 file of parent links for a random projective structure, GUM's shapes included (satellites of
    segments, of span groups and, directly, of multinuclear groups; several satellites), then maybe a
    relname or a parent changed at random (undeclared names, ``span`` misplaced, single nuclei, gaps,
    forests, cycles), the elements maybe shuffled."""
    n = draw(st.integers(1, 9))
    links: dict[str, tuple[str, str] | None] = {}
    groups: list[tuple[str, str]] = []  # (id, type)

    def group(kind: str) -> str:
        groups.append((str(n + len(groups) + 1), kind))
        return groups[-1][0]

    def build(lo: int, hi: int) -> str:
        """The element standing for EDUs lo..hi (its own link is set by the caller)."""
        if lo == hi:
            return str(lo)
        cuts = sorted(draw(st.sets(st.integers(lo + 1, hi), min_size=1, max_size=min(4, hi - lo))))
        parts = [build(a, b - 1) for a, b in zip([lo, *cuts], [*cuts, hi + 1])]
        shape = draw(st.sampled_from(["segment", "span", "multinuc"]))
        if shape == "segment" and (nuclei := [k for k, part in enumerate(parts) if int(part) <= n]):
            top = parts[draw(st.sampled_from(nuclei))]  # a segment with satellites
        elif shape == "span" or len(parts) == 1:
            top = group("span")
            links[parts.pop(draw(st.integers(0, len(parts) - 1)))] = (top, "span")
        else:
            top = group("multinuc")
            first = draw(st.integers(0, len(parts) - 2))  # satellites before the nuclei, then after them
            last = draw(st.integers(0, len(parts) - 2 - first))
            nuclei = parts[first:len(parts) - last]
            for part in nuclei:
                links[part] = (top, draw(st.sampled_from(["list", "joint", "both"])))
            parts = [part for part in parts if part not in nuclei]
        for part in parts:
            if part != top:
                links[part] = (top, draw(st.sampled_from(["elab", "cause", "both"])))
        return top

    links[build(1, n)] = None
    ids = [str(i) for i in range(1, n + len(groups) + 1)]
    for _ in range(draw(st.integers(0, 2))):  # noise
        element = draw(st.sampled_from(ids))
        if links.get(element) is not None and draw(st.booleans()):
            links[element] = (links[element][0], draw(st.sampled_from(LINK_NAMES)))
        else:
            links[element] = (draw(st.sampled_from(ids)), draw(st.sampled_from(LINK_NAMES)))
    kinds = dict(groups)
    lines = []
    for element in ids:
        link = links.get(element)
        attributes = "" if link is None else f' parent="{link[0]}" relname="{link[1]}"'
        lines.append(f'\t\t<segment id="{element}"{attributes}>edu {element}</segment>' if int(element) <= n
                     else f'\t\t<group id="{element}" type="{kinds[element]}"{attributes}/>')
    if draw(st.booleans()):
        lines = draw(st.permutations(lines))
    return LINK_HEADER + "\n".join(lines) + "\n\t</body>\n</rst>\n"


@pytest.mark.slow  # against the specification's reader
@settings(max_examples=400, deadline=None)
@given(rs3_link_texts())
def test_rs3_reads_random_parent_links_as_specified(text):
    assert _rs3_scan.scan(text) == _rs3_xml.parse_xml(text, "doc.x")
    for lenient in (False, True):
        assert_reads_as_the_oracle(loads_rs3, reader_oracle.read_rs3, text, lenient=lenient)


@st.composite
def rsd_texts(draw) -> str:
    """An .rsd file written by rstkit for a random tree, maybe with layout features, then maybe patched."""
    tree = draw(rst_trees(max_edus=10, patterns="any"))
    features = draw(st.lists(st.sampled_from(["sid=1", "sid=2", "para=para", "item=item", "heading=heading",
                                               "caption=c", "x=1", "sid=x", "parent_posNN", "sid=3|sid=4"]),
                             min_size=tree.n_edus, max_size=tree.n_edus))
    lines = dumps_rsd(tree).split("\n")
    if draw(st.booleans()):
        lines = ["\t".join(row[:5] + [feats] + row[6:]) if len(row) == 10 else line
                 for line, feats in zip(lines, features + [""]) for row in [line.split("\t")]]
    text = "\n".join(lines)
    for _ in range(draw(st.integers(0, 2))):
        cut = draw(st.integers(0, len(text)))
        snippet = draw(st.sampled_from(["", "\t", "\n", "\n\n", "# note\n", "_", "0", "9", "ROOT", "_r", "_m",
                                        "\r", " ", "x", "|para=p"]))
        text = text[:cut] + snippet + text[cut + draw(st.integers(0, 3)):]
    return text


def assert_plain_path_agrees(text: str, heights: bool) -> None:
    """Where the .rsd plain path takes a file, its tree (node lines included) is the graph path's."""
    plain = rsd._read_plain(text, "doc.x", "doc", heights)
    if plain is not None:
        graph = rsd._read_with_graph(text, "doc.x", "doc", heights)
        assert [(n.span, n.nuclearity, n.relation, n.line) for n in plain.nodes()] == \
            [(n.span, n.nuclearity, n.relation, n.line) for n in graph.nodes()]
        assert plain.edus == graph.edus and plain.extra == graph.extra


@pytest.mark.slow  # against the specification's reader
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rsd_texts(), st.booleans())
def test_rsd_reads_generated_and_mutated_files_as_specified(text, heights):
    assert_plain_path_agrees(text, heights)
    assert_reads_as_the_oracle(loads_rsd, reader_oracle.read_rsd, text, heights=heights)


@st.composite
def rsd_tables(draw) -> str:
    """An .rsd table edited cell by cell: an rstkit-written tree whose attachment heights are redrawn
    (ties: several dependents on one level; reordered levels), heads and relations sometimes
    replaced (cycles, crossing arcs, several or no roots), ids sometimes wrong, and features with
    ``sid`` and the paragraph marks anywhere in the column."""
    tree = draw(rst_trees(max_edus=12, patterns="any"))
    rows = [line.split("\t") for line in dumps_rsd(tree).splitlines()]
    n = len(rows)
    items = st.sampled_from(["sid=1", "sid=2", "sid=12", "para=para", "item=item", "heading=head", "caption=c",
                             "x=1", "parent_posNN", "pos1=JJ", "heading", "sid"])
    height_mode = draw(st.sampled_from(["kept", "redrawn", "redrawn", "none", "one missing"]))
    for i, row in enumerate(rows):
        if height_mode == "redrawn":
            row[2] = str(draw(st.integers(0, 3)))
        elif height_mode == "none" or (height_mode == "one missing" and i == n - 1):
            row[2] = "_"
        row[5] = "|".join(draw(st.lists(items, max_size=4))) or "_"
    for _ in range(draw(st.integers(0, 2))):
        row = rows[draw(st.integers(0, n - 1))]
        edit = draw(st.sampled_from(["head", "relation", "id", "sid"]))
        if edit == "head":
            row[6] = str(draw(st.integers(-1, n + 1)))
        elif edit == "relation":
            row[7] = draw(st.sampled_from(["elab_r", "list_m", "ROOT", "joint_m", "x_q", "_r", "elab"]))
        elif edit == "id":
            row[0] = draw(st.sampled_from(["0", str(n + 1), " 1", "a"]))
        else:
            row[5] += "|sid=x"
    text = "\n".join("\t".join(row) for row in rows)
    return text + "\n" if draw(st.booleans()) else text


@pytest.mark.slow  # against the specification's reader
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rsd_tables(), st.booleans())
def test_rsd_reads_edited_tables_as_specified(text, heights):
    """The plain path (levels by height with ties, labels parsed once, sentence ids and paragraph
    marks found at once) gives the oracle's tree, or the file goes to the graph path and fails with
    an error the oracle names."""
    assert_plain_path_agrees(text, heights)
    assert_reads_as_the_oracle(loads_rsd, reader_oracle.read_rsd, text, heights=heights)


# -- deep trees (issue 10) --------------------------------------------------------------------------
@pytest.mark.slow  # 20,000-EDU chain, fast path against the long way
@pytest.mark.parametrize("right", [True, False])
@pytest.mark.parametrize("fmt", ["rs3", "rsd"])
def test_a_20000_edu_chain_is_written_and_read_on_both_paths(fmt, right):
    """Writing is depth-independent; both reading paths are (the second is forced by a comment)."""
    tree = chain(20_000, right)
    expected = [(n.start, n.end, n.nuclearity, n.relation) for n in tree.nodes()]
    if fmt == "rs3":
        text = dumps_rs3(tree)
        variants, read = [text, text.replace("<body>", "<body><!-- forces the XML parser -->")], loads_rs3
    else:
        text = dumps_rsd(tree)
        variants, read = [text, "# forces the graph path\n" + text], loads_rsd
    for variant in variants:
        back = read(variant)
        assert [(n.start, n.end, n.nuclearity, n.relation) for n in back.nodes()] == expected
        assert [e.text for e in back.edus] == [e.text for e in tree.edus]
    fast = _rs3_scan.scan(variants[0]) if fmt == "rs3" else rsd._read_plain(variants[0], "", "", True)
    assert fast is not None  # the first variant took the fast path


# -- messages ---------------------------------------------------------------------------------------
def test_rs3_messages_show_unprintable_characters_escaped():
    text = ('<rst><header><relations><rel name="elab" type="rst"/></relations></header><body>\n'
            '<segment id="1" parent="9\u200b" relname="elab">a</segment>\n</body></rst>')
    with pytest.raises(RSTKitError, match=r"parent '9\\u200b', which does not exist") as info:
        loads_rs3(text, "u.rs3")
    assert info.value.path == "u.rs3" and info.value.line == 2


def test_rsd_messages_show_unprintable_characters_escaped():
    text = "1\ta\t0\t_\t_\t_\t0\tROOT\t_\t_\n2\tb\t0\t_\t_\t_\t1\telab\x07_x\t_\t_\n"
    with pytest.raises(RSTKitError, match=r"relation 'elab\\x07_x' does not end in _r") as info:
        loads_rsd(text, "u.rsd")
    assert info.value.line == 2


def test_xml_errors_name_file_and_line():
    with pytest.raises(RSTKitError, match="malformed XML") as info:
        loads_rs3("<rst>\n<header>\n</rst>\n", "bad.rs3")
    assert (info.value.path, info.value.line) == ("bad.rs3", 3)
