"""Advance widths read from a TrueType font file: an oracle for text widths that shares nothing with
rstkit's own table (rstkit.draw.fonts). Reads the tables the widths need (head, hhea, hmtx, cmap
formats 4 and 12) as the OpenType specification lays them out."""
from __future__ import annotations

import struct
from pathlib import Path

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


class FontWidths:
    """``em(char)``: the advance width of ``char``'s glyph in em; None for a character the font lacks."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        (n_tables,) = struct.unpack_from(">H", data, 4)
        tables = {}
        for i in range(n_tables):
            tag, _, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
            tables[tag.decode("latin-1")] = (offset, length)
        (self.units_per_em,) = struct.unpack_from(">H", data, tables["head"][0] + 18)
        (n_metrics,) = struct.unpack_from(">H", data, tables["hhea"][0] + 34)
        hmtx = tables["hmtx"][0]
        self.advances = [struct.unpack_from(">H", data, hmtx + 4 * i)[0] for i in range(n_metrics)]
        self.glyphs = self._cmap(data, tables["cmap"][0])

    @staticmethod
    def _cmap(data: bytes, cmap: int) -> dict[int, int]:
        (n_subtables,) = struct.unpack_from(">H", data, cmap + 2)
        glyphs: dict[int, int] = {}
        for i in range(n_subtables):
            platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
            if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
                continue
            at = cmap + offset
            (fmt,) = struct.unpack_from(">H", data, at)
            if fmt == 4:
                (seg2,) = struct.unpack_from(">H", data, at + 6)
                ends = struct.unpack_from(f">{seg2 // 2}H", data, at + 14)
                starts = struct.unpack_from(f">{seg2 // 2}H", data, at + 16 + seg2)
                deltas = struct.unpack_from(f">{seg2 // 2}h", data, at + 16 + 2 * seg2)
                range_at = at + 16 + 3 * seg2
                ranges = struct.unpack_from(f">{seg2 // 2}H", data, range_at)
                for k, (start, end) in enumerate(zip(starts, ends)):
                    for code in range(start, end + 1):
                        if code == 0xFFFF:
                            continue
                        if ranges[k] == 0:
                            glyph = (code + deltas[k]) & 0xFFFF
                        else:
                            where = range_at + 2 * k + ranges[k] + 2 * (code - start)
                            (glyph,) = struct.unpack_from(">H", data, where)
                            glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
                        if glyph:
                            glyphs.setdefault(code, glyph)
            elif fmt == 12:
                (n_groups,) = struct.unpack_from(">I", data, at + 12)
                for g in range(n_groups):
                    start, end, first = struct.unpack_from(">III", data, at + 16 + 12 * g)
                    for code in range(start, end + 1):
                        glyphs.setdefault(code, first + code - start)
        return glyphs

    def em(self, char: str) -> float | None:
        glyph = self.glyphs.get(ord(char))
        if glyph is None:
            return None
        advance = self.advances[min(glyph, len(self.advances) - 1)]
        return advance / self.units_per_em


def dejavu_sans(bold: bool = False) -> FontWidths | None:
    """The widths of DejaVu Sans (the drawings' first font), or None where the font is not installed."""
    path = DEJAVU / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return FontWidths(path) if path.exists() else None
