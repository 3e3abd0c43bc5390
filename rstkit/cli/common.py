"""Argument helpers shared by several subcommands."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..corpus import read_documents
from ..errors import CorpusError, RSTKitError
from ..labels import label_map_names
from ..tree import RSTTree


def _number(kind: type, text: str, check, expected: str) -> int | float:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {'an integer' if kind is int else 'a number'}") from None
    if not check(value):
        raise argparse.ArgumentTypeError(f"{text!r}: expected {expected}")
    return value


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    return int(_number(int, text, lambda v: v >= 1, "an integer >= 1"))


def nonnegative_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    return int(_number(int, text, lambda v: v >= 0, "an integer >= 0"))


def positive_float(text: str) -> float:
    """argparse type: a finite number > 0."""
    return float(_number(float, text, lambda v: 0 < v < float("inf"), "a number > 0"))


def nonnegative_float(text: str) -> float:
    """argparse type: a finite number >= 0."""
    return float(_number(float, text, lambda v: 0 <= v < float("inf"), "a number >= 0"))


def seed(text: str) -> int:
    """argparse type: a random seed, an integer from 0 to 2**32 - 1 (what numpy and scikit-learn accept)."""
    return int(_number(int, text, lambda v: 0 <= v < 2**32, "an integer from 0 to 4294967295"))


def open_unit_interval(text: str) -> float:
    """argparse type: a number strictly between 0 and 1 (a confidence level, a ratio)."""
    return float(_number(float, text, lambda v: 0 < v < 1, "a number strictly between 0 and 1"))


def check_input(path: str | Path, file: bool = False) -> None:
    """Raise a CorpusError now if ``path`` is missing, cannot be read (a directory: listed) or,
    with ``file``, is not a regular file."""
    path = Path(path)
    if not path.exists():
        raise CorpusError("no such file" + ("" if file else " or directory"), str(path))
    if file and not path.is_file():
        raise CorpusError("not a regular file", str(path))
    if not os.access(path, os.R_OK | (os.X_OK if path.is_dir() else 0)):
        raise CorpusError(f"cannot read {'directory' if path.is_dir() else 'file'}: permission denied", str(path))


def input_format(path: str | Path, fmt: str | None, notes: list[str] | None = None) -> str | None:
    """``fmt``, or for ``"auto"`` the format detected from ``path`` (noted in ``notes``)."""
    if fmt != "auto":
        return fmt
    from ..formats.detect import detect_format

    fmt = detect_format(path)
    if notes is not None:
        notes.append(f"{path}: detected format {fmt!r}")
    return fmt


def add_input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="in_format", metavar="KEY", default=None,
                        help="input format, or 'auto' to detect it (default: from the file extension)")
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
    check_input(path)
    if options.get("doc_map"):
        check_input(options["doc_map"], file=True)
    fmt = input_format(path, fmt, notes)
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
