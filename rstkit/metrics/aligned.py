"""Scoring predictions whose EDUs differ from the gold: spans over characters (``edus="aligned"``).

Parsers that segment their own text cannot be scored by EDU numbers. Here each document is
mapped onto the characters of its text as :func:`~rstkit.metrics.edus.normalise_edu_text`
compares texts (whitespace removed, PTB escapes undone, tokenizer rewrites folded to one form),
and every span ``(first EDU, last EDU)`` becomes ``(first character, last character)`` of those
EDUs. The tuples (Marcu's encoding or attachment decisions) are otherwise those of gold-EDU
scoring, so the RST-Parseval leaf tuples of a prediction match only the gold EDUs it reproduces.

Where the normalised texts still differ, :mod:`~rstkit.metrics.textalign` aligns them (an edit
distance alignment) and every predicted EDU is carried onto the gold text: it starts at the gold
counterpart of its first character and ends after that of its last (a changed character has
one; an inserted one joins the nearest gold position, or keeps a place of its own when a whole
EDU or more than ``MAX_APPROXIMATE`` characters have no counterpart). Gold characters that the
prediction lacks, a few at a time, go with the predicted EDU that follows them, unless a gold EDU
boundary lies among them (then the predicted boundary is placed there: every place among them is
equally consistent with the prediction). Each document aligned other than exactly gets a warning
with its counts (changed, inserted, deleted characters; the JSON ``alignment``).

A stretch of more than ``MAX_APPROXIMATE`` gold characters that the prediction lacks (a sentence a
parser dropped), or of predicted characters that the gold lacks, is an EDUMismatchError naming the
document and the text; with ``lenient`` it is a warning and the document is scored: the missing
text belongs to no predicted EDU (its gold boundaries are missed, its gold spans not predicted),
the extra text to predicted EDUs of its own (their boundaries and spans predicted, never gold). A
span that covers the same text as a gold span, but for such a stretch inside it, matches it.

The character spans are then renumbered densely per document (the distinct endpoints that
occur on any side, in order), which keeps equality and order and bounds the key radix of
:class:`~rstkit.metrics.counts.KeyCodec` by the number of EDU boundaries, whatever the
length of the text. When both sides have the same EDUs, every number equals gold-EDU
scoring's; when both have the same text, every number is what it was before texts were aligned.

Segmentation is scored beside the trees as DISRPT's ``seg_eval.py`` does: precision, recall
and F1 of the positions where an EDU begins, micro over the corpus
(:class:`~rstkit.metrics.segmentation.BoundaryCounts`). The document-initial
boundary counts, because DISRPT labels the first token of every document ``BeginSeg=Yes``
and counts it like any other; it is always matched, which is part of why segmentation
scores run high.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..errors import EDUMismatchError, printable
from ..settings import SpanKey
from .counts import TupleArrays
from .edus import normalise_edu_text
from .prepared import PreparedDocument
from .segmentation import BoundaryCounts
from .textalign import MAX_APPROXIMATE, MAX_EDITS, Span, Stretch, TextAlignment, align_texts

#: characters of a differing stretch shown in messages
SHOWN = 60


@dataclass(frozen=True)
class CharacterMap:
    """A document's EDUs on the characters of its normalised text.

    ``bounds`` has n + 1 offsets: EDU i (1-based) covers characters ``bounds[i-1]`` to
    ``bounds[i] - 1`` of ``text``. A map carried onto positions shared with another text
    (:func:`place`) may have gaps between EDUs: then EDU i ends before ``ends[i-1]``.
    """

    text: str
    bounds: np.ndarray
    ends: np.ndarray | None = None

    @classmethod
    def of(cls, tree: PreparedDocument, side: str) -> CharacterMap:
        """The map of the document ``tree`` (``side``: "gold" or "prediction", for messages);
        EDUMismatchError when an EDU has no text, as aligning needs the text of every EDU."""
        texts = [normalise_edu_text(text) for text in tree.edu_texts]
        where = f"{side} {tree.source or '?'}"
        if not any(texts):
            raise EDUMismatchError(f"document {tree.doc_id!r}: the {where} has no EDU text (its format may not "
                                   f"carry text); aligned EDUs (edus='aligned') need the text of both sides")
        empty = [i for i, text in enumerate(texts, start=1) if not text]
        if empty:
            raise EDUMismatchError(f"document {tree.doc_id!r}: {len(empty)} EDU(s) of the {where} have no text "
                                   f"(whitespace aside), the first is EDU {empty[0]}; aligned EDUs "
                                   f"(edus='aligned') place every EDU on the characters of the text")
        lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
        return cls("".join(texts), np.concatenate(([0], np.cumsum(lengths))))

    @property
    def n_edus(self) -> int:
        return self.bounds.size - 1

    @property
    def edu_starts(self) -> np.ndarray:
        """Offsets where an EDU begins (0 included): the segmentation's boundaries."""
        return self.bounds[:-1]

    @property
    def edu_ends(self) -> np.ndarray:
        """Offsets where each EDU ends (exclusive)."""
        return self.bounds[1:] if self.ends is None else self.ends

    def edu_at(self, offset: int) -> int:
        """The (1-based) number of the EDU holding character ``offset``."""
        return int(np.searchsorted(self.bounds, offset, side="right"))


def key_starts(flat_starts: np.ndarray, flat_ends: np.ndarray, first_edu: np.ndarray, span_key: SpanKey
               ) -> np.ndarray:
    """The first key of spans whose first EDU is ``first_edu`` (indices into a document's EDU start and
    end offsets): its first character (``chars``), or the last character of that EDU (``first-edu-end``,
    the keying of DMRST and isanlp_rst, which key a span by the last token of its first EDU and of its
    last EDU)."""
    keys: np.ndarray = flat_starts[first_edu] if span_key == "chars" else flat_ends[first_edu] - 1
    return keys


def to_characters(arrays: TupleArrays, maps: Sequence[CharacterMap | None], edu_columns: Sequence[str] = (),
                  span_key: SpanKey = "chars") -> TupleArrays:
    """``arrays`` with each span ``(first EDU, last EDU)`` replaced by ``(first character, last
    character)`` through the map of its document (``maps[doc]``; None where it has no row), and each
    value column of ``edu_columns`` (an EDU number, 0 for none) by one code of its EDU's characters
    (``first * (length + 1) + last``; -1 for none), equal on two sides exactly when the EDUs are.
    ``span_key`` chooses the first character (:func:`key_starts`)."""
    starts = [m.edu_starts if m is not None else np.zeros(0, dtype=np.int64) for m in maps]
    ends = [m.edu_ends if m is not None else np.zeros(0, dtype=np.int64) for m in maps]
    offsets = np.concatenate(([0], np.cumsum([b.size for b in starts])))[:-1]
    flat_starts = np.concatenate(starts) if starts else np.zeros(0, dtype=np.int64)
    flat_ends = np.concatenate(ends) if ends else np.zeros(0, dtype=np.int64)
    base = offsets[arrays.doc] - 1 if arrays.doc.size else arrays.doc
    columns = dict(arrays.columns)
    if edu_columns:
        radix = (flat_ends.max() + 1) if flat_ends.size else 1
        for name in edu_columns:
            edu = base + np.maximum(columns[name], 1)
            placed = flat_starts[edu] * radix + flat_ends[edu] - 1
            columns[name] = np.where(columns[name] > 0, placed, -1)
    return replace(arrays, start=key_starts(flat_starts, flat_ends, base + arrays.start, span_key),
                   end=flat_ends[base + arrays.end] - 1,
                   columns=columns)


def renumber(sides: Sequence[TupleArrays]) -> list[TupleArrays]:
    """``sides`` with span endpoints replaced by their rank among the distinct endpoints (starts
    and ends alike) that occur in the same document on any side: equal endpoints stay equal,
    and no value exceeds the number of EDU boundaries of the document's sides, so the keys of
    long documents stay small."""
    values = np.concatenate([column for side in sides for column in (side.start, side.end)])
    docs = np.concatenate([side.doc for side in sides for _ in range(2)])
    if not values.size:
        return list(sides)
    order = np.lexsort((values, docs))
    v, d = values[order], docs[order]
    new_doc = np.concatenate(([True], d[1:] != d[:-1]))
    new_value = new_doc | np.concatenate(([True], v[1:] != v[:-1]))
    rank = np.cumsum(new_value) - 1
    first_rank = rank[new_doc][np.cumsum(new_doc) - 1]  # rank of the first value of each row's document
    ranks = np.empty_like(values)
    ranks[order] = rank - first_rank
    out, at = [], 0
    for side in sides:
        n = side.start.size
        out.append(replace(side, start=ranks[at:at + n], end=ranks[at + n:at + 2 * n]))
        at += 2 * n
    return out


@dataclass(frozen=True)
class AlignedSegmentation:
    """A system's EDU boundaries on the characters of the gold text (``boundaries``, per document, as
    :class:`~rstkit.metrics.segmentation.BoundaryCounts` counts them) and the characters each document's
    texts were aligned by other than equal to equal (``changed``, ``inserted``, ``deleted``; arrays of
    shape (n_docs,), zeros where the texts are the same)."""

    boundaries: BoundaryCounts
    changed: np.ndarray
    inserted: np.ndarray
    deleted: np.ndarray

    def alignment(self, doc_ids: Sequence[str]) -> list[dict[str, str | int]]:
        """Per document whose texts were aligned approximately: its id and the characters changed,
        inserted and deleted (none where every text was the same)."""
        approximate = np.flatnonzero(self.changed + self.inserted + self.deleted)
        return [{"doc_id": doc_ids[d], "changed": int(self.changed[d]), "inserted": int(self.inserted[d]),
                 "deleted": int(self.deleted[d])} for d in approximate.tolist()]


@dataclass(frozen=True)
class Placement:
    """The EDUs of a gold document and of each system's prediction on positions shared by all
    of them (``pred[s]`` None where system ``s`` has no prediction), and each system's alignment
    of its text (None where it is the gold's)."""

    gold: CharacterMap
    pred: list[CharacterMap | None]
    alignments: list[TextAlignment | None]


def place(gold: Sequence[PreparedDocument], systems: Sequence[Sequence[PreparedDocument | None]],
          lenient: bool, notes: list[str]) -> list[Placement]:
    """Each gold document and its predictions on shared positions (see the module's docstring).

    EDUMismatchError when a side has no text, and, unless ``lenient``, when one side has a stretch
    of text that the other lacks; warnings (in ``notes``) for approximate alignments and, with
    ``lenient``, for missing or extra text.
    """
    out = []
    for d, gold_doc in enumerate(gold):
        gold_map = CharacterMap.of(gold_doc, "gold")
        pred_maps = [None if (doc := docs[d]) is None else CharacterMap.of(doc, "prediction") for docs in systems]
        carried: list[_Carried | None] = []
        for docs, pred_map in zip(systems, pred_maps):
            doc = docs[d]
            if doc is None or pred_map is None or pred_map.text == gold_map.text:
                carried.append(None)
                continue
            alignment = align_texts(gold_map.text, pred_map.text, gold_map.bounds.tolist(), pred_map.bounds.tolist())
            _report(gold_doc, doc, gold_map, pred_map, alignment, lenient, notes)
            carried.append(_Carried.of(gold_map, pred_map, alignment))
        if all(c is None for c in carried):
            out.append(Placement(gold_map, pred_maps, [None] * len(systems)))
            continue
        out.append(_shared(gold_map, pred_maps, carried))
    return out


@dataclass(frozen=True)
class _Carried:
    """A prediction's characters on the gold text: ``gold_of[j]``, the gold character predicted
    character j is paired with (-1: none); ``own``, the unpaired ones that keep a place of their
    own; ``insert_at[j]``, the gold offset an unpaired character stands before; ``rank[j]``, its
    place among the characters of its own before that offset."""

    pred: CharacterMap
    alignment: TextAlignment
    gold_of: np.ndarray
    own: np.ndarray
    insert_at: np.ndarray
    rank: np.ndarray

    @classmethod
    def of(cls, gold: CharacterMap, pred: CharacterMap, alignment: TextAlignment) -> _Carried:
        n = len(pred.text)
        gold_of = np.full(n, -1, dtype=np.int64)
        insert_at = np.full(n, -1, dtype=np.int64)
        for _, i1, i2, j1, j2 in alignment.opcodes:
            paired = min(i2 - i1, j2 - j1)
            gold_of[j1:j1 + paired] = np.arange(i1, i1 + paired)
            insert_at[j1 + paired:j2] = i2
        for _, i2, j1, j2 in alignment.unsearched:  # not aligned: text each side lacks, none paired
            gold_of[j1:j2] = -1
            insert_at[j1:j2] = i2
        own = np.zeros(n, dtype=bool)
        for stretch in alignment.extra:
            own[stretch.pred_start:stretch.pred_end] = True
        own &= gold_of < 0
        placed = np.concatenate(([0], np.cumsum((gold_of >= 0) | own)))
        starts, ends = pred.edu_starts, pred.edu_ends
        for k in np.flatnonzero(placed[ends] == placed[starts]).tolist():  # EDUs of unpaired characters only
            own[starts[k]:ends[k]] = True
        rank = np.zeros(n, dtype=np.int64)
        owned = np.flatnonzero(own)
        if owned.size:
            at = insert_at[owned]
            first = np.concatenate(([True], at[1:] != at[:-1]))
            group_start = np.maximum.accumulate(np.where(first, np.arange(owned.size), 0))
            rank[owned] = np.arange(owned.size) - group_start
        return cls(pred, alignment, gold_of, own, insert_at, rank)

    @property
    def spread(self) -> int:
        """The most characters of its own standing before one gold offset, plus one: the positions
        each gold character takes so that they fit in between."""
        return int(self.rank[self.own].max()) + 2 if self.own.any() else 1

    def place(self, gold: CharacterMap, spread: int) -> tuple[np.ndarray, np.ndarray]:
        """Start and end of each predicted EDU on the positions where gold character i starts at
        ``(i + 1) * spread`` and ends one later, and a character of its own with rank r before gold
        offset i starts at ``i * spread + 1 + r``."""
        paired = self.gold_of >= 0
        placed = np.flatnonzero(paired | self.own)
        starts, ends = self.pred.edu_starts, self.pred.edu_ends
        first = placed[np.searchsorted(placed, starts)]
        last = placed[np.searchsorted(placed, ends) - 1]
        start_at = np.where(paired, (self.gold_of + 1) * spread, self.insert_at * spread + 1 + self.rank)
        edu_starts, edu_ends = start_at[first], start_at[last] + 1
        # the gold offsets before a predicted EDU's first character and after its last
        before = np.where(paired[first], self.gold_of[first], self.insert_at[first])
        after = np.where(paired[last], self.gold_of[last] + 1, self.insert_at[last])
        n_gold = len(gold.text)
        lo = np.concatenate(([0], after))  # cut k: between EDU k and k + 1 (1-based; 0: the start)
        hi = np.concatenate((before, [n_gold]))
        missing = [(s.gold_start, s.gold_end) for s in self.alignment.missing]
        for k in np.flatnonzero(lo < hi).tolist():  # gold characters the prediction lacks, at a cut
            a, b = int(lo[k]), int(hi[k])
            if any(s < b and a < e for s, e in missing):
                continue  # text the prediction lacks: no predicted EDU covers it
            bounds = gold.bounds[(gold.bounds >= a) & (gold.bounds <= b)]
            cut = int(bounds[0]) if bounds.size else a
            if cut > a and k > 0:
                edu_ends[k - 1] = cut * spread + 1
            if cut < b and k < len(edu_starts):
                edu_starts[k] = (cut + 1) * spread
        return edu_starts, edu_ends


def _shared(gold: CharacterMap, preds: list[CharacterMap | None], carried: list[_Carried | None]) -> Placement:
    """Gold and predictions of one document on dense shared positions (ranks of the positions of
    :meth:`_Carried.place`)."""
    spread = max(c.spread for c in carried if c is not None)
    sides = [((gold.edu_starts + 1) * spread, (gold.edu_ends - 1) * spread + spread + 1)]
    for pred, c in zip(preds, carried):
        if c is not None:
            sides.append(c.place(gold, spread))
        elif pred is not None:
            sides.append(((pred.edu_starts + 1) * spread, (pred.edu_ends - 1) * spread + spread + 1))
    values = np.unique(np.concatenate([v for side in sides for v in side]))

    def dense(side: tuple[np.ndarray, np.ndarray], text: str) -> CharacterMap:
        starts, ends = np.searchsorted(values, side[0]), np.searchsorted(values, side[1])
        return CharacterMap(text, np.append(starts, ends[-1]), ends)

    maps = iter(sides)
    gold_map = dense(next(maps), gold.text)
    pred_maps = [None if pred is None else dense(next(maps), pred.text) for pred in preds]
    return Placement(gold_map, pred_maps, [None if c is None else c.alignment for c in carried])


def _report(gold: PreparedDocument, pred: PreparedDocument, gold_map: CharacterMap, pred_map: CharacterMap,
            alignment: TextAlignment, lenient: bool, notes: list[str]) -> None:
    """The warning of an approximate alignment; the error (or, ``lenient``, the warning) of text
    one side lacks."""
    files = f"prediction {pred.source or '?'} and gold {gold.source or '?'}"
    notes.append(f"document {gold.doc_id!r}: {alignment.approximate} character(s) of the {files} aligned "
                 f"approximately ({alignment.changed} changed, {alignment.inserted} inserted, "
                 f"{alignment.deleted} deleted), after undoing whitespace and tokenizer rewrites")
    problems = [_unsearched(u, gold, pred, gold_map) for u in alignment.unsearched]
    problems += [_missing(s, gold, pred, gold_map) for s in alignment.missing if not _within(s, alignment.unsearched)]
    problems += [_extra(s, gold, pred, pred_map) for s in alignment.extra if not _within(s, alignment.unsearched)]
    if not problems:
        return
    more = f" (and {len(problems) - 1} more stretch(es))" if len(problems) > 1 else ""
    message = (f"text mismatch for document {gold.doc_id!r}: {problems[0]}{more}; compared without whitespace, "
               f"tokenizer rewrites undone, a stretch of more than {MAX_APPROXIMATE} characters is not aligned "
               f"approximately")
    if not lenient:
        raise EDUMismatchError(message, fixes=("lenient",))
    notes.append(message + "; scored as text that side lacks (lenient): its boundaries and spans match nothing")


def _within(stretch: Stretch, spans: Sequence[Span]) -> bool:
    """Whether ``stretch`` lies inside one of ``spans`` (the stretches the alignment gave up on)."""
    return any(g1 <= stretch.gold_start and stretch.gold_end <= g2 and p1 <= stretch.pred_start
               and stretch.pred_end <= p2 for g1, g2, p1, p2 in spans)


def _unsearched(span: Span, gold: PreparedDocument, pred: PreparedDocument, gold_map: CharacterMap) -> str:
    g1, g2, p1, p2 = span
    first, last = gold_map.edu_at(g1), gold_map.edu_at(max(g1, g2 - 1))
    return (f"the prediction {pred.source or '?'} and the gold {gold.source or '?'} differ in more than {MAX_EDITS} "
            f"characters (deleted plus inserted) over {g2 - g1} gold characters from character {g1 + 1} "
            f"({_edus('gold', first, last)}) and {p2 - p1} predicted ones, with no text that occurs once on each "
            f"side to align them by: '{printable(gold_map.text[g1:g2], SHOWN)}'")


def _missing(stretch: Stretch, gold: PreparedDocument, pred: PreparedDocument, gold_map: CharacterMap) -> str:
    first, last = gold_map.edu_at(stretch.gold_start), gold_map.edu_at(stretch.gold_end - 1)
    return (f"the prediction {pred.source or '?'} lacks {stretch.gold_unmatched} characters of the gold "
            f"{gold.source or '?'} from character {stretch.gold_start + 1} ({_edus('gold', first, last)}): "
            f"'{printable(gold_map.text[stretch.gold_start:stretch.gold_end], SHOWN)}'")


def _extra(stretch: Stretch, gold: PreparedDocument, pred: PreparedDocument, pred_map: CharacterMap) -> str:
    first, last = pred_map.edu_at(stretch.pred_start), pred_map.edu_at(stretch.pred_end - 1)
    text = printable(pred_map.text[stretch.pred_start:stretch.pred_end], SHOWN)
    return (f"the prediction {pred.source or '?'} has {stretch.pred_unmatched} characters that the gold "
            f"{gold.source or '?'} lacks, from its character {stretch.pred_start + 1} "
            f"({_edus('predicted', first, last)}): '{text}'")


def _edus(side: str, first: int, last: int) -> str:
    return f"{side} EDU {first}" if first == last else f"{side} EDUs {first}-{last}"


def segmentation(placements: Sequence[Placement], system: int) -> AlignedSegmentation:
    """Boundary counts of each document for one system, and its alignment counts; a missing prediction
    predicts no boundary."""
    boundaries = BoundaryCounts.of((p.gold.edu_starts, m.edu_starts if (m := p.pred[system]) is not None else ())
                                   for p in placements)
    counts = np.array([(a.changed, a.inserted, a.deleted) if (a := p.alignments[system]) is not None else (0, 0, 0)
                       for p in placements], dtype=np.int64).reshape(-1, 3)
    return AlignedSegmentation(boundaries, counts[:, 0], counts[:, 1], counts[:, 2])


def align(placements: Sequence[Placement], gold_arrays: TupleArrays, pred_arrays: Sequence[TupleArrays],
          edu_columns: Sequence[str] = (), span_key: SpanKey = "chars"
          ) -> tuple[TupleArrays, list[TupleArrays], list[AlignedSegmentation]]:
    """Gold and predicted rows on (renumbered) character spans, and each system's segmentation.

    ``gold_arrays`` and ``pred_arrays`` hold the rows over EDU numbers of the documents of
    ``placements`` (in order), gold and each system's (:func:`place`); ``edu_columns`` name the value
    columns that hold EDU numbers, ``span_key`` how spans are keyed (:func:`to_characters`).
    """
    char_sides = [to_characters(gold_arrays, [p.gold for p in placements], edu_columns, span_key)]
    segmentations = []
    for s, arrays in enumerate(pred_arrays):
        char_sides.append(to_characters(arrays, [p.pred[s] for p in placements], edu_columns, span_key))
        segmentations.append(segmentation(placements, s))
    renumbered = renumber(char_sides)
    return renumbered[0], renumbered[1:], segmentations
