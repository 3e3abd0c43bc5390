"""EDU segmentation scored as the DISRPT shared tasks' official scorer does.

A document is a sequence of tokens, each beginning an EDU or not: a DISRPT ``.tok``/``.conllu``
document (:mod:`rstkit.formats.disrpt`: ``Seg=B-seg`` since 2023, ``BeginSeg=Yes`` in 2019-2021; a
document with neither labelling is an error, never a document without boundaries), or a tree of any
format, whose EDUs give the boundaries over their whitespace tokens (the first token of each EDU
begins one). Each token that begins an EDU is one row, keyed by its position; the one measure
``seg`` matches rows of the same key, so that, summed over all tokens of all documents (micro), a
true positive is a token both sides mark, a false positive one only the prediction marks, a false
negative one only the gold marks: the official scorer's counts (``utils/disrpt_eval_2024.py`` in
disrpt/sharedtask2025). Document-initial tokens count like any other (``docinit=counted``); with
``sentence_initial="dropped"`` (the scorer's ``-nb``) every sentence-initial token is no boundary
on either side, which needs sentences (``.conllu``, or trees whose EDUs carry sentence numbers).
Multi-word-token and empty-node lines are no tokens. A side with no boundary at all scores 0, not an
error.

Both sides must have the same tokens (:func:`check_tokens`: an error naming the document and the
first differing token); ``lenient`` keys rows by character offset in the text without whitespace
instead, so that a prediction over other tokens of the same text is scored, with a warning.

:class:`BoundaryCounts` is the one count of boundaries outside the family's rows: per document, the
positions where gold and prediction begin an EDU, each side's number and how many both have, and
their micro precision, recall and F1. It scores the EDUs of trees on aligned characters beside the
tree metrics (:mod:`~rstkit.metrics.aligned`), the segmenter on GUM (:mod:`rstkit.segment.evaluate`,
its training's development F1 and threshold) and, in the tests, inferred sentence boundaries; the
family itself is scored by the pipeline from its rows like every family, with the same counts.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ..errors import EDUMismatchError, RSTKitError, printable
from ..formats.disrpt import DisrptDocument
from ..settings import ZERO_DIVISION, SentenceInitial, ZeroDivision
from ..tree import RSTTree
from .average import divide, f1_score, percent
from .edus import Document
from .family import FamilySettings, MetricFamily, Row, Scoring
from .prepared import PreparationSpec, PreparedDocument, Rows, TokenSpans, TokenText


@dataclass(frozen=True)
class SegmentationSettings(FamilySettings):
    """The segmentation family's settings: ``sentence_initial``, ``counted`` (the default) or ``dropped``,
    the DISRPT scorer's ``-nb``: every sentence-initial token is no boundary on both sides (sentences:
    ``.conllu`` files, or trees whose EDUs carry sentence numbers); the signature's ``sentinit``."""

    sentence_initial: SentenceInitial = "counted"

    signature_keys = MappingProxyType({"sentinit": "sentence_initial"})


class EDUSegmentation(MetricFamily):
    """Tokens that begin an EDU, DISRPT's way (see the module docstring)."""

    name = "segmentation"
    title = "EDU segmentation (DISRPT)"
    columns = ()
    label_columns = frozenset()
    measures = MappingProxyType({"seg": ()})
    table_measures = ("seg",)
    relation_column = ""
    default_binarization = "none"
    settings_type = SegmentationSettings
    descriptive_keys = ("seg", "docinit")
    one_edu_rows = True
    token_level = True

    def rows(self, tree: RSTTree, config: Scoring, *, gold: bool) -> tuple[list[Row], int | None]:
        """One row per token of ``tree`` that begins an EDU (the first of each EDU's whitespace tokens)."""
        tokens: list[str] = []
        boundaries: list[bool] = []
        sentence_starts: list[bool] | None = []
        previous: int | None = None
        for edu in tree.edus:
            words = edu.text.split()
            tokens += words
            boundaries += [True] + [False] * (len(words) - 1) if words else []
            if sentence_starts is not None and words:
                if edu.sentence is None:
                    sentence_starts = None
                else:
                    sentence_starts += [edu.sentence != previous] + [False] * (len(words) - 1)
                    previous = edu.sentence
        if tree.edus and not tokens:
            raise RSTKitError(f"document {tree.doc_id!r} has no EDU text, so no tokens to segment", tree.source)
        where = f"document {tree.doc_id!r} ({tree.source or 'a tree'}), whose EDUs carry no sentence numbers"
        return boundary_rows(tokens, boundaries, sentence_starts, config, where), None

    def signature_items(self, config: Scoring) -> list[tuple[str, str]]:
        return [("seg", "disrpt"), ("docinit", "counted"), *SegmentationSettings.of(config).signature_items()]

    def check_pair(self, gold: Document, pred: Document, config: Scoring, notes: list[str]) -> None:
        """The same tokens on both sides (:func:`check_tokens`)."""
        check_tokens(gold, pred, config.lenient, notes)


SEGMENTATION = EDUSegmentation()


def boundary_rows(tokens: Sequence[str], boundaries: Sequence[bool], sentence_starts: Sequence[bool] | None,
                  config: Scoring, where: str) -> list[Row]:
    """The rows of a document's boundaries under ``config`` (:func:`boundary_keys`), as a list."""
    keys = boundary_keys(tokens, np.array(boundaries, dtype=bool),
                         None if sentence_starts is None else np.array(sentence_starts, dtype=bool), config, where)
    return [(key, key) for key in keys.tolist()]


def boundary_keys(tokens: Sequence[str], boundaries: np.ndarray, sentence_starts: np.ndarray | None,
                  config: Scoring, where: str) -> np.ndarray:
    """The key of each boundary of a document under ``config``: its token's number, or with
    ``lenient`` its character offset (whitespace left out); sentence-initial tokens dropped when
    the configuration says so (``where`` names the document in the error when it has no sentences)."""
    if SegmentationSettings.of(config).sentence_initial == "dropped":
        if sentence_starts is None:
            raise RSTKitError(f"dropping sentence-initial boundaries (--no-sentence-initial, the DISRPT scorer's "
                              f"-nb) needs sentences (.conllu files); {where}")
        boundaries = boundaries & ~sentence_starts
    positions = np.flatnonzero(boundaries)
    if not config.lenient:
        return positions
    lengths = np.fromiter((len("".join(token.split())) for token in tokens), dtype=np.int64, count=len(tokens))
    offsets = np.cumsum(lengths) - lengths
    result: np.ndarray = offsets[positions]
    return result


def prepare_disrpt(document: DisrptDocument, spec: PreparationSpec) -> PreparedDocument:
    """A DISRPT document prepared for scoring: rows of the segmentation family; other families
    get the error that a segmentation has no tree. A document without segmentation labels is an
    error naming its file and line (:meth:`~rstkit.formats.disrpt.DisrptDocument.labelled`).
    Its tokens and EDU texts are held as one string (:class:`~rstkit.metrics.prepared.TokenText`)."""
    document = document.labelled()
    tokens = TokenText(document.token_text, document.n_tokens)
    rows: dict[str, Rows | RSTKitError] = {}
    where = f"document {document.doc_id!r} of {document.source} has none (a .tok file)"
    for config in spec.configs:
        family = config.family
        if not family.token_level:
            rows[config.metric] = RSTKitError(
                f"document {document.doc_id!r} is a DISRPT segmentation, not a tree: only --metric "
                f"{SEGMENTATION.name} scores it", document.source)
            continue
        try:
            keys = boundary_keys(tokens, document.boundary_mask, document.sentence_mask, config, where)
            rows[config.metric] = Rows.of_table(np.stack([keys, keys], axis=1), family)
        except RSTKitError as error:
            rows[config.metric] = error
    firsts = document.edu_starts()
    return PreparedDocument(document.doc_id, document.source, len(firsts), TokenSpans(tokens, firsts), rows,
                            given_tokens=tokens)


def check_tokens(gold: Document, pred: Document, lenient: bool, notes: list[str]) -> None:
    """Raise EDUMismatchError unless both documents have the same tokens; with ``lenient``, the same
    text without whitespace is enough (a warning names the first differing token)."""
    gold_tokens, pred_tokens = gold.tokens, pred.tokens
    if gold_tokens == pred_tokens:
        return
    first = next((i for i, (g, p) in enumerate(zip(gold_tokens, pred_tokens)) if g != p),
                 min(len(gold_tokens), len(pred_tokens)))
    shown = [f"'{printable(tokens[first], 40)}'" if first < len(tokens) else "nothing (its last token ended before)"
             for tokens in (gold_tokens, pred_tokens)]
    message = (f"token mismatch in document {gold.doc_id!r}: gold {gold.source or '?'} has {len(gold_tokens)} "
               f"tokens, prediction {pred.source or '?'} {len(pred_tokens)}; the first difference is token "
               f"{first + 1}: {shown[0]} in gold, {shown[1]} in prediction")
    if not lenient:
        raise EDUMismatchError(message, fixes=("lenient",))
    if _characters(gold_tokens) != _characters(pred_tokens):
        raise EDUMismatchError(message + "; the texts differ too (whitespace aside), so tokens cannot be aligned "
                                         "by characters")
    notes.append(message + "; boundaries aligned by characters (lenient)")


def _characters(tokens: Sequence[str]) -> str:
    return "".join("".join(token.split()) for token in tokens)


@dataclass(frozen=True)
class BoundaryCounts:
    """EDU boundaries per document (arrays of shape (n_docs,)): the gold's, the prediction's, and
    those both have (``matched``), as DISRPT's scorer counts them: a true positive is a matched
    boundary, a false positive a predicted one that is not, a false negative a gold one that is not.

    >>> counts = BoundaryCounts.of([([0, 4, 9], [0, 4, 6, 12]), ([0, 5], [0])])
    >>> counts.matched.tolist(), int(counts.gold.sum()), int(counts.pred.sum())
    ([2, 1], 5, 5)
    >>> round(counts.precision, 3), round(counts.recall, 3)
    (0.6, 0.6)
    """

    gold: np.ndarray
    pred: np.ndarray
    matched: np.ndarray

    @classmethod
    def of(cls, documents: Iterable[tuple[Iterable[int] | np.ndarray, Iterable[int] | np.ndarray]]
           ) -> BoundaryCounts:
        """The counts of ``(gold positions, predicted positions)`` per document (token numbers,
        character offsets: any positions where an EDU begins; a position given twice counts once)."""
        gold, pred, matched = [], [], []
        for gold_positions, pred_positions in documents:
            g, p = _positions(gold_positions), _positions(pred_positions)
            gold.append(g.size)
            pred.append(p.size)
            matched.append(np.intersect1d(g, p, assume_unique=True).size)
        return cls(np.array(gold, dtype=np.int64), np.array(pred, dtype=np.int64), np.array(matched, dtype=np.int64))

    def __add__(self, other: BoundaryCounts) -> BoundaryCounts:
        """The documents of both."""
        return BoundaryCounts(np.concatenate([self.gold, other.gold]), np.concatenate([self.pred, other.pred]),
                              np.concatenate([self.matched, other.matched]))

    def select(self, mask: np.ndarray) -> BoundaryCounts:
        """The counts of the documents where ``mask`` is true."""
        return BoundaryCounts(self.gold[mask], self.pred[mask], self.matched[mask])

    @property
    def precision(self) -> float:
        """Micro precision over the documents, a fraction (0 where nothing is predicted)."""
        return float(divide(int(self.matched.sum()), int(self.pred.sum())))

    @property
    def recall(self) -> float:
        """Micro recall over the documents, a fraction (0 where the gold has no boundary)."""
        return float(divide(int(self.matched.sum()), int(self.gold.sum())))

    @property
    def f1(self) -> float:
        """The harmonic mean of :attr:`precision` and :attr:`recall` (0 where both are 0)."""
        return float(f1_score(self.precision, self.recall))

    def summary(self, *, zero_division: ZeroDivision = ZERO_DIVISION) -> dict[str, float | int]:
        """Micro precision, recall, F1 in percent (``zero_division`` where a denominator is 0, see
        :func:`~rstkit.metrics.average.divide`) and the three counts: what reports print."""
        g, p, m = int(self.gold.sum()), int(self.pred.sum()), int(self.matched.sum())
        precision = float(percent(m, p, zero_division=zero_division))
        recall = float(percent(m, g, zero_division=zero_division))
        f1 = float(f1_score(precision, recall))
        return {"precision": precision, "recall": recall, "f1": f1, "gold": g, "pred": p, "matched": m}


def _positions(positions: Iterable[int] | np.ndarray) -> np.ndarray:
    """``positions`` as a sorted array of distinct int64."""
    given = positions if isinstance(positions, np.ndarray) else np.fromiter(positions, dtype=np.int64)
    return np.unique(given.astype(np.int64, copy=False))
