"""Bytes read 8 at a time at any position, as unsigned integers (the first byte the lowest): what the bulk
readers (DISRPT's ``_scan``, the .dis forest path's ``_dis_bulk``) compare words and digits with. Private."""
from __future__ import annotations

import numpy as np

#: zero bytes a bulk reader puts after its bytes, so that a look-up near the end stays inside
PADDING = 32


class Words:
    """Bytes (followed by :data:`PADDING` zero bytes), read 8 at a time at any position: one look-up gives
    the 8 bytes that start there as an integer, the first byte the lowest."""

    def __init__(self, padded: np.ndarray, size: int) -> None:
        self.padded, self.size = padded, size
        self.words = np.ndarray((size + 16,), dtype="<u8", buffer=padded, strides=(1,))

    def at(self, positions: np.ndarray) -> np.ndarray:
        """The 8 bytes that start at each of ``positions``."""
        found: np.ndarray = self.words[positions]
        return found


def word(piece: bytes) -> np.uint64:
    """Up to 8 bytes as :meth:`Words.at` gives them."""
    return np.uint64(int.from_bytes(piece, "little"))


#: the lowest k bytes of a word, by k
LOW = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)
#: 0x01 in each byte of a word
EACH = int.from_bytes(b"\x01" * 8, "little")


def has_byte(words: np.ndarray, byte: int) -> np.ndarray:
    """Whether any of the 8 bytes of each word is ``byte``."""
    value = words ^ np.uint64(EACH * byte)
    found: np.ndarray = ((value - np.uint64(EACH)) & ~value & np.uint64(EACH * 0x80)) != 0
    return found
