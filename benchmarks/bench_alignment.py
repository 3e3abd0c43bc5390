"""``--edus aligned`` on one long document whose predicted text a tokenizer rewrote (issue 23).

A gold document of N EDUs (sentences of 8-30 words (3,000 pseudo-words) with curly quotes, dashes, euros, ellipses and
``Wis.`` at sentence ends; about 60 characters per EDU without whitespace) against a prediction
over the same words written as Stanford's tokenizer writes them (``"``, ``--``, ``$ 4``, ``...``,
``Wis. .``), segmented differently (every other gold boundary kept, one added inside every fourth EDU),
with ``½`` written ``1/2`` every 200 EDUs (aligned approximately) and, for ``--lenient``, one sentence
dropped. Times: the text alignment alone, and the whole evaluation (RST-Parseval, micro), against the
same prediction with the gold's own text (no alignment needed).

Run: ``python benchmarks/bench_alignment.py [N ...]`` (default 2500 5000 10000): one line per size.
"""
from __future__ import annotations

import random
import sys
import time
import warnings

from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics.edus import normalise_edu_text
from rstkit.metrics.textalign import align_texts
from rstkit.tree import EDU, Node, RSTTree

SPECIAL = ["“stone”", "€4", "–", "picture…", "brother’s"]
WORDS = SPECIAL + ["".join(random.Random(k).choices("abcdefghijklmnoprstuvw", k=2 + k % 8)) for k in range(3000)]
STANFORD = {"“stone”": '" stone "', "€4": "$ 4", "–": "--", "picture…": "picture ...", "brother’s": "brother 's"}


def balanced(start: int, end: int, nuclearity: str, relation: str | None) -> Node:
    if start == end:
        return Node(start, end, nuclearity, relation)
    mid = (start + end) // 2
    return Node(start, end, nuclearity, relation,
                (balanced(start, mid, "N", "span"), balanced(mid + 1, end, "S", "elaboration")))


def documents(n_edus: int, drop: bool) -> tuple[RSTTree, RSTTree, RSTTree]:
    """Gold, the rewritten prediction, and the same prediction with the gold's text."""
    rng = random.Random(n_edus)
    gold_edus: list[list[str]] = []
    for i in range(n_edus):
        words = [*rng.choices(WORDS, k=rng.randint(8, 30)), *(["½"] if i % 200 == 0 else [])]
        gold_edus.append([*words, "Madison, Wis." if i % 7 == 6 else "end."])
    pred_words: list[list[str]] = []  # predicted EDUs as lists of (gold word, its rewritten form)
    for i, words in enumerate(gold_edus):
        if drop and i == n_edus // 2:
            continue  # a sentence the parser left out
        pieces = [words[:len(words) // 2], words[len(words) // 2:]] if i % 4 == 0 else [words]
        for piece in pieces:
            if i % 2 and pred_words:
                pred_words[-1].extend(piece)
            else:
                pred_words.append(list(piece))

    def rewritten(word: str) -> str:
        if word == "Madison, Wis.":
            return "Madison , Wis. ."
        return "1/2" if word == "½" else STANFORD.get(word, word)

    gold = RSTTree(balanced(1, n_edus, "Root", None),
                   tuple(EDU(i, " ".join(w)) for i, w in enumerate(gold_edus, start=1)), "long")
    m = len(pred_words)
    pred = RSTTree(balanced(1, m, "Root", None),
                   tuple(EDU(i, " ".join(map(rewritten, w))) for i, w in enumerate(pred_words, start=1)), "long")
    same = RSTTree(pred.root, tuple(EDU(i, " ".join(w)) for i, w in enumerate(pred_words, start=1)), "long")
    return gold, pred, same


def timed(function, *args):
    start = time.perf_counter()
    value = function(*args)
    return time.perf_counter() - start, value


def main(sizes: list[int]) -> None:
    warnings.simplefilter("ignore")
    for n in sizes:
        gold, pred, same = documents(n, drop=False)
        gold_text = "".join(normalise_edu_text(e.text) for e in gold.edus)
        pred_text = "".join(normalise_edu_text(e.text) for e in pred.edus)
        align_s, alignment = timed(align_texts, gold_text, pred_text)
        config = EvalConfig(metric="rst-parseval", edus="aligned")
        eval_s, result = timed(score_documents, {"long": gold}, {"long": pred}, config)
        same_s, baseline = timed(score_documents, {"long": gold}, {"long": same}, config)
        assert result.scores == baseline.scores  # the rewrites and ½ change no number here
        dropped_gold, dropped, _ = documents(n, drop=True)
        lenient_s, _ = timed(score_documents, {"long": dropped_gold}, {"long": dropped}, config.replace(lenient=True))
        print(f"{n:6d} EDUs, {len(gold_text):8,d} characters: align_texts {align_s:6.3f} s "
              f"({alignment.changed} changed, {alignment.inserted} inserted, {alignment.deleted} deleted); "
              f"evaluate {eval_s:6.3f} s (same text {same_s:6.3f} s); a sentence dropped, lenient {lenient_s:6.3f} s")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [2500, 5000, 10000])
