"""A plain, obviously-correct pure-Python scorer: the oracle the vectorised scorer is checked against.

It takes already prepared (binarized, relabelled) trees and follows evaluation.md
sections 5-9 literally, with sets and loops.
"""
from __future__ import annotations

from rstkit.tree import Node, RSTTree

PROJECTIONS = {"S": lambda t: t[:2], "N": lambda t: t[:3], "R": lambda t: (t[0], t[1], t[3]), "F": lambda t: t}


def marcu(tree: RSTTree) -> list[tuple]:
    out = []

    def walk(node: Node, is_root: bool) -> None:
        for child in node.children:
            walk(child, False)
        if not is_root:
            out.append((node.start, node.end, node.nuclearity, node.relation))

    walk(tree.root, True)
    return out


def attachments(tree: RSTTree) -> list[tuple]:
    out = []

    def walk(node: Node) -> None:
        if node.is_leaf:
            return
        left, right = node.children
        relation = right.relation if right.nuclearity == "S" else left.relation
        out.append((node.start, node.end, left.nuclearity + right.nuclearity, relation))
        walk(left)
        walk(right)

    walk(tree.root)
    return out


def div(a: float, b: float) -> float:
    return a / b if b else 0.0


def f1(p: float, r: float) -> float:
    return div(2 * p * r, p + r)


def score(gold: list[list[tuple]], pred: list[list[tuple]], average: str) -> dict[str, float]:
    """F1 in percent for S, N, R, F from per-document tuple lists."""
    result = {}
    for key, project in PROJECTIONS.items():
        per_doc = []
        for g, p in zip(gold, pred):
            gp = [project(t) for t in g]
            pp = [project(t) for t in p]
            per_doc.append((len(set(gp) & set(pp)), len(gp), len(pp)))
        if average == "micro":
            m = sum(d[0] for d in per_doc)
            value = f1(div(m, sum(d[2] for d in per_doc)), div(m, sum(d[1] for d in per_doc)))
        else:
            ps = [div(m, np_) for m, ng, np_ in per_doc]
            rs = [div(m, ng) for m, ng, np_ in per_doc]
            if average == "macro":
                value = sum(f1(p, r) for p, r in zip(ps, rs)) / len(per_doc)
            else:  # dplp
                value = f1(sum(ps) / len(ps), sum(rs) / len(rs))
        result[key] = 100.0 * value
    return result
