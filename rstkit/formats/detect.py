"""Format auto-detection (``--pred-format auto``): which registered format a file or directory is in.

Content decides first: every format's ``sniff`` looks at the beginning of the file. A
dialect whose sniff recognises its own marks beats the format it is a dialect of
(``isanlp`` over ``rs3``). Formats sharing a syntax (``dis``, ``codra``, ``li_qi``,
``feng_dis``) are then told apart by file name: the format whose extension or prefix
matches most specifically wins (``x.txt.dis`` is ``feng_dis``, ``x.dis`` is ``dis``). Whatever
is still tied is an error listing the candidates; nothing is guessed silently.

In a directory every file is detected on its own; files that fit no format (notes, document
maps) are left out, and files of two formats are an error naming both, with example files.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import FormatError
from ..folders import walk_files
from . import Format, all_formats, read_text

#: dialect -> the format its files also look like; the dialect's sniff is specific to it
DIALECTS = {"isanlp": "rs3"}
_SNIFF_CHARS = 20_000


def detect_format(path: str | Path) -> str:
    """The key of the one format ``path`` (a file, or a directory of files) is in.

    Raises :class:`FormatError` when no format, or more than one, fits.

    >>> detect_format("corpora/sample/gold")
    'dis'
    """
    path = Path(path)
    if path.is_dir():
        return _detect_directory(path)
    keys = candidates(path)
    if len(keys) == 1:
        return keys[0]
    if not keys:
        if _looks_like_disrpt(read_text(path, strict=False)[:_SNIFF_CHARS]):
            raise FormatError("cannot detect the format: this is a DISRPT segmentation (tok or conllu), which is "
                              "told by its .tok/.conllu name or by naming its format", str(path), fixes=("format",))
        raise FormatError("cannot detect the format: the content matches no known format (known: "
                          f"{', '.join(sorted(all_formats()))})", str(path))
    raise FormatError(f"ambiguous format: could be any of {', '.join(keys)}; name one", str(path),
                      fixes=("format",))


def _looks_like_disrpt(text: str) -> bool:
    """Whether ``text`` begins as a DISRPT ``.tok``/``.conllu`` file does (a ``# newdoc id`` line, or
    comments and token lines of ten tab-separated columns): no tree format, outside the registry."""
    lines = [line for line in text.split("\n")[:50] if line.strip()]
    return bool(lines) and (any(line.startswith("# newdoc id") for line in lines)
                            or all(line.startswith("#") or line.count("\t") == 9 for line in lines))


def _detect_directory(directory: Path) -> str:
    found: dict[Path, set[str]] = {}
    for file in walk_files(directory).files:  # what cannot be listed is for the read to report
        if file.stat().st_size > 0:
            keys = set(candidates(file))
            if keys:  # other files (a document map, notes) are left out
                found[file] = keys
    if not found:
        raise FormatError("cannot detect the format: no file matches a known format", str(directory))
    common = set.intersection(*found.values())
    if len(common) == 1:
        return common.pop()
    if not common:
        raise FormatError(f"cannot detect the format: files of different formats ({describe_groups(found)})",
                          str(directory))
    raise FormatError(f"ambiguous format: could be any of {', '.join(sorted(common))}; name one", str(directory),
                      fixes=("format",))


def describe_groups(found: dict[Path, set[str]], examples: int = 3) -> str:
    """``dmrst: a.txt, b.txt; dis: x.dis`` -- files grouped by the formats they fit."""
    groups: dict[str, list[str]] = {}
    for file, keys in found.items():
        groups.setdefault(" or ".join(sorted(keys)), []).append(file.name)
    return "; ".join(f"{keys}: {', '.join(names[:examples])}" + (f" and {len(names) - examples} more"
                                                                 if len(names) > examples else "")
                     for keys, names in sorted(groups.items()))


def sniffed(path: str | Path) -> set[str]:
    """Keys of every format whose ``sniff`` accepts the beginning of ``path`` (no tie-breaking)."""
    return _sniff_text(read_text(path, strict=False)[:_SNIFF_CHARS])


def _sniff_text(text: str) -> set[str]:
    if not text.strip():
        return set()
    return {k for k, f in all_formats().items() if f.sniff is not None and f.sniff(text)}


def candidates(path: str | Path) -> list[str]:
    """Keys of the formats ``path``'s content and name fit, best first (ties all kept)."""
    path = Path(path)
    text = read_text(path, strict=False)[:_SNIFF_CHARS]
    if not text.strip():
        raise FormatError("cannot detect the format of an empty file", str(path))
    formats = all_formats()
    keys = _sniff_text(text)
    keys = {k for k in keys if not any(DIALECTS.get(other) == k for other in keys)}
    if len(keys) > 1:
        scores = {k: _claim_length(formats[k], path.name) for k in keys}
        best = max(scores.values())
        if best > 0:
            keys = {k for k in keys if scores[k] == best}
    return sorted(keys)


def _claim_length(fmt: Format, name: str) -> int:
    """How specifically a file name matches a format: the length of its matching extension or prefix."""
    lower = name.lower()
    lengths = [len(e) for e in fmt.extensions if lower.endswith(e)]
    lengths += [len(p) for p in fmt.prefixes if lower.startswith(p)]
    return max(lengths, default=0)
