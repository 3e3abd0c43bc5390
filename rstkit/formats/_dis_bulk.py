"""The .dis forest path's bulk reading (:func:`bulk_nodes`): many files' nodes at once from their UTF-8
bytes with numpy, where the regular-expression pass (``_dis_direct._NODE``) costs a match, a tuple and
its strings per node. Private: :func:`rstkit.formats._dis_direct.direct_forest` uses it.

It reads a file only where its layout is one ``_NODE`` reads node by node, as that pass reads it, and
declines every other file (the regular-expression pass then reads it): a text body is what lies between
``text``, whitespace and ``_!``, and the first ``_!`` then followed by optional whitespace and ``)``;
outside the bodies, the file is brackets, words and whitespace, ASCII only (so that whitespace and
digits are ASCII's, as ``\\s`` and ``\\d`` are on such text), tokenized at once; each node is
``( Nucleus|Satellite|Root ( leaf N ) [( rel2par R )] ( text BODY ) )`` or
``( Nucleus|Satellite|Root ( span N N ) [( rel2par R )]``, followed only by closing brackets up to the
next node. The checks of a tree (numbering, extents, arity) are ``direct_forest``'s, on what both give.
tests/formats/test_dis_bulk.py checks that both passes give the same nodes of every file it reads.

Kept for speed (benchmarks/bench_twins.py): ``direct_forest`` on GUM's 560 lisp_nary and lisp_binary files in
chunks of 62 took 0.34 s of CPU with it against 0.88 s with the regular-expression pass alone; on the 2,000
RST-DT-like documents of benchmarks/bench_references.py, 0.24-0.26 s against 0.32-0.41 s per 1,000 files."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress

import numpy as np

from ._bytewords import LOW, PADDING, Words, word


@dataclass
class NodeColumns:
    """Nodes of several files in file order, one file after the other: ``counts[f]`` nodes of file ``f``
    (0: a file not read); per node the length of its nuclearity word (``Nucleus`` 7, ``Satellite`` 9,
    ``Root`` 4), whether it is a leaf, its leaf number or declared first leaf, its declared last leaf (0
    for a leaf), its relation as written ("" for none) as a code into ``relation_names`` (each distinct
    relation once: the relations are few, the nodes many) and the closing brackets after it; ``edu_texts``: per
    file, its leaves' EDU texts (the text bodies stripped, RST-DT's paragraph mark ``<P>`` at their end taken
    off) joined, and where each ends (int32)."""

    counts: np.ndarray
    word: np.ndarray
    leaf: np.ndarray
    number: np.ndarray
    last: np.ndarray
    relation: np.ndarray
    relation_names: list[str]
    closes: np.ndarray
    edu_texts: list[tuple[str, np.ndarray]]

    def relations(self) -> list[str]:
        """Each node's relation as written ("" for none)."""
        return list(map(self.relation_names.__getitem__, self.relation.tolist()))


#: each byte's class: whitespace (ASCII's, as ``str.isspace`` has it), a bracket, a body's stand-in, a word's
#: byte, or refused (control characters other than whitespace, and non-ASCII: a file with one is declined)
_SPACE, _OPEN, _CLOSE, _TEXT, _WORD, _REFUSED = range(6)
_CLASS = bytearray([_REFUSED] * 256)
_CLASS[33:128] = bytes([_WORD]) * 95
for _byte in (9, 10, 11, 12, 13, 28, 29, 30, 31, 32):
    _CLASS[_byte] = _SPACE
_CLASS[ord("(")], _CLASS[ord(")")] = _OPEN, _CLOSE
#: what a body is replaced by outside the bodies (a file holding it is declined)
_BODY = b"\x01"
_CLASS[_BODY[0]] = _TEXT
_CLASSES = bytes(_CLASS)
_IS_SPACE = np.frombuffer(_CLASSES, np.uint8) == _SPACE
#: how far past ``_!`` the bracket that ends a body, or past a relation its bracket, is looked for (more
#: whitespace declines the file)
_REACH = 16
_LONGEST_NUMBER = 8
_MARK = int.from_bytes(b"_!", "little")


def _marks(data: bytes) -> np.ndarray:
    """The positions of ``_!`` in ``data``, in order."""
    even = np.frombuffer(data, "<u2", len(data) // 2)
    odd = np.frombuffer(data, "<u2", (len(data) - 1) // 2, offset=1)
    both = np.concatenate((np.flatnonzero(even == _MARK) * 2, np.flatnonzero(odd == _MARK) * 2 + 1))
    both.sort()
    return both


def bulk_nodes(texts: Sequence[str], encoded: Sequence[bytes] | None = None) -> tuple[np.ndarray, NodeColumns]:
    """(which files were read, their nodes): see the module's docstring. ``encoded``, where given, holds each
    text's UTF-8."""
    n_files = len(texts)
    nothing = np.zeros(0, np.int64)
    none_read = np.zeros(n_files, np.bool_), NodeColumns(np.zeros(n_files, np.int64), nothing, nothing.astype(np.bool_),
                                                         nothing, nothing, nothing, [], nothing, [NO_TEXTS] * n_files)
    candidates = [i for i, text in enumerate(texts) if "//TT_ERR" not in text and "\x01" not in text]
    try:
        utf8 = [texts[i].encode("utf-8") for i in candidates] if encoded is None else [encoded[i] for i in candidates]
    except UnicodeEncodeError:  # a lone surrogate: the regular-expression pass reads them
        return none_read
    if not candidates:
        return none_read
    sizes = np.fromiter(map(len, utf8), np.int64, len(utf8))
    data = b"\n".join([*utf8, bytes(PADDING)])  # each file followed by a newline, the last by zeros too
    file_start = np.cumsum(sizes + 1) - sizes - 1
    raw = np.frombuffer(data, np.uint8)
    bad = np.zeros(len(utf8), np.bool_)  # per file

    # bodies: each file's `_!` alternately open one (after whitespace) and close it (before whitespace and `)`)
    marks = _marks(data)  # none in the padding
    mark_file = np.searchsorted(file_start, marks, "right") - 1
    first_mark = np.searchsorted(marks, file_start)
    opening = (np.arange(len(marks)) - first_mark[mark_file]) % 2 == 0
    after = marks + 2
    for _ in range(_REACH):
        spaced = _IS_SPACE[raw[after]]
        if not spaced.any():
            break
        after[spaced] += 1
    wrong = np.where(opening, ~_IS_SPACE[raw[np.maximum(marks - 1, 0)]] | (marks == file_start[mark_file]),
                     raw[after] != ord(")"))
    bad[mark_file[wrong]] = True
    bad |= np.bincount(mark_file, minlength=len(utf8)) % 2 == 1
    kept = ~bad[mark_file]
    body_open, body_close = marks[kept & opening], marks[kept & ~opening]
    body_file = mark_file[kept & opening]

    # the structure: the files without their bodies, each body one byte, as byte classes
    cuts = np.concatenate(([0], body_close + 2)).tolist()
    ends = np.concatenate((body_open, [len(data)])).tolist()  # the structure keeps the padding
    structure = _BODY.join([data[a:b] for a, b in zip(cuts, ends)])
    text_start, text_end = _edu_text_ranges(raw, body_open + 2, body_close, bad, body_file)
    removed = np.concatenate(([0], np.cumsum(body_close + 1 - body_open)))  # bytes removed before each body's end
    struct_start = file_start - removed[np.searchsorted(body_open, file_start)]
    s_size = len(structure) - PADDING - 1
    classes = structure.translate(_CLASSES)
    if classes.find(bytes([_REFUSED]), 0, s_size) >= 0:
        refused = np.flatnonzero(np.frombuffer(classes, np.uint8, s_size) == _REFUSED)
        bad[np.searchsorted(struct_start, refused, "right") - 1] = True
    cls = np.frombuffer(classes, np.uint8)  # past the end: a newline, then refused bytes (zeros)
    padded = np.frombuffer(structure, np.uint8)

    # tokens: brackets, bodies and runs of word bytes
    in_word = cls[:s_size] == _WORD
    begins = cls[:s_size] != _SPACE
    begins[1:] &= ~(in_word[1:] & in_word[:-1])
    token = np.flatnonzero(begins)
    n_tokens = len(token)
    kind = np.append(cls[token], np.full(16, _SPACE, np.uint8))  # _SPACE: past the last token
    pad_token = np.append(token, np.full(16, s_size, np.int64))
    file_tokens = np.searchsorted(token, struct_start)  # each file's first token
    file_token_end = np.append(file_tokens[1:], n_tokens)
    words = Words(padded, s_size)

    # nodes: `( WORD (`, nowhere else in a file of this layout
    k = np.flatnonzero((kind[:n_tokens] == _OPEN) & (kind[1:n_tokens + 1] == _WORD) & (kind[2:n_tokens + 2] == _OPEN))
    node_file = np.searchsorted(struct_start, token[k], "right") - 1

    def keyword(offset: int | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The token ``offset`` after each node's first: where it starts, and its first 8 bytes (0 where it is
        not a word)."""
        at = pad_token[k + offset]
        return at, np.where(kind[k + offset] == _WORD, words.at(at), 0)

    def is_word(found: tuple[np.ndarray, np.ndarray], text: bytes) -> np.ndarray:
        at, head = found
        same: np.ndarray = ((head & LOW[min(len(text), 8)]) == word(text[:8])) & (cls[at + len(text)] != _WORD)
        if len(text) > 8:
            same &= (words.at(at + 8) & LOW[len(text) - 8]) == word(text[8:])
        return same

    first = keyword(1)
    nucleus, satellite, root = is_word(first, b"Nucleus"), is_word(first, b"Satellite"), is_word(first, b"Root")
    third = keyword(3)
    leaf, span = is_word(third, b"leaf"), is_word(third, b"span")
    ok = (nucleus | satellite | root) & (leaf | span) & (kind[k + 4] == _WORD)
    # a leaf: ( W ( leaf N ) [( rel2par R )] ( text BODY ) ); a span: ( W ( span N N ) [( rel2par R )]
    header_end = np.where(leaf, 5, 6)  # the bracket closing `leaf N` or `span N N`
    ok &= kind[k + header_end] == _CLOSE
    ok &= leaf | (kind[k + 5] == _WORD)
    rel = header_end + 1
    has_rel = (kind[k + rel] == _OPEN) & is_word(keyword(rel + 1), b"rel2par") & (kind[k + rel + 2] == _WORD) & (
        kind[k + rel + 3] == _CLOSE)
    text_at = rel + np.where(has_rel, 4, 0)
    ok &= span | ((kind[k + text_at] == _OPEN) & is_word(keyword(text_at + 1), b"text")
                  & (kind[k + text_at + 2] == _TEXT) & (kind[k + text_at + 3] == _CLOSE)
                  & (kind[k + text_at + 4] == _CLOSE))
    unit_end = k + np.where(leaf, text_at + 5, text_at)
    # after each node, closing brackets only, up to the next node or the end of its file
    next_start = np.append(k[1:], n_tokens)
    last_of_file = np.append(node_file[1:] != node_file[:-1], True)
    next_start = np.where(last_of_file, file_token_end[node_file], next_start)
    not_closing = np.concatenate(([0], np.cumsum(kind[:n_tokens] != _CLOSE, dtype=np.int32)))
    inside = np.minimum(unit_end, next_start)  # (a node running past the next is not read anyway)
    ok &= (unit_end <= next_start) & (not_closing[next_start] == not_closing[inside])
    closes = next_start - unit_end
    bad[node_file[~ok]] = True
    # each file begins with a node
    node_count = np.bincount(node_file, minlength=len(utf8))
    starts_with_node = np.zeros(len(utf8), np.bool_)
    first_node = np.searchsorted(k, file_tokens)
    found = first_node < len(k)
    starts_with_node[found] = k[first_node[found]] == file_tokens[found]
    bad |= ~starts_with_node  # also a file without tokens: the regular-expression pass gives it no nodes too

    # numbers: 1 to 8 ASCII digits
    span_index = np.flatnonzero(span)
    number_at = pad_token[np.concatenate((k + 4, (k + 5)[span_index]))]
    value, digits = _numbers(words.at(number_at))
    digits_ok = (digits >= 1) & (cls[number_at + digits] != _WORD)
    bad[node_file[~digits_ok[:len(k)]]] = True
    bad[node_file[span_index[~digits_ok[len(k):]]]] = True

    # relations: from the token after `rel2par` to the bracket after it, back over whitespace
    with_rel = np.flatnonzero(has_rel)
    rel_start, rel_end = pad_token[(k + rel + 2)[with_rel]], pad_token[(k + rel + 3)[with_rel]]
    rel_end = _stripped(padded, rel_end, rel_start, bad, node_file[with_rel], -1)

    read = ~bad & (node_count > 0)
    keep = read[node_file]
    counts = np.zeros(n_files, np.int64)
    chosen = np.asarray(candidates, np.int64)
    counts[chosen[read]] = node_count[read]
    read_all = np.zeros(n_files, np.bool_)
    read_all[chosen[read]] = True

    # what the files read give: relations from the structure, bodies of their leaves
    number = value[:len(k)]
    last = np.zeros(len(k), np.int64)
    last[span_index] = value[len(k):]
    rel_start, rel_end = rel_start[keep[with_rel]], rel_end[keep[with_rel]]
    relation = np.zeros(int(keep.sum()), np.int64)  # 0: none
    codes, names = _strings(structure, words, rel_start, rel_end)
    relation[has_rel[keep]] = codes + 1
    body_kept = read[body_file]
    try:
        texts_of_candidates = _edu_texts(data, text_start[body_kept], text_end[body_kept],
                                         np.bincount(body_file[body_kept], minlength=len(utf8)))
    except UnicodeDecodeError:  # bytes that are no text's UTF-8 (a lone surrogate passed)
        return none_read
    edu_texts = [NO_TEXTS] * n_files
    for i, file_texts in zip(chosen[read].tolist(), compress(texts_of_candidates, read.tolist())):
        edu_texts[i] = file_texts
    return read_all, NodeColumns(
        counts=counts, word=np.where(nucleus, 7, np.where(satellite, 9, 4))[keep], leaf=leaf[keep],
        number=number[keep], last=last[keep], relation=relation, relation_names=["", *names], closes=closes[keep],
        edu_texts=edu_texts)


#: the texts of a file without leaves
NO_TEXTS = ("", np.zeros(0, np.int32))
#: the UTF-8 of the whitespace characters (``str.isspace``) beyond ASCII: U+0085, U+00A0, U+1680, U+2000 to
#: U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, as integers (the first byte the highest), of two and three bytes
_WIDE_SPACES = [int.from_bytes(chr(c).encode(), "big") for c in (0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028,
                                                                0x2029, 0x202F, 0x205F, 0x3000)]
_SPACES_OF_TWO = np.array(sorted(c for c in _WIDE_SPACES if c < 1 << 16), np.int64)
_SPACES_OF_THREE = np.array(sorted(c for c in _WIDE_SPACES if c >= 1 << 16), np.int64)
_PARAGRAPH = np.frombuffer(b"<P>", np.uint8)


def _edu_text_ranges(raw: np.ndarray, start: np.ndarray, end: np.ndarray, bad: np.ndarray, body_file: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Where each body's EDU text lies: the body (``raw[start:end]``) stripped of whitespace, then of RST-DT's
    paragraph mark ``<P>`` at its end and the whitespace before it, as ``_forest`` did to each text; a file
    (``body_file``) is declined (``bad``) where that is not ASCII's whitespace alone: where more is stripped
    than looked over, or a text then begins or ends with a whitespace character beyond ASCII."""
    start = _stripped(raw, start.copy(), end, bad, body_file, 1)
    end = _stripped(raw, end.copy(), start, bad, body_file, -1)
    paragraph = (end - start >= 3) & (raw[end - 3] == _PARAGRAPH[0]) & (raw[end - 2] == _PARAGRAPH[1]) & (
        raw[end - 1] == _PARAGRAPH[2])
    end[paragraph] -= 3
    end = _stripped(raw, end, start, bad, body_file, -1)
    ends_wide = np.flatnonzero((start < end) & ((raw[start] >= 0x80) | (raw[end - 1] >= 0x80)))  # beyond ASCII
    if len(ends_wide):
        head, tail = start[ends_wide], end[ends_wide]
        first = raw[head].astype(np.int64) << 8 | raw[head + 1]  # the first two bytes, then three
        last = raw[tail - 2].astype(np.int64) << 8 | raw[tail - 1]  # the last two, then three
        wide = (_one_of(first, _SPACES_OF_TWO) | _one_of(first << 8 | raw[head + 2], _SPACES_OF_THREE)
                | _one_of(last, _SPACES_OF_TWO) | _one_of(raw[tail - 3].astype(np.int64) << 16 | last,
                                                          _SPACES_OF_THREE))
        bad[body_file[ends_wide[wide]]] = True
    return start, end


def _one_of(values: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Which of ``values`` are in ``wanted`` (sorted; a few, where ``np.isin`` costs more than a search)."""
    found: np.ndarray = wanted[np.minimum(np.searchsorted(wanted, values), len(wanted) - 1)] == values
    return found


def _stripped(raw: np.ndarray, at: np.ndarray, limit: np.ndarray, bad: np.ndarray, file_of: np.ndarray, step: int
              ) -> np.ndarray:
    """``at`` moved in place by ``step`` over ASCII whitespace, not past ``limit`` (forward: the byte at ``at`` is
    looked at; backward, the one before it), at most :data:`_REACH` bytes; the files (``file_of`` each) of those
    with more declined (``bad``)."""
    behind = 0 if step > 0 else 1
    for _ in range(_REACH):
        spaced = (at < limit if step > 0 else at > limit) & _IS_SPACE[raw[at - behind]]
        if not spaced.any():
            return at
        at[spaced] += step
    bad[file_of[(at < limit if step > 0 else at > limit) & _IS_SPACE[raw[at - behind]]]] = True
    return at


def _edu_texts(data: bytes, start: np.ndarray, end: np.ndarray, leaves: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """Per file (``leaves`` of each, the ranges of their texts in ``data`` one file after the other), its leaves'
    texts joined, and where each ends (int32)."""
    chosen = b"".join([data[a:b] for a, b in zip(start.tolist(), end.tolist())])
    text = chosen.decode("utf-8")
    ends = np.cumsum(end - start)  # in bytes
    if len(text) < len(chosen):  # characters of several bytes: less the bytes that continue one before each end
        ends -= np.searchsorted(np.flatnonzero((np.frombuffer(chosen, np.uint8) & 0xC0) == 0x80), ends)
    file_end = np.cumsum(leaves)
    file_start = file_end - leaves
    text_bounds = np.concatenate(([0], ends))[np.concatenate(([0], file_end))].tolist()
    relative = (ends - np.repeat(text_bounds[:-1], leaves)).astype(np.int32)
    return [(text[a:b], relative[i:j]) for a, b, i, j in zip(text_bounds, text_bounds[1:], file_start.tolist(),
                                                               file_end.tolist())]


#: SWAR constants: a byte's high bit set where it is no ASCII digit (after ``^ _ZEROS``)
_ZEROS, _HIGH, _SEVEN = np.uint64(0x3030303030303030), np.uint64(0x8080808080808080), np.uint64(0x7F7F7F7F7F7F7F7F)
_OVER_NINE = np.uint64(0x7676767676767676)


def _numbers(eight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value, count) of the leading ASCII digits (at most 8) of each 8 bytes, the first byte the lowest."""
    x = eight ^ _ZEROS  # a digit's byte is now its value, 0 to 9
    not_digit = (((x & _SEVEN) + _OVER_NINE) | x) & _HIGH
    lowest = not_digit & (~not_digit + np.uint64(1))
    count = np.where(not_digit == 0, 8, (np.log2(np.maximum(lowest, np.uint64(1)).astype(np.float64)).astype(np.int64)
                                          - 7) // 8)
    # the digits moved to the top bytes (zeros below them), then added up in pairs, fours and eights
    shift = np.uint64(8) * (np.uint64(8) - np.minimum(count, 7).astype(np.uint64))
    v = np.where(count > 0, (x << shift) * (count < 8) + x * (count == 8), 0).astype(np.uint64)
    v = ((v & np.uint64(0x0F0F0F0F0F0F0F0F)) * np.uint64(2561)) >> np.uint64(8)
    v = ((v & np.uint64(0x00FF00FF00FF00FF)) * np.uint64(6553601)) >> np.uint64(16)
    v = ((v & np.uint64(0x0000FFFF0000FFFF)) * np.uint64(42949672960001)) >> np.uint64(32)
    return v.astype(np.int64), count


_MIX = np.uint64(0x9E3779B97F4A7C15)
#: the bytes of a token that group it (RST-DT's longest relation, ``elaboration-object-attribute-e``, has 30)
_KEYED = 32


def _strings(structure: bytes, words: Words, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """``structure[start:end]`` of each token (ASCII) as strings: (each token's code, the distinct strings the
    codes index), each distinct one decoded once: tokens are grouped by their length and first :data:`_KEYED`
    bytes (groups apart differ there, so their strings differ); one longer, or in a group of tokens not all
    alike, is decoded alone."""
    if not len(starts):
        return np.zeros(0, np.int64), []
    lengths = ends - starts
    # (a token's bytes from ``offset``, read where it has some: past its end, at its start and masked out)
    parts = [words.at(np.where(lengths > offset, starts + offset, starts)) & LOW[np.clip(lengths - offset, 0, 8)]
             for offset in range(0, _KEYED, 8)]
    key = lengths.astype(np.uint64)
    for part in parts:
        key = key * _MIX + part
    _, inverse = np.unique(key, return_inverse=True)  # (not return_index: it sorts stably, three times slower)
    inverse = inverse.reshape(-1)
    first = np.empty(inverse.max() + 1, np.int64)
    first[inverse] = np.arange(len(inverse))  # a token of each group
    alike = (lengths <= _KEYED) & (lengths[first][inverse] == lengths)
    for part in parts:
        alike &= part[first][inverse] == part
    names = [structure[a:b].decode("ascii") for a, b in zip(starts[first].tolist(), ends[first].tolist())]
    codes = inverse.astype(np.int64)
    odd = np.flatnonzero(~alike).tolist()
    if odd:
        index = {name: code for code, name in enumerate(names)}
        for i in odd:
            codes[i] = index.setdefault(structure[starts[i]:ends[i]].decode("ascii"), len(index))
        names = list(index)
    return codes, names
