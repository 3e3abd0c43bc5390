"""Label maps: rstdt18 exactly as educe's table, gum classes, raw identity, unknown labels."""
from __future__ import annotations

import pytest

from rstkit.errors import LabelError
from rstkit.formats.dis import loads_dis
from rstkit.labels import RSTDT18_CLASSES, canonical_label, get_label_map


def test_rstdt18_table_has_the_reference_entries():
    m = get_label_map("rstdt18")
    assert len([k for k in m.table if k not in RSTDT18_CLASSES]) >= 90
    for fine, coarse in [("Elaboration-Additional-E", "elaboration"), ("comment", "evaluation"),
                         ("TextualOrganization", "textual"), ("Same-Unit", "same-unit"), ("List", "joint"),
                         ("attribution-n", "attribution"), ("topic-drift", "topic-change"), ("cause", "cause"),
                         ("Comparison", "comparison"), ("problem-solution-n", "topic-comment"), ("span", "span")]:
        assert m.map(fine) == fine if fine == "span" else m.map(fine) == coarse


@pytest.mark.parametrize("spelling, expected", [
    ("textual-organization", "textual"), ("Textual", "textual"), ("sameunit", "same-unit"),
    ("same_unit", "same-unit"), ("Same-unit", "same-unit"), ("topicchange", "topic-change"),
    ("TopicComment", "topic-comment"), ("manner_means", "manner-means"), ("ELABORATION", "elaboration"),
])
def test_rstdt18_accepts_class_names_and_aliases(spelling, expected):
    assert get_label_map("rstdt18").map(spelling) == expected


def test_unknown_label_error_names_label_file_and_map():
    tree = loads_dis("( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!a_!) )\n"
                     "( Satellite (leaf 2) (rel2par joint-list) (text _!b_!) ) )", path="doc.dis")
    with pytest.raises(LabelError, match=r"doc.dis:2: relation label 'joint-list' is unknown to label map 'rstdt18'"):
        get_label_map("rstdt18").apply(tree)
    kept = get_label_map("rstdt18").apply(tree, unknown_labels="keep")
    assert kept.root.children[1].relation == "joint-list"


def test_gum_classes():
    m = get_label_map("gum")
    assert m.map("elaboration-additional") == "elaboration"
    assert m.map("same-unit") == "same-unit"
    assert m.map("joint") == "joint"
    with pytest.raises(LabelError, match="'gum'"):
        m.map("Elaboration-Object-Attribute-E")


def test_raw_is_identity_and_case_sensitive():
    m = get_label_map("raw")
    assert m.map("List") == "List" and m.map("list") == "list"


def test_canonical_label():
    assert canonical_label(" Same_Unit ") == "same-unit"
    assert canonical_label("textualorganization") == "textual-organization"
    assert canonical_label("Elaboration-Additional-e") == "elaboration-additional-e"


def test_every_gum_label_is_known(gum_nary):
    docs = gum_nary
    m = get_label_map("gum")
    labels = {n.relation for t in docs.values() for n in t.nodes() if n.relation}
    assert all(m.lookup(label) is not None for label in labels)
    assert {m.map(label) for label in labels} - {"span"} <= set(m.table.values())
