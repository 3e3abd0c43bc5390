"""Raw text -> GUM-like tokens and paragraphs, as character spans into the text.

GUM (the training corpus) tokenises like Universal Dependencies English: punctuation is
separated (``Portsmouth , United``), clitics are split off (``do n't``, ``it 's``,
``ca n't``, ``gon na``), hyphens between words are tokens (``Eye - Tracking``) except
after common prefixes (``non-profit``, ``re-elected``), and abbreviations, numbers,
URLs and e-mail addresses stay whole (``U.S.``, ``e.g.``, ``40,000``, ``7.2``).
:func:`tokenize` reproduces these conventions on raw text, so that the segmenter sees at
prediction time the tokens it was trained on.

Every token is a ``(start, end)`` span of ``text``; tokens are ordered, disjoint, contain
no whitespace and together cover every non-whitespace character, so nothing of the
text is lost: the text is its tokens plus the whitespace between them.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import RSTKitError

Span = tuple[int, int]

#: prefixes GUM keeps attached to the hyphenated word (``non-profit``, ``co-op``); other hyphens are tokens
HYPHEN_PREFIXES = frozenset(["non", "re", "cross", "co", "pro", "anti", "pre", "mid", "semi", "proto", "post",
                             "counter", "mini", "inter", "sub", "multi", "un", "e", "ex"])
#: abbreviations that keep their final period (compared lower-cased, without the period); words that often
#: end a sentence (``no``, ``ed``) are left out
ABBREVIATIONS = frozenset(["mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "vs", "etc", "al", "inc", "ltd", "corp",
                           "pp", "cf", "approx", "fig", "figs", "vol", "vols", "eq", "eqs", "dept", "sgt", "capt",
                           "lt", "rev", "jan", "feb", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
                           "ave", "blvd", "mt"])

_SPACE = re.compile(r"\s+")
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n\s*")
_CLOSING = r"[.,;:!?)\]}'\"”’]"
#: a URL runs to its chunk's last character that is not closing punctuation (at least one
#: character after its prefix); an e-mail address begins where a run of the characters of
#: its local part begins. Both are written so that a long chunk is scanned once, not once
#: per token in it (``a+a+a+...``, ``http://))))...x``)
_URL = (rf"(?:https?://|www\.)(?:\S*(?!{_CLOSING})\S|\S)"
        r"|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_TRAILING = rf"(?={_CLOSING}*(?:$|\s))"
_PIECE = re.compile(
    rf"(?P<url>(?:{_URL}){_TRAILING})"
    r"|(?P<initials>(?:[^\W\d_]{1,2}\.){2,})"                      # U.S. e.g. i.e. a.m. Ph.D.
    r"|(?P<number>\d+(?:[.,:/]\d+)*(?:st|nd|rd|th|s|am|pm)?(?![^\W_]))"
    r"|(?P<hashtag>#[^\W_]\w*)"
    r"|(?P<word>[^\W_](?:\w|[-'’&](?=[^\W_]))*(?:-$)?)"             # word, maybe with - ' & inside; a cut-off
                                                                   # word keeps its final hyphen (``th-``)
    r"|(?P<underscore>_+)"
    r"|(?P<ellipsis>\.{2,}|…)"
    r"|(?P<dashes>-{2,})"
    r"|(?P<other>[^\w\s])",
    re.UNICODE,
)
_CLITIC = re.compile(r"(?i)(?<=[^\W_])(n['’]t|['’](?:s|re|ve|ll|d|m))$")
_SPLIT_WORDS = {"cannot": 3, "gonna": 3, "wanna": 3, "gotta": 3}


def read_plain_text(path: str | Path) -> str:
    """The text of a UTF-8 file (a byte-order mark dropped), or an error naming the file,
    the line and the first byte that is not UTF-8."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RSTKitError(f"cannot read: {exc.strerror or exc}", str(path)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise RSTKitError(f"not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start} cannot be decoded "
                          "(convert the file to UTF-8)", str(path), line) from None


def paragraphs(text: str) -> list[Span]:
    """Paragraphs of ``text``: the runs of non-whitespace text between blank lines, each
    as ``(start, end)`` from its first to its last non-whitespace character."""
    spans, start = [], 0
    for blank in _BLANK_LINE.finditer(text):
        spans.extend(_trimmed(text, start, blank.start()))
        start = blank.end()
    spans.extend(_trimmed(text, start, len(text)))
    return spans


def _trimmed(text: str, start: int, end: int) -> list[Span]:
    chunk = text[start:end]
    stripped = chunk.strip()
    if not stripped:
        return []
    left = start + (len(chunk) - len(chunk.lstrip()))
    return [(left, left + len(stripped))]


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """GUM-like tokens of ``text[start:end]`` as spans of ``text``."""
    end = len(text) if end is None else end
    tokens: list[Span] = []
    position = start
    for space in _SPACE.finditer(text, start, end):
        if space.start() > position:
            tokens.extend(_chunk_tokens(text, position, space.start()))
        position = space.end()
    if position < end:
        tokens.extend(_chunk_tokens(text, position, end))
    return tokens


def _item_position(text: str, position: int) -> bool:
    """Whether a list item number may stand at ``position``: at the start of a line, or
    after the end of a sentence or clause (``... at night. 2. Metformin``, ``factors: 1.``)."""
    i = position - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i < 0 or text[i] in "\n\r.:;!?)"


def _chunk_tokens(text: str, start: int, end: int) -> list[Span]:
    """Tokens of one whitespace-free chunk."""
    chunk = text[start:end]
    if re.fullmatch(r"\d{1,2}\.", chunk) and _item_position(text, start):  # a numbered list item: "1."
        return [(start, end)]
    tokens: list[Span] = []
    for piece in _PIECE.finditer(chunk):
        kind, a, b = piece.lastgroup, start + piece.start(), start + piece.end()
        if tokens and a < tokens[-1][1]:  # the period an abbreviation took
            continue
        if kind == "word":
            tokens.extend(_word_tokens(text, a, b, end))
        else:
            tokens.append((a, b))
    return tokens


def _word_tokens(text: str, start: int, end: int, chunk_end: int) -> list[Span]:
    """A word (letters and digits with inner hyphens, apostrophes, ampersands): hyphens
    split unless after a prefix, clitics split off, an abbreviation takes its period."""
    if end < chunk_end and text[end] == "." and _abbreviation(text[start:end]):
        return [(start, end + 1)]
    if text[end - 1] == "-":  # a cut-off word
        return [(start, end)]
    parts: list[Span] = []
    position = start
    for i, piece in enumerate(text[start:end].split("-")):
        if i:
            previous = parts[-1]
            if text[previous[0]:previous[1]].lower() in HYPHEN_PREFIXES:
                parts[-1] = (previous[0], position + 1 + len(piece))
                position += 1 + len(piece)
                continue
            parts.append((position, position + 1))
            position += 1
        parts.append((position, position + len(piece)))
        position += len(piece)
    return [token for a, b in parts for token in _clitic_tokens(text, a, b)]
def _clitic_tokens(text: str, start: int, end: int) -> list[Span]:
    word = text[start:end]
    split = _SPLIT_WORDS.get(word.lower())
    if split:
        return [(start, start + split), (start + split, end)]
    clitic = _CLITIC.search(word)
    if clitic:
        cut = start + clitic.start()
        return [(start, cut), (cut, end)]
    return [(start, end)]


def _abbreviation(word: str) -> bool:
    """``word`` keeps a following period: a known abbreviation or a single capital initial."""
    return word.lower() in ABBREVIATIONS or (len(word) == 1 and word.isupper())
