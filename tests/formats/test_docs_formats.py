"""docs/formats.md shows the running example in each format: every complete form on the page reads as
the running example (tests/formats/test_formats_parsers.py's EXAMPLE), so the page cannot drift from
the readers."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rstkit.corpus import read_file
from tests.formats.test_formats_parsers import DOC_MAPS, EXAMPLE, TEXTS
from tests.support.format_files import TEXTLESS

PAGE = Path(__file__).resolve().parents[2] / "docs" / "formats.md"

#: forms the page shows in part only (a few lines of a longer file)
PARTIAL = {"codra", "isanlp"}
#: file names the formats' readers take the document id from
NAMES = {"dis": "wsj_9999.out.dis", "hilda": "wsj_9999.out.dis", "surdeanu": "log", "feng": "wsj_9999.out.tree",
         "braud_coling": "0.mrg.pred", "braud_eacl": "test_it8_beam16", "dplp": "wsj_9999.out.brackets",
         "dmrst": "wsj_9999.dmrst", "surdeanu_native": "wsj_9999.dtree", "hilda_orig": "wsj_9999.parsetree"}


def page_forms() -> dict[str, str]:
    """The first indented code block of each ``### `key` `` section of the page."""
    forms: dict[str, str] = {}
    for section in re.split(r"^### ", PAGE.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]:
        key = re.match(r"`(\w+)`", section)
        block = re.search(r"(^    .*\n(?:^    .*\n|^\n)*)", section, flags=re.MULTILINE)
        if key and block and block.group(1).strip():
            lines = block.group(1).rstrip("\n").splitlines()
            forms[key.group(1)] = "\n".join(line[4:] for line in lines) + "\n"
    return forms


FORMS = page_forms()


def test_the_page_shows_every_complete_form():
    assert sorted(FORMS) == sorted(NAMES.keys() | PARTIAL)


@pytest.mark.parametrize("key", sorted(NAMES))
def test_each_form_on_the_page_reads_as_the_running_example(tmp_path, key):
    path = tmp_path / NAMES[key]
    path.write_text(FORMS[key], encoding="utf-8")
    (tree,) = read_file(path, key, doc_map=DOC_MAPS.get(key))
    assert tree.root == EXAMPLE.root
    assert tree.edu_texts() == (["", "", "", ""] if key in TEXTLESS else TEXTS)
