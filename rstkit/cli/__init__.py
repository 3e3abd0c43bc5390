"""The ``rstkit`` command line: one module per subcommand.

Each subcommand module defines ``add_parser(subparsers)`` (registering its arguments and
``set_defaults(run=...)``) and a ``run(args) -> int``.

Exit status: 0 success; 2 a usage or input error, printed as one line each
(``rstkit: error: path:line: problem``, with the flag that would get past it, if any; a usage error
``rstkit COMMAND: error: problem (see rstkit COMMAND --help)``): argparse's own errors and every
:class:`~rstkit.errors.RSTKitError`; 1 anything else.
An input error must never get that far: every bad input is turned into an RSTKitError
where it is read. The last-resort handler is for bugs: it prints ``rstkit: internal
error: ...`` and asks for a report (``RSTKIT_TRACEBACK=1`` shows the traceback), or says
which file operation the system refused (an ``OSError`` no reader anticipated). Warnings
go to stderr as ``rstkit: warning: ...``.

Interrupts: SIGINT (Ctrl-C) exits with status 130 and SIGTERM with 143 (128 + the signal's
number, as a shell reports a process the signal ended), each after one line (``rstkit:
interrupted`` / ``rstkit: terminated``), no traceback; what the command was writing is removed
(:mod:`rstkit.output`), and processes reading files are ended.
"""
from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
import time
import warnings
from collections.abc import Collection
from importlib import import_module
from typing import Any, NoReturn, cast

from .._version import __version__
from ..errors import ManyErrors, RSTKitError, RSTKitWarning, printable
from ..gcpause import gc_pauses_allowed
from ..interrupts import (
    INTERRUPTED,
    TERMINATED,
    Terminated,
    deferred_interrupts,
    interrupt_arrived,
    interrupts_never_lost,
    terminate_as_interrupt,
)
from ..progress import shown
from .common import (
    ALIASES,
    VERBOSITY,
    add_aliases,
    add_verbosity_options,
    detail,
    set_verbosity,
    standard_streams,
    warn,
)

#: how the command line spells the fix of an error (``RSTKitError.fixes``, library names); a command shows
#: those whose flag it has (``format``: the input's, ``gold_format`` and ``pred_format``: one side's)
FIX_FLAGS = {
    "lenient": "--lenient",
    "unknown_labels": "--keep-unknown-labels",
    "labels": "another --labels map",
    "missing": "--missing skip or --missing zero",
    "pred_format": "--pred-format KEY",
    "gold_format": "--gold-format KEY",
    "format": "--from KEY",
    "force": "--force",
    "edus_aligned": "--edus aligned",
    "encoding": "--encoding NAME",
    "no_segmenter": "--segmenter none",
    "skip_errors": "--skip-errors to leave unreadable documents out, each listed as a warning",
}


def error_line(error: RSTKitError, options: Collection[str] | None = None) -> str:
    """One line for an error, with the flags that would get past it (``error.fixes``; given the command's
    ``options``, only the flags it has); unprintable characters (a newline, bytes of a binary file) are
    shown escaped."""
    hint = " or ".join(FIX_FLAGS[f] for f in error.fixes if f in FIX_FLAGS
                       and (options is None or re.findall(r"--[a-z-]+", FIX_FLAGS[f])[0] in options))
    return f"rstkit: error: {printable(str(error), limit=None)}" + (f" (use {hint})" if hint else "")

#: subcommand modules of rstkit.cli, in the order ``rstkit --help`` lists them
SUBCOMMANDS = ["eval", "convert", "stats", "train", "parse", "draw", "discoeval", "audit", "segment", "train-segmenter"]


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser. Given ``argv``, only the subcommand it names is imported (each
    imports what it needs: ``rstkit eval`` no audit, ``rstkit --version`` nothing); the others are
    imported for ``rstkit --help`` and a name that is none of them."""
    parser = UsageParser(
        prog="rstkit", description="RST discourse parsing toolkit: corpus I/O, conversion, exact evaluation.")
    parser.add_argument("--version", action="version", version=f"rstkit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = _subcommand(argv)
    if chosen is None and argv is not None and "--version" in argv:
        return parser
    for name in [chosen] if chosen in SUBCOMMANDS else SUBCOMMANDS:
        import_module(f"{__name__}.{name.replace('-', '_')}").add_parser(sub)
        subparser = sub.choices[name]
        add_aliases(subparser, name)
        subparser.set_defaults(command_options=frozenset(s for a in subparser._actions for s in a.option_strings))
        subparser.formatter_class = _with_defaults(cast(type[argparse.HelpFormatter], subparser.formatter_class))
        add_verbosity_options(subparser)
    return parser


class UsageParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, the problem and where the usage is
    (``rstkit eval: error: PROBLEM (see rstkit eval --help)``), exit status 2; its subcommands' parsers
    are of this class too (``add_subparsers`` makes them of the parser's own class). An option is
    accepted as spelled in full only, never abbreviated (``--out`` is not ``--output``): the options a
    command accepts are exactly those its ``--help`` and README's "Command-line conventions" list."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {printable(message, limit=None)} (see {self.prog} --help)\n")


def _subcommand(argv: list[str] | None) -> str | None:
    """The subcommand ``argv`` names: its first argument that is not an option."""
    return next((arg for arg in argv if not arg.startswith("-")), None) if argv is not None else None


def _with_defaults(formatter: type[argparse.HelpFormatter]) -> type[argparse.HelpFormatter]:
    """``formatter`` that also shows each option's default (where its help does not say it already)."""
    return type(f"Defaults{formatter.__name__}", (_DefaultsShown, formatter), {})


class _DefaultsShown(argparse.HelpFormatter):
    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if ("default" in text or action.default in (None, False, argparse.SUPPRESS) or not action.option_strings
                or action.help == argparse.SUPPRESS):
            return action.help
        default = ",".join(map(str, action.default)) if isinstance(action.default, (list, tuple)) else action.default
        return f"{text} (default: {default})".replace("%", "%%") if "%" not in text else text


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    warn(str(message))


def main(argv: list[str] | None = None, *, started: float | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv``); its exit status. ``started``: when the
    process started (``time.monotonic()``; ``rstkit.__main__`` gives it), for ``--verbose``'s total
    time (default: now)."""
    started = time.monotonic() if started is None else started
    argv = sys.argv[1:] if argv is None else list(argv)
    with deferred_interrupts():  # the subcommands are imported here: see rstkit.__main__
        parser = build_parser(argv)
        args, extra = parser.parse_known_args(argv)
        if any(not arg.startswith("-") for arg in extra):
            args, extra = _intermixed(parser, args, argv, extra)
    if extra:  # the subcommand's usage, not the top level's
        command = sub_parser(parser, args.command) or parser
        command.error(f"unrecognized arguments: {' '.join(extra)}{_nearest_option(extra, command)}")
    if not getattr(args, "run", None):
        parser.error(f"no COMMAND given: one of {', '.join(SUBCOMMANDS)}")
    set_verbosity(args)
    # the command prints its warnings, whatever filters its caller set; progress unless --quiet; rstkit's bulk
    # work pauses the garbage collector (gcpause)
    with (warnings.catch_warnings(), terminate_as_interrupt(), interrupts_never_lost(),
          shown(VERBOSITY["level"] >= 1), gc_pauses_allowed(), standard_streams()):
        warnings.simplefilter("default", RSTKitWarning)
        warnings.showwarning = _show_warning
        cpu = time.process_time()
        status = _run(args)
        detail(f"{args.command}: exit status {status}, {time.process_time() - cpu:.2f}s of CPU in the command, "
               f"{time.monotonic() - started:.1f}s in all (start-up included)")
        return status


def _intermixed(parser: argparse.ArgumentParser, args: argparse.Namespace, argv: list[str], extra: list[str]
                 ) -> tuple[argparse.Namespace, list[str]]:
    """The command's arguments read again with positionals and options intermixed, where a positional
    was left over: argparse reads the positionals before an option at once, so an optional one
    (``rstkit parse IN --split test OUT``'s OUT) is taken as absent there and the OUT after the option
    is left unrecognized. ``(args, extra)`` as they were when that reading is not possible."""
    command = sub_parser(parser, args.command)
    if command is None or args.command not in argv:
        return args, extra
    rest = argv[argv.index(args.command) + 1:]  # the top level takes no option with a value
    try:
        again, left = command.parse_known_intermixed_args(rest)
    except TypeError:  # a parser argparse cannot read intermixed
        return args, extra
    for name, value in vars(args).items():
        if not hasattr(again, name):
            setattr(again, name, value)
    return again, left


def _nearest_option(extra: list[str], parser: argparse.ArgumentParser) -> str:
    """``(did you mean --output?)`` for the first unrecognized option of ``extra`` that another command
    accepts for one of ``parser``'s (:data:`~rstkit.cli.common.ALIASES`: ``--threads`` is eval's ``--jobs``)
    or that is close to one of them (a misspelling, an abbreviation), else nothing."""
    options = [name for action in parser._actions for name in action.option_strings if name.startswith("--")]
    for arg in extra:
        given = arg.partition("=")[0]
        if not given.startswith("--"):
            continue
        near = [option for other, option, _, _ in ALIASES if other == given and option in options]
        near = near or difflib.get_close_matches(given, options, n=1, cutoff=0.75)
        if near:
            return f" (did you mean {near[0]}?)"
    return ""


def sub_parser(parser: argparse.ArgumentParser, name: str | None) -> argparse.ArgumentParser | None:
    """The parser of subcommand ``name`` in ``parser``."""
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            return action.choices[name]
    return None


def _run(args: argparse.Namespace) -> int:
    """Run the chosen subcommand; errors become one line on stderr and an exit status."""
    try:
        status = int(args.run(args) or 0)
        sys.stdout.flush()  # what cannot be written (a full disk) is this command's error, not Python's at exit
        return status
    except ManyErrors as exc:
        for error in exc.errors:
            print(error_line(error, getattr(args, "command_options", None)), file=sys.stderr)
        return 2
    except RSTKitError as exc:
        print(error_line(exc, getattr(args, "command_options", None)), file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        return _ended_by(type(exc))
    except Exception as exc:
        arrived = interrupt_arrived()
        if arrived is not None:  # the interrupt, turned into another error by a library (numpy's import)
            return _ended_by(arrived)
        if os.environ.get("RSTKIT_TRACEBACK"):
            raise
        print(_unexpected(exc), file=sys.stderr)
        return 1


def _ended_by(interrupt: type[KeyboardInterrupt]) -> int:
    """The one line and the exit status of a command that an interrupt ended (SIGTERM or SIGINT)."""
    if issubclass(interrupt, Terminated):
        print("rstkit: terminated", file=sys.stderr)
        return TERMINATED
    print("rstkit: interrupted", file=sys.stderr)
    return INTERRUPTED


def _unexpected(exc: Exception) -> str:
    """The one-line report of an exception no rstkit code turned into an RSTKitError."""
    if isinstance(exc, OSError) and exc.strerror:
        where = f": {printable(str(exc.filename), limit=None)}" if exc.filename else ""
        return f"rstkit: error: {exc.strerror}{where}"
    shown = printable(str(exc), limit=None)
    return (f"rstkit: internal error: {type(exc).__name__}: {shown} (a bug in rstkit, not in the input: please "
            "report it with the command line; RSTKIT_TRACEBACK=1 shows the traceback)")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
