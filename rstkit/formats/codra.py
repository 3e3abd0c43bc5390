"""``codra``: document-level trees of CODRA (Joty, Carenini & Ng 2015), ``<doc>.doc_dis``.

RST-DT dis syntax with CODRA's habits (docs/formats.md#codra): the 18 classes spelled
``Same-Unit``, ``TextualOrganization``, ``Manner-Means`` ...; double quotes in EDU text
written as the four characters ``\\\\\\"``; nodes inside one sentence closed by
``" )"``; a one-EDU document written with a ``DUMMY`` node. The document id is the
file name minus ``.doc_dis`` (``wsj_0602.doc_dis`` -> ``wsj_0602``). The sentence-level
``.sen_dis`` files (one tree per sentence) are not evaluation input and are not read.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from ..tree import EDU, ROOT, Node, RSTTree, nuclearity_word
from . import Format, input_names, read_text, register
from .build import Spelling, finish, loads_dis_syntax, looks_like_dis, respell
from .dis import TEXT_RULES
from .writable import writer

KEY = "codra"
_ESCAPED_QUOTE = '\\\\\\"'  # the four characters \\\"
SPELLING = Spelling(KEY, "title", exceptions={"textual-organization": "TextualOrganization"})
_DUMMY = re.compile(r"^\s*\(\s*Root\s*\(\s*span\s+1\s+1\s*\)\s*\(\s*DUMMY\s*\(\s*leaf\s+1\s*\)\s*"
                    r"\(\s*rel2par\s+DUMMY\s*\)\s*\(\s*text\s+_!(.*)_!\s*\)\s*\)\s*\)\s*$", re.DOTALL)
_SENTENCE_END = re.compile(r"[.!?]\W*$")


def loads_codra(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
                lenient: bool = False) -> RSTTree:
    """Parse the text of one CODRA ``.doc_dis`` file."""
    source, doc_id = input_names(path, doc_id, (".doc_dis",))
    text = text.replace(_ESCAPED_QUOTE, '"')
    dummy = _DUMMY.match(text)
    if dummy:
        return finish(Node(1, 1, ROOT, None, (), 1), [EDU(1, dummy.group(1).strip())], doc_id, source)
    return loads_dis_syntax(KEY, text, path, doc_id=doc_id, lenient=lenient)


def read_codra(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    return [loads_codra(read_text(path, encoding=encoding, lenient=lenient), path, lenient=lenient)]


def _sentence_ids(tree: RSTTree) -> list[int]:
    """Sentence index of each EDU: from the tree when known, else EDUs ending in . ! ? end one."""
    if all(e.sentence is not None for e in tree.edus):
        return [e.sentence for e in tree.edus]  # type: ignore[misc]
    ids, current = [], 1
    for edu in tree.edus:
        ids.append(current)
        if _SENTENCE_END.search(edu.text):
            current += 1
    return ids


@writer(KEY, TEXT_RULES)
def dumps_codra(tree: RSTTree) -> str:
    """Write a tree the way CODRA does (layout, spelling, quote escaping, DUMMY). Double quotes are
    escaped as CODRA escapes them (``\\\\\\"``, which reads back as ``"``); EDU text that dis syntax
    cannot hold is refused, as :func:`~rstkit.formats.dis.dumps_dis` refuses it."""
    def text_of(index: int) -> str:
        return tree.edus[index - 1].text.replace('"', _ESCAPED_QUOTE)

    if tree.root.is_leaf:
        return f"( Root (span 1 1)\n  ( DUMMY (leaf 1) (rel2par DUMMY) (text _!{text_of(1)}_!) )\n)\n"
    sentence = _sentence_ids(tree)
    spelled = respell(tree, SPELLING)
    lines: list[str] = []

    sizes = Counter(sentence)

    def inside_sentence(node: Node) -> bool:
        first, last = sentence[node.start - 1], sentence[node.end - 1]
        whole = sizes[first] == node.end - node.start + 1
        return first == last and not whole

    stack: list[tuple[Node, int, bool]] = [(spelled.root, 0, False)]  # node, depth, closing?
    while stack:
        node, depth, closing = stack.pop()
        pad = "  " * depth
        if closing:
            lines.append(pad + (" )" if inside_sentence(node) else ")"))
            continue
        if node.nuclearity == ROOT:
            head = f"( Root (span {node.start} {node.end})"
        else:
            extent = f"(leaf {node.start})" if node.is_leaf else f"(span {node.start} {node.end})"
            head = f"( {nuclearity_word(node.nuclearity)} {extent} (rel2par {node.relation})"
        if node.is_leaf:
            lines.append(f"{pad}{head} (text _!{text_of(node.start)}_!) )")
            continue
        lines.append(pad + head)
        stack.append((node, depth, True))
        stack.extend((child, depth + 1, False) for child in reversed(node.children))
    return "\n".join(lines) + "\n"


def _sniff(text: str) -> bool:
    return looks_like_dis(text) or bool(_DUMMY.match(text[:5000]))


register(Format(KEY, "CODRA .doc_dis trees (dis syntax, CODRA spelling and quote escaping)",
                read_codra, dumps_codra, (".doc_dis",), _sniff))
