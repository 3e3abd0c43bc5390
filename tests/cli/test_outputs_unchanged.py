"""Refactoring changes no byte of what the command line prints (regression snapshots: tests/golden/cli/README.md)."""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from rstkit.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "cli"
COMMANDS = [line.split("\t") for line in (GOLDEN / "commands.tsv").read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("number, command", COMMANDS, ids=[number for number, _ in COMMANDS])
def test_output_is_byte_identical(number, command, capsys, monkeypatch, request):
    monkeypatch.chdir(GOLDEN.parents[2])  # the project root: the commands name corpora/sample
    argv = shlex.split(command)
    if any(arg.startswith("GUM/") for arg in argv):
        gum = request.getfixturevalue("gum_dir")
        argv = [str(gum / arg[4:]) if arg.startswith("GUM/") else arg for arg in argv]
    main(argv)
    out = capsys.readouterr().out
    expected = (GOLDEN / f"{number}.out").read_text(encoding="utf-8")
    if "GUM/" in command:  # the snapshot names the corpus where it was on the machine that made it
        out = out.replace(str(request.getfixturevalue("gum_dir")), "/work/shared/corpora/gum")
    assert out == expected
