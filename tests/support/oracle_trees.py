"""Random RST trees for the oracle tests, built as oracle trees (tests/support/oracle.py) and handed to
rstkit as .dis text (or, for bulk corpora, through rstkit's public Node constructor).

One generator serves hypothesis (``draw``-backed choices) and seeded ``random.Random`` corpora.
Label inventories come from evaluation.md section 3 (RST-DT) and GUM's relation list.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from tests.support import oracle
from tests.support.oracle import T

#: RST-DT mononuclear fine labels (and class names, which map to themselves), mixed case as in the corpus
RSTDT_MONO = ["elaboration-additional", "attribution", "circumstance", "concession", "purpose", "comparison",
              "evaluation-s", "consequence-n", "background", "condition", "example", "antithesis", "cause",
              "interpretation-s-e", "topic-shift", "manner", "elaboration-object-attribute-e", "summary-n"]
#: RST-DT multinuclear labels (capitalized; `Comparison` and `comparison` merge when lowercased)
RSTDT_MULTI = ["List", "Contrast", "Same-Unit", "Sequence", "TextualOrganization", "Comparison", "Cause-Result",
               "Disjunction", "Temporal-Same-Time", "Topic-Drift", "Problem-Solution"]
GUM_MULTI = sorted({"adversative-contrast", "joint-disjunction", "joint-list", "joint-other", "joint-sequence",
                    "restatement-repetition", "same-unit"})
GUM_MONO = sorted(oracle.GUM_RELATIONS - set(GUM_MULTI))
LABELS = {"rstdt": (RSTDT_MONO, RSTDT_MULTI), "gum": (GUM_MONO, GUM_MULTI)}
#: label maps that know each inventory
MAPS = {"rstdt": ("raw", "rstdt18"), "gum": ("raw", "gum")}


@dataclass
class Chooser:
    """Random choices, from hypothesis or from a seeded Random."""

    integer: Callable[[int, int], int]
    choice: Callable[[Sequence], object]

    @classmethod
    def seeded(cls, rng: random.Random) -> Chooser:
        return cls(rng.randint, rng.choice)

    @classmethod
    def drawing(cls, draw) -> Chooser:
        return cls(lambda a, b: draw(st.integers(a, b)), lambda seq: draw(st.sampled_from(list(seq))))


def node_pattern(k: int, patterns: str, choose: Chooser) -> str:
    """Children's nuclearities for ``k`` children.

    ``binary``: NS, SN, NN. ``reference``: also k nuclei and S N S (what educe binarizes).
    ``any``: also a block of contiguous nuclei with satellites on either side (rstkit's right).
    ``invalid``: anything, all satellites and separated nuclei included.
    """
    if k == 2 and patterns != "invalid":
        return choose.choice(["NS", "SN", "NN"])
    if patterns == "invalid":
        return "".join(choose.choice("NS") for _ in range(k))
    options = ["N" * k]
    if patterns == "reference" and k == 3:
        options += ["SNS", "SNS"]
    if patterns == "any":
        first = choose.integer(0, k - 1)
        last = choose.integer(first, k - 1)
        options.append("S" * first + "N" * (last - first + 1) + "S" * (k - 1 - last))
    return choose.choice(options)


def random_tree(choose: Chooser, n: int, patterns: str = "any", inventory: str = "rstdt", max_arity: int = 4) -> T:
    """A random tree over EDUs 1..n with nodes of up to ``max_arity`` children."""
    mono, multi = LABELS[inventory]

    def build(start: int, end: int, nuc: str, rel: str | None) -> T:
        if start == end:
            return T(start, end, nuc, rel)
        size = end - start + 1
        k = 2 if patterns == "binary" else choose.integer(2, min(size, max_arity))
        cuts = sorted(_distinct(choose, start + 1, end, k - 1))
        bounds = list(zip([start, *cuts], [c - 1 for c in cuts] + [end]))
        shape = node_pattern(k, patterns, choose)
        multinuclear = shape.count("N") > 1
        label = choose.choice(multi)
        # nuclei of one multinuclear node usually share a label; sometimes they do not (section 2.2)
        mixed = multinuclear and choose.integer(0, 2) == 0
        kids = []
        for (a, b), kid_nuc in zip(bounds, shape):
            if kid_nuc == "S":
                kid_rel = choose.choice(mono)
            elif multinuclear:
                kid_rel = choose.choice(multi) if mixed else label
            else:
                kid_rel = "span"
            kids.append(build(a, b, kid_nuc, kid_rel))
        return T(start, end, nuc, rel, tuple(kids))

    return build(1, n, "Root", None)


def _distinct(choose: Chooser, low: int, high: int, k: int) -> list[int]:
    pool = list(range(low, high + 1))
    picked = []
    for _ in range(k):
        picked.append(pool.pop(choose.integer(0, len(pool) - 1)))
    return picked


@st.composite
def corpora(draw, max_docs: int = 6, max_edus: int = 12, patterns: str = "any", inventory: str = "rstdt",
            nary_predictions: bool = True) -> tuple[dict[str, T], dict[str, T]]:
    """Gold trees (``patterns``) and predictions over the same EDUs: binary, or sometimes
    n-ary of the same family (docs/evaluation.md#edge-cases: binarized like the gold)."""
    choose = Chooser.drawing(draw)
    gold, pred = {}, {}
    for i in range(draw(st.integers(1, max_docs))):
        n = draw(st.integers(1, max_edus))
        gold[f"d{i}"] = random_tree(choose, n, patterns, inventory)
        shape = draw(st.sampled_from([patterns, "binary", "binary"])) if nary_predictions else "binary"
        pred[f"d{i}"] = random_tree(choose, n, shape, inventory)
    return gold, pred


def to_rstkit(tree: T, doc_id: str):
    """The tree as rstkit reads it from the oracle's .dis text."""
    from rstkit.formats.dis import loads_dis

    return loads_dis(oracle.write_dis(tree), doc_id=doc_id)


def to_rstkit_corpus(trees: dict[str, T]) -> dict:
    return {d: to_rstkit(t, d) for d, t in trees.items()}


def to_rstkit_nodes(tree: T, doc_id: str):
    """The tree built with rstkit's public constructors (faster than text, for bulk corpora)."""
    from rstkit.tree import EDU, Node, RSTTree

    def build(node: T) -> Node:
        return Node(node.start, node.end, node.nuc, node.rel, tuple(build(k) for k in node.kids))

    return RSTTree(build(tree), tuple(EDU(i, f"edu {i}") for i in range(1, tree.end + 1)), doc_id)
