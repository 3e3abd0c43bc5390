"""DiscoEval's published instance counts, to check a corpus against.

Corpora themselves come from the library: :func:`rstkit.corpus.resolve_corpus` (``gum``,
``rstdt`` or a path), with their default label map in ``corpus.kind.label_map``.
"""
from __future__ import annotations

import warnings

from ..errors import RSTKitWarning
from .task import ProbeTask

#: instances per split published with DiscoEval (its README), to check a corpus against
PUBLISHED_SIZES = {"rstdt": {"train": 17051, "dev": 2045, "test": 2308}}


def check_published_sizes(task: ProbeTask) -> bool:
    """Warn when a corpus with published DiscoEval sizes gives other instance counts; True if they agree."""
    published = PUBLISHED_SIZES.get(task.corpus)
    if published is None:
        return True
    ours = {name: len(split.instances) for name, split in task.splits.items()}
    if ours == published:
        return True
    warnings.warn(f"{task.corpus}: {'/'.join(str(ours[s]) for s in published)} train/dev/test instances, "
                  f"DiscoEval published {'/'.join(f'{n:,}' for n in published.values())}: "
                  "an incomplete release, or other documents in the splits", RSTKitWarning, stacklevel=2)
    return False
