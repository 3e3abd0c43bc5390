"""Processes reading an evaluation's .dis files for the dependency family prepare them from their texts, many
at once and without trees (:meth:`Preparer.from_texts`); what they make must be what :func:`prepare_document`
makes of the trees read from the same files, field for field and byte for byte, under every setting that
changes the rows. The expected values are the tree path's (``read_tree`` then ``prepare_document``), which
tests/metrics/test_eval_prepared.py and the dependency tests check independently."""
from __future__ import annotations

import pickle
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rstkit.corpus import read_tree
from rstkit.errors import RSTKitError
from rstkit.formats.dis import dumps_dis
from rstkit.metrics import EvalConfig
from rstkit.metrics.prepared import PreparationSpec, PreparedDocument, Preparer, prepare_document
from rstkit.tree import EDU, Node, RSTTree
from tests.support.strategies import rst_trees

#: EDU texts: brackets, a paragraph mark inside, whitespace the reader strips, non-ASCII letters
TEXTS = ["a", "a <P> b", "é (x) [y] _ !", "  spaced  ", "tab\tinside", "中文", ""]
#: relations the rstdt18 map knows, and one that no map knows
KNOWN = ["span", "List", "Sequence", "Contrast", "elaboration-additional", "attribution", "background", "purpose"]


def labelled(node: Node, draw) -> Node:
    relation = node.relation if node.relation is None else draw(st.sampled_from([*KNOWN, "no-such-label"]))
    return replace(node, relation=relation, children=tuple(labelled(kid, draw) for kid in node.children))


@st.composite
def files(draw) -> list[RSTTree]:
    trees = []
    for i in range(draw(st.integers(1, 4))):
        tree = draw(rst_trees(max_edus=10, max_arity=4, patterns=draw(st.sampled_from(["reference", "any"]))))
        edus = tuple(EDU(e.index, draw(st.sampled_from(TEXTS))) for e in tree.edus)
        trees.append(RSTTree(labelled(tree.root, draw), edus, f"doc{i}"))
    return trees


CONFIGS = [
    EvalConfig(metric="dependency"),
    EvalConfig(metric="dependency", compat="rst-eval", labels="rstdt18"),
    EvalConfig(metric="dependency", labels="rstdt18", unknown_labels="keep", dep_encoding="tree"),
    EvalConfig(metric="dependency", dep_encoding="tree,chain", labels="raw"),
]


def same_document(made: PreparedDocument, expected: PreparedDocument) -> None:
    made, expected = pickle.loads(pickle.dumps(made)), pickle.loads(pickle.dumps(expected))  # as processes send them
    assert (made.doc_id, made.source, made.n_edus, tuple(made.edu_texts), made.nary) == \
        (expected.doc_id, expected.source, expected.n_edus, tuple(expected.edu_texts), expected.nary)
    assert made.rows.keys() == expected.rows.keys()
    for metric, rows in made.rows.items():
        assert rows.packed == expected.rows[metric].packed  # type: ignore[union-attr]


def check(paths: list[Path], config: EvalConfig, gold: bool) -> int:
    """Compare every file ``from_texts`` makes with the tree path; the number it made."""
    spec = PreparationSpec((config,), gold)
    preparer = Preparer(spec)
    assert preparer.text_formats == {"dis"}
    made = preparer.from_texts(paths, [path.read_text(encoding="utf-8") for path in paths])
    for path, document in zip(paths, made):
        if document is None:
            continue
        expected = prepare_document(read_tree(path), spec)
        assert not any(isinstance(rows, RSTKitError) for rows in expected.rows.values()), path
        same_document(document, expected)
    return sum(document is not None for document in made)


@pytest.mark.slow  # hypothesis: files written, read both ways
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files(), st.sampled_from(CONFIGS), st.booleans())
def test_generated_files_prepared_from_their_texts_as_from_their_trees(trees, config, gold):
    with tempfile.TemporaryDirectory() as folder:
        made, expected = prepared_both_ways(Path(folder), trees, config, gold)
    assert made == expected


def prepared_both_ways(folder: Path, trees: list[RSTTree], config: EvalConfig, gold: bool) -> tuple[int, int]:
    """(files made from their texts, files whose trees the configuration does not refuse)."""
    paths = []
    for tree in trees:
        path = folder / f"{tree.doc_id}.dis"
        path.write_text(dumps_dis(tree), encoding="utf-8")
        paths.append(path)
    made = check(paths, config, gold)
    # a file is declined only where the tree path refuses the tree under this configuration
    refused = 0
    for path in paths:
        rows = prepare_document(read_tree(path), PreparationSpec((config,), gold)).rows["dependency"]
        refused += isinstance(rows, RSTKitError)
    return made, len(paths) - refused


@pytest.mark.slow  # GUM-wide
@pytest.mark.gum
@pytest.mark.parametrize("form", ["lisp_nary", "lisp_binary"])
@pytest.mark.parametrize("config", [
    EvalConfig(metric="dependency", labels="gum"),
    EvalConfig(metric="dependency", labels="gum", dep_encoding="tree", compat="rst-eval")])
def test_every_gum_file_prepared_from_its_text_as_from_its_tree(gum_dir, form, config):
    paths = sorted((gum_dir / form).glob("*.dis"))
    assert check(paths, config, gold=True) >= len(paths) - 2  # the one wrong extent; chain's one refusal


def test_under_a_binarization_trees_are_needed():
    binarized = EvalConfig(metric="dependency", binarize="right")
    assert Preparer(PreparationSpec((binarized,), True)).text_formats == frozenset()
    parseval = EvalConfig(metric="parseval")
    assert Preparer(PreparationSpec((EvalConfig(metric="dependency"), parseval), True)).text_formats == frozenset()
