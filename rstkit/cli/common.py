"""Argument helpers shared by several subcommands."""
from __future__ import annotations

import argparse
import contextlib
import errno
import io
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ..corpus import read_input
from ..errors import ManyErrors, RSTKitError, printable
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


def add_split_option(parser: argparse.ArgumentParser, name: str, role: str) -> None:
    """``--split NAME``: the input ``name`` is a corpus directory and the documents of that split are ``role``."""
    parser.add_argument("--split", default=None, metavar="NAME",
                        help=f"{name} is a corpus directory (a GUM checkout, an RST-DT release or a directory with "
                             f"splits.tsv) and the documents of this split of it (e.g. test) are {role}")


def check_split(path: str, split: str | None, name: str) -> None:
    """``--split`` reads a split of a corpus directory, which standard input cannot be."""
    if split is not None and path == STREAM:
        raise RSTKitError(f"--split {split} reads a split of a corpus directory; {name} is standard input (-), "
                          "one file")


def add_encoding_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--encoding", metavar="NAME", default=None,
                        help="encoding of the input files (default: UTF-8; files with no UTF-8 sequence at all as "
                             "Latin-1; a file mixing UTF-8 and other bytes is an error)")


def add_label_option(parser: argparse.ArgumentParser, default: str | None) -> None:
    parser.add_argument("--labels", choices=label_map_names(), default=default,
                        help=f"relation label map (default: {default})")
    add_unknown_labels_option(parser, "error", "keep labels the map does not know, lowercased, instead of an error "
                                               "(the default)")


def add_unknown_labels_option(parser: argparse.ArgumentParser, default: str | None, help: str) -> None:
    """``--keep-unknown-labels``: the setting ``unknown_labels`` (:data:`rstkit.settings.UNKNOWN_LABEL_POLICIES`)
    given as ``keep``, its one spelling on the command line; ``default``: what it is without the flag."""
    parser.add_argument("--keep-unknown-labels", dest="unknown_labels", action="store_const", const="keep",
                        default=default, help=help)


def read_command_input(path: str, fmt: str | None, args: argparse.Namespace, notes: list[str],
                       side: str = "format", **options) -> dict[str, RSTTree]:
    """Documents of a file or directory (:func:`rstkit.corpus.read_input`) with the command's
    ``--lenient``, ``--skip-errors`` and, where it has one, ``--jobs``; ``-`` is one file on standard
    input, and a detected format is said as a note (not a warning). An error that naming the format
    fixes names ``side``'s option (:func:`format_fix`)."""
    refuse_disrpt(path, fmt, args.command)
    fmt = stdin_format(path, fmt)
    with stdin_as_file(path, fmt) as file:
        try:
            return read_input(file, detected_format(file, fmt, path, side), lenient=args.lenient,
                              skip_errors=args.skip_errors, notes=notes, jobs=getattr(args, "jobs", None),
                              encoding=getattr(args, "encoding", None), **options)
        except RSTKitError as exc:
            raise format_fix(exc, side) from None


#: the fixes (:data:`rstkit.errors.FIXES`) that name a format: of an input (``--from``), or of one side
FORMAT_FIXES = ("format", "gold_format", "pred_format")


def format_fix(error: RSTKitError, side: str) -> RSTKitError:
    """``error`` with its fix of naming a format said as ``side``'s (``gold_format``: ``--gold-format``,
    ``pred_format``, or ``format``: ``--from``), the option of the input it is about."""
    for each in error.errors if isinstance(error, ManyErrors) else [error]:
        each.fixes = tuple(dict.fromkeys(side if fix in FORMAT_FIXES else fix for fix in each.fixes))
    if isinstance(error, ManyErrors):
        error.fixes = tuple(dict.fromkeys(fix for each in error.errors for fix in each.fixes))
    return error


# -- the vocabulary every subcommand shares ----------------------------------------------------------

#: how much a command prints on stderr besides its result and its errors: 0 ``--quiet`` (nothing),
#: 1 the default (warnings and notes), 2 ``--verbose`` (and detail); set by :func:`rstkit.cli.main`
VERBOSITY = {"level": 1}

#: the one spelling of standard input or output wherever one file is read or written
STREAM = "-"
#: what names standard input where a name is needed (a system's, a document's)
STDIN_NAME = "stdin"


def add_verbosity_options(parser: argparse.ArgumentParser) -> None:
    """``-q/--quiet`` and ``-v/--verbose`` (every subcommand has them)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("-q", "--quiet", action="store_true",
                       help="print only the result and errors (warnings stay in JSON output's 'warnings')")
    group.add_argument("-v", "--verbose", action="store_true", help="also print details of the work")


def set_verbosity(args: argparse.Namespace) -> None:
    VERBOSITY["level"] = 0 if getattr(args, "quiet", False) else 2 if getattr(args, "verbose", False) else 1


def info(message: str, command: str = "rstkit") -> None:
    """A note on stderr (``COMMAND: message``), unless ``--quiet``. Like every line the command line
    prints on stderr, one line with control characters escaped (:func:`~rstkit.errors.printable`):
    file names and labels from the inputs cannot drive the terminal."""
    if VERBOSITY["level"] >= 1:
        print(f"{command}: {printable(message, limit=None)}", file=sys.stderr)


def detail(message: str, command: str = "rstkit") -> None:
    """A note on stderr with ``--verbose`` only (escaped as :func:`info`'s)."""
    if VERBOSITY["level"] >= 2:
        print(f"{command}: {printable(message, limit=None)}", file=sys.stderr)


def warn(message: str) -> None:
    """A warning on stderr (``rstkit: warning: message``, escaped as :func:`info`'s), unless ``--quiet``;
    standard input is named as such, not by the temporary file that holds it."""
    if VERBOSITY["level"] >= 1:
        for path in _STDIN_FILES:
            message = message.replace(path, "<stdin>")
        print(f"rstkit: warning: {printable(message, limit=None)}", file=sys.stderr)


#: the temporary files holding standard input while a command reads them (:func:`stdin_as_file`)
_STDIN_FILES: set[str] = set()


#: the other spellings the command line accepts, the one table of them: (other spelling, the option it
#: spells, the commands that accept it, whether using it prints a note naming the option). Each is a
#: contract, a flag an issue spelled out: ``--threads`` (issues 11 and 24: "stays as an alias where it
#: exists"), ``--batch-docs`` (10, 24), ``--format`` in draw (7), parse and segment (24), segment's
#: ``--model`` (24), train's ``--out`` (5); the other old spellings of 0.1.0, never released, are gone.
#: README's "Command-line conventions" lists them (tests/cli/test_cli_flags_table.py keeps the two equal).
ALIASES: tuple[tuple[str, str, tuple[str, ...], bool], ...] = (
    ("--threads", "--jobs", ("parse", "segment", "train", "train-segmenter"), False),
    ("--batch-docs", "--batch-size", ("parse", "train"), True),
    ("--format", "--kind", ("draw",), True),
    ("--format", "--from", ("parse",), True),
    ("--format", "--to", ("segment",), True),
    ("--model", "--segmenter", ("segment",), True),
    ("--out", "--output", ("train",), True),
)


class _NotedAlias(argparse.Action):
    """An other spelling of an option that says so: stores into the option's ``dest`` after a one-line note."""

    def __init__(self, option_strings: list[str], dest: str, *, spells: str, **kwargs: Any) -> None:
        self.spells = spells
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"rstkit: note: {option_string} is an old spelling of {self.spells}", file=sys.stderr)
        setattr(namespace, self.dest, values)


def add_aliases(parser: argparse.ArgumentParser, command: str) -> None:
    """Accept in ``parser`` (of ``command``) the other spellings :data:`ALIASES` gives it: each stores into
    the option it spells (same ``dest``, type, choices), hidden from ``--help``; the option's help names
    a spelling that prints no note (``also --threads N``)."""
    options = {name: action for action in parser._actions for name in action.option_strings}
    for other, option, commands, noted in ALIASES:
        if command not in commands:
            continue
        action = options[option]
        spells = "/".join(action.option_strings)
        kwargs: dict[str, Any] = {"type": action.type, "choices": action.choices, "metavar": action.metavar}
        if noted:
            parser.add_argument(other, dest=action.dest, action=_NotedAlias, spells=spells, help=argparse.SUPPRESS,
                                default=argparse.SUPPRESS, **kwargs)
        else:
            parser.add_argument(other, dest=action.dest, help=argparse.SUPPRESS, default=argparse.SUPPRESS, **kwargs)
            action.help = f"{action.help}; also {other}" + (f" {action.metavar}" if action.metavar else "")


def add_output_option(parser: argparse.ArgumentParser, what: str = "the result", metavar: str = "FILE",
                      dest: str = "output") -> None:
    """``-o/--output``: where ``what`` goes (``-``: standard output, the default)."""
    parser.add_argument("-o", "--output", dest=dest, metavar=metavar, default=None, type=output_name,
                        help=f"write {what} to this file ('-' or none: standard output)")


def output_name(text: str) -> str:
    """argparse type of every output path: not empty (``-o ''`` names nothing, not the current folder)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty name: give the path of the output")
    return text


def add_jobs_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--jobs N``: how many processes or threads work."""
    parser.add_argument("--jobs", type=positive_int, default=None, metavar="N", help=help)


#: the extension of a report in each ``--format``, for its file in a folder (:func:`report_name`)
REPORT_EXTENSIONS = {"text": ".txt", "json": ".json", "csv": ".csv", "markdown": ".md", "latex": ".tex"}


def report_name(command: str, fmt: str) -> str:
    """What the report of ``command`` in ``fmt`` is called in a folder named with a trailing slash
    (``rstkit eval ... --format json -o out/`` writes ``out/eval.json``)."""
    return command + REPORT_EXTENSIONS[fmt]


def _result_file(output: str, name: str) -> Path:
    """``-o OUTPUT``'s file: OUTPUT, or ``name`` in it when it ends with a slash (a folder)."""
    from ..output import wants_directory

    return Path(output) / name if wants_directory(output) else Path(output)


def remember_defaults(parser: argparse.ArgumentParser) -> None:
    """Keep the default of each of ``parser``'s options (call it after the last ``add_argument``), so that
    :func:`refuse_unused` tells an option given from one left alone."""
    parser.set_defaults(option_defaults={action.dest: (max(action.option_strings, key=len), action.default)
                                         for action in parser._actions
                                         if action.option_strings and action.default is not argparse.SUPPRESS})


def refuse_unused(args: argparse.Namespace, dests: Sequence[str], why: str) -> None:
    """An error naming the first option of ``dests`` given a value other than its default: it would be
    accepted and change nothing (``why`` says why), where a silently ignored option leaves a result that
    is not what was asked for. Options given their default change nothing either way."""
    defaults = args.option_defaults
    for dest in dests:
        option, default = defaults[dest]
        if getattr(args, dest) != default:
            raise RSTKitError(f"{option} {why}")


def write_result(text: str, output: str | None, name: str) -> None:
    """A command's result: printed, or with ``-o FILE`` written to it (atomically; an existing file
    is replaced, an input never: checked by the caller's :func:`rstkit.output.check_target`); with
    ``-o DIR/`` written to DIR/``name`` (:func:`report_name`), DIR made if need be."""
    if output is None or output == STREAM:
        print(text)
        return
    from ..output import write_files

    target = _result_file(output, name)
    write_files(target, {target.name: text + "\n"}, into_directory=False, force=True)


def check_result_target(output: str | None, inputs: Sequence[str | None], name: str) -> None:
    """Refuse, before any work, a ``-o FILE`` (or ``-o DIR/``, for DIR/``name``) that overlaps an
    input or cannot be written."""
    if output is None or output == STREAM:
        return
    from ..output import check_target

    check_target(_result_file(output, name), directory=False,
                 inputs=[Path(i) for i in inputs if i and i != STREAM])


@contextlib.contextmanager
def stdin_as_file(path: str, fmt: str | None, extension: str | None = None) -> Iterator[str]:
    """``path``, or for ``-`` a file holding standard input (in a temporary folder, named ``stdin``
    with ``extension``, by default that of ``fmt``; read as ``fmt``, or detected when ``fmt`` is None)."""
    if path != STREAM:
        yield path
        return
    from ..formats import get_format
    from ..formats.disrpt import FORMATS as DISRPT_FORMATS

    if extension is None and fmt in DISRPT_FORMATS:  # a DISRPT file is told by its name
        extension = DISRPT_FORMATS[fmt]
    elif extension is None:
        extension = get_format(fmt).extensions[0] if fmt and fmt != "auto" else ""
    with tempfile.TemporaryDirectory(prefix="rstkit-stdin-") as folder:
        file = Path(folder) / f"{STDIN_NAME}{extension}"
        file.write_bytes(_standard_input())
        _STDIN_FILES.add(str(file))
        try:
            yield str(file)
        except RSTKitError as exc:  # named as the user named it, not by the temporary file
            raise _renamed(exc, str(file)) from None
        finally:
            _STDIN_FILES.discard(str(file))


def _standard_input() -> bytes:
    """Everything on standard input; closed or unreadable, an RSTKitError naming it."""
    if sys.stdin is None:  # closed when Python started (`<&-`)
        raise RSTKitError("standard input (-) is closed: nothing to read")
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError) as exc:  # a descriptor that cannot be read, a stream closed meanwhile
        raise RSTKitError(f"cannot read standard input (-): {getattr(exc, 'strerror', None) or exc}") from None


def _renamed(error: RSTKitError, path: str) -> RSTKitError:
    """``error`` with the temporary file ``path`` said as standard input."""
    if isinstance(error, ManyErrors):
        return ManyErrors([_renamed(e, path) for e in error.errors])
    renamed = RSTKitError(str(error).replace(path, "<stdin>"), fixes=error.fixes)
    renamed.__class__ = type(error)
    return renamed


def refuse_disrpt(path: str, fmt: str | None, command: str) -> None:
    """An error for a DISRPT file (``--from tok|conllu``, or a ``.tok``/``.conllu`` file) given to a command
    that reads trees, saying which commands read such files."""
    from ..formats.disrpt import FORMATS as DISRPT_FORMATS
    from ..formats.disrpt import is_disrpt

    if fmt in DISRPT_FORMATS or (fmt in (None, "auto") and path != STREAM and Path(path).is_file()
                                 and is_disrpt(path)):
        raise RSTKitError(f"rstkit {command} reads trees, and DISRPT .tok/.conllu files are EDU segmentations "
                          "(rstkit eval --metric segmentation scores them, rstkit convert --to tok|conllu rewrites "
                          "them)", "<stdin>" if path == STREAM else path)


def stdin_format(path: str, fmt: str | None) -> str | None:
    """The format to read ``path`` in: standard input without ``--from`` is detected."""
    return "auto" if path == STREAM and fmt is None else fmt


def detected_format(path: str, fmt: str | None, shown: str | None = None, side: str = "format") -> str | None:
    """``fmt``, or for ``auto`` the format detected from ``path``, said as a note (``shown``: how the
    note names the input, e.g. ``-`` for standard input read through a temporary file; ``side``: the
    fix an ambiguous format names, :func:`format_fix`)."""
    if fmt != "auto":
        return fmt
    from ..formats.detect import detect_format

    try:
        key = detect_format(Path(path))
    except RSTKitError as exc:
        raise format_fix(exc, side) from None
    info(f"{shown or path}: detected format {key!r}")
    return key


def one_stdin(paths: Sequence[str | None]) -> None:
    """Refuse ``-`` for more than one input (standard input is one file)."""
    if sum(path == STREAM for path in paths) > 1:
        raise RSTKitError("standard input (-) can be only one of the inputs")


def output_path(positional: str | None, option: str | None, what: str = "OUT") -> str:
    """The output of a command that takes it as a positional argument or as ``-o/--output``."""
    if positional is not None and option is not None and positional != option:
        raise RSTKitError(f"two outputs given, {positional} and -o {option}: give one")
    output = positional if positional is not None else option
    if output is None:
        raise RSTKitError(f"no output given: name {what} (or -o {what})")
    return output


# -- standard output and error while a command runs ------------------------------------------------

@contextlib.contextmanager
def standard_streams() -> Iterator[None]:
    """Standard output and error while a command runs (:func:`rstkit.cli.main`): a reader that went
    away (a closed pipe: ``| head``) takes nothing more and the command goes on to its own exit
    status, so that its errors, not the pipe, decide it; standard output that cannot be written
    (``> /dev/full``, closed: ``>&-``) is an RSTKitError."""
    saved = sys.stdout, sys.stderr
    sys.stdout = _Guarded(sys.stdout or _Closed(), "standard output", fatal=True)
    if sys.stderr is not None:
        sys.stderr = _Guarded(sys.stderr, "standard error", fatal=False)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


class _Guarded:
    """A text stream whose failed writes end its output (:func:`standard_streams`): a closed pipe
    quietly, any other failure with an RSTKitError where ``fatal``; the rest of what it was given
    goes nowhere, also what Python would flush at exit."""

    def __init__(self, stream: Any, what: str, fatal: bool) -> None:
        self._stream, self._what, self._fatal = stream, what, fatal
        self._ended = False

    def write(self, text: str) -> int:
        if not self._ended:
            self._guard(self._stream.write, text)
        return len(text)

    def flush(self) -> None:
        if not self._ended:
            self._guard(self._stream.flush)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def _guard(self, call: Any, *args: Any) -> None:
        try:
            call(*args)
        except OSError as exc:
            self._ended = True
            _to_nowhere(self._stream)
            if self._fatal and not isinstance(exc, BrokenPipeError):
                raise RSTKitError(f"cannot write to {self._what}: {exc.strerror or exc}") from None


class _Closed(io.TextIOBase):
    """Standard output closed when Python started (``>&-``): every write fails."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it is closed")


def _to_nowhere(stream: Any) -> None:
    """Point ``stream``'s descriptor at the null device: what its buffers still hold is dropped there."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, stream.fileno())
        finally:
            os.close(null)
