"""A pure-Python baseline of DISRPT's segmentation scorer: a BASELINE, NOT the official script.

Written from the scorer's rules as rstkit's documentation gives them (docs/metrics/segmentation.md,
the module docstring of rstkit/metrics/segmentation.py), sharing no code with rstkit or with the
official script: each file is read whole and split into lines; comment (``#``) and blank lines are
skipped, as are lines whose id holds ``-`` (multi-word tokens) or ``.`` (empty nodes); a token begins
an EDU when its last column holds ``Seg=B-seg`` (or ``BeginSeg=Yes``, the 2019-2021 labelling); with
``-nb`` a token whose id is 1 begins none. Tokens must be the same on both sides; micro P, R, F1
over all tokens.

Run: ``python benchmarks/disrpt_baseline.py GOLD PRED [-nb]``; prints the counts and scores as JSON.
"""
from __future__ import annotations

import json
import sys


def read(path: str, no_sentence_initial: bool) -> tuple[list[str], list[bool]]:
    with open(path, encoding="utf-8-sig") as stream:
        text = stream.read()
    tokens: list[str] = []
    begins: list[bool] = []
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if not line or line.startswith("#"):
            continue
        columns = line.split("\t")
        if "-" in columns[0] or "." in columns[0]:
            continue
        misc = columns[-1]
        tokens.append(columns[1])
        begins.append(("Seg=B-seg" in misc or "BeginSeg=Yes" in misc)
                      and not (no_sentence_initial and columns[0] == "1"))
    return tokens, begins


def main() -> None:
    gold_path, pred_path = sys.argv[1], sys.argv[2]
    no_sentence_initial = "-nb" in sys.argv[3:]
    gold_tokens, gold = read(gold_path, no_sentence_initial)
    pred_tokens, pred = read(pred_path, no_sentence_initial)
    if gold_tokens != pred_tokens:
        sys.exit("the files have different tokens")
    matched = sum(g and p for g, p in zip(gold, pred))
    n_gold, n_pred = sum(gold), sum(pred)
    precision = matched / n_pred if n_pred else 0.0
    recall = matched / n_gold if n_gold else 0.0
    f_score = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    print(json.dumps({"tok_count": len(gold), "gold_count": n_gold, "pred_count": n_pred, "matched": matched,
                      "precision": precision, "recall": recall, "f_score": f_score}, indent=2))


if __name__ == "__main__":
    main()
