"""Seeded GUM-like corpora written as .dis folders: the generated stand-ins for the tests that read GUM,
so that what they check runs without ../shared.

Trees are oracle trees (tests/support/oracle.py); predictions are the oracle's right-heavy binarization
of the gold, perturbed, so that they score high but not 100 (as a parser's output would).
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path

from tests.support import oracle
from tests.support.oracle import T
from tests.support.oracle_trees import Chooser, random_tree


def perturbed(tree: T, rng: random.Random) -> T:
    """Relabel some satellites, flip some NS/SN pairs, rotate some attachments (a binary tree)."""
    if not tree.kids:
        return tree
    left, right = (perturbed(k, rng) for k in tree.kids)
    if left.nuc != right.nuc and rng.random() < 0.2:  # NS <-> SN: relation and span swap places
        left, right = (T(k.start, k.end, "S" if k.nuc == "N" else "N", o.rel, k.kids)
                       for k, o in ((left, right), (right, left)))
    if right.nuc == "S" and rng.random() < 0.3:
        right = right._replace(rel=rng.choice(["elaboration-additional", "causal-cause", "joint-list"]))
    if right.kids and rng.random() < 0.2:  # (A (B C)) -> ((A B) C)
        b, c = right.kids
        left, right = oracle.grouped("N", "span", [left, b]), c._replace(nuc="S", rel=c.rel if c.nuc == "S" else
                                                                          "elaboration-additional")
        if left.kids[0].nuc == "S" and left.kids[1].nuc == "S":
            left = left._replace(kids=(left.kids[0], left.kids[1]._replace(nuc="N", rel="span")))
    return oracle.grouped(tree.nuc, tree.rel, [left, right])


def gum_like_corpus(rng: random.Random, n_docs: int, patterns: str = "any", max_edus: int = 60,
                    ) -> tuple[dict[str, T], dict[str, T]]:
    """``n_docs`` n-ary gold trees of 2..``max_edus`` EDUs with GUM labels (``patterns`` as in
    oracle_trees.node_pattern) and perturbed right-heavy predictions over the same EDUs."""
    choose = Chooser.seeded(rng)
    gold, pred = {}, {}
    for i in range(n_docs):
        doc = f"gen_{i:03d}"
        gold[doc] = random_tree(choose, rng.randint(2, max_edus), patterns, "gum", max_arity=5)
        pred[doc] = perturbed(oracle.right_heavy(gold[doc]), rng)
    return gold, pred


def write_dis_folder(folder: Path, trees: Mapping[str, T]) -> Path:
    """One ``<doc>.dis`` file per tree (EDU texts ``edu <i>``, the same on every side); returns ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for doc, tree in trees.items():
        (folder / f"{doc}.dis").write_text(oracle.write_dis(tree), encoding="utf-8")
    return folder


def break_one_extent(path: Path) -> tuple[int, str, str]:
    """Make the first non-root span of a .dis file declare a start one too late (as GUM's one bad file
    does); returns the line number, the declared extent and the extent its children cover."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines[1:], 2):
        if "(span " in line:
            start, end = line.split("(span ")[1].split(")")[0].split()
            declared = f"(span {int(start) + 1} {end})"
            lines[number - 1] = line.replace(f"(span {start} {end})", declared)
            path.write_text("\n".join(lines), encoding="utf-8")
            return number, declared, f"{start}-{end}"
    raise ValueError(f"{path} has no internal node under the root")
