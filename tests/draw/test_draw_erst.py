"""Drawings show a tree's eRST layer: secondary edges as curves over the tree, signals in hover texts."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from rstkit import draw
from rstkit.corpus import read_tree
from rstkit.draw.layout import ASCENT, DEFAULT_STYLE, DESCENT, layout
from rstkit.tree import NO_ERST
from tests.draw.test_draw_chromium import chromium, run_chromium  # noqa: F401  (the fixture, and its runner)

SMALL = Path(__file__).resolve().parents[1] / "data" / "formats" / "erst_small.rs4"
SVG = "{http://www.w3.org/2000/svg}"


def groups(svg: str, cls: str) -> dict[str, str]:
    """The hover text of each ``<g class=cls>`` by its data-span (and data-target where it has one)."""
    found = {}
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if g.get("class") == cls:
            key = g.get("data-span") + (f">{g.get('data-target')}" if g.get("data-target") else "")
            found[key] = g.find(f"{SVG}title").text
    return found


def test_secondary_edges_are_curves_with_their_relation_and_signals():
    svg = draw.to_svg(read_tree(SMALL))
    # by hand from erst_small.rs4: edges 5 -> 1 (cause, signalled by tokens 1 and 22, "Rain" and "car") and
    # 2 -> 3 (contrast, a dm signal without tokens)
    assert groups(svg, "secedge") == {
        "5-5>1-1": 'secondary edge 5 \u2192 1: cause\nsignal semantic/lexical_chain: "Rain car" (tokens 1, 22)',
        "2-2>3-3": "secondary edge 2 \u2192 3: contrast\nsignal dm/dm (no tokens)"}
    assert svg.count('stroke-dasharray="5,3"') == 2


def test_a_relations_signals_are_listed_with_their_words_on_hover():
    svg = draw.to_svg(read_tree(SMALL))
    arcs = groups(svg, "arc")
    # token 15 is "So" (EDU 4's first word: EDUs 1-3 hold 5 + 3 + 6 tokens), token 20 ":" (EDU 4's last)
    assert arcs["4-5"] == '4-5 \u2192 1-3: cause\nsignal dm/dm: "So" (token 15)'
    assert arcs["5-5"] == '5 \u2192 4: elaboration\nsignal graphical/colon: ":" (token 20)'
    # EDU 2's list relation: tokens 7 and 12, "rose" twice
    assert groups(svg, "multinuc")["1-3"] == \
        'list (multinuclear): 1, 2, 3\nsignal semantic/repetition: "rose rose" (tokens 7, 12)'


def test_the_band_above_the_tree_is_there_only_with_secondary_edges():
    tree = read_tree(SMALL)
    plain = replace(tree, erst=NO_ERST)
    with_edges, without = layout(tree), layout(plain)
    # two edges: two lanes and a label's height
    s = DEFAULT_STYLE
    assert with_edges.height - without.height == pytest.approx(2 * s.lane + (ASCENT + DESCENT) * s.label_size)
    assert "secedge" not in draw.to_svg(plain) and "signal" not in draw.to_svg(plain)
    assert "secedge" in draw.to_html(tree)


def test_a_part_of_the_tree_draws_the_edges_inside_it():
    tree = read_tree(SMALL)
    assert list(groups(draw.to_svg(tree, edus=(1, 3)), "secedge")) == ["2-2>3-3"]
    assert "secedge" not in draw.to_svg(tree, edus=(4, 5))


def test_the_page_marks_each_word_with_its_token_and_each_relation_with_its_signal_tokens():
    html = draw.to_html(read_tree(SMALL))
    # by hand: tokens 1 "Rain", 12 "rose" (EDU 3's fourth word: EDUs 1-2 hold 8), 15 "So", 22 "car"
    for number, word in ((1, "Rain"), (12, "rose"), (15, "So"), (22, "car")):
        assert f'<tspan data-t="{number}">{word}</tspan>' in html
    assert html.count("<tspan data-t=") == 25  # every token of the 5 EDUs once
    assert 'class="arc" data-span="4-5" data-tokens="15"' in html
    assert 'class="secedge" data-span="5-5" data-target="1-1" data-tokens="1 22"' in html
    assert "<tspan" not in draw.to_html(replace(read_tree(SMALL), erst=NO_ERST))


@pytest.mark.slow  # a headless browser
def test_hovering_a_secondary_edge_lights_its_signal_tokens_in_chromium(chromium, tmp_path):  # noqa: F811
    page = draw.to_html(read_tree(SMALL)).replace("</body>", (
        "<script>document.querySelector('g.secedge[data-span=\"5-5\"]')"
        ".dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));</script></body>"))
    (tmp_path / "page.html").write_text(page, encoding="utf-8")
    dom = run_chromium([*chromium, "--virtual-time-budget=2000", "--dump-dom",
                        (tmp_path / "page.html").as_uri()]).stdout
    lit = re.findall(r'<tspan data-t="(\d+)" class="sig">', dom)
    assert lit == ["1", "22"]
    assert 'signal semantic/lexical_chain: "Rain car" (tokens 1, 22)' in dom
