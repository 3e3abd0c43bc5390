"""Plain-text and Markdown tables, shared by the renderers of scores (:mod:`rstkit.report`) and audits.

Imports nothing from rstkit.
"""
from __future__ import annotations

from collections.abc import Sequence


def aligned(rows: Sequence[Sequence[str]], *, left: int = 1, widths: Sequence[int] | None = None) -> list[str]:
    """``rows`` (the header first) as text lines: the first ``left`` columns left-aligned, the
    others right-aligned, two spaces between columns, no trailing spaces, and a rule as wide as
    the widest line under the header. ``widths`` (default: each column's widest cell) may widen
    columns."""
    if widths is None:
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) if i < left else cell.rjust(width)
                       for i, (cell, width) in enumerate(zip(row, widths))).rstrip() for row in rows]
    return [lines[0], "-" * max(len(line) for line in lines), *lines[1:]]


def markdown_table(rows: Sequence[Sequence[str]]) -> list[str]:
    """``rows`` (the header first; cells already Markdown: names escaped with :func:`markdown_cell`)
    as the lines of a Markdown table."""
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    return lines + ["| " + " | ".join(row) + " |" for row in rows[1:]]


def markdown_cell(text: str) -> str:
    """``text`` as one cell of a Markdown table: backslashes and ``|`` escaped (an unescaped ``|``
    starts a new column), line breaks as spaces (a table row is one line)."""
    return " ".join(text.replace("\\", "\\\\").replace("|", "\\|").splitlines()) if text else text
