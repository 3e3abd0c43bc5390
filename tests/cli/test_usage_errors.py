"""Usage errors (issue 36): one line, the problem and where the usage is (``rstkit eval: error: ...
(see rstkit eval --help)``), exit status 2, never argparse's whole usage block; for every subcommand
and the top-level command: an unknown subcommand, a missing argument, a bad choice, a bad type."""
from __future__ import annotations

from pathlib import Path

import pytest

from rstkit.cli import SUBCOMMANDS, main

GOLD = Path(__file__).resolve().parents[2] / "corpora" / "sample" / "gold"


def usage_error(capsys, argv: list[str]) -> str:
    """What ``rstkit ARGV`` wrote to stderr, checked to exit with status 2 and print nothing else."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and out == "", err
    return err


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_says_its_usage_error_in_one_line(command, capsys):
    err = usage_error(capsys, [command, "--no-such-flag"])
    assert err.count("\n") == 1 and "usage:" not in err, err
    assert err.startswith(f"rstkit {command}: error: ") and err.endswith(f" (see rstkit {command} --help)\n"), err


@pytest.mark.parametrize("argv, problem", [
    # the top level: no command, an unknown one, an option it does not have
    ([], "no COMMAND given: one of " + ", ".join(SUBCOMMANDS)),
    (["evl"], "argument COMMAND: invalid choice: 'evl'"),
    (["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
    # a missing argument, a bad choice, a bad type, a bad value
    (["eval"], "the following arguments are required: gold, PRED"),
    (["stats"], "the following arguments are required: path"),
    (["eval", str(GOLD), str(GOLD), "--labels", "nope"], "argument --labels: invalid choice: 'nope'"),
    (["eval", str(GOLD), str(GOLD), "--jobs", "x"], "argument --jobs: 'x' is not an integer"),
    (["draw", str(GOLD), "--edus", "7-3"], "argument --edus: not an EDU range: '7-3'"),
    (["eval", str(GOLD), str(GOLD), "-q", "-v"], "argument -v/--verbose: not allowed with argument -q/--quiet"),
])
def test_usage_errors_are_one_line_with_the_commands_help(argv, problem, capsys):
    prog = f"rstkit {argv[0]}" if argv and argv[0] in SUBCOMMANDS else "rstkit"
    err = usage_error(capsys, argv)
    assert err.startswith(f"{prog}: error: {problem}") and err.endswith(f" (see {prog} --help)\n"), err
    assert err.count("\n") == 1, err
