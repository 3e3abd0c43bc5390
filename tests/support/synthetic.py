"""A synthetic corpus of RST-DT-like sizes for benchmarks (random binary trees, seeded)."""
from __future__ import annotations

import random

from rstkit.tree import EDU, ROOT, SATELLITE, SPAN, Node, RSTTree

RELATIONS = ["elaboration", "attribution", "joint", "same-unit", "contrast", "explanation", "background",
             "cause", "evaluation", "enablement", "temporal", "condition", "comparison", "manner-means",
             "summary", "topic-comment", "textual", "topic-change"]


def random_tree(n: int, rng: random.Random, doc_id: str) -> RSTTree:
    def build(start: int, end: int, nuc: str, rel: str | None) -> Node:
        if start == end:
            return Node(start, end, nuc, rel)
        cut = rng.randint(start + 1, end)
        pattern = rng.choice(["NS", "NS", "SN", "NN"])
        multi = rng.choice(RELATIONS)
        kids = []
        for (a, b), k in zip(((start, cut - 1), (cut, end)), pattern):
            label = multi if pattern == "NN" else (rng.choice(RELATIONS) if k == SATELLITE else SPAN)
            kids.append(build(a, b, k, label))
        return Node(start, end, nuc, rel, tuple(kids))

    return RSTTree(build(1, n, ROOT, None), tuple(EDU(i) for i in range(1, n + 1)), doc_id)


def corpus(n_docs: int, seed: int = 0) -> tuple[dict[str, RSTTree], dict[str, RSTTree]]:
    """Gold and predicted trees over the same EDUs: sizes with mean about 55, at most 300."""
    rng = random.Random(seed)
    gold, pred = {}, {}
    for i in range(n_docs):
        n = min(300, max(2, int(rng.lognormvariate(3.8, 0.6))))
        doc_id = f"doc{i:05d}"
        gold[doc_id] = random_tree(n, rng, doc_id)
        pred[doc_id] = random_tree(n, rng, doc_id)
    return gold, pred

