"""The examples of the public API run as tests, as nltk.tree's doctests do: each docstring example of the
names in ``rstkit.__all__`` (and of the modules that hold them), and each ```python block of README.md.

Examples read the sample corpus by paths relative to the project root (``corpora/sample/...``), as the
README does, so every test runs there. README blocks are executed as they stand (they print, they do not
show their output); docstrings are doctests and must show theirs.
"""
from __future__ import annotations

import contextlib
import doctest
import inspect
import io
import re
from pathlib import Path

import pytest

import rstkit
from tests.support.public import public_names

PROJECT = Path(__file__).resolve().parents[1].parent

#: public names whose docstrings need no example: the exception types, the version string
NO_EXAMPLE = {"RSTKitError", "RSTKitWarning", "__version__"}


def _modules() -> list[str]:
    """The modules that define the public names (``draw`` is a package: its own docstring)."""
    names = set()
    for obj in public_names().values():
        names.add(obj.__name__ if inspect.ismodule(obj) else getattr(obj, "__module__", None))
    return sorted(n for n in names if n and n.startswith("rstkit"))


@pytest.fixture
def at_project(monkeypatch):
    monkeypatch.chdir(PROJECT)


@pytest.mark.parametrize("module", _modules())
def test_docstring_examples(module, at_project):
    tests = doctest.DocTestFinder(exclude_empty=True).find(__import__(module, fromlist=["_"]))
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = io.StringIO()
    for test in tests:
        runner.run(test, out=out.write)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, out.getvalue()


@pytest.mark.parametrize("name", sorted(set(rstkit.__all__) - NO_EXAMPLE))
def test_every_public_name_has_an_example(name):
    public = public_names()
    if name not in public:  # an extra's name (Parser without torch)
        pytest.skip(f"rstkit.{name} needs an extra that is not installed")
    assert ">>>" in (inspect.getdoc(public[name]) or ""), f"rstkit.{name} has no >>> example"


def _readme_blocks() -> list[tuple[int, str]]:
    text = (PROJECT / "README.md").read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1))
            for m in re.finditer(r"^```python\n(.*?)^```", text, re.DOTALL | re.MULTILINE)]


def test_the_readme_has_python_examples():
    assert len(_readme_blocks()) >= 3


@pytest.mark.parametrize("line, code", _readme_blocks(), ids=[f"README.md:{n}" for n, _ in _readme_blocks()])
def test_readme_python_block_runs(line, code, at_project, recwarn):
    """Each block runs and prints; the warnings it may give (the sample corpus's one-EDU document, as the
    README's own output shows) are recorded, not errors."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, f"README.md:{line}", "exec"), {"__name__": "readme"})  # noqa: S102 (the README's code)
    assert printed.getvalue().strip(), "each README example prints what it shows"
