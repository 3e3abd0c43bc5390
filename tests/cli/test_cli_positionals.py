"""An optional positional given after options (``rstkit parse IN --split test OUT``, ``rstkit convert SRC --to rs3
DST``) is read as that positional, as it is before them; a positional nobody takes is still an error naming it.

argparse reads the positionals before an option at once and takes an optional one as absent there, which left
OUT unrecognized (the command failed with "unrecognized arguments: OUT"). The expected outputs are those of
the same command with the positional before the options, a spelling that always worked.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rstkit.cli import _intermixed, build_parser
from tests.support.cli_run import run_main

SAMPLE = Path(__file__).resolve().parents[2] / "corpora" / "sample"


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_convert_takes_its_destination_after_the_options(tmp_path, capsys):
    before, after = tmp_path / "before", tmp_path / "after"
    gold = str(SAMPLE / "gold")
    assert run_main(["convert", gold, str(before), "--to", "rs3", "--labels", "rstdt18"], capsys)[0] == 0
    status, err = run_main(["convert", gold, "--to", "rs3", str(after), "--labels", "rstdt18"], capsys)
    assert status == 0, err
    assert files(after) == files(before)
    assert len(files(after)) == 4  # the sample's four documents


@pytest.mark.parametrize("argv, expected", [
    (["parse", "gum", "--split", "test", "out", "--model", "scratch"], ("gum", "out", "test", "scratch")),
    (["parse", "gum", "out", "--split", "test", "--model", "scratch"], ("gum", "out", "test", "scratch")),
    (["parse", "--split", "test", "gum", "out"], ("gum", "out", "test", None)),
    (["parse", "gum", "--split", "test"], ("gum", None, "test", None)),
])
def test_parse_reads_input_and_output_wherever_they_stand(argv, expected):
    parser = build_parser(argv)
    args, extra = parser.parse_known_args(argv)
    if extra:
        args, extra = _intermixed(parser, args, argv, extra)
    assert extra == []
    assert (args.input, args.out_dir, args.split, args.model) == expected
    assert args.command == "parse" and args.run is not None


def test_a_positional_left_over_is_still_an_error_naming_it(tmp_path, capsys):
    with pytest.raises(SystemExit) as exited:
        run_main(["convert", str(SAMPLE / "gold"), "--to", "rs3", str(tmp_path / "a"), "surplus"], capsys)
    assert exited.value.code == 2
    assert "unrecognized arguments: surplus" in capsys.readouterr().err
    assert not (tmp_path / "a").exists()
