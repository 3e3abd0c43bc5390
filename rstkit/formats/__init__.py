"""Readers and writers of RST file formats, one module per format, and their registry.

Each format is registered as a :class:`Format` under a short key (``dis``, ``rs3``,
``rsd``, ...). A reader turns one file into one or more :class:`~rstkit.tree.RSTTree`;
a writer turns one tree into text.
"""
from __future__ import annotations

import codecs
import re
import tempfile
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePath

from ..errors import FormatError, RSTKitWarning
from ..tree import RSTTree

Reader = Callable[..., list[RSTTree]]
Writer = Callable[[RSTTree], str]


@dataclass(frozen=True)
class Format:
    """A registered file format.

    ``read(path, lenient=False, encoding=None, **options)`` returns the trees in a file (several for
    multi-document formats; ``encoding`` names the file's encoding, see :func:`read_text`);
    ``write(tree)`` returns the text of one file, or is None
    for read-only formats. ``extensions`` are the file-name endings of the format, used
    to list a directory and to derive document ids; ``sniff(text)`` says whether a
    file's content looks like this format (for ``--pred-format auto``). ``prefixes`` are
    file-name beginnings that mark the format too (li_qi's ``parsed_``); ``options`` names
    the keyword options ``read`` takes besides ``lenient`` (e.g. ``doc_map``; ``encoding``, which every
    reader takes, is added to them). ``by_name``
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

    def __post_init__(self) -> None:
        if "encoding" not in self.options:
            object.__setattr__(self, "options", (*self.options, "encoding"))

    def claims(self, name: str) -> bool:
        """Whether a file name (not a path) has this format's extension or prefix."""
        name = name.lower()
        return name.endswith(self.extensions) or name.startswith(self.prefixes)

    def doc_id(self, path: str | Path) -> str:
        """The document id of a file of this format (see :func:`doc_id_from_path`)."""
        return doc_id_from_path(path, self.extensions, self.prefixes)


_REGISTRY: dict[str, Format] = {}


def register(fmt: Format) -> Format:
    if fmt.key in _REGISTRY:
        raise ValueError(f"format {fmt.key!r} registered twice")
    _REGISTRY[fmt.key] = fmt
    return fmt


def get_format(key: str) -> Format:
    """The registered format ``key`` (a FormatError lists the known keys).

    >>> fmt = get_format("dis")
    >>> fmt.extensions, fmt.multi_document
    (('.dis',), False)
    """
    _load_builtin()
    try:
        return _REGISTRY[key]
    except KeyError:
        raise FormatError(f"unknown format {key!r}; known formats: {', '.join(sorted(_REGISTRY))}") from None


def loads(text: str, format: str, *, lenient: bool = False, **options: object) -> RSTTree:
    """The one document in ``text``, read as format ``format`` by its registered reader (every format
    rstkit reads; a file: :func:`rstkit.read_tree`). Messages name the text ``<string>``.

    >>> tree = loads("( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!Hi._!) ) "
    ...              "( Satellite (leaf 2) (rel2par elaboration) (text _!Bye._!) ) )", "dis")
    >>> tree.n_edus, dumps(tree, "rsd").count("\\n")
    (2, 2)
    """
    fmt = get_format(format)
    with tempfile.TemporaryDirectory(prefix="rstkit-") as folder:
        path = Path(folder) / f"string{fmt.extensions[0]}"
        path.write_text(text, encoding="utf-8")
        try:
            trees = fmt.read(path, lenient=lenient, **options)
        except FormatError as exc:
            raise FormatError(str(exc).replace(str(path), "<string>")) from None
    if len(trees) != 1:
        raise FormatError(f"<string>: {len(trees)} documents in the text; loads reads one (read a file with "
                          "rstkit.read_file for several)")
    return trees[0]


def dumps(tree: RSTTree, format: str) -> str:
    """The text of ``tree`` in format ``format`` (every format rstkit writes).

    >>> from rstkit import read_tree
    >>> dumps(read_tree("corpora/sample/gold/sample_bread.dis"), "rsd").splitlines()[0].split("\\t")[:2]
    ['1', 'Making bread at home is simpler than it looks.']
    """
    fmt = get_format(format)
    if fmt.write is None:
        raise FormatError(f"format {fmt.key!r} can be read but not written")
    return fmt.write(tree)


def all_formats() -> dict[str, Format]:
    _load_builtin()
    return dict(_REGISTRY)


def named_formats() -> tuple[Format, ...]:
    """The registered formats told by a file's name (``by_name``), in order of registration (memoised: every
    file of a folder asks)."""
    _load_builtin()
    cached = _NAMED.get(len(_REGISTRY))  # formats are only ever added: the count tells the set
    if cached is None:
        cached = _NAMED[len(_REGISTRY)] = tuple(fmt for fmt in _REGISTRY.values() if fmt.by_name)
    return cached


_NAMED: dict[int, tuple[Format, ...]] = {}


def read_text(path: str | Path, fallback: str = "latin-1", *, encoding: str | None = None,
              lenient: bool = False, strict: bool = True) -> str:
    """A file's text, the one way every reader gets it, or an error naming the file, the line and the
    byte that cannot be decoded (``fixes``: ``encoding``, ``lenient``).

    With ``encoding``, the file is decoded with it. Otherwise: UTF-16 with a byte-order mark; else
    UTF-8 (a byte-order mark dropped); else, for a file that holds no UTF-8 multi-byte sequence at
    all, a legacy 8-bit file (RST-DT's few Latin-1 bytes, isanlp's cp1251 export), ``fallback``. A
    file that holds UTF-8 sequences and bytes that are not UTF-8 (UTF-8 text with a stray byte) is
    an error: decoding it in another encoding would change every non-ASCII character it has. With
    ``lenient``, such bytes are replaced by U+FFFD with a warning. ``strict=False`` replaces them
    without a word (format detection only looks at the text).
    """
    return _read(as_path(path), fallback, encoding, lenient, strict)[0]


def read_text_utf8(path: str | Path, *, encoding: str | None = None) -> tuple[str, bytes]:
    """:func:`read_text`'s text, and the same text as UTF-8 bytes (for readers that work on bytes): the
    file's own bytes, its byte-order mark left out, where it was decoded as UTF-8; else the text encoded."""
    text, utf8 = _read(as_path(path), "latin-1", encoding, False, True)
    return text, utf8 if utf8 is not None else text.encode("utf-8", "surrogatepass")


def as_path(path: str | Path) -> Path:
    """``path`` as a Path, not copied when it is one (a copy parses it again: a tenth of the time of reading
    a small file)."""
    return path if isinstance(path, Path) else Path(path)


def _read(path: Path, fallback: str, encoding: str | None, lenient: bool, strict: bool) -> tuple[str, bytes | None]:
    """:func:`read_text`'s text, and the file's bytes without a byte-order mark where they are that text's
    UTF-8 (None otherwise)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FormatError(f"cannot read file: {exc.strerror or exc}", str(path)) from None
    if encoding is not None:
        try:
            codec = codecs.lookup(encoding).name
        except LookupError:
            raise FormatError(f"unknown encoding {encoding!r}", str(path)) from None
        if codec == "utf-8":
            return _utf8(data, path, lenient, strict)
        return _decode(data, codec, path, lenient, strict), None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16"), None
        except UnicodeDecodeError:
            raise FormatError("file starts with a UTF-16 byte-order mark but is not valid UTF-16",
                              str(path)) from None
    try:
        return _without_bom(data).decode("utf-8"), _without_bom(data)
    except UnicodeDecodeError:
        pass
    if _UTF8_SEQUENCE.search(data) is None:
        return _decode(data, fallback, path, lenient, strict), None
    return _utf8(data, path, lenient, strict)


def _without_bom(data: bytes) -> bytes:
    return data.removeprefix(codecs.BOM_UTF8)


def _utf8(data: bytes, path: Path, lenient: bool, strict: bool) -> tuple[str, bytes | None]:
    """``data`` decoded as UTF-8 (a byte-order mark dropped), and its bytes where nothing was replaced."""
    try:
        return _without_bom(data).decode("utf-8"), _without_bom(data)
    except UnicodeDecodeError:
        return _decode(data, "utf-8-sig", path, lenient, strict), None


#: a well-formed UTF-8 multi-byte sequence (text that holds one was written as UTF-8)
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def _decode(data: bytes, codec: str, path: Path, lenient: bool, strict: bool) -> str:
    """``data`` decoded with ``codec``; a byte it cannot decode is an error, or replaced (lenient: with a
    warning; not strict: silently)."""
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        if not strict:
            return data.decode(codec, errors="replace")
        line = data.count(b"\n", 0, exc.start) + 1
        name = codecs.lookup(codec).name.removesuffix("-sig")
        message = (f"not {name.upper() if name.startswith('utf') else name} text: byte 0x{data[exc.start]:02x} at "
                   f"offset {exc.start} cannot be decoded")
        if not lenient:
            raise FormatError(message, str(path), line, fixes=("encoding", "lenient")) from None
        warnings.warn(f"{path}:{line}: {message}; every such byte replaced by U+FFFD (lenient)", RSTKitWarning,
                      stacklevel=3)
        return data.decode(codec, errors="replace")


def split_lines(text: str) -> list[str]:
    """The lines of a file's text as editors number them: split at ``\\n`` (a ``\\r`` before it is
    dropped) and nowhere else -- unlike ``str.splitlines``, which also breaks at form feeds,
    ``\\x1c``-``\\x1e``, ``\\x85`` and U+2028/U+2029 that EDU text may hold."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,9}$")


def doc_id_from_path(path: str | Path, suffixes: Iterable[str] | None = None, prefixes: Iterable[str] = ()) -> str:
    """The document id of a file, the one rule for every format and corpus: the file name minus the
    longest of ``suffixes`` it ends with (default: every registered format's extensions) and the first
    of ``prefixes`` it starts with, then minus one remaining extension (``.out``, ``.txt``, ...) and
    RST-DT's ``.out`` if one is still there (``wsj_1100.out.txt`` -> ``wsj_1100``, as its gold
    ``wsj_1100.out.dis``).

    ``wsj_0600.out.dis`` -> ``wsj_0600``, ``GUM_news_iodine.rs4`` -> ``GUM_news_iodine``,
    ``ferry.txt.tree`` -> ``ferry``, ``a.txt`` -> ``a``, ``parsed_wsj_0602.out`` (prefix ``parsed_``)
    -> ``wsj_0602``. An "extension" starts with a letter, so ``doc.1`` keeps its ``.1``.
    """
    name = path.name if isinstance(path, PurePath) else Path(path).name
    lowered, lengths = _longest_first(known_suffixes() if suffixes is None else suffixes)
    lower = name.lower()
    if lower.endswith(lowered):
        for suffix, length in zip(lowered, lengths):
            if lower.endswith(suffix) and length < len(name):
                name = name[:-length]
                break
    for prefix in prefixes:
        if name.lower().startswith(prefix.lower()) and len(prefix) < len(name):
            name = name[len(prefix):]
            break
    name = _EXTENSION.sub("", name) or name
    return _RSTDT_OUT.sub("", name) or name


#: what RST-DT's file names add to a document id (``wsj_1100.out``), before any format's extension
_RSTDT_OUT = re.compile(r"\.out$", re.IGNORECASE)


def source_name(path: str | Path | None) -> str:
    """What a reader's messages call its input: the path, or ``<string>`` for text without one."""
    return str(path) if path is not None else "<string>"


def input_names(path: str | Path | None, doc_id: str | None, suffixes: Iterable[str] | None = None
                ) -> tuple[str, str]:
    """A reader's input named: its :func:`source_name`, and the document id (``doc_id`` when given,
    else :func:`doc_id_from_path` of ``path`` with ``suffixes``, else empty)."""
    if doc_id is None:
        doc_id = doc_id_from_path(path, suffixes) if path is not None else ""
    return source_name(path), doc_id


def known_suffixes() -> frozenset[str]:
    _load_builtin()
    cached = _SUFFIXES.get(len(_REGISTRY))  # formats are only ever added: the count tells the set
    if cached is None:
        cached = _SUFFIXES[len(_REGISTRY)] = frozenset(
            {ext for fmt in _REGISTRY.values() for ext in fmt.extensions} | {".edus"})
    return cached


_SUFFIXES: dict[int, frozenset[str]] = {}


def _longest_first(suffixes: Iterable[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """``suffixes`` sorted longest first, lower-cased, and their lengths (memoised: every file of a corpus asks
    with the same set)."""
    key = suffixes if isinstance(suffixes, (tuple, frozenset)) else tuple(suffixes)
    ordered = _ORDERED.get(key)
    if ordered is None:
        longest_first = sorted(key, key=len, reverse=True)
        ordered = _ORDERED[key] = tuple(s.lower() for s in longest_first), tuple(map(len, longest_first))
    return ordered


_ORDERED: dict[tuple[str, ...] | frozenset[str], tuple[tuple[str, ...], tuple[int, ...]]] = {}


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
