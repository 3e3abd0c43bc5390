"""Hypothesis strategies: random well-formed RST trees (n-ary or binary)."""
from __future__ import annotations

from hypothesis import strategies as st

from rstkit.tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree

MONO = ["elaboration-additional", "attribution", "circumstance", "concession", "purpose", "Comparison",
        "evaluation-s", "consequence-n", "background", "condition"]
MULTI = ["List", "Contrast", "Same-Unit", "Sequence", "TextualOrganization", "comparison"]
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=0, max_size=12).map(
    lambda s: " ".join(s.replace("_!", "!_").split()))


@st.composite
def rst_trees(draw, min_edus: int = 1, max_edus: int = 12, max_arity: int = 4, patterns: str = "reference",
              with_text: bool = False) -> RSTTree:
    """A random valid tree.

    ``patterns``: ``"binary"`` (NS, SN, NN only), ``"reference"`` (also all-nuclei n-ary and
    S N S: what the reference binarizer accepts) or ``"any"`` (any single nucleus with satellites
    on either side, or a block of contiguous nuclei with satellites).
    """
    n = draw(st.integers(min_edus, max_edus))

    def children_pattern(k: int) -> str:
        if k == 2:
            return draw(st.sampled_from(["NS", "SN", "NN"]))
        options = ["N" * k]
        if patterns == "reference" and k == 3:
            options.append("SNS")
        if patterns == "any":
            first = draw(st.integers(0, k - 1))
            last = draw(st.integers(first, k - 1))
            options.append("S" * first + "N" * (last - first + 1) + "S" * (k - 1 - last))
        return draw(st.sampled_from(options))

    def build(start: int, end: int, nuclearity: str, relation: str | None) -> Node:
        if start == end:
            return Node(start, end, nuclearity, relation)
        size = end - start + 1
        k = 2 if patterns == "binary" else draw(st.integers(2, min(size, max_arity)))
        cuts = sorted(draw(st.lists(st.integers(start + 1, end), min_size=k - 1, max_size=k - 1, unique=True)))
        bounds = list(zip([start, *cuts], [c - 1 for c in cuts] + [end]))
        pattern = children_pattern(k)
        multinuclear = pattern.count(NUCLEUS) > 1
        multi_label = draw(st.sampled_from(MULTI))
        kids = []
        for (a, b), nuc in zip(bounds, pattern):
            if nuc == SATELLITE:
                rel = draw(st.sampled_from(MONO))
            else:
                rel = multi_label if multinuclear else SPAN
            kids.append(build(a, b, nuc, rel))
        return Node(start, end, nuclearity, relation, tuple(kids))

    root = build(1, n, ROOT, None)
    edus = tuple(EDU(i, draw(TEXT) if with_text else f"edu {i}") for i in range(1, n + 1))
    return RSTTree(root, edus, draw(st.from_regex(r"[a-z]{1,6}_[0-9]{2}", fullmatch=True)))


@st.composite
def tree_pairs(draw, max_edus: int = 12, patterns: str = "reference") -> tuple[RSTTree, RSTTree]:
    """A gold tree and a binary prediction over the same EDUs."""
    gold = draw(rst_trees(min_edus=1, max_edus=max_edus, patterns=patterns))
    n = gold.n_edus
    pred = draw(rst_trees(min_edus=n, max_edus=n, patterns="binary"))
    return gold, pred
