"""``rstkit draw FILE``: draw trees in the terminal, as SVG or as a self-contained HTML page.

FILE is a file of any format rstkit reads or a directory (then one drawing per document,
written into the directory ``-o OUT``); with ``--split NAME``, a corpus directory (a GUM
checkout, an RST-DT release, a directory with ``splits.tsv``) of which that split's
documents are drawn. ``--compare PRED`` draws the gold tree and the
prediction with the differing constituents highlighted. Existing drawings are replaced;
input files never are.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from ..convert import convert_tree
from ..corpus import check_input, read_documents
from ..draw import DRAWINGS, drawing
from ..draw.text import needs_ascii
from ..errors import MissingDocumentError, RSTKitError
from ..output import check_names, check_target, wants_directory, write_files
from ..progress import Progress
from ..settings import BINARIZATIONS
from ..tree import RSTTree
from .common import (
    STREAM,
    add_input_options,
    add_label_option,
    add_split_option,
    check_split,
    detected_format,
    format_fix,
    nonnegative_int,
    one_stdin,
    output_name,
    refuse_disrpt,
    refuse_unused,
    remember_defaults,
    stdin_as_file,
    stdin_format,
)

FORMATS = dict(zip(DRAWINGS, (".txt", ".svg", ".html")))
#: binarization choices, "none" (the default) first as --help lists them
DRAW_BINARIZATIONS = ("none", *(mode for mode in BINARIZATIONS if mode != "none"))
#: output file extensions and the drawing each one names
EXTENSIONS = {".txt": "text", ".svg": "svg", ".html": "html", ".htm": "html"}


def edu_range(value: str) -> tuple[int, int]:
    """``3-7`` or ``5`` to an EDU range."""
    first, sep, last = value.partition("-")
    try:
        a, b = int(first), int(last if sep else first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an EDU range: {value!r} (expected e.g. 3-7)") from None
    if a < 1 or b < a:
        raise argparse.ArgumentTypeError(f"not an EDU range: {value!r} (expected 1 <= first <= last)")
    return a, b


def add_parser(sub) -> None:
    p = sub.add_parser("draw", help="draw trees: terminal text, SVG, or an HTML page (optionally gold vs prediction)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", help="a file of trees (any format rstkit reads) or a directory (with --split, a corpus "
                                "directory); -: one file on standard input")
    p.add_argument("--kind", dest="format", choices=list(FORMATS), default=None,
                   help="what to draw (default: from the extension of -o, else text)")
    p.add_argument("-o", "--output", metavar="OUT", type=output_name,
                   help="output file (a directory for several documents); default or -: standard output")
    add_split_option(p, "FILE", "the ones drawn (with --compare, the gold ones)")
    p.add_argument("--compare", metavar="PRED", help="a predicted tree (file or directory) to compare with FILE")
    p.add_argument("--pred-format", metavar="KEY", default=None,
                   help="format of PRED, or 'auto' to detect it (default: from its extension)")
    p.add_argument("--doc", metavar="ID", help="draw only this document of a multi-document file or directory")
    p.add_argument("--edus", metavar="A-B", type=edu_range,
                   help="draw only the smallest constituent covering EDUs A to B")
    p.add_argument("--width", type=nonnegative_int, default=None,
                   help="text: cut lines at this many characters (default: the terminal's width; 0: never)")
    p.add_argument("--ascii", action="store_true", help="text: ASCII characters only (default when the output "
                   "cannot encode box-drawing characters)")
    p.add_argument("--binarize", choices=DRAW_BINARIZATIONS, default="none",
                   help="binarize the trees before drawing (default: none)")
    add_label_option(p, default="raw")
    add_input_options(p)
    p.set_defaults(run=run)
    remember_defaults(p)


def _documents(given: str, fmt: str | None, args: argparse.Namespace, side: str = "format") -> dict[str, RSTTree]:
    """The trees of FILE (``side`` ``format``: ``--from``; the documents of ``--split`` of it) or of
    --compare PRED (``pred_format``)."""
    refuse_disrpt(given, fmt, "draw")
    split = args.split if side == "format" else None
    check_split(given, split, "FILE")
    fmt = stdin_format(given, fmt)
    with stdin_as_file(given, fmt) as path:
        check_input(path)
        try:
            documents = read_documents(path, detected_format(path, fmt, given, side), lenient=args.lenient,
                                       encoding=args.encoding, split=split)
        except RSTKitError as exc:
            raise format_fix(exc, side) from None
    if args.doc is not None:
        if args.doc not in documents:
            where = f"in split {split!r} of this corpus" if split is not None else "here"
            raise MissingDocumentError(f"no document {args.doc!r} {where} (documents: "
                                       f"{', '.join(list(documents)[:10])}{' ...' if len(documents) > 10 else ''})",
                                       given)
        documents = {args.doc: documents[args.doc]}
    return {doc_id: convert_tree(tree, binarize=args.binarize, labels=args.labels, unknown_labels=args.unknown_labels)
            for doc_id, tree in documents.items()}


def _pairs(gold: dict[str, RSTTree], pred: dict[str, RSTTree], pred_path: str
           ) -> dict[str, tuple[RSTTree, RSTTree | None]]:
    """Gold and predicted trees by document id (two single documents pair whatever their ids)."""
    if len(gold) == 1 and len(pred) == 1:
        return {next(iter(gold)): (next(iter(gold.values())), next(iter(pred.values())))}
    missing = [d for d in gold if d not in pred]
    if missing:
        raise MissingDocumentError(f"no prediction for {len(missing)} document(s): {', '.join(missing[:10])}",
                                   pred_path)
    return {doc_id: (tree, pred[doc_id]) for doc_id, tree in gold.items()}


def _format(args: argparse.Namespace, out: Path | None) -> str:
    """--format, else the one the output file's extension names, else text. An extension
    that names no drawing rstkit makes (``x.png``) or another one than --format is an error."""
    if out is None or out.is_dir():
        return args.format or "text"
    suffix = out.suffix.lower()
    named = EXTENSIONS.get(suffix)
    if args.format:
        if named is not None and named != args.format:
            raise RSTKitError(f"the extension {suffix} names {named} output, not --format {args.format}", str(out))
        return args.format
    if suffix and named is None:
        known = ", ".join(f"{ext} ({fmt})" for ext, fmt in EXTENSIONS.items())
        raise RSTKitError(f"cannot draw to a {suffix} file: rstkit draw writes {known}; name the output "
                          "with one of these extensions, or give --format", str(out))
    return named or "text"


def run(args: argparse.Namespace) -> int:
    one_stdin([args.file, args.compare])
    out = Path(args.output) if args.output and args.output != STREAM else None
    into_folder = out is not None and wants_directory(args.output)
    fmt = _format(args, None if into_folder else out)
    if fmt != "text":
        refuse_unused(args, ("width", "ascii"), f"applies to text drawings, not to {fmt}")
    if args.compare is None:
        refuse_unused(args, ("pred_format",), "is the format of --compare PRED, and no PRED is given")
    inputs = [Path(p) for p in (args.file, args.compare) if p and p != STREAM]
    if out is not None:
        check_target(out, directory=into_folder, inputs=inputs)
    gold = _documents(args.file, args.in_format, args)
    if args.compare:
        documents = _pairs(gold, _documents(args.compare, args.pred_format, args, "pred_format"), args.compare)
    else:
        documents = {doc_id: (tree, None) for doc_id, tree in gold.items()}
    several = len(documents) > 1 and fmt != "text"
    if several:
        if out is None:
            raise RSTKitError(f"{len(documents)} documents: name a directory for the {fmt} files with -o "
                              "(or pick one with --doc)", args.file)
        check_target(out, directory=True, inputs=inputs)
    to_stdout = out is None
    ascii = args.ascii or (to_stdout and needs_ascii(sys.stdout.encoding))
    width = args.width if args.width is not None else (
        shutil.get_terminal_size().columns if to_stdout and sys.stdout.isatty() else 0)
    drawings = {}
    with Progress(len(documents), "draw", "document") as bar:  # quiet for quick work; a folder of long ones shows
        for doc_id, (tree, pred) in documents.items():
            drawings[doc_id] = drawing(tree, fmt, compare=pred, edus=args.edus, width=width, ascii=ascii)
            bar.update()
    if several:
        assert out is not None, "checked above"
        check_names(((f"{doc_id}{FORMATS[fmt]}", f"document {doc_id!r}") for doc_id in drawings), str(out))
        files = {f"{doc_id}{FORMATS[fmt]}": content for doc_id, content in drawings.items()}
        write_files(out, files, into_directory=True, force=True, inputs=inputs)
    elif out is None:
        sys.stdout.write("\n".join(drawings.values()))
    else:
        content = "\n".join(drawings.values())
        folder = into_folder or out.is_dir()
        name = f"{next(iter(drawings))}{FORMATS[fmt]}" if folder else out.name
        if folder:
            check_names([(name, f"document {next(iter(drawings))!r}")], str(out))
        write_files(out, {name: content}, into_directory=folder, force=True, inputs=inputs)
    return 0
