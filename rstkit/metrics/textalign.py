"""An edit-distance alignment of two texts, near-linear on long documents that mostly agree.

``edus="aligned"`` compares the normalised texts of gold and prediction
(:func:`~rstkit.metrics.edus.normalise_edu_text`: whitespace removed, tokenizer rewrites folded).
What normalising cannot undo (``½`` written ``1/2``, a dropped or added character, a sentence a
parser left out) is found here: :func:`align_texts` returns the edit operations that turn the
gold text into the prediction's, and the stretches that differ too much to be aligned
approximately.

The alignment is :class:`difflib.SequenceMatcher`'s, made near-linear for long texts: both texts
are cut into content-defined chunks (where a rolling hash of the last ``WINDOW`` characters has its
top ``CHUNK_BITS`` bits zero, so equal stretches of text are cut alike on both sides, whatever
precedes them); the chunks that occur once on each side, in the longest common order, anchor the
alignment (as patience diff does); SequenceMatcher aligns the chunks between two anchors, and the
characters of chunks that differ.

A gap between anchors whose shorter side has more than ``SHORT_SIDE`` characters (text with few
unique chunks, such as ``ha ha ha ...``, has one gap as long as the text) is not given to
SequenceMatcher, whose cost grows with the product of the sides (quadratically, and worse: 3,000
characters took 1 s, 12,000 took 15 s). It is aligned by Myers' greedy diff (:func:`diff`: the
fewest characters deleted and inserted, runs of both written as one replacement, as
SequenceMatcher writes them): comparisons of equal text run in C, slices compared over doubling
lengths, so a gap of n + m characters with d edits costs O((n + m) d) character comparisons and
O(d² log(n + m)) steps of Python. A gap with a side of at most ``SHORT_SIDE`` characters (a
sentence one side lacks, a word rewritten) costs SequenceMatcher O(a x b) per level of its
recursion, at most ``SHORT_SIDE`` levels deep: a bounded cost per character of the gap. So the
whole alignment is linear in the length of the texts for a bounded number of edits per gap.

Bounded: a large gap that needs more than ``MAX_EDITS`` edits is not searched further; it is
aligned as one replacement between its common beginning and end (its characters paired in order,
the longer side's rest inserted or deleted) and named in :attr:`TextAlignment.unsearched`. Its
characters count as unmatched, text that one side lacks: an error naming the document and saying
that the texts differ too much to be aligned, or with ``lenient`` scored as text each side lacks,
never a silently approximate alignment.
"""
from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import pairwise

import numpy as np

#: the most characters of one side that a stretch of differences may hold and still be aligned
#: approximately; a longer stretch is text the other side lacks
MAX_APPROXIMATE = 5
#: an equal stretch shorter than this between two differences is a coincidence, not an anchor: the
#: differences count as one stretch
MIN_ANCHOR = 3
#: the farthest a deletion or insertion is moved to begin or end at an EDU boundary
MAX_SLIDE = 100
#: characters hashed for a chunk cut, and one cut per 2 ** CHUNK_BITS characters on average
WINDOW = 8
CHUNK_BITS = 4
#: a gap between anchors whose gold or predicted side has at most this many characters is aligned by
#: SequenceMatcher; another by :func:`diff`
SHORT_SIDE = 256
#: the most edits (characters deleted plus characters inserted) :func:`diff` looks for in one large gap
MAX_EDITS = 1000
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
_BASE = np.uint64(1_000_003)

#: an edit operation as difflib writes it: (tag, gold start, gold end, prediction start, prediction end)
Opcode = tuple[str, int, int, int, int]
#: a stretch of both texts: (gold start, gold end, prediction start, prediction end)
Span = tuple[int, int, int, int]


@dataclass(frozen=True)
class Stretch:
    """A stretch of differences: ``gold[gold_start:gold_end]`` against ``pred[pred_start:pred_end]``,
    of which ``gold_unmatched`` and ``pred_unmatched`` characters have no equal counterpart."""

    gold_start: int
    gold_end: int
    pred_start: int
    pred_end: int
    gold_unmatched: int
    pred_unmatched: int

    @property
    def missing(self) -> bool:
        """More gold text than can be aligned approximately: the prediction lacks it."""
        return self.gold_unmatched > MAX_APPROXIMATE

    @property
    def extra(self) -> bool:
        """More predicted text than can be aligned approximately: the gold lacks it."""
        return self.pred_unmatched > MAX_APPROXIMATE


@dataclass(frozen=True)
class TextAlignment:
    """The edit operations from a gold text to a predicted one, counted and grouped into stretches.

    ``changed`` counts characters paired with a different one, ``inserted`` predicted characters
    without a gold counterpart, ``deleted`` gold characters without a predicted one. ``unsearched``:
    the stretches of both texts that differ in more than ``MAX_EDITS`` edits without text to anchor
    them, each one replacement (its characters are text the other side lacks).
    """

    opcodes: tuple[Opcode, ...]
    changed: int
    inserted: int
    deleted: int
    stretches: tuple[Stretch, ...]
    unsearched: tuple[Span, ...] = ()

    @property
    def approximate(self) -> int:
        """Characters aligned other than one to an equal one."""
        return self.changed + self.inserted + self.deleted

    @property
    def missing(self) -> tuple[Stretch, ...]:
        return tuple(s for s in self.stretches if s.missing)

    @property
    def extra(self) -> tuple[Stretch, ...]:
        return tuple(s for s in self.stretches if s.extra)


def align_texts(gold: str, pred: str, gold_bounds: Collection[int] = (), pred_bounds: Collection[int] = ()
                ) -> TextAlignment:
    """The alignment of ``pred`` onto ``gold`` (see the module's docstring). Text one side lacks
    (a deletion or insertion between equal text) is placed, among the places that align as well
    (``.ab.`` lacking ``ab.`` or ``.ab``), where it begins or ends at an EDU boundary of
    ``pred_bounds`` and ``gold_bounds`` (offsets), if there is one."""
    operations, unsearched = edit_operations(gold, pred)
    opcodes = tuple(_slid(operations, gold, pred, set(gold_bounds), set(pred_bounds)))
    changed = inserted = deleted = 0
    for tag, i1, i2, j1, j2 in opcodes:
        if tag != "equal":
            paired = 0 if (i1, i2, j1, j2) in unsearched else min(i2 - i1, j2 - j1)  # not aligned: none paired
            changed += paired
            deleted += i2 - i1 - paired
            inserted += j2 - j1 - paired
    return TextAlignment(opcodes, changed, inserted, deleted, tuple(_stretches(opcodes)), tuple(unsearched))


def edit_operations(gold: str, pred: str) -> tuple[list[Opcode], list[Span]]:
    """SequenceMatcher's opcodes turning ``gold`` into ``pred``, computed between anchors (chunks that
    occur once in each text, in the same order), chunk-wise in each gap between them, then
    character-wise where chunks differ; :func:`diff`'s in a gap whose both sides are longer than
    ``SHORT_SIDE``; adjacent equal operations merged. With them, the stretches that :func:`diff` gave
    up on (more than ``MAX_EDITS`` edits), each one replacement."""
    unsearched: list[Span] = []
    if gold == pred:
        return [("equal", 0, len(gold), 0, len(pred))] if gold else [], unsearched
    gold_cuts, pred_cuts = chunk_bounds(gold), chunk_bounds(pred)
    gold_chunks = [gold[a:b] for a, b in pairwise(gold_cuts)]
    pred_chunks = [pred[a:b] for a, b in pairwise(pred_cuts)]
    out: list[Opcode] = []
    c, d = 0, 0
    for anchor_c, anchor_d in [*_anchors(gold_chunks, pred_chunks), (len(gold_chunks), len(pred_chunks))]:
        g1, g2, p1, p2 = gold_cuts[c], gold_cuts[anchor_c], pred_cuts[d], pred_cuts[anchor_d]
        if min(g2 - g1, p2 - p1) > SHORT_SIDE:
            found = diff(gold[g1:g2], pred[p1:p2], MAX_EDITS)
            if found is None:
                found = _replacement(gold[g1:g2], pred[p1:p2])
                replaced = next(op for op in found if op[0] != "equal")
                unsearched.append((g1 + replaced[1], g1 + replaced[2], p1 + replaced[3], p1 + replaced[4]))
            for sub, a1, a2, b1, b2 in found:
                _append(out, (sub, g1 + a1, g1 + a2, p1 + b1, p1 + b2))
            matcher_opcodes: Sequence[Opcode] = ()
        else:
            matcher_opcodes = SequenceMatcher(None, gold_chunks[c:anchor_c], pred_chunks[d:anchor_d],
                                              autojunk=False).get_opcodes()
        for tag, c1, c2, d1, d2 in matcher_opcodes:
            i1, i2, j1, j2 = gold_cuts[c + c1], gold_cuts[c + c2], pred_cuts[d + d1], pred_cuts[d + d2]
            if tag == "equal" or i1 == i2 or j1 == j2:
                _append(out, (tag, i1, i2, j1, j2))
                continue
            for sub, a1, a2, b1, b2 in SequenceMatcher(None, gold[i1:i2], pred[j1:j2], autojunk=False).get_opcodes():
                _append(out, (sub, i1 + a1, i1 + a2, j1 + b1, j1 + b2))
        if anchor_c < len(gold_chunks):
            _append(out, ("equal", gold_cuts[anchor_c], gold_cuts[anchor_c + 1], pred_cuts[anchor_d],
                          pred_cuts[anchor_d + 1]))
        c, d = anchor_c + 1, anchor_d + 1
    return out, unsearched


def diff(gold: str, pred: str, max_edits: int = MAX_EDITS) -> list[Opcode] | None:
    """Opcodes turning ``gold`` into ``pred`` with the fewest characters deleted plus inserted (Myers' greedy
    algorithm, O((n + m) d) for d such edits), each run of deletions and insertions between equal text one
    operation (``replace`` where it has both); None when that takes more than ``max_edits`` edits."""
    n, m = len(gold), len(pred)
    # furthest[k + d] after d edits: the furthest gold offset reached on diagonal k (gold offset minus
    # predicted offset), -d <= k <= d; -1 where no path of d edits reaches diagonal k inside the texts
    furthest = [_common_length(gold, pred, 0, 0)]
    trace = [furthest]
    d = 0
    while abs(n - m) > d or furthest[n - m + d] != n:  # (n, m) not reached in d edits
        d += 1
        if d > max_edits:
            return None
        previous, furthest = furthest, [-1] * (2 * d + 1)
        for k in range(-d, d + 1, 2):
            x, _ = _step(previous, k, d, n, m)
            if x >= 0:
                furthest[k + d] = x + _common_length(gold, pred, x, x - k)
        trace.append(furthest)
    return _opcodes(_path(trace, n, m), n)


def _step(previous: list[int], k: int, d: int, n: int, m: int) -> tuple[int, int]:
    """The gold offset where the d-th edit leads onto diagonal k, from the furthest points of d - 1 edits
    (``previous``): a gold character deleted from diagonal k - 1 or a predicted one inserted from k + 1,
    whichever gets further inside the texts; and that diagonal (-1, 0 where neither is possible)."""
    deleted = previous[k - 1 + d - 1] + 1 if k - 1 >= -(d - 1) and previous[k - 1 + d - 1] >= 0 else -1
    if deleted > n:
        deleted = -1
    inserted = previous[k + 1 + d - 1] if k + 1 <= d - 1 and previous[k + 1 + d - 1] >= 0 else -1
    if inserted >= 0 and inserted - k > m:
        inserted = -1
    if inserted < 0 and deleted < 0:
        return -1, 0
    return (deleted, k - 1) if deleted > inserted else (inserted, k + 1)


def _path(trace: list[list[int]], n: int, m: int) -> list[tuple[int, int, int, int]]:
    """The edits of :func:`diff`'s furthest points, from the start: (gold offset, predicted offset) before
    each edit, and its gold and predicted length (1, 0: deleted; 0, 1: inserted)."""
    edits = []
    x, k = n, n - m
    for d in range(len(trace) - 1, 0, -1):
        _, before = _step(trace[d - 1], k, d, n, m)
        x = trace[d - 1][before + d - 1]
        edits.append((x, x - before, int(before < k), int(before > k)))
        k = before
    return edits[::-1]


def _opcodes(edits: list[tuple[int, int, int, int]], n: int) -> list[Opcode]:
    """The opcodes of a path of single edits (:func:`_path`), each run of edits between equal text one."""
    out: list[Opcode] = []
    x = y = 0
    run: list[int] | None = None  # gold start, gold end, pred start, pred end of the current run of edits
    for ex, ey, dx, dy in edits:
        if run is not None and (ex, ey) != (run[1], run[3]):
            out.append(_edit(run))
            run = None
        if run is None:
            if ex > x:
                out.append(("equal", x, ex, y, ey))
            run = [ex, ex, ey, ey]
        run[1] += dx
        run[3] += dy
        x, y = run[1], run[3]
    if run is not None:
        out.append(_edit(run))
    if x < n:
        out.append(("equal", x, n, y, y + n - x))
    return out


def _edit(run: list[int]) -> Opcode:
    i1, i2, j1, j2 = run
    return ("replace" if i1 < i2 and j1 < j2 else "delete" if i1 < i2 else "insert", i1, i2, j1, j2)


def _replacement(gold: str, pred: str) -> list[Opcode]:
    """``gold`` replaced by ``pred`` between their common beginning and end."""
    n, m = len(gold), len(pred)
    start = _common_length(gold, pred, 0, 0)
    end = _common_length(gold[::-1], pred[::-1], 0, 0)
    end = min(end, n - start, m - start)
    out: list[Opcode] = [("equal", 0, start, 0, start)] if start else []
    out.append(_edit([start, n - end, start, m - end]))
    if end:
        out.append(("equal", n - end, n, m - end, m))
    return out


def _common_length(a: str, b: str, x: int, y: int) -> int:
    """The length of the common beginning of ``a[x:]`` and ``b[y:]``: slices compared (in C) over doubling
    lengths, then halved where they differ: O(length) character comparisons, O(log length) steps."""
    n = min(len(a) - x, len(b) - y)
    if n <= 0 or a[x] != b[y]:
        return 0
    low, size = 1, 16  # a[x:x + low] == b[y:y + low]
    while low < n:
        high = min(n, low + size)
        if a[x + low:x + high] == b[y + low:y + high]:
            low, size = high, size * 2
            continue
        while high - low > 1:  # the first difference lies in [low, high)
            middle = (low + high) // 2
            if a[x + low:x + middle] == b[y + low:y + middle]:
                low = middle
            else:
                high = middle
        return low
    return low


def _anchors(gold: list[str], pred: list[str]) -> list[tuple[int, int]]:
    """Pairs (gold index, predicted index) of chunks that occur once on each side, the longest
    sequence of them in the same order on both (patience sorting: O(n log n))."""
    gold_count, pred_count = Counter(gold), Counter(pred)
    pred_at = {chunk: j for j, chunk in enumerate(pred) if pred_count[chunk] == 1}
    pairs = [(i, pred_at[chunk]) for i, chunk in enumerate(gold) if gold_count[chunk] == 1 and chunk in pred_at]
    tails: list[int] = []  # tails[k]: the smallest predicted index ending an increasing run of k + 1 pairs
    tail_pair: list[int] = []  # the pair (its index in pairs) at each tail
    previous = [-1] * len(pairs)
    for p, (_, j) in enumerate(pairs):
        k = bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_pair.append(p)
        else:
            tails[k], tail_pair[k] = j, p
        previous[p] = tail_pair[k - 1] if k else -1
    chain, p = [], tail_pair[-1] if tail_pair else -1
    while p >= 0:
        chain.append(pairs[p])
        p = previous[p]
    return chain[::-1]


def chunk_bounds(text: str) -> list[int]:
    """Offsets cutting ``text`` into content-defined chunks: 0, every cut, ``len(text)``."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype="<u4").astype(np.uint64)
    n = codes.size
    if n <= WINDOW:
        return [0, n] if n else [0]
    hashes = np.zeros(n - WINDOW + 1, dtype=np.uint64)
    for t in range(WINDOW):
        hashes = hashes * _BASE + codes[t:n - WINDOW + 1 + t]
    cuts = np.flatnonzero((hashes * _MULTIPLIER) >> np.uint64(64 - CHUNK_BITS) == 0) + WINDOW
    return [0, *cuts[cuts < n].tolist(), n]


def _append(out: list[Opcode], op: Opcode) -> None:
    """``op`` after ``out``, merged with its last operation when both are equal."""
    if op[1] == op[2] and op[3] == op[4]:
        return
    if out and op[0] == "equal" and out[-1][0] == "equal":
        last = out.pop()
        op = ("equal", last[1], op[2], last[3], op[4])
    out.append(op)


def _slid(opcodes: list[Opcode], gold: str, pred: str, gold_bounds: set[int], pred_bounds: set[int]
          ) -> list[Opcode]:
    """``opcodes`` with each deletion or insertion between two equal operations moved (its text
    read as the same characters further left or right) to the place that best meets EDU
    boundaries: on both sides, else the prediction's, else the gold's; where it was otherwise."""
    out = list(opcodes)
    for k in range(1, len(out) - 1):
        tag, i1, i2, j1, j2 = out[k]
        before, after = out[k - 1], out[k + 1]
        if tag not in ("delete", "insert") or before[0] != "equal" or after[0] != "equal":
            continue
        text, a, b = (gold, i1, i2) if tag == "delete" else (pred, j1, j2)
        left = 0
        while left < min(MAX_SLIDE, before[2] - before[1] - 1) and text[a - left - 1] == text[b - left - 1]:
            left += 1
        right = 0
        while right < min(MAX_SLIDE, after[2] - after[1] - 1) and text[a + right] == text[b + right]:
            right += 1
        if not left and not right:
            continue

        op = out[k]
        best = max(range(-left, right + 1),
                   key=lambda shift: (_at_boundaries(op, shift, gold_bounds, pred_bounds), shift == 0))
        if best:
            out[k - 1] = ("equal", before[1], before[2] + best, before[3], before[4] + best)
            out[k] = (tag, i1 + best, i2 + best, j1 + best, j2 + best)
            out[k + 1] = ("equal", after[1] + best, after[2], after[3] + best, after[4])
    return out


def _at_boundaries(op: Opcode, shift: int, gold_bounds: set[int], pred_bounds: set[int]) -> tuple[bool, bool, bool]:
    """Whether a deletion or insertion moved by ``shift`` begins or ends at an EDU boundary: on both
    sides, in the prediction, in the gold."""
    tag, i1, i2, j1, j2 = op
    if tag == "delete":
        gold, pred = i1 + shift in gold_bounds or i2 + shift in gold_bounds, j1 + shift in pred_bounds
    else:
        gold, pred = i1 + shift in gold_bounds, j1 + shift in pred_bounds or j2 + shift in pred_bounds
    return gold and pred, pred, gold


def _stretches(opcodes: tuple[Opcode, ...]) -> list[Stretch]:
    """The differences, grouped: operations other than equal, joined across equal ones shorter than
    MIN_ANCHOR."""
    out: list[Stretch] = []
    current: list[int] | None = None  # gold start, gold end, pred start, pred end, gold and pred unmatched
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            if current is not None and i2 - i1 >= MIN_ANCHOR:
                out.append(Stretch(*current))
                current = None
            continue
        if current is None:
            current = [i1, i2, j1, j2, 0, 0]
        current[1], current[3] = i2, j2
        current[4] += i2 - i1
        current[5] += j2 - j1
    if current is not None:
        out.append(Stretch(*current))
    return out
