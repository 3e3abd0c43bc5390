"""``isanlp``: the rs3 dialect written by isanlp_rst (``DiscourseUnit.to_rs3``).

rstWeb XML (read with the ``rs3`` reader) with isanlp's habits (docs/formats.md#isanlp):
EDU text not XML-escaped (raw ``&`` and ``<`` are repaired before parsing); relation
names declared once per nuclearity (a name may be declared with both types, plus a dummy
``antithesis`` multinuc); group ``type`` attributes that are wrong in places (the rs3
reader ignores them); satellites pointing to their nucleus unit; utf-8, or cp1251 when the
exporter was called directly. Relations come out canonical (lower-case classes).

A satellite whose relation has the same name as the multinuclear node it attaches to
cannot be told apart from that node's nuclei; such documents are read as rs3 reads them
(the satellite becomes a further nucleus) with a warning naming the group.
"""
from __future__ import annotations

import re
import warnings
from collections import Counter
from pathlib import Path

from ..errors import FormatError, RSTKitWarning, TreeStructureError, printable
from ..tree import RSTTree
from . import Format, input_names, read_text, register
from .build import Spelling, canonical_relations, parent_label
from .rs3 import loads_rs3, xml_text
from .writable import NOT_XML, writer

KEY = "isanlp"
SPELLING = Spelling(KEY, "lower")
_SEGMENT = re.compile(r"(<segment\b[^>]*>)(.*?)(</segment>)", re.DOTALL)
_ENTITY = re.compile(r"&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9A-Fa-f]+);)")
_LINK = re.compile(r"""<(?:segment|group)\b[^>]*?\bparent\s*=\s*["']([^"']+)["']"""
                   r"""[^>]*?\brelname\s*=\s*["']([^"']+)["']""")


def repair_text(text: str) -> str:
    """Escape the raw ``&`` and ``<`` isanlp leaves in segment text."""
    def fix(match: re.Match[str]) -> str:
        body = _ENTITY.sub("&amp;", match.group(2)).replace("<", "&lt;")
        return match.group(1) + body + match.group(3)

    return _SEGMENT.sub(fix, text)


def loads_isanlp(text: str, path: str | Path | None = None, *, doc_id: str | None = None,
                 lenient: bool = False) -> RSTTree:
    """Parse the text of one rs3 file written by isanlp_rst."""
    source, doc_id = input_names(path, doc_id, (".rs3",))
    repaired = repair_text(text)
    try:
        tree = loads_rs3(repaired, path, doc_id=doc_id, lenient=lenient)
    except FormatError as exc:
        raise FormatError(f"not a valid {KEY} file (rs3 syntax): {printable(exc.message, limit=None)}", exc.path,
                          exc.line) from None
    _warn_ambiguous(repaired, source)
    return tree.with_root(canonical_relations(tree.root))


def _warn_ambiguous(text: str, source: str) -> None:
    links = Counter(_LINK.findall(text))
    for (parent, relname), count in sorted(links.items()):
        if relname != "span" and count > 2:
            warnings.warn(f"{source}: {count} nodes point to group {parent} with relation {relname!r}: a satellite "
                          "with the name of the multinuclear relation cannot be told from its nuclei; read as "
                          f"{count} nuclei", RSTKitWarning, stacklevel=3)


def read_isanlp(path: str | Path, *, lenient: bool = False, encoding: str | None = None) -> list[RSTTree]:
    text = read_text(path, fallback="cp1251", encoding=encoding, lenient=lenient)  # the Exporter's default
    return [loads_isanlp(text, path, lenient=lenient)]


@writer(KEY, (NOT_XML,))
def dumps_isanlp(tree: RSTTree) -> str:
    """Write a binary tree as isanlp_rst does: segments 1..n, then groups numbered in creation
    (post-)order and listed in pre-order with the top group last; satellites point to their
    nucleus; NS/SN nuclei point to the parent with ``span``, NN nuclei with the relation.

    Unlike isanlp_rst, text is escaped as rs3 escapes it (the reader's repair leaves entities
    alone), so it reads back as written but for leading and trailing whitespace; characters XML
    cannot hold are refused (:class:`~rstkit.errors.WriteError`)."""
    from xml.sax.saxutils import quoteattr  # here: it imports urllib, which reading does not need
    n = tree.n_edus
    ids: dict[tuple[int, int], int] = {}
    next_group = n + 1
    for node in tree.root.postorder():
        if node.is_leaf:
            ids[node.span] = node.start
        else:
            ids[node.span], next_group = next_group, next_group + 1
    links: dict[int, tuple[int, str]] = {}
    declared: list[tuple[str, str]] = [("antithesis", "multinuc")]
    group_type: dict[int, str] = {}
    for node in tree.root.nodes():
        if node.is_leaf:
            continue
        pair, relation = parent_label(node, KEY, tree.source)
        name = SPELLING(relation)
        me = ids[node.span]
        left, right = (ids[c.span] for c in node.children)
        group_type[me] = "multinuc" if pair == "NN" else "span"
        declared.append((name, "multinuc" if pair == "NN" else "rst"))
        if pair == "NN":
            links[left] = links[right] = (me, name)
        else:
            nucleus_node = node.children[0 if pair == "NS" else 1]
            if nucleus_node.is_multinuclear and SPELLING(nucleus_node.children[0].relation) == name:
                raise TreeStructureError(f"the {name!r} satellite of node {node.start}-"
                                         f"{node.end} would read back as a nucleus of the {name!r} multinuclear "
                                         "node it attaches to", tree.source, node.line)
            nucleus, satellite = (left, right) if pair == "NS" else (right, left)
            links[nucleus] = (me, "span")
            links[satellite] = (nucleus, name)

    def attrs(eid: int) -> str:
        if eid not in links:
            return ""
        parent, relname = links[eid]
        return f' parent="{parent}" relname={quoteattr(relname)}'

    out = ["<rst>", "\t<header>", "\t\t<relations>"]
    out += [f"\t\t\t<rel name={quoteattr(name)} type=\"{kind}\" />" for name, kind in sorted(set(declared))]
    out += ["\t\t</relations>", "\t</header>", "\t<body>"]
    out += [f'\t\t<segment id="{e.index}"{attrs(e.index)}>{xml_text(e.text)}</segment>' for e in tree.edus]
    top = ids[tree.root.span]
    order = [ids[nd.span] for nd in tree.root.nodes() if not nd.is_leaf and nd is not tree.root]
    out += [f'\t\t<group id="{g}" type="{group_type[g]}"{attrs(g)}/>' for g in order]
    if not tree.root.is_leaf:
        out.append(f'\t\t<group id="{top}" type="{group_type[top]}"/>')
    out += ["\t</body>", "</rst>"]
    return "\n".join(out) + "\n"


def _sniff(text: str) -> bool:
    head = text[:3000]
    return "<rst" in head and bool(re.search(r"""<rel name=["']antithesis["'] type=["']multinuc["']""", head))


register(Format(KEY, "rs3 written by isanlp_rst (unescaped text, duplicate declarations, satellites -> nucleus)",
                read_isanlp, dumps_isanlp, (".rs3",), _sniff, by_name=False))
