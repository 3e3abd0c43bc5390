"""A prediction set rendered in every parser format scores exactly like its .dis form (on GUM).

Gold: GUM test documents with their relations mapped onto RST-DT class names (so that the
formats' own spellings of multi-word classes are exercised). Predictions: the gold trees
right-binarized, then perturbed (relations, nuclearity, rotations), written in each
format with rstkit's writers, read back with the format's reader and scored.
"""
from __future__ import annotations

import random
import warnings
from dataclasses import replace

import pytest

from rstkit.corpus import gum_corpus, read_documents
from rstkit.errors import RSTKitWarning, TreeStructureError
from rstkit.formats import get_format
from rstkit.labels import RSTDT18_CANONICAL as RSTDT_CLASSES
from rstkit.labels import gum_class
from rstkit.metrics import EvalConfig, score_documents
from rstkit.transform import Attachment, AttachmentTree, binarize, from_attachment, to_attachment
from rstkit.tree import SPAN, Node
from tests.support.expected_warnings import warns_exactly
from tests.support.format_files import RENDERABLE, render

PART_A = ["dis", "hilda", "surdeanu", "codra", "feng", "braud_coling", "li_qi", "braud_eacl", "dplp"]
PART_B = ["dmrst", "isanlp", "surdeanu_native", "feng_dis", "hilda_orig"]
#: GUM classes onto RST-DT class names (a relabelling for the test, not a linguistic mapping)
GUM_TO_RSTDT = {"adversative": "contrast", "attribution": "attribution", "causal": "cause", "context": "background",
                "contingency": "condition", "elaboration": "elaboration", "evaluation": "evaluation",
                "explanation": "explanation", "joint": "joint", "mode": "manner-means",
                "organization": "textual-organization", "purpose": "enablement", "restatement": "summary",
                "topic": "topic-comment", "same-unit": "same-unit"}
N_DOCUMENTS = 12
pytestmark = pytest.mark.gum
CONFIGS = [EvalConfig(metric="rst-parseval", labels="rstdt18"),
           EvalConfig(metric="parseval", average="macro", labels="rstdt18"),
           EvalConfig(metric="parseval", average="dplp", labels="raw")]


def _relabel(node: Node) -> Node:
    relation = node.relation
    if relation not in (None, SPAN):
        relation = GUM_TO_RSTDT[gum_class(relation)]
    return replace(node, relation=relation, children=tuple(_relabel(c) for c in node.children))


def _perturb(att: Attachment, rng: random.Random) -> Attachment:
    if att.is_leaf:
        return att
    left, right = (_perturb(c, rng) for c in att.children)
    pair, relation = att.pair, att.relation
    if rng.random() < 0.2:
        relation = rng.choice(RSTDT_CLASSES)
    if rng.random() < 0.15:
        pair = rng.choice(["NS", "SN", "NN"])
    if rng.random() < 0.15 and not right.is_leaf:  # rotate (A, (B, C)) into ((A, B), C)
        b, c = right.children
        inner = Attachment(left.start, b.end, right.pair, right.relation, (left, b))
        return Attachment(att.start, att.end, pair, relation, (inner, c))
    return Attachment(att.start, att.end, pair, relation, (left, right))


@pytest.fixture(scope="module")
def gum_sets(gum_dir):
    corpus = gum_corpus(gum_dir, "dis")
    with warns_exactly({}):
        gold = {d: t.with_root(_relabel(t.root)) for d, t in
                list(corpus.documents("test", lenient=True).items())[:N_DOCUMENTS]}
    rng = random.Random(2017)
    pred = {}
    for doc_id, tree in gold.items():
        att = to_attachment(binarize(tree, "right"))
        pred[doc_id] = from_attachment(AttachmentTree(_perturb(att.root, rng), tree.edus, doc_id))
    return gold, pred


def _read_rendered(key: str, trees: list, directory) -> dict:
    path, options = render(key, trees, directory)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RSTKitWarning)  # nothing may be dropped or repaired
        return read_documents(path, format=key, **options)


def _expressible(key: str, pred: dict) -> dict:
    """The predictions format ``key`` can hold: isanlp refuses a satellite named like the
    multinuclear node it attaches to (it would read back as a nucleus); others hold all."""
    if key != "isanlp":
        return pred
    kept = {}
    for doc_id, tree in pred.items():
        try:
            get_format(key).write(tree)
        except TreeStructureError:
            continue
        kept[doc_id] = tree
    assert len(kept) >= len(pred) // 2
    return kept


@pytest.fixture(scope="module")
def as_dis(gum_sets, tmp_path_factory):
    """The predictions written as .dis and read back: the reference every format must equal."""
    return _read_rendered("dis", list(gum_sets[1].values()), tmp_path_factory.mktemp("reference"))


def test_predictions_are_not_trivial(gum_sets, as_dis):
    gold, pred = gum_sets
    assert len(pred) == N_DOCUMENTS and sum(t.n_edus for t in gold.values()) > 500
    assert {d: t.root for d, t in as_dis.items()} == {d: t.root for d, t in pred.items()}
    for config in CONFIGS:
        assert all(0 < score < 100 for score in score_documents(gold, as_dis, config).scores.values())


@pytest.mark.parametrize("key", PART_A + PART_B)
def test_every_format_scores_like_dis(gum_sets, as_dis, tmp_path, key):
    assert key in RENDERABLE
    gold, pred = gum_sets
    pred = _expressible(key, pred)
    gold, as_dis = {d: gold[d] for d in pred}, {d: as_dis[d] for d in pred}
    read_back = _read_rendered(key, list(pred.values()), tmp_path / key)
    assert {d: t.root for d, t in read_back.items()} == {d: t.root for d, t in pred.items()}
    for config in CONFIGS:
        assert score_documents(gold, read_back, config).scores == score_documents(gold, as_dis, config).scores


def test_relabelled_gold_uses_multi_word_classes(gum_sets):
    gold, _ = gum_sets
    used = {n.relation for t in gold.values() for n in t.nodes()}
    assert {"same-unit", "textual-organization", "manner-means"} <= used

