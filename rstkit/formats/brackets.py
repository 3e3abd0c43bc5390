"""A bracket reader for the parenthesised tree formats of parsers (nltk-style trees).

Text is cut into ``(``, ``)`` and atoms (runs of non-space, non-bracket characters).
Formats whose EDU text is raw (Feng & Hirst's ``_!...!_``) name a ``protect`` pattern:
its matches are single atoms whatever they contain, so parentheses inside text never
unbalance the tree. Every item remembers its line, so format modules can report
``file:line`` for anything they reject.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import FormatError, printable
from ..tree import Node


@dataclass(frozen=True)
class Atom:
    text: str
    line: int


@dataclass(frozen=True)
class Bracket:
    """A parenthesised group: its items (atoms and nested groups) and its opening line."""

    items: tuple[Atom | Bracket, ...]
    line: int

    @property
    def atoms(self) -> list[Atom]:
        return [i for i in self.items if isinstance(i, Atom)]

    @property
    def groups(self) -> list[Bracket]:
        return [i for i in self.items if isinstance(i, Bracket)]

    @property
    def head(self) -> str | None:
        """The first item when it is an atom (the label of an nltk-style tree)."""
        return self.items[0].text if self.items and isinstance(self.items[0], Atom) else None


def _tokenizer(protect: str | None) -> re.Pattern[str]:
    parts = ([f"(?P<protected>{protect})"] if protect else []) + [
        r"(?P<open>\()", r"(?P<close>\))", r"(?P<atom>[^\s()]+)", r"(?P<space>\s+)"]
    return re.compile("|".join(parts), re.DOTALL)


def parse_brackets(text: str, fmt: str, source: str | None, protect: str | None = None,
                   first_line: int = 1) -> list[Bracket]:
    """All top-level bracketed groups of ``text``, in order.

    Unbalanced brackets and atoms outside any bracket are :class:`FormatError` naming the
    format, the file and the line.
    """
    stack: list[tuple[list[Atom | Bracket], int]] = []
    top: list[Bracket] = []
    line = first_line
    for match in _tokenizer(protect).finditer(text):
        kind, value = match.lastgroup, match.group()
        if kind == "open":
            stack.append(([], line))
        elif kind == "close":
            if not stack:
                raise FormatError(f"malformed {fmt} file: ')' closes nothing", source, line)
            items, opened = stack.pop()
            group = Bracket(tuple(items), opened)
            (stack[-1][0] if stack else top).append(group)
        elif kind != "space":
            if not stack:
                raise FormatError(f"malformed {fmt} file: text '{printable(value, 30)}' outside brackets", source, line)
            stack[-1][0].append(Atom(value, line))
        line += value.count("\n")
    if stack:
        raise FormatError(f"malformed {fmt} file: '(' opened here is never closed", source, stack[-1][1])
    return top


def parse_one(text: str, fmt: str, source: str | None, protect: str | None = None,
              first_line: int = 1) -> Bracket:
    """The single bracketed tree of ``text`` (an error when there is none or several)."""
    groups = parse_brackets(text, fmt, source, protect, first_line)
    if not groups:
        raise FormatError(f"malformed {fmt} file: no bracketed tree found", source, first_line)
    if len(groups) > 1:
        raise FormatError(f"malformed {fmt} file: a second tree starts here (one tree expected)",
                          source, groups[1].line)
    return groups[0]


T = TypeVar("T")


def fold(top: Bracket, on_group: Callable[[Bracket, list[Any]], T],
         on_atom: Callable[[Atom], object] = lambda a: a) -> T:
    """Evaluate a bracketed tree bottom-up without recursion (any depth).

    Items are visited in document order: ``on_atom(atom)`` for each atom, ``on_group(group,
    values)`` once all of a group's items have values (``values[i]`` belongs to ``group.items[i]``).
    """
    stack: list[list[Any]] = [[top, 0, []]]  # frames [group, next item, values so far]
    while True:
        frame = stack[-1]
        group, position, values = frame
        if position == len(group.items):
            stack.pop()
            value = on_group(group, values)
            if not stack:
                return value
            stack[-1][2].append(value)
            continue
        frame[1] = position + 1
        item = group.items[position]
        if isinstance(item, Bracket):
            stack.append([item, 0, []])
        else:
            values.append(on_atom(item))


def dumps_indented(root: Node, head: Callable[[Node], str], leaf: Callable[[Node], str]) -> str:
    """Write a tree one node per line, two-space indent, closing brackets at line ends.

    ``head(node)`` is the label opening an internal node's bracket; ``leaf(node)`` is an
    EDU's whole bracket.
    """
    lines: list[str] = []
    stack: list[tuple[Node, int, bool]] = [(root, 0, False)]
    while stack:
        node, depth, closing = stack.pop()
        if closing:
            lines[-1] += ")"
            continue
        pad = "  " * depth
        if node.is_leaf:
            lines.append(pad + leaf(node))
            continue
        lines.append(f"{pad}({head(node)}")
        stack.append((node, depth, True))
        stack.extend((child, depth + 1, False) for child in reversed(node.children))
    return "\n".join(lines) + "\n"
