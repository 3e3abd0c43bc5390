"""The golden files of tests/golden/ re-derived from their inputs and the documented rules.

tests/golden/README.md states the rules (from rstkit/draw/text.py's and diff.py's
docstrings) and what each file shows. The small renderer below implements those rules on
the oracle's own reading of the .dis files (tests/support/oracle.py) and shares no code with
rstkit.draw; each golden file must equal its derivation, so a golden file cannot drift to
whatever rstkit happens to print.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from tests.support import oracle
from tests.support.oracle import T

GOLDEN = Path(__file__).parents[1] / "golden" / "draw"
UNICODE = {"branch": "├─ ", "last": "└─ ", "pipe": "│  ", "blank": "   ", "arrow": "→", "ellipsis": "…"}
ASCII = {"branch": "|- ", "last": "`- ", "pipe": "|  ", "blank": "   ", "arrow": "->", "ellipsis": "..."}
TAGS = {"gold-only": "only in gold", "pred-only": "only in prediction", "nuclearity": "nuclearity differs",
        "relation": "relation differs"}


def read(name: str) -> tuple[T, dict[int, str]]:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    edus = {int(i): words for i, words in re.findall(r"\(leaf (\d+)\).*?\(text _!(.*?)_!\)", text)}
    return oracle.read_dis(text), edus


def span_text(node: T) -> str:
    return str(node.start) if not node.kids else f"{node.start}-{node.end}"


def describe(node: T, parent: T | None, glyphs: dict) -> str:
    if parent is None:
        return span_text(node)
    words = [node.nuc, span_text(node)]
    if node.nuc == "S":
        i = parent.kids.index(node)
        nuclei = [j for j, kid in enumerate(parent.kids) if kid.nuc == "N"]
        target = min(nuclei, key=lambda j: (abs(j - i), j > i))  # nearest, the preceding one on a tie
        words += [node.rel, glyphs["arrow"], span_text(parent.kids[target])]
    elif node.rel != "span":
        words.append(node.rel)
    return " ".join(words)


def as_ascii(line: str) -> str:
    no_accents = "".join(c for c in unicodedata.normalize("NFKD", line) if not unicodedata.combining(c))
    return "".join(c if c.isascii() else "?" for c in no_accents)


def fit(line: str, width: int, glyphs: dict) -> str:
    if width and len(line) > width:
        line = line[:width - len(glyphs["ellipsis"])].rstrip() + glyphs["ellipsis"]
    return line


def draw(tree: T, edus: dict[int, str], header: str, top: T | None = None, width: int = 0, ascii: bool = False,
         marks: dict | None = None) -> str:
    glyphs = ASCII if ascii else UNICODE
    parents = {kid: node for node in oracle.walk(tree) for kid in node.kids}
    lines = [header]

    def visit(node: T, prefix: str, connector: str, below: str) -> None:
        line = prefix + connector + describe(node, parents.get(node), glyphs)
        if marks and (node.start, node.end) in marks:
            line += f" [{TAGS[marks[(node.start, node.end)]]}]"
        if not node.kids:
            line += f": {edus[node.start]}"
        lines.append(line)
        for i, kid in enumerate(node.kids):
            last = i == len(node.kids) - 1
            visit(kid, prefix + below, glyphs["last" if last else "branch"], glyphs["blank" if last else "pipe"])

    visit(top or tree, "", "", "")
    return "".join(fit(as_ascii(line) if ascii else line, width, glyphs) + "\n" for line in lines)


def diff_marks(gold: T, pred: T) -> tuple[dict, dict]:
    g = {(n.start, n.end): n for n in oracle.walk(gold)}
    p = {(n.start, n.end): n for n in oracle.walk(pred)}
    gold_marks = {s: "gold-only" for s in g if s not in p}
    pred_marks = {s: "pred-only" for s in p if s not in g}
    for s in g.keys() & p.keys():
        if g[s].nuc != p[s].nuc:
            gold_marks[s] = pred_marks[s] = "nuclearity"
        elif g[s].rel != p[s].rel:
            gold_marks[s] = pred_marks[s] = "relation"
    return gold_marks, pred_marks


def smallest_covering(tree: T, first: int, last: int) -> T:
    return min((n for n in oracle.walk(tree) if n.start <= first and last <= n.end), key=lambda n: n.end - n.start)


def derived(name: str) -> str:
    gold, edus = read("cafe.dis")
    header = f"cafe: {gold.end} EDUs"
    if name == "cafe.txt":
        return draw(gold, edus, header)
    if name == "cafe.ascii-w48.txt":
        return draw(gold, edus, header, width=48, ascii=True)
    if name == "cafe.edus-5-6.txt":
        top = smallest_covering(gold, 5, 6)
        return draw(gold, edus, f"{header}, constituent {span_text(top)}", top=top)
    pred, pred_edus = read("cafe_pred.dis")
    gold_marks, pred_marks = diff_marks(gold, pred)
    shared = {kind: list(gold_marks.values()).count(kind) for kind in ("gold-only", "nuclearity", "relation")}
    counted = {**shared, "pred-only": list(pred_marks.values()).count("pred-only")}  # a shared span once
    counts = ", ".join(f"{counted[kind]} {tag}" for kind, tag in TAGS.items())
    return "\n".join([draw(gold, edus, "gold: cafe", marks=gold_marks),
                      draw(pred, pred_edus, "prediction: cafe_pred", marks=pred_marks),
                      f"differences: {counts}\n"])


@pytest.mark.parametrize("name", ["cafe.txt", "cafe.ascii-w48.txt", "cafe.edus-5-6.txt", "cafe.compare.txt"])
def test_golden_drawing_is_its_derivation(name):
    assert (GOLDEN / name).read_text(encoding="utf-8") == derived(name)


def test_the_comparison_shows_one_difference_of_each_kind():
    """tests/golden/README.md: 2-4 only in gold; 2-3, 4-7 only predicted; 5-7 nuclearity; 2 relation."""
    gold_marks, pred_marks = diff_marks(read("cafe.dis")[0], read("cafe_pred.dis")[0])
    assert gold_marks == {(2, 4): "gold-only", (5, 7): "nuclearity", (2, 2): "relation"}
    assert pred_marks == {(2, 3): "pred-only", (4, 7): "pred-only", (5, 7): "nuclearity", (2, 2): "relation"}
