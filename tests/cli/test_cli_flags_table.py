"""The flags each command accepts are exactly those README's "Command-line conventions" lists (issue 34):
every command's parser is walked and compared with the README's table of flags per command and its table
of other spellings, which also equals the code's one table of them (``rstkit.cli.common.ALIASES``), so
neither can drift. Other spellings work as the flag they spell; a spelling that is not accepted (one of
0.1.0's, never released, or an abbreviation) is a one-line usage error naming the nearest flag."""
from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from rstkit.cli import FIX_FLAGS, SUBCOMMANDS, build_parser, main, sub_parser
from rstkit.cli.common import ALIASES
from rstkit.errors import FIXES

README = Path(__file__).resolve().parents[2] / "README.md"
#: what every command takes, said once under the README's table rather than in each row
EVERY_COMMAND = {"-q", "--quiet", "-v", "--verbose", "-h", "--help"}
#: a flag in a table cell: ``--from``, ``-o/--output`` (two flags)
FLAG = re.compile(r"(?<![\w-])--?[a-z][a-z0-9-]*")


def _table(header: str) -> list[list[str]]:
    """The rows (cells, stripped) of the table of README's "Command-line conventions" whose header line
    starts with ``header``."""
    section = README.read_text(encoding="utf-8").split("\n## Command-line conventions\n")[1].split("\n## ")[0]
    lines = section.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _flags(cell: str) -> set[str]:
    return {flag for code in re.findall(r"`([^`]*)`", cell) for flag in FLAG.findall(code)}


def _parser(command: str) -> argparse.ArgumentParser:
    parser = sub_parser(build_parser([command]), command)
    assert parser is not None
    return parser


def _shown_and_other(command: str) -> tuple[set[str], set[tuple[str, str]]]:
    """The flags ``command``'s ``--help`` shows, and its other spellings as (spelling, the long flag it spells)."""
    actions = [a for a in _parser(command)._actions if a.option_strings]
    shown = {name for a in actions if a.help != argparse.SUPPRESS for name in a.option_strings}
    spelled = {a.dest: max(a.option_strings, key=len) for a in actions if a.help != argparse.SUPPRESS}
    other = {(name, spelled[a.dest]) for a in actions if a.help == argparse.SUPPRESS for name in a.option_strings}
    return shown, other


def test_the_readme_lists_every_flag_of_every_command():
    rows = {command: _flags(flags) for command, flags in _table("| Command | Flags |")}
    assert sorted(rows) == sorted(SUBCOMMANDS)
    for command in SUBCOMMANDS:
        shown, _ = _shown_and_other(command)
        assert EVERY_COMMAND <= shown, command
        assert rows[command] == shown - EVERY_COMMAND, command


def test_the_readme_the_code_and_the_parsers_have_the_same_other_spellings():
    readme = {(other, spells, command.strip()) for other, spells, commands in _table("| Other spelling |")
              for command in commands.split(",")}
    readme = {(other.strip("`"), spells.strip("`"), command) for other, spells, command in readme}
    code = {(other, spells, command) for other, spells, commands, _ in ALIASES for command in commands}
    parsers = {(other, spells, command) for command in SUBCOMMANDS for other, spells in _shown_and_other(command)[1]}
    assert readme == code == parsers
    assert len(parsers) == 11  # 7 spellings: --threads in 4 commands, --batch-docs in 2, 5 more in 1 each


#: a command line each other spelling can be added to, and a value it takes
_BASE = {"parse": ["parse", "x", "o"], "segment": ["segment", "x", "o"], "train": ["train", "--corpus", "c"],
         "train-segmenter": ["train-segmenter"], "draw": ["draw", "x"]}
_VALUE = {"--threads": "3", "--batch-docs": "3", "--model": "m", "--out": "m",
          ("draw", "--format"): "svg", ("parse", "--format"): "edus", ("segment", "--format"): "jsonl"}


@pytest.mark.parametrize("other, spells, command, noted",
                         [(o, s, c, n) for o, s, commands, n in ALIASES for c in commands])
def test_each_other_spelling_is_the_flag_it_spells(other, spells, command, noted, capsys):
    value = _VALUE.get(other) or _VALUE[(command, other)]
    capsys.readouterr()
    given = build_parser([command]).parse_args([*_BASE[command], other, value])
    note = capsys.readouterr().err
    spelled = build_parser([command]).parse_args([*_BASE[command], spells, value])
    action = next(a for a in _parser(command)._actions if spells in a.option_strings)
    assert getattr(given, action.dest) == getattr(spelled, action.dest) != action.default
    assert note == (f"rstkit: note: {other} is an old spelling of {'/'.join(action.option_strings)}\n" if noted else "")
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("argv, expected", [
    # 0.1.0's other spellings that no issue named: gone
    (["train-segmenter", "--out", "m"], "unrecognized arguments: --out m (did you mean --output?)"),
    (["eval", "g", "p", "--threads", "2"], "unrecognized arguments: --threads 2 (did you mean --jobs?)"),
    # abbreviations are not flags
    (["eval", "g", "p", "--met", "parseval"], "unrecognized arguments: --met parseval (did you mean --metric?)"),
    (["parse", "x", "o", "--batch", "2"], "unrecognized arguments: --batch 2"),
    (["convert", "a", "b", "--to", "rsd", "--model", "m"], "unrecognized arguments: --model m"),
    (["convert", "a", "b", "--to", "rsd", "--keep-unknown"],
     "unrecognized arguments: --keep-unknown (did you mean --keep-unknown-labels?)"),
])
def test_a_flag_not_in_the_table_is_a_one_line_usage_error(argv, expected, capsys):
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err == f"rstkit {argv[0]}: error: {expected} (see rstkit {argv[0]} --help)\n"


# -- one name per concept: keeping the labels a label map does not know -----------------------------

@pytest.mark.parametrize("argv, without", [(["eval", "g", "p"], None), (["audit", "g", "p"], None),
                                           (["convert", "a", "b", "--to", "rsd"], "error"), (["draw", "x"], "error")])
def test_keep_unknown_labels_gives_the_setting_unknown_labels_its_value(argv, without):
    """``--keep-unknown-labels`` is the setting ``unknown_labels`` (``rstkit.settings.UNKNOWN_LABEL_POLICIES``) given
    as ``keep``, in every command that has it, with the error's fix named ``unknown_labels`` as the setting is;
    without it eval and audit leave the setting to the preset or variant (None), convert and draw to the
    library's default, ``error``."""
    assert build_parser(argv).parse_args([*argv, "--keep-unknown-labels"]).unknown_labels == "keep"
    assert build_parser(argv).parse_args(argv).unknown_labels == without
    assert not hasattr(build_parser(argv).parse_args(argv), "keep_unknown_labels")
    assert FIX_FLAGS["unknown_labels"] == "--keep-unknown-labels" and "unknown_labels" in FIXES
