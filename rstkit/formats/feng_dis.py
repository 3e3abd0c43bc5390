"""``feng_dis``: trees of Feng & Hirst's gSVM parser (2012), ``<input>.txt.dis``.

RST-DT dis syntax, binary, rel2par, with Feng's class names (``Elaboration``,
``Topic-Change``, ``same-unit``, ``textual-organization``) and no sentence markers in the
text (docs/formats.md#feng_dis). The document id is the name minus ``.txt.dis`` (and ``.out``).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..tree import RSTTree
from . import Format, doc_id_from_path, read_text, register
from .build import loads_dis_syntax, looks_like_dis, respell
from .dis import TEXT_RULES, write_dis_syntax
from .feng import SPELLING
from .writable import writer

KEY = "feng_dis"


def loads_feng_dis(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
                   lenient: bool = False) -> RSTTree:
    """Parse the text of one gSVM ``.txt.dis`` file."""
    if doc_id is None:
        doc_id = doc_id_from_path(path, (".dis",)) if path is not None else ""
    return loads_dis_syntax(KEY, text, path, doc_id=doc_id, lenient=lenient)


def read_feng_dis(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    return [loads_feng_dis(read_text(path, encoding=encoding, lenient=lenient), path, lenient=lenient)]


@writer(KEY, TEXT_RULES)
def dumps_feng_dis(tree: RSTTree) -> str:
    """Write a tree as gSVM does: dis syntax, Feng's spelling, no paragraph markers. EDU text that dis
    syntax cannot hold is refused, as :func:`~rstkit.formats.dis.dumps_dis` refuses it."""
    plain = replace(respell(tree, SPELLING), edus=tuple(replace(e, paragraph=None) for e in tree.edus))
    return write_dis_syntax(plain)


register(Format(KEY, "Feng & Hirst gSVM .txt.dis trees (dis syntax, Feng's class names)",
                read_feng_dis, dumps_feng_dis, (".txt.dis",), looks_like_dis, by_name=False))
