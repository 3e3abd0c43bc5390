"""``rstkit convert SRC DST --to dis|rs3|rsd``: convert a file or a directory of trees."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..corpus import read_documents
from ..errors import RSTKitError
from ..formats import all_formats, get_format
from ..formats.detect import detect_format
from ..labels import get_label_map
from ..transform import binarize
from .common import add_input_options, add_label_option


def add_parser(sub) -> None:
    writable = sorted(k for k, f in all_formats().items() if f.write is not None)
    p = sub.add_parser("convert", help="convert trees between formats, optionally binarized and relabelled",
                       description=__doc__)
    p.add_argument("src", help="a file or a directory of documents")
    p.add_argument("dst", help="output file (for one document) or directory")
    p.add_argument("--to", required=True, choices=writable, help="output format")
    p.add_argument("--binarize", choices=["right", "rst-eval", "right_mixed", "none"], default="none",
                   help="binarize the trees first (default: none)")
    add_label_option(p, default="raw")
    add_input_options(p)
    p.add_argument("--doc-map", metavar="FILE", default=None,
                   help="document ids for formats whose files do not name them (braud_coling, braud_eacl, dmrst): "
                        "'native name<TAB>id' lines or one id per line in file order")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    fmt = get_format(args.to)
    label_map = get_label_map(args.labels)
    in_format = args.in_format
    if in_format == "auto":
        in_format = detect_format(args.src)
        print(f"rstkit: detected input format {in_format!r}", file=sys.stderr)
    documents = read_documents(args.src, in_format, lenient=args.lenient, doc_map=args.doc_map)
    src, dst = Path(args.src), Path(args.dst)
    to_file = src.is_file() and len(documents) == 1 and not dst.is_dir()
    if not to_file:
        dst.mkdir(parents=True, exist_ok=True)
    for doc_id, tree in documents.items():
        tree = label_map.apply(binarize(tree, args.binarize), passthrough=args.keep_unknown_labels)
        target = dst if to_file else dst / f"{doc_id}{fmt.extensions[0]}"
        try:
            target.write_text(fmt.write(tree), encoding="utf-8")
        except OSError as exc:
            raise RSTKitError(f"cannot write: {exc.strerror or exc}", str(target)) from None
    return 0
