"""RST-DT ``.dis`` files (also GUM ``lisp_nary``/``lisp_binary``): reader and writer.

Two paths read a file, and give the same tree. The direct path builds the tree of a well-formed,
regularly laid out file from one regular-expression pass (no events, no separate validation: it
checks what it builds) and declines anything else: a file with an error, a warning or a lenient
repair, ``<EDU>`` delimiters, RST-DT's ``//TT_ERR`` marks, a token out of place. The precise
reader, a real grammar (lark, LALR), reads every other file into node events, which one builder
turns into the tree: every error, warning and lenient repair comes from there. The direct path is
kept for speed (tests/formats/test_dis_fast.py checks that it gives the grammar's tree, node lines
included, on every GUM file): ``rstkit eval gold/ pred/`` on GUM's 280 well-formed lisp_nary/lisp_binary
pairs takes 1.6 s of CPU with it, 18.9 s with every file read through the grammar. A third path, a
regular-expression scanner that gave the grammar's events for regularly laid out files (2.7 s for the
same evaluation), was removed: the direct path takes every well-formed file it took, so it only
sped up files with an error or a lenient repair (about 30 ms each through lark instead of 3 ms).

EDU text atoms ``(text _!..._!)`` are single tokens wherever they appear, so several leaves
on one line, parentheses, brackets and quotes inside text, and any whitespace between tokens
are all read correctly (the reference reader mis-reads some of these silently,
docs/evaluation.md#the-references-bugs, B2 and B3). RST-DT's stray ``//TT_ERR`` editor marks are ignored.

Declared extents are checked against the leaves: a mismatch is an error naming the line,
unless ``lenient=True``, which repairs extents (and leaf numbers) from the leaves and warns.
Reading and writing are iterative: tree depth is limited by memory only.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..tree import ROOT, Node, RSTTree, nuclearity_word, validate
from . import Format, input_names, read_text, register
from ._dis_direct import direct
from ._dis_events import Builder
from ._dis_grammar import grammar_events
from .writable import Unwritable, writer


def loads_dis(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
              lenient: bool = False) -> RSTTree:
    """Parse the text of one ``.dis`` file into an RSTTree.

    >>> tree = loads_dis("( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!Rain fell,_!) )"
    ...                  " ( Satellite (leaf 2) (rel2par cause) (text _!so we stayed in._!) ) )")
    >>> print(tree)
    (Root 1-2 (N:span 1) (S:cause 2))
    >>> tree.edus[1].text
    'so we stayed in.'
    """
    source, doc_id = input_names(path, doc_id)
    built = direct(text)
    if built is not None:
        return RSTTree(built[0], built[1], doc_id, source)
    builder = Builder(source, lenient)
    root = builder.build(grammar_events(text, source))
    tree = RSTTree(root, builder.edus(), doc_id, source)
    validate(tree)
    return tree


def read_dis(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    """Read one ``.dis`` file (a list of one tree, as every format reader returns)."""
    return [loads_dis(read_text(path, encoding=encoding, lenient=lenient), path, lenient=lenient)]


# -- writing ----------------------------------------------------------------------------------
#: the deepest level that :func:`dumps_dis` indents further (GUM's deepest tree has 32 levels)
MAX_INDENT = 100


#: EDU text a .dis file cannot hold: it has no escape, and its reader ends a text at the first ``_!``
#: followed by ``)`` and takes a final ``<P>`` for RST-DT's paragraph mark
TEXT_RULES = (Unwritable(re.compile(r"_!\s*\)"), "which would end the (text _!..._!) early (.dis has no escape)"),
              Unwritable(re.compile(r"<P>\s*$"), "at the end, which .dis reads as RST-DT's paragraph-end mark"))
#: relation labels a ``(rel2par ...)`` cannot hold (the reader's label is ``[^\s()]+``)
LABEL_RULES = (Unwritable(re.compile(r"[\s()]"), "which a .dis (rel2par ...) label cannot hold"),
               Unwritable(re.compile(r"\A//TT_ERR\Z"), "which .dis readers skip as RST-DT's editor mark"))


@writer("dis", TEXT_RULES, LABEL_RULES)
def dumps_dis(tree: RSTTree) -> str:
    """Write a tree in RST-DT layout: one node per line, leaves on one line, 2-space indent.

    EDUs that end a paragraph (where paragraph indices are known) get RST-DT's ``<P>``.
    Indentation stops growing at depth :data:`MAX_INDENT` (a 20,000-EDU chain would
    otherwise take gigabytes of spaces); readers ignore it anyway.

    What .dis cannot hold is refused (:class:`~rstkit.errors.WriteError`, naming the document and
    the EDU): an EDU text with ``_!`` followed by ``)`` (it would end the text: .dis has no escape)
    or ending in ``<P>`` (read as the paragraph mark); a relation label with whitespace or brackets, or
    that is RST-DT's ``//TT_ERR`` mark.
    Everything else reads back as written, but for leading and trailing whitespace of EDU text,
    which the reader strips.

    >>> tree = loads_dis("( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!Rain fell,_!) )"
    ...                  " ( Satellite (leaf 2) (rel2par cause) (text _!so we stayed in._!) ) )")
    >>> print(dumps_dis(tree))
    ( Root (span 1 2)
      ( Nucleus (leaf 1) (rel2par span) (text _!Rain fell,_!) )
      ( Satellite (leaf 2) (rel2par cause) (text _!so we stayed in._!) )
    )
    <BLANKLINE>
    """
    return write_dis_syntax(tree)


def write_dis_syntax(tree: RSTTree) -> str:
    """:func:`dumps_dis` without its checks, for the writers of dis-syntax formats (which check the same
    rules, :data:`TEXT_RULES`, under their own name)."""
    lines: list[str] = []
    edus = tree.edus

    def ends_paragraph(i: int) -> bool:
        this = edus[i - 1].paragraph
        if this is None or i == len(edus):
            return False
        return edus[i].paragraph != this

    def header(node: Node) -> str:
        extent = f"(leaf {node.start})" if node.is_leaf else f"(span {node.start} {node.end})"
        if node.nuclearity == ROOT:
            return f"( Root {extent}"
        return f"( {nuclearity_word(node.nuclearity)} {extent} (rel2par {node.relation})"

    stack: list[tuple[Node | None, int]] = [(tree.root, 0)]
    while stack:  # pre-order; None closes an inner node
        node, depth = stack.pop()
        pad = "  " * min(depth, MAX_INDENT)
        if node is None:
            lines.append(pad + ")")
        elif node.is_leaf:
            text = edus[node.start - 1].text + ("<P>" if ends_paragraph(node.start) else "")
            lines.append(f"{pad}{header(node)} (text _!{text}_!) )")
        else:
            lines.append(pad + header(node))
            stack.append((None, depth))
            stack.extend((child, depth + 1) for child in reversed(node.children))
    return "\n".join(lines) + "\n"


def _sniff(text: str) -> bool:
    return bool(re.match(r"\s*\(\s*Root\s*\(\s*(span|leaf)\s", text)) and "(rel2par" in text


register(Format("dis", "RST-DT .dis bracketed trees (rel2par convention)", read_dis, dumps_dis,
                (".dis",), _sniff))
