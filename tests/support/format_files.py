"""Render trees as a parser's output files (file naming, doc maps, multi-document files).

``render(key, trees, directory)`` writes ``trees`` the way parser ``key`` lays out its
output and returns what ``read_documents`` needs to read them back: the PRED path (a
directory or one multi-document file) and the read options (a document map where the
format needs one).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rstkit.formats import all_formats, get_format
from rstkit.formats.braud_eacl import dumps_run
from rstkit.formats.li_qi import dumps_li_qi
from rstkit.formats.surdeanu import dumps_log
from rstkit.tree import RSTTree

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
