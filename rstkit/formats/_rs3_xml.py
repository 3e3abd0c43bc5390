"""The precise front end of the rs3/rs4 reader (:func:`rstkit.formats.rs3.loads_rs3`): any well-formed
file, through ElementTree, into the scanner's :class:`~._rs3_scan.Markup`; a FormatError explains a
malformed one. Private: the format's one reader is ``loads_rs3``."""
from __future__ import annotations

import bisect
import re
import xml.etree.ElementTree as ET
from xml.parsers import expat

from ..errors import FormatError, printable
from ._rs3_scan import Markup


# -- the XML parser (any well-formed file; explains malformed ones) ----------------------------
def parse_xml(text: str, source: str) -> Markup:
    try:
        root = ET.fromstring(text)
    except UnicodeEncodeError as exc:  # a lone surrogate: only a str given to loads_rs3 can hold one
        raise FormatError(f"malformed XML: character {printable(text[exc.start])} (a lone surrogate) cannot be "
                          "encoded", source, text.count("\n", 0, exc.start) + 1) from None
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else None
        message = str(exc).split(": line ")[0]
        column = f" at column {exc.position[1] + 1}" if exc.position else ""
        raise FormatError(f"malformed XML: {message}{column}", source, line) from None
    if root.tag != "rst":
        raise FormatError(f"root element is <{printable(root.tag)}>, expected <rst>", source, 1)
    body = root.find("body")
    if body is None:
        raise FormatError("no <body> element", source, 1)
    items = [node for node in body if node.tag in ("segment", "group")]
    ids = [node.get("id") for node in items]
    columns = ([node.tag == "segment" for node in items], ids, [node.get("parent") for node in items],
               [node.get("relname", "") for node in items],
               ["".join(node.itertext()) if node.tag == "segment" else "" for node in items],
               _body_item_lines(text))
    return Markup([(rel.get("name"), rel.get("type")) for rel in root.iterfind("header/relations/rel")],
                   columns,
                   [dict(e.attrib) for e in body.iterfind("secedges/secedge")],
                   [dict(s.attrib) for s in body.iterfind("signals/signal")],
                   [(s.get("type", ""), s.get("subtypes", "")) for s in root.iterfind("header/sigtypes/sig")])


def _body_item_lines(text: str) -> list[int | None]:
    """The line of each ``<segment>`` and ``<group>`` of the first ``<rst><body>``, in file order
    (ElementTree does not record them). Which elements those are is the XML parser's reading, not the
    text's spelling, so an id written with an entity, or elements of the same id outside the body,
    change nothing; a line is counted by the ``\n`` before the tag, as in every format."""
    parser = expat.ParserCreate()
    newlines = [m.start() for m in re.finditer(b"\n", text.encode("utf-8"))]
    path: list[str] = []
    bodies = 0
    lines: list[int | None] = []

    def start(tag: str, _attributes: dict[str, str]) -> None:
        nonlocal bodies
        if path == ["rst"] and tag == "body":
            bodies += 1
        elif tag in ("segment", "group") and path == ["rst", "body"] and bodies == 1:
            lines.append(bisect.bisect_left(newlines, parser.CurrentByteIndex) + 1)
        path.append(tag)

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda _tag: path.pop()
    parser.Parse(text, True)
    return lines


def rs4_element_line(text: str, tag: str, k: int) -> int | None:
    """The line of the ``k``-th (from 0) ``<secedge>`` or ``<signal>`` (``tag``) of the first ``<rst><body>``,
    as :func:`_body_item_lines` counts lines; for messages about one, so only read when there is one."""
    parser = expat.ParserCreate()
    newlines = [m.start() for m in re.finditer(b"\n", text.encode("utf-8"))]
    path: list[str] = []
    bodies = 0
    found: list[int] = []
    section = {"secedge": "secedges", "signal": "signals"}[tag]

    def start(name: str, _attributes: dict[str, str]) -> None:
        nonlocal bodies
        if path == ["rst"] and name == "body":
            bodies += 1
        elif name == tag and path == ["rst", "body", section] and bodies == 1:
            found.append(bisect.bisect_left(newlines, parser.CurrentByteIndex) + 1)
        path.append(name)

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda _name: path.pop()
    parser.Parse(text, True)
    return found[k] if k < len(found) else None
