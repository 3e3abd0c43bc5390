"""``edus="aligned"``: properties (hypothesis) and a long document.

* Over the same EDUs, aligned scoring gives exactly gold-EDU scoring's numbers, for every
  metric, average and label map, under rst-eval compatibility too.
* Over different segmentations of one text, it agrees with an independent computation: binary
  trees' tuples read off their nodes here (docs/evaluation.md#marcus-encoding, #attachment-decisions), spans mapped to
  characters by plain string arithmetic, counted and averaged by tests/support/oracle.py's ``score``;
  boundary sets for the segmentation.
* A document of a million characters keeps the 64-bit key radix at the number of EDU boundaries.
"""
from __future__ import annotations

import re
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.errors import RSTKitError
from rstkit.labels import label_map_names
from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics.registry import METRICS
from rstkit.settings import AVERAGES
from rstkit.tree import EDU, Node, RSTTree
from tests.support import oracle
from tests.support.strategies import rst_trees, tree_pairs

WORDS = st.text(alphabet="abcdefgh.,()", min_size=1, max_size=6)  # no quotes: '' is an escape


def with_texts(tree: RSTTree, texts: list[str], doc_id: str) -> RSTTree:
    return RSTTree(tree.root, tuple(EDU(i, text) for i, text in enumerate(texts, start=1)), doc_id)


@st.composite
def same_edu_corpora(draw):
    """Gold (n-ary, patterns the reference binarizes) and a binary prediction over the same EDUs, whose
    texts are tokenised differently (spaces inserted), for 1 to 4 documents."""
    gold, pred = {}, {}
    for d in range(draw(st.integers(1, 4))):
        g, p = draw(tree_pairs(max_edus=10))
        texts = [draw(WORDS) for _ in range(g.n_edus)]
        spaced = [" ".join(text) for text in texts]
        gold[f"d{d}"], pred[f"d{d}"] = with_texts(g, texts, f"d{d}"), with_texts(p, spaced, f"d{d}")
    return gold, pred


def configs(compat: str | None, binarize_mode: str):
    for metric in METRICS:
        for average in AVERAGES:
            for labels in label_map_names():
                settings = {"metric": metric, "average": average, "labels": labels, "unknown_labels": "keep",
                            "binarize": binarize_mode}
                if compat:
                    yield EvalConfig(compat="rst-eval", **settings)
                else:
                    yield EvalConfig(**settings)


@pytest.mark.slow  # hypothesis: 40 corpora
@pytest.mark.filterwarnings("ignore::rstkit.errors.RSTKitWarning")  # generated corpora: notes of any kind
@settings(max_examples=40, deadline=None)
@given(same_edu_corpora(), st.sampled_from([None, "rst-eval"]), st.sampled_from(["right", "right_mixed"]))
def test_aligned_equals_gold_over_the_same_edus(corpus, compat, binarize_mode):
    gold, pred = corpus
    systems = [pred, gold]  # two systems: the renumbering spans three sides
    for config in configs(compat, binarize_mode):
        try:
            expected = score_documents(gold, systems, config)
        except RSTKitError as error:  # e.g. a node right_mixed leaves n-ary, for attachments: the same error
            with pytest.raises(type(error), match=re.escape(error.message)):
                score_documents(gold, systems, config.replace(edus="aligned"))
            continue
        got = score_documents(gold, systems, config.replace(edus="aligned"))
        for e, g in zip(expected.systems, got.systems):
            assert g.scores == e.scores, config  # exactly, every float
            assert (g.counts.matched == e.counts.matched).all() and (g.counts.gold == e.counts.gold).all()
            assert (g.counts.pred == e.counts.pred).all()
        assert got.relations().rows() == expected.relations().rows()
        seg = got.segmentation()
        n = sum(t.n_edus for t in gold.values())
        assert (seg["gold"], seg["pred"], seg["matched"], seg["f1"]) == (n, n, n, 100.0)


# -- different segmentations against an independent computation -------------------------------------------
@st.composite
def segmented_documents(draw, doc_id: str):
    """One text cut into EDUs twice (gold and prediction), a random binary tree over each (binary, so
    that no binarization stands between the trees and the expected tuples)."""
    text = draw(st.text(alphabet="abc", min_size=1, max_size=30))

    def cut() -> list[str]:
        cuts = sorted(draw(st.sets(st.integers(1, len(text) - 1), max_size=len(text) - 1))) if len(text) > 1 else []
        bounds = [0, *cuts, len(text)]
        return [text[a:b] for a, b in pairwise(bounds)]

    gold_texts, pred_texts = cut(), cut()
    gold = draw(rst_trees(min_edus=len(gold_texts), max_edus=len(gold_texts), patterns="binary"))
    pred = draw(rst_trees(min_edus=len(pred_texts), max_edus=len(pred_texts), patterns="binary"))
    pred_texts = [f" {piece[:1]} {piece[1:]}\t" for piece in pred_texts]  # whitespace does not count
    return with_texts(gold, gold_texts, doc_id), with_texts(pred, pred_texts, doc_id)


def character_spans(tree: RSTTree) -> dict[int, tuple[int, int]]:
    """EDU number -> (first, last) character offset, by plain string arithmetic."""
    spans, at = {}, 0
    for edu in tree.edus:
        width = len("".join(edu.text.split()))
        spans[edu.index] = (at, at + width - 1)
        at += width
    return spans


def character_tuples(tree: RSTTree, metric: str) -> list[tuple]:
    """The tuples of a binary tree on character spans: every node but the root (Marcu's encoding), or
    every internal node with its children's nuclearities and the satellite's (else the left) relation."""
    spans = character_spans(tree)
    nodes = list(tree.root.nodes())
    if metric == "rst-parseval":
        rows = [(n.start, n.end, n.nuclearity, n.relation) for n in nodes if n is not tree.root]
    else:
        rows = [(n.start, n.end, n.children[0].nuclearity + n.children[1].nuclearity,
                 n.children[1].relation if n.children[1].nuclearity == "S" else n.children[0].relation)
                for n in nodes if n.children]
    return [(spans[start][0], spans[end][1], nuc, rel) for start, end, nuc, rel in rows]


@pytest.mark.filterwarnings("ignore::rstkit.errors.RSTKitWarning")  # generated documents: notes of any kind
@settings(max_examples=80, deadline=None)
@given(st.integers(1, 5).flatmap(lambda k: st.tuples(*(segmented_documents(f"d{i}") for i in range(k)))))
def test_aligned_agrees_with_an_independent_computation(documents):
    gold = {g.doc_id: g for g, _ in documents}
    pred = {p.doc_id: p for _, p in documents}
    for metric in ("rst-parseval", "parseval"):  # the oracle's metrics (dependencies: test_dependency_scores.py)
        g = [character_tuples(t, metric) for t in gold.values()]
        p = [character_tuples(t, metric) for t in pred.values()]
        for average in AVERAGES:
            result = score_documents(gold, pred, EvalConfig(metric=metric, average=average, edus="aligned"))
            assert result.scores == pytest.approx(oracle.score(g, p, average), abs=1e-9)
    starts = [({s for s, _ in character_spans(gt).values()}, {s for s, _ in character_spans(pt).values()})
              for gt, pt in documents]
    seg = result.segmentation()
    assert seg["gold"] == sum(len(a) for a, _ in starts) and seg["pred"] == sum(len(b) for _, b in starts)
    assert seg["matched"] == sum(len(a & b) for a, b in starts)


# -- a long document ---------------------------------------------------------------------------------------
def balanced(start: int, end: int, nuclearity: str, relation: str | None, leaf=None) -> Node:
    """Balanced binary tree over EDUs start..end (N span on the left, S elaboration on the right);
    ``leaf(i, nuclearity, relation)`` builds what stands for EDU i."""
    if start == end:
        return leaf(start, nuclearity, relation) if leaf else Node(start, end, nuclearity, relation)
    mid = (start + end) // 2
    left = balanced(start, mid, "N", "span", leaf)
    right = balanced(mid + 1, end, "S", "elaboration", leaf)
    return Node(left.start, right.end, nuclearity, relation, (left, right))


def test_a_million_characters_keep_the_keys_small():
    """n = 2000 gold EDUs of 500 characters; the prediction splits every EDU in two halves joined under
    the gold leaf's labels (N span + S purpose). By hand: every gold tuple is predicted (a gold leaf
    (first, last) is the predicted node over its halves, same labels); RST-Parseval: 2n - 2 = 3998 gold,
    4n - 2 = 7998 predicted, 3998 matched; attachments: n - 1 = 1999 gold, 2n - 1 = 3999 predicted,
    1999 matched; segmentation: gold n, predicted 2n, matched n."""
    n, width = 2000, 500
    texts = [f"{i:05d}" + "x" * (width - 5) for i in range(n)]
    gold = RSTTree(balanced(1, n, "Root", None), tuple(EDU(i + 1, t) for i, t in enumerate(texts)), "long")

    def split_leaf(i: int, nuclearity: str, relation: str | None) -> Node:
        halves = (Node(2 * i - 1, 2 * i - 1, "N", "span"), Node(2 * i, 2 * i, "S", "purpose"))
        return Node(2 * i - 1, 2 * i, nuclearity, relation, halves)

    halves = [piece for t in texts for piece in (t[:width // 2], t[width // 2:])]
    pred = RSTTree(balanced(1, n, "Root", None, split_leaf), tuple(EDU(i + 1, t) for i, t in enumerate(halves)),
                   "long")
    for metric, counts in (("rst-parseval", (3998, 3998, 7998)), ("parseval", (1999, 1999, 3999))):
        result = score_documents({"long": gold}, {"long": pred}, EvalConfig(metric=metric, edus="aligned"))
        c = result.systems[0].counts
        assert (c.matched[:, 0] == counts[0]).all() and (c.gold[:, 0] == counts[1]).all()
        assert (c.pred[:, 0] == counts[2]).all()
        # distinct span endpoints: at most the 2n predicted starts and 2n predicted ends (the gold's are among
        # them), not the 10**6 character offsets
        assert result.codec.edu_base <= 4 * n + 1
        seg = result.segmentation()
        assert (seg["gold"], seg["pred"], seg["matched"]) == (n, 2 * n, n)
