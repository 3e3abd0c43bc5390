"""Gold and prediction of one document must be over the same EDUs: same count, same text.

EDU texts are compared where both sides carry text (formats without text, and empty EDU
strings, are not compared). Parsers re-tokenise the text they segment, so the comparison
ignores what tokenisation changes and nothing else (case and every other character count):

* all whitespace is removed (so ``do n't`` equals ``don't``, ``rise ,`` equals ``rise,``,
  and collapsed, non-breaking or extra spaces do not matter);
* the Penn Treebank bracket escapes are undone: ``-LRB-``/``-LB-`` to ``(``,
  ``-RRB-``/``-RB-`` to ``)``, ``-LCB-`` to ``{``, ``-RCB-`` to ``}``, ``-LSB-`` to ``[``,
  ``-RSB-`` to ``]``;
* PTB and LaTeX double quotes (two backquotes, two single quotes) become ``"``;
* what tokenizers (Stanford's PTBTokenizer among them) rewrite is folded to one form on both
  sides: curly and other double quotes (`` “ ” „ ‟ « » ″ ``) to ``"``, curly single quotes, the
  backquote and the prime (`` ‘ ’ ‚ ‛ ` ′ ``) to ``'``; en and em dashes, the figure dash, the
  horizontal bar and ``--``/``---`` to ``—``; the unicode hyphens and the minus sign to ``-``;
  three or more periods in a token to ``…``; then, with whitespace removed, two periods, and
  ``…`` with a period, to one (Stanford doubles the period of a sentence that ends with an
  abbreviation: ``Wis. .``), and three or more to ``…``; currency as Stanford
  normalises it: ``£`` to ``#``, ``¢`` to ``cents``, and ``€``, ``¥`` and the other currency
  signs to ``$``.

A difference is an EDUMismatchError naming the document, both files, the first differing
EDU and both texts, unless ``lenient`` (then a warning, and the document is scored). Its
``fixes`` suggest ``edus_aligned`` (scoring on characters, :mod:`rstkit.metrics.aligned`)
where that can help: for a count mismatch, and for differing EDU texts over the same text.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from ..errors import EDUMismatchError, printable


class Document(Protocol):
    """What the comparisons of gold and prediction read of a document prepared for scoring
    (:class:`~rstkit.metrics.prepared.PreparedDocument`)."""

    @property
    def doc_id(self) -> str: ...
    @property
    def source(self) -> str | None: ...
    @property
    def n_edus(self) -> int: ...
    @property
    def edu_texts(self) -> Sequence[str]: ...
    @property
    def tokens(self) -> Sequence[str]: ...


_ESCAPES = {"-LRB-": "(", "-LB-": "(", "-RRB-": ")", "-RB-": ")", "-LCB-": "{", "-RCB-": "}",
            "-LSB-": "[", "-RSB-": "]", "``": '"', "''": '"'}
_ESCAPE = re.compile("|".join(re.escape(e) for e in sorted(_ESCAPES, key=len, reverse=True)))
#: single characters folded to one form (one character or a word, as Stanford's tokenizer writes them)
_FOLDS = str.maketrans({**dict.fromkeys("“”„‟«»″", '"'), **dict.fromkeys("‘’‚‛`′", "'"),
                        **dict.fromkeys("–—‒―", "—"), **dict.fromkeys("‐‑−", "-"),
                        "£": "#", "¢": "cents",
                        **dict.fromkeys("€¥¤₠₡₢₣₤₥₦₧₨₩₪₫₭₮₯₰₱₲₳₴₵₶₷₸₹₺₻₼₽₾₿", "$")})
#: ``--`` and ``---`` (before whitespace is removed: ``-- --`` is two dashes)
_DASHES = re.compile("-{2,3}")
#: three or more periods within a token (``... ...`` is two ellipses); then, once whitespace is removed,
#: runs of periods and a period after ``…`` (``Wis. .`` is ``Wis..``)
_ELLIPSIS = re.compile(r"\.{3,}")
_PERIODS = re.compile(r"\.{2,}|…\.")


def _periods(match: re.Match[str]) -> str:
    """Two periods -> one (a doubled sentence-final period); three or more -> ``…``; ``….`` -> ``…``."""
    text = match.group()
    return "." if text == ".." else "…"


def normalise_edu_text(text: str) -> str:
    """``text`` as compared: PTB escapes undone, all whitespace removed, tokenizer rewrites folded
    to one form (see the module's docstring), case kept."""
    tokens = _ELLIPSIS.sub("…", _DASHES.sub("—", _ESCAPE.sub(lambda m: _ESCAPES[m.group()], text))).translate(_FOLDS)
    return _PERIODS.sub(_periods, "".join(tokens.split()))


def check_same_edus(gold: Document, pred: Document, lenient: bool, notes: list[str]) -> None:
    """Raise EDUMismatchError (or, when ``lenient``, add a warning to ``notes``) if the
    two documents prepared for scoring of a document have different EDU counts or texts."""
    if gold.n_edus != pred.n_edus:
        message = (f"EDU count mismatch for document {gold.doc_id!r}: gold {gold.source or '?'} has "
                   f"{gold.n_edus} EDUs, prediction {pred.source or '?'} has {pred.n_edus}")
        if not lenient:
            raise EDUMismatchError(message, fixes=("lenient", "edus_aligned"))
        notes.append(message + "; scored by EDU numbers (lenient)")
        return
    gold_texts, pred_texts = gold.edu_texts, pred.edu_texts
    if gold_texts == pred_texts:  # the common case, without normalising
        return
    differing = [i for i, (g, p) in enumerate(zip(gold_texts, pred_texts), start=1) if _differ(g, p)]
    if not differing:
        return
    first = differing[0]
    message = (f"EDU text mismatch for document {gold.doc_id!r}: {len(differing)} of {gold.n_edus} EDUs differ, "
               f"the first is EDU {first}: '{printable(gold_texts[first - 1], 60)}' in gold "
               f"{gold.source or '?'}, '{printable(pred_texts[first - 1], 60)}' in prediction "
               f"{pred.source or '?'} (compared without whitespace, PTB escapes and tokenizer rewrites undone)")
    if not lenient:
        same_text = _document_text(gold_texts) == _document_text(pred_texts)
        raise EDUMismatchError(message, fixes=("lenient", "edus_aligned") if same_text else ("lenient",))
    notes.append(message + "; scored by EDU numbers (lenient)")


def _document_text(texts: Sequence[str]) -> str:
    return "".join(map(normalise_edu_text, texts))


def _differ(gold: str, pred: str) -> bool:
    """True when both texts are non-empty and differ after normalisation."""
    if gold == pred or not gold or not pred:  # equal texts are equal normalised: most pairs stop here
        return False
    g, p = normalise_edu_text(gold), normalise_edu_text(pred)
    return bool(g) and bool(p) and g != p
