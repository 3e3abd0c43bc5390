"""GUM test from raw text: segmenter + parser, scored on characters against the gold trees.

    export RSTKIT_GUM=/path/to/gum            # a GUM checkout (splits.md, rst/lisp_nary, rst/dependencies)
    python parsers/rstkit/reproduce_raw_text.py WORK_DIR [--split test] [-- PARSE_OPTIONS ...]

1. Each document's plain text is rebuilt from its gold EDUs (GUM's ``.rsd`` files, which
   carry the paragraphs): the EDUs of a paragraph joined by single spaces, a blank line
   between paragraphs -> ``WORK_DIR/text/DOC_ID.txt``. The gold trees (``lisp_nary``) are
   copied to ``WORK_DIR/gold``.
2. ``rstkit parse WORK_DIR/text WORK_DIR/pred`` segments each text with the shipped
   segmenter and parses it with the default parser.
3. ``rstkit eval WORK_DIR/gold WORK_DIR/pred --edus aligned --labels gum`` scores original
   Parseval and RST-Parseval, micro, on character spans, with the segmentation P/R/F.

Everything goes through rstkit's command line; the figures are in parsers/rstkit/README.md.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from itertools import groupby
from pathlib import Path

from rstkit.corpus import read_tree, resolve_corpus


def plain_text(edus) -> str:
    """The EDUs of each paragraph joined by single spaces, a blank line between paragraphs
    (one paragraph when the EDUs carry none)."""
    paragraphs = groupby(edus, key=lambda e: e.paragraph)
    return "\n\n".join(" ".join(e.text for e in group) for _, group in paragraphs) + "\n"


def rstkit(*args: str) -> None:
    print("$ rstkit " + " ".join(args), flush=True)
    subprocess.run([sys.executable, "-m", "rstkit", *args], check=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("work", help="working directory (created; text/, gold/ and pred/ are written there)")
    p.add_argument("--gum", default=None, help="GUM checkout (default: $RSTKIT_GUM)")
    p.add_argument("--split", default="test")
    p.add_argument("parse_options", nargs="*", help="more options of rstkit parse (after --)")
    args = p.parse_args(argv)
    corpus = resolve_corpus("gum", args.gum)
    source = corpus.boundary_corpus()
    if source is None:
        raise SystemExit(f"{corpus.root}: no .rsd files (rst/dependencies), so no paragraphs")
    work = Path(args.work)
    text_dir, gold_dir, pred_dir = work / "text", work / "gold", work / "pred"
    for directory in (text_dir, gold_dir, pred_dir):
        if directory.exists():
            shutil.rmtree(directory)
        directory.mkdir(parents=True)
    ids = corpus.doc_ids(args.split)
    for doc_id in ids:
        edus = read_tree(source.path(doc_id), source.format).edus
        (text_dir / f"{doc_id}.txt").write_text(plain_text(edus), encoding="utf-8")
        shutil.copy(corpus.path(doc_id), gold_dir / corpus.path(doc_id).name)
    print(f"{len(ids)} documents of GUM {args.split}: texts in {text_dir}, gold trees in {gold_dir}", flush=True)
    rstkit("parse", str(text_dir), str(pred_dir), *args.parse_options)
    for metric in ("parseval", "rst-parseval"):
        rstkit("eval", str(gold_dir), str(pred_dir), "--edus", "aligned", "--labels", "gum", "--metric", metric)
    return 0


if __name__ == "__main__":
    sys.exit(main())
