"""The direct path of the .dis reader (:func:`rstkit.formats.dis.loads_dis`): a well-formed, regularly
laid out file straight into the tree in one regular-expression pass, or None. Private: the format's
one reader is ``loads_dis``."""
from __future__ import annotations

import re
import sys
from itertools import accumulate, repeat

from ..tree import EDU, NUCLEUS, ROOT, SATELLITE, Node
from ._dis_events import PARAGRAPH_END
from ._fastnodes import new_edu, new_node

#: a node's relation (possessive: as fast, never backtracks)
REL2PAR = r"\(\s*+rel2par\s++([^\s()]+)\s*+\)"

# -- the direct path: a well-formed, regularly laid out file straight into the tree ----------
# One match per node: a leaf group or an inner node's header, each with the closing brackets of
# inner nodes that follow it. The text atom ends where the grammar's TEXT token ends. Anything else, and any
# inconsistency (an extent or leaf number that differs from the leaves, a unary node, a node
# without a nucleus, a missing relation, Root out of place), declines the file: the event path
# then reads it and gives the error, the warning or the lenient repair.
#: an EDU text body: up to the first ``_!`` followed by ``)``, as the grammar's TEXT token (unrolled and
#: possessive, like every quantifier of _DIRECT: nothing it matches is followed by what it could give back)
_BODY = r"[^_]*+(?:_(?!!\s*+\))[^_]*+)*+"
_DIRECT = re.compile(rf"""
    (                                               # 1 the whole match (for line counting)
      (\s*+\(\s*+)                                   # 2 up to the nuclearity word
      (Nucleus|Satellite|Root)\s*+\(\s*+             # 3 nuclearity word
      (?:
        leaf\s++(\d++)\s*+\)\s*+                     # 4 leaf number
        (?:{REL2PAR}\s*+)?                          # 5 relation
        \(\s*+text\s++_!({_BODY})_!\s*+\)\s*+\)      # 6 EDU text; the leaf's closing bracket
      | span\s++(\d++)\s++(\d++)\s*+\)               # 7, 8 extent of an inner node
        (?:\s*+{REL2PAR})?                          # 9 relation
      )
      ((?:\s*+\))*)                                  # 10 closing brackets of inner nodes after it
    )
    | (\S)                                          # 11 anything else: leave it to the event path
    """, re.DOTALL | re.VERBOSE)
_DIRECT_NUCLEARITY = {"Nucleus": NUCLEUS, "Satellite": SATELLITE, "Root": ROOT}


def direct(text: str) -> tuple[Node, tuple[EDU, ...]] | None:
    """(root, EDUs) of a well-formed, regularly laid out file, or None when the event path must
    read it. The checks of :func:`~rstkit.tree.validate` hold by construction (leaves numbered in
    order, spans from the children) or are made here (arity, a nucleus, Root on top only)."""
    if "//TT_ERR" in text:
        return None
    intern = sys.intern
    # open inner nodes: nuclearity, relation, line, declared first and last leaf; and their children
    headers: list[tuple[str, str | None, int, int, int]] = []
    open_children: list[list[Node]] = []
    children: list[Node] = []  # of the innermost open node
    texts: list[str] = []
    paragraph_ends: set[int] = set()  # EDUs (from 0) marked <P>
    root: Node | None = None
    line = 1
    for whole, lead, word, leaf_no, leaf_rel, body, first, last, rel, closes, junk in _DIRECT.findall(text):
        if junk or root is not None:
            return None
        nuclearity = _DIRECT_NUCLEARITY[word]
        if (nuclearity is ROOT) == bool(headers):
            return None
        node_line = line + lead.count("\n")
        line += whole.count("\n")
        relation = leaf_rel or rel
        if relation:
            relation = intern(relation)
        elif nuclearity is ROOT:
            relation = None
        else:
            return None
        if leaf_no:
            index = len(texts) + 1
            if int(leaf_no) != index:
                return None
            if "<P>" in body:
                body, n_sub = PARAGRAPH_END.subn("", body)
                if n_sub:
                    paragraph_ends.add(index - 1)
            texts.append(intern(body.strip()))
            node = new_node(index, index, nuclearity, relation, (), node_line)
            if not headers:  # a one-EDU document
                if closes:
                    return None
                root = node
                continue
            children.append(node)
        else:
            headers.append((nuclearity, relation, node_line, int(first), int(last)))
            open_children.append(children)
            children = []
        if closes:
            for _ in range(closes.count(")")):
                if not headers:
                    return None
                nuclearity, relation, node_line, start, end = headers.pop()
                if len(children) < 2 or start != children[0].start or end != children[-1].end:
                    return None
                for child in children:
                    if child.nuclearity is NUCLEUS:
                        break
                else:
                    return None
                node = new_node(start, end, nuclearity, relation, tuple(children), node_line)
                children = open_children.pop()
                if headers:
                    children.append(node)
                else:
                    root = node
    if root is None or headers:
        return None
    numbers = range(1, len(texts) + 1)
    if not paragraph_ends:
        return root, tuple(map(new_edu, numbers, texts, repeat(None), repeat(None)))
    paragraphs = list(accumulate(map(paragraph_ends.__contains__, range(-1, len(texts) - 1)), initial=1))[1:]
    return root, tuple(map(new_edu, numbers, texts, repeat(None), paragraphs))
