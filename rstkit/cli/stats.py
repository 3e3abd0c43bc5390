"""``rstkit stats PATH``: documents, EDUs, node arities, nuclearity patterns, relations.

Unreadable documents are left out of the counts and listed (in the JSON ``errors`` and
one line each on stderr); the exit status is then 2, as for any input error.
"""
from __future__ import annotations

import argparse
import json
import sys

from ..corpus import check_input, read_documents
from ..errors import RSTKitError
from ..stats import corpus_stats, stats_text
from . import error_line
from .common import (
    add_input_options,
    add_output_option,
    add_split_option,
    check_result_target,
    check_split,
    detected_format,
    refuse_disrpt,
    report_name,
    stdin_as_file,
    stdin_format,
    write_result,
)


def add_parser(sub) -> None:
    p = sub.add_parser("stats", help="corpus statistics", description=__doc__)
    p.add_argument("path", help="a file, a directory, a GUM checkout or an RST-DT release; -: one file on "
                                "standard input")
    add_split_option(p, "PATH", "the ones counted")
    p.add_argument("--format", dest="output", choices=["text", "json"], default="text", help="output format")
    add_output_option(p, "the statistics", dest="output_file")
    add_input_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_result_target(args.output_file, [args.path], report_name("stats", args.output))
    refuse_disrpt(args.path, args.in_format, "stats")
    check_split(args.path, args.split, "PATH")
    fmt = stdin_format(args.path, args.in_format)
    with stdin_as_file(args.path, fmt) as path:
        check_input(path)
        in_format = detected_format(path, fmt, args.path)
        errors: list[RSTKitError] = []
        documents = read_documents(path, in_format, lenient=args.lenient, skip_errors=True, errors=errors,
                                   encoding=args.encoding, split=args.split)
    stats = corpus_stats(documents, errors)
    write_result(json.dumps(stats, indent=2) if args.output == "json" else stats_text(stats), args.output_file,
                 report_name("stats", args.output))
    for e in errors:
        print(error_line(e, getattr(args, "command_options", None)), file=sys.stderr)
    return 2 if errors else 0
