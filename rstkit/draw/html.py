"""Self-contained HTML pages of drawings: inline SVG, inline style, a few lines of inline
script, nothing fetched from the network.

Hovering over an EDU, a span or a relation shows its text in a panel and lights up the
EDUs it covers (in both trees of a comparison); without scripts, every element still has
its ``<title>`` tooltip. A comparison page draws the gold tree above the prediction with
the EDUs in the same columns, in one horizontally scrolling pane, and colours the
constituents that differ.
"""
from __future__ import annotations

from .._version import __version__
from .diff import KINDS, TreeDiff
from .layout import Layout
from .svg import BAR, DIFF_COLORS, INK, LABEL, LINE, body, svg_document, xml_text

_STYLE = """
body { font-family: "DejaVu Sans", Verdana, Geneva, sans-serif; color: #222; margin: 16px 20px 64px; }
h1 { font-size: 20px; margin: 0 0 4px; }
.meta { color: #666; font-size: 13px; margin: 0 0 10px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 22px; font-size: 12px; margin: 8px 0 12px; align-items: center; }
.legend span { display: inline-flex; align-items: center; gap: 6px; }
.swatch { display: inline-block; width: 22px; height: 10px; }
.pane { overflow-x: auto; border: 1px solid #ddd; border-radius: 4px; padding: 4px 8px; background: #fff; }
svg.rst-tree { display: block; }
svg.rst-tree g.edu.lit rect { fill: #fff0a0; }
svg.rst-tree g.node:hover line, svg.rst-tree g.nucleus:hover line,
svg.rst-tree g.multinuc:hover line { stroke-width: 3.5; }
svg.rst-tree g.arc:hover path { stroke-width: 3; }
#info { position: fixed; left: 0; right: 0; bottom: 0; padding: 8px 20px; background: #fffbe6;
        border-top: 1px solid #e0d9b0; font-size: 13px; max-height: 30vh; overflow-y: auto; }
"""

_SCRIPT = """
(function () {
  var info = document.getElementById("info"), cells = {}, lit = [];
  document.querySelectorAll("g.edu").forEach(function (g) {
    var i = g.getAttribute("data-span").split("-")[0];
    (cells[i] = cells[i] || []).push(g);
  });
  document.addEventListener("mouseover", function (event) {
    var g = event.target.closest && event.target.closest("g[data-span]");
    if (!g) return;
    lit.forEach(function (c) { c.classList.remove("lit"); });
    lit = [];
    var span = g.getAttribute("data-span").split("-").map(Number);
    for (var i = span[0]; i <= span[1]; i++) {
      (cells[i] || []).forEach(function (c) { c.classList.add("lit"); lit.push(c); });
    }
    info.textContent = g.querySelector("title").textContent;
  });
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


def _diff_legend(diff: TreeDiff) -> list[str]:
    counts = diff.counts()
    return [f'<span><i class="swatch" style="background:{DIFF_COLORS[kind]}"></i>{xml_text(words)}: '
            f'<b>{counts[kind]}</b></span>' for kind, words in KINDS.items()]


def _figure(drawing: Layout, marks=None) -> str:
    return svg_document(drawing.width, drawing.height, body(drawing, marks))


def _page(title: str, meta: str, legends: list[list[str]], figures: list[str]) -> str:
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{xml_text(title)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{xml_text(title)}</h1>",
        f'<p class="meta">{meta}</p>',
        *('<div class="legend">' + "\n".join(items) + "</div>" for items in legends),
        '<div class="pane">', *figures, "</div>",
        '<div id="info">Hover over an EDU, a span or a relation to read its text.</div>',
        f"<script>{_SCRIPT}</script>",
        "</body></html>",
    ]) + "\n"


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
    """An HTML page showing one drawing."""
    title = f"{drawing.tree.doc_id or 'document'}: RST tree"
    return _page(title, _meta(drawing), [_symbol_legend()], [_figure(drawing)])


def compare_page(gold: Layout, pred: Layout, diff: TreeDiff, gold_name: str = "gold",
                 pred_name: str = "prediction") -> str:
    """An HTML page with the gold drawing above the predicted one, differences coloured."""
    title = f"{gold.tree.doc_id or 'document'}: {gold_name} vs {pred_name}"
    same = diff.n_gold - sum(1 for k in diff.gold.values() if k == "gold-only")
    named = ((gold_name, gold.tree), (pred_name, pred.tree))
    sources = "".join(f" {name} from {xml_text(t.source)}." for name, t in named if t.source)
    meta = (f"{_count(gold.tree.n_edus, 'EDU')}; {gold_name}: {_count(diff.n_gold, 'constituent')}, "
            f"{pred_name}: {diff.n_pred}, "
            f"{same} spans in both.{sources} Drawn by rstkit {__version__}.")
    figures = [_figure(gold, diff.gold), _figure(pred, diff.pred)]
    return _page(title, meta, [_diff_legend(diff), _symbol_legend()], figures)


def fragment(drawing: Layout) -> str:
    """An HTML fragment for notebooks: the SVG in a horizontally scrolling box, no script."""
    svg = svg_document(drawing.width, drawing.height, body(drawing))
    return f'<div style="overflow-x:auto;max-width:100%">{svg}</div>'
