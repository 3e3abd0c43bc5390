"""GUM's four forms of the same trees agree: rstweb/*.rs4, lisp_nary/*.dis, dependencies/*.rsd.

Documented exceptions (evidence in the assertions):

* ``GENTLE_syllabus_techtonica``: the one satellite in GUM attached to a multinuclear
  group that is itself a multinuclear nucleus (not the ``span`` child of a span group).
  rs3 reading makes a span node over the multinuclear node; GUM's dis export flattens both
  into one ``S N...N`` node whose declared extent ``(span 49 266)`` is that of the
  multinuclear group alone. The ``.rsd`` file agrees with the rs4 reading.
* EDU texts: a few tokens differ between GUM's forms (masked reddit tokens, corrected
  typos), listed in ``TEXT_DIFFERENCES``.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from itertools import pairwise

import pytest

from rstkit.corpus import gum_corpus
from rstkit.errors import TreeStructureError
from rstkit.formats import read_text
from rstkit.formats.dis import loads_dis
from rstkit.formats.rs3 import dumps_rs3, loads_rs3
from rstkit.formats.rsd import dumps_rsd, read_rsd
from rstkit.tree import Node
from tests.support.expected_warnings import GUM_EXTENT_QUIRK, warns_exactly

pytestmark = pytest.mark.gum

QUIRK = "GENTLE_syllabus_techtonica"
#: EDUs whose text differs from lisp_nary, per form
TEXT_DIFFERENCES = {
    "rs4": {"GUM_conversation_artist": [11], "GUM_court_property": [90, 180], "GUM_reddit_bobby": [55],
            "GUM_reddit_callout": [9, 135], "GUM_reddit_conspiracy": [156, 158], "GUM_reddit_escape": [42],
            "GUM_reddit_gender": [28], "GUM_reddit_ring": [55], "GUM_reddit_stroke": [39, 138]},
    "rsd": {"GUM_conversation_artist": [11], "GUM_court_property": [90, 180]},
}


@pytest.fixture(scope="module")
def forms(gum_dir):
    """{form: {doc_id: tree}} for dis (lisp_nary), rs4 and rsd."""
    with warns_exactly({GUM_EXTENT_QUIRK: 1}):
        dis = gum_corpus(gum_dir, "dis").documents(lenient=True)
    return {"dis": dis, "rs4": gum_corpus(gum_dir, "rs4").documents(), "rsd": gum_corpus(gum_dir, "rsd").documents()}


@pytest.mark.slow  # GUM-wide
def test_every_form_has_every_document_with_the_same_edus(forms):
    ids = set(forms["dis"])
    assert len(ids) == 281
    for form in ("rs4", "rsd"):
        assert set(forms[form]) == ids
        assert all(forms[form][d].n_edus == forms["dis"][d].n_edus for d in ids)
    assert sum(t.n_edus for t in forms["rs4"].values()) == 35144


def test_rs4_gives_the_lisp_nary_tree_except_the_documented_quirk(forms):
    different = sorted(d for d in forms["dis"] if forms["rs4"][d].root != forms["dis"][d].root)
    assert different == [QUIRK]
    rs4, dis = forms["rs4"][QUIRK].root, forms["dis"][QUIRK].root
    extra = {n.span for n in rs4.nodes()} - {n.span for n in dis.nodes()}
    assert extra == {(49, 266)} and not {n.span for n in dis.nodes()} - {n.span for n in rs4.nodes()}
    parent = next(n for n in rs4.nodes() if n.span == (22, 266))
    inner = parent.children[1]
    assert parent.pattern() == "SN" and inner.span == (49, 266) and inner.relation == "span"
    assert inner.is_multinuclear and parent.relation == "joint-other"
    assert _splice(rs4, inner) == dis


def test_the_quirk_is_visible_in_the_dis_file(gum_dir):
    """GUM's dis declares the flattened node with the multinuclear group's own extent."""
    path = gum_dir / "lisp_nary" / f"{QUIRK}.dis"
    with pytest.raises(TreeStructureError, match=r"declares \(span 49 266\) over children covering 22-266"):
        loads_dis(read_text(path), path)


def _splice(root: Node, inner: Node) -> Node:
    """``root`` with ``inner``'s children put in its place."""
    def rebuild(node: Node) -> Node:
        children = []
        for child in node.children:
            children.extend(child.children if child is inner else [rebuild(child)])
        return Node(node.start, node.end, node.nuclearity, node.relation, tuple(children))
    return rebuild(root)


@pytest.mark.parametrize("form", ["rs4", "rsd"])
def test_edu_texts_agree_with_lisp_nary_except_listed_tokens(forms, form):
    differences = {}
    for doc_id, tree in forms[form].items():
        edus = [i for i, (a, b) in enumerate(zip(tree.edu_texts(), forms["dis"][doc_id].edu_texts()), 1) if a != b]
        if edus:
            differences[doc_id] = edus
    assert differences == TEXT_DIFFERENCES[form]


def test_rsd_gives_the_rs4_tree_for_every_document(forms):
    assert all(forms["rsd"][d].root == forms["rs4"][d].root for d in forms["rs4"])


def test_rsd_carries_sentences_and_paragraphs(forms):
    with_paragraphs = 0
    for doc_id, tree in forms["rsd"].items():
        sentences = [e.sentence for e in tree.edus]
        assert sentences[0] == 1 and all(0 <= b - a <= 1 for a, b in pairwise(sentences)), doc_id
        paragraphs = [e.paragraph for e in tree.edus]
        if paragraphs[0] is None:
            assert set(paragraphs) == {None}
            continue
        with_paragraphs += 1
        assert paragraphs[0] == 1 and all(0 <= b - a <= 1 for a, b in pairwise(paragraphs)), doc_id
        inside = [i for i in range(1, tree.n_edus) if paragraphs[i] != paragraphs[i - 1]
                  and sentences[i] == sentences[i - 1]]
        # paragraphs start with sentences, except inline list items in one document
        assert not inside or (doc_id == "GUM_voyage_cleveland" and len(inside) == 5), (doc_id, inside)
    assert with_paragraphs == 232  # the other 49 (conversations, vlogs, ...) have no layout marks


def test_rsd_files_are_written_back_verbatim(gum_dir, forms):
    """Heads, relations and heights recomputed from the tree; other columns kept."""
    for doc_id, tree in forms["rsd"].items():
        original = read_text(gum_dir / "dependencies" / f"{doc_id}.rsd")
        assert dumps_rsd(tree) == original.rstrip("\n") + "\n", doc_id


@pytest.mark.slow  # GUM-wide
def test_rs4_trees_write_and_read_back_as_rs3(forms):
    for doc_id, tree in forms["rs4"].items():
        back = loads_rs3(dumps_rs3(tree))
        assert back.root == tree.root and back.edu_texts() == tree.edu_texts(), doc_id


def test_rsd_without_heights_is_close_to_the_annotated_trees(gum_dir, forms):
    """Measure the fallback attachment order (nearest first, right side first) on GUM."""
    gold_spans = found = correct = exact = 0
    for doc_id, gold in forms["rs4"].items():
        [guess] = read_rsd(gum_dir / "dependencies" / f"{doc_id}.rsd", heights=False)
        gold_set = {n.span for n in gold.internal_nodes()}
        guess_set = {n.span for n in guess.internal_nodes()}
        gold_spans += len(gold_set)
        found += len(guess_set)
        correct += len(gold_set & guess_set)
        exact += guess.root == gold.root
    recall, precision = correct / gold_spans, correct / found
    print(f"rsd without heights: span recall {recall:.4f}, precision {precision:.4f}, exact trees {exact}/281")
    assert 0.85 < recall < 1 and 0.85 < precision < 1 and exact < 281


@pytest.mark.slow  # GUM-wide
@pytest.mark.parametrize("folder", ["rstweb", "dependencies"])
def test_cli_stats(gum_dir, folder):
    command = [shutil.which("rstkit")] if shutil.which("rstkit") else [sys.executable, "-m", "rstkit"]
    result = subprocess.run(command + ["stats", str(gum_dir / folder), "--format", "json"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    stats = json.loads(result.stdout)
    assert (stats["documents"], stats["edus"], stats["errors"]) == (281, 35144, [])
