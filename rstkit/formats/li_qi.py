"""``li_qi``: trees of Li, Li & Chang's parser (LLC16, EMNLP 2016), ``parsed_<doc>``.

RST-DT dis syntax, binary, rel2par; the 18 classes capitalised except ``same-unit`` and
``span`` (docs/formats.md#li_qi; no public output, spelling of
multi-word classes unknown, any spelling of docs/formats.md#label-spelling is accepted). Files have no extension:
the document id is the name after the first underscore (``parsed_wsj_0602.out`` ->
``wsj_0602``).
"""
from __future__ import annotations

from pathlib import Path

from ..tree import RSTTree
from . import Format, doc_id_from_path, read_text, register
from .build import loads_dis_syntax, looks_like_dis

KEY = "li_qi"
PREFIX = "parsed_"


def loads_li_qi(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
                lenient: bool = False) -> RSTTree:
    """Parse the text of one LLC16 output file."""
    if doc_id is None:
        doc_id = doc_id_from_path(path, (), (PREFIX,)) if path is not None else ""
    return loads_dis_syntax(KEY, text, path, doc_id=doc_id, lenient=lenient)


def read_li_qi(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    return [loads_li_qi(read_text(path, encoding=encoding, lenient=lenient), path, lenient=lenient)]


register(Format(KEY, "LLC16 parsed_<doc> trees (dis syntax, capitalised classes)", read_li_qi,
                None, (), looks_like_dis, prefixes=(PREFIX,)))
