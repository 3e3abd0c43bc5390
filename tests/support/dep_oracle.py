"""An independent oracle for the dependency conversion of Morey, Muller & Asher (2018).

Written from the text of dependency-evaluation.md (D1, D3) and evaluation.md (section 2 for
reading, section 3 for the relation map, section 4 for the ``right_mixed`` binarization and bug
B1), sharing no code with rstkit, not even its tree type: a small ``.dis`` reader, a binarizer
that builds real new nodes, and a recursive conversion that computes each rank as D3.4 words it
(1 plus the largest rank among the head's dependents so far). Slow and plain on purpose.

``convert_dis(text, encoding, b1=..., coarse=...)`` (or ``convert_tree`` of ``parse_dis(text)``)
returns ``(heads, labels, nuclearities, ranks, nary)``: the records as tuples in EDU order and the
number of nodes ``chain``'s pass left n-ary, or raises :class:`OracleError` whose ``stage`` says which step
refused the tree (``"binarize"`` or ``"convert"``).
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

#: evaluation.md section 3, the 18 classes and their fine labels, as the spec's table lists them
_MAP_TABLE = """
attribution: attribution, attribution-e, attribution-n
background: background, background-e, circumstance, circumstance-e
cause: cause-e, cause-result, consequence, consequence-n, consequence-n-e, consequence-s, consequence-s-e, result,
 result-e
comparison: analogy, analogy-e, comparison, comparison-e, preference, preference-e, proportion
condition: condition, condition-e, contingency, hypothetical, otherwise
contrast: antithesis, antithesis-e, concession, concession-e, contrast
elaboration: definition, definition-e, elaboration-additional, elaboration-additional-e, elaboration-e,
 elaboration-general-specific, elaboration-general-specific-e, elaboration-object-attribute,
 elaboration-object-attribute-e, elaboration-part-whole, elaboration-part-whole-e, elaboration-process-step,
 elaboration-process-step-e, elaboration-set-member, elaboration-set-member-e, example, example-e
enablement: enablement, enablement-e, purpose, purpose-e
evaluation: comment, comment-e, conclusion, evaluation, evaluation-n, evaluation-s, evaluation-s-e, interpretation,
 interpretation-n, interpretation-s, interpretation-s-e
explanation: evidence, evidence-e, explanation-argumentative, explanation-argumentative-e, reason, reason-e
joint: disjunction, list
manner-means: manner, manner-e, means, means-e
same-unit: same-unit
summary: restatement, restatement-e, summary-n, summary-s
temporal: inverted-sequence, sequence, temporal-after, temporal-after-e, temporal-before, temporal-before-e,
 temporal-same-time, temporal-same-time-e
textual: textualorganization
topic-change: topic-drift, topic-shift
topic-comment: comment-topic, problem-solution, problem-solution-n, problem-solution-s, question-answer,
 question-answer-n, question-answer-s, rhetorical-question, statement-response, statement-response-n,
 statement-response-s, topic-comment, topic-comment-n, topic-comment-s
root: root
"""


def _coarse_map() -> dict[str, str]:
    table: dict[str, str] = {}
    for entry in re.split(r"\n(?! )", _MAP_TABLE.strip()):
        coarse, fines = entry.split(":", 1)
        for fine in fines.replace("\n", " ").split(","):
            table[fine.strip()] = coarse
    return table


COARSE = _coarse_map()


def coarse_label(label: str) -> str:
    """Section 3: lowercase, look up, keep the lowercased label when the map does not have it."""
    low = label.lower()
    return COARSE.get(low, low)


class OracleError(Exception):
    def __init__(self, stage: str, message: str):
        super().__init__(f"{stage}: {message}")
        self.stage = stage


@dataclass
class ONode:
    """A node as the reference sees it: nuclearity word, relation, EDU span as written, children;
    an EDU is a node with ``edu`` set and no children."""

    nuclearity: str
    relation: str | None
    span: tuple[int, int]
    children: list[ONode] = field(default_factory=list)
    edu: int | None = None


_TOKEN = re.compile(r"\(text\s*_!.*?_!\s*\)|\(|\)|[^\s()]+", re.DOTALL)


def parse_dis(text: str) -> ONode:
    tokens = _TOKEN.findall(text)
    position = 0

    def take() -> str:
        nonlocal position
        position += 1
        return tokens[position - 1]

    def node() -> ONode:
        assert take() == "("
        nuclearity = take()
        assert take() == "("
        kind = take()
        if kind == "leaf":
            number = int(take())
            span = (number, number)
        else:
            span = (int(take()), int(take()))
        assert take() == ")"
        relation = None
        if tokens[position] == "(" and tokens[position + 1] == "rel2par":
            take(), take()
            relation = take()
            assert take() == ")"
        result = ONode(nuclearity, relation, span)
        if kind == "leaf":
            assert take().startswith("(text")
            result.edu = span[0]
        else:
            while tokens[position] == "(":
                result.children.append(node())
        assert take() == ")"
        return result

    return node()


def relabelled(node: ONode) -> ONode:
    """A copy with section 3's map applied to every node (the root's relation stays absent)."""
    relation = None if node.relation is None else coarse_label(node.relation)
    return ONode(node.nuclearity, relation, node.span, [relabelled(k) for k in node.children], node.edu)


def _new_nucleus(relation: str, left: ONode, right: ONode) -> ONode:
    return ONode("Nucleus", relation, (left.span[0], right.span[1]), [left, right])


def binarize(node: ONode, b1: bool) -> ONode:
    """Section 4's ``right_mixed``: all nuclei as a right cascade whose new nodes take the first
    nucleus's relation; S N S as (new span nucleus (S, N), S). With ``b1`` the two grouped
    children are kept as they are (bug B1); without, they are binarized too."""
    kids = node.children
    if node.edu is not None:
        return node
    if len(kids) == 1:
        raise OracleError("binarize", f"unary node {node.span}")
    if len(kids) == 2:
        return ONode(node.nuclearity, node.relation, node.span, [binarize(k, b1) for k in kids])
    code = "".join(k.nuclearity[0] for k in kids)
    if "N" not in code:
        raise OracleError("binarize", f"no nucleus {code}")
    if code == "N" * len(kids):
        done = [binarize(k, b1) for k in kids]
        rest = done[-1]
        for kid in reversed(done[1:-1]):
            rest = _new_nucleus(done[0].relation, kid, rest)
        return ONode(node.nuclearity, node.relation, node.span, [done[0], rest])
    if code == "SNS":
        first, second = (kids[0], kids[1]) if b1 else (binarize(kids[0], b1), binarize(kids[1], b1))
        return ONode(node.nuclearity, node.relation, node.span,
                     [_new_nucleus("span", first, second), binarize(kids[2], b1)])
    raise OracleError("binarize", f"pattern {code}")


def _count_edus(node: ONode) -> int:
    return 1 if node.edu is not None else sum(_count_edus(k) for k in node.children)


def _count_nary(node: ONode) -> int:
    return (len(node.children) > 2) + sum(_count_nary(k) for k in node.children)


def convert(root: ONode, n: int) -> tuple[tuple, tuple, tuple, tuple]:
    """D3.1, D3.3 to D3.5 on a tree as it is."""
    heads = [0] * (n + 1)
    labels = ["ROOT"] * (n + 1)
    nucs = ["Nucleus"] * (n + 1)
    ranks = [0] * (n + 1)
    dependents: dict[int, list[int]] = {}

    def walk(node: ONode) -> int:
        if node.edu is not None:
            return node.edu
        if len(node.children) == 1:  # read as a leaf, never visited below (D3.1, D3.6)
            return node.span[0]
        child_heads = [walk(kid) for kid in node.children]
        nuclei = [i for i, kid in enumerate(node.children) if kid.nuclearity == "Nucleus"]
        if not nuclei:
            raise OracleError("convert", f"all satellites under {node.span}")
        head = child_heads[nuclei[0]]
        rank = 1 + max((ranks[d] for d in dependents.get(head, [])), default=0)
        for i, kid in enumerate(node.children):
            if i != nuclei[0]:
                dep = child_heads[i]
                heads[dep], labels[dep], nucs[dep], ranks[dep] = head, kid.relation, kid.nuclearity, rank
                dependents.setdefault(head, []).append(dep)
        return head

    real_root = walk(root)
    heads[real_root], labels[real_root], nucs[real_root], ranks[real_root] = 0, "ROOT", "Nucleus", 1
    return tuple(heads[1:]), tuple(labels[1:]), tuple(nucs[1:]), tuple(ranks[1:])


def convert_tree(root: ONode, encoding: str, *, b1: bool = False, coarse: bool = False
                 ) -> tuple[tuple, tuple, tuple, tuple, int]:
    """The records of a read tree and the number of n-ary nodes left by ``chain``'s pass (0 for
    ``tree``): pipeline B's order, relabel, then binarize (``chain``), then convert."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        n = _count_edus(root)
        if coarse:
            root = relabelled(root)
        nary = 0
        if encoding == "chain":
            root = binarize(root, b1)
            nary = _count_nary(root)
        return (*convert(root, n), nary)
    finally:
        sys.setrecursionlimit(limit)


def convert_dis(text: str, encoding: str, *, b1: bool = False, coarse: bool = False
                ) -> tuple[tuple, tuple, tuple, tuple, int]:
    """:func:`convert_tree` of a ``.dis`` text."""
    return convert_tree(parse_dis(text), encoding, b1=b1, coarse=coarse)
