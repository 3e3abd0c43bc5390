"""``rstkit parse INPUT OUT_DIR [--model MODEL_DIR]``: parse documents with gold EDUs.

INPUT is a file or a directory of ``.dis``/``.rs3``/``.rs4`` files (their trees are
ignored), RST-DT ``.edus`` files or plain ``.txt`` files with one EDU per line; with
``--split``, a corpus directory (GUM checkout, RST-DT release, directory with
``splits.tsv``) of which that split is parsed, and ``--gold-out DIR`` copies the split's
gold files there. One ``DOC_ID.dis`` per document is written to OUT_DIR, ready for
``rstkit eval``. Without ``--model`` the shipped model (``rstkit/data/models/gum``, GUM classes)
is used. Needs the ``parser`` extra (torch, tqdm).

Reproduce the shipped model's GUM test scores::

    rstkit parse GUM_CHECKOUT pred --split test --gold-out gold
    rstkit eval gold pred --labels gum
"""
from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from ..errors import RSTKitError


def add_parser(sub) -> None:
    p = sub.add_parser("parse", help="parse documents with rstkit's shift-reduce parser (extra: parser)",
                       description=__doc__)
    p.add_argument("input", help="a file or directory of documents with gold EDUs")
    p.add_argument("out_dir", help="directory for the predicted .dis files")
    p.add_argument("--model", default=None, help="model directory (default: the shipped model)")
    p.add_argument("--format", dest="in_format", default=None, metavar="KEY",
                   help="input format (default: from the extension; .edus/.txt are one EDU per line)")
    p.add_argument("--split", default=None, help="parse this split of the corpus directory INPUT (e.g. test)")
    p.add_argument("--gold-out", default=None, metavar="DIR",
                   help="with --split: copy the split's gold files to DIR (the gold of rstkit eval)")
    p.add_argument("--beam", type=int, default=1, help="beam size (1: greedy)")
    p.add_argument("--batch-docs", type=int, default=16, help="documents decoded together")
    p.add_argument("--device", default="auto", help="auto, cpu or cuda (default: auto)")
    p.add_argument("--no-amp", action="store_true", help="no mixed precision on GPU")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ..parser.data import prepare, read_corpus_split, read_parse_inputs
        from ..parser.decode import decode
        from ..parser.modeldir import default_model_dir, load_model_dir
        from ..parser.train import resolve_device
    except ImportError as exc:
        raise RSTKitError(f"rstkit parse needs the parser extra ({exc.name} is missing): "
                          "pip install torch==2.13.0 tqdm") from None
    from ..formats.dis import dumps_dis

    if args.beam < 1:
        raise RSTKitError("--beam must be at least 1")
    if args.gold_out and not args.split:
        raise RSTKitError("--gold-out needs --split (the gold files of a corpus split)")
    device = resolve_device(args.device)
    model_dir = Path(args.model) if args.model else default_model_dir()
    model, _, _ = load_model_dir(model_dir, device)
    if args.split:
        documents, gold_files = read_corpus_split(args.input, args.split)
    else:
        documents, gold_files = read_parse_inputs(args.input, args.in_format), {}
    prepared = [prepare(doc_id, edus, model.encoder) for doc_id, edus in documents.items()]
    started = time.time()
    trees = decode(model, prepared, device, beam=args.beam, batch_docs=args.batch_docs,
                   amp=not args.no_amp, progress=sys.stderr.isatty())
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for doc_id, tree in trees.items():
        (out / f"{doc_id}.dis").write_text(dumps_dis(tree), encoding="utf-8")
    if args.gold_out:
        gold = Path(args.gold_out)
        gold.mkdir(parents=True, exist_ok=True)
        for file in gold_files.values():
            shutil.copy(file, gold / file.name)
    print(f"rstkit parse: {len(trees)} document(s) parsed in {time.time() - started:.1f}s -> {out}",
          file=sys.stderr)
    return 0
