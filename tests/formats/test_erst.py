"""The eRST layer (GUM's secondary edges and signals, ``tree.erst``): read, kept through binarization and
relabelling, written back by the rs3/rs4 writer, and never dropped without a warning.

Expectations are read independently of rstkit's reader: ``xml_layer`` below reads an rs3/rs4 file with
``xml.etree`` and names every node by its EDU extent, computed from the parent links (the segments a
node has below it, itself included: the extent of the constituent rstkit builds for it)."""
from __future__ import annotations

import pickle
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

from rstkit import read_tree
from rstkit.cli import main
from rstkit.convert import convert_tree
from rstkit.errors import FormatError, TreeStructureError, WriteError
from rstkit.formats import read_text
from rstkit.formats.rs3 import dumps_rs3, loads_rs3
from rstkit.labels import LabelMap, get_label_map
from rstkit.transform import binarize
from rstkit.tree import ERST, RSTTree, SecondaryEdge, Signal, validate

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
SMALL = DATA / "erst_small.rs4"


def xml_layer(text: str) -> tuple[list, list, list]:
    """(edges, signals, sigtypes) of an rs3/rs4 file, by xml.etree: an edge (source extent, target extent,
    relname); a signal (source, type, subtype, tokens as written, status), its source a node's extent or
    the (source extent, target extent, relname) of the edge it names; sigtypes (type, subtypes) as written."""
    root = ET.fromstring(text)
    items = [e for e in root.find("body") if e.tag in ("segment", "group")]
    parent = {e.get("id"): e.get("parent") for e in items}
    covered: dict[str, set[int]] = defaultdict(set)
    for number, segment in enumerate((e.get("id") for e in items if e.tag == "segment"), 1):
        node = segment
        while node is not None:
            covered[node].add(number)
            node = parent[node]
    extent = {node: (min(numbers), max(numbers)) for node, numbers in covered.items()}
    edges, by_id = [], {}
    for e in root.iterfind("body/secedges/secedge"):
        by_id[e.get("id")] = (extent[e.get("source")], extent[e.get("target")], e.get("relname"))
        edges.append(by_id[e.get("id")])
    signals = [(extent[s.get("source")] if s.get("source") in extent else by_id[s.get("source")], s.get("type"),
                s.get("subtype"), s.get("tokens"), s.get("status")) for s in root.iterfind("body/signals/signal")]
    sigtypes = [(s.get("type"), s.get("subtypes")) for s in root.iterfind("header/sigtypes/sig")]
    return edges, signals, sigtypes


def test_the_layer_is_an_immutable_hashable_picklable_value():
    tree = read_tree(SMALL)
    layer = tree.erst
    assert hash(layer) == hash(pickle.loads(pickle.dumps(layer)))
    assert pickle.loads(pickle.dumps(tree)).erst == layer
    with pytest.raises(AttributeError):
        layer.signals = ()  # type: ignore[misc]
    assert tree == RSTTree(tree.root, tree.edus, tree.doc_id)  # like source and extra, not part of equality


def test_small_file_reads_as_written_by_hand():
    tree = read_tree(SMALL)
    # by hand from erst_small.rs4: group 6 (the list of 1-3), segment 4 with its satellite 5 is 4-5;
    # the document's tokens: 1 Rain ... 7 rose ... 12 rose ... 15 So ... 20 : ... 22 car
    cause = SecondaryEdge((5, 5), (1, 1), "cause")
    contrast = SecondaryEdge((2, 2), (3, 3), "contrast")
    assert tree.erst == ERST(
        (cause, contrast),
        (Signal((4, 5), "dm", "dm", (15,)), Signal((5, 5), "graphical", "colon", (20,)),
         Signal((2, 2), "semantic", "repetition", (7, 12)), Signal(cause, "semantic", "lexical_chain", (1, 22), "gold"),
         Signal(contrast, "dm", "dm", ())),
        (("dm", ("dm",)), ("graphical", ("colon", "dash")), ("semantic", ("lexical_chain", "repetition"))))


@pytest.mark.parametrize("mode", ["none", "right", "rst-eval", "right_mixed"])
def test_binarized_and_written_the_layer_reads_back_the_same(mode):
    text = read_text(SMALL)
    tree = binarize(loads_rs3(text), mode)
    assert tree.is_binary() or mode == "none"
    validate(tree)  # every extent is still a node: binarizing only adds nodes (here 2-3 under the list)
    written = dumps_rs3(tree)
    assert xml_layer(written) == xml_layer(text)
    assert loads_rs3(written).erst == tree.erst


def test_relabelling_maps_secondary_edges_as_the_tree_and_signals_follow():
    coarse = LabelMap("test", "test", {"cause": "causal", "contrast": "adversative", "list": "joint",
                                       "elaboration": "elaboration"})
    tree = convert_tree(read_tree(SMALL), labels="raw")
    relabelled = coarse.apply(tree)
    edges, signals, sigtypes = xml_layer(dumps_rs3(relabelled))
    assert edges == [((5, 5), (1, 1), "causal"), ((2, 2), (3, 3), "adversative")]
    assert signals[3] == (((5, 5), (1, 1), "causal"), "semantic", "lexical_chain", "1,22", "gold")
    assert sigtypes == xml_layer(read_text(SMALL))[2]


@pytest.mark.parametrize("edit, line, words", [
    (('target="1" relname="cause"', 'target="9" relname="cause"'), 24, "<secedge> target='9' is no segment or group"),
    (('source="2" target="3"', 'source="" target="3"'), 25, "<secedge> source='' is no segment or group"),
    (('id="2-3"', 'id="5-1"'), 25, "<secedge> id='5-1' is used twice"),
    (('source="2-3"', 'source="3-2"'), 32, "<signal> source='3-2' is no segment, group or secondary edge"),
    (('tokens="15"', 'tokens="0"'), 28, "<signal> tokens='0': expected token numbers from 1"),
    (('tokens="20"', 'tokens="20,"'), 29, "<signal> tokens='20,': expected token numbers from 1"),
    # the five EDUs hold 5 + 3 + 6 + 6 + 5 = 25 tokens
    (('tokens="1,22"', 'tokens="1,26"'), 31, "<signal> token 26 is past the document's last (25 tokens"),
])
@pytest.mark.parametrize("front", ["scanner", "xml"])
def test_names_that_name_nothing_are_errors_at_their_line(edit, line, words, front):
    text = read_text(SMALL).replace(*edit)
    if front == "xml":
        text = text.replace("<body>", "<body><!-- to the XML parser -->")
    with pytest.raises(FormatError) as info:
        loads_rs3(text, "doc.rs4")
    assert (info.value.path, info.value.line) == ("doc.rs4", line)
    assert words in info.value.message


def test_validate_and_the_writer_refuse_an_extent_that_is_no_node():
    tree = read_tree(SMALL)
    wrong = RSTTree(tree.root, tree.edus, "doc", erst=ERST((SecondaryEdge((2, 3), (1, 1), "cause"),)))
    with pytest.raises(TreeStructureError, match="names EDUs 2-3, which no node of the tree spans"):
        validate(wrong)
    with pytest.raises(TreeStructureError, match="cannot write document 'doc' as rs3: .* EDUs 2-3"):
        dumps_rs3(wrong)


def test_edges_between_the_same_nodes_get_ids_of_their_own():
    tree = read_tree(SMALL)
    edge, other = SecondaryEdge((5, 5), (1, 1), "cause"), SecondaryEdge((5, 5), (1, 1), "result")
    layer = ERST((edge, edge, edge, other), (Signal(edge, "dm", "dm", (15,)), Signal(other, "dm", "dm", (20,))))
    written = dumps_rs3(RSTTree(tree.root, tree.edus, "doc", erst=layer))
    # GUM's form source-target, then -2, -3 for the next edges between the same two elements
    assert [e.get("id") for e in ET.fromstring(written).iterfind("body/secedges/secedge")] == \
        ["5-1", "5-1-2", "5-1-3", "5-1-4"]
    assert loads_rs3(written).erst == layer


def test_validate_refuses_a_token_outside_the_document():
    tree = read_tree(SMALL)
    wrong = RSTTree(tree.root, tree.edus, "doc", erst=ERST(signals=(Signal((1, 1), "dm", "dm", (25, 26)),)))
    with pytest.raises(TreeStructureError, match="a dm/dm signal names tokens 25-26, outside the document's 1-25"):
        validate(wrong)
    validate(RSTTree(tree.root, tree.edus, "doc", erst=ERST(signals=(Signal((1, 1), "dm", "dm", (25,)),))))


def test_the_writer_refuses_layer_text_xml_cannot_hold():
    tree = read_tree(SMALL)
    wrong = RSTTree(tree.root, tree.edus, "doc", erst=ERST(signals=(Signal((1, 1), "d\x00m", "dm"),)))
    with pytest.raises(WriteError, match="in its eRST layer holds '.x00'"):
        dumps_rs3(wrong)


def test_convert_to_rs4_keeps_the_layer_and_other_formats_warn_once_with_counts(tmp_path, capsys):
    assert main(["convert", str(SMALL), str(tmp_path / "out.rs4"), "--to", "rs4", "--binarize", "right"]) == 0
    assert xml_layer((tmp_path / "out.rs4").read_text()) == xml_layer(read_text(SMALL))
    assert capsys.readouterr().err == ""
    # two documents, 2 edges and 5 signals each: one warning for the run
    (tmp_path / "in").mkdir()
    for name in ("a", "b"):
        (tmp_path / "in" / f"{name}.rs4").write_text(read_text(SMALL))
    for to in ("dis", "tok"):
        assert main(["convert", str(tmp_path / "in"), str(tmp_path / to), "--to", to]) == 0
        assert capsys.readouterr().err == (f"rstkit: warning: --to {to} drops the eRST layer: 4 secondary edge(s) and "
                                           "10 signal(s) of 2 document(s) are not written (rs3 and rs4 keep them)\n")
    assert main(["convert", "-q", str(tmp_path / "in"), str(tmp_path / "quiet"), "--to", "dis"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.gum
@pytest.mark.slow
@pytest.mark.parametrize("options", [[], ["--binarize", "right", "--labels", "gum"]])
def test_every_gum_rs4_converts_to_rs4_with_every_edge_and_signal(gum_dir, tmp_path, options):
    """GUM's 281 .rs4 files hold 1,363 secondary edges and 40,156 signals (counted here by xml.etree, and
    the figures of the issue); ``convert --to rs4`` writes each back with the same ends, relation (mapped
    under ``--labels``), type, subtype, tokens and status, in file order, and the header's signal types."""
    source = gum_dir / "rstweb"
    assert main(["convert", str(source), str(tmp_path / "out"), "--to", "rs4", *options]) == 0
    gum = get_label_map("gum")
    edges = signals = 0
    for path in sorted(source.glob("*.rs4")):
        want_edges, want_signals, want_sigtypes = xml_layer(read_text(path))
        if options:
            mapped = {edge: (*edge[:2], gum.map(edge[2])) for edge in want_edges}
            want_edges = [mapped[edge] for edge in want_edges]
            want_signals = [(mapped.get(on, on), *rest) for on, *rest in want_signals]  # type: ignore[call-overload]
        assert xml_layer(read_text(tmp_path / "out" / path.name)) == (want_edges, want_signals, want_sigtypes), path
        edges += len(want_edges)
        signals += len(want_signals)
    assert (len(list(source.glob("*.rs4"))), edges, signals) == (281, 1363, 40156)
