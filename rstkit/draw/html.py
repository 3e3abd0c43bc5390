"""Self-contained HTML pages of drawings: inline SVG, inline style, inline script, nothing
fetched from the network.

The page is a viewer for documents of any length. It opens fitted to the window's width
and height: the EDU columns narrowed until the whole document fits its width; the EDU
texts wrapped anew into the narrowed columns when these are at least 36 px wide and there
is room for three lines (else folded away, their numbers staying, every few when the
columns are too narrow; the hover shows them); the tree's rows squeezed or stretched
(from 0.3 to 2 times their height) to take the window's height; every relation or span
label drawn where its arc or bar has room for it and no label above it would be covered,
never with a box under 11.5 px, so the top levels of the tree are readable at once. It
refits when the window is resized, until the reader zooms or pans. The wheel zooms
around the pointer (at 100% and beyond the texts are the drawing's own, wrapped at its
full column width), dragging pans, the buttons zoom, fit and reset; a click on a span's bar or
label folds its subtree away (a triangle stands for it) and a second click unfolds it; the
search box marks the EDUs whose text contains what is typed (Enter moves to the next).
Hovering over an EDU, a span or a relation shows its text below the diagram and lights up
the EDUs it covers (in both trees of a comparison); without scripts, every element still
has its ``<title>`` tooltip.

A comparison page draws gold above the prediction in one zoomable picture, the EDUs of
both in the same columns, colours what is missing, extra or mislabelled, and shows the
document's scores (:mod:`.scores`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .._version import __version__
from .diff import KINDS, TreeDiff
from .fonts import FONT_FAMILY
from .layout import Layout
from .svg import BAR, DIFF_COLORS, INK, LABEL, LINE, body, interactive_parts, svg_document, xml_text

if TYPE_CHECKING:
    from .scores import DocumentScores

_STYLE = """
html, body { height: 100%; }
body { font-family: "DejaVu Sans", Verdana, Geneva, sans-serif; color: #222; margin: 0; display: flex;
       flex-direction: column; overflow: hidden; }
header { flex: none; padding: 8px 16px 6px; border-bottom: 1px solid #ddd; }
h1 { font-size: 17px; margin: 0 12px 0 0; display: inline; }
.meta { color: #666; font-size: 12px; }
.tools { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 6px 0 0; font-size: 12px; }
.tools button { font: inherit; padding: 2px 9px; min-width: 30px; border: 1px solid #bbb; border-radius: 3px;
                background: #f7f7f7; cursor: pointer; }
.tools input { font: inherit; padding: 2px 6px; width: 220px; }
.tools .hint { color: #888; margin-left: 8px; }
#zoom { min-width: 44px; text-align: right; color: #555; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 12px; margin: 6px 0 0; align-items: center; }
.legend span { display: inline-flex; align-items: center; gap: 5px; }
details.legend { display: block; }
details.legend summary { cursor: pointer; color: #555; }
details.legend div { display: flex; flex-wrap: wrap; gap: 4px 18px; margin-top: 4px; }
.swatch { display: inline-block; width: 22px; height: 10px; }
.summary { display: flex; gap: 8px 28px; align-items: flex-start; }
.summary .legend { flex: 1; }
table.scores { border-collapse: collapse; font-size: 12px; margin: 6px 0 0; flex: none; }
table.scores td, table.scores th { padding: 1px 8px; border-bottom: 1px solid #eee; text-align: right; }
table.scores th:first-child, table.scores td:first-child { text-align: left; }
.problem { color: #b00020; font-size: 12px; margin: 6px 0 0; }
#view { flex: 1; position: relative; overflow: auto; background: #fff; }
#view.live { overflow: hidden; cursor: grab; touch-action: none; }
#view.dragging { cursor: grabbing; }
#view.live > svg { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
.rst-view line, .rst-view path, .rst-view rect, .rst-view polygon { vector-effect: non-scaling-stroke; }
.rst-view .off { visibility: hidden; }
.rst-view .gone { display: none; }
.rst-view g.node { cursor: pointer; }
.rst-view g.node.collapsed line { stroke-dasharray: 5 3; stroke-width: 2.5; }
.rst-view polygon.fold { fill: #ecebe2; stroke: #9a9a90; cursor: pointer; }
.rst-view g.edu.lit rect { fill: #fff0a0; }
.rst-view g.edu.hit rect { fill: #ffc94d; stroke: #a06a00; }
.rst-view g.node:hover line, .rst-view g.nucleus:hover line, .rst-view g.multinuc:hover line { stroke-width: 3.5; }
.rst-view g.arc:hover path { stroke-width: 3; }
.rst-view tspan.sig { fill: #a06a00; font-weight: bold; text-decoration: underline; }
.rst-view g.secedge:hover path { stroke-width: 3; }
.rst-view g.fitted { pointer-events: none; }
#info { flex: none; padding: 6px 16px; background: #fffbe6; border-top: 1px solid #e0d9b0; font-size: 13px;
        height: 3.2em; overflow-y: auto; white-space: pre-line; }
"""

#: the viewer: zoom (the columns narrow or widen, texts keep their size), pan, fold, search, hover
_SCRIPT = """
(function () {
  var view = document.getElementById("view"), world = document.getElementById("world");
  view.classList.add("live");  // without this script the page shows the drawings at 100%, scrolling
  var info = document.getElementById("info"), zoomText = document.getElementById("zoom");
  var search = document.getElementById("search"), hitsText = document.getElementById("hits");
  var COMPACT = 24, GAP = 18, PAD = 10, LABEL_GAP = 6, all = Array.prototype.slice;
  // fitted EDU texts: lines of 11 px type in columns at least TEXT_MIN px wide, at most MAX_LINES per EDU
  var TEXT_MIN = 36, TEXT_PAD = 4, LINE_H = 14, MIN_LINES = 3, MAX_LINES = 14;
  // rows may shrink to KY_TEXT to make room for the texts and stretch to KY_MAX to fill the window;
  // a label's box is never drawn less than MIN_BOX px high (unless its full size is smaller)
  var KY_TEXT = 0.6, KY_MAX = 2, MIN_BOX = 11.5, ASCENT = 0.93, DESCENT = 0.24;
  var SVG = "http://www.w3.org/2000/svg", FONT = "11px " + document.querySelector("svg.rst-view")
    .getAttribute("font-family").split(",").map(function (f) {
      f = f.trim(); return /\\s/.test(f) ? '"' + f + '"' : f; }).join(", ");
  var z = 1, tx = PAD, ty = PAD, ky = 1, fitted = true, hits = [], hitAt = -1;
  var measure = document.createElement("canvas").getContext("2d"), widths = {};
  measure.font = FONT;
  function textWidth(text) {
    if (!(text in widths)) widths[text] = measure.measureText(text).width;
    return widths[text];
  }
  var trees = all.call(document.querySelectorAll("g.rst-tree")).map(function (g) {
    var t = {g: g, rows: g.querySelector("g.rows"), cells: g.querySelector("g.cells"),
             width: +g.getAttribute("data-width"), rowsH: +g.getAttribute("data-rows"),
             cellsH: +g.getAttribute("data-cells"), labels: [], numbers: [], texts: [], titles: []};
    function texts(selector, list) {
      g.querySelectorAll(selector).forEach(function (el) {
        list.push({el: el, x: +el.getAttribute("x"), y: +el.getAttribute("y"), w: el.getComputedTextLength(),
                   room: +(el.getAttribute("data-room") || 0)});
      });
    }
    texts("text.title", t.titles); texts("text.label", t.labels);
    texts("text.number", t.numbers); texts("text.line", t.texts);
    t.labels.sort(function (a, b) { return a.y - b.y; });  // top down: the upper label wins a collision
    t.labels.forEach(function (item) {  // the least scale at which its box is MIN_BOX px high
      item.size = +item.el.getAttribute("font-size");
      item.least = MIN_BOX / ((ASCENT + DESCENT) * item.size);
    });
    var numbers = document.createElementNS("http://www.w3.org/2000/svg", "g");
    numbers.setAttribute("class", "numbers");  // above every cell: a narrow column's number overlaps the next
    t.numbers.forEach(function (item) { numbers.appendChild(item.el); });
    t.cells.appendChild(numbers);
    t.numberW = Math.max.apply(null, t.numbers.map(function (n) { return n.w; }).concat([1])) + 6;
    var cell = g.querySelector("g.edu rect");
    t.column = cell ? +cell.getAttribute("width") : 100;
    t.cellH = cell ? +cell.getAttribute("height") : t.cellsH;  // the cells' own height, less the margin below
    t.edus = all.call(g.querySelectorAll("g.cells g.edu")).map(function (e) {
      var r = e.querySelector("rect"), text = e.querySelector("title").textContent.replace(/^[0-9]+: /, "");
      return {x: +r.getAttribute("x"), words: text.split(/\\s+/).filter(Boolean)};
    });
    t.fitted = document.createElementNS(SVG, "g");
    t.fitted.setAttribute("class", "fitted");
    g.appendChild(t.fitted);
    t.wrapped = null; t.wrappedAt = -1; t.drawn = "";
    return t;
  });
  var width = Math.max.apply(null, trees.map(function (t) { return t.width; }));

  function counter(item, gx, gy, s, yAt) {
    var sx = s / gx, sy = s / gy, y = yAt === undefined ? item.y : yAt;
    item.el.setAttribute("transform", "matrix(" + sx + ",0,0," + sy + "," + item.x * (1 - sx) + "," +
                         (y - item.y * sy) + ")");
  }
  function show(item, on) { item.el.classList.toggle("off", !on); }

  function wrap(words, room) {  // greedy word wrap into lines of at most room px (a longer word is cut)
    var lines = [], line = "";
    words.forEach(function (word) {
      while (textWidth(word) > room && word.length > 1) {  // a word wider than the column: hyphenated
        var k = word.length - 1;
        while (k > 1 && textWidth(word.slice(0, k) + "-") > room) k--;
        if (line) { lines.push(line); line = ""; }
        lines.push(word.slice(0, k) + "-");
        word = word.slice(k);
      }
      var next = line ? line + " " + word : word;
      if (line && textWidth(next) > room) { lines.push(line); line = word; } else line = next;
    });
    if (line) lines.push(line);
    return lines;
  }
  function shorten(line, room) {  // the line with an ellipsis, cut to fit room
    var k = line.length;
    while (k > 0 && textWidth(line.slice(0, k) + "\u2026") > room) k--;
    return line.slice(0, k) + "\u2026";
  }
  function wrapped(t, room) {  // each EDU's lines at this column width (kept until the width changes)
    if (t.wrappedAt !== room) {
      t.wrapped = t.edus.map(function (e) { return wrap(e.words, room); });
      t.wrappedAt = room;
    }
    return t.wrapped;
  }
  function cellHeight(lines) { return COMPACT + lines * LINE_H + TEXT_PAD; }

  // The vertical plan at zoom z below 100%: the rows' scale (ky) and, per tree, the EDU text
  // lines shown (0: numbers only). Texts show when the columns are wide enough and there is
  // room for at least MIN_LINES lines with the rows at KY_TEXT or more; the rows then take
  // what is left of the window's height.
  function plan() {
    var n = trees.length, avail = view.clientHeight - 2 * PAD - n * GAP;
    var rows = trees.reduce(function (sum, t) { return sum + t.rowsH; }, 0);
    var compact = Math.max(0.3, Math.min(KY_MAX, (avail - n * COMPACT) / rows));
    var need = 0, texts = false;
    trees.forEach(function (t) {
      var room = Math.floor(t.column * z - 2 * TEXT_PAD);
      t.fitLines = 0;
      t.need = room < TEXT_MIN ? 0 : Math.min(MAX_LINES, Math.max.apply(null, wrapped(t, room).map(function (l) {
        return l.length; }).concat([0])));
      texts = texts || t.need > 0;
      need += cellHeight(t.need);
    });
    if (!texts) return compact;
    var full = (avail - need) / rows;
    if (full >= KY_TEXT) {
      trees.forEach(function (t) { t.fitLines = t.need; });
      return Math.min(KY_MAX, full);
    }
    var squeezed = Math.min(compact, KY_TEXT);
    var lines = Math.floor(((avail - rows * squeezed) / n - COMPACT - TEXT_PAD) / LINE_H);
    if (lines < MIN_LINES) return compact;
    trees.forEach(function (t) { t.fitLines = Math.min(t.need, lines); });
    return squeezed;
  }
  function drawTexts(t, top) {  // the fitted EDU lines of tree t, below its rows (top: their y)
    var room = Math.floor(t.column * z - 2 * TEXT_PAD), key = t.fitLines ? room + "/" + t.fitLines + "/" + z : "";
    t.fitted.setAttribute("transform", "translate(0," + top + ")");
    if (key === t.drawn) return;
    t.drawn = key;
    while (t.fitted.firstChild) t.fitted.removeChild(t.fitted.firstChild);
    if (!t.fitLines) return;
    var lines = wrapped(t, room);
    t.edus.forEach(function (e, i) {
      var shown = lines[i].slice(0, t.fitLines);
      if (lines[i].length > t.fitLines) shown[t.fitLines - 1] = shorten(shown[t.fitLines - 1], room);
      shown.forEach(function (line, k) {
        var el = document.createElementNS(SVG, "text");
        el.setAttribute("class", "fit");
        el.setAttribute("x", e.x * z + TEXT_PAD);
        el.setAttribute("y", COMPACT + k * LINE_H + Math.round(ASCENT * 11));
        el.setAttribute("font-size", "11");
        el.textContent = line;
        t.fitted.appendChild(el);
      });
    });
  }
  function boxOf(item, s, kx, kyy) {  // a label's box on screen (anchored at its middle, y its baseline)
    var cx = item.x * kx, y = item.y * kyy;
    return {x0: cx - item.w * s / 2, x1: cx + item.w * s / 2, y0: y - ASCENT * item.size * s,
            y1: y + DESCENT * item.size * s};
  }
  function update() {
    var detail = z >= 0.999, y = 0;
    ky = detail ? 1 : plan();
    trees.forEach(function (t) {
      var kc = detail ? 1 : (t.fitLines ? cellHeight(t.fitLines) : COMPACT) / t.cellH, pitch = t.column * z;
      var step = detail ? 1 : [1, 2, 5, 10, 20, 50, 100, 200, 500].find(function (k) {
        return k * pitch >= t.numberW; }) || 1000;
      var placed = [];
      t.g.setAttribute("transform", "translate(0," + y + ")");
      t.rows.setAttribute("transform", "scale(" + z + "," + ky + ")");
      t.cells.setAttribute("transform", "translate(0," + t.rowsH * ky + ") scale(" + z + "," + kc + ") translate(0," +
                           (-t.rowsH) + ")");
      t.titles.forEach(function (item) { counter(item, z, ky, ky); });
      // labels with room for them, from the top down; one that would cover a label above it stays hidden
      t.labels.forEach(function (item) {
        var s = Math.min(1, Math.max(ky, item.least)), fits = item.w * s + LABEL_GAP <= item.room * z;
        var box = fits && boxOf(item, s, z, ky);
        if (fits && s > ky) {
          fits = !placed.some(function (b) {
            return b.x0 < box.x1 - 0.5 && box.x0 < b.x1 - 0.5 && b.y0 < box.y1 - 0.5 && box.y0 < b.y1 - 0.5; });
        }
        show(item, fits);
        if (fits) { counter(item, z, ky, s); placed.push(box); }
      });
      t.numbers.forEach(function (item, i) {
        var on = (i + 1) % step === 0 || step === 1;
        show(item, on);
        if (on) counter(item, z, kc, 1, detail ? item.y : t.rowsH + (COMPACT - 7) / kc);
      });
      t.texts.forEach(function (item) {
        show(item, detail);
        if (detail) counter(item, z, 1, 1);
      });
      if (detail) t.fitLines = 0;
      drawTexts(t, t.rowsH * ky);
      y += t.rowsH * ky + t.cellH * kc + GAP;
    });
    world.setAttribute("transform", "translate(" + tx + "," + ty + ")");
    zoomText.textContent = Math.round(z * 100) + "%";
    view.setAttribute("data-zoom", z);
  }
  function fit() {
    z = Math.min(1, (view.clientWidth - 2 * PAD) / width);
    tx = Math.max(PAD, (view.clientWidth - width * z) / 2);
    ty = PAD;
    fitted = true;
    update();
  }
  function zoomAt(cx, factor) {
    var next = Math.max(0.005, Math.min(4, z * factor));
    tx = cx - (cx - tx) * next / z;
    z = next;
    fitted = false;
    update();
  }
  function zoomTo(next) { zoomAt(view.clientWidth / 2, next / z); }

  view.addEventListener("wheel", function (event) {
    event.preventDefault();
    if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
      tx -= event.shiftKey ? event.deltaY : event.deltaX;
      fitted = false;
      update();
      return;
    }
    var box = view.getBoundingClientRect();
    zoomAt(event.clientX - box.left, Math.exp(-event.deltaY * 0.0015));
  }, {passive: false});

  var drag = null;
  view.addEventListener("pointerdown", function (event) {
    drag = {x: event.clientX, y: event.clientY, tx: tx, ty: ty, target: event.target, moved: false};
    try { view.setPointerCapture(event.pointerId); } catch (error) { /* not a live pointer */ }
  });
  view.addEventListener("pointermove", function (event) {
    if (!drag) return;
    var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    drag.moved = true;
    view.classList.add("dragging");
    tx = drag.tx + dx; ty = drag.ty + dy;
    fitted = false;
    update();
  });
  view.addEventListener("pointerup", function () {
    var done = drag;
    drag = null;
    view.classList.remove("dragging");
    if (!done || done.moved) return;
    var node = done.target.closest && done.target.closest("g.node, polygon.fold");
    if (node) toggle(node.getAttribute("data-span"));
  });

  function inside(span, fold) {
    return span[0] >= fold[0] && span[1] <= fold[1];
  }
  function refold() {
    trees.forEach(function (t) {
      var folds = all.call(t.rows.querySelectorAll("g.node.collapsed")).map(function (g) {
        return g.getAttribute("data-span").split("-").map(Number);
      });
      t.rows.querySelectorAll("polygon.fold").forEach(function (p) { p.remove(); });
      t.rows.querySelectorAll("g[data-span]").forEach(function (g) {
        var span = g.getAttribute("data-span").split("-").map(Number);
        var gone = folds.some(function (f) {
          return inside(span, f) && (span[0] !== f[0] || span[1] !== f[1] || g.classList.contains("multinuc"));
        });
        g.classList.toggle("gone", gone);
      });
      t.rows.querySelectorAll("g.node.collapsed:not(.gone)").forEach(function (g) {
        var bar = g.querySelector("line"), x1 = +bar.getAttribute("x1"), x2 = +bar.getAttribute("x2");
        var y = +bar.getAttribute("y1"), bottom = t.rowsH - 6;
        var fold = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
        var span = g.getAttribute("data-span"), range = span.split("-").map(Number);
        var hidden = all.call(t.rows.querySelectorAll("g.node.gone")).filter(function (n) {
          return inside(n.getAttribute("data-span").split("-").map(Number), range); });
        var title = document.createElementNS("http://www.w3.org/2000/svg", "title");
        title.textContent = span + " folded: " + hidden.length + " spans inside it hidden (click to unfold)";
        fold.appendChild(title);
        fold.setAttribute("class", "fold");
        fold.setAttribute("data-span", span);
        fold.setAttribute("points", (x1 + x2) / 2 + "," + (y + 2) + " " + x1 + "," + bottom + " " + x2 + "," + bottom);
        t.rows.insertBefore(fold, t.rows.firstChild);
      });
    });
  }
  function toggle(span) {
    var nodes = document.querySelectorAll('g.node[data-span="' + span + '"]');
    var fold = nodes.length && !nodes[0].classList.contains("collapsed");
    nodes.forEach(function (g) { g.classList.toggle("collapsed", fold); });
    refold();
  }
  function expandAll() {
    document.querySelectorAll("g.node.collapsed").forEach(function (g) { g.classList.remove("collapsed"); });
    refold();
  }

  function find(query) {
    var q = query.trim().toLowerCase();
    hits = [];
    hitAt = -1;
    document.querySelectorAll("g.edu").forEach(function (g) {
      var text = g.querySelector("title").textContent.toLowerCase().replace(/^[0-9]+: /, "");
      var hit = q.length > 0 && text.indexOf(q) >= 0;
      g.classList.toggle("hit", hit);
      if (hit) hits.push(g);
    });
    var edus = {};
    hits.forEach(function (g) { edus[g.getAttribute("data-span")] = 1; });
    var n = Object.keys(edus).length;
    hitsText.textContent = q ? n + (n === 1 ? " EDU" : " EDUs") : "";
    return n;
  }
  function next() {
    if (!hits.length) return;
    hitAt = (hitAt + 1) % hits.length;
    var rect = hits[hitAt].querySelector("rect");
    var x = +rect.getAttribute("x") + +rect.getAttribute("width") / 2;
    tx = view.clientWidth / 2 - x * z;
    fitted = false;
    update();
    info.textContent = hits[hitAt].querySelector("title").textContent;
  }
  search.addEventListener("input", function () { find(search.value); });
  search.addEventListener("keydown", function (event) { if (event.key === "Enter") next(); });

  var actions = {"in": function () { zoomTo(z * 1.5); }, "out": function () { zoomTo(z / 1.5); },
                 "fit": fit, "one": function () { zoomTo(1); }, "expand": expandAll};
  document.querySelectorAll("button[data-act]").forEach(function (b) {
    b.addEventListener("click", function () { actions[b.getAttribute("data-act")](); });
  });
  window.addEventListener("resize", function () { if (fitted) fit(); else update(); });

  var cells = {}, lit = [];
  document.querySelectorAll("g.edu").forEach(function (g) {
    var i = g.getAttribute("data-span").split("-")[0];
    (cells[i] = cells[i] || []).push(g);
  });
  document.addEventListener("mouseover", function (event) {
    var g = event.target.closest && event.target.closest("g[data-span], polygon.fold");
    if (!g) return;
    lit.forEach(function (c) { c.classList.remove("lit", "sig"); });
    lit = [];
    var span = g.getAttribute("data-span").split("-").map(Number);
    for (var i = span[0]; i <= span[1]; i++) {
      (cells[i] || []).forEach(function (c) { c.classList.add("lit"); lit.push(c); });
    }
    info.textContent = g.querySelector("title").textContent;
    (g.getAttribute("data-tokens") || "").split(" ").forEach(function (t) {
      if (t) document.querySelectorAll('tspan[data-t="' + t + '"]').forEach(function (w) {
        w.classList.add("sig"); lit.push(w);
      });
    });
  });

  window.rstView = {fit: fit, zoomTo: zoomTo, toggle: toggle, expandAll: expandAll, find: find, next: next,
                    state: function () { return {zoom: z, tx: tx, ty: ty, rows: ky, fitted: fitted}; }};
  fit();
})();
"""


def _icon(*shapes: str) -> str:
    return '<svg width="40" height="18" viewBox="0 0 40 18">' + "".join(shapes) + "</svg>"


def _symbol_legend() -> list[str]:
    line = f'stroke="{LINE}" stroke-width="1.5"'
    thin = f'stroke="{BAR}" stroke-width="1"'
    bar = _icon(f'<line x1="2" y1="5" x2="38" y2="5" {thin}/>')
    nucleus = _icon(f'<line x1="2" y1="3" x2="38" y2="3" {thin}/>', f'<line x1="20" y1="3" x2="20" y2="17" {line}/>')
    arc = _icon(f'<path d="M4,17 V9 Q4,5 9,5 H29" fill="none" stroke="{INK}" stroke-width="1.2"/>',
                f'<polygon points="36,5 29,1.5 29,8.5" fill="{INK}"/>')
    multinuc = _icon(f'<line x1="6" y1="2" x2="6" y2="17" {line}/>', f'<line x1="34" y1="2" x2="34" y2="17" {line}/>',
                     f'<line x1="6" y1="9" x2="34" y2="9" {line}/>')
    return [
        f"<span>{bar} span: a constituent, its EDUs written above the bar</span>",
        f"<span>{nucleus} nucleus</span>",
        f'<span>{arc} satellite &#8594; nucleus, labelled with the <i style="color:{LABEL}">relation</i></span>',
        f"<span>{multinuc} multinuclear relation: a bar joins its nuclei</span>",
    ]


#: what the comparison legend calls each difference kind
DIFF_NAMES = {"gold-only": "missing", "pred-only": "extra", "nuclearity": "mislabelled", "relation": "mislabelled"}


def _diff_legend(diff: TreeDiff) -> list[str]:
    counts = diff.counts()
    matched = diff.n_gold - len(diff.gold)
    same = (f'<span><i class="swatch" style="background:{BAR}"></i>matched: same span, nuclearity and '
            f"relation: <b>{matched}</b></span>")
    return [same] + [f'<span><i class="swatch" style="background:{DIFF_COLORS[kind]}"></i>{DIFF_NAMES[kind]}, '
                     f'{xml_text(words)}: <b>{counts[kind]}</b></span>' for kind, words in KINDS.items()]


def _score_table(scores: DocumentScores) -> str:
    """The document's F1 per metric and measure (precision and recall on hover), or why none."""
    if scores.problem:
        return f'<p class="problem">not scored: {xml_text(scores.problem)}</p>'
    measures = list(scores.metrics[0].f1) if scores.metrics else []
    head = "".join(f"<th>{m}</th>" for m in measures)
    rows = []
    for metric in scores.metrics:
        cells = "".join(f'<td title="P {metric.precision[m]:.2f}, R {metric.recall[m]:.2f}">{metric.f1[m]:.2f}</td>'
                        for m in measures)
        rows.append(f'<tr title="{xml_text(metric.signature, quote=True)}"><td>{metric.name} F1</td>{cells}</tr>')
    notes = "".join(f'<p class="meta">{xml_text(note)}</p>' for note in scores.warnings)
    return f'<table class="scores"><tr><th>this document</th>{head}</tr>{"".join(rows)}</table>{notes}'


#: pixels between the drawings of a comparison, at 100% (the page's script places them itself)
_GAP = 16


def _figure(drawing: Layout, marks=None, y: float = 0.0) -> str:
    """One drawing for the viewer, ``y`` pixels down: the tree and the EDU cells in groups it
    scales apart."""
    tree, cells = interactive_parts(drawing, marks)
    edu_top = min(cell.box.y0 for cell in drawing.cells)
    return "\n".join([
        (f'<g class="rst-tree" transform="translate(0,{y:.1f})" data-width="{drawing.width:.1f}" '
         f'data-rows="{edu_top:.1f}" data-cells="{drawing.height - edu_top:.1f}">'),
        '<g class="rows">', *tree, "</g>", '<g class="cells">', *cells, "</g>", "</g>"])


_TOOLS = """<div class="tools">
<button data-act="out" title="zoom out">&#8722;</button><button data-act="in" title="zoom in">+</button>
<button data-act="fit" title="the whole tree in the window">Fit</button>
<button data-act="one" title="EDU texts at their size">100%</button><span id="zoom"></span>
<button data-act="expand" title="unfold every folded subtree">Expand all</button>
<input id="search" type="search" placeholder="Search EDU text (Enter: next)" aria-label="search EDU text">
<span id="hits"></span>
<span class="hint">wheel: zoom &#183; drag: pan &#183; click a span: fold/unfold</span>
</div>"""


def _page(title: str, meta: str, legends: list[str], drawings: list[tuple[Layout, dict | None]]) -> str:
    figures, y = [], 0.0
    for drawing, marks in drawings:
        figures.append(_figure(drawing, marks, y))
        y += drawing.height + _GAP
    width = max(drawing.width for drawing, _ in drawings)
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{xml_text(title)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f'<header><h1>{xml_text(title)}</h1><span class="meta">{meta}</span>',
        _TOOLS, *legends, "</header>",
        (f'<div id="view"><svg xmlns="http://www.w3.org/2000/svg" class="rst-view" width="{width:.1f}" '
         f'height="{y:.1f}" font-family="{xml_text(FONT_FAMILY, quote=True)}"><g id="world">'),
        *figures, "</g></svg></div>",
        '<div id="info">Hover over an EDU, a span or a relation to read its text.</div>',
        f"<script>{_SCRIPT}</script>",
        "</body></html>",
    ]) + "\n"


def _symbols(items: list[str]) -> str:
    return ('<details class="legend"><summary>How to read the diagram</summary><div>' + "\n".join(items)
            + "</div></details>")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _meta(drawing: Layout) -> str:
    tree = drawing.tree
    n_nodes = sum(1 for _ in drawing.top.nodes())
    where = f" from {xml_text(tree.source)}" if tree.source else ""
    scope = "" if drawing.top is tree.root else f" (constituent {drawing.top.start}-{drawing.top.end})"
    return (f"{_count(tree.n_edus, 'EDU')}, {_count(n_nodes, 'constituent')}{scope}{where}. "
            f"Drawn by rstkit {__version__}.")


def page(drawing: Layout) -> str:
    """An HTML page showing one drawing, fitted to the window."""
    title = f"{drawing.tree.doc_id or 'document'}: RST tree"
    return _page(title, _meta(drawing), [_symbols(_symbol_legend())], [(drawing, None)])


def compare_page(gold: Layout, pred: Layout, diff: TreeDiff, scores: DocumentScores, gold_name: str = "gold",
                 pred_name: str = "prediction") -> str:
    """An HTML page with the gold drawing above the predicted one in the same EDU columns,
    differences coloured, and the document's scores."""
    title = f"{gold.tree.doc_id or 'document'}: {gold_name} vs {pred_name}"
    named = ((gold_name, gold.tree), (pred_name, pred.tree))
    sources = "".join(f" {name} from {xml_text(t.source)}." for name, t in named if t.source)
    meta = (f"{_count(gold.tree.n_edus, 'EDU')}; {gold_name}: {_count(diff.n_gold, 'constituent')}, "
            f"{pred_name}: {diff.n_pred}.{sources} Drawn by rstkit {__version__}.")
    legends = ['<div class="summary"><div class="legend">' + "\n".join(_diff_legend(diff)) + "</div>"
               + _score_table(scores) + "</div>", _symbols(_symbol_legend())]
    return _page(title, meta, legends, [(gold, diff.gold), (pred, diff.pred)])


def fragment(drawing: Layout) -> str:
    """An HTML fragment for notebooks: the SVG in a horizontally scrolling box, no script."""
    svg = svg_document(drawing.width, drawing.height, body(drawing))
    return f'<div style="overflow-x:auto;max-width:100%">{svg}</div>'
