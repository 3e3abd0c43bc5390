"""Strings to the integer ids of an embedding table: the one vocabulary of rstkit's models (the
parser's words, the segmenter's words and characters). Imports nothing from rstkit."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

#: the ids every vocabulary reserves: padding and the unknown string
PAD, UNK = 0, 1
_RESERVED = ("<pad>", "<unk>")


class Vocabulary:
    """Strings <-> ids, 0 for padding and 1 for unknown; ``items`` lists them in id order."""

    def __init__(self, items: Sequence[str]):
        self.items = [*_RESERVED, *(item for item in items if item not in _RESERVED)]
        self.index = {item: i for i, item in enumerate(self.items)}

    @classmethod
    def build(cls, items: Iterable[str], min_count: int = 2, max_size: int | None = None) -> Vocabulary:
        """The ``max_size`` most frequent of ``items`` seen at least ``min_count`` times."""
        counts = Counter(items)
        return cls([item for item, count in counts.most_common(max_size) if count >= min_count])

    def __len__(self) -> int:
        return len(self.items)

    def get(self, item: str) -> int:
        """The id of ``item`` (:data:`UNK` when it is not in the vocabulary)."""
        return self.index.get(item, UNK)
