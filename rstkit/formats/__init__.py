"""Readers and writers of RST file formats, one module per format, and their registry.

Each format is registered as a :class:`Format` under a short key (``dis``, ``rs3``,
``rsd``, ...). A reader turns one file into one or more :class:`~rstkit.tree.RSTTree`;
a writer turns one tree into text.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import FormatError
from ..tree import RSTTree

Reader = Callable[..., list[RSTTree]]
Writer = Callable[[RSTTree], str]


@dataclass(frozen=True)
class Format:
    """A registered file format.

    ``read(path, lenient=False, **options)`` returns the trees in a file (several for
    multi-document formats); ``write(tree)`` returns the text of one file, or is None
    for read-only formats. ``extensions`` are the file-name endings of the format, used
    to list a directory and to derive document ids; ``sniff(text)`` says whether a
    file's content looks like this format (for ``--pred-format auto``). ``prefixes`` are
    file-name beginnings that mark the format too (li_qi's ``parsed_``); ``options`` names
    the keyword options ``read`` takes besides ``lenient`` (e.g. ``doc_map``). ``by_name``
    is False for formats whose files look, by name, like another format's (hilda's
    ``*.dis``): a file name alone never selects them.
    """

    key: str
    description: str
    read: Reader
    write: Writer | None
    extensions: tuple[str, ...]
    sniff: Callable[[str], bool] | None = None
    multi_document: bool = False
    prefixes: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    by_name: bool = True

    def claims(self, name: str) -> bool:
        """Whether a file name (not a path) has this format's extension or prefix."""
        name = name.lower()
        return name.endswith(self.extensions) or name.startswith(self.prefixes)


_REGISTRY: dict[str, Format] = {}


def register(fmt: Format) -> Format:
    if fmt.key in _REGISTRY:
        raise ValueError(f"format {fmt.key!r} registered twice")
    _REGISTRY[fmt.key] = fmt
    return fmt


def get_format(key: str) -> Format:
    _load_builtin()
    try:
        return _REGISTRY[key]
    except KeyError:
        raise FormatError(f"unknown format {key!r}; known formats: {', '.join(sorted(_REGISTRY))}") from None


def all_formats() -> dict[str, Format]:
    _load_builtin()
    return dict(_REGISTRY)


def read_text(path: str | Path) -> str:
    """A file's text (UTF-8, falling back to Latin-1); a clear error if it cannot be read."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FormatError(f"cannot read file: {exc.strerror or exc}", str(path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


_DOC_SUFFIXES = re.compile(r"(\.out)?\.(dis|rs3|rs4|rsd|edus)$", re.IGNORECASE)


def doc_id_from_path(path: str | Path) -> str:
    """Stable document id from a file name: ``wsj_0600.out.dis`` -> ``wsj_0600``,
    ``GUM_news_iodine.rs4`` -> ``GUM_news_iodine``, ``file1.dis`` -> ``file1``."""
    return _DOC_SUFFIXES.sub("", Path(path).name)


_loaded = False


def _load_builtin() -> None:
    """Import the built-in format modules (each registers itself)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from importlib import import_module

    for name in BUILTIN_MODULES:
        import_module(f"{__name__}.{name}")


#: modules of rstkit.formats that register a format when imported
BUILTIN_MODULES = ["dis", "rs3", "rsd",
                   "hilda", "surdeanu", "codra", "feng", "braud_coling", "li_qi", "braud_eacl", "dplp",
                   "dmrst", "isanlp", "surdeanu_native", "feng_dis", "hilda_orig"]
