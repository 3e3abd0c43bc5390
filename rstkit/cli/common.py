"""Argument helpers shared by several subcommands."""
from __future__ import annotations

import argparse

from ..labels import label_map_names


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
