"""A pure-Python baseline of eval_disdep.py's procedure (pipeline A): a BASELINE, NOT educe or rst-eval.

Written from /work/shared/docs/dependency-evaluation.md alone, sharing no code with rstkit; it reads and
binarizes with benchmarks/reference_baseline.py (labels mapped to the 18 classes on reading, which is the
only label column eval_disdep.py compares). Each tree is binarized ``right_mixed`` with bug B1 (``chain``,
D3.2), then converted bottom-up (D3.1 heads: leftmost nucleus; D3.3 attachments; D3.4 ranks: 1 + the
head's largest rank so far, shared by the dependents attached at one node; D3.5 the root: head 0, ``root``,
Nucleus, rank 1). The records of the same EDU are compared (D4) and the correct heads (a), labels (l),
nuclearities (n), ranks (r) and their conjunctions are counted over all documents.

Run: ``python benchmarks/dependency_baseline.py GOLD_DIR PRED_DIR`` (files matched by name); prints
``{"support": N, "counts": {"a": .., ..., "alnr": ..}}`` as JSON, as benchmarks/reference_educe.py does.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from reference_baseline import Tree, binarize, read_dis  # beside this script

#: name -> the components (head, label, nuclearity, rank) that must all be right
MEASURES = {"a": "h", "l": "l", "n": "n", "r": "r", "al": "hl", "an": "hn", "ar": "hr", "aln": "hln",
            "alr": "hlr", "alnr": "hlnr"}


def records(tree: Tree) -> dict[int, tuple[int, str, str, int]]:
    """{EDU: (head, label, nuclearity, rank)}; EDUs never attached keep head 0, root, Nucleus, rank 0."""
    out = {i: (0, "root", "Nucleus", 0) for i in range(tree.start, tree.end + 1)}
    top_rank: dict[int, int] = {}

    def head(node: Tree) -> int:
        if len(node.kids) < 2:  # an EDU, or a unary node read as one (D3.1)
            return node.start
        heads = [head(kid) for kid in node.kids]  # children first: bottom-up
        nuclei = [i for i, kid in enumerate(node.kids) if kid.nuc == "Nucleus"]
        if not nuclei:
            raise ValueError(f"a node over EDUs {node.start}-{node.end} has no nucleus")
        mine = heads[nuclei[0]]
        rank = top_rank.get(mine, 0) + 1
        top_rank[mine] = rank
        for i, kid in enumerate(node.kids):
            if i != nuclei[0]:
                out[heads[i]] = (mine, kid.rel, kid.nuc, rank)
        return mine

    out[head(tree)] = (0, "root", "Nucleus", 1)
    return out


def evaluate(gold_dir: Path, pred_dir: Path) -> dict:
    counts = dict.fromkeys(MEASURES, 0)
    support = 0
    for gold_path in sorted(gold_dir.glob("*.dis")):
        gold = records(binarize(read_dis(gold_path.read_text(encoding="utf-8")), "right_mixed"))
        pred = records(binarize(read_dis((pred_dir / gold_path.name).read_text(encoding="utf-8")), "right_mixed"))
        for edu, (g_head, g_label, g_nuc, g_rank) in gold.items():
            p_head, p_label, p_nuc, p_rank = pred[edu]
            right = {"h": g_head == p_head, "l": g_label == p_label, "n": g_nuc == p_nuc, "r": g_rank == p_rank}
            for name, parts in MEASURES.items():
                counts[name] += all(right[part] for part in parts)
            support += 1
    return {"implementation": "pure-Python baseline written from dependency-evaluation.md (not educe)",
            "support": support, "counts": counts}


if __name__ == "__main__":
    sys.setrecursionlimit(100_000)  # the reading recurses per tree level; set only when run, not on import
    print(json.dumps(evaluate(Path(sys.argv[1]), Path(sys.argv[2])), indent=1))
