"""The HTML viewer in a real browser, on GUM's largest documents: fitted at load, folding,
search, and a comparison whose trees share their EDU columns.

Each test loads a page in headless Chromium at 1600x1200 with a probe script appended
(it runs after the page's own script, may call the viewer's ``window.rstView``, and writes
what it measured into the DOM, which ``--dump-dom`` returns), or takes a screenshot and
reads its pixels. The expected numbers come from the trees themselves (spans, relations,
EDU texts), walked here without rstkit's drawing code. Skipped without Chromium (see
test_draw_chromium.py) or without GUM.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from rstkit import draw
from rstkit.corpus import read_tree
from rstkit.metrics import EvalConfig, score_documents
from rstkit.tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree
from tests.draw import test_draw_chromium
from tests.draw.test_draw_chromium import read_png, run_chromium
from tests.support.expected_warnings import GUM_EXTENT_QUIRK, warns_exactly

WINDOW = (1600, 1200)
#: GUM_court_insanity (158 EDUs, the issue's example) and GUM's three largest documents
DOCUMENTS = ["GUM_court_insanity", "GENTLE_syllabus_techtonica", "GUM_conversation_family", "GUM_court_property"]
HIT = (0xFF, 0xC9, 0x4D)  # the search hit's fill, as the page's style sets it
FOLD = (0xEC, 0xEB, 0xE2)  # a folded subtree's triangle
#: where screenshots are kept to be looked at (set RSTKIT_KEEP_SCREENSHOTS to a folder)
KEEP = os.environ.get("RSTKIT_KEEP_SCREENSHOTS")

pytestmark = [pytest.mark.gum, pytest.mark.slow]  # the slow mark: each test starts a headless browser
chromium = test_draw_chromium.chromium  # the fixture: the command line, or a skip saying how to install it


def gum_tree(gum_dir: Path, doc_id: str, folder: str = "lisp_nary") -> RSTTree:
    with warns_exactly({GUM_EXTENT_QUIRK: 1 if doc_id == "GENTLE_syllabus_techtonica" else 0}):
        return read_tree(gum_dir / folder / f"{doc_id}.dis", lenient=True)


def probe(chromium: list[str], html: str, script: str, tmp_path: Path) -> dict:
    """Run ``script`` (JavaScript whose last value is ``result``) after the page's own script."""
    page = tmp_path / "probe.html"
    code = f'<pre id="probe"></pre><script>(function () {{ {script}\n' \
           'document.getElementById("probe").textContent = JSON.stringify(result); })();</script>'
    page.write_text(html.replace("</body>", code + "</body>"), encoding="utf-8")
    dom = run_chromium([*chromium, f"--window-size={WINDOW[0]},{WINDOW[1]}", "--virtual-time-budget=3000",
                        "--dump-dom", page.as_uri()]).stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.DOTALL)
    assert found and found.group(1), "the probe did not run (a script error on the page?)"
    return json.loads(found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))


def screenshot(chromium: list[str], html: str, tmp_path: Path, name: str, script: str = "") -> np.ndarray:
    """The page at 1600x1200 after its script (and ``script``) ran, as pixels."""
    page = tmp_path / f"{name}.html"
    page.write_text(html.replace("</body>", f"<script>{script}</script></body>") if script else html,
                    encoding="utf-8")
    shot = tmp_path / f"{name}.png"
    run_chromium([*chromium, f"--window-size={WINDOW[0]},{WINDOW[1]}", "--virtual-time-budget=3000",
                  f"--screenshot={shot}", page.as_uri()])
    if KEEP:
        Path(KEEP).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(KEEP) / shot.name)
    pixels = read_png(shot)
    assert pixels.shape == (WINDOW[1], WINDOW[0], 3)
    return pixels


def pixels_of(pixels: np.ndarray, rgb: tuple[int, int, int], tolerance: int = 6) -> int:
    return int((np.abs(pixels.astype(np.int64) - np.array(rgb)).max(axis=2) <= tolerance).sum())


_FITTED = """
var view = document.getElementById("view").getBoundingClientRect(), trees = [];
document.querySelectorAll("g.rst-tree").forEach(function (g) {
  var b = g.getBoundingClientRect();
  trees.push({left: b.left, right: b.right, top: b.top, bottom: b.bottom});
});
var labels = {};
document.querySelectorAll("g.rst-tree").forEach(function (tree, i) {
 tree.querySelectorAll("g.arc, g.multinuc").forEach(function (g) {
  var t = g.querySelector("text.label"), b = t.getBoundingClientRect();
  labels[i + " " + g.getAttribute("class").split(" ")[0] + " " + g.getAttribute("data-span")] = {
    text: t.textContent, shown: getComputedStyle(t).visibility === "visible", height: b.height,
    left: b.left, right: b.right, top: b.top, bottom: b.bottom};
 });
});
var shown = [];
document.querySelectorAll("g.rst-tree text").forEach(function (t) {
  if (getComputedStyle(t).visibility !== "visible" || !t.getClientRects().length) return;
  var b = t.getBoundingClientRect();
  shown.push({x0: b.left, y0: b.top, x1: b.right, y1: b.bottom, text: t.textContent});
});
shown.sort(function (a, b) { return a.x0 - b.x0; });
var overlaps = [];
for (var i = 0; i < shown.length; i++) {
  for (var j = i + 1; j < shown.length && shown[j].x0 < shown[i].x1 - 0.5; j++) {
    var a = shown[i], b = shown[j];
    if (a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5) overlaps.push([a.text, b.text]);
  }
}
var result = {view: {left: view.left, right: view.right, top: view.top, bottom: view.bottom},
              trees: trees, labels: labels, zoom: window.rstView.state().zoom, shown: shown.length,
              overlaps: overlaps};
"""


def top_labels(tree: RSTTree) -> dict[str, str]:
    """The relation labels of the root's own relations, keyed as the probe keys them: an arc
    by its satellite's span, a multinuclear bar by the span from its first to its last nucleus."""
    children = tree.root.children
    expected = {f"arc {c.start}-{c.end}": c.relation or "?" for c in children if c.nuclearity == SATELLITE}
    nuclei = [c for c in children if c.nuclearity == NUCLEUS]
    if len(nuclei) > 1:
        names = list(dict.fromkeys(n.relation or "?" for n in nuclei))
        expected[f"multinuc {nuclei[0].start}-{nuclei[-1].end}"] = "/".join(names)
    return expected


def inside(box: dict, frame: dict, slack: float = 0.5) -> bool:
    return (box["left"] >= frame["left"] - slack and box["right"] <= frame["right"] + slack
            and box["top"] >= frame["top"] - slack and box["bottom"] <= frame["bottom"] + slack)


@pytest.mark.parametrize("doc_id", DOCUMENTS)
def test_the_whole_tree_fits_the_window_at_load(chromium: list[str], gum_dir: Path, tmp_path: Path,
                                                doc_id: str) -> None:
    tree = gum_tree(gum_dir, doc_id)
    result = probe(chromium, draw.to_html(tree), _FITTED, tmp_path)
    window = {"left": 0, "top": 0, "right": WINDOW[0], "bottom": WINDOW[1]}
    assert inside(result["view"], window)
    (box,) = result["trees"]
    assert inside(box, result["view"]), (box, result["view"])
    assert box["right"] - box["left"] > 0.9 * (result["view"]["right"] - result["view"]["left"])  # not a speck
    assert result["zoom"] < 0.2  # the 100% drawing is 20,000-42,000 pixels wide
    # the texts on screen (labels with room for them, every few EDU numbers) never overlap
    assert result["shown"] > 50 and result["overlaps"] == []
    expected = top_labels(tree)
    assert expected
    for key, relation in expected.items():
        label = result["labels"][f"0 {key}"]
        assert label["text"] == relation and label["shown"], (key, label)
        assert label["height"] >= 11, f"the root's relation {relation!r} is {label['height']:.1f} px high"
        assert inside(label, result["view"])


def test_the_fitted_page_spreads_across_the_window(chromium: list[str], gum_dir: Path, tmp_path: Path) -> None:
    tree = gum_tree(gum_dir, "GUM_court_insanity")
    pixels = screenshot(chromium, draw.to_html(tree), tmp_path, "court_insanity")
    inked = (pixels.max(axis=2) < 160).mean()
    assert inked > 0.01, f"the screenshot is (nearly) blank: {inked:.2%} of it is drawn"
    # ink spreads across the window's width: every tenth of it holds part of the tree
    columns = (pixels.max(axis=2) < 160).any(axis=0)
    assert all(columns[i * 160:(i + 1) * 160].any() for i in range(10))


_FOLD = """
function visible() {
  return Array.prototype.filter.call(document.querySelectorAll("g.node"), function (g) {
    return g.getClientRects().length > 0; }).length;
}
var before = visible();
window.rstView.toggle("SPAN");
var folded = visible(), folds = document.querySelectorAll("polygon.fold");
var fold = folds.length, said = folds[0].querySelector("title").textContent;
var b = folds[0].getBoundingClientRect(), at = {bubbles: true, clientX: b.left + b.width / 2,
                                                   clientY: b.bottom - 5, pointerId: 1};
folds[0].dispatchEvent(new PointerEvent("pointerdown", at));  // a click on the triangle unfolds it
folds[0].dispatchEvent(new PointerEvent("pointerup", at));
var unfolded = visible();
window.rstView.toggle("SPAN");
window.rstView.expandAll();
var result = {before: before, folded: folded, fold: fold, said: said, unfolded: unfolded, expanded: visible()};
"""


def biggest_inner_node(tree: RSTTree) -> Node:
    """The root's child with the most EDUs (a subtree worth folding)."""
    return max((c for c in tree.root.children if not c.is_leaf), key=lambda c: c.end - c.start)


def test_folding_a_subtree_hides_its_nodes(chromium: list[str], gum_dir: Path, tmp_path: Path) -> None:
    tree = gum_tree(gum_dir, "GUM_court_insanity")
    node = biggest_inner_node(tree)
    span = f"{node.start}-{node.end}"
    result = probe(chromium, draw.to_html(tree), _FOLD.replace("SPAN", span), tmp_path)
    internal = [n for n in tree.nodes() if n.children]
    below = [n for n in internal if node.start <= n.start and n.end <= node.end and n.span != node.span]
    assert result["before"] == len(internal)
    assert result["folded"] == len(internal) - len(below) and result["fold"] == 1
    assert result["said"] == f"{span} folded: {len(below)} spans inside it hidden (click to unfold)"
    assert result["unfolded"] == result["expanded"] == len(internal)
    # the folded page, as seen: the triangle that stands for the subtree is on screen
    pixels = screenshot(chromium, draw.to_html(tree), tmp_path, "court_insanity_folded",
                        f'window.rstView.toggle("{span}");')
    assert pixels_of(pixels, FOLD) > 5000


_SEARCH = """
var n = window.rstView.find("WORD");
var hits = Array.prototype.map.call(document.querySelectorAll("g.edu.hit"), function (g) {
  return +g.getAttribute("data-span").split("-")[0]; });
var shown = document.getElementById("hits").textContent;
window.rstView.find("");
var result = {n: n, hits: hits, shown: shown, after: document.querySelectorAll("g.edu.hit").length};
"""


def test_search_marks_the_edus_containing_the_text(chromium: list[str], gum_dir: Path, tmp_path: Path) -> None:
    tree = gum_tree(gum_dir, "GUM_court_insanity")
    word = "Insanity"
    expected = [edu.index for edu in tree.edus if word.lower() in edu.text.lower()]
    assert len(expected) >= 3
    html = draw.to_html(tree)
    result = probe(chromium, html, _SEARCH.replace("WORD", word), tmp_path)
    assert result["n"] == len(expected) and sorted(result["hits"]) == expected
    assert result["shown"] == f"{len(expected)} EDUs" and result["after"] == 0
    plain = screenshot(chromium, html, tmp_path, "court_insanity_plain")
    marked = screenshot(chromium, html, tmp_path, "court_insanity_search",
                        f'var s = document.getElementById("search"); s.value = "{word}";'
                        's.dispatchEvent(new Event("input"));')
    assert pixels_of(plain, HIT) == 0
    assert pixels_of(marked, HIT) > 30 * len(expected)  # each marked EDU cell is filled


def relabelled(node: Node, counter: list[int]) -> Node:
    """``node`` with every fifth satellite's relation renamed and every seventh binary
    mononuclear node's nucleus and satellite swapped (a prediction with mistakes)."""
    children = tuple(relabelled(c, counter) for c in node.children)
    counter[0] += 1
    kinds = [c.nuclearity for c in children]
    if len(children) == 2 and sorted(kinds) == [NUCLEUS, SATELLITE] and counter[0] % 7 == 0:
        nucleus, satellite = (children if kinds[0] == NUCLEUS else children[::-1])
        children = tuple(Node(c.start, c.end, SATELLITE if c is nucleus else NUCLEUS,
                              satellite.relation if c is nucleus else SPAN, c.children) for c in children)
    relation = node.relation
    if node.nuclearity == SATELLITE and counter[0] % 5 == 0:
        relation = "elaboration-additional" if relation != "elaboration-additional" else "joint-list"
    return Node(node.start, node.end, node.nuclearity, relation, children)


def spans(tree: RSTTree) -> dict[tuple[int, int], tuple[str, str | None]]:
    return {n.span: (n.nuclearity, n.relation) for n in tree.nodes()}


_COMPARE = """
var trees = document.querySelectorAll("g.rst-tree"), columns = [];
trees.forEach(function (g) {
  var xs = {};
  g.querySelectorAll("g.edu").forEach(function (e) {
    var b = e.querySelector("rect").getBoundingClientRect();
    xs[e.getAttribute("data-span")] = [b.left, b.right];
  });
  columns.push(xs);
});
var boxes = Array.prototype.map.call(trees, function (g) {
  var b = g.getBoundingClientRect(); return {left: b.left, right: b.right, top: b.top, bottom: b.bottom}; });
var view = document.getElementById("view").getBoundingClientRect();
var marks = {};
trees.forEach(function (g, i) {
  g.querySelectorAll("g.node[class*=diff-], g.edu[class*=diff-]").forEach(function (n) {
    var kind = /diff-([a-z-]+)/.exec(n.getAttribute("class"))[1];
    (marks[i + " " + kind] = marks[i + " " + kind] || []).push(n.getAttribute("data-span"));
  });
});
var scores = Array.prototype.map.call(document.querySelectorAll("table.scores tr"), function (r) {
  return Array.prototype.map.call(r.children, function (c) { return c.textContent; }); });
var result = {columns: columns, boxes: boxes, marks: marks, scores: scores,
              view: {left: view.left, right: view.right, top: view.top, bottom: view.bottom}};
"""


def test_comparison_shares_edu_columns_and_marks_every_difference(chromium: list[str], gum_dir: Path,
                                                                   tmp_path: Path) -> None:
    gold = gum_tree(gum_dir, "GUM_court_insanity")
    binary = gum_tree(gum_dir, "GUM_court_insanity", "lisp_binary")
    pred = binary.with_root(relabelled(binary.root, [0]))
    html = draw.compare_html(gold, pred)
    result = probe(chromium, html, _COMPARE, tmp_path)
    fitted = probe(chromium, html, _FITTED, tmp_path)  # both trees' top levels readable, no text overlapping
    assert fitted["shown"] > 100 and fitted["overlaps"] == []
    for tree, labels in ((0, top_labels(gold)), (1, top_labels(pred))):
        for key, relation in labels.items():
            label = fitted["labels"][f"{tree} {key}"]
            assert label["text"] == relation and label["shown"] and label["height"] >= 11, (tree, key, label)
    gold_columns, pred_columns = result["columns"]
    assert len(gold_columns) == gold.n_edus and gold_columns.keys() == pred_columns.keys()
    for edu, (left, right) in gold_columns.items():
        assert abs(pred_columns[edu][0] - left) < 0.5 and abs(pred_columns[edu][1] - right) < 0.5, edu
    for box in result["boxes"]:  # both trees whole in the window, one above the other
        assert inside(box, result["view"]), (box, result["view"])
    assert result["boxes"][0]["bottom"] <= result["boxes"][1]["top"]

    g, p = spans(gold), spans(pred)
    missing = {s for s in g if s not in p}
    extra = {s for s in p if s not in g}
    nuclearity = {s for s in g if s in p and g[s][0] != p[s][0]}
    relation = {s for s in g if s in p and g[s][0] == p[s][0] and g[s][1] != p[s][1]}
    assert extra and nuclearity and relation  # the prediction has each kind of mistake but one

    def marked(tree: int, kind: str) -> set[tuple[int, ...]]:
        return {tuple(map(int, s.split("-"))) for s in result["marks"].get(f"{tree} {kind}", [])}

    assert marked(0, "gold-only") == missing and marked(1, "gold-only") == set()
    assert marked(1, "pred-only") == extra and marked(0, "pred-only") == set()
    assert marked(0, "nuclearity") == marked(1, "nuclearity") == nuclearity
    assert marked(0, "relation") == marked(1, "relation") == relation

    # the scores are rstkit eval's for the pair
    header, *rows = result["scores"]
    assert header == ["this document", "S", "N", "R", "F"]
    for row, metric in zip(rows, ("rst-parseval", "parseval")):
        scores = score_documents({"d": gold}, {"d": pred}, EvalConfig(metric=metric)).scores
        assert row == [row[0], *(f"{scores[m]:.2f}" for m in "SNRF")]
    pixels = screenshot(chromium, html, tmp_path, "court_insanity_compare")
    assert (pixels.max(axis=2) < 160).mean() > 0.01


_INTERACT = """
var view = document.getElementById("view"), box = view.getBoundingClientRect();
function cell(edu) { return document.querySelector('g.edu[data-span="' + edu + '"] rect').getBoundingClientRect(); }
function lines() {
  return Array.prototype.filter.call(document.querySelectorAll("text.line"), function (t) {
    return getComputedStyle(t).visibility === "visible"; }).length;
}
function press(act) { document.querySelector('button[data-act="' + act + '"]').click(); }
function pointer(type, x, y, target) {
  (target || view).dispatchEvent(new PointerEvent(type, {bubbles: true, clientX: x, clientY: y, pointerId: 1}));
}
var result = {fitted: window.rstView.state().zoom, linesFitted: lines()};
var edu = "100-100", x = (cell(edu).left + cell(edu).right) / 2;
view.dispatchEvent(new WheelEvent("wheel", {bubbles: true, cancelable: true, clientX: x, clientY: box.top + 300,
                                           deltaY: -400}));
result.wheel = {zoom: window.rstView.state().zoom, x: x, after: [cell(edu).left, cell(edu).right]};
var left = cell("1-1").left, top = cell("1-1").top;
pointer("pointerdown", 500, 500); pointer("pointermove", 620, 540); pointer("pointerup", 620, 540);
result.drag = {dx: cell("1-1").left - left, dy: cell("1-1").top - top};
press("in"); result.zoomIn = window.rstView.state().zoom;
press("out"); result.zoomOut = window.rstView.state().zoom;
press("one"); result.one = {zoom: window.rstView.state().zoom, lines: lines()};
press("fit"); result.fit = window.rstView.state().zoom;
var bar = document.querySelector('g.node[data-span="SPAN"] line'), b = bar.getBoundingClientRect();
pointer("pointerdown", b.left + b.width / 2, b.top, bar); pointer("pointerup", b.left + b.width / 2, b.top, bar);
result.clicked = document.querySelector('g.node[data-span="SPAN"]').getAttribute("class");
"""


def test_wheel_drag_buttons_and_clicks(chromium: list[str], gum_dir: Path, tmp_path: Path) -> None:
    tree = gum_tree(gum_dir, "GUM_court_insanity")
    node = biggest_inner_node(tree)
    result = probe(chromium, draw.to_html(tree), _INTERACT.replace("SPAN", f"{node.start}-{node.end}"), tmp_path)
    fitted = result["fitted"]
    assert result["linesFitted"] == 0  # fitted: EDU texts folded away
    # the wheel zooms by exp(400 * 0.0015) around the pointer: EDU 100, under it, stays there
    assert result["wheel"]["zoom"] == pytest.approx(fitted * np.exp(0.6))
    left, right = result["wheel"]["after"]
    assert left + 2 < result["wheel"]["x"] < right - 2
    assert result["drag"] == {"dx": pytest.approx(120), "dy": pytest.approx(40)}
    assert result["zoomIn"] == pytest.approx(fitted * np.exp(0.6) * 1.5)
    assert result["zoomOut"] == pytest.approx(fitted * np.exp(0.6))
    # 100%: every EDU line of text is shown (as many as the cells' wrapped lines)
    assert result["one"]["zoom"] == pytest.approx(1) and result["one"]["lines"] >= tree.n_edus
    assert result["fit"] == pytest.approx(fitted)
    assert "collapsed" in result["clicked"].split()


def test_one_edu_and_a_constituent_draw_without_script_errors(chromium: list[str], gum_dir: Path,
                                                              tmp_path: Path) -> None:
    tree = gum_tree(gum_dir, "GUM_court_insanity")
    solo = RSTTree(Node(1, 1, ROOT, None), (EDU(1, "Hello."),), "solo")
    pages = [draw.to_html(solo), draw.compare_html(solo, solo), draw.to_html(tree, edus=(20, 30)),
             draw.compare_html(tree, tree, edus=(5, 9))]
    for html in pages:  # the probe finds the viewer's API: the page's script ran to its end
        result = probe(chromium, html, "var result = window.rstView.state();", tmp_path)
        assert 0 < result["zoom"] <= 1


def test_svg_scales_to_any_width(chromium: list[str], gum_dir: Path, tmp_path: Path) -> None:
    """An SVG file of a 158-EDU tree, shown 1600 pixels wide (an <img>), is drawn whole: its
    viewBox is its drawing's extent, so a viewer scales it instead of cutting it."""
    tree = gum_tree(gum_dir, "GUM_court_insanity")
    svg = draw.to_svg(tree)
    head = re.search(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)" viewBox="([^"]+)"', svg)
    assert head is not None
    width, height = float(head.group(1)), float(head.group(2))
    assert [float(v) for v in head.group(3).split()] == [0, 0, width, height] and width > 10 * WINDOW[0]
    (tmp_path / "tree.svg").write_text(svg, encoding="utf-8")
    html = ('<!DOCTYPE html><html><body style="margin:0"><img src="tree.svg" style="width:1600px;display:block">'
            "</body></html>")
    pixels = screenshot(chromium, html, tmp_path, "court_insanity_svg")
    drawn = (pixels.max(axis=2) < 200).any(axis=0)
    shown_height = round(WINDOW[0] * height / width)
    # ink at both ends of the window (the first and the last EDU), and nothing below the image
    assert drawn[:40].any() and drawn[-40:].any()
    assert not (pixels[shown_height + 2:].max(axis=2) < 200).any()


_OPENED = _FITTED + """
var edus = {};
document.querySelectorAll("g.rst-tree").forEach(function (tree, i) {
  var cells = Array.prototype.map.call(tree.querySelectorAll("g.edu"), function (g) {
    var b = g.querySelector("rect").getBoundingClientRect();
    return {edu: g.getAttribute("data-span").split("-")[0], left: b.left, right: b.right, top: b.top,
            bottom: b.bottom, lines: []};
  });
  tree.querySelectorAll("text.fit").forEach(function (t) {
    var b = t.getBoundingClientRect(), at = b.left + b.width / 2;
    var cell = cells.find(function (c) { return c.left <= at && at <= c.right; });
    cell.lines.push({text: t.textContent, left: b.left, right: b.right, top: b.top, bottom: b.bottom});
  });
  cells.forEach(function (c) { edus[i + " " + c.edu] = c; });
});
result.edus = edus;
var box = result.trees.reduce(function (u, b) {
  return {left: Math.min(u.left, b.left), right: Math.max(u.right, b.right), top: Math.min(u.top, b.top),
          bottom: Math.max(u.bottom, b.bottom)}; });
result.share = {width: (box.right - box.left) / (view.right - view.left),
                height: (Math.min(box.bottom, view.bottom) - box.top) / (view.bottom - view.top)};
"""


def shown_text(lines: list[dict]) -> str:
    """The words of an EDU's fitted lines, hyphenated words joined again, an ellipsis dropped."""
    text = ""
    for line in sorted(lines, key=lambda line: line["top"]):
        text += line["text"][:-1] if line["text"].endswith("-") else line["text"] + " "
    return " ".join(text.replace("\u2026", "").split())


@pytest.mark.parametrize("compare", [False, True], ids=["tree", "comparison"])
def test_a_short_document_opens_with_its_texts_and_fills_the_window(chromium: list[str], gum_dir: Path,
                                                                   tmp_path: Path, compare: bool) -> None:
    """29 EDUs at 1600x1200: the columns are about 45 px wide at the fitted zoom, room for the
    EDU texts wrapped anew; the tree (or both trees) then takes the window's height."""
    tree = gum_tree(gum_dir, "GENTLE_poetry_death")
    html = draw.compare_html(tree, gum_tree(gum_dir, "GENTLE_poetry_death", "lisp_binary")) if compare \
        else draw.to_html(tree)
    result = probe(chromium, html, _OPENED, tmp_path)
    assert result["zoom"] < 0.5 and result["overlaps"] == []
    assert result["share"]["width"] > 0.95 and result["share"]["height"] > 0.8, result["share"]
    for box in result["trees"]:
        assert inside(box, result["view"]), (box, result["view"])
    for side in range(2 if compare else 1):
        for edu in tree.edus:
            cell = result["edus"][f"{side} {edu.index}"]
            assert cell["lines"], f"EDU {edu.index} shows no text"
            for line in cell["lines"]:  # inside its cell
                assert inside(line, cell, slack=1), (edu.index, line, cell)
            words = " ".join(edu.text.split())
            shown = shown_text(cell["lines"])
            # the whole text on the single tree; on the comparison at least its beginning
            assert (shown == words) if not compare else (words.startswith(shown) and len(shown) >= 8), \
                (edu.index, shown, words)


_HOVER_EDU = _OPENED + """
var rect = document.querySelector('g.edu[data-span="EDU-EDU"] rect');
rect.dispatchEvent(new MouseEvent("mouseover", {bubbles: true}));
result.info = document.getElementById("info").textContent;
"""


def test_a_long_document_fills_the_window_and_shows_texts_on_hover(chromium: list[str], gum_dir: Path,
                                                                   tmp_path: Path) -> None:
    """177 EDUs: 9 px columns at the fitted zoom, too narrow for texts, which the hover shows;
    the tree takes the window's width and height, its top relations readable."""
    tree = gum_tree(gum_dir, "GUM_conversation_lambada")
    assert tree.n_edus == 177
    result = probe(chromium, draw.to_html(tree), _HOVER_EDU.replace("EDU", "88"), tmp_path)
    assert result["share"]["width"] > 0.95 and result["share"]["height"] > 0.9, result["share"]
    assert not any(cell["lines"] for cell in result["edus"].values()) and result["overlaps"] == []
    assert result["info"] == f"88: {tree.edus[87].text}"
    for key, relation in top_labels(tree).items():
        label = result["labels"][f"0 {key}"]
        assert label["text"] == relation and label["shown"] and label["height"] >= 11, (key, label)


@pytest.mark.parametrize("doc_id", ["GUM_conversation_lambada", "GUM_court_insanity"])
def test_comparison_top_labels_are_readable_at_load(chromium: list[str], gum_dir: Path, tmp_path: Path,
                                                    doc_id: str) -> None:
    """Two deep trees share the window's height (their rows squeezed to a third); their labels
    keep 11 px boxes, and one that would cover a label above it stays hidden."""
    gold, pred = gum_tree(gum_dir, doc_id), gum_tree(gum_dir, doc_id, "lisp_binary")
    result = probe(chromium, draw.compare_html(gold, pred), _OPENED, tmp_path)
    assert result["overlaps"] == [] and result["share"]["height"] > 0.9
    for side, tree in enumerate((gold, pred)):
        for key, relation in top_labels(tree).items():
            label = result["labels"][f"{side} {key}"]
            assert label["text"] == relation and label["shown"] and label["height"] >= 11, (side, key, label)
            assert inside(label, result["view"])
    heights = [label["height"] for label in result["labels"].values() if label["shown"]]
    assert min(heights) >= 11  # every relation label shown is 11 px or more


_RESIZE = """
function fits() {
  var view = document.getElementById("view").getBoundingClientRect(), ok = true;
  document.querySelectorAll("g.rst-tree").forEach(function (g) {
    var b = g.getBoundingClientRect();
    ok = ok && b.left >= view.left - 0.5 && b.right <= view.right + 0.5 && b.bottom <= view.bottom + 0.5;
  });
  return ok;
}
var result = {opened: window.rstView.state()};
document.body.style.height = "700px";  // the window becomes lower and narrower
document.body.style.width = "1000px";
window.dispatchEvent(new Event("resize"));
result.refitted = window.rstView.state(); result.fitsSmall = fits();
window.rstView.zoomTo(0.5);  // the reader zooms: a resize keeps the zoom
document.body.style.height = ""; document.body.style.width = "";
window.dispatchEvent(new Event("resize"));
result.kept = window.rstView.state();
"""


def test_the_page_refits_on_resize_until_the_reader_zooms(chromium: list[str], gum_dir: Path,
                                                          tmp_path: Path) -> None:
    tree = gum_tree(gum_dir, "GENTLE_poetry_death")
    result = probe(chromium, draw.to_html(tree), _RESIZE, tmp_path)
    opened, refitted, kept = result["opened"], result["refitted"], result["kept"]
    assert opened["fitted"] and refitted["fitted"] and result["fitsSmall"]
    # narrower: the zoom shrinks with the width (1000 - 20 against 1600 - 20 px of room)
    assert refitted["zoom"] == pytest.approx(opened["zoom"] * 980 / 1580, rel=1e-3)
    assert refitted["rows"] < opened["rows"]  # lower: the rows shrink too
    assert not kept["fitted"] and kept["zoom"] == pytest.approx(0.5)
