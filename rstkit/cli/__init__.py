"""The ``rstkit`` command line: one module per subcommand.

Each subcommand module defines ``add_parser(subparsers)`` (registering its arguments and
``set_defaults(run=...)``) and a ``run(args) -> int``. Errors of rstkit's hierarchy are
printed as one line each (``rstkit: error: path:line: problem``) with exit status 2;
warnings go to stderr as ``rstkit: warning: ...``.
"""
from __future__ import annotations

import argparse
import sys
import warnings
from importlib import import_module

from .. import __version__
from ..errors import ManyErrors, RSTKitError

#: how the command line spells the fix of an error (``RSTKitError.fixes``, library names)
FIX_FLAGS = {
    "lenient": "--lenient",
    "keep_unknown_labels": "--keep-unknown-labels",
    "labels": "another --labels map",
    "missing": "--missing skip or --missing zero",
    "pred_format": "--pred-format KEY",
    "force": "--force",
    "edus_aligned": "--edus aligned",
}


def error_line(error: RSTKitError) -> str:
    """One line for an error, with the flags that would get past it (``error.fixes``)."""
    hint = " or ".join(FIX_FLAGS[f] for f in error.fixes if f in FIX_FLAGS)
    return f"rstkit: error: {error}" + (f" (use {hint})" if hint else "")

#: subcommand modules of rstkit.cli, in the order ``rstkit --help`` lists them
SUBCOMMANDS = ["eval", "convert", "stats", "train", "parse", "draw", "discoeval", "audit", "segment", "train-segmenter"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rstkit", description="RST discourse parsing toolkit: corpus I/O, conversion, exact evaluation.")
    parser.add_argument("--version", action="version", version=f"rstkit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        import_module(f"{__name__}.{name.replace('-', '_')}").add_parser(sub)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"rstkit: warning: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    previous = warnings.showwarning
    warnings.showwarning = _show_warning
    try:
        return int(args.run(args) or 0)
    except ManyErrors as exc:
        for error in exc.errors:
            print(error_line(error), file=sys.stderr)
        return 2
    except RSTKitError as exc:
        print(error_line(exc), file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `rstkit stats ... | head`
        return 0
    finally:
        warnings.showwarning = previous


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
