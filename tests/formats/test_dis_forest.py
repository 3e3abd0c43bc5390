"""The .dis reader's forest path (``_dis_direct.direct_forest``: many files at once into arrays, no tree)
reads a file exactly when the direct path builds its tree (and the tree has no one-child node), and then
gives that tree's nodes: each node's parent, nuclearity, first EDU, depth and relation in pre-order, and
the EDU texts. The expected values come from the direct path's tree, which tests/formats/test_dis_fast.py
checks against the lark grammar's."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rstkit.formats import read_text
from rstkit.formats._dis_direct import direct, direct_forest
from tests.formats.test_dis_fast import NASTY, dis_documents
from tests.support.forests import preorder_rows, split_texts


def expected(text: str) -> tuple[list[tuple], list[str]] | None:
    """What the forest path must give of one file: None where it must decline it."""
    built = direct(text)
    if built is None or any(len(node.children) == 1 for node in built[0].nodes()):
        return None
    return preorder_rows(built[0]), [edu.text for edu in built[1]]


def assert_forest_reads_as_the_direct_path(texts: list[str]) -> int:
    forest, edu_texts, read = direct_forest(texts)
    assert len(read) == len(texts) and len(edu_texts) == int(read.sum()) == len(forest.n_edus)
    node, t = 0, 0
    for text, is_read in zip(texts, read.tolist()):
        wanted = expected(text)
        assert is_read == (wanted is not None), text
        if wanted is None:
            continue
        nodes, edus = wanted
        got = []
        for i in range(node, node + len(nodes)):
            up = int(forest.parent[i])
            got.append((up - node if up >= 0 else -1, bool(forest.nucleus[i]), int(forest.first[i]),
                        int(forest.depth[i]), forest.labels[forest.relation[i]]))
        assert got == nodes and split_texts(edu_texts[t]) == edus and forest.n_edus[t] == len(edus)
        node, t = node + len(nodes), t + 1
    assert node == len(forest.parent)
    return t


@pytest.mark.slow  # GUM-wide
@pytest.mark.gum
@pytest.mark.parametrize("form", ["lisp_nary", "lisp_binary"])
def test_every_gum_file_at_once(gum_dir: Path, form: str):
    texts = [read_text(path) for path in sorted((gum_dir / form).glob("*.dis"))]
    assert assert_forest_reads_as_the_direct_path(texts) == len(texts) - 1  # its one wrong extent declined


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(dis_documents(), min_size=1, max_size=5))
def test_generated_files_at_once(documents):
    assert assert_forest_reads_as_the_direct_path([text for text, *_ in documents]) == len(documents)


#: what a mutation puts into a file, in place of up to 6 characters
INSERTS = ["", "(", ")", "_!", " ", "x", "(leaf 1)", "(span 1 2)", "(text _!", "\n", "Root", "Nucleus", ")\n)",
           "(rel2par x)", "1", "0"]


def mutated(batch: list, inserts: list[str] = INSERTS) -> list[str]:
    """Each drawn file with one of ``inserts`` put at a drawn place, in place of up to 6 characters."""
    texts = []
    for (text, *_), data in batch:
        cut = data.draw(st.integers(0, len(text)))
        width = data.draw(st.integers(0, 6))
        texts.append(text[:cut] + data.draw(st.sampled_from(inserts)) + text[cut + width:])
    return texts


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(dis_documents(bodies=NASTY), st.data()), min_size=1, max_size=4))
def test_mutated_files_among_others_are_declined_or_read_as_the_direct_path_reads_them(batch):
    assert_forest_reads_as_the_direct_path(mutated(batch))


@pytest.mark.parametrize("text", [
    "",
    "   \n",
    "( Root (leaf 1) (text _!a_!) )//TT_ERR",
    "( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!a_!) ) )",  # span 1 2 over one leaf
    "( Root (span 1 1) ( Nucleus (leaf 1) (rel2par span) (text _!a_!) ) )",  # one child
])
def test_declined_alone_and_among_others(text):
    good = "( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!a<P>_!) )" \
           " ( Satellite (leaf 2) (rel2par elaboration) (text _!b_!) ) )"
    forest, edu_texts, read = direct_forest([good, text, good])
    assert read.tolist() == [True, False, True] and list(map(split_texts, edu_texts)) == [["a", "b"], ["a", "b"]]
    assert forest.parent.tolist() == [-1, 0, 0, -1, 3, 3] and forest.first.tolist() == [1, 1, 2, 1, 1, 2]
    assert np.array_equal(direct_forest([text])[2], [False])
