"""Argument helpers shared by several subcommands."""
from __future__ import annotations

import argparse

from ..corpus import read_documents
from ..errors import RSTKitError
from ..labels import label_map_names
from ..tree import RSTTree


def add_input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="in_format", metavar="KEY", default=None,
                        help="input format (default: from the file extension)")
    parser.add_argument("--lenient", action="store_true",
                        help="repair inconsistent extents from the leaves (with a warning) instead of rejecting")


def add_label_option(parser: argparse.ArgumentParser, default: str | None) -> None:
    parser.add_argument("--labels", choices=label_map_names(), default=default,
                        help=f"relation label map (default: {default})")
    parser.add_argument("--keep-unknown-labels", action="store_true",
                        help="let labels the map does not know pass through (lowercased) instead of failing")


def read_input(path: str, fmt: str | None, args: argparse.Namespace, notes: list[str], **options) -> dict[str, RSTTree]:
    """Documents of a file or directory; ``fmt="auto"`` detects the format (noted), unreadable
    documents are skipped (noted) when ``args.skip_errors``."""
    if fmt == "auto":
        from ..formats.detect import detect_format

        fmt = detect_format(path)
        notes.append(f"{path}: detected prediction format {fmt!r}")
    errors: list[RSTKitError] = []
    documents = read_documents(path, fmt, lenient=args.lenient, skip_errors=args.skip_errors, errors=errors,
                               **options)
    notes.extend(f"skipped unreadable document: {e}" for e in errors)
    return documents


def pair_single_files(pred: dict[str, RSTTree], gold_id: str, path: str) -> dict[str, RSTTree]:
    """Two single files are paired whatever their names."""
    if len(pred) != 1:
        raise RSTKitError(f"gold is one document but the prediction file holds {len(pred)}", path)
    return {gold_id: next(iter(pred.values()))}
