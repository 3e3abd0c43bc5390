"""The fast front end of the rs3/rs4 reader (:func:`rstkit.formats.rs3.loads_rs3`): files laid out as
rstWeb and GUM write them, read by regular expressions into the :class:`Markup` both front ends give,
or None for the XML parser (:mod:`._rs3_xml`) to read. Private: the format's one reader is
``loads_rs3``."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any


@dataclass
class Markup:
    """What the reader takes from a file, as both front ends (scanner, XML parser) give it."""

    #: (name, type) of each ``header/relations/rel``
    relations: list[tuple[str | None, str | None]]
    #: the segments and groups of the body, as columns: is a segment, id, parent, relname ("" where
    #: there is none), text, line
    body: tuple[list[bool], list[str | None], list[str | None], list[str], list[str], list[int | None]]
    #: attributes of each secondary edge and signal (the reader adds the EDU spans they name)
    secedges: list[dict[str, Any]]
    signals: list[dict[str, Any]]
    #: (type, subtypes) of each ``header/sigtypes/sig``
    sigtypes: list[tuple[str, str]]


# -- the fast scanner: files laid out as rstWeb and GUM write them -----------------------------
# A few regular expressions read the file and check its layout as they go (each segment and group
# on its own line, attributes in rstWeb's order, nothing an XML parser would rewrite); any other
# file is left to the XML parser. The reading expressions end in an alternative that catches the
# first character their elements do not account for, so a file is taken only when they cover it.
_WS = "[ \t\n]*+"
_V = '[^"<&\x00-\x1f\ud800-\udfff\ufffe\uffff]'  # in an attribute value, returned unchanged by an XML parser
_VAL = f'"({_V}++)"'  # non-empty
_ANY = f'"({_V}*+)"'  # possibly empty
_CHARS = "[^]<&\x00-\x08\x0a-\x1f\ud800-\udfff\ufffe\uffff]*+"  # no markup, newline, entity or ]
_TEXT = f"{_CHARS}(?:(?:&(?:lt|gt|amp|quot|apos);|](?!]>)){_CHARS})*+"  # nor ]]>, which XML forbids in text
_REL = f"<rel name={_VAL} type={_VAL} ?/>"
_SIG = f"<sig type={_ANY} subtypes={_ANY} ?/>"
_HEAD = (f"<rst>{_WS}<header>{_WS}<relations>(?:{_WS}{_REL})*{_WS}</relations>"
         f"(?:{_WS}<sigtypes>(?:{_WS}{_SIG})*{_WS}</sigtypes>)?{_WS}</header>{_WS}<body>")
# a line holding one segment or group: (s), id, parent, relname, text; or (last) the rest of the file,
# from the first character that starts no such line
_ITEMS = (f'\n[ \t]*+<(?:(s)egment|group) id={_VAL}(?(1)| type="{_V}++")'
          f"(?: parent={_VAL} relname={_VAL})?(?(1)>({_TEXT})</segment>| ?/>)"
          "|([^ \t](?s:.*))")
# the elements of a secedges or signals section, then (last) the rest of the file after them
_SECEDGES = f"{_WS}<secedge id={_ANY} source={_ANY} target={_ANY} relname={_ANY} ?/>|((?s:.+))"
_SIGNALS = f"{_WS}<signal source={_ANY} type={_ANY} subtype={_ANY} tokens={_ANY}( status={_ANY})? ?/>|((?s:.+))"
_END = f"</body>{_WS}</rst>{_WS}"


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """One of the patterns above, compiled when first used: compiling them all costs about 13 ms, which
    every command that lists files paid when the format registry imported this module."""
    return re.compile(pattern)


def scan(text: str) -> Markup | None:
    """The markup of a plainly laid out file, or None when the XML parser must read it."""
    body_start = text.find("<body>") + 6  # the first: no attribute value the header takes holds a "<"
    header = _header(text[:body_start]) if body_start > 5 else None
    if header is None:
        return None
    relations, sigtypes = header
    items = _compiled(_ITEMS).findall(text, body_start)
    if not items or not items[-1][-1]:
        return None  # the file ends in a segment or group
    rest: str = items.pop()[-1]
    first_line = text.count("\n", 0, body_start) + 2  # each line from there holds one element, up to the rest
    segment, ids, parents, relnames, texts, _ = [list(column) for column in zip(*items)] or [[] for _ in range(6)]
    if "&" in text:
        texts = [_unescape(t) for t in texts]
    lines: list[int | None] = list(range(first_line, first_line + len(items)))
    body = (list(map(bool, segment)), ids, [parent or None for parent in parents], relnames, texts, lines)
    secedges: list[dict[str, Any]] = []
    signals: list[dict[str, Any]] = []
    start = _skip_space(rest, 0)
    if rest.startswith("<secedges>", start):
        section = _section(_compiled(_SECEDGES), rest, start + 10, "</secedges>")
        if section is None:
            return None
        found, rest, start = section
        secedges = [{"id": edge_id, "source": source, "target": target, "relname": relname}
                    for edge_id, source, target, relname, _ in found]
    if rest.startswith("<signals>", start):
        section = _section(_compiled(_SIGNALS), rest, start + 9, "</signals>")
        if section is None:
            return None
        found, rest, start = section
        signals = [{"source": source, "type": kind, "subtype": subtype, "tokens": tokens, "status": status}
                   if with_status else {"source": source, "type": kind, "subtype": subtype, "tokens": tokens}
                   for source, kind, subtype, tokens, with_status, status, _ in found]
    if not _compiled(_END).fullmatch(rest, start):
        return None
    return Markup(list(relations), body, secedges, signals, list(sigtypes))


@lru_cache(maxsize=64)  # the files of a corpus share a few headers
def _header(header: str) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]] | None:
    """The relations and signal types a header declares, or None when it is not laid out plainly."""
    if not _compiled(_HEAD).fullmatch(header):
        return None
    return tuple(_compiled(_REL).findall(header)), tuple(_compiled(_SIG).findall(header))


def _section(elements: re.Pattern[str], text: str, start: int, closing: str) -> tuple[list[Any], str, int] | None:
    """The elements of a section from ``start`` to its closing tag (as tuples), the rest of the text and where
    its next tag starts; None when anything else comes before the closing tag."""
    found = elements.findall(text, start)
    if not found or not found[-1][-1]:
        return None
    rest = found.pop()[-1]
    end = _skip_space(rest, 0)
    return (found, rest, _skip_space(rest, end + len(closing))) if rest.startswith(closing, end) else None


def _skip_space(text: str, start: int) -> int:
    """Where the whitespace from ``start`` ends."""
    return _compiled(_WS).match(text, start).end()  # type: ignore[union-attr]  # it matches anywhere


def _unescape(text: str) -> str:
    """XML text with its named entities (the only ones :func:`scan` lets through) resolved."""
    if "&" not in text:
        return text
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&apos;", "'") \
        .replace("&amp;", "&")
