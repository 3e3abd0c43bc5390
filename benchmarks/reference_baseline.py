"""A pure-Python baseline of the reference scoring path: a BASELINE, NOT educe.

educe (the reference implementation, ``parseval_scores`` behind rst-eval) is not installed
here. This script does the same work the same way, written from
/work/shared/docs/evaluation.md alone and sharing no code with rstkit: each ``.dis`` file is
read into nested node objects (a regular-expression tokenizer and a recursive-descent reader),
labels are lowercased and mapped with the ``rst_112to18`` table (section 3; unknown labels
pass through lowercased), the tree is binarized the ``right`` way of educe's ``_binarize``
(section 4, bug B1 included), Marcu's tuples (section 5) and, after a ``right_mixed`` pass,
the labelled attachment decisions (section 6) become Python sets per document, and S, N, R, F
are scored by per-document set intersections, micro- and macro-averaged (section 7.3).

Run: ``python benchmarks/reference_baseline.py GOLD_DIR PRED_DIR`` (files matched by name);
prints the 16 F1 values (percent) as JSON.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

#: evaluation.md section 3: fine label (lowercased) -> class
_CLASSES = {
    "attribution": "attribution attribution-e attribution-n",
    "background": "background background-e circumstance circumstance-e",
    "cause": "cause-e cause-result consequence consequence-n consequence-n-e consequence-s consequence-s-e "
             "result result-e",
    "comparison": "analogy analogy-e comparison comparison-e preference preference-e proportion",
    "condition": "condition condition-e contingency hypothetical otherwise",
    "contrast": "antithesis antithesis-e concession concession-e contrast",
    "elaboration": "definition definition-e elaboration-additional elaboration-additional-e elaboration-e "
                   "elaboration-general-specific elaboration-general-specific-e elaboration-object-attribute "
                   "elaboration-object-attribute-e elaboration-part-whole elaboration-part-whole-e "
                   "elaboration-process-step elaboration-process-step-e elaboration-set-member "
                   "elaboration-set-member-e example example-e",
    "enablement": "enablement enablement-e purpose purpose-e",
    "evaluation": "comment comment-e conclusion evaluation evaluation-n evaluation-s evaluation-s-e interpretation "
                  "interpretation-n interpretation-s interpretation-s-e",
    "explanation": "evidence evidence-e explanation-argumentative explanation-argumentative-e reason reason-e",
    "joint": "disjunction list",
    "manner-means": "manner manner-e means means-e",
    "same-unit": "same-unit",
    "summary": "restatement restatement-e summary-n summary-s",
    "temporal": "inverted-sequence sequence temporal-after temporal-after-e temporal-before temporal-before-e "
                "temporal-same-time temporal-same-time-e",
    "textual": "textualorganization",
    "topic-change": "topic-drift topic-shift",
    "topic-comment": "comment-topic problem-solution problem-solution-n problem-solution-s question-answer "
                     "question-answer-n question-answer-s rhetorical-question statement-response "
                     "statement-response-n statement-response-s topic-comment topic-comment-n topic-comment-s",
    "root": "root",
}
RST_112TO18 = {fine: coarse for coarse, fines in _CLASSES.items() for fine in fines.split()}


def coarse(label: str) -> str:
    label = label.lower()
    return RST_112TO18.get(label, label)


class Tree:
    """A constituent: span, nuclearity (Nucleus/Satellite/Root), relation, children."""

    __slots__ = ("end", "kids", "nuc", "rel", "start")

    def __init__(self, start: int, end: int, nuc: str, rel: str, kids: list[Tree]):
        self.start, self.end, self.nuc, self.rel, self.kids = start, end, nuc, rel, kids


# -- reading: tokens, then recursive descent -------------------------------------------------
_TOKEN = re.compile(r"\(\s*text\s+_!.*?_!\s*\)|\(|\)|[^\s()]+", re.DOTALL)


def read_dis(text: str) -> Tree:
    tokens = _TOKEN.findall(text)
    return _node(tokens, 0)[0]


def _node(tokens: list[str], i: int) -> tuple[Tree, int]:
    assert tokens[i] == "(", tokens[i]
    nuc = tokens[i + 1]
    assert tokens[i + 2] == "("
    if tokens[i + 3] == "leaf":
        start = end = int(tokens[i + 4])
        i += 6
    else:
        start, end = int(tokens[i + 4]), int(tokens[i + 5])
        i += 7
    rel = "---"
    if tokens[i] == "(" and tokens[i + 1] == "rel2par":
        rel = coarse(tokens[i + 2])
        i += 4
    kids = []
    while tokens[i] != ")":
        if tokens[i].startswith("(") and len(tokens[i]) > 1:  # the EDU text
            i += 1
            continue
        kid, i = _node(tokens, i)
        kids.append(kid)
    return Tree(start, end, nuc, rel, kids), i + 1


# -- binarization (educe's _binarize) ---------------------------------------------------------
def _new(kids: list[Tree], rel: str) -> Tree:
    return Tree(kids[0].start, kids[-1].end, "Nucleus", rel, kids)


def binarize(tree: Tree, branching: str) -> Tree:
    kids = tree.kids
    if len(kids) <= 2:
        return Tree(tree.start, tree.end, tree.nuc, tree.rel, [binarize(k, branching) for k in kids])
    pattern = "".join(k.nuc[0] for k in kids)
    if "N" not in pattern:
        raise ValueError("No nucleus")
    if pattern == "N" * len(kids):  # right-branching chain of nuclei, new nodes take the first's relation
        done = [binarize(k, branching) for k in kids]
        chain = done[-1]
        for k in reversed(done[1:-1]):
            chain = _new([k, chain], done[0].rel)
        return Tree(tree.start, tree.end, tree.nuc, tree.rel, [done[0], chain])
    if pattern == "SNS":
        c1, c2, c3 = kids
        if branching == "right":  # the nucleus takes the right satellite first; c2, c3 as they are (B1)
            return Tree(tree.start, tree.end, tree.nuc, tree.rel, [binarize(c1, branching), _new([c2, c3], "span")])
        return Tree(tree.start, tree.end, tree.nuc, tree.rel, [_new([c1, c2], "span"), binarize(c3, branching)])
    raise ValueError(f"Don't know how to handle {pattern} trees")


# -- tuples -----------------------------------------------------------------------------------
def marcu(tree: Tree) -> list[tuple]:
    """(start, end, nuclearity, relation) of every node but the root, leaves included."""
    out: list[tuple] = []

    def walk(node: Tree) -> None:
        for kid in node.kids:
            out.append((kid.start, kid.end, kid.nuc, kid.rel))
            walk(kid)
    walk(tree)
    return out


def attachments(tree: Tree) -> list[tuple]:
    """(start, end, pair, relation) of every internal node of the attachment tree, root included."""
    out: list[tuple] = []

    def walk(node: Tree) -> None:
        if not node.kids:
            return
        left, right = node.kids[0], node.kids[1]
        pair = "".join(k.nuc[0] for k in node.kids)
        out.append((node.start, node.end, pair, right.rel if right.nuc == "Satellite" else left.rel))
        for kid in node.kids:
            walk(kid)
    walk(tree)
    return out


LABEL_FNS = {"S": lambda t: t[:2], "N": lambda t: t[:3], "R": lambda t: (t[0], t[1], t[3]), "F": lambda t: t}


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def score(pairs: list[tuple[list[tuple], list[tuple]]]) -> dict[str, dict[str, float]]:
    """Micro and macro F1 (percent) for S, N, R, F from (gold tuples, predicted tuples) per document."""
    result: dict[str, dict[str, float]] = {"micro": {}, "macro": {}}
    for key, fn in LABEL_FNS.items():
        tp = n_gold = n_pred = 0
        per_doc = []
        for gold, pred in pairs:
            g, p = [fn(t) for t in gold], [fn(t) for t in pred]
            matched = len(set(g) & set(p))
            tp, n_gold, n_pred = tp + matched, n_gold + len(g), n_pred + len(p)
            per_doc.append(_f1(matched / len(p) if p else 0.0, matched / len(g) if g else 0.0))
        result["micro"][key] = 100 * _f1(tp / n_pred if n_pred else 0.0, tp / n_gold if n_gold else 0.0)
        result["macro"][key] = 100 * sum(per_doc) / len(per_doc)
    return result


def evaluate(gold_dir: Path, pred_dir: Path) -> dict:
    rst, simple = [], []
    for gold_path in sorted(gold_dir.glob("*.dis")):
        gold = binarize(read_dis(gold_path.read_text(encoding="utf-8")), "right")
        pred = binarize(read_dis((pred_dir / gold_path.name).read_text(encoding="utf-8")), "right")
        rst.append((marcu(gold), marcu(pred)))
        simple.append((attachments(binarize(gold, "right_mixed")), attachments(binarize(pred, "right_mixed"))))
    return {"implementation": "pure-Python baseline written from evaluation.md (not educe)",
            "documents": len(rst), "rst-parseval": score(rst), "parseval": score(simple)}


if __name__ == "__main__":
    sys.setrecursionlimit(100_000)  # the reading recurses per tree level; set only when run, not on import
    print(json.dumps(evaluate(Path(sys.argv[1]), Path(sys.argv[2])), indent=1))
