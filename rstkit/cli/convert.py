"""``rstkit convert SRC DST --to dis|rs3|rsd``: convert a file or a directory of trees.

DST is a file when SRC is one file of one document (and DST is neither a directory nor written
with a trailing slash, ``out/``), else a directory. DST may not overlap SRC (the same folder, a
folder inside SRC, SRC inside DST). Nothing is written until every document converted, and then
all files or none (an interrupted run leaves nothing half-written); existing files are not
overwritten without ``--force``, and SRC's own files never are.

``--to tok`` / ``--to conllu`` write DISRPT segmentation files (each EDU's whitespace tokens, the
first marked ``Seg=B-seg``; ``.conllu`` sentences from the EDUs' sentence numbers, GUM's ``.rsd``
``sid``). DISRPT files as SRC are EDU segmentations, not trees: they convert to ``tok`` or ``conllu``
only, one file per ``# newdoc id``, tokens and boundaries as they are.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..convert import convert_documents, warn_erst_loss
from ..corpus import check_input, read_documents
from ..errors import RSTKitError
from ..formats import all_formats, get_format
from ..formats.disrpt import FORMATS as DISRPT_FORMATS
from ..formats.disrpt import convert_segmentations, is_disrpt_input, list_disrpt, read_disrpt, write_trees
from ..output import check_names, check_target, wants_directory, write_files
from ..settings import BINARIZATIONS
from .common import (
    STREAM,
    add_input_options,
    add_label_option,
    add_output_option,
    detected_format,
    output_name,
    output_path,
    refuse_unused,
    remember_defaults,
    stdin_as_file,
    stdin_format,
)


def add_parser(sub) -> None:
    writable = sorted([*(k for k, f in all_formats().items() if f.write is not None), *DISRPT_FORMATS])
    p = sub.add_parser("convert", help="convert trees between formats, optionally binarized and relabelled",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("src", help="a file or a directory of documents; -: one file on standard input")
    p.add_argument("dst", nargs="?", type=output_name,
                   help="output file (for one document) or directory; -: standard output")
    add_output_option(p, "the converted trees (one document: a file or -; several: a directory)", "DST")
    p.add_argument("--to", required=True, choices=writable, help="output format")
    p.add_argument("--binarize", choices=BINARIZATIONS, default="none",
                   help="binarize the trees first (default: none)")
    add_label_option(p, default="raw")
    add_input_options(p)
    p.add_argument("--doc-map", metavar="FILE", default=None,
                   help="document ids for formats whose files do not name them (braud_coling, braud_eacl, dmrst): "
                        "'native name<TAB>id' lines or one id per line in file order")
    p.add_argument("--force", action="store_true", help="overwrite existing files in DST (never SRC's own files)")
    p.set_defaults(run=run)
    remember_defaults(p)

#: the options that change trees (their shape, their relations) or how they are read
_TREE_OPTIONS = ("binarize", "labels", "unknown_labels")


def run(args: argparse.Namespace) -> int:
    output = output_path(args.dst, args.output, "DST")
    fmt = stdin_format(args.src, args.in_format)
    with stdin_as_file(args.src, fmt) as source:
        return _convert(Path(source), output, detected_format(source, fmt, args.src), args)


def _convert(src: Path, output: str, in_format: str | None, args: argparse.Namespace) -> int:
    dst = Path(output)
    check_input(src)
    if args.doc_map:
        check_input(args.doc_map, file=True)
    inputs = [src] + ([Path(args.doc_map)] if args.doc_map else [])
    to_stdout = output == STREAM
    into_folder = not to_stdout and (src.is_dir() or wants_directory(output))
    if not to_stdout:
        check_target(dst, directory=into_folder, inputs=inputs)
    if in_format in DISRPT_FORMATS or (in_format is None and is_disrpt_input(src)):
        if to_stdout:
            raise RSTKitError("DISRPT files are converted into files or a directory, not to standard output (-)",
                              args.src)
        refuse_unused(args, (*_TREE_OPTIONS, "lenient", "doc_map"),
                      "applies to trees: DISRPT files are EDU segmentations, converted as they are")
        return _convert_segmentations(args, src, dst, inputs, into_folder)
    if args.to in DISRPT_FORMATS:
        refuse_unused(args, _TREE_OPTIONS, f"changes the trees' nodes or relations, which --to {args.to} does not "
                                           "write (an EDU segmentation)")
    documents = read_documents(src, in_format, lenient=args.lenient, doc_map=args.doc_map,
                               encoding=args.encoding)
    if to_stdout and len(documents) != 1:
        raise RSTKitError(f"{len(documents)} documents cannot go to standard output (-): name a directory",
                          args.src)
    to_file = not into_folder and len(documents) == 1 and not dst.is_dir()
    if not to_file and not to_stdout:
        check_target(dst, directory=True, inputs=inputs)
        extension = _extension(args.to)
        check_names(((f"{doc_id}{extension}", f"document {doc_id!r} of {src}") for doc_id in documents), str(dst))
    if args.to in DISRPT_FORMATS:
        warn_erst_loss(documents.values(), args.to)
        converted = write_trees(documents, args.to)
    else:
        converted = convert_documents(documents, args.to, binarize=args.binarize, labels=args.labels,
                                      unknown_labels=args.unknown_labels)
    if to_stdout:
        sys.stdout.write(next(iter(converted.values())))
        return 0
    write_files(dst, converted, into_directory=not to_file, force=args.force, inputs=inputs)
    return 0


def _convert_segmentations(args: argparse.Namespace, src: Path, dst: Path, inputs: list[Path],
                           into_folder: bool) -> int:
    """DISRPT files in SRC, one output file per document (see the module's text)."""
    extension = _extension(args.to)
    converted: dict[str, str] = {}
    origin: dict[str, Path] = {}
    for path in list_disrpt(src):
        for doc_id, text in convert_segmentations(read_disrpt(path, encoding=args.encoding), args.to).items():
            if doc_id in origin:
                raise RSTKitError(f"document id {doc_id!r} is in {origin[doc_id]} and in {path}", str(path))
            origin[doc_id] = path
            converted[f"{doc_id}{extension}"] = text
    to_file = not into_folder and len(converted) == 1 and not dst.is_dir()
    if not to_file:
        check_target(dst, directory=True, inputs=inputs)
        check_names(((name, f"document {name[:-len(extension)]!r} of {origin[name[:-len(extension)]]}")
                     for name in converted), str(dst))
    write_files(dst, converted, into_directory=not to_file, force=args.force, inputs=inputs)
    return 0


def _extension(to: str) -> str:
    """The file-name ending of output format ``to``."""
    return DISRPT_FORMATS[to] if to in DISRPT_FORMATS else get_format(to).extensions[0]
