"""Synthetic RST-DT-like ``.dis`` corpora for the end-to-end benchmarks (seeded, reproducible).

``gold/`` holds n-ary trees in RST-DT's layout (one node per line, leaves on one line,
``<P>`` at paragraph ends, EDU text with brackets, quotes and non-ASCII characters):
mononuclear nodes (N S, S N), binary and n-ary multinuclear nodes (capitalised labels, as
RST-DT writes them) and S N S nodes, fine RST-DT labels that ``rstdt18`` maps to the 18
classes. Below an S N S node every node is binary, so educe's ``right`` binarization
(bug B1 included) and rstkit's give the same tree and the reference baseline agrees with
``rstkit eval`` to the last digit. ``pred/`` holds binary trees over the same EDUs, as a
parser writes them: each span is split where the gold tree splits it with probability
0.85, and labels are copied from gold with probabilities 0.8 (nuclearity) and 0.65
(relation).

Run: ``python benchmarks/make_corpus.py OUT --docs 2000 [--edus 60] [--seed 1]``;
``--edus`` is the mean number of EDUs per document (each document draws from
0.6x..1.4x of it; ``--fixed`` makes every document exactly that long). ``--educe-readable`` writes the
word ``[bracketed]`` as ``bracketed``: educe's reader cannot read a ``]`` inside EDU text (evaluation.md
section 2.2), and the trees, labels and every other word stay the same (the random draws do not change).
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

#: satellite relations (RST-DT fine labels, lowercase) and multinuclear ones (capitalised)
MONONUCLEAR = ["elaboration-additional", "elaboration-object-attribute-e", "attribution", "attribution-e",
               "background", "circumstance", "explanation-argumentative", "evidence", "reason", "purpose",
               "enablement", "condition", "hypothetical", "contingency", "concession", "antithesis",
               "result", "consequence-s", "cause", "manner", "means", "comment", "evaluation-s",
               "interpretation-s", "example", "definition", "restatement", "summary-n", "temporal-after",
               "temporal-before", "temporal-same-time", "comparison", "analogy", "preference",
               "problem-solution-s", "question-answer-s", "rhetorical-question", "topic-shift",
               "elaboration-general-specific", "elaboration-set-member", "elaboration-part-whole"]
MULTINUCLEAR = ["List", "Same-Unit", "Contrast", "Sequence", "Disjunction", "Comparison", "Cause-Result",
                "TextualOrganization", "Topic-Comment", "Temporal-Same-Time", "Consequence", "Inverted-Sequence"]
WORDS = ["the", "company", "said", "its", "profit", "rose", "sharply", "in", "the", "third", "quarter", "because",
         "sales", "of", "new", "products", "were", "strong", "but", "analysts", "expected", "more", "(", "notably",
         ")", '"quotes"', "[bracketed]", "café", "naïve", "50%", "$", "3.5", "billion", "--", "which", ",",
         "according", "to", "officials", ";", "would", "be", ":", "Mr.", "O'Brien's", "plan"]


#: WORDS for a corpus that educe can read: ``]`` ends educe's EDU-text token (evaluation.md section 2.2)
EDUCE_WORDS = [word.strip("[]") for word in WORDS]


def _text(rng: random.Random, paragraph_end: bool, words: list[str]) -> str:
    text = " ".join(rng.choice(words) for _ in range(rng.randint(4, 18)))
    return text + ("<P>" if paragraph_end else "")


class _Doc:
    """One gold document and its prediction, built top-down."""

    def __init__(self, n: int, rng: random.Random, words: list[str]):
        self.n, self.rng = n, rng
        self.paragraph_ends = {i for i in range(1, n) if rng.random() < 0.12} | {n}
        self.texts = {i: _text(rng, i in self.paragraph_ends, words) for i in range(1, n + 1)}

    # -- gold: an n-ary tree ------------------------------------------------------------
    def gold(self) -> tuple:
        """(start, end, nuclearity, relation, children) nested tuples; the root first."""
        return self._gold(1, self.n, "Root", None, binary_only=False)

    def _cuts(self, start: int, end: int, k: int) -> list[tuple[int, int]]:
        points = sorted(self.rng.sample(range(start + 1, end + 1), k - 1))
        bounds = [start, *points, end + 1]
        return [(bounds[i], bounds[i + 1] - 1) for i in range(k)]

    def _gold(self, start: int, end: int, nuc: str, rel: str | None, binary_only: bool) -> tuple:
        if start == end:
            return (start, end, nuc, rel, ())
        length = end - start + 1
        rng = self.rng
        roll = rng.random()
        if not binary_only and length >= 3 and roll < 0.10:  # n-ary multinuclear
            k = rng.randint(3, min(5, length))
            label = rng.choice(MULTINUCLEAR)
            kids = [self._gold(a, b, "Nucleus", label, False) for a, b in self._cuts(start, end, k)]
        elif not binary_only and length >= 3 and roll < 0.14:  # S N S: binary below (no B1 difference)
            (a1, b1), (a2, b2), (a3, b3) = self._cuts(start, end, 3)
            kids = [self._gold(a1, b1, "Satellite", rng.choice(MONONUCLEAR), False),
                    self._gold(a2, b2, "Nucleus", "span", True),
                    self._gold(a3, b3, "Satellite", rng.choice(MONONUCLEAR), True)]
        elif roll < 0.30:  # binary multinuclear
            label = rng.choice(MULTINUCLEAR)
            kids = [self._gold(a, b, "Nucleus", label, binary_only) for a, b in self._cuts(start, end, 2)]
        else:  # mononuclear, nucleus first in 70%
            (a1, b1), (a2, b2) = self._cuts(start, end, 2)
            pattern = ("Nucleus", "Satellite") if rng.random() < 0.7 else ("Satellite", "Nucleus")
            kids = [self._gold(a, b, word, "span" if word == "Nucleus" else rng.choice(MONONUCLEAR), binary_only)
                    for (a, b), word in zip(((a1, b1), (a2, b2)), pattern)]
        return (start, end, nuc, rel, tuple(kids))

    # -- prediction: a binary tree close to the gold one ----------------------------------
    def pred(self, gold: tuple) -> tuple:
        splits: dict[tuple[int, int], tuple] = {}
        stack = [gold]
        while stack:
            node = stack.pop()
            kids = node[4]
            if kids:
                splits[(node[0], node[1])] = kids
                stack.extend(kids)
        return self._pred(1, self.n, "Root", None, splits)

    def _pred(self, start: int, end: int, nuc: str, rel: str | None, splits: dict) -> tuple:
        if start == end:
            return (start, end, nuc, rel, ())
        rng = self.rng
        gold_kids = splits.get((start, end))
        if gold_kids is not None and rng.random() < 0.85:
            cut = gold_kids[1][0]  # gold's first split (right binarization keeps it)
            same = len(gold_kids) == 2
        else:
            cut, same = rng.randint(start + 1, end), False
        if same and rng.random() < 0.8:
            pattern = (gold_kids[0][2][0], gold_kids[1][2][0])
        else:
            pattern = rng.choice([("N", "S"), ("N", "S"), ("S", "N"), ("N", "N")])
        if same and rng.random() < 0.65:
            label = gold_kids[1][3] if gold_kids[1][2] == "Satellite" else gold_kids[0][3]
        else:
            label = rng.choice(MULTINUCLEAR if pattern == ("N", "N") else MONONUCLEAR)
        kids = []
        for (a, b), code in zip(((start, cut - 1), (cut, end)), pattern):
            word = "Nucleus" if code == "N" else "Satellite"
            kids.append(self._pred(a, b, word, label if (code == "S" or pattern == ("N", "N")) else "span", splits))
        return (start, end, nuc, rel, tuple(kids))

    # -- writing --------------------------------------------------------------------------
    def dis(self, tree: tuple) -> str:
        lines: list[str] = []
        stack: list[tuple | None] = [(tree, 0)]
        while stack:
            item = stack.pop()
            node, depth = item
            pad = "  " * depth
            if node is None:
                lines.append(pad + ")")
                continue
            start, end, nuc, rel, kids = node
            head = f"( {nuc} " + (f"(leaf {start})" if not kids else f"(span {start} {end})")
            if rel is not None:
                head += f" (rel2par {rel})"
            if not kids:
                lines.append(f"{pad}{head} (text _!{self.texts[start]}_!) )")
                continue
            lines.append(pad + head)
            stack.append((None, depth))
            stack.extend((kid, depth + 1) for kid in reversed(kids))
        return "\n".join(lines) + "\n"


def make_corpus(out: Path, n_docs: int, mean_edus: int = 60, seed: int = 1, fixed: bool = False,
                educe_readable: bool = False) -> None:
    """Write ``out/gold/docNNNNN.dis`` and ``out/pred/docNNNNN.dis``; ``educe_readable``: with no ``]`` in
    EDU text (the same trees)."""
    rng = random.Random(seed)
    for side in ("gold", "pred"):
        (out / side).mkdir(parents=True, exist_ok=True)
    low, high = max(2, int(mean_edus * 0.6)), max(2, int(mean_edus * 1.4))
    for i in range(n_docs):
        n = mean_edus if fixed else rng.randint(low, high)
        doc = _Doc(n, rng, EDUCE_WORDS if educe_readable else WORDS)
        gold = doc.gold()
        name = f"doc{i:05d}.dis"
        (out / "gold" / name).write_text(doc.dis(gold), encoding="utf-8")
        (out / "pred" / name).write_text(doc.dis(doc.pred(gold)), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--docs", type=int, default=2000)
    parser.add_argument("--edus", type=int, default=60, help="mean EDUs per document")
    parser.add_argument("--fixed", action="store_true", help="every document exactly --edus EDUs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--educe-readable", action="store_true", help="no ']' in EDU text (educe cannot read it)")
    args = parser.parse_args()
    make_corpus(args.out, args.docs, args.edus, args.seed, args.fixed, args.educe_readable)


if __name__ == "__main__":
    main()
