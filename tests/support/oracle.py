"""An independent reference scorer, written from ../shared/docs/evaluation.md alone.

It shares no code with rstkit: its own tree value (:class:`T`, a plain named tuple), its own
``.dis`` reader and writer (section 2), the label maps restated as data (section 3 and GUM's
relation inventory), its own binarizations (section 4, plus the right-heavy rule rstkit
documents for the patterns the reference rejects), Marcu tuples (section 5), attachment
decisions (section 6, n-ary leftovers included), counting and averaging (sections 7.3, 9,
10). Plain loops over lists and sets: slow and obvious. rstkit trees enter only through
their plain fields (:func:`from_fields`); nothing of rstkit is imported.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple


class OracleError(Exception):
    """Input the specification gives no score for (the reference raises, or rstkit must)."""


class NaryAttachment(OracleError):
    """An attachment tree would need a node with more than two children (evaluation.md section 6)."""


class T(NamedTuple):
    """A tree node: EDU span, nuclearity ("N", "S" or "Root"), relation (None on the root), children."""

    start: int
    end: int
    nuc: str
    rel: str | None
    kids: tuple[T, ...] = ()


def grouped(nuc: str, rel: str | None, kids: Sequence[T]) -> T:
    """A node over ``kids``; its span is the union of theirs (evaluation.md section 4)."""
    return T(kids[0].start, kids[-1].end, nuc, rel, tuple(kids))


def pattern(node: T) -> str:
    return "".join(k.nuc for k in node.kids)


def n_edus(node: T) -> int:
    return node.end - node.start + 1


def walk(node: T) -> list[T]:
    """Every node, parents before children."""
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(reversed(current.kids))
    return out


def from_fields(node) -> T:
    """An rstkit node (or anything with start, end, nuclearity, relation, children) as a T."""
    word = node.nuclearity.lower()
    nuc = "N" if word.startswith("n") else "S" if word.startswith("s") else "Root"
    return T(node.start, node.end, nuc, node.relation, tuple(from_fields(k) for k in node.children))


# -- section 2: .dis text ------------------------------------------------------------------------
_TOKEN = re.compile(r"\(\s*text\s*_!(?P<text>.*?)_!\s*\)|(?P<open>\()|(?P<close>\))|(?P<atom>[^\s()]+)", re.DOTALL)
_NUC_WORDS = {"Root": "Root", "Nucleus": "N", "Satellite": "S"}


def read_dis(text: str) -> T:
    """A tree from .dis text; spans are recomputed from the leaves (extents as written are ignored)."""
    stack: list[list] = [[]]
    for match in _TOKEN.finditer(text):
        if match.group("open"):
            stack.append([])
        elif match.group("close"):
            done = stack.pop()
            stack[-1].append(done)
        elif match.group("atom") is not None:
            stack[-1].append(match.group("atom"))
        else:
            stack[-1].append(("text", match.group("text")))
    (top,) = stack[0]
    return _node(top)


def _node(expr: list) -> T:
    nuc = _NUC_WORDS[expr[0]]
    extent, rest = expr[1], expr[2:]
    rel = None
    if rest and isinstance(rest[0], list) and rest[0][0] == "rel2par":
        rel, rest = rest[0][1], rest[1:]
    if extent[0] == "leaf":
        return T(int(extent[1]), int(extent[1]), nuc, rel)
    return grouped(nuc, rel, [_node(e) for e in rest])


def write_dis(tree: T, text: Mapping[int, str] | None = None) -> str:
    """.dis text, one node header per line (EDU text defaults to ``edu <i>``)."""
    lines: list[str] = []

    def emit(node: T, depth: int) -> None:
        word = {"Root": "Root", "N": "Nucleus", "S": "Satellite"}[node.nuc]
        extent = f"(leaf {node.start})" if not node.kids else f"(span {node.start} {node.end})"
        rel = "" if node.rel is None else f" (rel2par {node.rel})"
        pad = "  " * depth
        if not node.kids:
            words = text[node.start] if text else f"edu {node.start}"
            lines.append(f"{pad}( {word} {extent}{rel} (text _!{words}_!) )")
            return
        lines.append(f"{pad}( {word} {extent}{rel}")
        for kid in node.kids:
            emit(kid, depth + 1)
        lines.append(f"{pad})")

    emit(tree, 0)
    return "\n".join(lines) + "\n"


# -- section 3: label maps ---------------------------------------------------------------------
#: evaluation.md section 3's table (educe's rst_112to18.txt, 108 distinct keys), class -> fine labels
RST_112TO18_BY_CLASS = {
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
RST_112TO18 = {fine: coarse for coarse, fines in RST_112TO18_BY_CLASS.items() for fine in fines.split()}
#: the 18 classes: a label spelled like its class falls through to itself (section 3, `cause`)
RSTDT18_CLASSES = frozenset(RST_112TO18_BY_CLASS) - {"root"}

#: GUM's 31 relations and same-unit (the rel2par labels of GUM lisp_nary); class = before the first '-'
GUM_RELATIONS = frozenset([
    "adversative-antithesis", "adversative-concession", "adversative-contrast", "attribution-negative",
    "attribution-positive", "causal-cause", "causal-result", "context-background", "context-circumstance",
    "contingency-condition", "elaboration-additional", "elaboration-attribute", "evaluation-comment",
    "explanation-evidence", "explanation-justify", "explanation-motivation", "joint-disjunction", "joint-list",
    "joint-other", "joint-sequence", "mode-manner", "mode-means", "organization-heading", "organization-phatic",
    "organization-preparation", "purpose-attribute", "purpose-goal", "restatement-partial", "restatement-repetition",
    "same-unit", "topic-question", "topic-solutionhood",
])


def gum_class(label: str) -> str:
    return label if label == "same-unit" else label.split("-")[0]


GUM_CLASSES = frozenset(gum_class(label) for label in GUM_RELATIONS)


def map_label(label: str, labels: str, passthrough: bool = False) -> str:
    """The scored label of ``label`` under ``raw``, ``rstdt18`` or ``gum``; ``span`` is kept.

    An unknown label raises, or with ``passthrough`` is kept lowercased (the reference's rule).
    """
    if labels == "raw" or label == "span":
        return label
    key = label.lower()
    if labels == "rstdt18":
        if key in RST_112TO18:
            return RST_112TO18[key]
        known = key in RSTDT18_CLASSES
    elif labels == "gum":
        known = key in GUM_RELATIONS or key in GUM_CLASSES
        if known:
            return gum_class(key)
    else:
        raise ValueError(labels)
    if known or passthrough:
        return key
    raise OracleError(f"label {label!r} unknown to {labels}")


def relabel(tree: T, labels: str, passthrough: bool = False) -> T:
    rel = None if tree.rel is None else map_label(tree.rel, labels, passthrough)
    return T(tree.start, tree.end, tree.nuc, rel, tuple(relabel(k, labels, passthrough) for k in tree.kids))


# -- section 4: binarization ---------------------------------------------------------------------
def right_heavy(node: T) -> T:
    """rstkit's ``right`` (transform.py's docstring, in words): fully recursive right-heavy.

    All nuclei: ``(N1, M(N2, M(... Nk)))``, new nuclei carrying N1's relation. One nucleus with
    satellites: the nucleus takes the satellites on its right (nearest first), then those on
    its left (nearest first), new nuclei labelled ``span``; the last attachment is the node
    itself. Several contiguous nuclei with satellites: the nuclei first become one new nucleus
    labelled ``span`` over their multinuclear cascade. Anything else is an error.
    """
    if not node.kids:
        return node
    kids = [right_heavy(k) for k in node.kids]
    if len(kids) == 1:
        raise OracleError("unary node")
    if len(kids) == 2:
        return grouped(node.nuc, node.rel, kids)
    nuclei = [i for i, k in enumerate(kids) if k.nuc == "N"]
    if not nuclei:
        raise OracleError("no nucleus")
    first, last = nuclei[0], nuclei[-1]
    if nuclei != list(range(first, last + 1)):
        raise OracleError("nuclei separated by a satellite")
    left, block, right = kids[:first], kids[first:last + 1], kids[last + 1:]
    if not left and not right:
        return grouped(node.nuc, node.rel, [block[0], _nucleus_cascade(block[1:], block[0].rel)])
    if len(block) > 1:
        core = grouped("N", "span", [block[0], _nucleus_cascade(block[1:], block[0].rel)])
    else:
        core = block[0]
    steps = [("right", s) for s in right] + [("left", s) for s in reversed(left)]
    for i, (side, satellite) in enumerate(steps):
        nuc, rel = (node.nuc, node.rel) if i == len(steps) - 1 else ("N", "span")
        core = grouped(nuc, rel, [core, satellite] if side == "right" else [satellite, core])
    return core


def _nucleus_cascade(nuclei: Sequence[T], rel: str | None) -> T:
    """``M(n1, M(n2, ... nk))`` with new nuclei labelled ``rel`` (a single nucleus stays itself)."""
    if len(nuclei) == 1:
        return nuclei[0]
    return grouped("N", rel, [nuclei[0], _nucleus_cascade(nuclei[1:], rel)])


def educe(node: T, branching: str) -> T:
    """educe's ``_binarize`` with ``right`` or ``right_mixed`` branching (section 4, bug B1 included)."""
    if not node.kids:
        return node
    kids = list(node.kids)
    if len(kids) == 1:
        raise OracleError("unary node")
    if len(kids) == 2:
        return grouped(node.nuc, node.rel, [educe(k, branching) for k in kids])
    shape = pattern(node)
    if "N" not in shape:
        raise OracleError("No nucleus")
    if shape == "N" * len(kids):
        done = [educe(k, branching) for k in kids]
        return grouped(node.nuc, node.rel, [done[0], _nucleus_cascade(done[1:], done[0].rel)])
    if shape == "SNS":
        c1, c2, c3 = kids
        if branching == "right":  # c2 and c3 grouped unbinarized (B1)
            return grouped(node.nuc, node.rel, [educe(c1, branching), grouped("N", "span", [c2, c3])])
        return grouped(node.nuc, node.rel, [grouped("N", "span", [c1, c2]), educe(c3, branching)])
    if shape.count("N") > 1:
        raise OracleError("Multinuclear with satellites")
    raise OracleError(f"Don't know how to handle {shape} trees")


def binarized(tree: T, mode: str) -> T:
    """``mode``: ``right`` (rstkit's), ``educe-right`` (rst-eval), ``right_mixed`` or ``none``."""
    if mode == "none":
        return tree
    if mode == "right":
        return right_heavy(tree)
    return educe(tree, "right" if mode == "educe-right" else mode)


# -- sections 5 and 6: tuples -----------------------------------------------------------------
def marcu(tree: T) -> list[tuple]:
    """(start, end, nuclearity, relation) of every node but the root, leaves included."""
    return [(n.start, n.end, n.nuc, n.rel) for n in walk(tree) if n is not tree]


def attachments(tree: T, nary: bool = False) -> list[tuple]:
    """(start, end, nuclearity pair, relation) of every internal node, root included.

    pair = first letters of the children's nuclearities; relation = the second child's if
    it is a satellite, else the first child's. A node with more than two children is only
    scored with ``nary`` (the reference's rule for B1 leftovers); otherwise it raises.
    """
    out = []
    for node in walk(tree):
        if not node.kids:
            continue
        if len(node.kids) > 2 and not nary:
            raise NaryAttachment(f"node {node.start}-{node.end} has {len(node.kids)} children")
        first, second = node.kids[:2]
        out.append((node.start, node.end, pattern(node), second.rel if second.nuc == "S" else first.rel))
    return out


# -- sections 7.3, 9, 10: counting and averaging ---------------------------------------------
PROJECTIONS = {"S": lambda t: t[:2], "N": lambda t: t[:3], "R": lambda t: (t[0], t[1], t[3]), "F": lambda t: t}


def div(a: float, b: float) -> float:
    return a / b if b else 0.0


def f1(p: float, r: float) -> float:
    return div(2 * p * r, p + r)


def doc_counts(gold: Sequence[tuple], pred: Sequence[tuple]) -> dict[str, tuple[int, int, int]]:
    """(matched, |gold|, |pred|) per metric key: matched is set-based, supports are list lengths."""
    out = {}
    for key, project in PROJECTIONS.items():
        g = [project(t) for t in gold]
        p = [project(t) for t in pred]
        out[key] = (len(set(g) & set(p)), len(g), len(p))
    return out


def average(counts: Sequence[tuple[int, int, int]], how: str) -> tuple[float, float, float]:
    """(P, R, F1) in percent of per-document (matched, gold, pred) counts."""
    if how == "micro":
        m = sum(c[0] for c in counts)
        p, r = div(m, sum(c[2] for c in counts)), div(m, sum(c[1] for c in counts))
        return 100 * p, 100 * r, 100 * f1(p, r)
    ps = [div(m, n_pred) for m, n_gold, n_pred in counts]
    rs = [div(m, n_gold) for m, n_gold, n_pred in counts]
    mean_p, mean_r = div(sum(ps), len(ps)), div(sum(rs), len(rs))
    if how == "macro":
        return 100 * mean_p, 100 * mean_r, 100 * div(sum(f1(p, r) for p, r in zip(ps, rs)), len(ps))
    if how == "dplp":
        return 100 * mean_p, 100 * mean_r, 100 * f1(mean_p, mean_r)
    raise ValueError(how)


def score(gold: Sequence[Sequence[tuple]], pred: Sequence[Sequence[tuple]], how: str) -> dict[str, float]:
    """F1 in percent for S, N, R, F from per-document tuple lists."""
    per_doc = [doc_counts(g, p) for g, p in zip(gold, pred)]
    return {key: average([d[key] for d in per_doc], how)[2] for key in PROJECTIONS}


# -- a whole evaluation -------------------------------------------------------------------------
@dataclass(frozen=True)
class Setting:
    """What an evaluation does, in evaluation.md's terms (sections 3, 4, 6-10).

    ``binarization`` is applied to gold and predictions alike; ``attachment_pass`` is the
    educe ``right_mixed`` pass before attachment trees are built (reference mode), in which
    case n-ary leftovers follow section 6; ``passthrough`` keeps unknown labels lowercased.
    """

    metric: str = "parseval"
    average: str = "micro"
    labels: str = "raw"
    binarization: str = "right"
    attachment_pass: str | None = None
    passthrough: bool = False
    exclude_single_edu: bool = False
    missing: str = "error"

    @classmethod
    def reference(cls, binarization: str = "educe-right", **settings) -> Setting:
        """rst-eval's pipeline (section 8): educe binarization, right_mixed pass, pass-through labels."""
        return cls(binarization=binarization, attachment_pass="right_mixed", passthrough=True, **settings)

    def scored_tree(self, tree: T) -> T:
        """The tree whose tuples are scored: relabelled, binarized (and given the attachment pass)."""
        tree = binarized(relabel(tree, self.labels, self.passthrough), self.binarization)
        if self.metric == "parseval" and self.attachment_pass:
            tree = educe(tree, self.attachment_pass)
        return tree

    def tuples(self, tree: T) -> list[tuple]:
        tree = self.scored_tree(tree)
        if self.metric == "rst-parseval":
            return marcu(tree)
        return attachments(tree, nary=self.attachment_pass is not None)

    def nary_attachments(self, tree: T) -> int:
        """Nodes scored by section 6's rule for n-ary leftovers (reference mode only)."""
        if self.metric != "parseval" or not self.attachment_pass:
            return 0
        return sum(len(n.kids) > 2 for n in walk(self.scored_tree(tree)))


@dataclass(frozen=True)
class Result:
    doc_ids: list[str]
    counts: list[dict[str, tuple[int, int, int]]]  # per scored document
    precision: dict[str, float]
    recall: dict[str, float]
    scores: dict[str, float]


def check(tree: T) -> None:
    """Well-formedness rstkit must enforce (section 2.2): no unary node, a nucleus in every node."""
    for node in walk(tree):
        if len(node.kids) == 1:
            raise OracleError(f"unary node {node.start}-{node.end}")
        if node.kids and "N" not in pattern(node):
            raise OracleError(f"node {node.start}-{node.end} has no nucleus")


def evaluate(gold: Mapping[str, T], pred: Mapping[str, T], setting: Setting) -> Result:
    """Score ``pred`` against ``gold`` (documents paired by id, as sorted ids)."""
    for tree in [*gold.values(), *pred.values()]:
        check(tree)
    doc_ids = sorted(gold)
    missing = [d for d in doc_ids if d not in pred]
    if missing and setting.missing == "error":
        raise OracleError(f"no prediction for {missing}")
    if setting.missing == "skip":
        doc_ids = [d for d in doc_ids if d in pred]
    counts = []
    for d in doc_ids:
        predicted = setting.tuples(pred[d]) if d in pred else []
        counts.append(doc_counts(setting.tuples(gold[d]), predicted))
    averaged = [c for d, c in zip(doc_ids, counts) if not (setting.exclude_single_edu and n_edus(gold[d]) == 1)]
    prf = {key: average([c[key] for c in averaged], setting.average) for key in PROJECTIONS}
    return Result(doc_ids, counts, {k: v[0] for k, v in prf.items()}, {k: v[1] for k, v in prf.items()},
                  {k: v[2] for k, v in prf.items()})
