"""The README's command examples that run on the repository's own files work as written (issue 36:
``rstkit eval tests/data/formats parsers/braud_eacl/... --pred-format auto`` failed, the gold folder
holding several formats). Each is read from README.md, so the test follows the text."""
from __future__ import annotations

import re
import shlex
import tomllib
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


def test_ci_runs_every_test_and_the_readme_gives_the_inner_loop():
    """``.ci/run`` ends with the README's test command as written, and neither it nor pytest's
    configuration selects by marker, so CI runs the slow tests too; the README's inner loop leaves
    out exactly the tests marked ``slow``."""
    ci = (PROJECT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    full = readme_command('python -m pip install -e ".[test,probe,parser,dask]"')
    assert shlex.split(ci) == full and full[-3:] == ["python", "-m", "pytest"]
    options = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "-m" not in shlex.split(options.get("addopts", ""))
    assert readme_command("python -m pytest -m") == ["python", "-m", "pytest", "-m", "not slow"]
