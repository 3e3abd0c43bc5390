"""Argument helpers shared by several subcommands."""
from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from ..corpus import read_input as corpus_input
from ..labels import label_map_names
from ..settings import DEP_ENCODINGS
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


class CommaChoices(tuple):
    """The ``choices`` of an option that takes ``all`` or a comma list: iterating gives the values
    (help, introspection); a parsed list is in it when each of its values is."""

    def __contains__(self, value: object) -> bool:
        items = value if isinstance(value, list) else [value]
        return all(tuple.__contains__(self, item) for item in items)


def comma_list(allowed: Sequence[str], every: Sequence[str] | None = None) -> dict[str, Any]:
    """``type`` and ``choices`` of an option that takes one of ``allowed``, ``all``, or a comma list
    of them (parsed into a list without repeats, in the order given; ``all``: every one, or those
    of ``every``)."""
    def parse(text: str) -> list[str]:
        if text.strip() == "all":
            return list(allowed if every is None else every)
        values = [v.strip() for v in text.split(",")]
        wrong = [v for v in values if v not in allowed]
        if wrong:
            raise argparse.ArgumentTypeError(f"{', '.join(map(repr, wrong))}: expected all or a comma list of "
                                             f"{', '.join(allowed)}")
        return list(dict.fromkeys(values))

    return {"type": parse, "choices": CommaChoices([*allowed, "all"])}


def dep_encoding(text: str) -> str:
    """A dependency encoding, or ``GOLD,PRED`` (checked as :class:`~rstkit.metrics.EvalConfig` checks it)."""
    parts = [part.strip() for part in text.split(",")]
    if not 1 <= len(parts) <= 2 or any(part not in DEP_ENCODINGS for part in parts):
        raise argparse.ArgumentTypeError(f"{text!r}: expected one of {', '.join(DEP_ENCODINGS)}, or GOLD,PRED "
                                         "of them (e.g. tree,chain)")
    return ",".join(parts)


def add_input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="in_format", metavar="KEY", default=None,
                        help="input format, or 'auto' to detect it (default: from the file extension)")
    parser.add_argument("--lenient", action="store_true",
                        help="repair inconsistent extents from the leaves (with a warning) instead of rejecting")
    add_encoding_option(parser)


def add_encoding_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--encoding", metavar="NAME", default=None,
                        help="encoding of the input files (default: UTF-8; files with no UTF-8 sequence at all as "
                             "Latin-1; a file mixing UTF-8 and other bytes is an error)")


def add_label_option(parser: argparse.ArgumentParser, default: str | None) -> None:
    parser.add_argument("--labels", choices=label_map_names(), default=default,
                        help=f"relation label map (default: {default})")
    parser.add_argument("--keep-unknown-labels", action="store_true",
                        help="let labels the map does not know pass through (lowercased) instead of failing")


def read_input(path: str, fmt: str | None, args: argparse.Namespace, notes: list[str], **options) -> dict[str, RSTTree]:
    """Documents of a file or directory (:func:`rstkit.corpus.read_input`) with the command's
    ``--lenient``, ``--skip-errors`` and, where it has one, ``--jobs``."""
    return corpus_input(path, fmt, lenient=args.lenient, skip_errors=args.skip_errors, notes=notes,
                        jobs=getattr(args, "jobs", None), encoding=getattr(args, "encoding", None), **options)
