"""``rstkit train --corpus gum|rstdt|DIR -o MODEL_DIR``: train rstkit's shift-reduce parser.

Needs the ``parser`` extra (torch, transformers). ``gum`` and ``rstdt`` name the
corpora found at ``--corpus-root`` (or ``$RSTKIT_GUM`` / ``$RSTKIT_RSTDT``); any other value
is a GUM checkout, an RST-DT release or a directory of documents (splits from
``splits.tsv``). The model is selected on the dev split by ``--select-by`` (default
original Parseval F, micro); ``--dev-split none`` selects nothing and keeps the model after
the last epoch (``--stop-after N`` ends training after epoch N of the ``--epochs`` schedule), e.g.
a final model on ``--split train+dev`` (splits joined by ``+``: their union) for the epoch count
chosen on dev. For GUM, EDUs get their sentence and paragraph indices from
the ``.rsd`` files of the checkout. Encoders: ``scratch``, ``minilm`` (frozen MiniLM token
features, cached under ``--cache-dir``), ``mpnet`` (the same with all-mpnet-base-v2, the ``mpnet``
extra), ``hf:PATH`` (any local transformers model; with
``--fine-tune`` its weights are trained: ``--encoder-lr``, ``--layer-decay``, ``--warmup``,
``--accumulate``, AMP on CUDA), ``scratch+minilm``, ``scratch+hf:PATH``.
"""
from __future__ import annotations

import argparse
import json
import os
from dataclasses import replace
from pathlib import Path

from ..corpus import resolve_corpus
from ..errors import RSTKitError
from ..extras import needs
from ..labels import label_map_names
from ..output import check_target
from ..progress import showing, shown
from .common import (
    add_input_options,
    add_jobs_option,
    nonnegative_float,
    nonnegative_int,
    output_name,
    positive_float,
    positive_int,
    refuse_unused,
    remember_defaults,
)

#: the --dev-split value that turns model selection off
NO_DEV = "none"


def add_parser(sub) -> None:
    p = sub.add_parser("train", help="train rstkit's shift-reduce parser (extra: parser)", description=__doc__)
    p.add_argument("--corpus", required=True, help="gum, rstdt, or a corpus directory")
    p.add_argument("--corpus-root", default=None, help="where the gum/rstdt corpus is (default: $RSTKIT_GUM / "
                                                        "$RSTKIT_RSTDT)")
    p.add_argument("--split", default="train",
                   help="training split; several joined by + train on their union, e.g. train+dev (default: train)")
    p.add_argument("--dev-split", default="dev",
                   help="model-selection split, or none: no selection, the model after the last epoch (default: dev)")
    p.add_argument("-o", "--output", dest="out", default=None, metavar="DIR", type=output_name,
                   help="model directory to write (required)")
    p.add_argument("--labels", choices=label_map_names(), default=None,
                   help="relation classes (default: gum for GUM, rstdt18 for RST-DT, raw otherwise)")
    p.add_argument("--encoder", default="scratch", metavar="NAME",
                   help="EDU encoder: scratch, minilm, mpnet, hf:PATH, scratch+minilm or scratch+hf:PATH "
                        "(default: scratch)")
    p.add_argument("--fine-tune", action="store_true", help="train the pretrained encoder's weights too")
    p.add_argument("--cache-dir", default=None, metavar="DIR",
                   help="where frozen transformer states are cached (default: $RSTKIT_CACHE/features)")
    p.add_argument("--epochs", type=positive_int, default=30)
    p.add_argument("--patience", type=positive_int, default=5,
                   help="stop after this many epochs without dev improvement")
    p.add_argument("--stop-after", type=positive_int, default=None, metavar="N",
                   help="stop after epoch N, the learning-rate schedule still spanning --epochs (default: --epochs)")
    p.add_argument("--batch-size", dest="batch_docs", type=positive_int, default=4, metavar="N",
                   help="documents per training batch")
    p.add_argument("--accumulate", type=positive_int, default=1, help="batches per optimizer step")
    p.add_argument("--lr", type=positive_float, default=2e-3, help="learning rate of the parser")
    p.add_argument("--encoder-lr", type=positive_float, default=2e-5,
                   help="learning rate of a fine-tuned encoder's top layer")
    p.add_argument("--layer-decay", type=positive_float, default=0.9,
                   help="learning-rate factor per encoder layer below the top (at most 1)")
    p.add_argument("--schedule", choices=["constant", "cosine", "linear"], default="constant",
                   help="learning rate after warm-up: constant, or cosine / linear decay over --epochs")
    p.add_argument("--warmup", type=nonnegative_float, default=0.0,
                   help="fraction of all optimizer steps with a linear learning-rate warm-up")
    p.add_argument("--select-by", default="parseval-micro-F", metavar="METRIC",
                   help="dev metric that selects the model, METRIC-AVERAGE-KEY (default: parseval-micro-F)")
    p.add_argument("--seed", type=nonnegative_int, default=13)
    p.add_argument("--seeds", type=seed_list, default=None, metavar="S1,S2,...",
                   help="train one model per seed into OUT/seedS and make OUT their ensemble (log-probabilities "
                        "averaged)")
    p.add_argument("--device", default="auto", help="auto, cpu or cuda (default: auto)")
    p.add_argument("--no-amp", action="store_true", help="no mixed precision on GPU")
    add_jobs_option(p, "CPU threads for torch (default: min(4, cores) less the cores other processes keep busy)")
    p.add_argument("--max-docs", type=positive_int, default=None,
                   help="train on the first N documents only (smoke tests)")
    p.add_argument("--max-dev-docs", type=positive_int, default=None, help="select on the first N dev documents only")
    p.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.pt")
    p.add_argument("--options", default="{}", metavar="JSON",
                   help='network sizes, e.g. \'{"model": {"hidden": 128}, "encoder": {"embedding_dim": 100}}\'')
    add_input_options(p)
    p.set_defaults(run=run)
    remember_defaults(p)


def seed_list(text: str) -> list[int]:
    """argparse type: distinct seeds separated by commas (``1,2,3``)."""
    try:
        seeds = [nonnegative_int(part.strip()) for part in text.split(",")]
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected seeds (integers >= 0) separated by commas") from None
    if len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"{text!r}: seeds must be distinct")
    return seeds


def run(args: argparse.Namespace) -> int:
    with shown(showing() and os.environ.get("RANK", "0") == "0"):  # under torchrun, the first process reports
        return _train(args)


def _train(args: argparse.Namespace) -> int:
    try:
        from ..parser.config import TrainConfig
        from ..parser.inputs import read_training_trees
        from ..parser.train import check_output_dir, train, train_ensemble
    except ImportError as exc:
        raise RSTKitError(needs("rstkit train", exc.name or "the parser extra", extra="parser")) from None
    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as exc:
        raise RSTKitError(f"--options is not JSON: {exc.msg}") from None
    if not isinstance(options, dict) or set(options) - {"model", "encoder"}:
        raise RSTKitError('--options must be a JSON object with "model" and/or "encoder" members')
    if not args.fine_tune:
        refuse_unused(args, ("encoder_lr", "layer_decay"), "sets how a fine-tuned encoder learns, and without "
                                                           "--fine-tune the encoder is not trained")
    if args.seeds:
        refuse_unused(args, ("seed",), "seeds one model, and --seeds trains one per seed it lists")
    if args.dev_split == NO_DEV:
        refuse_unused(args, ("patience", "select_by", "max_dev_docs"),
                      "concerns selection on dev, and --dev-split none selects nothing")
    if args.out is None:
        raise RSTKitError("name the model directory to write: -o DIR")
    check_output_dir(args.out)
    encoder_options = dict(options.get("encoder", {}))
    if args.fine_tune:
        encoder_options["fine_tune"] = True
    config = TrainConfig(label_map=args.labels or "raw", encoder=args.encoder,
                         encoder_options=encoder_options, model_options=options.get("model", {}),
                         epochs=args.epochs, batch_docs=args.batch_docs, lr=args.lr, schedule=args.schedule,
                         warmup=args.warmup, patience=args.patience, select_by=args.select_by,
                         encoder_lr=args.encoder_lr, layer_decay=args.layer_decay, accumulate=args.accumulate,
                         seed=args.seed, device=args.device, amp=not args.no_amp, threads=args.jobs,
                         cache_dir=args.cache_dir, stop_after=args.stop_after)  # checked before the corpus is read
    corpus = resolve_corpus(args.corpus, args.corpus_root)
    check_target(args.out, directory=True, inputs=[corpus.root])  # a model is never written into its corpus
    config = replace(config, label_map=args.labels or corpus.kind.label_map)
    train_docs = read_training_trees(corpus, corpus.doc_ids(args.split)[:args.max_docs], lenient=args.lenient)
    dev_docs = ({} if args.dev_split == NO_DEV else
                read_training_trees(corpus, corpus.doc_ids(args.dev_split)[:args.max_dev_docs], lenient=args.lenient))
    info = {"corpus": corpus.name, "split": args.split, "dev_split": args.dev_split,
            "train_documents": len(train_docs), "dev_documents": len(dev_docs)}
    if args.seeds:
        states = train_ensemble(train_docs, dev_docs, Path(args.out), config, args.seeds, resume=args.resume,
                                info=info)
        if int(os.environ.get("RANK", "0")) == 0 and not dev_docs:
            print(f"models after epoch {states[0]['epoch']} (no dev selection); ensemble in {args.out}")
        elif int(os.environ.get("RANK", "0")) == 0:
            best = ", ".join(f"seed {s} {state['best']:.2f}" for s, state in zip(args.seeds, states))
            print(f"best dev {config.select_by}: {best}; ensemble in {args.out}")
        return 0
    state = train(train_docs, dev_docs, Path(args.out), config, resume=args.resume, info=info)
    if int(os.environ.get("RANK", "0")) == 0 and not dev_docs:
        print(f"model after epoch {state['epoch']} (no dev selection) in {args.out}")
    elif int(os.environ.get("RANK", "0")) == 0:
        print(f"best dev {config.select_by} {state['best']:.2f} at epoch {state['best_epoch']}; "
              f"model in {args.out}")
    return 0
