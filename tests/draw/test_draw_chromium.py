"""End to end in a real browser: headless Chromium renders rstkit's HTML pages.

Needs the Debian packages ``chromium`` (and ``fonts-dejavu-core``, the font the drawings
ask for); CI installs them with
``apt-get install -y --no-install-recommends chromium chromium-driver fonts-dejavu-core``.
Without a Chromium binary (``chromium``, ``chromium-browser``, ``google-chrome`` on the
PATH, or ``RSTKIT_CHROMIUM``) these tests are skipped, saying so.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest

from rstkit import draw
from rstkit.corpus import gum_corpus, read_tree
from rstkit.draw.svg import DIFF_COLORS
from tests.support.expected_warnings import GUM_EXTENT_QUIRK, warns_exactly

pytestmark = pytest.mark.slow  # each test starts a headless browser

GOLDEN = Path(__file__).parents[1] / "golden" / "draw"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--hide-scrollbars", "--force-device-scale-factor=1", "--no-first-run"]


@pytest.fixture(scope="module")
def chromium(tmp_path_factory) -> list[str]:
    """The command line that starts headless Chromium with its own profile."""
    binary = os.environ.get("RSTKIT_CHROMIUM") or next(
        (found for name in ("chromium", "chromium-browser", "google-chrome") if (found := shutil.which(name))), None)
    if not binary:
        pytest.skip("headless Chromium not found; install it with `apt-get install -y --no-install-recommends "
                    "chromium chromium-driver fonts-dejavu-core` or set RSTKIT_CHROMIUM to its path")
    profile = tmp_path_factory.mktemp("chromium-profile")
    return [binary, *FLAGS, f"--user-data-dir={profile}"]


def run_chromium(command: list[str]) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def _paeth_or_average(kind: int, line: np.ndarray, previous: np.ndarray, channels: int) -> np.ndarray:
    out = [int(v) for v in line]
    up = [int(v) for v in previous]
    for i in range(len(out)):
        left = out[i - channels] if i >= channels else 0
        if kind == 3:
            out[i] = (out[i] + (left + up[i]) // 2) & 255
            continue
        corner = up[i - channels] if i >= channels else 0
        guess = left + up[i] - corner
        pa, pb, pc = abs(guess - left), abs(guess - up[i]), abs(guess - corner)
        out[i] = (out[i] + (left if pa <= pb and pa <= pc else up[i] if pb <= pc else corner)) & 255
    return np.array(out, dtype=np.int64)


def read_png(path: Path) -> np.ndarray:
    """The pixels (height x width x RGB) of an 8-bit non-interlaced PNG, as Chromium writes them."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, header, idat = 8, b"", b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            header = data[pos + 8:pos + 8 + length]
        elif kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    channels = 3 if colour == 2 else 4
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, width * channels + 1)
    rows, previous = [], np.zeros(width * channels, dtype=np.int64)
    for kind, line in zip(raw[:, 0], raw[:, 1:].astype(np.int64)):
        if kind == 1:
            line = np.cumsum(line.reshape(width, channels), axis=0).reshape(-1) & 255
        elif kind == 2:
            line = (line + previous) & 255
        elif kind in (3, 4):
            line = _paeth_or_average(kind, line, previous, channels)
        rows.append(line)
        previous = line
    return np.array(rows, dtype=np.uint8).reshape(height, width, channels)[:, :, :3]


def test_comparison_page_renders_with_its_highlights(chromium: list[str], tmp_path: Path) -> None:
    gold, pred = read_tree(GOLDEN / "cafe.dis"), read_tree(GOLDEN / "cafe_pred.dis")
    page = tmp_path / "compare.html"
    page.write_text(draw.compare_html(gold, pred), encoding="utf-8")
    shot = tmp_path / "compare.png"
    run_chromium([*chromium, f"--screenshot={shot}", "--window-size=1000,760", page.as_uri()])
    if os.environ.get("RSTKIT_KEEP_SCREENSHOT"):  # to look at it
        shutil.copy(shot, os.environ["RSTKIT_KEEP_SCREENSHOT"])
    pixels = read_png(shot)
    assert pixels.shape == (760, 1000, 3)
    inked = (pixels.max(axis=2) < 200).mean()
    assert inked > 0.01, f"the screenshot is (nearly) blank: {inked:.2%} of it is drawn"
    for kind, colour in DIFF_COLORS.items():
        rgb = np.frombuffer(bytes.fromhex(colour[1:]), dtype=np.uint8).astype(np.int64)
        near = (np.abs(pixels.astype(np.int64) - rgb).max(axis=2) <= 8).sum()
        assert near >= 20, f"the colour of {kind} differences is not on screen"


_MEASURE = """
<pre id="result"></pre>
<script>
var result = {overlaps: [], overflows: [], texts: 0};
window.rstView.zoomTo(1);  // the drawing at 100%, EDU texts shown (the page opens fitted to the window)
document.querySelectorAll(".rst-tree").forEach(function (svg) {  // a drawing: one group of the page's picture
  var boxes = [];
  svg.querySelectorAll("text").forEach(function (t) {
    var b = t.getBBox();
    boxes.push({x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height, text: t.textContent});
  });
  result.texts += boxes.length;
  boxes.sort(function (a, b) { return a.x0 - b.x0; });
  for (var i = 0; i < boxes.length; i++) {
    for (var j = i + 1; j < boxes.length && boxes[j].x0 < boxes[i].x1 - 0.5; j++) {
      var a = boxes[i], b = boxes[j];
      if (a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5) result.overlaps.push([a.text, b.text]);
    }
  }
  svg.querySelectorAll("g.edu").forEach(function (g) {
    var cell = g.querySelector("rect").getBBox();
    g.querySelectorAll("text").forEach(function (t) {
      var b = t.getBBox();
      if (b.x < cell.x || b.x + b.width > cell.x + cell.width) result.overflows.push(t.textContent);
    });
  });
});
var node = document.querySelector('g.node[data-span="2-4"]');
if (node) {
  node.querySelector("line").dispatchEvent(new MouseEvent("mouseover", {bubbles: true}));
  result.hover = {info: document.getElementById("info").textContent,
                  lit: Array.prototype.map.call(document.querySelectorAll("g.edu.lit"),
                                                function (g) { return g.getAttribute("data-span"); })};
}
document.getElementById("result").textContent = JSON.stringify(result);
</script>
"""


def measure_in_browser(chromium: list[str], html: str, tmp_path: Path) -> dict:
    """Real text boxes: overlapping texts and EDU lines leaving their cell, as Chromium lays them out."""
    page = tmp_path / "measure.html"
    page.write_text(html.replace("</body>", _MEASURE + "</body>"), encoding="utf-8")
    dom = run_chromium([*chromium, "--dump-dom", page.as_uri()]).stdout
    found = re.search(r'<pre id="result">(.*?)</pre>', dom, re.DOTALL)
    assert found and found.group(1), "the measuring script did not run"
    return json.loads(found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))


def test_real_text_boxes_do_not_overlap_on_the_sample(chromium: list[str], tmp_path: Path) -> None:
    gold, pred = read_tree(GOLDEN / "cafe.dis"), read_tree(GOLDEN / "cafe_pred.dis")
    result = measure_in_browser(chromium, draw.compare_html(gold, pred), tmp_path)
    assert result["texts"] > 50
    assert result["overlaps"] == [] and result["overflows"] == []
    # hovering over span 2-4 shows its text and lights up EDUs 2-4 in both trees
    assert result["hover"]["info"].startswith("2-4: Although it is small, it serves")
    assert sorted(result["hover"]["lit"]) == ["2-2", "2-2", "3-3", "3-3", "4-4", "4-4"]


@pytest.mark.gum
def test_real_text_boxes_do_not_overlap_on_gum_largest_document(chromium: list[str], gum_dir: Path,
                                                                 tmp_path: Path) -> None:
    corpus = gum_corpus(gum_dir)
    largest = max(corpus.files, key=lambda d: corpus.files[d].read_text(encoding="utf-8").count("(leaf "))
    with warns_exactly({GUM_EXTENT_QUIRK: 1 if largest == "GENTLE_syllabus_techtonica" else 0}):
        tree = read_tree(corpus.path(largest), lenient=True)
    result = measure_in_browser(chromium, draw.to_html(tree), tmp_path)
    assert result["texts"] > 3 * tree.n_edus
    assert result["overlaps"] == [] and result["overflows"] == []


def test_without_scripts_the_page_shows_the_drawings_at_full_size(chromium: list[str], tmp_path: Path) -> None:
    """Scripts off: no viewer, but both trees of a comparison at 100%, one below the other."""
    gold, pred = read_tree(GOLDEN / "cafe.dis"), read_tree(GOLDEN / "cafe_pred.dis")
    page = tmp_path / "compare.html"
    html = draw.compare_html(gold, pred)
    # the page's script left out (headless screenshots need scripts on: the same page, scripts off)
    page.write_text(re.sub(r"<script>.*?</script>", "", html, flags=re.DOTALL), encoding="utf-8")
    shot = tmp_path / "noscript.png"
    run_chromium([*chromium, f"--screenshot={shot}", "--window-size=1000,1400", page.as_uri()])
    pixels = read_png(shot)
    rows = (pixels.max(axis=2) < 120).any(axis=1)  # rows holding dark ink (text, lines)
    # the EDU texts are drawn (as at 100%: 7 cells of up to 3 lines in each tree), down to the second tree
    assert rows.sum() > 150 and np.nonzero(rows)[0].max() > 600
    gold_only = np.frombuffer(bytes.fromhex(DIFF_COLORS["gold-only"][1:]), dtype=np.uint8).astype(np.int64)
    pred_only = np.frombuffer(bytes.fromhex(DIFF_COLORS["pred-only"][1:]), dtype=np.uint8).astype(np.int64)
    below = pixels[200:].astype(np.int64)  # under the header (its legend has both colours)
    ys = [np.nonzero((np.abs(below - rgb).max(axis=2) <= 8).any(axis=1))[0] for rgb in (gold_only, pred_only)]
    assert len(ys[0]) and len(ys[1]) and ys[0].max() < ys[1].min()  # gold's marks above the prediction's
