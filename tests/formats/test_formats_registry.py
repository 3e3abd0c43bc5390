"""Conformance of every registered format: samples, round trips, detection, bad input."""
from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rstkit.corpus import read_documents, read_file, read_tree
from rstkit.errors import FormatError, RSTKitError, RSTKitWarning
from rstkit.formats import all_formats, get_format
from rstkit.formats.build import canonical_relations
from rstkit.formats.detect import detect_format
from rstkit.tree import EDU, ROOT, Node, RSTTree
from tests.support.expected_warnings import warns_exactly
from tests.support.format_files import RENDERABLE, TEXTLESS, render

PROJECT = Path(__file__).resolve().parents[1].parent
PARSERS = PROJECT / "parsers"
REFERENCE = {d: read_tree(PROJECT / "tests" / "data" / "formats" / f"{d}.dis") for d in ("council", "weather")}

#: parser format -> (sample under parsers/, read options, documents it holds)
SAMPLES = {
    "hilda": ("hilda/council.out.dis", {}, ["council"]),
    "surdeanu": ("surdeanu/log", {}, ["council", "weather"]),
    "surdeanu_native": ("surdeanu/council.dtree", {}, ["council"]),
    "codra": ("codra/council.doc_dis", {}, ["council"]),
    "feng": ("feng/council.out.tree", {}, ["council"]),
    "feng_dis": ("feng/council.txt.dis", {}, ["council"]),
    "braud_coling": ("braud_coling", {"doc_map": PARSERS / "braud_coling" / "doc_map.tsv"}, ["council", "weather"]),
    "li_qi": ("li_qi/parsed_council.out", {}, ["council"]),
    "braud_eacl": ("braud_eacl/test_it8_beam16", {"doc_map": PARSERS / "braud_eacl" / "doc_ids.txt"},
                   ["council", "weather"]),
    "dplp": ("dplp/council.out.brackets", {}, ["council"]),
    "dmrst": ("dmrst/council.dmrst", {}, ["council"]),
    "isanlp": ("isanlp/council.rs3", {}, ["council"]),
    "hilda_orig": ("hilda_orig/council.parsetree", {}, ["council"]),
}
#: the formats rstkit reads that are corpus formats, not parser output (their own tests cover samples)
CORPUS_FORMATS = {"dis", "rs3", "rs4", "rsd"}


def test_every_registered_format_is_covered():
    """A new format needs a sample here (parser output) or is a corpus format."""
    assert set(all_formats()) <= set(SAMPLES) | CORPUS_FORMATS
    assert set(SAMPLES) <= set(all_formats())


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_sample_reads_as_the_reference_trees(key):
    path, options, expected = SAMPLES[key]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RSTKitWarning)  # a sample needs no repair
        documents = read_documents(PARSERS / path, format=key, **options)
    assert list(documents) == expected
    for doc_id, tree in documents.items():
        reference = REFERENCE[doc_id]
        assert tree.root == canonical_relations(reference.root)
        if key not in TEXTLESS:
            assert tree.edu_texts() == reference.edu_texts()


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_sample_is_detected(key):
    assert detect_format(PARSERS / SAMPLES[key][0]) == key


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_sample_has_a_readme_naming_the_format(key):
    readme = PARSERS / SAMPLES[key][0].split("/")[0] / "README.md"
    assert f"`{key}`" in readme.read_text(encoding="utf-8")


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_sample_round_trips(tmp_path, key):
    path, options, _ = SAMPLES[key]
    documents = read_documents(PARSERS / path, format=key, **options)
    out, out_options = render(key, list(documents.values()), tmp_path)
    again = read_documents(out, format=key, **out_options)
    assert {d: t.root for d, t in again.items()} == {d: t.root for d, t in documents.items()}
    assert {d: t.edu_texts() for d, t in again.items()} == {d: t.edu_texts() for d, t in documents.items()}


@pytest.mark.parametrize("key", sorted(all_formats()))
def test_garbage_is_a_typed_error_naming_the_file(tmp_path, key):
    path = tmp_path / "garbage"
    path.write_text("hello world\n(((\n", encoding="utf-8")
    with warns_exactly({}), pytest.raises(RSTKitError) as info:
        read_file(path, key, doc_map=["a"] if "doc_map" in get_format(key).options else None)
    assert info.value.path == str(path)


# -- random binary trees through every writer ----------------------------------------------------
MONO = ["attribution", "background", "cause", "condition", "elaboration", "enablement", "evaluation",
        "explanation", "manner-means", "topic-comment", "summary", "temporal", "elaboration-additional",
        "evaluation-s"]
MULTI = ["joint", "contrast", "same-unit", "textual-organization", "topic-change", "comparison", "list"]
WORDS = st.text(alphabet="abcXYZ09 ,.()\"'&<>:-", max_size=14).map(lambda s: " ".join(s.split()))


@st.composite
def binary_trees(draw) -> RSTTree:
    n = draw(st.integers(1, 9))

    def build(start: int, end: int, nuclearity: str, relation: str | None) -> Node:
        if start == end:
            return Node(start, end, nuclearity, relation)
        cut = draw(st.integers(start, end - 1))
        pair = draw(st.sampled_from(["NS", "SN", "NN"]))
        relation_of = draw(st.sampled_from(MULTI if pair == "NN" else MONO))
        kids = [build(a, b, code, relation_of if code == "S" or pair == "NN" else "span")
                for (a, b), code in zip(((start, cut), (cut + 1, end)), pair)]
        return Node(start, end, nuclearity, relation, tuple(kids))

    edus = tuple(EDU(i, draw(WORDS)) for i in range(1, n + 1))
    return RSTTree(build(1, n, ROOT, None), edus, draw(st.sampled_from(["doc_a", "wsj_0602", "x"])))


@pytest.mark.parametrize("key", RENDERABLE)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(trees=st.lists(binary_trees(), min_size=1, max_size=3, unique_by=lambda t: t.doc_id))
def test_random_binary_trees_round_trip(key, trees):
    with tempfile.TemporaryDirectory() as tmp, warns_exactly({}):
        out, options = render(key, trees, Path(tmp))
        again = read_documents(out, format=key, **options)
    expected = {t.doc_id: t for t in trees}
    assert sorted(again) == sorted(expected)
    for doc_id, tree in again.items():
        assert canonical_relations(tree.root) == canonical_relations(expected[doc_id].root)
        if key not in TEXTLESS:
            assert tree.edu_texts() == expected[doc_id].edu_texts()


# -- no input crashes a reader ---------------------------------------------------------------------
PIECES = ["(", ")", " ", "\n", "  ", "Root", "ROOT", "Nucleus", "Satellite", ":", "span", "leaf", "leaf1_1_1", "1",
          "2", "0", ",", "'", '"', "[N]", "[S]", "Elaboration", "NS", "SN", "NN", "-", "EDU", "TEXT:", "_!", "!_",
          "(rel2par", "(text", "(span", "(leaf", "=", "NONE", "ParseTree", "[", "]", "(LeftToRight)",
          "Documents\n", "end Documents\n", "System tree:\n", "<rst>", "<segment id='1'>", "</segment>", "<P>",
          "\\", "\t", "#"]


@pytest.mark.parametrize("key", sorted(SAMPLES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_arbitrary_input_reads_or_raises_an_rstkit_error(key, text):
    with tempfile.TemporaryDirectory() as tmp, warns_exactly({}):
        path = Path(tmp) / "0.mrg.pred"
        path.write_text(text, encoding="utf-8")
        try:
            trees = read_file(path, key, doc_map=["a", "b", "c"] if "doc_map" in get_format(key).options else None)
        except RSTKitError as exc:
            assert exc.path is not None
        else:
            assert all(t.n_edus >= 1 for t in trees)
        try:
            assert detect_format(path) in all_formats()
        except FormatError as exc:
            assert "format" in exc.message
