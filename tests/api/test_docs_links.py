"""The documentation the code points to is inside the repository.

* Nothing in ``rstkit/`` or ``docs/`` refers to the specifications kept beside the project
  (``../shared/docs``: ``evaluation.md``, ``dependency-evaluation.md``, ``parser-formats.md``,
  ``morey2017-tables.md``); the project's own pages are ``docs/evaluation.md``, ``docs/formats.md`` and
  ``docs/metrics/``.
* Every ``docs/...`` path named in the code, the tests, the benchmarks, the README or the pages
  themselves names a file that exists, and an anchor (``#...``) a heading of that page; every relative
  Markdown link between the pages resolves the same way.

The checks are functions of the repository root, so that they can be run on another checkout.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: this file: its last test plants broken links on purpose, in a folder of its own
SELF = "tests/api/test_docs_links.py"

#: files whose text is a contract kept byte for byte: morey2017.json's settings note is printed by
#: ``rstkit audit --paper morey2017`` and pinned by tests/golden/cli/30.out, so it keeps its words
#: (a change there regenerates the snapshot on purpose, in its own commit)
PINNED = {"rstkit/data/published/morey2017.json"}

TEXT_SUFFIXES = {".py", ".md", ".tsv", ".json", ".txt", ".cfg", ".toml"}

#: a reference to a specification beside the project: its folder, a name only it has, or
#: ``evaluation.md`` that is neither ``docs/evaluation.md``, ``../evaluation.md`` nor a Markdown link
SHARED = re.compile(r"shared/docs|dependency-evaluation\.md|parser-formats\.md|morey2017-tables\.md"
                    r"|(?<!docs/)(?<!\.\./)(?<!\]\()(?<!\[)\bevaluation\.md")

#: a path into docs/ written from the repository root (not the tail of ``shared/docs/...``)
DOCS_PATH = re.compile(r"(?<![\w/.-])(docs/[\w/.-]*\.(?:md|svg|html))(?:#([\w-]+))?")

#: a relative Markdown link of a page
MD_LINK = re.compile(r"\]\((?!https?:|#)([^)#\s]+)(?:#([^)\s]+))?\)")


def _files(root: Path, top: str) -> Iterator[Path]:
    for path in sorted((root / top).rglob("*")):
        if path.is_file() and path.suffix in TEXT_SUFFIXES and "__pycache__" not in path.parts:
            yield path


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but ``-`` and ``_`` dropped, spaces to ``-``."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings (fenced code left out; repeats get ``-1``, ``-2`` ...)."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"#{1,6} (.+)", line)):
            slug = _slug(match.group(1))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    yield from enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)


def shared_references(root: Path) -> list[str]:
    """``file:line: text`` for every reference to the specifications beside the project."""
    problems = []
    for top in ("rstkit", "docs"):
        for path in _files(root, top):
            name = path.relative_to(root).as_posix()
            if name in PINNED:
                continue
            problems += [f"{name}:{number}: {match.group(0)}" for number, line in _lines(path)
                         for match in SHARED.finditer(line)]
    return problems


def _check(target: Path, anchor: str | None, where: str) -> list[str]:
    if not target.is_file():
        return [f"{where}: no file {target}"]
    if anchor is not None and anchor not in anchors(target):
        return [f"{where}: no heading #{anchor} in {target.name}"]
    return []


def broken_links(root: Path) -> list[str]:
    """``file:line: problem`` for every docs/ path or relative page link that does not resolve."""
    sources = [root / "README.md"]
    for top in ("rstkit", "tests", "benchmarks", "docs"):
        sources += [p for p in _files(root, top)
                    if "golden" not in p.relative_to(root).parts and p.relative_to(root).as_posix() != SELF]
    problems = []
    for path in sources:
        name = path.relative_to(root).as_posix()
        for number, line in _lines(path):
            where = f"{name}:{number}"
            for match in DOCS_PATH.finditer(line):
                problems += _check(root / match.group(1), match.group(2), where)
            if path.suffix == ".md":
                for match in MD_LINK.finditer(line):
                    target = match.group(1)
                    if target.endswith(".md"):
                        problems += _check((path.parent / target).resolve(), match.group(2), where)
    return list(dict.fromkeys(problems))  # a README link into docs/ is both a path and a link


def test_nothing_in_the_package_or_the_docs_points_outside_the_repository():
    assert shared_references(ROOT) == []


def test_every_docs_link_resolves_to_a_file_and_a_heading():
    assert broken_links(ROOT) == []


def test_the_checks_see_what_they_look_for(tmp_path):
    """Each check finds a planted problem (so that an empty answer above means something)."""
    (tmp_path / "rstkit").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("[page](docs/page.md#kept) and [gone](docs/gone.md)\n", encoding="utf-8")
    (tmp_path / "docs" / "page.md").write_text("# Page\n\n## Kept\n\n```\n# not a heading\n```\n"
                                               "[x](page.md#missing)\n", encoding="utf-8")
    (tmp_path / "rstkit" / "m.py").write_text('"""Rules (evaluation.md section 4; docs/page.md#not-a-heading)."""\n'
                                              "# see docs/evaluation.md and ../shared/docs/parser-formats.md\n",
                                              encoding="utf-8")
    assert shared_references(tmp_path) == ["rstkit/m.py:1: evaluation.md", "rstkit/m.py:2: shared/docs",
                                           "rstkit/m.py:2: parser-formats.md"]
    assert broken_links(tmp_path) == [f"README.md:1: no file {tmp_path / 'docs/gone.md'}",
                                      "rstkit/m.py:1: no heading #not-a-heading in page.md",
                                      f"rstkit/m.py:2: no file {tmp_path / 'docs/evaluation.md'}",
                                      "docs/page.md:8: no heading #missing in page.md"]
