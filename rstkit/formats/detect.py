"""Format auto-detection (``--pred-format auto``): which registered format a file or directory is in.

Content decides first: every format's ``sniff`` looks at the beginning of the file. A
dialect whose sniff recognises its own marks beats the format it is a dialect of
(``isanlp`` over ``rs3``). Formats sharing a syntax (``dis``, ``codra``, ``li_qi``,
``feng_dis``) are then told apart by file name: the format whose extension or prefix
matches most specifically wins (``x.txt.dis`` is ``feng_dis``, ``x.dis`` is ``dis``). Whatever
is still tied is an error listing the candidates; nothing is guessed silently.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import FormatError
from . import Format, all_formats, read_text

#: dialect -> the format its files also look like; the dialect's sniff is specific to it
DIALECTS = {"isanlp": "rs3"}
_SNIFF_CHARS = 20_000
_FILES_TO_SNIFF = 5


def detect_format(path: str | Path) -> str:
    """The key of the one format ``path`` (a file, or a directory of files) is in.

    In a directory, the first few non-empty files decide; files that match no format are
    ignored. Raises :class:`FormatError` when no format, or more than one, fits.
    """
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
        files = [p for p in files if p.stat().st_size > 0][:_FILES_TO_SNIFF]
        if not files:
            raise FormatError("cannot detect the format: no non-empty files", str(path))
        found = {f.name: set(candidates(f)) for f in files}
        matched = [keys for keys in found.values() if keys]  # other files (a doc map, notes) are ignored
        if not matched:
            raise FormatError("cannot detect the format: no file matches a known format", str(path))
        common = set.intersection(*matched)
        if len(common) == 1:
            return common.pop()
        if not common:
            detail = "; ".join(f"{name}: {', '.join(sorted(k))}" for name, k in found.items() if k)
            raise FormatError(f"cannot detect the format: files look like different formats ({detail})", str(path))
        raise FormatError(f"ambiguous format: could be any of {', '.join(sorted(common))}; name one "
                          "(--pred-format KEY)", str(path))
    keys = candidates(path)
    if len(keys) == 1:
        return keys[0]
    if not keys:
        raise FormatError("cannot detect the format: the content matches no known format (known: "
                          f"{', '.join(sorted(all_formats()))})", str(path))
    raise FormatError(f"ambiguous format: could be any of {', '.join(keys)}; name one (--pred-format KEY)",
                      str(path))


def candidates(path: str | Path) -> list[str]:
    """Keys of the formats ``path``'s content and name fit, best first (ties all kept)."""
    path = Path(path)
    text = read_text(path)[:_SNIFF_CHARS]
    if not text.strip():
        raise FormatError("cannot detect the format of an empty file", str(path))
    formats = all_formats()
    keys = [k for k, f in formats.items() if f.sniff is not None and f.sniff(text)]
    keys = [k for k in keys if not any(DIALECTS.get(other) == k for other in keys)]
    if len(keys) > 1:
        scores = {k: _claim_length(formats[k], path.name) for k in keys}
        best = max(scores.values())
        if best > 0:
            keys = [k for k in keys if scores[k] == best]
    return sorted(keys)


def _claim_length(fmt: Format, name: str) -> int:
    """How specifically a file name matches a format: the length of its matching extension or prefix."""
    lower = name.lower()
    lengths = [len(e) for e in fmt.extensions if lower.endswith(e)]
    lengths += [len(p) for p in fmt.prefixes if lower.startswith(p)]
    return max(lengths, default=0)
