"""The metric families by name: one line per family (:mod:`rstkit.metrics.family`)."""
from __future__ import annotations

from ..errors import RSTKitError
from .dependency import DEPENDENCY
from .family import MetricFamily
from .parseval import PARSEVAL
from .rst_parseval import RST_PARSEVAL
from .segmentation import SEGMENTATION

FAMILIES: dict[str, MetricFamily] = {family.name: family for family in (
    RST_PARSEVAL,
    PARSEVAL,
    DEPENDENCY,
    SEGMENTATION,
)}

#: the ``metric`` settings, in the order the command line lists them
METRICS: tuple[str, ...] = tuple(FAMILIES)
#: the families that score trees (``--metric all``); token-level ones are scored alone
TREE_METRICS: tuple[str, ...] = tuple(name for name, f in FAMILIES.items() if not f.token_level)


def family(name: str) -> MetricFamily:
    """The family of metric ``name``."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise RSTKitError(f"metric must be one of {', '.join(METRICS)}, not {name!r}") from None
