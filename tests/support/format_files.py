"""Render trees as a parser's output files (file naming, doc maps, multi-document files).

``render(key, trees, directory)`` writes ``trees`` the way parser ``key`` lays out its
output and returns what ``read_documents`` needs to read them back: the PRED path (a
directory or one multi-document file) and the read options (a document map where the
format needs one).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from rstkit.formats import all_formats, get_format
from rstkit.formats.brackets import dumps_indented
from rstkit.formats.build import Spelling, parent_label, ptb_escape_parentheses, respell
from rstkit.formats.dis import TEXT_RULES as DIS_TEXT_RULES
from rstkit.formats.dis import write_dis_syntax
from rstkit.formats.surdeanu_native import internal_label
from rstkit.formats.writable import PTB_ESCAPED, Unwritable, writer
from rstkit.tree import Node, RSTTree, one_line_brackets

# Writers of the formats rstkit reads but does not write (docs/formats.md: surdeanu, li_qi, braud_eacl): test
# fixtures only, so they live here. Each checks what the format cannot hold as rstkit's writers do.

#: LLC16's spelling: the 18 classes capitalised, but ``same-unit``
LI_QI_SPELLING = Spelling("li_qi", "title", exceptions={"same-unit": "same-unit"})
#: BCS17's spelling: capitalised, without hyphens
BRAUD_EACL_SPELLING = Spelling("braud_eacl", "title", drop_hyphens=True, exceptions={
    "same-unit": "Sameunit", "textual-organization": "Textualorganization"})
#: EDU text a BCS17 EDU token cannot hold: ``_`` joins its words (it reads back as a space)
BRAUD_EACL_TEXT_RULES = (
    Unwritable(re.compile("_"), "which BCS17 uses to join an EDU's words (it would read back as a space)"),
    PTB_ESCAPED)


@writer("li_qi", DIS_TEXT_RULES)
def dumps_li_qi(tree: RSTTree) -> str:
    """A tree in dis syntax with LLC16's label spelling (file name: ``parsed_<doc>.out``)."""
    return write_dis_syntax(respell(tree, LI_QI_SPELLING))


@writer("braud_eacl", BRAUD_EACL_TEXT_RULES)
def dumps_braud_eacl(tree: RSTTree) -> str:
    """One line of a BCS17 run file: whitespace runs read back as one space."""
    def label(node: Node) -> str:
        pair, relation = parent_label(node, "braud_eacl", tree.source)
        return f"{pair}{BRAUD_EACL_SPELLING(relation)}"

    def leaf(node: Node) -> str:
        token = "_".join(ptb_escape_parentheses(tree.edus[node.start - 1].text).split())
        return f"(EDU {token or '_'})"

    return f"(ROOT {one_line_brackets(tree.root, label, leaf)})\n"


def dumps_run(trees: list[RSTTree]) -> str:
    """A whole run file: one line per tree, in the order given (sort by id for BCS17's order)."""
    return "".join(dumps_braud_eacl(t) for t in trees)


@writer("surdeanu", (PTB_ESCAPED,))
def dumps_surdeanu_tree(tree: RSTTree) -> str:
    """One bracketed tree as it appears in a processors log: whitespace runs as one space."""
    def leaf(node: Node) -> str:
        words = " ".join(tree.edus[node.start - 1].text.split())
        return f"(TEXT:{ptb_escape_parentheses(words)})"

    return dumps_indented(tree.root, lambda node: internal_label(node, tree, "surdeanu"), leaf)


def dumps_log(trees: list[RSTTree]) -> str:
    """A processors log for ``trees``: the document list, then each tree twice (standing for the
    gold-EDU and predicted-EDU parses; readers keep the first of each pair)."""
    out = ["00:00:00.000 [run-main-0] INFO  o.c.d.rstparser.RSTParser$ - Reading test documents ...",
           "Documents", *(f"{t.doc_id}.out.dis" for t in trees), "end Documents",
           "00:00:00.000 [run-main-0] DEBUG o.c.d.rstparser.RSTParser - Started parsing..."]
    for tree in trees:
        text = dumps_surdeanu_tree(tree).rstrip("\n")
        out += ["System tree:", text, "System tree:", text]
    out.append(f"00:00:00.000 [run-main-0] DEBUG o.c.d.rstparser.RSTParser - Done parsing {len(trees)} documents.")
    return "\n".join(out) + "\n"


#: one file per document: key -> file name of a document id (default: id + first extension)
FILE_NAMES: dict[str, Callable[[str], str]] = {
    "hilda": lambda d: f"{d}.out.dis",
    "codra": lambda d: f"{d}.doc_dis",
    "feng": lambda d: f"{d}.out.tree",
    "feng_dis": lambda d: f"{d}.txt.dis",
    "li_qi": lambda d: f"parsed_{d}.out",
    "dplp": lambda d: f"{d}.out.brackets",
    "dmrst": lambda d: f"{d}.dmrst",
    "isanlp": lambda d: f"{d}.rs3",
    "surdeanu_native": lambda d: f"{d}.dtree",
    "hilda_orig": lambda d: f"{d}.parsetree",
}
#: formats whose registry entry has no writer (their naming is not <id><ext>): module writers
WRITERS: dict[str, Callable[[RSTTree], str]] = {"li_qi": dumps_li_qi}
#: formats that carry no EDU text
TEXTLESS = {"hilda", "braud_coling", "dplp", "dmrst"}
MULTI_DOCUMENT_WRITERS = {"surdeanu", "braud_eacl"}
#: every registered format rstkit can write
RENDERABLE = sorted(k for k, f in all_formats().items() if f.write or k in WRITERS or k in MULTI_DOCUMENT_WRITERS)


def file_name(key: str, doc_id: str) -> str:
    return FILE_NAMES[key](doc_id) if key in FILE_NAMES else doc_id + get_format(key).extensions[0]


def render(key: str, trees: list[RSTTree], directory: Path) -> tuple[Path, dict]:
    """Write ``trees`` in format ``key`` under ``directory``; return (PRED path, read options)."""
    directory.mkdir(parents=True, exist_ok=True)
    if key == "surdeanu":
        path = directory / "log"
        path.write_text(dumps_log(trees), encoding="utf-8")
        return path, {}
    if key == "braud_eacl":
        ordered = sorted(trees, key=lambda t: t.doc_id)
        path = directory / "test_it8_beam16"
        path.write_text(dumps_run(ordered), encoding="utf-8")
        ids = directory / "doc_ids.txt"
        ids.write_text("".join(f"{t.doc_id}\n" for t in ordered), encoding="utf-8")
        return path, {"doc_map": ids}
    out = directory / key
    out.mkdir()
    if key == "braud_coling":
        write = get_format(key).write
        for k, tree in enumerate(trees):
            (out / f"{k}.mrg.pred").write_text(write(tree), encoding="utf-8")
        ids = directory / "braud_coling_ids.txt"
        ids.write_text("".join(f"{t.doc_id}\n" for t in trees), encoding="utf-8")
        return out, {"doc_map": ids}
    write = WRITERS.get(key) or get_format(key).write
    for tree in trees:
        (out / file_name(key, tree.doc_id)).write_text(write(tree), encoding="utf-8")
    return out, {}
