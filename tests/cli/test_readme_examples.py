"""The README's command examples that run on the repository's own files work as written (issue 36:
``rstkit eval tests/data/formats parsers/braud_eacl/... --pred-format auto`` failed, the gold folder
holding several formats). Each is read from README.md, so the test follows the text."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from rstkit.cli import main

PROJECT = Path(__file__).resolve().parents[2]


def readme_command(start: str) -> list[str]:
    """The README's indented command that begins with ``start``: continuation lines joined, the
    trailing comment left out, split as a shell would."""
    text = (PROJECT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^    (" + re.escape(start) + r"(?:[^\n]*\\\n)*[^\n]*)$", text, re.MULTILINE)
    assert found, f"README.md has no example beginning {start!r}"
    return shlex.split(found.group(1).replace("\\\n", " "), comments=True)


def test_the_parser_format_example_runs_as_written(capsys, monkeypatch):
    argv = readme_command("rstkit eval tests/data/formats parsers/braud_eacl/")
    monkeypatch.chdir(PROJECT)
    capsys.readouterr()
    try:
        status = main(argv[1:])
    except SystemExit as exc:  # a usage error
        status = exc.code
    out, err = capsys.readouterr()
    assert status == 0, err
    # the two documents of doc_ids.txt (council, weather), the prediction's format detected and said
    assert "parsers/braud_eacl/test_it8_beam16: detected format 'braud_eacl'" in err
    assert out.splitlines()[0].endswith("2 documents"), out
