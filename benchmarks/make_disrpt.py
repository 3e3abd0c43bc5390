"""Synthetic DISRPT segmentation files for benchmarks: a gold ``.tok`` and a prediction of the same tokens.

Seeded and self-contained (no corpus needed): English-like tokens drawn from a Zipf-shaped vocabulary
(words, punctuation, numbers, non-ASCII letters), sentences of 5-40 tokens, EDUs of 3-20 tokens, a few
multi-word-token lines (``3-4``) and other MISC items beside the label (``SpaceAfter=No``); the prediction
has the gold boundaries with about 8% of tokens flipped. ``--labelling beginseg`` writes the 2019-2021
labelling (``BeginSeg=Yes``/``_``), ``--conllu`` sentences (``# sent_id``, ``# text``, ids from 1 in each).

Run: ``python benchmarks/make_disrpt.py OUT [--docs 20] [--tokens 2000000] [--seed 1]``: writes
OUT/gold.tok and OUT/pred.tok (``.conllu`` with ``--conllu``), ``--tokens`` in each file.
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

#: the words of the vocabulary, separated by spaces
_TEXT = (
    "the of and to a in that is was he for it with as his on be at by I this had not are but from or have "
    "an they which one you were her all she there would their we him been has when who will more no if "
    "out so said what up its about into than them can only other new some could time these two may then "
    "do first any my now such like our over man me even most made after also did many before must through "
    "back years where much your way well down should because each just those people Mr how too little "
    "state good very make world still own see men work long get here between both life being under never "
    "day same another know while last might us great old year off come since against go came right used "
    "take three Byron Aberdeen Glennie Dulwich education école Zürich naïve café São Paulo Kraków "
    "discourse relation nucleus satellite elaboration attribution segmentation corpus annotation"
)
_PUNCT = (",", ".", "'s", "n't", "(", ")", '"', ":", ";", "-", "?", "!")


def _vocabulary(rng: random.Random) -> tuple[list[str], list[float]]:
    base = _TEXT.split()
    words = base + [f"{w}{rng.choice(('s', 'ed', 'ing', 'ly', 'er'))}" for w in base] + list(_PUNCT)
    words += [str(n) for n in range(1990, 2026)]
    rng.shuffle(words)
    return words, [1 / (rank + 1) for rank in range(len(words))]


def make_disrpt(out: Path, *, docs: int = 20, tokens: int = 2_000_000, seed: int = 1, labelling: str = "seg",
                conllu: bool = False) -> tuple[Path, Path]:
    """Write OUT/gold.tok and OUT/pred.tok (``.conllu``), ``tokens`` tokens each over ``docs`` documents."""
    rng = random.Random(seed)
    words, weights = _vocabulary(rng)
    begin, inside = ("Seg=B-seg", "Seg=O") if labelling == "seg" else ("BeginSeg=Yes", "_")
    out.mkdir(parents=True, exist_ok=True)
    suffix = ".conllu" if conllu else ".tok"
    gold_path, pred_path = out / f"gold{suffix}", out / f"pred{suffix}"
    per_doc = tokens // docs
    with open(gold_path, "w", encoding="utf-8") as gold, open(pred_path, "w", encoding="utf-8") as pred:
        for d in range(docs):
            doc_id = f"GUM_synthetic_{d:03d}"
            for stream in (gold, pred):
                stream.write(f"# newdoc id = {doc_id}\n")
            n = per_doc if d < docs - 1 else tokens - per_doc * (docs - 1)
            drawn = rng.choices(words, weights, k=n)
            sentence, token_id, edu_left = 0, 0, 0
            sentence_left = 0
            gold_lines: list[str] = []
            pred_lines: list[str] = []
            for position, word in enumerate(drawn):
                if sentence_left == 0:
                    sentence_left = rng.randint(5, 40)
                    sentence += 1
                    token_id = 0
                    edu_left = 0
                    if conllu:
                        if position:
                            gold_lines.append("\n")
                            pred_lines.append("\n")
                        header = f"# sent_id = {doc_id}-{sentence}\n# text = ...\n"
                        gold_lines.append(header)
                        pred_lines.append(header)
                token_id += 1
                sentence_left -= 1
                begins = edu_left == 0
                edu_left = rng.randint(3, 20) if begins else edu_left - 1
                guessed = begins != (rng.random() < 0.08)
                ident = token_id if conllu else position + 1
                if rng.random() < 0.002:  # a multi-word token line before the token: no token itself
                    mwt = f"{ident}-{ident + 1}\t{word}{word}\t_\t_\t_\t_\t_\t_\t_\t_\n"
                    gold_lines.append(mwt)
                    pred_lines.append(mwt)
                extra = "SpaceAfter=No|" if word in _PUNCT and rng.random() < 0.3 else ""
                head = f"{ident}\t{word}\t_\t_\t_\t_\t_\t_\t_\t{extra}"
                gold_lines.append(f"{head}{begin if begins else inside}\n")
                pred_lines.append(f"{head}{begin if guessed else inside}\n")
            for stream, lines in ((gold, gold_lines), (pred, pred_lines)):
                stream.write("".join(lines))
                stream.write("\n")
    return gold_path, pred_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--docs", type=int, default=20)
    parser.add_argument("--tokens", type=int, default=2_000_000, help="tokens in each file")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--labelling", choices=("seg", "beginseg"), default="seg")
    parser.add_argument("--conllu", action="store_true")
    args = parser.parse_args()
    for path in make_disrpt(args.out, docs=args.docs, tokens=args.tokens, seed=args.seed, labelling=args.labelling,
                            conllu=args.conllu):
        print(path)


if __name__ == "__main__":
    main()
