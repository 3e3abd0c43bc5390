"""JSON text exactly as ``json.dumps(value, indent=2)`` writes it, faster on long lists of records.

The standard library writes indented JSON in pure Python, one generator step per value; a JSON
report holds a record per document and metric (tens of thousands of values). Here each list
item that is a record of one shape (nested dicts with string keys and scalar values, like every
per-document row) is written from a format string built once per shape, and everything else as
the standard library would. Tested byte for byte against ``json.dumps`` (tests/report/test_jsontext.py).
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

_encode_any = json.JSONEncoder().encode
_encode_str: Callable[[str], str] = json.encoder.encode_basestring_ascii


@dataclass(frozen=True)
class Table:
    """Records of one shape given as columns, written as the list of those records would be
    (:meth:`records`), from one format string and one encoding pass per column.

    ``fields`` names each column in record order; a nested record is a ``(key, fields)`` pair.
    Columns (at least one, all of one length) hold scalars of the plain types (str, int, float,
    bool, None).

    >>> table = Table(("doc", ("S", ("gold", "f1"))), (["a", "b"], [3, 4], [50.0, 0.0]))
    >>> table.records()
    [{'doc': 'a', 'S': {'gold': 3, 'f1': 50.0}}, {'doc': 'b', 'S': {'gold': 4, 'f1': 0.0}}]
    """

    fields: tuple[Any, ...]
    columns: tuple[Sequence[Any], ...]

    def records(self) -> list[dict[str, Any]]:
        """The records, as dicts."""
        return [_record(self.fields, iter(row)) for row in zip(*self.columns)]


def _record(fields: tuple[Any, ...], values: Any) -> dict[str, Any]:
    return {(field[0] if isinstance(field, tuple) else field):
            (_record(field[1], values) if isinstance(field, tuple) else next(values)) for field in fields}


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, indent=2)``, byte for byte."""
    out: list[str] = []
    _write(value, out, "\n")
    return "".join(out)


def _float(value: float) -> str:
    if value - value == 0.0:  # finite (for infinities and NaN it is NaN)
        return float.__repr__(value)
    if math.isnan(value):
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


_SCALARS: dict[type, Callable[[Any], str]] = {
    str: _encode_str, int: int.__repr__, float: _float, bool: {True: "true", False: "false"}.__getitem__,
    type(None): lambda _: "null"}

# a record's shape: its keys in order, a nested record as (key,) ... None
_Shape = list[str | tuple[str] | None]


def _layout(record: dict[Any, Any], shape: _Shape, leaves: list[str]) -> bool:
    """Append the record's shape to ``shape`` and its scalar values, as JSON, to ``leaves``; False
    when it holds anything but non-empty dicts with string keys and scalars of the plain types."""
    for key, item in record.items():
        if type(key) is not str:
            return False
        kind = type(item)
        if kind is dict:
            if not item:
                return False
            shape.append((key,))
            if not _layout(item, shape, leaves):
                return False
            shape.append(None)
        else:
            encode = _SCALARS.get(kind)
            if encode is None:
                return False
            shape.append(key)
            leaves.append(encode(item))
    return True


def _template(shape: _Shape, newline: str) -> str:
    """The format string of a record of ``shape`` at the indentation ``newline``: a ``{}`` per value."""
    parts = ["{{"]
    indents = [newline]
    separator = ""
    for key in shape:
        inner = indents[-1] + "  "
        if key is None:
            parts.append(indents.pop() + "}}")
            separator = ","
            continue
        name = _encode_str(key[0] if isinstance(key, tuple) else key).replace("{", "{{").replace("}", "}}")
        if isinstance(key, tuple):
            parts.append(f"{separator}{inner}{name}: {{{{")
            indents.append(inner)
            separator = ""
        else:
            parts.append(f"{separator}{inner}{name}: {{}}")
            separator = ","
    parts.append(indents.pop() + "}}")
    return "".join(parts)


def _write_table(table: Table, out: list[str], newline: str) -> None:
    """``table`` as its list of records, written by :func:`_write`."""
    shape: _Shape = []
    if not table.columns[0] or not _layout(_record(table.fields, (c[0] for c in table.columns)), shape, []):
        _write(table.records(), out, newline)  # none, or a shape without a template: the general path
        return
    inner = newline + "  "
    encoded = []
    for column in table.columns:
        kinds = set(map(type, column))
        if len(kinds) != 1 or next(iter(kinds)) not in _SCALARS:
            _write(table.records(), out, newline)  # mixed or unusual values: the general path
            return
        kind = kinds.pop()
        finite = kind is float and all(map(math.isfinite, column))  # each written as repr writes it
        encoded.append(map(float.__repr__ if finite else _SCALARS[kind], column))
    template = _template(shape, inner)
    out.append("[" + inner + ("," + inner).join(map(template.format, *encoded)) + newline + "]")


def _write(value: Any, out: list[str], newline: str) -> None:
    inner = newline + "  "
    if type(value) is Table:
        _write_table(value, out, newline)
        return
    if isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        separator = "{" + inner
        for key, item in value.items():
            out.append(separator + (_encode_str(key) if type(key) is str else _encode_any({key: 0})[1:-4]) + ": ")
            _write(item, out, inner)
            separator = "," + inner
        out.append(newline + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        templates: dict[tuple[str | tuple[str] | None, ...], str] = {}
        separator = "[" + inner
        for item in value:
            out.append(separator)
            separator = "," + inner
            if type(item) is dict and item:
                shape: _Shape = []
                leaves: list[str] = []
                if _layout(item, shape, leaves):
                    key = tuple(shape)
                    template = templates.get(key)
                    if template is None:
                        template = templates[key] = _template(shape, inner)
                    out.append(template.format(*leaves))
                    continue
            _write(item, out, inner)
        out.append(newline + "]")
    else:
        out.append(_SCALARS.get(type(value), _encode_any)(value))
